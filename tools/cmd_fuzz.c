/* ftv fuzz: random ftrace workloads over the corpus until a violation,
 * shrunk to a minimal scenario and written as a replay file.
 * See verify/fuzz.h for the generator and the shrinker; this file is the
 * campaign: iteration seeds, workers, shards, progress and reports.
 *
 *   --seed S         campaign seed (default: from the clock, printed);
 *                    iteration i's seed is fuzz_iter_seed(S, i)
 *   --iterations K   this process runs K iterations (default 10), or
 *   --time SECONDS   starts iterations until SECONDS have passed
 *   --shard I/N      only iterations i with i % N == I: the k-th iteration
 *                    this process runs is i = I + k * N
 *   --jobs J         J forked workers, worker w running the k-th
 *                    iterations with k % J == w
 *   --arch A         arm64 (default) or riscv64; the scheme implies it
 *   --scheme S       callops (arm64's default), tramp, mcount; pair, atomic
 *                    (riscv64, default atomic); an arch and a scheme of
 *                    another arch are a usage error
 *   --cpus N         every iteration with N CPUs (default: 2..4 drawn)
 *   --out FILE       the replay file (default ftv-fuzz-<S>.scn)
 *   --shrink-budget  at most this many scenario runs to shrink (100)
 *   --json           one object per finding, then a summary object
 *   --replay FILE    run a replay file (any scenario) and print its report
 *   --trace          with a report (--replay, or a finding), the executor's
 *                    step trace after it: who ran, what each fetch saw
 * Exit 0: nothing found; 1: a violation (shrunk, replay written); 2: bad
 * usage, or an iteration the model rejected (a fuzzer bug, never silent).
 */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "verify/fuzz.h"
#include "verify/mutant.h"
#include "verify/scenario.h"

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

enum { M_ITER, M_SHRINK, M_FOUND, M_ERROR };

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
	char kinds[260];
	char kind[24];    /* the kind the shrink kept */
	char text[1500]; /* the replay file, or the error */
};

struct campaign {
	struct ftv_paths paths;
	struct fuzz_gen g;
	uint64_t seed;
	uint64_t iterations;     /* per process (this shard), 0: --time */
	double time_s;
	unsigned jobs, shard, nshards, shrink_budget;
	int json, tty, trace;
	char out[1024];
	char cmdline[2048];
	struct timespec t0;
	/* totals */
	uint64_t done, transitions, steps, violations;
	int found, error;
	unsigned shrunk; /* shrink candidates kept so far */
	pid_t pids[FUZZ_MAX_JOBS];
	int fd; /* a worker's pipe, -1 in-process */
};

static double elapsed(const struct campaign *c)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - c->t0.tv_sec) + (t.tv_nsec - c->t0.tv_nsec) / 1e9;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* The report of a replay file, the same whether fuzz just wrote it or
 * `ftv fuzz --replay` reads it back: the scenario's header line, every
 * violation as the world reports it, the counters and the verdict. */
static int replay_report(const char *path, FILE *out, struct scn_result *res,
			 const struct ftv_paths *paths, int trace, struct ftv_err *err)
{
	struct scenario *s = malloc(sizeof(*s));
	int ret = -1;

	if (!s)
		return ftv_errf(err, "out of memory");
	if (scenario_load(path, s, err))
		goto out;
	if (trace)
		s->cfg.trace_out = out;
	fprintf(out, "== %s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s\n",
		s->name, ftv_scheme_name(s->cfg.scheme), s->cfg.exec.ncpus,
		exec_policy_name(s->cfg.exec.policy), (unsigned long long)s->cfg.exec.seed,
		s->cfg.mutant_name ? s->cfg.mutant_name : "none");
	fflush(out);
	if (scenario_run(s, paths->corpus, paths->tramp, out, res, err))
		goto out;
	fprintf(out, "%s: %llu sites, %llu plans, %llu transitions, %llu steps\n", s->name,
		(unsigned long long)res->stats.sites, (unsigned long long)res->stats.plans,
		(unsigned long long)res->stats.transitions, (unsigned long long)res->stats.steps);
	fprintf(out, "%s: %s (%zu violations%s%s)\n", s->name,
		res->violated ? "VIOLATION" : "no violation", res->nviolations,
		res->kinds[0] ? ": " : "", res->kinds);
	ret = 0;
out:
	free(s);
	return ret;
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

/* Shrinks the failing scenario and writes the replay file. */
static int found(struct campaign *c, struct scenario *s, uint64_t i, uint64_t iseed,
		 const struct scn_result *res, struct fmsg *m)
{
	struct fuzz_shrink sh = { c->paths.corpus, c->paths.tramp, c->shrink_budget, 0, 0,
				  shrink_progress, c };
	struct ftv_err err;
	char kind[24], header[4096];
	FILE *f;

	fuzz_pick_kind(res->kinds, kind, sizeof(kind));
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	m->ops_before = s->nops;
	m->cpus_before = s->cfg.exec.ncpus;
	m->rounds_before = s->cfg.rounds;
	if (fuzz_shrink(s, kind, &sh, &err)) {
		snprintf(m->text, sizeof(m->text), "%s", err.msg);
		return -1;
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
		 "violation %s; shrunk from %u operations, %u CPUs, %u rounds in %u runs",
		 c->cmdline, (unsigned long long)c->seed, (unsigned long long)i,
		 (unsigned long long)iseed, kind, m->ops_before, m->cpus_before,
		 m->rounds_before, sh.tried);
	f = fopen(m->text, "w");
	if (!f) {
		snprintf(m->text + strlen(m->text), sizeof(m->text) - strlen(m->text),
			 ": cannot write the replay file");
		return -1;
	}
	scenario_write(f, s, header);
	if (fclose(f)) {
		snprintf(m->text + strlen(m->text), sizeof(m->text) - strlen(m->text),
			 ": cannot write the replay file");
		return -1;
	}
	return 0;
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
	for (uint64_t k = w;; k += c->jobs) {
		/* shard I of N takes iterations I, I+N, I+2N...; worker w of
		 * J takes every J-th of those */
		uint64_t i = c->shard + k * c->nshards, iseed = fuzz_iter_seed(c->seed, i);
		struct scn_result res;
		struct ftv_err err;
		int r;

		if (c->iterations ? k >= c->iterations : elapsed(c) >= c->time_s)
			break;
		fuzz_generate(&c->g, iseed, s);
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
		snprintf(m.text, sizeof(m.text), "%s", c->out);
		m.type = found(c, s, i, iseed, &res, &m) ? M_ERROR : M_FOUND;
		send(c, &m);
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

static void print_finding(struct campaign *c, const struct fmsg *m)
{
	struct scn_result res;
	struct ftv_err err;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem || replay_report(m->text, mem, &res, &c->paths, c->trace, &err)) {
		if (mem)
			fclose(mem);
		free(text);
		fprintf(errout, "ftv fuzz: %s: %s\n", m->text, mem ? err.msg : "out of memory");
		c->error = 1;
		return;
	}
	fclose(mem);
	if (c->json) {
		printf("{\"type\":\"finding\",\"seed\":%llu,\"iteration\":%llu,"
		       "\"iteration_seed\":\"0x%016llx\",\"kind\":",
		       (unsigned long long)c->seed, (unsigned long long)m->iter,
		       (unsigned long long)m->iter_seed);
		json_str(stdout, m->kind);
		printf(",\"kinds\":");
		json_str(stdout, res.kinds);
		printf(",\"violations\":%zu,\"replay\":", res.nviolations);
		json_str(stdout, m->text);
		printf(",\"operations_before\":%u,\"operations_after\":%u,"
		       "\"cpus_before\":%u,\"cpus_after\":%u,\"rounds_before\":%u,"
		       "\"rounds_after\":%u,\"shrink_runs\":%u,\"reproduced\":%s,\"report\":",
		       m->ops_before, m->ops_after, m->cpus_before, m->cpus_after,
		       m->rounds_before, m->rounds_after, m->tried,
		       res.violated ? "true" : "false");
		json_str(stdout, text);
		printf("}\n");
	} else {
		printf("fuzz: iteration %llu (seed 0x%016llx) found %s; shrunk from %u to %u "
		       "operations, %u to %u CPUs, %u to %u rounds in %u runs\n",
		       (unsigned long long)m->iter, (unsigned long long)m->iter_seed, m->kind,
		       m->ops_before, m->ops_after, m->cpus_before, m->cpus_after,
		       m->rounds_before, m->rounds_after, m->tried);
		fputs(text, stdout);
		printf("fuzz: the shrunk scenario (replay: ftv fuzz --replay %s):\n", m->text);
		{
			struct scenario *s = malloc(sizeof(*s));

			if (s && !scenario_load(m->text, s, &err))
				scenario_write(stdout, s, NULL);
			free(s);
		}
	}
	free(text);
	fflush(stdout);
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
	case M_FOUND:
		if (c->found)
			break;
		c->found = 1;
		if (c->tty && !c->json)
			fprintf(errout, "\r\033[K");
		print_finding(c, m);
		break;
	case M_ERROR:
		if (c->tty && !c->json)
			fprintf(errout, "\r\033[K");
		fprintf(errout, "ftv fuzz: %s\n", m->text);
		c->error = 1;
		break;
	}
}

static void stop_workers(struct campaign *c)
{
	for (unsigned w = 0; w < c->jobs; w++)
		if (c->pids[w] > 0)
			kill(c->pids[w], SIGTERM);
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

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		if (off < sizeof(m))
			break;
		if (c->found || c->error)
			continue; /* draining what the others sent before the stop */
		c->fd = -1;
		if (m.type == M_FOUND)
			stop_workers(c); /* the first finding ends the campaign */
		handle(c, &m);
		if (c->found || c->error)
			stop_workers(c);
	}
	close(fds[0]);
	for (unsigned w = 0; w < c->jobs; w++) {
		int st;

		if (c->pids[w] <= 0 || waitpid(c->pids[w], &st, 0) != c->pids[w])
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
		printf("{\"type\":\"summary\",\"seed\":%llu,\"scheme\":\"%s\",\"mutate\":\"%s\","
		       "\"shard\":\"%u/%u\",\"jobs\":%u,\"iterations\":%llu,\"transitions\":%llu,"
		       "\"steps\":%llu,\"violations\":%llu,\"found\":%s,\"elapsed_s\":%.3f,"
		       "\"iterations_per_s\":%.3f,\"transitions_per_s\":%.1f,\"steps_per_s\":%.1f,"
		       "\"arch\":\"%s\"}\n",
		       (unsigned long long)c->seed, ftv_scheme_name(c->g.scheme),
		       c->g.mutant ? c->g.mutant->name : "none", c->shard, c->nshards, c->jobs,
		       (unsigned long long)c->done, (unsigned long long)c->transitions,
		       (unsigned long long)c->steps, (unsigned long long)c->violations,
		       c->found ? "true" : "false", t, t > 0 ? c->done / t : 0.0,
		       t > 0 ? c->transitions / t : 0.0, t > 0 ? c->steps / t : 0.0,
		       ftv_arch_name(ftv_scheme_arch(c->g.scheme)));
	} else {
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

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "ftv fuzz: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return FTV_EXIT_USAGE;
}

static int cmd_fuzz(int argc, char **argv)
{
	static struct campaign c;
	const char *replay = NULL;
	int seed_set = 0, iters_set = 0, time_set = 0, have_objects = 0;
	int arch_set = 0, scheme_set = 0;
	enum ftv_arch arch = FTV_ARCH_ARM64;
	uint64_t v;
	struct ftv_err err;

	errout = stderr;
	memset(&c, 0, sizeof(c));
	ftv_paths_default(&c.paths, argv[0]);
	c.jobs = 1;
	c.nshards = 1;
	c.iterations = 10;
	c.g.scheme = FTV_SCHEME_CALLOPS;
	c.fd = -1;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *a = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(o, "--json")) {
			c.json = 1;
			continue;
		}
		if (!strcmp(o, "--trace")) {
			c.trace = 1;
			continue;
		}
		if (!strcmp(o, "--objects")) {
			while (i + 1 < argc && strncmp(argv[i + 1], "--", 2)) {
				if (c.g.nobjects >= WORLD_MAX_OBJECTS)
					return usage_err("too many objects%s", "");
				snprintf(c.g.objects[c.g.nobjects++], sizeof(c.g.objects[0]), "%s",
					 argv[++i]);
			}
			if (!c.g.nobjects)
				return usage_err("--objects needs at least one NAME%s", "");
			have_objects = 1;
			continue;
		}
		if (!a || strncmp(o, "--", 2))
			return ftv_usage("fuzz");
		i++;
		if (!strcmp(o, "--seed")) {
			if (ftv_parse_u64(a, &c.seed))
				return usage_err("bad seed '%s'", a);
			seed_set = 1;
		} else if (!strcmp(o, "--cpus")) {
			if (ftv_parse_u64(a, &v) || !v || v > EXEC_MAX_CPUS)
				return usage_err("--cpus must be 1..32, not '%s'", a);
			c.g.cpus = (unsigned)v;
		} else if (!strcmp(o, "--iterations")) {
			if (ftv_parse_u64(a, &c.iterations) || !c.iterations)
				return usage_err("bad iteration count '%s'", a);
			iters_set = 1;
		} else if (!strcmp(o, "--time")) {
			char *end;

			c.time_s = strtod(a, &end);
			if (*end || !(c.time_s > 0))
				return usage_err("bad --time '%s' (seconds)", a);
			time_set = 1;
		} else if (!strcmp(o, "--scheme")) {
			if (ftv_scheme_parse(a, &c.g.scheme))
				return usage_err("unknown scheme '%s' (callops, mcount, tramp; "
						 "riscv64: pair, atomic)", a);
			scheme_set = 1;
		} else if (!strcmp(o, "--arch")) {
			if (ftv_arch_parse(a, &arch))
				return usage_err("unknown arch '%s' (arm64, riscv64)", a);
			arch_set = 1;
		} else if (!strcmp(o, "--mutate")) {
			c.g.mutant = ftv_mutant_find(a);
			if (!c.g.mutant)
				return usage_err("unknown mutant '%s'", a);
		} else if (!strcmp(o, "--jobs")) {
			if (ftv_parse_u64(a, &v) || !v || v > FUZZ_MAX_JOBS)
				return usage_err("--jobs must be 1..64, not '%s'", a);
			c.jobs = (unsigned)v;
		} else if (!strcmp(o, "--shard")) {
			unsigned si, sn;
			char extra;

			if (sscanf(a, "%u/%u%c", &si, &sn, &extra) != 2 || !sn || si >= sn)
				return usage_err("--shard takes I/N with 0 <= I < N, not '%s'", a);
			c.shard = si;
			c.nshards = sn;
		} else if (!strcmp(o, "--replay")) {
			replay = a;
		} else if (!strcmp(o, "--out")) {
			snprintf(c.out, sizeof(c.out), "%s", a);
		} else if (!strcmp(o, "--shrink-budget")) {
			if (ftv_parse_u64(a, &v) || !v || v > 100000)
				return usage_err("bad --shrink-budget '%s'", a);
			c.shrink_budget = (unsigned)v;
		} else if (!ftv_paths_option(&c.paths, o, a)) {
			return ftv_usage("fuzz");
		}
	}
	if (iters_set && time_set)
		return usage_err("--time and --iterations exclude each other%s", "");
	/* the scheme implies the arch; an arch alone picks its default */
	if (arch_set && !scheme_set)
		c.g.scheme = ftv_arch_default_scheme(arch);
	if ((arch_set && ftv_scheme_check_arch(c.g.scheme, arch, &err)) ||
	    ftv_mutant_check(c.g.mutant, c.g.scheme, &err))
		return usage_err("%s", err.msg);
	if (time_set)
		c.iterations = 0;
	if (replay) {
		struct scn_result res;

		use_stderr();

		if (replay_report(replay, stdout, &res, &c.paths, c.trace, &err)) {
			fprintf(errout, "ftv fuzz: %s\n", err.msg);
			return FTV_EXIT_USAGE;
		}
		return res.violated ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
	}
	if (!have_objects) {
		snprintf(c.g.objects[0], sizeof(c.g.objects[0]), "rand1");
		snprintf(c.g.objects[1], sizeof(c.g.objects[1]), "rand2");
		c.g.nobjects = 2;
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
		return FTV_EXIT_USAGE;
	}
	/* --time and the rates count the campaign, not the probe */
	clock_gettime(CLOCK_MONOTONIC, &c.t0);
	fflush(stderr);
	use_stderr();
	if (!c.json) {
		printf("fuzz: seed %llu, scheme %s (%s), objects", (unsigned long long)c.seed,
		       ftv_scheme_name(c.g.scheme), ftv_arch_name(ftv_scheme_arch(c.g.scheme)));
		for (unsigned i = 0; i < c.g.nobjects; i++)
			printf(" %s", c.g.objects[i]);
		printf(" (%u traced functions), mutate %s, ", c.g.nfuncs,
		       c.g.mutant ? c.g.mutant->name : "none");
		if (c.iterations)
			printf("%llu iterations", (unsigned long long)c.iterations);
		else
			printf("%.0f s", c.time_s);
		printf(", shard %u/%u, %u job%s\n", c.shard, c.nshards, c.jobs,
		       c.jobs == 1 ? "" : "s");
		fflush(stdout);
	}
	if (run_jobs(&c))
		return FTV_EXIT_USAGE;
	summary(&c);
	if (c.found)
		return FTV_EXIT_VIOLATION;
	return c.error ? FTV_EXIT_USAGE : FTV_EXIT_OK;
}
FTV_COMMAND(fuzz, "random ftrace workloads until a violation, shrunk to a replay file",
	    "[--seed S] [--cpus N] [--time SECONDS | --iterations K] [--arch arm64|riscv64] "
	    "[--scheme callops|mcount|tramp|pair|atomic] [--objects NAME...] [--mutate NAME] "
	    "[--jobs J] [--shard I/N] [--json] [--out FILE] [--shrink-budget N] "
	    "[--build DIR] [--replay FILE] [--trace]", cmd_fuzz)
