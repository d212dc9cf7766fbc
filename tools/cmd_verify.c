/* ftv verify FILE...: bounded exhaustive verification of scenario worlds
 * (verify/verify.h): every execution of the world's queued updates against
 * its CPUs' calls, up to the equivalence of commuting steps; the verdict,
 * and for a violation the shortest counterexample's report and replay
 * file. */
#include "tools/paths.h"
#include "tools/verify_combine.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/opt.h"
#include "verify/mutant.h"
#include "verify/scenario.h"
#include "verify/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_MAXEXEC = 256, O_MAXSTEPS, O_JSON, O_SHARD, O_NOREDUCE, O_OUT, O_FIRST, O_MUTATE,
       O_COMBINE };

static const struct ftv_opt verify_opts[] = {
	{ .name = "max-executions", .key = O_MAXEXEC, .arg = "N",
	  .help = "stop after N executions (the verdict is then incomplete)" },
	{ .name = "max-steps", .key = O_MAXSTEPS, .arg = "N",
	  .help = "visible steps per execution (default: the file's steps)" },
	{ .name = "shard", .key = O_SHARD, .arg = "I/N",
	  .help = "explore only shard I (0..N-1) of N of the schedule tree" },
	{ .name = "unreduced", .key = O_NOREDUCE,
	  .help = "explore every interleaving (no partial-order reduction)" },
	{ .name = "mutate", .key = O_MUTATE, .arg = "NAME",
	  .help = "inject the known bug NAME into the patcher",
	  .word = ftv_mutant_word },
	{ .name = "first", .key = O_FIRST,
	  .help = "stop at the first counterexample (not the shortest)" },
	{ .name = "out", .key = O_OUT, .arg = "DIR",
	  .help = "write counterexample replay files to DIR (default .)",
	  .words = FTV_WORDS_DIR },
	{ .name = "json", .key = O_JSON,
	  .help = "one JSON object per file instead of text" },
	{ .name = "combine", .key = O_COMBINE,
	  .help = "the FILEs are the --json outputs of shards: one verdict per world" },
	FTV_PATHS_OPTION,
	{ 0 },
};

struct vopts {
	uint64_t max_exec, max_steps;
	unsigned shard, nshards;
	int json, noreduce, first, combine;
	const char *out;
	const struct ftv_mutant *mutant;
};

static int parse_shard(const char *v, unsigned *i, unsigned *n)
{
	char *end;
	unsigned long a, b;

	a = strtoul(v, &end, 10);
	if (end == v || *end != '/')
		return -1;
	b = strtoul(end + 1, &end, 10);
	if (*end || !b || a >= b || b > 1u << 20)
		return -1;
	*i = (unsigned)a;
	*n = (unsigned)b;
	return 0;
}

static void json_report(const struct scenario *s, const struct verify_config *vc,
			const struct verify_result *vr, const char *replay, const char *report)
{
	struct json j;
	const struct exec_verify_stats *x = &vr->x;
	char bound[160], sched[SCN_MAX_SCHED * 12];

	verify_bound(vr, vc, bound, sizeof(bound));
	json_init(&j, stdout);
	json_begin_object(&j);
	json_key_str(&j, "type", "verify");
	json_key_str(&j, "name", s->name);
	json_key_str(&j, "file", s->path);
	json_key_str(&j, "scheme", ftv_scheme_name(s->cfg.scheme));
	json_key_u64(&j, "cpus", s->cfg.exec.ncpus);
	json_key_str(&j, "verdict", verify_verdict(vr));
	json_key_bool(&j, "complete", x->complete);
	json_key_str(&j, "bound", bound);
	json_key_u64(&j, "executions", x->executions);
	json_key_u64(&j, "pruned", x->pruned);
	json_key_u64(&j, "blocked", x->blocked);
	json_key_u64(&j, "steps", x->steps);
	json_key_u64(&j, "restarts", x->restarts);
	json_key_bool(&j, "reduced", vc->reduce);
	json_key_str(&j, "mutate", s->cfg.mutant_name ? s->cfg.mutant_name : "none");
	json_key_u64(&j, "shard", vc->shard);
	json_key_u64(&j, "shards", vc->nshards);
	json_key_double(&j, "seconds", vr->secs, 3);
	if (vr->violated) {
		verify_schedule_format(vr->cx, vr->ncx, sched, sizeof(sched));
		json_key_str(&j, "kinds", vr->kinds);
		json_key_u64(&j, "counterexample_steps", vr->cx_steps);
		json_key_u64(&j, "found_after", vr->cx_found);
		json_key_str(&j, "schedule", sched);
		json_key_str(&j, "replay", replay);
		json_key_str(&j, "report", report);
	}
	json_end_object(&j);
	json_newline(&j);
}

/* Writes the counterexample's replay scenario to dir/NAME.cx.scn; path
 * gets its name. */
static int write_replay(const struct scenario *cx, const char *dir, const char *cmdline,
			const struct verify_result *vr, char *path, size_t n)
{
	char header[1024];
	FILE *f;

	snprintf(path, n, "%s/%s.cx.scn", dir, cx->name);
	snprintf(header, sizeof(header),
		 "ftv verify counterexample: a scenario (ftv scenario FILE replays it)\n"
		 "found by: %s\n"
		 "shortest of %llu executions explored: %zu visible steps, violation %s",
		 cmdline, (unsigned long long)vr->x.executions, vr->cx_steps, vr->kinds);
	f = fopen(path, "w");
	if (!f)
		return -1;
	scenario_write(f, cx, header);
	return fclose(f) ? -1 : 0;
}

static int verify_file(const struct ftv_paths *paths, const char *file, const struct vopts *o,
		       const char *cmdline, int *status)
{
	char buf[4200], replay[4400] = "";
	const char *path = ftv_paths_find(paths->scenarios, file, ".scn", buf, sizeof(buf));
	struct scenario *s = malloc(sizeof(*s)), *cx = malloc(sizeof(*cx));
	struct verify_config vc;
	struct verify_result vr;
	struct ftv_err err;
	char *report = NULL;
	size_t rlen = 0;
	FILE *out = stdout;
	int ret = -1;

	if (!s || !cx) {
		fprintf(stderr, "ftv verify: out of memory\n");
		goto done;
	}
	if (scenario_load(path, s, &err)) {
		fprintf(stderr, "ftv verify: %s\n", err.msg);
		goto done;
	}
	if (ftv_mutant_check(o->mutant, s->cfg.scheme, &err)) {
		fprintf(stderr, "ftv verify: %s: %s\n", file, err.msg);
		goto done;
	}
	ftv_mutant_apply(o->mutant, &s->cfg);
	scenario_verify_config(s, &vc);
	if (o->max_exec)
		vc.max_executions = o->max_exec;
	if (o->max_steps)
		vc.max_steps = o->max_steps;
	vc.reduce = !o->noreduce;
	vc.shard = o->shard;
	vc.nshards = o->nshards;
	vc.first = o->first;
	if (o->json) {
		out = open_memstream(&report, &rlen);
		if (!out) {
			fprintf(stderr, "ftv verify: out of memory\n");
			goto done;
		}
	} else {
		printf("== %s: scheme %s, %u CPUs, exhaustive, %s, mutate %s\n", s->name,
		       ftv_scheme_name(s->cfg.scheme), s->cfg.exec.ncpus,
		       vc.reduce ? "reduced" : "unreduced",
		       s->cfg.mutant_name ? s->cfg.mutant_name : "none");
		fflush(stdout);
	}
	s->cfg.notes_out = o->json ? NULL : stdout;
	if (scenario_verify(s, paths->corpus, paths->tramp, &vc, out, &vr, cx, NULL, &err)) {
		if (out != stdout)
			fclose(out);
		fprintf(stderr, "ftv verify: %s\n", err.msg);
		goto done;
	}
	if (vr.violated && write_replay(cx, o->out, cmdline, &vr, replay, sizeof(replay))) {
		fprintf(stderr, "ftv verify: %s: cannot write the replay file\n", replay);
		if (out != stdout)
			fclose(out);
		verify_result_free(&vr);
		goto done;
	}
	if (o->json) {
		fclose(out);
		json_report(s, &vc, &vr, replay, report ? report : "");
	} else {
		scenario_verify_print(stdout, s, &vc, &vr);
		printf("time: %.1f s, %.0f executions/s (%llu runs in all)\n", vr.secs,
		       vr.secs > 0 ? (double)vr.x.executions / vr.secs : 0.0,
		       (unsigned long long)(vr.x.executions + vr.x.blocked + vr.x.probes +
					    vr.x.discovery));
		if (vr.violated)
			printf("replay: %s (ftv scenario %s)\n", replay, replay);
	}
	if (verify_exit(&vr) > *status)
		*status = verify_exit(&vr);
	verify_result_free(&vr);
	ret = 0;
done:
	free(report);
	free(s);
	free(cx);
	return ret;
}

static int cmd_verify(int argc, char **argv)
{
	struct ftv_paths paths;
	struct ftv_getopt g;
	struct vopts vo = { .nshards = 1, .out = "." };
	int status = FTV_EXIT_OK, nfiles = 0, o;
	const char **files = calloc((size_t)argc, sizeof(*files));
	char cmdline[1024] = "ftv verify";

	if (!files)
		return FTV_EXIT_USAGE;
	for (int i = 1; i < argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), " %s",
			 argv[i]);
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_MAXEXEC:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &vo.max_exec))
				goto usage;
			break;
		case O_MAXSTEPS:
			if (ftv_opt_u64(&g, 1, 100000000, &vo.max_steps))
				goto usage;
			break;
		case O_SHARD:
			if (parse_shard(g.val, &vo.shard, &vo.nshards)) {
				ftv_opt_bad(&g, "is not I/N with 0 <= I < N");
				goto usage;
			}
			break;
		case O_NOREDUCE:
			vo.noreduce = 1;
			break;
		case O_FIRST:
			vo.first = 1;
			break;
		case O_MUTATE:
			vo.mutant = ftv_mutant_find(g.val);
			if (!vo.mutant) {
				ftv_opt_bad_choice(&g);
				goto usage;
			}
			break;
		case O_JSON:
			vo.json = 1;
			break;
		case O_COMBINE:
			vo.combine = 1;
			break;
		case O_OUT:
			vo.out = g.val;
			break;
		case FTV_OPT_KERNEL:
			world_kernel_dir_set(g.val);
			break;
		case FTV_OPT_BUILD:
			ftv_paths_set_build(&paths, g.val);
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
	}
	if (o < 0) {
		free(files);
		return g.exit;
	}
	if (!nfiles) {
		free(files);
		return ftv_usage_error(g.cmd, "missing FILE");
	}
	if (vo.combine) {
		status = verify_combine(nfiles, files, vo.json);
		free(files);
		return status;
	}
	for (int i = 0; i < nfiles; i++)
		if (verify_file(&paths, files[i], &vo, cmdline, &status))
			goto usage;
	free(files);
	return status;
usage:
	free(files);
	return FTV_EXIT_USAGE;
}
FTV_COMMAND(verify, cmd_verify,
	    .summary = "prove a scenario world, or find its shortest counterexample",
	    .args = "FILE...",
	    .opts = verify_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Explores every execution of each scenario's world (whatever its policy):\n"
		   "its updates are queued at once and every interleaving of the visible\n"
		   "steps is run - fetches of watched instruction words and which write\n"
		   "each sees, loads of watched data, the patcher's steps and store-buffer\n"
		   "drains that touch what a CPU observes, context synchronisation - with\n"
		   "the CPUs running freely between them. Stores to data no CPU loads are\n"
		   "no steps. Steps of different agents on different locations commute and\n"
		   "one order of them is explored (source sets and sleep sets; --unreduced:\n"
		   "all).\n"
		   "Prints 'verified: N executions, complete', 'incomplete after N\n"
		   "executions' with the bound that stopped it, or the report of the\n"
		   "counterexample with the fewest visible steps (the shortest there is when\n"
		   "the walk is complete), written as a replay file\n"
		   "(NAME.cx.scn) that 'ftv scenario' runs. Exit 0 verified, 1 violation,\n"
		   "3 incomplete (not a proof), 2 bad usage or input.\n"
		   "\n"
		   "A 'settle' line between the scenario's operations (before any 'run')\n"
		   "is the walk's deterministic prefix: the operations above it are applied\n"
		   "at once, each to completion, before any CPU runs (writes in memory,\n"
		   "cache maintenance and IPIs done, grace periods over, every CPU\n"
		   "synchronised since); only the updates below it are explored, from the\n"
		   "world the prefix leaves (e.g. 'register t1', 'settle', 'register t2':\n"
		   "modify_call from a site already calling t1).\n"
		   "\n"
		   "--shard I/N explores one part of the tree; a shard's verdict is about\n"
		   "its part alone. --combine reads the --json outputs of the shards (any\n"
		   "number of files, one object a line) and gives each world one verdict:\n"
		   "verified only if every shard 0..N-1 is there and complete, the shortest\n"
		   "counterexample if any shard found one, else incomplete naming the shards\n"
		   "missing or incomplete; executions are summed.\n")
