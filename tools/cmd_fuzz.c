/* ftv fuzz: random ftrace workloads over the corpus until a violation,
 * shrunk to a minimal scenario and written as a replay file.
 * See verify/fuzz.h for the generator and the shrinker; this file is the
 * campaign: iteration seeds, workers, shards, progress and reports.
 *
 * Its options are the table fuzz_opts below (ftv fuzz --help): iteration
 * i's seed is fuzz_iter_seed(--seed, i); --shard I/N runs the iterations i
 * with i % N == I, the k-th one this process runs being i = I + k * N;
 * --jobs J forks J workers, worker w running the k-th iterations with
 * k % J == w.
 * Exit 0: nothing found; 1: a violation (shrunk, replay written); 2: bad
 * usage, or an iteration the model rejected (a fuzzer bug, never silent).
 *
 * Nothing found is lost: the replay file's directory is checked before
 * the campaign; a file already at --out is kept (the replay gets a
 * suffix); the workers send the replay text and this process writes it,
 * or prints it on stderr when it cannot. --time bounds the whole command,
 * the shrink included (cut short, the smallest case so far is written);
 * SIGINT stops every worker after the run in progress, writes the replay
 * of a finding and prints the summary of what ran.
 */
#include "executor/exec.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/num.h"
#include "util/opt.h"
#include "util/outfile.h"
#include "verify/fuzz.h"
#include "verify/mutant.h"
#include "verify/scenario.h"
#include "verify/trace_json.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define FUZZ_MAX_JOBS 64

/* The command's own messages (progress, errors): stderr, unbuffered so a
 * progress line without a newline shows at once. Worlds print nothing
 * there (their notes go to world_config.notes_out, unset here). */
static FILE *errout;

static void use_stderr(void)
{
	errout = stderr;
	setvbuf(stderr, NULL, _IONBF, 0);
}

enum { M_ITER, M_SHRINK, M_TEXT, M_FOUND, M_ERROR };

/* Why a shrink was cut short (struct fmsg.cut). */
enum { CUT_NONE, CUT_TIME, CUT_SIGINT };

/* SIGINT: the campaign ends after the runs in progress (every process's
 * own flag: a worker gets the terminal's SIGINT or its parent's). */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* once: a second SIGINT kills (the campaign process); always: a worker
 * may get the terminal's SIGINT and its parent's, and must finish */
static void catch_sigint(int once)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the campaign's read() returns EINTR to forward it */
	sa.sa_flags = once ? SA_RESETHAND : 0;
	sigaction(SIGINT, &sa, NULL);
}

/* What a worker tells the campaign; small enough (< PIPE_BUF) that writes
 * from several workers into one pipe never interleave. */
struct fmsg {
	int type;
	unsigned worker;
	uint64_t iter, iter_seed;
	int violated;
	uint64_t transitions, steps, plans;
	uint64_t nviolations;
	unsigned tried, accepted;
	unsigned ops_before, ops_after, cpus_before, cpus_after;
	unsigned rounds_before, rounds_after;
	int cut;       /* CUT_*: the shrink was cut short */
	unsigned len;  /* M_TEXT: bytes of text */
	char kinds[260];
	char kind[24];    /* the kind the shrink kept */
	char text[1500]; /* M_TEXT: a piece of the replay file; M_ERROR: the error */
};

struct campaign {
	struct ftv_paths paths;
	struct fuzz_gen g;
	uint64_t seed;
	uint64_t iterations;     /* per process (this shard), 0: --time */
	double time_s;
	unsigned jobs, shard, nshards, shrink_budget;
	int json, tty, trace;
	struct trace_json *tj; /* --trace FILE: the finding's timeline */
	char out[1024];
	char cmdline[2048];
	struct timespec start; /* the command's: --time counts from here */
	struct timespec t0;    /* the campaign's: the rates count from here */
	/* totals */
	uint64_t done, transitions, steps, violations;
	int found, error;
	unsigned shrunk; /* shrink candidates kept so far */
	pid_t pids[FUZZ_MAX_JOBS];
	/* worker w is shrinking a finding (its violating M_ITER came, its
	 * M_FOUND not yet) */
	unsigned char shrinking[FUZZ_MAX_JOBS];
	int stopped, forwarded; /* the workers were told to stop; SIGINT sent on */
	int fd; /* a worker's pipe, -1 in-process */
	/* the replay text each worker is sending (M_TEXT pieces) */
	char *text[FUZZ_MAX_JOBS];
	size_t text_len[FUZZ_MAX_JOBS];
};

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

static double elapsed(const struct campaign *c)
{
	return since(&c->t0);
}

/* --time is up (never with --iterations). */
static int out_of_time(const struct campaign *c)
{
	return !c->iterations && since(&c->start) >= c->time_s;
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
		       struct trace_json *tj, int json)
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
		json_key_str(&j, "scheme", ftv_scheme_name(s->cfg.scheme));
		json_key_str(&j, "arch", ftv_arch_name(ftv_scheme_arch(s->cfg.scheme)));
		json_key_u64(&j, "cpus", s->cfg.exec.ncpus);
		json_key_str(&j, "policy", exec_policy_name(s->cfg.exec.policy));
		json_key_u64(&j, "seed", s->cfg.exec.seed);
		json_key_str(&j, "mutate", s->cfg.mutant_name ? s->cfg.mutant_name : "none");
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

/* ---- workers ---------------------------------------------------------- */

static void handle(struct campaign *c, const struct fmsg *m);

static void send(struct campaign *c, struct fmsg *m)
{
	if (c->fd < 0) {
		handle(c, m);
		return;
	}
	for (size_t off = 0; off < sizeof(*m);) {
		ssize_t n = write(c->fd, (char *)m + off, sizeof(*m) - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(3);
		off += (size_t)n;
	}
}

static void shrink_progress(void *ctx, const struct fuzz_shrink *sh)
{
	struct campaign *c = ctx;
	struct fmsg m;

	memset(&m, 0, sizeof(m));
	m.type = M_SHRINK;
	m.tried = sh->tried;
	m.accepted = sh->accepted;
	send(c, &m);
}

/* The shrink ends with the command's time or at SIGINT. */
static int shrink_stop(void *ctx)
{
	return interrupted || out_of_time(ctx);
}

static const char *cut_why(int cut)
{
	return cut == CUT_SIGINT ? "SIGINT" : "--time";
}

/* The replay text, in pieces that fit a message, then the finding. */
static void send_finding(struct campaign *c, const char *text, struct fmsg *m)
{
	struct fmsg t;
	size_t len = strlen(text);

	for (size_t off = 0; off < len;) {
		size_t n = len - off < sizeof(t.text) ? len - off : sizeof(t.text);

		memset(&t, 0, sizeof(t));
		t.type = M_TEXT;
		t.worker = m->worker;
		t.len = (unsigned)n;
		memcpy(t.text, text + off, n);
		send(c, &t);
		off += n;
	}
	m->type = M_FOUND;
	send(c, m);
}

/* Shrinks the failing scenario and sends its replay file's text. */
static void found(struct campaign *c, struct scenario *s, uint64_t i, uint64_t iseed,
		  const struct scn_result *res, struct fmsg *m)
{
	struct fuzz_shrink sh = { .corpus_dir = c->paths.corpus, .tramp_dir = c->paths.tramp,
				  .budget = c->shrink_budget, .progress = shrink_progress,
				  .stop = shrink_stop, .ctx = c };
	struct ftv_err err;
	char kind[24], header[4096], cut[64] = "";
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	fuzz_pick_kind(res->kinds, kind, sizeof(kind));
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	m->ops_before = s->nops;
	m->cpus_before = s->cfg.exec.ncpus;
	m->rounds_before = s->cfg.rounds;
	/* fails only out of memory, before any run: the case stays whole */
	if (fuzz_shrink(s, kind, &sh, &err))
		sh.tried = sh.accepted = 0;
	if (sh.end == FUZZ_SHRINK_STOPPED) {
		m->cut = interrupted ? CUT_SIGINT : CUT_TIME;
		snprintf(cut, sizeof(cut), " (cut short by %s)", cut_why(m->cut));
	}
	m->tried = sh.tried;
	m->accepted = sh.accepted;
	m->ops_after = s->nops;
	m->cpus_after = s->cfg.exec.ncpus;
	m->rounds_after = s->cfg.rounds;
	s->expect_ok = 0;
	s->nexpect = 1;
	snprintf(s->expect[0], sizeof(s->expect[0]), "%s", kind);
	snprintf(header, sizeof(header),
		 "ftv fuzz replay file: a scenario (ftv fuzz --replay FILE, ftv scenario FILE)\n"
		 "found by: %s\n"
		 "fuzz seed %llu, iteration %llu, iteration seed 0x%016llx\n"
		 "violation %s; shrunk from %u operations, %u CPUs, %u rounds in %u runs%s",
		 c->cmdline, (unsigned long long)c->seed, (unsigned long long)i,
		 (unsigned long long)iseed, kind, m->ops_before, m->cpus_before,
		 m->rounds_before, sh.tried, cut);
	mem = open_memstream(&text, &len);
	if (!mem) {
		m->type = M_ERROR;
		snprintf(m->text, sizeof(m->text), "iteration %llu: out of memory for its replay",
			 (unsigned long long)i);
		send(c, m);
		return;
	}
	scenario_write(mem, s, header);
	fclose(mem);
	send_finding(c, text, m);
	free(text);
}

static void worker(struct campaign *c, unsigned w)
{
	struct scenario *s = malloc(sizeof(*s));
	struct fmsg m;

	if (!s) {
		memset(&m, 0, sizeof(m));
		m.type = M_ERROR;
		snprintf(m.text, sizeof(m.text), "out of memory");
		send(c, &m);
		return;
	}
	/* a world per iteration, over the same memory each time: its
	 * engines and what they translated serve the next one */
	exec_reuse_engines();
	for (uint64_t k = w;; k += c->jobs) {
		/* shard I of N takes iterations I, I+N, I+2N...; worker w of
		 * J takes every J-th of those */
		uint64_t i = c->shard + k * c->nshards, iseed = fuzz_iter_seed(c->seed, i);
		struct scn_result res;
		struct ftv_err err;
		int r;

		/* --time: the first iteration always runs */
		if (c->iterations ? k >= c->iterations : k && out_of_time(c))
			break;
		if (interrupted)
			break;
		fuzz_generate(&c->g, iseed, s);
		s->no_trace_hash = 1;
		r = fuzz_fails(s, NULL, c->paths.corpus, c->paths.tramp, &res, &err);
		memset(&m, 0, sizeof(m));
		m.worker = w;
		m.iter = i;
		m.iter_seed = iseed;
		if (r < 0) {
			m.type = M_ERROR;
			snprintf(m.text, sizeof(m.text), "iteration %llu (seed 0x%016llx): %s",
				 (unsigned long long)i, (unsigned long long)iseed, err.msg);
			send(c, &m);
			break;
		}
		m.type = M_ITER;
		m.violated = r;
		m.transitions = res.stats.transitions;
		m.steps = res.stats.steps;
		m.plans = res.stats.plans;
		m.nviolations = res.nviolations;
		snprintf(m.kinds, sizeof(m.kinds), "%s", res.kinds);
		send(c, &m);
		if (!r)
			continue;
		/* the scenario as generated (scenario_run only fills in the
		 * object paths) */
		fuzz_generate(&c->g, iseed, s);
		found(c, s, i, iseed, &res, &m);
		break;
	}
	free(s);
}

/* ---- the campaign ------------------------------------------------------ */

static void progress_line(struct campaign *c)
{
	double t = elapsed(c);

	fprintf(errout, "\r\033[K[%.1fs] %llu iterations, %llu transitions, %llu steps, "
		"%.2f it/s, %llu violations", t, (unsigned long long)c->done,
		(unsigned long long)c->transitions, (unsigned long long)c->steps,
		t > 0 ? c->done / t : 0.0, (unsigned long long)c->violations);
	fflush(errout);
}

/* Writes the replay text to --out, or to the first free suffixed name
 * when a file is there already (used: the name written). When it cannot,
 * the text goes to stderr: a finding is never lost. */
static int write_replay(struct campaign *c, const char *text, char *used, size_t n)
{
	struct ftv_err err;
	FILE *f = outfile_create(c->out, used, n, &err);

	if (f) {
		fputs(text, f);
		if (!outfile_close(f, used, &err)) {
			if (strcmp(used, c->out))
				fprintf(errout, "ftv fuzz: %s exists, kept; the replay file is %s\n",
					c->out, used);
			return 0;
		}
	}
	fflush(stdout);
	fprintf(errout, "ftv fuzz: cannot write the replay file: %s; here it is:\n%s", err.msg,
		text);
	return -1;
}

/* The finding: the shrink's outcome, the replay's report, the scenario
 * (text) or one JSON object. path: where its replay file is, or NULL when
 * it could not be written. */
static void print_finding(struct campaign *c, const struct fmsg *m, const char *text,
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
		c->error = 1;
		return;
	}
	if (c->json) {
		struct json j;
		char iseed[24];

		snprintf(iseed, sizeof(iseed), "0x%016llx", (unsigned long long)m->iter_seed);
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "finding");
		json_key_u64(&j, "seed", c->seed);
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

/* A worker's finding, its replay text complete: written, then reported.
 * Only the first is reported (it ends the campaign); one that a worker
 * finished before it was stopped is written too, and named. */
static void finding(struct campaign *c, const struct fmsg *m)
{
	unsigned w = m->worker;
	char *text = c->text[w], used[1100];
	int unwritten;

	c->text[w] = NULL;
	c->text_len[w] = 0;
	if (!text) {
		fprintf(errout, "ftv fuzz: worker %u: a finding without its replay text\n", w);
		c->error = 1;
		return;
	}
	if (c->tty && !c->json)
		fprintf(errout, "\r\033[K");
	unwritten = write_replay(c, text, used, sizeof(used));
	if (c->found) {
		fprintf(errout, "ftv fuzz: worker %u also found %s (iteration %llu)%s%s\n", w,
			m->kind, (unsigned long long)m->iter, unwritten ? "" : ": replay file ",
			unwritten ? "" : used);
	} else {
		c->found = 1;
		print_finding(c, m, text, unwritten ? NULL : used);
	}
	free(text);
}

static int append_text(struct campaign *c, const struct fmsg *m)
{
	unsigned w = m->worker;
	char *t;

	if (w >= FUZZ_MAX_JOBS || m->len > sizeof(m->text))
		return -1;
	t = realloc(c->text[w], c->text_len[w] + m->len + 1);
	if (!t)
		return -1;
	memcpy(t + c->text_len[w], m->text, m->len);
	c->text_len[w] += m->len;
	t[c->text_len[w]] = 0;
	c->text[w] = t;
	return 0;
}

static void handle(struct campaign *c, const struct fmsg *m)
{
	switch (m->type) {
	case M_ITER: {
		c->done++;
		c->transitions += m->transitions;
		c->steps += m->steps;
		c->violations += m->violated;
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
		fuzz_generate(&c->g, m->iter_seed, s);
		printf("fuzz: iteration %llu (seed 0x%016llx): %u CPUs, policy %s, %u rounds, "
		       "%u operations: %llu plans, %llu transitions, %llu steps: %s%s%s\n",
		       (unsigned long long)m->iter, (unsigned long long)m->iter_seed,
		       s->cfg.exec.ncpus, exec_policy_name(s->cfg.exec.policy), s->cfg.rounds,
		       s->nops, (unsigned long long)m->plans,
		       (unsigned long long)m->transitions, (unsigned long long)m->steps,
		       m->violated ? "VIOLATION (" : "ok", m->violated ? m->kinds : "",
		       m->violated ? "), shrinking" : "");
		fflush(stdout);
		free(s);
		break;
	}
	case M_SHRINK:
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
	case M_TEXT:
		if (append_text(c, m)) {
			fprintf(errout, "ftv fuzz: out of memory for a replay text\n");
			c->error = 1;
		}
		break;
	case M_FOUND:
		finding(c, m);
		break;
	case M_ERROR:
		if (c->tty && !c->json)
			fprintf(errout, "\r\033[K");
		fprintf(errout, "ftv fuzz: %s\n", m->text);
		c->error = 1;
		break;
	}
}

/* The campaign ends: a worker shrinking a finding is asked to stop like
 * at SIGINT (it sends the smallest case so far), the others end now. */
static void stop_workers(struct campaign *c)
{
	if (c->stopped)
		return;
	c->stopped = 1;
	for (unsigned w = 0; w < c->jobs; w++)
		if (c->pids[w] > 0)
			kill(c->pids[w], c->shrinking[w] ? SIGINT : SIGTERM);
}

static int run_jobs(struct campaign *c)
{
	int fds[2];

	if (c->jobs == 1) {
		c->fd = -1;
		worker(c, 0);
		return 0;
	}
	if (pipe(fds)) {
		fprintf(errout, "ftv fuzz: pipe: %s\n", strerror(errno));
		return -1;
	}
	fflush(stdout);
	fflush(errout);
	for (unsigned w = 0; w < c->jobs; w++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(errout, "ftv fuzz: fork: %s\n", strerror(errno));
			c->error = 1;
			break;
		}
		if (!pid) {
			catch_sigint(0);
			close(fds[0]);
			c->fd = fds[1];
			worker(c, w);
			_exit(0);
		}
		c->pids[w] = pid;
	}
	close(fds[1]);
	for (;;) {
		struct fmsg m;
		size_t off = 0;

		while (off < sizeof(m)) {
			ssize_t n = read(fds[0], (char *)&m + off, sizeof(m) - off);

			if (n < 0 && errno == EINTR) {
				/* SIGINT sent to this process alone (a terminal's
				 * reaches the workers too; twice is harmless) */
				if (interrupted && !c->forwarded) {
					c->forwarded = 1;
					for (unsigned w = 0; w < c->jobs; w++)
						if (c->pids[w] > 0)
							kill(c->pids[w], SIGINT);
				}
				continue;
			}
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		if (off < sizeof(m))
			break;
		c->fd = -1;
		if (m.worker >= c->jobs)
			continue;
		if (m.type == M_ITER && m.violated)
			c->shrinking[m.worker] = 1;
		if (m.type == M_FOUND)
			c->shrinking[m.worker] = 0;
		/* after the stop, what the others sent before it: iterations
		 * no longer count, findings and errors still do */
		if ((c->found || c->error) && (m.type == M_ITER || m.type == M_SHRINK))
			continue;
		if (m.type == M_FOUND)
			stop_workers(c); /* the first finding ends the campaign */
		handle(c, &m);
		if (c->found || c->error)
			stop_workers(c);
	}
	close(fds[0]);
	for (unsigned w = 0; w < c->jobs; w++) {
		int st;
		pid_t r;

		if (c->pids[w] <= 0)
			continue;
		while ((r = waitpid(c->pids[w], &st, 0)) < 0 && errno == EINTR)
			;
		if (r != c->pids[w])
			continue;
		/* a worker that died on its own lost its iterations: never
		 * report a clean campaign then (the ones stopped after a
		 * finding die of our SIGTERM) */
		if (!c->found && !c->error && !(WIFEXITED(st) && !WEXITSTATUS(st))) {
			fprintf(errout, "ftv fuzz: worker %u died (%s %d)\n", w,
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			c->error = 1;
		}
	}
	return 0;
}

static void summary(struct campaign *c)
{
	double t = elapsed(c);

	if (c->tty && !c->json)
		fprintf(errout, "\r\033[K");
	if (c->json) {
		struct json j;
		char shard[32];

		snprintf(shard, sizeof(shard), "%u/%u", c->shard, c->nshards);
		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "summary");
		json_key_u64(&j, "seed", c->seed);
		json_key_str(&j, "scheme", ftv_scheme_name(c->g.scheme));
		json_key_str(&j, "mutate", c->g.mutant ? c->g.mutant->name : "none");
		json_key_str(&j, "shard", shard);
		json_key_u64(&j, "jobs", c->jobs);
		json_key_u64(&j, "iterations", c->done);
		json_key_u64(&j, "transitions", c->transitions);
		json_key_u64(&j, "steps", c->steps);
		json_key_u64(&j, "violations", c->violations);
		json_key_bool(&j, "found", c->found || c->violations);
		json_key_double(&j, "elapsed_s", t, 3);
		json_key_double(&j, "iterations_per_s", t > 0 ? c->done / t : 0.0, 3);
		json_key_double(&j, "transitions_per_s", t > 0 ? c->transitions / t : 0.0, 1);
		json_key_double(&j, "steps_per_s", t > 0 ? c->steps / t : 0.0, 1);
		json_key_str(&j, "arch", ftv_arch_name(ftv_scheme_arch(c->g.scheme)));
		/* what ftv fuzz-merge checks the shards agree on, with the
		 * above */
		{
			char objs[WORLD_MAX_OBJECTS * 66 + SCN_MAX_USER * 1026] = "", budget[64];

			for (unsigned i = 0; i < c->g.nobjects; i++)
				snprintf(objs + strlen(objs), sizeof(objs) - strlen(objs), "%s%s",
					 i ? " " : "", c->g.objects[i]);
			for (unsigned i = 0; i < c->g.nuser; i++)
				snprintf(objs + strlen(objs), sizeof(objs) - strlen(objs), "%s%s",
					 objs[0] ? " " : "", c->g.user[i]);
			json_key_str(&j, "objects", objs);
			json_key_u64(&j, "cpus", c->g.cpus);
			if (c->iterations)
				snprintf(budget, sizeof(budget), "%llu iterations",
					 (unsigned long long)c->iterations);
			else
				snprintf(budget, sizeof(budget), "%g s", c->time_s);
			json_key_str(&j, "budget", budget);
		}
		json_key_bool(&j, "interrupted", interrupted);
		json_end_object(&j);
		json_newline(&j);
	} else {
		if (interrupted)
			printf("fuzz: interrupted (SIGINT): stopped after the runs in progress\n");
		printf("fuzz: seed %llu: %llu iterations in %.1f s (%.2f iterations/s), "
		       "%llu transitions (%.1f/s), %llu interleaving steps (%.1f/s), "
		       "%llu violating iterations\n",
		       (unsigned long long)c->seed, (unsigned long long)c->done, t,
		       t > 0 ? c->done / t : 0.0, (unsigned long long)c->transitions,
		       t > 0 ? c->transitions / t : 0.0, (unsigned long long)c->steps,
		       t > 0 ? c->steps / t : 0.0, (unsigned long long)c->violations);
	}
	fflush(stdout);
}

enum {
	O_SEED = 256, O_CPUS, O_ITERATIONS, O_TIME, O_SCHEME, O_ARCH, O_MUTATE, O_JOBS,
	O_SHARD, O_REPLAY, O_OUT, O_SHRINK_BUDGET, O_JSON, O_TRACE, O_OBJECTS,
	O_TRACE_TEXT, O_OBJECT, O_CALL,
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
	clock_gettime(CLOCK_MONOTONIC, &c.start);
	ftv_paths_default(&c.paths, argv[0]);
	c.jobs = 1;
	c.nshards = 1;
	c.iterations = 10;
	c.g.scheme = FTV_SCHEME_CALLOPS;
	c.fd = -1;
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
			if (c.g.nobjects >= WORLD_MAX_OBJECTS)
				return ftv_cmd_error(g.cmd, "--objects: more than %d objects",
						     WORLD_MAX_OBJECTS);
			snprintf(c.g.objects[c.g.nobjects++], sizeof(c.g.objects[0]), "%s", g.val);
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
			if (c.g.nuser >= SCN_MAX_USER) {
				free(u);
				return ftv_cmd_error(g.cmd, "--object: more than %d objects",
						     SCN_MAX_USER);
			}
			snprintf(c.g.user[c.g.nuser++], sizeof(c.g.user[0]), "%s",
				 u->user_objects[0]);
			free(u);
			break;
		}
		case O_CALL: {
			size_t l = strlen(c.g.call_list);

			if (l + strlen(g.val) + 2 > sizeof(c.g.call_list))
				return ftv_opt_bad(&g, "makes the list of functions longer than %zu bytes",
						   sizeof(c.g.call_list) - 1);
			snprintf(c.g.call_list + l, sizeof(c.g.call_list) - l, "%s%s", l ? "," : "",
				 g.val);
			break;
		}
		case O_SEED:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &c.seed))
				return FTV_EXIT_USAGE;
			seed_set = 1;
			break;
		case O_CPUS:
			if (ftv_opt_unsigned(&g, 1, EXEC_MAX_CPUS, &c.g.cpus))
				return FTV_EXIT_USAGE;
			break;
		case O_ITERATIONS:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &c.iterations))
				return FTV_EXIT_USAGE;
			iters_set = 1;
			break;
		case O_TIME:
			if (ftv_opt_seconds(&g, &c.time_s))
				return FTV_EXIT_USAGE;
			time_set = 1;
			break;
		case O_SCHEME:
			if (ftv_scheme_parse(g.val, &c.g.scheme))
				return ftv_opt_bad_choice(&g);
			scheme_set = 1;
			break;
		case O_ARCH:
			if (ftv_arch_parse(g.val, &arch))
				return ftv_opt_bad_choice(&g);
			arch_set = 1;
			break;
		case O_MUTATE:
			c.g.mutant = ftv_mutant_find(g.val);
			if (!c.g.mutant)
				return ftv_opt_bad_choice(&g);
			break;
		case O_JOBS:
			if (ftv_opt_unsigned(&g, 1, FUZZ_MAX_JOBS, &c.jobs))
				return FTV_EXIT_USAGE;
			break;
		case O_SHARD: {
			unsigned si, sn;
			char extra;

			if (sscanf(g.val, "%u/%u%c", &si, &sn, &extra) != 2 || !sn || si >= sn)
				return ftv_opt_bad(&g, "is not I/N with 0 <= I < N");
			c.shard = si;
			c.nshards = sn;
			break;
		}
		case O_REPLAY:
			replay = g.val;
			break;
		case O_OUT:
			snprintf(c.out, sizeof(c.out), "%s", g.val);
			break;
		case O_SHRINK_BUDGET:
			if (ftv_opt_unsigned(&g, 1, 100000, &c.shrink_budget))
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
	/* the scheme implies the arch; an arch alone picks its default */
	if (arch_set && !scheme_set)
		c.g.scheme = ftv_arch_default_scheme(arch);
	if ((arch_set && ftv_scheme_check_arch(c.g.scheme, arch, &err)) ||
	    ftv_mutant_check(c.g.mutant, c.g.scheme, &err))
		return ftv_cmd_error(g.cmd, "%s", err.msg);
	if (time_set)
		c.iterations = 0;
	/* created before the campaign, so a bad path fails at once */
	if (trace && !(c.tj = trace_json_create(trace, &err)))
		return ftv_cmd_error(g.cmd, "--trace: %s", err.msg);
	if (replay) {
		use_stderr();
		r = replay_file(replay, &c.paths, c.trace, c.tj, c.json);
		if (trace_json_finish(c.tj, &err) && r != FTV_EXIT_USAGE)
			return ftv_cmd_error(g.cmd, "--trace: %s", err.msg);
		return r;
	}
	if (c.g.call_list[0] && !c.g.nuser)
		return ftv_usage_error(g.cmd, "--call names functions of --object, and there is none");
	if (!have_objects && !c.g.nuser) {
		snprintf(c.g.objects[0], sizeof(c.g.objects[0]), "rand1");
		snprintf(c.g.objects[1], sizeof(c.g.objects[1]), "rand2");
		/* weak hooks and their overrides: the kernel's table has
		 * entries sorttable zeroed */
		snprintf(c.g.objects[2], sizeof(c.g.objects[2]), "weak");
		snprintf(c.g.objects[3], sizeof(c.g.objects[3]), "hooks");
		c.g.nobjects = 4;
		/* and a random unit of their kind to load as a module */
		snprintf(c.g.modules[0], sizeof(c.g.modules[0]), "rand3");
		c.g.nmodules = 1;
	}
	if (!seed_set) {
		/* a fresh campaign: the seed is printed, --seed replays it */
		struct timespec t;

		clock_gettime(CLOCK_REALTIME, &t);
		c.seed = ((uint64_t)t.tv_sec * 1000003u) ^ (uint64_t)t.tv_nsec ^
			 ((uint64_t)getpid() << 32);
	}
	if (!c.out[0])
		snprintf(c.out, sizeof(c.out), "ftv-fuzz-%llu.scn", (unsigned long long)c.seed);
	/* before the campaign, not after a finding */
	if (outfile_check(c.out, &err))
		return ftv_cmd_error(g.cmd, "--out: %s", err.msg);
	{
		size_t l = 0;

		for (int i = 0; i < argc && l + 2 < sizeof(c.cmdline); i++)
			l += (size_t)snprintf(c.cmdline + l, sizeof(c.cmdline) - l, "%s%s",
					      i ? " " : "ftv ", argv[i]);
		if (!seed_set && l + 2 < sizeof(c.cmdline))
			snprintf(c.cmdline + l, sizeof(c.cmdline) - l, " --seed %llu",
				 (unsigned long long)c.seed);
	}
	c.tty = isatty(STDERR_FILENO) && isatty(STDOUT_FILENO);
	if (fuzz_targets(&c.g, c.paths.corpus, c.paths.tramp, &err)) {
		fprintf(stderr, "ftv fuzz: %s\n", err.msg);
		trace_json_finish(c.tj, &err);
		return FTV_EXIT_USAGE;
	}
	/* --time and the rates count the campaign, not the probe */
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	fflush(stderr);
	use_stderr();
	if (!c.json) {
		printf("fuzz: seed %llu, scheme %s (%s)%s", (unsigned long long)c.seed,
		       ftv_scheme_name(c.g.scheme), ftv_arch_name(ftv_scheme_arch(c.g.scheme)),
		       c.g.nobjects ? ", objects" : "");
		for (unsigned i = 0; i < c.g.nobjects; i++)
			printf(" %s", c.g.objects[i]);
		if (c.g.nmodules)
			printf(", module%s", c.g.nmodules == 1 ? "" : "s");
		for (unsigned i = 0; i < c.g.nmodules; i++)
			printf(" %s", c.g.modules[i]);
		for (unsigned i = 0; i < c.g.nuser; i++)
			printf("%s %s", i ? "" : c.g.nuser == 1 ? ", object" : ", objects",
			       c.g.user[i]);
		printf(" (%u traced functions), mutate %s, ", c.g.nfuncs,
		       c.g.mutant ? c.g.mutant->name : "none");
		if (c.iterations)
			printf("%llu iterations", (unsigned long long)c.iterations);
		else
			printf("%g s", c.time_s);
		printf(", shard %u/%u, %u job%s\n", c.shard, c.nshards, c.jobs,
		       c.jobs == 1 ? "" : "s");
		fflush(stdout);
	}
	catch_sigint(1);
	r = run_jobs(&c);
	summary(&c);
	for (unsigned w = 0; w < FUZZ_MAX_JOBS; w++)
		free(c.text[w]);
	if (trace_json_finish(c.tj, &err)) {
		fprintf(errout, "ftv fuzz: --trace: %s\n", err.msg);
		if (!r)
			r = -1;
	}
	if (c.found || c.violations)
		return FTV_EXIT_VIOLATION;
	if (r || c.error)
		return FTV_EXIT_USAGE;
	if (interrupted) {
		/* nothing found, the campaign cut short: die of the signal,
		 * so a shell or a CI job sees SIGINT and not a clean run */
		fflush(NULL);
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
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
		   "written, its text is printed on stderr. --time bounds the whole\n"
		   "command: a shrink still running then is cut short (said so) and the\n"
		   "smallest case so far is written. SIGINT (Ctrl-C) stops every worker\n"
		   "after the scenario run in progress, writes the replay file of a\n"
		   "finding and prints the summary of what ran; a second one kills.\n"
		   "\n"
		   "Exit status 0 when nothing was found, 1 when a violation was, 2 on\n"
		   "bad usage or when an iteration the model rejects (a fuzzer bug)\n"
		   "ends the campaign. Interrupted with nothing found, ftv dies of the\n"
		   "SIGINT, as a shell expects.\n"
		   "\n"
		   "--trace FILE writes the timeline of the finding's replay (or of\n"
		   "--replay FILE) as Chrome trace-event JSON for ui.perfetto.dev (see\n"
		   "'ftv help scenario'); --trace-text prints the executor's step trace\n"
		   "after the report.\n")
