/* The fuzz campaign engine (verify/fuzz_campaign.h): workers, their
 * messages, the replay files, signals. */
#include "verify/fuzz_campaign.h"

#include "executor/exec.h"
#include "util/outfile.h"
#include "verify/scenario.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- signals ------------------------------------------------------------ */

/* The request (its signal), when it came, and whether a later one kills
 * (the campaign process) or not (a worker). */
static volatile sig_atomic_t requested;
static volatile sig_atomic_t dies_on_second;
static struct timespec requested_at;

static void on_signal(int sig)
{
	struct timespec now;
	long ns;

	/* clock_gettime, signal and raise are async-signal-safe (POSIX
	 * signal-safety(7)) */
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!requested) {
		requested_at = now;
		requested = sig;
		return;
	}
	ns = (long)(now.tv_sec - requested_at.tv_sec) * 1000000000L +
	     (now.tv_nsec - requested_at.tv_nsec);
	if (ns < FUZZ_SIGNAL_SAME_NS || !dies_on_second)
		return; /* the same request, delivered twice */
	signal(sig, SIG_DFL);
	raise(sig);
}

void fuzz_campaign_catch_signals(int campaign)
{
	struct sigaction sa;

	dies_on_second = campaign;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	/* no SA_RESTART: the campaign's read() returns EINTR to forward it */
	sa.sa_flags = 0;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int fuzz_campaign_signal(void)
{
	return requested;
}

/* ---- time --------------------------------------------------------------- */

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

double fuzz_campaign_elapsed(const struct fuzz_campaign *c)
{
	return since(&c->t0);
}

/* --time is up (never with --iterations). */
static int out_of_time(const struct fuzz_campaign *c)
{
	return !c->iterations && since(&c->start) >= c->time_s;
}

/* ---- workers ------------------------------------------------------------ */

static void handle(struct fuzz_campaign *c, const struct fuzz_msg *m);

static void send(struct fuzz_campaign *c, struct fuzz_msg *m)
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

/* A finding being shrunk: what its replay file says. */
struct wfind {
	struct fuzz_campaign *c;
	struct scenario *s;
	struct fuzz_msg *m;
	uint64_t i, iseed;
	unsigned sent; /* smaller cases sent so far */
};

/* The case s is now as a replay file's text, in pieces that fit a
 * message, then the finding (final: the shrink is over). */
static void send_case(struct wfind *f, unsigned tried, const char *cut, int final)
{
	struct fuzz_msg *m = f->m, t;
	char header[4096], *text = NULL;
	size_t len = 0;
	FILE *mem;

	m->ops_after = f->s->nops;
	m->cpus_after = f->s->cfg.exec.ncpus;
	m->rounds_after = f->s->cfg.rounds;
	m->final = final;
	snprintf(header, sizeof(header),
		 "ftv fuzz replay file: a scenario (ftv fuzz --replay FILE, ftv scenario FILE)\n"
		 "found by: %s\n"
		 "fuzz seed %llu, iteration %llu, iteration seed 0x%016llx\n"
		 "violation %s; %s from %u operations, %u CPUs, %u rounds in %u runs%s",
		 f->c->cmdline, (unsigned long long)f->c->seed, (unsigned long long)f->i,
		 (unsigned long long)f->iseed, m->kind,
		 final ? "shrunk" : "being shrunk (not finished)", m->ops_before,
		 m->cpus_before, m->rounds_before, tried, cut);
	mem = open_memstream(&text, &len);
	if (!mem) {
		if (!final)
			return;
		m->type = FUZZ_M_ERROR;
		snprintf(m->text, sizeof(m->text), "iteration %llu: out of memory for its replay",
			 (unsigned long long)f->i);
		send(f->c, m);
		return;
	}
	scenario_write(mem, f->s, header);
	fclose(mem);
	len = strlen(text);
	for (size_t off = 0; off < len;) {
		size_t n = len - off < sizeof(t.text) ? len - off : sizeof(t.text);

		memset(&t, 0, sizeof(t));
		t.type = FUZZ_M_TEXT;
		t.worker = m->worker;
		t.len = (unsigned)n;
		memcpy(t.text, text + off, n);
		send(f->c, &t);
		off += n;
	}
	m->type = FUZZ_M_FOUND;
	send(f->c, m);
	free(text);
}

/* After each candidate: its progress, and each smaller case still
 * failing replaces the file. */
static void shrink_progress(void *ctx, const struct fuzz_shrink *sh)
{
	struct wfind *f = ctx;
	struct fuzz_msg m;

	memset(&m, 0, sizeof(m));
	m.type = FUZZ_M_SHRINK;
	m.worker = f->m->worker;
	m.tried = sh->tried;
	m.accepted = sh->accepted;
	send(f->c, &m);
	if (sh->accepted > f->sent) {
		f->sent = sh->accepted;
		send_case(f, sh->tried, "", 0);
	}
}

/* The shrink ends with the command's time or at a signal. */
static int shrink_stop(void *ctx)
{
	struct wfind *f = ctx;

	return requested || out_of_time(f->c);
}

/* Writes the failing scenario at once, shrinks it, replacing the file
 * with each smaller case, and sends the shrunk one. */
static void found(struct fuzz_campaign *c, struct scenario *s, uint64_t i, uint64_t iseed,
		  const struct scn_result *res, struct fuzz_msg *m)
{
	struct wfind f = { .c = c, .s = s, .m = m, .i = i, .iseed = iseed };
	struct fuzz_shrink sh = { .corpus_dir = c->corpus_dir, .tramp_dir = c->tramp_dir,
				  .budget = c->shrink_budget, .progress = shrink_progress,
				  .stop = shrink_stop, .ctx = &f };
	struct ftv_err err;
	char kind[24], cut[64] = "";

	fuzz_pick_kind(res->kinds, kind, sizeof(kind));
	snprintf(m->kind, sizeof(m->kind), "%s", kind);
	m->ops_before = s->nops;
	m->cpus_before = s->cfg.exec.ncpus;
	m->rounds_before = s->cfg.rounds;
	s->expect_ok = 0;
	s->nexpect = 1;
	snprintf(s->expect[0], sizeof(s->expect[0]), "%s", kind);
	/* on disk before the first shrink run: a kill loses nothing */
	send_case(&f, 0, "", 0);
	/* fails only out of memory, before any run: the case stays whole */
	if (fuzz_shrink(s, kind, &sh, &err))
		sh.tried = sh.accepted = 0;
	if (sh.end == FUZZ_SHRINK_STOPPED) {
		m->cut = requested ? FUZZ_CUT_SIGNAL : FUZZ_CUT_TIME;
		snprintf(cut, sizeof(cut), " (cut short by %s)",
			 requested ? (requested == SIGTERM ? "SIGTERM" : "SIGINT") : "--time");
	}
	m->tried = sh.tried;
	m->accepted = sh.accepted;
	send_case(&f, sh.tried, cut, 1);
}

static void worker(struct fuzz_campaign *c, unsigned w)
{
	struct scenario *s = malloc(sizeof(*s));
	struct fuzz_msg m;

	if (!s) {
		memset(&m, 0, sizeof(m));
		m.type = FUZZ_M_ERROR;
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
		if (requested)
			break;
		fuzz_generate(&c->g, iseed, s);
		s->no_trace_hash = 1;
		r = fuzz_fails(s, NULL, c->corpus_dir, c->tramp_dir, &res, &err);
		memset(&m, 0, sizeof(m));
		m.worker = w;
		m.iter = i;
		m.iter_seed = iseed;
		if (r < 0) {
			m.type = FUZZ_M_ERROR;
			snprintf(m.text, sizeof(m.text), "iteration %llu (seed 0x%016llx): %s",
				 (unsigned long long)i, (unsigned long long)iseed, err.msg);
			send(c, &m);
			break;
		}
		m.type = FUZZ_M_ITER;
		m.violated = r;
		m.transitions = res.stats.transitions;
		m.steps = res.stats.steps;
		m.plans = res.stats.plans;
		m.nviolations = res.nviolations;
		snprintf(m.kinds, sizeof(m.kinds), "%s", r ? res.kinds : res.budget);
		m.budget = !r && res.budget_out;
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

/* ---- the campaign's side ------------------------------------------------ */

/* Whether the cases of a shrink still running are written: --out names a
 * file (or nothing yet), not a device or a FIFO that would get them all. */
static int out_is_file(const struct fuzz_campaign *c)
{
	struct stat st;

	return stat(c->out, &st) || S_ISREG(st.st_mode);
}

/* Worker w's case into its file: created at the first (a file already at
 * --out is kept: a suffixed name, said on errout), replaced after. When
 * the final case cannot be written, its text goes to errout: a finding
 * is never lost. Returns the file, or NULL. */
static const char *write_case(struct fuzz_campaign *c, unsigned w, const char *text, int final)
{
	char *used = c->written[w];
	struct ftv_err err;
	FILE *f;

	if (!final && !out_is_file(c))
		return NULL;
	if (used[0]) {
		if (!outfile_replace(used, text, &err))
			return used;
	} else if ((f = outfile_create(c->out, used, sizeof(c->written[w]), &err))) {
		fputs(text, f);
		if (!outfile_close(f, used, &err)) {
			if (strcmp(used, c->out))
				fprintf(c->errout, "ftv fuzz: %s exists, kept; the replay file is %s\n",
					c->out, used);
			return used;
		}
		used[0] = 0;
	}
	if (!final)
		return NULL;
	fflush(stdout);
	fprintf(c->errout, "ftv fuzz: cannot write the replay file: %s; here it is:\n%s", err.msg,
		text);
	return NULL;
}

/* A worker's case, its replay text complete: written; the final one of
 * each worker is reported, the first ending the campaign. */
static void finding(struct fuzz_campaign *c, const struct fuzz_msg *m)
{
	unsigned w = m->worker;
	char *text = c->text[w];
	const char *path;

	c->text[w] = NULL;
	c->text_len[w] = 0;
	if (!text) {
		fprintf(c->errout, "ftv fuzz: worker %u: a finding without its replay text\n", w);
		c->error = 1;
		return;
	}
	path = write_case(c, w, text, m->final);
	if (m->final) {
		c->report(c->ctx, c, m, text, path, !c->found);
		c->found = 1;
	}
	free(text);
}

static int append_text(struct fuzz_campaign *c, const struct fuzz_msg *m)
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

static void handle(struct fuzz_campaign *c, const struct fuzz_msg *m)
{
	switch (m->type) {
	case FUZZ_M_ITER:
		c->done++;
		c->transitions += m->transitions;
		c->steps += m->steps;
		c->violations += m->violated;
		c->budget += m->budget;
		break;
	case FUZZ_M_TEXT:
		if (append_text(c, m)) {
			fprintf(c->errout, "ftv fuzz: out of memory for a replay text\n");
			c->error = 1;
		}
		return;
	case FUZZ_M_FOUND:
		finding(c, m);
		return;
	case FUZZ_M_ERROR:
		c->error = 1;
		break;
	}
	c->report(c->ctx, c, m, NULL, NULL, 0);
}

/* The campaign ends: a worker shrinking a finding is asked to stop like
 * at a signal (it sends the smallest case so far), the others end now
 * (what they were running no longer counts). */
static void stop_workers(struct fuzz_campaign *c)
{
	if (c->stopped)
		return;
	c->stopped = 1;
	for (unsigned w = 0; w < c->jobs; w++)
		if (c->pids[w] > 0)
			kill(c->pids[w], c->shrinking[w] ? SIGINT : SIGKILL);
}

/* Reads the workers' messages until every one has ended. */
static void collect(struct fuzz_campaign *c, int fd)
{
	for (;;) {
		struct fuzz_msg m;
		size_t off = 0;

		while (off < sizeof(m)) {
			ssize_t n = read(fd, (char *)&m + off, sizeof(m) - off);

			if (n < 0 && errno == EINTR) {
				/* a signal sent to this process alone (a
				 * terminal's reaches the workers too; twice is
				 * the same request) */
				if (requested && !c->forwarded) {
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
		if (m.worker >= c->jobs)
			continue;
		if (m.type == FUZZ_M_ITER && m.violated)
			c->shrinking[m.worker] = 1;
		if (m.type == FUZZ_M_FOUND && m.final)
			c->shrinking[m.worker] = 0;
		/* after the stop, what the others sent before it: iterations
		 * no longer count, findings and errors still do */
		if ((c->found || c->error) && (m.type == FUZZ_M_ITER || m.type == FUZZ_M_SHRINK))
			continue;
		if (m.type == FUZZ_M_FOUND && m.final)
			stop_workers(c); /* the first finding ends the campaign */
		handle(c, &m);
		if (c->found || c->error)
			stop_workers(c);
	}
}

int fuzz_campaign_run(struct fuzz_campaign *c)
{
	int fds[2];

	clock_gettime(CLOCK_MONOTONIC, &c->t0);
	c->fd = -1;
	if (c->jobs <= 1) {
		c->jobs = 1;
		worker(c, 0);
		return 0;
	}
	if (pipe(fds)) {
		fprintf(c->errout, "ftv fuzz: pipe: %s\n", strerror(errno));
		c->error = 1;
		return -1;
	}
	fflush(stdout);
	fflush(c->errout);
	for (unsigned w = 0; w < c->jobs; w++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(c->errout, "ftv fuzz: fork: %s\n", strerror(errno));
			c->error = 1;
			break;
		}
		if (!pid) {
			fuzz_campaign_catch_signals(0);
			close(fds[0]);
			c->fd = fds[1];
			worker(c, w);
			_exit(0);
		}
		c->pids[w] = pid;
	}
	close(fds[1]);
	collect(c, fds[0]);
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
		 * finding die of our SIGKILL) */
		if (!c->found && !c->error && !(WIFEXITED(st) && !WEXITSTATUS(st))) {
			fprintf(c->errout, "ftv fuzz: worker %u died (%s %d)\n", w,
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			c->error = 1;
		}
	}
	return 0;
}

void fuzz_campaign_free(struct fuzz_campaign *c)
{
	for (unsigned w = 0; w < FUZZ_MAX_JOBS; w++) {
		free(c->text[w]);
		c->text[w] = NULL;
	}
}
