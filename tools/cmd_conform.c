/* ftv conform: run every conformance scenario and compare each verdict with
 * the one its file expects. Plain lines by default; --tap prints TAP 13
 * (kselftest style) and --junit FILE writes JUnit XML, so CI systems show
 * each scenario as a test case.
 *
 * A scenario that cannot load or run (a parse error, a missing corpus
 * object) is an error, not a mismatch: one line on stderr, "not ok N name
 * # error: ..." in TAP, <error> in JUnit; the others still run. Exit 0 when
 * every verdict matches, 1 when one mismatched or a scenario was in error,
 * 2 when none ran (or the command line was bad). A scheme kernel scenario
 * is skipped, not failed, when no make kernel build is there to run it
 * ("# SKIP" in TAP, <skipped> in JUnit) and --kernel was not given. */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/opt.h"
#include "util/xml.h"
#include "verify/scenario.h"
#include "verify/world.h"

#include <dirent.h>
#include <sys/stat.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* R_SKIP: a scheme kernel scenario with no make kernel build to run on
 * (none given with --kernel, none in the build tree) */
enum result { R_OK, R_MISMATCH, R_ERROR, R_SKIP, R_COUNT };

struct outcome {
	char name[128];
	char scheme[16]; /* "" when the file did not load */
	enum result result;
	double secs;
	char detail[700];
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The .scn files named (by path, or by name from the scenarios directory:
 * `ftv conform callops-basic`), or found in the directories named. */
static int collect(char **args, int n, const char *scn_dir, char ***files, size_t *nfiles)
{
	size_t cap = 64;

	*files = malloc(cap * sizeof(char *));
	*nfiles = 0;
	for (int i = 0; i < n; i++) {
		DIR *d = opendir(args[i]);
		struct dirent *e;
		size_t first = *nfiles;

		if (!d) {
			char buf[4200];

			(*files)[(*nfiles)++] = strdup(ftv_paths_find(scn_dir, args[i], ".scn", buf,
								      sizeof(buf)));
		} else {
			while ((e = readdir(d))) {
				size_t l = strlen(e->d_name);
				char path[4096];

				if (l < 5 || strcmp(e->d_name + l - 4, ".scn"))
					continue;
				snprintf(path, sizeof(path), "%s/%s", args[i], e->d_name);
				if (*nfiles == cap)
					*files = realloc(*files, (cap *= 2) * sizeof(char *));
				(*files)[(*nfiles)++] = strdup(path);
			}
			closedir(d);
			qsort(*files + first, *nfiles - first, sizeof(char *), cmp_str);
		}
		if (*nfiles + 1 >= cap)
			*files = realloc(*files, (cap *= 2) * sizeof(char *));
	}
	return 0;
}

static int write_junit(FILE *f, const struct outcome *o, size_t n)
{
	size_t fails = 0, errors = 0, skipped = 0;
	double total = 0;

	for (size_t i = 0; i < n; i++) {
		fails += o[i].result == R_MISMATCH;
		errors += o[i].result == R_ERROR;
		skipped += o[i].result == R_SKIP;
		total += o[i].secs;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
		n, fails, errors, total);
	fprintf(f, "  <testsuite name=\"ftv-conform\" tests=\"%zu\" failures=\"%zu\" "
		   "errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n", n, fails, errors, skipped,
		total);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "    <testcase classname=\"ftv.conform%s", o[i].scheme[0] ? "." : "");
		xml_escape(f, o[i].scheme);
		fprintf(f, "\" name=\"");
		xml_escape(f, o[i].name);
		fprintf(f, "\" time=\"%.3f\">", o[i].secs);
		if (o[i].result != R_OK) {
			fprintf(f, "\n      <%s message=\"",
				o[i].result == R_ERROR ? "error" :
				o[i].result == R_SKIP ? "skipped" : "failure");
			xml_escape(f, o[i].detail);
			fprintf(f, "\"/>\n    ");
		}
		fprintf(f, "</testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return fclose(f);
}

/* A scenario's name before it has one: its file name without .scn. */
static void name_of_file(const char *path, char *buf, size_t n)
{
	const char *base = strrchr(path, '/');
	size_t l;

	base = base ? base + 1 : path;
	l = strlen(base);
	if (l > 4 && !strcmp(base + l - 4, ".scn"))
		l -= 4;
	snprintf(buf, n, "%.*s", (int)l, base);
}

/* Loads and runs one scenario into o; -1 (o->detail says why) when it
 * could not. */
static int run_one(const char *file, const struct ftv_paths *paths, struct outcome *o)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scn_result res;
	struct ftv_err err;
	char want[200] = "";

	name_of_file(file, o->name, sizeof(o->name));
	if (!s) {
		snprintf(o->detail, sizeof(o->detail), "%s: out of memory", file);
		return -1;
	}
	if (scenario_load(file, s, &err)) {
		snprintf(o->detail, sizeof(o->detail), "%s", err.msg);
		free(s);
		return -1;
	}
	if (s->expect_ok < 0) {
		/* ftv scenario just reports; conform compares */
		snprintf(o->detail, sizeof(o->detail), "%s: no expect line (conform compares "
			 "the verdict with it)", file);
		free(s);
		return -1;
	}
	snprintf(o->name, sizeof(o->name), "%s", s->name);
	snprintf(o->scheme, sizeof(o->scheme), "%s", ftv_scheme_name(s->cfg.scheme));
	if (s->cfg.scheme == FTV_SCHEME_KERNEL && !world_kernel_dir_given()) {
		char dir[4200], layout[4300];
		struct stat st;

		world_kernel_dir(paths->tramp, dir, sizeof(dir));
		snprintf(layout, sizeof(layout), "%s/ftv-layout.txt", dir);
		if (stat(layout, &st)) {
			o->result = R_SKIP;
			snprintf(o->detail, sizeof(o->detail),
				 "no make kernel build in %.600s (make kernel, or --kernel DIR)", dir);
			free(s);
			return 0;
		}
	}
	if (scenario_run(s, paths->corpus, paths->tramp, NULL, &res, &err)) {
		/* scenario_run names the file */
		snprintf(o->detail, sizeof(o->detail), "%s", err.msg);
		free(s);
		return -1;
	}
	for (unsigned j = 0; j < s->nexpect; j++) {
		strcat(want, " ");
		strcat(want, s->expect[j]);
	}
	o->result = res.verdict_ok ? R_OK : R_MISMATCH;
	if (res.explored && s->expect_verified) {
		/* a proof: every execution explored (ftv verify) */
		snprintf(o->detail, sizeof(o->detail),
			 "expected verified, found %s (%llu executions%s%s)",
			 res.violated ? "violation" : res.complete ? "verified" : "incomplete",
			 (unsigned long long)res.executions, res.kinds[0] ? ": " : "", res.kinds);
		free(s);
		return 0;
	}
	snprintf(o->detail, sizeof(o->detail),
		 "expected %s%s, found %s%s%s%s (%zu violations, %llu steps, %llu transitions)",
		 s->expect_ok ? "no violation" : "violation", want,
		 res.violated ? "violation" : res.vacuous ? "vacuous: " :
		 res.budget_out ? "budget exhausted: " : "no violation",
		 res.vacuous ? res.vacuous_why : res.budget_out ? res.budget : "",
		 res.kinds[0] ? ": " : "", res.kinds, res.nviolations,
		 (unsigned long long)res.stats.steps, (unsigned long long)res.stats.transitions);
	free(s);
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

enum { O_TAP = 256, O_JUNIT, O_JSON };

static const char *const result_name[R_COUNT] = { "ok", "mismatch", "error", "skip" };

/* --json: one object per scenario, then a summary, as ftv fuzz and ftv
 * verify write them (a "type" first). */
static void json_outcome(const struct outcome *o)
{
	struct json j;

	json_init(&j, stdout);
	json_begin_object(&j);
	json_key_str(&j, "type", "conform");
	json_key_str(&j, "name", o->name);
	json_key_str(&j, "scheme", o->scheme);
	json_key_str(&j, "result", result_name[o->result]);
	json_key_double(&j, "seconds", o->secs, 3);
	json_key_str(&j, "detail", o->detail);
	json_end_object(&j);
	json_newline(&j);
}

static void json_summary(const size_t count[R_COUNT])
{
	struct json j;

	json_init(&j, stdout);
	json_begin_object(&j);
	json_key_str(&j, "type", "conform-summary");
	json_key_u64(&j, "passed", count[R_OK]);
	json_key_u64(&j, "failed", count[R_MISMATCH]);
	json_key_u64(&j, "errors", count[R_ERROR]);
	json_key_u64(&j, "skipped", count[R_SKIP]);
	json_end_object(&j);
	json_newline(&j);
}

static const struct ftv_opt conform_opts[] = {
	{ .name = "tap", .key = O_TAP,
	  .help = "print TAP version 13 (kselftest style) instead of plain lines" },
	{ .name = "json", .key = O_JSON,
	  .help = "print one JSON object per scenario, then a summary object" },
	{ .name = "junit", .key = O_JUNIT, .arg = "FILE",
	  .help = "also write the results as JUnit XML to FILE",
	  .words = FTV_WORDS_FILE },
	FTV_PATHS_OPTION,
	{ 0 },
};

static int cmd_conform(int argc, char **argv)
{
	struct ftv_paths paths;
	struct ftv_getopt g;
	const char *junit = NULL;
	int tap = 0, json = 0, nargs = 0, o;
	char **files, *defdir[1];
	char **args = calloc((size_t)argc, sizeof(*args));
	size_t nfiles, count[R_COUNT] = { 0 };
	struct outcome *out;
	FILE *jf = NULL;
	int status;

	if (!args)
		return FTV_EXIT_USAGE;
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_TAP:
			tap = 1;
			break;
		case O_JSON:
			json = 1;
			break;
		case O_JUNIT:
			junit = g.val;
			break;
		case FTV_OPT_KERNEL:
			world_kernel_dir_set(g.val);
			break;
		case FTV_OPT_BUILD:
			ftv_paths_set_build(&paths, g.val);
			break;
		case FTV_OPT_ARG:
			args[nargs++] = (char *)g.val;
			break;
		}
	}
	if (o < 0) {
		free(args);
		return g.exit;
	}
	if (!nargs) {
		/* the installed scenarios, or the source tree's */
		defdir[0] = paths.scenarios;
		collect(defdir, 1, paths.scenarios, &files, &nfiles);
	} else {
		collect(args, nargs, paths.scenarios, &files, &nfiles);
	}
	free(args);
	if (!nfiles) {
		fprintf(stderr, "ftv conform: no scenario files\n");
		free(files);
		return FTV_EXIT_USAGE;
	}
	out = calloc(nfiles, sizeof(*out));
	/* the JUnit file is opened first: a path that cannot be written is
	 * bad usage before anything runs, not a lost report after */
	if (out && junit && !(jf = fopen(junit, "w"))) {
		fprintf(stderr, "ftv conform: %s: %s\n", junit, strerror(errno));
		status = FTV_EXIT_USAGE;
		goto done;
	}
	if (!out) {
		fprintf(stderr, "ftv conform: out of memory\n");
		status = FTV_EXIT_USAGE;
		goto done;
	}
	if (tap && !json)
		printf("TAP version 13\n1..%zu\n", nfiles);
	for (size_t k = 0; k < nfiles; k++) {
		double t0 = now();

		if (run_one(files[k], &paths, &out[k])) {
			out[k].result = R_ERROR;
			fflush(stdout);
			fprintf(stderr, "ftv conform: %s\n", out[k].detail);
		}
		out[k].secs = now() - t0;
		count[out[k].result]++;
		if (json)
			json_outcome(&out[k]);
		else if (tap)
			printf("%sok %zu %s # %s%s\n",
			       out[k].result == R_OK || out[k].result == R_SKIP ? "" : "not ", k + 1,
			       out[k].name, out[k].result == R_ERROR ? "error: " :
			       out[k].result == R_SKIP ? "SKIP " : "", out[k].detail);
		else if (out[k].result != R_ERROR)
			printf("%-9s %-36s %5.1fs  %s\n",
			       out[k].result == R_OK ? "ok" : out[k].result == R_SKIP ? "skip" :
			       "MISMATCH", out[k].name, out[k].secs, out[k].detail);
		fflush(stdout);
	}
	/* nothing ran: bad input, whatever was asked */
	status = count[R_ERROR] == nfiles ? FTV_EXIT_USAGE
		 : count[R_MISMATCH] || count[R_ERROR] ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
	if (json)
		json_summary(count);
	else if (!tap && status != FTV_EXIT_USAGE) {
		printf("%zu passed, %zu failed", count[R_OK], count[R_MISMATCH]);
		if (count[R_ERROR])
			printf(", %zu in error", count[R_ERROR]);
		if (count[R_SKIP])
			printf(", %zu skipped", count[R_SKIP]);
		printf("\n");
	}
	if (jf) {
		int rc = write_junit(jf, out, nfiles);

		jf = NULL;
		if (rc) {
			fprintf(stderr, "ftv conform: cannot write %s\n", junit);
			status = FTV_EXIT_USAGE;
		}
	}
done:
	if (jf)
		fclose(jf);
	for (size_t k = 0; k < nfiles; k++)
		free(files[k]);
	free(files);
	free(out);
	return status;
}
FTV_COMMAND(conform, cmd_conform,
	    .summary = "run the conformance scenarios and check their verdicts",
	    .args = "[FILE|DIR]...",
	    .opts = conform_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Runs every scenario named, or every .scn file of the directories\n"
		   "named (default: the installed or source tree's scenarios), and\n"
		   "compares each verdict with the one its file expects: no violation,\n"
		   "or a violation of the kinds named. Prints one line per scenario, or\n"
		   "TAP with --tap; --junit writes the same results for CI systems.\n")
