/* The time guard of a free-running turn (exec_config.turn_timeout_us).
 *
 * It decides nothing a run reports: the instruction budget
 * (exec_config.turn_insns, counted per block in exec_engine.c) ends a CPU
 * gone astray at the same instruction on every run; the guard only ends
 * a turn that has not spent that budget in its time, and the run with it,
 * unjudged (exec_run_guarded; docs/determinism.md).
 *
 * The limit is on CPU time, so that a loaded machine (the turn's thread
 * waiting for a core) does not end a turn that would have reached its
 * scheduling point, and the limit can be short where a CPU gone astray
 * spins: a turn is stopped once it has run for the limit on the wall clock
 * and then used the limit again in CPU time of its thread
 * (pthread_getcpuclockid; read by the watchdog, never by the turn, which
 * costs nothing per turn). A turn stopped has used at least the limit in
 * CPU time and, on an idle core, at most twice the limit. Where the
 * thread's CPU clock cannot be read, the wall clock alone decides.
 *
 * Unicorn 2.0.1's own timeout (uc_emu_start's `timeout` argument) starts a
 * thread for every call and that thread polls every few microseconds until
 * the call ends: with thousands of short turns per world, creating, polling
 * and joining those threads cost more than the emulation itself. One
 * thread per executor does the same job here: it sleeps on a condition
 * variable until the armed turn's deadline and then stops that engine with
 * its stop function: the engine's calls uc_emu_stop(), which is what
 * Unicorn's own timer thread calls (it may be called from another thread;
 * on an engine that is not emulating it does nothing). Which turns time
 * out is timing dependent either way; a turn that reaches a scheduling
 * point in time runs exactly as before. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "executor/exec_watchdog.h"

struct xwatchdog {
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int quit;
	int idle;                /* waiting with no deadline */
	struct timespec waiting; /* else the deadline it waits for */
	void (*stop)(void *);    /* the armed turn's stop, or NULL */
	void *arg;
	struct timespec deadline;
	uint64_t budget_ns;      /* the armed turn's limit */
	uint64_t seq, mark_seq;  /* turns armed; the one cpu_mark is of */
	uint64_t cpu_mark;       /* its thread's CPU clock at its deadline */
	clockid_t cpu_clock;
	int has_cpu_clock;
	int fired;
};

static void add_ns(struct timespec *t, uint64_t ns)
{
	t->tv_sec += (time_t)(ns / 1000000000ULL);
	t->tv_nsec += (long)(ns % 1000000000ULL);
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

/* At a deadline of the armed turn: 1 to stop it, else 0 with the next
 * deadline set (now: the wall clock). */
static int spent(struct xwatchdog *w, const struct timespec *now)
{
	struct timespec c;
	uint64_t ns, left;

	if (!w->has_cpu_clock || clock_gettime(w->cpu_clock, &c))
		return 1;
	ns = (uint64_t)c.tv_sec * 1000000000ULL + (uint64_t)c.tv_nsec;
	if (w->mark_seq != w->seq) {
		/* the wall-clock limit reached: now the CPU time */
		w->mark_seq = w->seq;
		w->cpu_mark = ns;
		left = w->budget_ns;
	} else {
		if (ns - w->cpu_mark >= w->budget_ns)
			return 1;
		left = w->budget_ns - (ns - w->cpu_mark);
	}
	w->deadline = *now;
	/* (at least 1 ms: no busy polling) */
	add_ns(&w->deadline, left > 1000000 ? left : 1000000);
	return 0;
}

static int before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static void *watchdog_main(void *arg)
{
	struct xwatchdog *w = arg;

	pthread_mutex_lock(&w->mu);
	while (!w->quit) {
		struct timespec now, dl;

		if (!w->stop) {
			w->idle = 1;
			pthread_cond_wait(&w->cv, &w->mu);
			w->idle = 0;
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (!before(&now, &w->deadline) && spent(w, &now)) {
			w->fired = 1;
			w->stop(w->arg);
			w->stop = NULL;
			continue;
		}
		/* Turns armed meanwhile have later deadlines (the same
		 * timeout, a later start): waking at this one and looking
		 * again is enough, no signal needed per turn. */
		dl = w->waiting = w->deadline;
		pthread_cond_timedwait(&w->cv, &w->mu, &dl);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

static struct xwatchdog *watchdog_start(void)
{
	struct xwatchdog *w = calloc(1, sizeof(*w));
	pthread_condattr_t ca;

	if (!w)
		return NULL;
	if (pthread_condattr_init(&ca)) {
		free(w);
		return NULL;
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (pthread_cond_init(&w->cv, &ca)) {
		pthread_condattr_destroy(&ca);
		free(w);
		return NULL;
	}
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&w->mu, NULL);
	if (pthread_create(&w->th, NULL, watchdog_main, w)) {
		pthread_cond_destroy(&w->cv);
		pthread_mutex_destroy(&w->mu);
		free(w);
		return NULL;
	}
	return w;
}

int xw_arm(struct xwatchdog **wd, void (*stop)(void *arg), void *arg,
	   uint64_t timeout_us)
{
	struct xwatchdog *w;

	if (!*wd && !(*wd = watchdog_start()))
		return -1;
	w = *wd;
	pthread_mutex_lock(&w->mu);
	w->has_cpu_clock = !pthread_getcpuclockid(pthread_self(), &w->cpu_clock);
	w->budget_ns = timeout_us * 1000;
	w->seq++;
	clock_gettime(CLOCK_MONOTONIC, &w->deadline);
	add_ns(&w->deadline, w->budget_ns);
	w->stop = stop;
	w->arg = arg;
	w->fired = 0;
	if (w->idle || before(&w->deadline, &w->waiting))
		pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

int xw_disarm(struct xwatchdog *w)
{
	int fired;

	pthread_mutex_lock(&w->mu);
	w->stop = NULL;
	fired = w->fired;
	w->fired = 0;
	pthread_mutex_unlock(&w->mu);
	return fired;
}

void xw_free(struct xwatchdog **wd)
{
	struct xwatchdog *w = *wd;

	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	w->quit = 1;
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	pthread_join(w->th, NULL);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
	*wd = NULL;
}
