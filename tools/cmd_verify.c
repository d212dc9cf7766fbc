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

#include "util/outfile.h"
#include "util/str.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { O_MAXEXEC = 256, O_MAXSTEPS, O_JSON, O_SHARD, O_NOREDUCE, O_STATEFUL, O_COARSE, O_OUT, O_FIRST, O_MUTATE,
       O_COMBINE, O_TIME, O_OBJECT, O_CALL, O_LITMUS, O_LITMUS_FIXED, O_STATS,
       O_NOSYM };

/* The budget of a world whose file and options give none: a user's world
 * can have more executions than a lifetime, and an answer in minutes
 * ("incomplete after N executions", exit 3) beats none. */
#define VERIFY_DEFAULT_TIME_S 600.0
#define VERIFY_DEFAULT_EXECUTIONS 1000000ull

static const struct ftv_opt verify_opts[] = {
	{ .name = "max-executions", .key = O_MAXEXEC, .arg = "N",
	  .help = "stop after N executions (the verdict is then incomplete; default: "
		  "the file's max-executions, else 1000000)" },
	{ .name = "time", .key = O_TIME, .arg = "SECONDS",
	  .help = "stop each world's walk after SECONDS (incomplete; default 600)" },
	FTV_USER_CODE_OPTIONS(O_OBJECT, O_CALL),
	{ .name = "max-steps", .key = O_MAXSTEPS, .arg = "N",
	  .help = "visible steps per execution (default: the file's steps)" },
	{ .name = "shard", .key = O_SHARD, .arg = "I/N",
	  .help = "explore only shard I (0..N-1) of N of the schedule tree" },
	{ .name = "unreduced", .key = O_NOREDUCE,
	  .help = "explore every interleaving (no partial-order reduction)" },
	{ .name = "stateful", .key = O_STATEFUL,
	  .help = "stateful DPOR: keep the states of finished subtrees and cut a run "
		  "reaching one again (the default walk is stateless: the reference)" },
	{ .name = "no-symmetry", .key = O_NOSYM,
	  .help = "with --stateful: never merge states that differ by a permutation of "
		  "interchangeable CPUs (a `symmetric` world's; the reference)" },
	{ .name = "coarse-deps", .key = O_COARSE,
	  .help = "the cache maintenance's dependencies as before issue 31 refined them "
		  "(the reference the reduction is checked against)" },
	{ .name = "mutate", .key = O_MUTATE, .arg = "NAME",
	  .help = "inject the known bug NAME into the patcher",
	  .word = ftv_mutant_word },
	{ .name = "first", .key = O_FIRST,
	  .help = "stop at the first counterexample (not the shortest)" },
	{ .name = "out", .key = O_OUT, .arg = "DIR",
	  .help = "write counterexample replay files to DIR (default .; a file there is "
		  "kept: the new one gets a suffix)",
	  .words = FTV_WORDS_DIR },
	{ .name = "stats", .key = O_STATS,
	  .help = "print where the CPU time went: setup, and the walk's restore, run, check "
		  "and reduction bookkeeping (executions per CPU second of the walk alone), "
		  "and the steps that repeated a prefix" },
	{ .name = "json", .key = O_JSON,
	  .help = "one JSON object per file instead of text" },
	{ .name = "combine", .key = O_COMBINE,
	  .help = "the FILEs are the --json outputs of shards: one verdict per world" },
	FTV_LITMUS_OPTIONS(O_LITMUS, O_LITMUS_FIXED),
	FTV_PATHS_OPTION,
	{ 0 },
};

struct vopts {
	uint64_t max_exec, max_steps;
	double time_s;
	unsigned shard, nshards;
	int json, noreduce, stateful, nosym, coarse, first, combine, stats;
	const char *out;
	const char *litmus, *litmus_fixed; /* the counterexample's tests */
	const struct ftv_mutant *mutant;
	const char **objects, **calls;
	int nobjects, ncalls;
};

/* SIGINT and SIGTERM end the walk in progress: its verdict so far is
 * printed (incomplete), and ftv exits 128 + the signal. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	interrupted = sig;
}

static double process_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double pct(double part, double whole)
{
	return whole > 0 ? 100.0 * part / whole : 0.0;
}

/* An environment switch: set and not "0". */
static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

/* The process's CPU seconds when the last world's stats were printed: the
 * first world's include the process's start (the dynamic loader). */
static double stats_cpu0;

/* --stats: the world's CPU time (since the world before's) split into its
 * setup and the walk's parts (exec_verify_split). */
static void print_stats(const struct verify_result *vr)
{
	const struct exec_verify_split *p = &vr->x.split;
	double end = process_cpu(), all = end - stats_cpu0, setup = all - p->walk;

	printf("stats: CPU %.3f s: setup %.3f s (loading, the world, the snapshot, the "
	       "report), walk %.3f s, %.0f executions/s of the walk's CPU\n", all,
	       setup, p->walk, p->walk > 0 ? (double)vr->x.executions / p->walk : 0.0);
	printf("stats: walk: restore %.1f%%, run %.1f%%, check %.1f%%, bookkeeping %.1f%%, "
	       "other %.1f%%\n", pct(p->restore, p->walk), pct(p->run, p->walk),
	       pct(p->check, p->walk), pct(p->book, p->walk),
	       pct(p->walk - p->restore - p->run - p->check - p->book, p->walk));
	printf("stats: %llu steps in the walk's runs, %llu (%.1f%%) repeating the prefix of "
	       "the run before\n", (unsigned long long)p->steps,
	       (unsigned long long)p->replayed, pct((double)p->replayed, (double)p->steps));
	if (vr->x.sym_cpus) {
		printf("stats: symmetry: cpu0..cpu%u interchangeable; %llu of %llu state cuts "
		       "through a permutation other than the identity\n", vr->x.sym_cpus - 1,
		       (unsigned long long)vr->x.state_cuts_moved,
		       (unsigned long long)vr->x.state_cuts);
	} else {
		printf("stats: symmetry: none (%s)\n", vr->sym_why);
	}
	if (p->restores)
		printf("stats: %llu runs started from a saved state at their branch point, "
		       "%llu steps (%.1f%%) not run again\n", (unsigned long long)p->restores,
		       (unsigned long long)p->skipped, pct((double)p->skipped, (double)p->steps));
	stats_cpu0 = end;
}

/* The walk of one world: its clock, the progress line on a terminal. */
struct walk {
	const struct vopts *o;
	struct timespec t0, shown;
	int tty;
	char why[64];
};

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static const char *walk_stop(void *ctx)
{
	struct walk *k = ctx;

	if (interrupted)
		snprintf(k->why, sizeof(k->why), "%s", interrupted == SIGTERM ? "SIGTERM" : "SIGINT");
	else if (since(&k->t0) >= k->o->time_s)
		snprintf(k->why, sizeof(k->why), "--time %g s", k->o->time_s);
	else
		return NULL;
	return k->why;
}

/* One line on stderr, rewritten, at most 4 times a second. */
static void walk_progress(void *ctx, const struct verify_result *r)
{
	struct walk *k = ctx;

	if (!k->tty || since(&k->shown) < 0.25)
		return;
	clock_gettime(CLOCK_MONOTONIC, &k->shown);
	fprintf(stderr, "\r\033[K[%.1fs] %llu executions, %llu pruned, %llu restarts%s",
		since(&k->t0), (unsigned long long)r->x.executions,
		(unsigned long long)r->x.pruned, (unsigned long long)r->x.restarts,
		r->violated ? ", a counterexample found" : "");
}

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
	if (vc->stateful) {
		json_key_u64(&j, "state_cuts", x->state_cuts);
		json_key_u64(&j, "states", x->states);
		json_key_u64(&j, "symmetric_cpus", x->sym_cpus);
		json_key_u64(&j, "state_cuts_permuted", x->state_cuts_moved);
	}
	json_key_u64(&j, "steps", x->steps);
	json_key_u64(&j, "restarts", x->restarts);
	json_key_bool(&j, "reduced", vc->reduce);
	json_key_str(&j, "mutate", s->cfg.mutant_name ? s->cfg.mutant_name : "none");
	json_key_u64(&j, "shard", vc->shard);
	json_key_u64(&j, "shards", vc->nshards);
	json_key_double(&j, "seconds", vr->secs, 3);
	if (vc->split) {
		/* --stats: the walk's CPU seconds and their split
		 * (exec_verify_split; setup is the process's CPU less the
		 * walk's) */
		json_key_double(&j, "cpu_walk", x->split.walk, 6);
		json_key_double(&j, "cpu_restore", x->split.restore, 6);
		json_key_double(&j, "cpu_run", x->split.run, 6);
		json_key_double(&j, "cpu_check", x->split.check, 6);
		json_key_double(&j, "cpu_bookkeeping", x->split.book, 6);
		json_key_u64(&j, "run_steps", x->split.steps);
		json_key_u64(&j, "replayed_steps", x->split.replayed);
	}
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

/* Writes the counterexample's replay scenario to dir/NAME.cx.scn, or the
 * first free suffixed name when a file is there (util/outfile.h: one a
 * user kept is never overwritten); path gets the name used. */
static int write_replay(const struct scenario *cx, const char *dir, const char *cmdline,
			const struct verify_result *vr, char *path, size_t n)
{
	char header[1024], want[4400];
	struct ftv_err err;
	FILE *f;

	snprintf(want, sizeof(want), "%s/%s.cx.scn", dir, cx->name);
	snprintf(path, n, "%s", want);
	snprintf(header, sizeof(header),
		 "ftv verify counterexample: a scenario (ftv scenario FILE replays it)\n"
		 "found by: %s\n"
		 "shortest of %llu executions explored: %zu visible steps, violation %s",
		 cmdline, (unsigned long long)vr->x.executions, vr->cx_steps, vr->kinds);
	f = outfile_create(want, path, n, &err);
	if (!f)
		return -1;
	scenario_write(f, cx, header);
	return outfile_close(f, path, &err);
}

static int verify_file(const struct ftv_paths *paths, const char *file, const struct vopts *o,
		       const char *cmdline, int *status)
{
	char buf[4200], replay[4400] = "";
	struct ftv_err err;
	const char *path = ftv_paths_input(paths->scenarios, file, ".scn", buf, sizeof(buf), &err);
	struct scenario *s = malloc(sizeof(*s)), *cx = malloc(sizeof(*cx));
	struct verify_config vc;
	struct verify_result vr;
	char *report = NULL;
	size_t rlen = 0;
	FILE *out = stdout;
	int ret = -1;
	struct walk walk = { .o = o, .tty = isatty(STDERR_FILENO) };

	if (!s || !cx) {
		fprintf(stderr, "ftv verify: out of memory\n");
		goto done;
	}
	if (!path || scenario_load(path, s, &err)) {
		fprintf(stderr, "ftv verify: %s\n", err.msg);
		goto done;
	}
	if (ftv_mutant_check(o->mutant, s->cfg.scheme, &err)) {
		fprintf(stderr, "ftv verify: %s: %s\n", file, err.msg);
		goto done;
	}
	for (int k = 0; k < o->nobjects; k++)
		if (scenario_add_object(s, "", o->objects[k], &err)) {
			fprintf(stderr, "ftv verify: --object: %s\n", err.msg);
			goto done;
		}
	for (int k = 0; k < o->ncalls; k++)
		if (scenario_add_calls(s, o->calls[k], &err)) {
			fprintf(stderr, "ftv verify: --call: %s\n", err.msg);
			goto done;
		}
	ftv_mutant_apply(o->mutant, &s->cfg);
	s->cfg.litmus_out = o->litmus;
	s->cfg.litmus_fixed_out = o->litmus ? o->litmus_fixed : NULL;
	scenario_verify_config(s, &vc);
	if (!vc.max_executions)
		vc.max_executions = VERIFY_DEFAULT_EXECUTIONS;
	if (o->max_exec)
		vc.max_executions = o->max_exec;
	clock_gettime(CLOCK_MONOTONIC, &walk.t0);
	walk.shown = walk.t0;
	vc.stop = walk_stop;
	vc.progress = walk_progress;
	vc.ctx = &walk;
	if (o->max_steps)
		vc.max_steps = o->max_steps;
	vc.reduce = !o->noreduce;
	vc.stateful = o->stateful;
	vc.no_symmetry = o->nosym || (getenv("FTV_VERIFY_NO_SYMMETRY") &&
				      strcmp(getenv("FTV_VERIFY_NO_SYMMETRY"), "0"));
	vc.coarse = o->coarse;
	vc.shard = o->shard;
	vc.nshards = o->nshards;
	vc.first = o->first;
	vc.split = o->stats;
	/* the reference the resets' lazy words are checked against
	 * (exec_verify_config.exact_reset) */
	vc.exact_reset = getenv("FTV_VERIFY_EXACT_RESET") &&
			 strcmp(getenv("FTV_VERIFY_EXACT_RESET"), "0");
	/* the stateful walk's memory for its states (the test of a full
	 * table: exec_verify_config.state_bytes) */
	/* the prefix restore (exec_save.h): on unless
	 * FTV_VERIFY_NO_PREFIX_RESTORE=1 (the walk is the same, each run
	 * replayed from the reset); FTV_VERIFY_PREFIX_CHECK=1 checks every
	 * restored state against a replay from the reset */
	vc.prefix_restore = !env_on("FTV_VERIFY_NO_PREFIX_RESTORE");
	vc.prefix_check = env_on("FTV_VERIFY_PREFIX_CHECK");
	if (getenv("FTV_VERIFY_STATE_BYTES"))
		vc.state_bytes = (size_t)strtoull(getenv("FTV_VERIFY_STATE_BYTES"), NULL, 10);
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
	ret = scenario_verify(s, paths->corpus, paths->tramp, &vc, out, &vr, cx, NULL, &err);
	if (walk.tty)
		fprintf(stderr, "\r\033[K");
	if (ret) {
		ret = -1;
		if (out != stdout)
			fclose(out);
		fprintf(stderr, "ftv verify: %s\n", err.msg);
		goto done;
	}
	ret = -1;
	if (vr.violated && write_replay(cx, o->out, cmdline, &vr, replay, sizeof(replay))) {
		fprintf(stderr, "ftv verify: %s: cannot write the replay file (%s/%s.cx.scn "
			"and its suffixed names)\n", replay, o->out, cx->name);
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
		if (o->stats)
			print_stats(&vr);
	}
	if (verify_exit(&vr) > *status)
		*status = verify_exit(&vr);
	/* a walk where no CPU saw anything the updates change (no watched
	 * word fetched, no load of watched data a scheduling point) explored
	 * no interleaving: a verdict on nothing, exit 2 */
	if (!vr.violated && !vr.nwords && !vr.npoints) {
		fflush(stdout);
		fprintf(stderr, "ftv verify: %s: vacuous: no CPU fetches a word or loads data the "
			"updates change (0 watched words, 0 loads of watched data)\n", s->name);
		if (*status != FTV_EXIT_VIOLATION)
			*status = FTV_EXIT_USAGE;
	}
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
	struct vopts vo = { .nshards = 1, .out = ".", .time_s = VERIFY_DEFAULT_TIME_S };
	int status = FTV_EXIT_OK, nfiles = 0, o;
	const char **files = calloc((size_t)argc, sizeof(*files));
	char cmdline[1024] = "ftv verify";
	struct sigaction sa;

	vo.objects = calloc((size_t)argc, sizeof(*vo.objects));
	vo.calls = calloc((size_t)argc, sizeof(*vo.calls));
	if (!files || !vo.objects || !vo.calls) {
		free(vo.objects);
		free(vo.calls);
		free(files);
		return FTV_EXIT_USAGE;
	}
	for (int i = 1; i < argc; i++)
		snprintf(cmdline + strlen(cmdline), sizeof(cmdline) - strlen(cmdline), " %s",
			 argv[i]);
	{
		/* the counterexample's header: control bytes written \xNN */
		char raw[sizeof(cmdline)];

		memcpy(raw, cmdline, sizeof(raw));
		ftv_escape(cmdline, sizeof(cmdline), raw);
	}
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_MAXEXEC:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &vo.max_exec))
				goto usage;
			break;
		case O_TIME:
			if (ftv_opt_seconds(&g, &vo.time_s))
				goto usage;
			break;
		case O_OBJECT:
			vo.objects[vo.nobjects++] = g.val;
			break;
		case O_CALL:
			vo.calls[vo.ncalls++] = g.val;
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
		case O_STATEFUL:
			vo.stateful = 1;
			break;
		case O_NOSYM:
			vo.nosym = 1;
			break;
		case O_COARSE:
			vo.coarse = 1;
			break;
		case O_FIRST:
			vo.first = 1;
			break;
		case O_STATS:
			vo.stats = 1;
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
		case O_LITMUS:
			vo.litmus = g.val;
			break;
		case O_LITMUS_FIXED:
			vo.litmus_fixed = g.val;
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
		status = g.exit;
		goto out;
	}
	if (!nfiles) {
		status = ftv_usage_error(g.cmd, "missing FILE");
		goto out;
	}
	if ((status = ftv_litmus_opts_check(g.cmd, vo.litmus, vo.litmus_fixed))) {
		goto out;
	}
	if (vo.combine) {
		status = verify_combine(nfiles, files, vo.json);
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (int i = 0; i < nfiles && !interrupted; i++)
		if (verify_file(&paths, files[i], &vo, cmdline, &status))
			goto usage;
	/* the verdict so far was printed: interrupted, not incomplete */
	if (interrupted && status != FTV_EXIT_VIOLATION)
		status = 128 + interrupted;
	goto out;
usage:
	status = FTV_EXIT_USAGE;
out:
	free(vo.objects);
	free(vo.calls);
	free(files);
	return status;
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
		   "(NAME.cx.scn, or NAME.cx-1.scn... when one is there: it is kept) that\n"
		   "'ftv scenario' runs. Exit 0 verified, 1 violation, 3 incomplete (not a\n"
		   "proof), 2 bad usage or input, 130 interrupted (143: SIGTERM).\n"
		   "\n"
		   "A world's walk stops at --time (default 600 s) or --max-executions\n"
		   "(default: the file's, else 1000000), whichever comes first: 'incomplete\n"
		   "after N executions', naming the bound. On a terminal a progress line\n"
		   "is rewritten on stderr. SIGINT (Ctrl-C) or SIGTERM ends the walk in\n"
		   "progress and prints its verdict so far. --object and --call add your\n"
		   "own code to every world, as for 'ftv scenario'.\n"
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
