/* The scheduler: every choice of a run goes through here. Which agent takes
 * the next step (xs_pick), which write a fetch sees and which buffered store
 * drains next (xs_choose) are drawn from the seeded streams or, under
 * EXEC_EXHAUSTIVE, from a depth-first walk of the tree of choices.
 *
 * Agents are numbered 0 .. ncpus-1 for the CPUs, XS_PATCHER (ncpus),
 * XS_SBUF (ncpus + 1) and XS_PATCHER_TEXT (ncpus + 2), the second patcher,
 * which round robin and PCT treat as XS_PATCHER (the first of the two
 * ready runs). Each choice says its kind, so that an exploration can tell a
 * scheduling choice from a value choice. */
#ifndef FTV_EXECUTOR_EXEC_SCHED_H
#define FTV_EXECUTOR_EXEC_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"
#include "executor/exec_dpor.h"
#include "util/rng.h"

#define XS_PATCHER(ncpus) (ncpus)
#define XS_SBUF(ncpus) ((ncpus) + 1)
#define XS_PATCHER_TEXT(ncpus) ((ncpus) + 2)
#define XS_CPU_SBUF(ncpus, cpu) ((ncpus) + 3 + (cpu))

enum xchoice_kind {
	XCH_AGENT, /* which ready agent takes the step */
	XCH_FETCH, /* which write a fetch of a watched word sees */
	XCH_DRAIN, /* which buffered store becomes visible */
};

/* One node of the exhaustive walk: choice c of n. */
struct xchoice {
	unsigned c, n;
	enum xchoice_kind kind;
};

struct xsched {
	enum exec_policy policy;
	unsigned nagents;        /* ncpus + 2 */
	unsigned ncpus;
	unsigned pct_depth;
	uint64_t pct_length;
	struct ftv_rng rng_sched, rng_fetch;
	/* exec_config.drain_hold and its stream */
	unsigned drain_hold;
	struct ftv_rng rng_hold;
	/* exec_config.cpu_hold and its stream */
	unsigned cpu_hold;
	struct ftv_rng rng_cpu_hold;
	/* exec_config.window_hold and its stream */
	unsigned window_hold;
	struct ftv_rng rng_window;
	int *oom;

	unsigned rr_next;        /* EXEC_QUANTUM's cursor */
	unsigned *prio;          /* EXEC_PCT: priorities per agent */
	uint64_t *pct_change;    /* EXEC_PCT: change points (steps) */
	struct xchoice *dfs;     /* EXEC_EXHAUSTIVE: the current path */
	size_t dfs_len, dfs_depth, dfs_cap;
	/* exec_verify: the reduced walk, which also records what each step
	 * touches (xs_access); NULL otherwise */
	struct xdpor *dpor;
	/* exec_set_schedule: the next run takes these choices, then the
	 * first ready agent and value 0 */
	struct exec_choice *force;
	size_t nforce, force_pos;
	int force_step;          /* a step of the schedule is under way */
	/* exec_verify: the store buffer's drainable stores by channel
	 * (xs_set_drains; agent ncpus + 1 + channel to the reduction), and
	 * the candidate the pick chose (-1: none) */
	uint64_t drain_chans;
	unsigned drain_cand[64]; /* by channel: its place among them */
	int drain_pick;
	uint64_t force_diverged; /* scheduled agents that were not ready */
	size_t force_diverged_at;
	/* exec_config.verify: what steps touch is tracked (xs_access), in
	 * the walk and in its replays alike; vis: the step under way has
	 * touched a location some CPU observes (xloc_visible) */
	int verify;
	int vis;
	int drain_now;           /* the next drain is this candidate (-1) */
};

void xs_init(struct xsched *s, const struct exec_config *cfg, int *oom);
/* How many steps a store the patcher buffers now is held back
 * (exec_config.drain_hold): 0 for most, and always 0 when the run's
 * choices are not the seeded streams' (exhaustive, verify, a schedule). */
uint64_t xs_hold(struct xsched *s);
/* How many steps a CPU whose turn just ended is held back
 * (exec_config.cpu_hold): 0 for most, and always 0 as xs_hold. */
uint64_t xs_cpu_hold(struct xsched *s);
/* The same for a CPU whose turn ended in a window
 * (exec_config.window_hold). */
uint64_t xs_window_hold(struct xsched *s);
void xs_free(struct xsched *s);
/* Before each run. */
void xs_start_run(struct xsched *s);
/* The index in ready[0..n-1] of the agent that takes step `step`, or -1:
 * the run stops here (exec_verify cuts a run that would only repeat
 * another). */
int xs_pick(struct xsched *s, const unsigned *ready, unsigned n,
	    uint64_t step);
/* The agents of exec_verify's walk (exec_dpor.h): the CPUs, the ftrace
 * patcher (XS_PATCHER), the text patcher, then the store buffer's
 * channels. */
#define XD_TEXT(ncpus) ((ncpus) + 1)
#define XD_CHAN0(ncpus) ((ncpus) + 2)

/* exec_verify: before xs_pick, the channels of the store buffer's n
 * drainable stores (xb_candidates). */
void xs_set_drains(struct xsched *s, const int *chan, unsigned n);
/* Which of the store buffer's n drainable stores drains (their channels
 * in chan, xb_candidates), under exec_config.verify: a schedule's step
 * names the channel, the reduced walk picked one. */
unsigned xs_choose_drain(struct xsched *s, const int *chan, unsigned n);
/* One of n values (0 .. n-1). */
unsigned xs_choose(struct xsched *s, enum xchoice_kind kind, unsigned n);
/* Exhaustive exploration: xs_explore_start before the first run, then after
 * each run xs_dfs_next: 0, another run to do; 1, every path was taken. */
void xs_explore_start(struct xsched *s);
/* The exhaustive walk's next choice makes a new node of the tree (the
 * run has left the prefix it replays). */
static inline int xs_new_node(const struct xsched *s)
{
	return s->policy == EXEC_EXHAUSTIVE && !s->dpor && !s->force &&
	       s->dfs_depth >= s->dfs_len;
}
int xs_dfs_next(struct xsched *s);

/* The current step reads (XA_R) or writes (XA_W) loc (XLOC(kind, id),
 * exec_dpor.h): recorded for the reduction of exec_verify, nothing
 * otherwise. */
static inline void xs_access(struct xsched *s, uint32_t loc, unsigned mode)
{
	if (s->verify && xloc_visible(loc))
		s->vis = 1;
	if (s->dpor)
		xd_access(s->dpor, loc, mode);
}
static inline int xs_recording(const struct xsched *s)
{
	return s->dpor != NULL || s->verify;
}

#endif
