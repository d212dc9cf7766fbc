/* ftv fuzz: random ftrace workloads over the corpus until a violation,
 * shrunk to a minimal scenario and written as a replay file.
 * verify/fuzz.h is the generator and the shrinker, verify/fuzz_campaign.h
 * the campaign (iteration seeds, workers, shards, the replay files,
 * signals); this file parses the options, runs the campaign and prints
 * its progress, findings and summary, and runs --replay.
 *
 * Exit 0: nothing found; 1: a violation (shrunk, replay written); 2: bad
 * usage, an iteration the model rejected (a fuzzer bug, never silent), or
 * a campaign that patched no site (vacuous); 3: nothing found but some
 * iterations ran out of steps (budget exhausted, not judged). Interrupted
 * (SIGINT, SIGTERM) with nothing found: it dies of the signal. */
#include "executor/exec.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/num.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "util/str.h"
#include "verify/fuzz.h"
#include "verify/fuzz_campaign.h"
#include "verify/mutant.h"
#include "verify/scenario.h"
#include "verify/trace_json.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The command's own messages (progress, errors): stderr, unbuffered so a
 * progress line without a newline shows at once. Worlds print nothing
 * there (their notes go to world_config.notes_out, unset here). */
static FILE *errout;

static void use_stderr(void)
{
	errout = stderr;
	setvbuf(stderr, NULL, _IONBF, 0);
}

/* The command: the engine's campaign (verify/fuzz_campaign.h) and how it
 * prints. */
struct campaign {
	struct fuzz_campaign e;
	struct ftv_paths paths;
	int json, tty, trace;
	struct trace_json *tj; /* --trace FILE: the finding's timeline */
	const char *litmus, *litmus_fixed; /* --replay's --litmus FILEs */
	unsigned shrunk; /* shrink candidates kept so far */
};

static const char *signal_name(void)
{
	return fuzz_campaign_signal() == SIGTERM ? "SIGTERM" : "SIGINT";
}

static const char *cut_why(int cut)
{
	return cut == FUZZ_CUT_SIGNAL ? signal_name() : "--time";
}

/* The report of a replay file, the same whether fuzz just found it or
 * `ftv fuzz --replay` reads it back: the scenario's header line, every
 * violation as the world reports it, the counters and the verdict. */
static int replay_report(struct scenario *s, FILE *out, struct scn_result *res,
			 const struct ftv_paths *paths, int trace, struct trace_json *tj,
			 struct ftv_err *err)
{
	if (trace)
		s->cfg.trace_out = out;
	s->cfg.trace_json = tj;
	fprintf(out, "== %s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s\n",
		s->name, ftv_scheme_name(s->cfg.scheme), s->cfg.exec.ncpus,
		exec_policy_name(s->cfg.exec.policy), (unsigned long long)s->cfg.exec.seed,
		s->cfg.mutant_name ? s->cfg.mutant_name : "none");
	fflush(out);
	if (scenario_run(s, paths->corpus, paths->tramp, out, res, err))
		return -1;
	fprintf(out, "%s: %llu sites, %llu plans, %llu transitions, %llu steps\n", s->name,
		(unsigned long long)res->stats.sites, (unsigned long long)res->stats.plans,
		(unsigned long long)res->stats.transitions, (unsigned long long)res->stats.steps);
	fprintf(out, "%s: %s (%zu violations%s%s)\n", s->name,
		res->violated ? "VIOLATION" : "no violation", res->nviolations,
		res->kinds[0] ? ": " : "", res->kinds);
	return 0;
}

/* The report into memory (*text, malloc'd). */
static int replay_report_text(struct scenario *s, char **text, struct scn_result *res,
			      const struct ftv_paths *paths, int trace, struct trace_json *tj,
			      struct ftv_err *err)
{
	size_t len = 0;
	FILE *mem = open_memstream(text, &len);
	int r;

	*text = NULL;
	if (!mem)
		return ftv_errf(err, "out of memory");
	r = replay_report(s, mem, res, paths, trace, tj, err);
	fclose(mem);
	if (r) {
		free(*text);
		*text = NULL;
	}
	return r;
}

/* A replay text in memory, parsed as its file would be. */
static int scenario_from_text(const char *text, const char *name, struct scenario *s,
			      struct ftv_err *err)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	if (!f)
		return ftv_errf(err, "%s: cannot read the replay text", name);
	return scenario_read(f, name, s, err);
}

/* ftv fuzz --replay FILE [--json]: exit 1 if it reports a violation. */
static int replay_file(const char *path, const struct ftv_paths *paths, int trace,
		       struct trace_json *tj, int json, const char *const litmus[2])
{
	struct scenario *s = malloc(sizeof(*s));
	struct scn_result res;
	struct ftv_err err;
	char *text = NULL;
	int r;

	if (!s) {
		fprintf(errout, "ftv fuzz: out of memory\n");
		return FTV_EXIT_USAGE;
	}
	if (scenario_load(path, s, &err)) {
		fprintf(errout, "ftv fuzz: %s\n", err.msg);
		free(s);
		return FTV_EXIT_USAGE;
	}
	s->cfg.litmus_out = litmus[0];
	s->cfg.litmus_fixed_out = litmus[0] ? litmus[1] : NULL;
	r = json ? replay_report_text(s, &text, &res, paths, trace, tj, &err)
		 : replay_report(s, stdout, &res, paths, trace, tj, &err);
	if (r) {
		fflush(stdout);
		fprintf(errout, "ftv fuzz: %s\n", err.msg);
		free(s);
		return FTV_EXIT_USAGE;
	}
	if (json) {
		struct json j;
		char hash[24];

		snprintf(hash, sizeof(hash), "0x%016llx", (unsigned long long)res.trace_hash);
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "replay");
		json_key_str(&j, "replay", path);
		json_key_str(&j, "name", s->name);
		scenario_json_config(&j, s);
		json_key_u64(&j, "sites", res.stats.sites);
		json_key_u64(&j, "plans", res.stats.plans);
		json_key_u64(&j, "transitions", res.stats.transitions);
		json_key_u64(&j, "steps", res.stats.steps);
		json_key_bool(&j, "violated", res.violated);
		json_key_u64(&j, "violations", res.nviolations);
		json_key_str(&j, "kinds", res.kinds);
		json_key_bool(&j, "as_expected", res.verdict_ok);
		json_key_str(&j, "trace_hash", hash);
		json_key_str(&j, "report", text);
		json_end_object(&j);
		json_newline(&j);
		free(text);
	}
	fflush(stdout);
	free(s);
	return res.violated ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
}
/* ---- printing ---------------------------------------------------------- */

static void progress_line(struct campaign *c)
{
	double t = fuzz_campaign_elapsed(&c->e);

	fprintf(errout, "\r\033[K[%.1fs] %llu iterations, %llu transitions, %llu steps, "
		"%.2f it/s, %llu violations", t, (unsigned long long)c->e.done,
		(unsigned long long)c->e.transitions, (unsigned long long)c->e.steps,
		t > 0 ? c->e.done / t : 0.0, (unsigned long long)c->e.violations);
	fflush(errout);
}
/* The finding: the shrink's outcome, the replay's report, the scenario
 * (text) or one JSON object. path: where its replay file is, or NULL when
 * it could not be written. */
static void print_finding(struct campaign *c, const struct fuzz_msg *m, const char *text,
			  const char *path)
{
	const char *name = path ? path : "the replay text";
	struct scenario *s = malloc(sizeof(*s));
	struct scn_result res;
	struct ftv_err err;
	char *report = NULL;

	if (!s || scenario_from_text(text, name, s, &err) ||
	    replay_report_text(s, &report, &res, &c->paths, c->trace, c->tj, &err)) {
		fprintf(errout, "ftv fuzz: %s\n", s ? err.msg : "out of memory");
		free(s);
		c->e.error = 1;
		return;
	}
	if (c->json) {
		struct json j;
		char iseed[24];

		snprintf(iseed, sizeof(iseed), "0x%016llx", (unsigned long long)m->iter_seed);
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "finding");
		json_key_u64(&j, "seed", c->e.seed);
		json_key_u64(&j, "iteration", m->iter);
		json_key_str(&j, "iteration_seed", iseed);
		json_key_str(&j, "kind", m->kind);
		json_key_str(&j, "kinds", res.kinds);
		json_key_u64(&j, "violations", res.nviolations);
		json_key(&j, "replay");
		if (path)
			json_str(&j, path);
		else
			json_null(&j);
		json_key_u64(&j, "operations_before", m->ops_before);
		json_key_u64(&j, "operations_after", m->ops_after);
		json_key_u64(&j, "cpus_before", m->cpus_before);
		json_key_u64(&j, "cpus_after", m->cpus_after);
		json_key_u64(&j, "rounds_before", m->rounds_before);
		json_key_u64(&j, "rounds_after", m->rounds_after);
		json_key_u64(&j, "shrink_runs", m->tried);
		json_key(&j, "shrink_cut_short_by");
		if (m->cut)
			json_str(&j, cut_why(m->cut));
		else
			json_null(&j);
		json_key_bool(&j, "reproduced", res.violated);
		json_key_str(&j, "report", report);
		if (!path)
			json_key_str(&j, "scenario", text);
		json_end_object(&j);
		json_newline(&j);
	} else {
		printf("fuzz: iteration %llu (seed 0x%016llx) found %s; shrunk from %u to %u "
		       "operations, %u to %u CPUs, %u to %u rounds in %u runs%s%s%s\n",
		       (unsigned long long)m->iter, (unsigned long long)m->iter_seed, m->kind,
		       m->ops_before, m->ops_after, m->cpus_before, m->cpus_after,
		       m->rounds_before, m->rounds_after, m->tried,
		       m->cut ? " (cut short by " : "", m->cut ? cut_why(m->cut) : "",
		       m->cut ? ")" : "");
		fputs(report, stdout);
		if (path)
			printf("fuzz: the shrunk scenario (replay: ftv fuzz --replay %s):\n", path);
		else
			printf("fuzz: the shrunk scenario (its replay file could not be written):\n");
		/* as its file reads back (the run above filled in paths) */
		if (!scenario_from_text(text, name, s, &err))
			scenario_write(stdout, s, NULL);
	}
	free(report);
	free(s);
	fflush(stdout);
}
/* What the engine reports: an iteration, the shrink's progress, a
 * finding (its replay file written already), an error. */
static void report(void *ctx, struct fuzz_campaign *e, const struct fuzz_msg *m,
		   const char *text, const char *path, int first)
{
	struct campaign *c = ctx;

	switch (m->type) {
	case FUZZ_M_ITER: {
		if (c->json)
			break;
		if (c->tty) {
			progress_line(c);
			break;
		}
		struct scenario *s = malloc(sizeof(*s));

		if (!s)
			break;
		/* the generator is cheap and deterministic: describe the
		 * iteration from its seed */
		fuzz_generate(&e->g, m->iter_seed, s);
		printf("fuzz: iteration %llu (seed 0x%016llx): %u CPUs, policy %s, %u rounds, "
		       "%u operations: %llu plans, %llu transitions, %llu steps: %s%s%s\n",
		       (unsigned long long)m->iter, (unsigned long long)m->iter_seed,
		       s->cfg.exec.ncpus, exec_policy_name(s->cfg.exec.policy), s->cfg.rounds,
		       s->nops, (unsigned long long)m->plans,
		       (unsigned long long)m->transitions, (unsigned long long)m->steps,
		       m->violated ? "VIOLATION (" : m->budget ? "budget exhausted (" : "ok",
		       m->violated || m->budget ? m->kinds : "",
		       m->violated ? "), shrinking" : m->budget ? "), not judged" : "");
		fflush(stdout);
		free(s);
		break;
	}
	case FUZZ_M_SHRINK:
		if (c->json)
			break;
		if (c->tty) {
			fprintf(errout, "\r\033[Kshrinking: %u runs, %u still failing", m->tried,
				m->accepted);
		} else if (m->accepted > c->shrunk) {
			/* a plain line per smaller case that still fails */
			printf("fuzz: shrinking: run %u still fails (%u smaller cases kept)\n",
			       m->tried, m->accepted);
			fflush(stdout);
		}
		c->shrunk = m->accepted;
		break;
	case FUZZ_M_FOUND:
		if (c->tty && !c->json)
			fprintf(errout, "\r\033[K");
		if (first)
			print_finding(c, m, text, path);
		else
			fprintf(errout, "ftv fuzz: worker %u also found %s (iteration %llu)%s%s\n",
				m->worker, m->kind, (unsigned long long)m->iter,
				path ? ": replay file " : "", path ? path : "");
		break;
	case FUZZ_M_ERROR:
		if (c->tty && !c->json)
			fprintf(errout, "\r\033[K");
		fprintf(errout, "ftv fuzz: %s\n", m->text);
		break;
	}
}
static void summary(struct campaign *c)
{
	double t = fuzz_campaign_elapsed(&c->e);

	if (c->tty && !c->json)
		fprintf(errout, "\r\033[K");
	if (c->json) {
		struct json j;
		char shard[32];

		snprintf(shard, sizeof(shard), "%u/%u", c->e.shard, c->e.nshards);
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "summary");
		json_key_u64(&j, "seed", c->e.seed);
		json_key_str(&j, "scheme", ftv_scheme_name(c->e.g.scheme));
		json_key_str(&j, "mutate", c->e.g.mutant ? c->e.g.mutant->name : "none");
		json_key_str(&j, "shard", shard);
		json_key_u64(&j, "jobs", c->e.jobs);
		json_key_u64(&j, "iterations", c->e.done);
		json_key_u64(&j, "transitions", c->e.transitions);
		json_key_u64(&j, "steps", c->e.steps);
		json_key_u64(&j, "violations", c->e.violations);
		json_key_bool(&j, "found", c->e.found || c->e.violations);
		json_key_double(&j, "elapsed_s", t, 3);
		json_key_double(&j, "iterations_per_s", t > 0 ? c->e.done / t : 0.0, 3);
		json_key_double(&j, "transitions_per_s", t > 0 ? c->e.transitions / t : 0.0, 1);
		json_key_double(&j, "steps_per_s", t > 0 ? c->e.steps / t : 0.0, 1);
		json_key_str(&j, "arch", ftv_arch_name(ftv_scheme_arch(c->e.g.scheme)));
		/* what ftv fuzz-merge checks the shards agree on, with the
		 * above */
		{
			char objs[WORLD_MAX_OBJECTS * 66 + SCN_MAX_USER * 1026] = "", budget[64];

			for (unsigned i = 0; i < c->e.g.nobjects; i++)
				snprintf(objs + strlen(objs), sizeof(objs) - strlen(objs), "%s%s",
					 i ? " " : "", c->e.g.objects[i]);
			for (unsigned i = 0; i < c->e.g.nuser; i++)
				snprintf(objs + strlen(objs), sizeof(objs) - strlen(objs), "%s%s",
					 objs[0] ? " " : "", c->e.g.user[i]);
			json_key_str(&j, "objects", objs);
			json_key_u64(&j, "cpus", c->e.g.cpus);
			if (c->e.iterations)
				snprintf(budget, sizeof(budget), "%llu iterations",
					 (unsigned long long)c->e.iterations);
			else
				snprintf(budget, sizeof(budget), "%g s", c->e.time_s);
			json_key_str(&j, "budget", budget);
		}
		json_key_u64(&j, "budget_exhausted", c->e.budget);
		json_key_bool(&j, "interrupted", fuzz_campaign_signal() != 0);
		json_end_object(&j);
		json_newline(&j);
	} else {
		if (fuzz_campaign_signal())
			printf("fuzz: interrupted (%s): stopped after the runs in progress\n",
			       signal_name());
		printf("fuzz: seed %llu: %llu iterations in %.1f s (%.2f iterations/s), "
		       "%llu transitions (%.1f/s), %llu interleaving steps (%.1f/s), "
		       "%llu violating iterations\n",
		       (unsigned long long)c->e.seed, (unsigned long long)c->e.done, t,
		       t > 0 ? c->e.done / t : 0.0, (unsigned long long)c->e.transitions,
		       t > 0 ? c->e.transitions / t : 0.0, (unsigned long long)c->e.steps,
		       t > 0 ? c->e.steps / t : 0.0, (unsigned long long)c->e.violations);
		if (c->e.budget)
			printf("fuzz: %llu iteration%s ran out of steps (budget exhausted: not "
			       "judged, not a finding)\n", (unsigned long long)c->e.budget,
			       c->e.budget == 1 ? "" : "s");
	}
	fflush(stdout);
}

enum {
	O_SEED = 256, O_CPUS, O_ITERATIONS, O_TIME, O_SCHEME, O_ARCH, O_MUTATE, O_JOBS,
	O_SHARD, O_REPLAY, O_OUT, O_SHRINK_BUDGET, O_JSON, O_TRACE, O_OBJECTS,
	O_TRACE_TEXT, O_OBJECT, O_CALL, O_LITMUS, O_LITMUS_FIXED,
};

static const char *scheme_word(unsigned i)
{
	return i < FTV_SCHEME_COUNT ? ftv_scheme_name((enum ftv_scheme)i) : NULL;
}

static const struct ftv_opt fuzz_opts[] = {
	{ .name = "seed", .key = O_SEED, .arg = "S",
	  .help = "the campaign's seed (default: from the clock, printed)" },
	{ .name = "iterations", .key = O_ITERATIONS, .arg = "K",
	  .help = "run K iterations (default 10)" },
	{ .name = "time", .key = O_TIME, .arg = "SECONDS",
	  .help = "run for SECONDS, a finding's shrink included (at least one iteration)" },
	{ .name = "arch", .key = O_ARCH, .arg = "A",
	  .help = "arm64 (default) or riscv64; --scheme implies it",
	  .words = "arm64 riscv64" },
	{ .name = "scheme", .key = O_SCHEME, .arg = "S",
	  .help = "callops (default), tramp, mcount, mcount-ops, mcount-ops-tasks, tramp-tasks; "
		  "riscv64: pair, atomic (default)",
	  .word = scheme_word },
	{ .name = "cpus", .key = O_CPUS, .arg = "N",
	  .help = "every iteration on N CPUs (1-32; default: 2 to 4, drawn)" },
	{ .name = "objects", .key = O_OBJECTS, .arg = "NAME...",
	  .help = "trace the corpus objects named (default rand1 rand2 weak hooks, "
		  "and rand3 as a module: at boot, or loaded and unloaded while the "
		  "CPUs run, near or beyond call range)" },
	{ .name = "object", .key = O_OBJECT, .arg = "PATH...",
	  .help = "trace your own object or module (.o, .ko, .ko.xz, .ko.zst, .ko.gz; "
		  "modules loaded at boot), calling the functions the call probe finds "
		  "safe; without --objects, no corpus object is loaded",
	  .words = FTV_WORDS_FILE },
	{ .name = "call", .key = O_CALL, .arg = "F1,F2...",
	  .help = "the workload calls these functions of --object (default: every one "
		  "the call probe accepts); one it cannot call is an error naming why" },
	{ .name = "mutate", .key = O_MUTATE, .arg = "NAME",
	  .help = "inject the known bug NAME into the patcher",
	  .word = ftv_mutant_word },
	{ .name = "jobs", .key = O_JOBS, .arg = "J",
	  .help = "run J forked workers (1-64, default 1)" },
	{ .name = "shard", .key = O_SHARD, .arg = "I/N",
	  .help = "run only the iterations i with i % N == I" },
	{ .name = "out", .key = O_OUT, .arg = "FILE",
	  .help = "the replay file of a finding (default ftv-fuzz-SEED.scn; never overwritten)",
	  .words = FTV_WORDS_FILE },
	{ .name = "shrink-budget", .key = O_SHRINK_BUDGET, .arg = "N",
	  .help = "shrink a finding in at most N scenario runs (1-100000, default 100)" },
	{ .name = "json", .key = O_JSON,
	  .help = "print one JSON object per finding, then a summary object (--replay: one)" },
	{ .name = "replay", .key = O_REPLAY, .arg = "FILE",
	  .help = "run a replay file (any scenario) and print its report",
	  .words = FTV_WORDS_FILE },
	{ .name = "trace", .key = O_TRACE, .arg = "FILE",
	  .help = "the finding's or replay's timeline as Chrome trace-event JSON (Perfetto)",
	  .words = FTV_WORDS_FILE },
	{ .name = "trace-text", .key = O_TRACE_TEXT,
	  .help = "after a report, the executor's step trace: who ran, what each fetch saw" },
	FTV_LITMUS_OPTIONS(O_LITMUS, O_LITMUS_FIXED),
	FTV_PATHS_OPTION,
	{ 0 },
};

static int cmd_fuzz(int argc, char **argv)
{
	static struct campaign c;
	const char *replay = NULL, *trace = NULL;
	int seed_set = 0, iters_set = 0, time_set = 0, have_objects = 0;
	int arch_set = 0, scheme_set = 0, o, last = 0, r;
	enum ftv_arch arch = FTV_ARCH_DEFAULT;
	struct ftv_getopt g;
	struct ftv_err err;

	errout = stderr;
	memset(&c, 0, sizeof(c));
	clock_gettime(CLOCK_MONOTONIC, &c.e.start);
	ftv_paths_default(&c.paths, argv[0]);
	c.e.jobs = 1;
	c.e.nshards = 1;
	c.e.iterations = 10;
	c.e.g.scheme = FTV_SCHEME_CALLOPS;
	ftv_getopt_init(&g, argc, argv);
	for (; (o = ftv_getopt(&g)) > 0; last = o) {
		switch (o) {
		case O_JSON:
			c.json = 1;
			break;
		case O_TRACE_TEXT:
			c.trace = 1;
			break;
		case O_TRACE:
			trace = g.val;
			break;
		case O_LITMUS:
			c.litmus = g.val;
			break;
		case O_LITMUS_FIXED:
			c.litmus_fixed = g.val;
			break;
		case FTV_OPT_ARG:
			/* --objects NAME... and --object PATH... take the
			 * arguments after them */
			if (last != O_OBJECTS && last != O_OBJECT)
				return ftv_usage_error(g.cmd, "unexpected argument '%s'", g.val);
			o = last;
			if (o == O_OBJECT)
				goto object;
			/* fall through */
		case O_OBJECTS:
			if (c.e.g.nobjects >= WORLD_MAX_OBJECTS)
				return ftv_cmd_error(g.cmd, "--objects: more than %d objects",
						     WORLD_MAX_OBJECTS);
			snprintf(c.e.g.objects[c.e.g.nobjects++], sizeof(c.e.g.objects[0]), "%s", g.val);
			have_objects = 1;
			break;
		case O_OBJECT:
		object: {
			struct scenario *u = calloc(1, sizeof(*u));

			/* made absolute, so the replay file finds it from
			 * anywhere */
			if (!u || scenario_add_object(u, "", g.val, &err)) {
				free(u);
				return ftv_cmd_error(g.cmd, "--object: %s", u ? err.msg : "out of memory");
			}
			if (c.e.g.nuser >= SCN_MAX_USER) {
				free(u);
				return ftv_cmd_error(g.cmd, "--object: more than %d objects",
						     SCN_MAX_USER);
			}
			snprintf(c.e.g.user[c.e.g.nuser++], sizeof(c.e.g.user[0]), "%s",
				 u->user_objects[0]);
			free(u);
			break;
		}
		case O_CALL: {
			size_t l = strlen(c.e.g.call_list);

			if (l + strlen(g.val) + 2 > sizeof(c.e.g.call_list))
				return ftv_opt_bad(&g, "makes the list of functions longer than %zu bytes",
						   sizeof(c.e.g.call_list) - 1);
			snprintf(c.e.g.call_list + l, sizeof(c.e.g.call_list) - l, "%s%s", l ? "," : "",
				 g.val);
			break;
		}
		case O_SEED:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &c.e.seed))
				return FTV_EXIT_USAGE;
			seed_set = 1;
			break;
		case O_CPUS:
			if (ftv_opt_unsigned(&g, 1, EXEC_MAX_CPUS, &c.e.g.cpus))
				return FTV_EXIT_USAGE;
			break;
		case O_ITERATIONS:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &c.e.iterations))
				return FTV_EXIT_USAGE;
			iters_set = 1;
			break;
		case O_TIME:
			if (ftv_opt_seconds(&g, &c.e.time_s))
				return FTV_EXIT_USAGE;
			time_set = 1;
			break;
		case O_SCHEME:
			if (ftv_scheme_parse(g.val, &c.e.g.scheme))
				return ftv_opt_bad_choice(&g);
			scheme_set = 1;
			break;
		case O_ARCH:
			if (ftv_arch_parse(g.val, &arch))
				return ftv_opt_bad_choice(&g);
			arch_set = 1;
			break;
		case O_MUTATE:
			c.e.g.mutant = ftv_mutant_find(g.val);
			if (!c.e.g.mutant)
				return ftv_opt_bad_choice(&g);
			break;
		case O_JOBS:
			if (ftv_opt_unsigned(&g, 1, FUZZ_MAX_JOBS, &c.e.jobs))
				return FTV_EXIT_USAGE;
			break;
		case O_SHARD: {
			unsigned si, sn;
			char extra;

			if (sscanf(g.val, "%u/%u%c", &si, &sn, &extra) != 2 || !sn || si >= sn)
				return ftv_opt_bad(&g, "is not I/N with 0 <= I < N");
			c.e.shard = si;
			c.e.nshards = sn;
			break;
		}
		case O_REPLAY:
			replay = g.val;
			break;
		case O_OUT:
			snprintf(c.e.out, sizeof(c.e.out), "%s", g.val);
			break;
		case O_SHRINK_BUDGET:
			if (ftv_opt_unsigned(&g, 1, 100000, &c.e.shrink_budget))
				return FTV_EXIT_USAGE;
			break;
		case FTV_OPT_KERNEL:
			world_kernel_dir_set(g.val);
			break;
		case FTV_OPT_BUILD:
			ftv_paths_set_build(&c.paths, g.val);
			break;
		}
	}
	if (o < 0)
		return g.exit;
	if (iters_set && time_set)
		return ftv_usage_error(g.cmd, "--time and --iterations exclude each other");
	if ((c.litmus || c.litmus_fixed) && !replay)
		return ftv_usage_error(g.cmd, "--litmus FILE writes a replay's violation: it "
				       "needs --replay FILE");
	if ((r = ftv_litmus_opts_check(g.cmd, c.litmus, c.litmus_fixed)))
		return r;
	/* the scheme implies the arch; an arch alone picks its default */
	if (arch_set && !scheme_set)
		c.e.g.scheme = ftv_arch_default_scheme(arch);
	if ((arch_set && ftv_scheme_check_arch(c.e.g.scheme, arch, &err)) ||
	    ftv_mutant_check(c.e.g.mutant, c.e.g.scheme, &err))
		return ftv_cmd_error(g.cmd, "%s", err.msg);
	if (time_set)
		c.e.iterations = 0;
	/* created before the campaign, so a bad path fails at once */
	if (trace && !(c.tj = trace_json_create(trace, &err)))
		return ftv_cmd_error(g.cmd, "--trace: %s", err.msg);
	if (replay) {
		use_stderr();
		const char *litmus[2] = { c.litmus, c.litmus_fixed };

		r = replay_file(replay, &c.paths, c.trace, c.tj, c.json, litmus);
		if (trace_json_finish(c.tj, &err) && r != FTV_EXIT_USAGE)
			return ftv_cmd_error(g.cmd, "--trace: %s", err.msg);
		return r;
	}
	if (c.e.g.call_list[0] && !c.e.g.nuser)
		return ftv_usage_error(g.cmd, "--call names functions of --object, and there is none");
	if (!have_objects && !c.e.g.nuser) {
		snprintf(c.e.g.objects[0], sizeof(c.e.g.objects[0]), "rand1");
		snprintf(c.e.g.objects[1], sizeof(c.e.g.objects[1]), "rand2");
		/* weak hooks and their overrides: the kernel's table has
		 * entries sorttable zeroed */
		snprintf(c.e.g.objects[2], sizeof(c.e.g.objects[2]), "weak");
		snprintf(c.e.g.objects[3], sizeof(c.e.g.objects[3]), "hooks");
		c.e.g.nobjects = 4;
		/* and a random unit of their kind to load as a module */
		snprintf(c.e.g.modules[0], sizeof(c.e.g.modules[0]), "rand3");
		c.e.g.nmodules = 1;
	}
	if (!seed_set) {
		/* a fresh campaign: the seed is printed, --seed replays it */
		struct timespec t;

		clock_gettime(CLOCK_REALTIME, &t);
		c.e.seed = ((uint64_t)t.tv_sec * 1000003u) ^ (uint64_t)t.tv_nsec ^
			 ((uint64_t)getpid() << 32);
	}
	if (!c.e.out[0])
		snprintf(c.e.out, sizeof(c.e.out), "ftv-fuzz-%llu.scn", (unsigned long long)c.e.seed);
	/* before the campaign, not after a finding */
	if (outfile_check(c.e.out, &err))
		return ftv_cmd_error(g.cmd, "--out: %s", err.msg);
	{
		size_t l = 0;

		char raw[sizeof(c.e.cmdline)];

		for (int i = 0; i < argc && l + 2 < sizeof(c.e.cmdline); i++)
			l += (size_t)snprintf(c.e.cmdline + l, sizeof(c.e.cmdline) - l, "%s%s",
					      i ? " " : "ftv ", argv[i]);
		if (!seed_set && l + 2 < sizeof(c.e.cmdline))
			snprintf(c.e.cmdline + l, sizeof(c.e.cmdline) - l, " --seed %llu",
				 (unsigned long long)c.e.seed);
		/* the replay file's header: a control byte of a path is
		 * written \xNN (the file is read back as text) */
		memcpy(raw, c.e.cmdline, sizeof(raw));
		ftv_escape(c.e.cmdline, sizeof(c.e.cmdline), raw);
	}
	c.tty = isatty(STDERR_FILENO) && isatty(STDOUT_FILENO);
	if (fuzz_targets(&c.e.g, c.paths.corpus, c.paths.tramp, &err)) {
		fprintf(stderr, "ftv fuzz: %s\n", err.msg);
		trace_json_finish(c.tj, &err);
		return FTV_EXIT_USAGE;
	}
	fflush(stderr);
	use_stderr();
	if (!c.json) {
		printf("fuzz: seed %llu, scheme %s (%s)%s", (unsigned long long)c.e.seed,
		       ftv_scheme_name(c.e.g.scheme), ftv_arch_name(ftv_scheme_arch(c.e.g.scheme)),
		       c.e.g.nobjects ? ", objects" : "");
		for (unsigned i = 0; i < c.e.g.nobjects; i++)
			printf(" %s", c.e.g.objects[i]);
		if (c.e.g.nmodules)
			printf(", module%s", c.e.g.nmodules == 1 ? "" : "s");
		for (unsigned i = 0; i < c.e.g.nmodules; i++)
			printf(" %s", c.e.g.modules[i]);
		for (unsigned i = 0; i < c.e.g.nuser; i++)
			printf("%s %s", i ? "" : c.e.g.nuser == 1 ? ", object" : ", objects",
			       c.e.g.user[i]);
		printf(" (%u traced functions), mutate %s, ", c.e.g.nfuncs,
		       c.e.g.mutant ? c.e.g.mutant->name : "none");
		if (c.e.iterations)
			printf("%llu iterations", (unsigned long long)c.e.iterations);
		else
			printf("%g s", c.e.time_s);
		printf(", shard %u/%u, %u job%s\n", c.e.shard, c.e.nshards, c.e.jobs,
		       c.e.jobs == 1 ? "" : "s");
		fflush(stdout);
	}
	c.e.corpus_dir = c.paths.corpus;
	c.e.tramp_dir = c.paths.tramp;
	c.e.errout = errout;
	c.e.report = report;
	c.e.ctx = &c;
	fuzz_campaign_catch_signals(1);
	/* --time and the rates count the campaign, not the probe */
	r = fuzz_campaign_run(&c.e);
	summary(&c);
	fuzz_campaign_free(&c.e);
	if (trace_json_finish(c.tj, &err)) {
		fprintf(errout, "ftv fuzz: --trace: %s\n", err.msg);
		if (!r)
			r = -1;
	}
	if (c.e.found || c.e.violations)
		return FTV_EXIT_VIOLATION;
	if (r || c.e.error)
		return FTV_EXIT_USAGE;
	if (c.e.done && !c.e.transitions && !fuzz_campaign_signal()) {
		/* not one site patched in the whole campaign: it verified
		 * nothing (e.g. --object modules whose sites stay disabled) */
		fprintf(stderr, "ftv fuzz: vacuous: %llu iterations patched no site (0 "
			"transitions)\n", (unsigned long long)c.e.done);
		return FTV_EXIT_USAGE;
	}
	if (c.e.budget && !fuzz_campaign_signal())
		return FTV_EXIT_INCOMPLETE;
	if (fuzz_campaign_signal()) {
		/* nothing found, the campaign cut short: die of the signal,
		 * so a shell or a CI job sees SIGINT (SIGTERM) and not a
		 * clean run */
		int sig = fuzz_campaign_signal();

		fflush(NULL);
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return FTV_EXIT_OK;
}
FTV_COMMAND(fuzz, cmd_fuzz,
	    .summary = "random ftrace workloads until a violation, shrunk to a replay file",
	    .opts = fuzz_opts,
	    .doc = "Generates random sequences of ftrace updates (register, unregister,\n"
		   "filter changes, direct calls, graph tracers, modules) over corpus\n"
		   "objects, runs each as a scenario on emulated CPUs calling the traced\n"
		   "functions, and stops at the first violation. The failing case is\n"
		   "shrunk (fewer operations, CPUs and rounds) and written as a replay\n"
		   "file, an ordinary scenario file that 'ftv fuzz --replay' and 'ftv\n"
		   "scenario' reproduce bit for bit. Iteration i's seed derives from the\n"
		   "campaign seed alone, so --seed S with --shard and --jobs splits one\n"
		   "campaign over processes and machines without changing what runs.\n"
		   "\n"
		   "Nothing found is lost. The directory of --out is checked before the\n"
		   "campaign starts; a file already there is kept and the replay file\n"
		   "gets a suffix (x-1.scn), named in the output; if it cannot be\n"
		   "written, its text is printed on stderr. A finding is written the\n"
		   "moment it is found, before its shrink, and each smaller case the\n"
		   "shrink keeps replaces the file: a campaign killed mid-shrink leaves\n"
		   "the smallest case so far. --time bounds the whole command: a shrink\n"
		   "still running then is cut short (said so). SIGINT (Ctrl-C) or\n"
		   "SIGTERM (timeout, a cancelled CI job) stops every worker after the\n"
		   "scenario run in progress, writes the replay file of a finding and\n"
		   "prints the summary of what ran; the same signal delivered twice at\n"
		   "once (to the process and its group) is one request, a second one\n"
		   "later kills.\n"
		   "\n"
		   "Exit status 0 when nothing was found, 1 when a violation was, 2 on\n"
		   "bad usage, when an iteration the model rejects (a fuzzer bug) ends\n"
		   "the campaign, or when no iteration patched a site (vacuous), 3 when\n"
		   "nothing was found but iterations ran out of steps (budget exhausted:\n"
		   "not judged, never a finding). Interrupted with nothing found, ftv\n"
		   "dies of the signal, as a shell expects.\n"
		   "\n"
		   "--trace FILE writes the timeline of the finding's replay (or of\n"
		   "--replay FILE) as Chrome trace-event JSON for ui.perfetto.dev (see\n"
		   "'ftv help scenario'); --trace-text prints the executor's step trace\n"
		   "after the report.\n")
