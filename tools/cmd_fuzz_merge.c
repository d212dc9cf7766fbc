/* ftv fuzz-merge FILE...: one campaign out of its shards. Each FILE is the
 * --json output of one `ftv fuzz --shard I/N --json` (findings, then a
 * summary object); the shards must be of one campaign (the same seed,
 * scheme, arch, mutant, objects, CPUs and budget, the same N) and all
 * there, each once. Prints the campaign's summary (text, or --json: the
 * findings with their shard, then one summary object) and with --junit
 * FILE a JUnit file with one test case per shard, failed by its findings.
 * Exit 0: no finding; 1: a finding; 2: bad usage or inconsistent inputs
 * (one line naming the file and what disagrees). */
#include "tools/shards.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/json_read.h"
#include "util/opt.h"
#include "util/xml.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct finding {
	struct jvalue v;
	unsigned line;
};

/* A shard: its summary (o.v), read by the merging mechanism of
 * tools/shards.h, and its findings. */
struct shard {
	struct shard_obj o;
	int have_sum;
	struct finding *f;
	size_t nf;
	uint64_t iterations, transitions, steps, violations;
	double elapsed;
};

/* The summary fields every shard of a campaign shares; absent in all of
 * them is fine (an older ftv), absent in some is not. */
static const char *const same_fields[] = { "seed", "scheme", "arch", "mutate", "objects",
					   "cpus", "budget", NULL };
#define NSAME (sizeof(same_fields) / sizeof(same_fields[0]) - 1)

static void free_shards(struct shard *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		jfree(&s[i].o.v);
		for (size_t k = 0; k < s[i].nf; k++)
			jfree(&s[i].f[k].v);
		free(s[i].f);
	}
	free(s);
}

/* A field's value as text, for comparing and for messages. */
static const char *field_text(const struct jvalue *sum, const char *key)
{
	const struct jvalue *v = jget(sum, key);

	return v && (v->type == JSTR || v->type == JNUM) ? v->s : NULL;
}

static int u64_field(const struct shard *s, const char *key, uint64_t *out,
		     struct ftv_err *err)
{
	if (jget_u64(jget(&s->o.v, key), out))
		return ftv_errf(err, "%s: the summary has no number \"%s\"", s->o.file, key);
	return 0;
}

#define NOT_FUZZ "not the --json output of ftv fuzz"

/* One line of a shard's output: a finding, or the summary (the last). */
static int take_line(void *ctx, const char *file, unsigned line, struct jvalue *v,
		     struct ftv_err *err)
{
	struct shard *s = ctx;
	const char *type = jget_str(v, "type");

	if (s->have_sum)
		return ftv_errf(err, "%s:%u: a line after the summary (two outputs in one file?)",
				file, line);
	if (type && !strcmp(type, "finding")) {
		struct finding *nf = realloc(s->f, (s->nf + 1) * sizeof(*nf));

		if (!nf)
			return ftv_errf(err, "out of memory");
		s->f = nf;
		s->f[s->nf++] = (struct finding){ *v, line };
		return 0;
	}
	if (type && !strcmp(type, "summary")) {
		s->o.v = *v;
		s->o.line = line;
		s->have_sum = 1;
		return 0;
	}
	return ftv_errf(err, "%s:%u: an object of type %s%s%s, not a finding or a summary "
			"of ftv fuzz --json", file, line, type ? "\"" : "", type ? type : "none",
			type ? "\"" : "");
}

static int read_shard(struct shard *s, struct ftv_err *err)
{
	const char *sh;
	unsigned idx, n;
	char extra;

	if (shards_read(s->o.file, NOT_FUZZ, take_line, s, err))
		return -1;
	if (!s->have_sum)
		return ftv_errf(err, "%s: no summary line: the shard did not finish (or this is "
				"not the --json output of ftv fuzz)", s->o.file);
	sh = jget_str(&s->o.v, "shard");
	if (!sh || sscanf(sh, "%u/%u%c", &idx, &n, &extra) != 2 || !n || idx >= n)
		return ftv_errf(err, "%s:%u: the summary's \"shard\" is %s%s%s, not I/N",
				s->o.file, s->o.line, sh ? "'" : "", sh ? sh : "missing",
				sh ? "'" : "");
	s->o.idx = idx;
	s->o.n = n;
	if (u64_field(s, "iterations", &s->iterations, err) ||
	    u64_field(s, "transitions", &s->transitions, err) ||
	    u64_field(s, "steps", &s->steps, err) || u64_field(s, "violations", &s->violations, err))
		return -1;
	if (jget_double(jget(&s->o.v, "elapsed_s"), &s->elapsed))
		s->elapsed = 0;
	return 0;
}

/* One campaign, every shard once and none missing (tools/shards.h). */
static int consistent(struct shard *s, size_t n, struct ftv_err *err)
{
	const struct shard_obj **o = calloc(n, sizeof(*o));
	char miss[512];
	size_t nmiss;
	int ret = -1;

	if (!o)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		o[i] = &s[i].o;
	if (!shards_agree(o, n, same_fields, "campaign", err)) {
		nmiss = shards_missing(o, n, s[0].o.n, 1, miss, sizeof(miss));
		ret = nmiss ? ftv_errf(err, "%zu of %llu shards missing: %s", nmiss,
				       (unsigned long long)s[0].o.n, miss)
			    : 0;
	}
	free(o);
	return ret;
}

static int cmp_shard(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;

	return x->o.idx < y->o.idx ? -1 : x->o.idx > y->o.idx;
}

static void finding_line(const struct shard *s, const struct finding *f, char *buf, size_t n)
{
	const char *kind = jget_str(&f->v, "kind"), *seed = jget_str(&f->v, "iteration_seed");
	const char *replay = jget_str(&f->v, "replay");
	uint64_t it = 0, ops = 0;

	jget_u64(jget(&f->v, "iteration"), &it);
	jget_u64(jget(&f->v, "operations_after"), &ops);
	snprintf(buf, n, "shard %u/%u: iteration %llu (seed %s) found %s, shrunk to %llu operations; "
		 "replay file %s (written where the shard ran)", (unsigned)s->o.idx, (unsigned)s->o.n,
		 (unsigned long long)it, seed ? seed : "?", kind ? kind : "?",
		 (unsigned long long)ops, replay ? replay : "?");
}

static int write_junit(const char *path, const struct shard *s, size_t n, size_t nfind,
		       double longest)
{
	FILE *f = fopen(path, "w");
	const struct jvalue *sum = &s[0].o.v;

	if (!f)
		return -1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(f, "<testsuites tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"%.3f\">\n", n,
		nfind, longest);
	fprintf(f, "  <testsuite name=\"ftv-fuzz\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
		   "skipped=\"0\" time=\"%.3f\">\n    <properties>\n", n, nfind, longest);
	for (size_t k = 0; k < NSAME; k++) {
		const char *v = field_text(sum, same_fields[k]);

		if (!v)
			continue;
		fprintf(f, "      <property name=\"%s\" value=\"", same_fields[k]);
		xml_escape(f, v);
		fprintf(f, "\"/>\n");
	}
	fprintf(f, "    </properties>\n");
	for (size_t i = 0; i < n; i++) {
		char line[2048];

		fprintf(f, "    <testcase classname=\"ftv.fuzz.");
		xml_escape(f, field_text(sum, "scheme") ? field_text(sum, "scheme") : "fuzz");
		fprintf(f, "\" name=\"shard %u/%u\" time=\"%.3f\">", (unsigned)s[i].o.idx,
			(unsigned)s[i].o.n, s[i].elapsed);
		for (size_t k = 0; k < s[i].nf; k++) {
			const char *rep = jget_str(&s[i].f[k].v, "report");

			finding_line(&s[i], &s[i].f[k], line, sizeof(line));
			fprintf(f, "\n      <failure message=\"");
			xml_escape(f, line);
			fprintf(f, "\" type=\"");
			xml_escape(f, jget_str(&s[i].f[k].v, "kind") ? jget_str(&s[i].f[k].v, "kind")
								  : "violation");
			fprintf(f, "\">");
			xml_escape(f, rep ? rep : "");
			fprintf(f, "</failure>\n    ");
		}
		fprintf(f, "<system-out>");
		snprintf(line, sizeof(line), "%llu iterations, %llu transitions, %llu steps, "
			 "%llu violating iterations (%s)", (unsigned long long)s[i].iterations,
			 (unsigned long long)s[i].transitions, (unsigned long long)s[i].steps,
			 (unsigned long long)s[i].violations, s[i].o.file);
		xml_escape(f, line);
		fprintf(f, "</system-out></testcase>\n");
	}
	fprintf(f, "  </testsuite>\n</testsuites>\n");
	return fclose(f) ? -1 : 0;
}

/* A finding as the shard printed it, with its shard. */
static void json_copy(struct json *j, const struct jvalue *v)
{
	switch (v->type) {
	case JNULL: json_null(j); break;
	case JBOOL: json_bool(j, v->b); break;
	case JNUM: {
		uint64_t u;
		double d;

		if (!jget_u64(v, &u))
			json_u64(j, u);
		else if (v->s[0] == '-' && !strpbrk(v->s, ".eE"))
			json_i64(j, strtoll(v->s, NULL, 10));
		else if (!jget_double(v, &d))
			json_double(j, d, 6);
		break;
	}
	case JSTR: json_str(j, v->s); break;
	case JARR:
		json_begin_array(j);
		for (size_t i = 0; i < v->n; i++)
			json_copy(j, &v->v[i]);
		json_end_array(j);
		break;
	case JOBJ:
		json_begin_object(j);
		for (size_t i = 0; i < v->n; i++) {
			json_key(j, v->keys[i]);
			json_copy(j, &v->v[i]);
		}
		json_end_object(j);
		break;
	}
}

enum { O_JSON = 256, O_JUNIT };

static const struct ftv_opt merge_opts[] = {
	{ .name = "json", .key = O_JSON,
	  .help = "print the findings and the summary as JSON objects, one a line" },
	{ .name = "junit", .key = O_JUNIT, .arg = "FILE",
	  .help = "write a JUnit file: a test case per shard, failed by its findings",
	  .words = FTV_WORDS_FILE },
	{ 0 },
};

static int cmd_fuzz_merge(int argc, char **argv)
{
	struct ftv_getopt g;
	const char *junit = NULL;
	int json = 0, o, status = FTV_EXIT_USAGE, bad = 0;
	struct shard *s = calloc((size_t)argc, sizeof(*s));
	size_t n = 0, nfind = 0;
	uint64_t it = 0, tr = 0, st = 0, viol = 0;
	double longest = 0, total = 0;
	struct ftv_err err = { "" };

	if (!s)
		return FTV_EXIT_USAGE;
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_JSON:
			json = 1;
			break;
		case O_JUNIT:
			junit = g.val;
			break;
		case FTV_OPT_ARG:
			s[n++].o.file = g.val;
			break;
		}
	}
	if (o < 0) {
		status = g.exit;
		goto out;
	}
	if (!n) {
		ftv_usage_error(g.cmd, "missing FILE");
		goto out;
	}
	for (size_t i = 0; i < n && !bad; i++)
		bad = read_shard(&s[i], &err);
	if (bad || consistent(s, n, &err)) {
		ftv_cmd_error(g.cmd, "%s", err.msg);
		goto out;
	}
	qsort(s, n, sizeof(*s), cmp_shard);
	for (size_t i = 0; i < n; i++) {
		it += s[i].iterations;
		tr += s[i].transitions;
		st += s[i].steps;
		viol += s[i].violations;
		nfind += s[i].nf;
		total += s[i].elapsed;
		if (s[i].elapsed > longest)
			longest = s[i].elapsed;
	}
	if (junit && write_junit(junit, s, n, nfind, longest)) {
		ftv_cmd_error(g.cmd, "--junit: %s: cannot write: %s", junit, strerror(errno));
		goto out;
	}
	if (json) {
		struct json j;

		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < s[i].nf; k++) {
				char sh[32];

				json_init(&j, stdout);
				json_begin_object(&j);
				snprintf(sh, sizeof(sh), "%u/%u", (unsigned)s[i].o.idx,
					 (unsigned)s[i].o.n);
				json_key_str(&j, "shard", sh);
				json_key(&j, "finding");
				json_copy(&j, &s[i].f[k].v);
				json_end_object(&j);
				json_newline(&j);
			}
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "summary");
		for (size_t k = 0; k < NSAME; k++) {
			const struct jvalue *v = jget(&s[0].o.v, same_fields[k]);

			if (v) {
				json_key(&j, same_fields[k]);
				json_copy(&j, v);
			}
		}
		json_key_u64(&j, "shards", n);
		json_key_u64(&j, "iterations", it);
		json_key_u64(&j, "transitions", tr);
		json_key_u64(&j, "steps", st);
		json_key_u64(&j, "violations", viol);
		json_key_u64(&j, "findings", nfind);
		json_key_bool(&j, "found", nfind > 0);
		json_key_double(&j, "longest_shard_s", longest, 3);
		json_key_double(&j, "total_s", total, 3);
		json_key_double(&j, "iterations_per_s", longest > 0 ? it / longest : 0.0, 3);
		json_end_object(&j);
		json_newline(&j);
	} else {
		const char *sch = field_text(&s[0].o.v, "scheme"), *arch = field_text(&s[0].o.v, "arch");
		const char *objs = field_text(&s[0].o.v, "objects"), *bud = field_text(&s[0].o.v, "budget");
		const char *seed = field_text(&s[0].o.v, "seed"), *mut = field_text(&s[0].o.v, "mutate");

		printf("fuzz-merge: %zu shards of seed %s, scheme %s%s%s%s, objects %s, mutate %s, %s "
		       "per shard\n", n, seed ? seed : "?", sch ? sch : "?", arch ? " (" : "",
		       arch ? arch : "", arch ? ")" : "", objs ? objs : "?", mut ? mut : "?",
		       bud ? bud : "?");
		for (size_t i = 0; i < n; i++)
			printf("fuzz-merge: shard %u/%u: %llu iterations, %llu transitions, %llu steps, "
			       "%llu violating, %.1f s (%s)\n", (unsigned)s[i].o.idx, (unsigned)s[i].o.n,
			       (unsigned long long)s[i].iterations,
			       (unsigned long long)s[i].transitions,
			       (unsigned long long)s[i].steps, (unsigned long long)s[i].violations,
			       s[i].elapsed, s[i].o.file);
		for (size_t i = 0; i < n; i++)
			for (size_t k = 0; k < s[i].nf; k++) {
				char line[2048];

				finding_line(&s[i], &s[i].f[k], line, sizeof(line));
				printf("fuzz-merge: %s\n", line);
			}
		printf("fuzz-merge: seed %s: %llu iterations in %zu shards, %llu transitions, %llu "
		       "interleaving steps, %llu violating iterations, %zu finding%s; longest shard "
		       "%.1f s, %.1f s in all\n", seed ? seed : "?", (unsigned long long)it, n,
		       (unsigned long long)tr, (unsigned long long)st, (unsigned long long)viol,
		       nfind, nfind == 1 ? "" : "s", longest, total);
	}
	fflush(stdout);
	status = nfind ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
out:
	free_shards(s, n);
	return status;
}
FTV_COMMAND_NAMED(fuzz_merge, "fuzz-merge", cmd_fuzz_merge,
		  .summary = "merge the --json outputs of fuzz shards into one campaign",
		  .args = "FILE...",
		  .opts = merge_opts,
		  .words = FTV_WORDS_FILE,
		  .doc = "Each FILE is what one 'ftv fuzz --shard I/N --json' printed on its\n"
			 "standard output: a line per finding, then the summary. The shards must\n"
			 "be one campaign (the same seed, scheme, arch, mutant, objects, CPUs and\n"
			 "budget, and the same N), each of the N exactly once; anything else is\n"
			 "refused with one line naming the file and what disagrees, or the\n"
			 "shards missing. Prints a line per shard, every finding with its shard\n"
			 "and replay file, and the campaign's totals; --json prints the findings\n"
			 "(each with its shard) and a summary object instead; --junit FILE\n"
			 "writes a test case per shard, failed by its findings with their\n"
			 "reports. Exit status 1 when a shard found a violation.\n"
			 "\n"
			 "Recipes for GNU parallel, Slurm arrays and Kubernetes indexed Jobs\n"
			 "are in docs/campaigns.md.\n")
