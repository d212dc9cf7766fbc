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
	unsigned pct_depth;
	uint64_t pct_length;
	struct ftv_rng rng_sched, rng_fetch;
	int *oom;

	unsigned rr_next;        /* EXEC_QUANTUM's cursor */
	unsigned *prio;          /* EXEC_PCT: priorities per agent */
	uint64_t *pct_change;    /* EXEC_PCT: change points (steps) */
	struct xchoice *dfs;     /* EXEC_EXHAUSTIVE: the current path */
	size_t dfs_len, dfs_depth, dfs_cap;
};

void xs_init(struct xsched *s, const struct exec_config *cfg, int *oom);
void xs_free(struct xsched *s);
/* Before each run. */
void xs_start_run(struct xsched *s);
/* The index in ready[0..n-1] of the agent that takes step `step`. */
int xs_pick(struct xsched *s, const unsigned *ready, unsigned n,
	    uint64_t step);
/* One of n values (0 .. n-1). */
unsigned xs_choose(struct xsched *s, enum xchoice_kind kind, unsigned n);
/* Exhaustive exploration: xs_explore_start before the first run, then after
 * each run xs_dfs_next: 0, another run to do; 1, every path was taken. */
void xs_explore_start(struct xsched *s);
int xs_dfs_next(struct xsched *s);

#endif
