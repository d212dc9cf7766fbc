/* The scheduling policies. Every choice (which agent runs, which value a
 * fetch sees, which buffered store drains) goes through here, drawn from the
 * seeded streams or, for the exhaustive policy, from a depth-first walk of
 * the tree of choices (stateless model checking: each run replays a prefix
 * and takes the next untried branch). */
#include "executor/exec_int.h"

#include <stdlib.h>

static unsigned dfs_choose(struct ftv_exec *ex, unsigned n)
{
	unsigned c;

	if (ex->dfs_depth < ex->dfs_len) {
		c = ex->dfs[ex->dfs_depth].c;
		/* The same prefix gives the same state, hence the same n;
		 * guard anyway so a mismatch cannot index out of range. */
		if (c >= n)
			c = n - 1;
		ex->dfs[ex->dfs_depth++].n = n;
		return c;
	}
	ex->dfs = xc_grow(ex->dfs, &ex->dfs_cap, ex->dfs_len + 1,
			  sizeof(*ex->dfs), &ex->oom);
	if (ex->oom)
		return 0;
	ex->dfs[ex->dfs_len++] = (struct xchoice){ 0, n };
	ex->dfs_depth = ex->dfs_len;
	return 0;
}

int xs_dfs_next(struct ftv_exec *ex)
{
	/* Drop the choices beyond what this run used, then backtrack. */
	if (ex->dfs_len > ex->dfs_depth)
		ex->dfs_len = ex->dfs_depth;
	while (ex->dfs_len && ex->dfs[ex->dfs_len - 1].c + 1 >=
				      ex->dfs[ex->dfs_len - 1].n)
		ex->dfs_len--;
	if (!ex->dfs_len)
		return 1;
	ex->dfs[ex->dfs_len - 1].c++;
	return 0;
}

unsigned xs_choose(struct ftv_exec *ex, unsigned n)
{
	if (n <= 1)
		return 0;
	if (ex->cfg.policy == EXEC_EXHAUSTIVE)
		return dfs_choose(ex, n);
	return (unsigned)ftv_rng_below(&ex->rng_fetch, n);
}

void xs_start_run(struct ftv_exec *ex)
{
	unsigned na = ex->cfg.ncpus + 2, d = ex->cfg.pct_depth;
	uint64_t len = ex->cfg.pct_length ? ex->cfg.pct_length : 1000;

	ex->dfs_depth = 0;
	if (ex->cfg.policy != EXEC_PCT || ex->prio)
		return;
	/* PCT (Burckhardt et al., ASPLOS 2010): distinct random initial
	 * priorities d+1 .. d+na, and d change points uniformly in the first
	 * pct_length steps (PCT finds a bug of depth d+1 with probability at
	 * least 1/(na * k^d)); at the i-th one the agent about to run drops
	 * to priority i. */
	ex->prio = calloc(na, sizeof(*ex->prio));
	ex->pct_change = calloc(d ? d : 1, sizeof(*ex->pct_change));
	if (!ex->prio || !ex->pct_change) {
		ex->oom = 1;
		return;
	}
	for (unsigned i = 0; i < na; i++)
		ex->prio[i] = d + 1 + i;
	for (unsigned i = na - 1; i > 0; i--) {
		unsigned j = (unsigned)ftv_rng_below(&ex->rng_sched, i + 1);
		unsigned t = ex->prio[i];

		ex->prio[i] = ex->prio[j];
		ex->prio[j] = t;
	}
	for (unsigned i = 0; i < d; i++)
		ex->pct_change[i] = ftv_rng_below(&ex->rng_sched, len);
}

int xs_pick(struct ftv_exec *ex, const unsigned *ready, unsigned n)
{
	unsigned na = ex->cfg.ncpus + 2, best = 0;

	if (n == 1 && ex->cfg.policy != EXEC_QUANTUM)
		return 0;
	switch (ex->cfg.policy) {
	case EXEC_RANDOM:
		return (int)ftv_rng_below(&ex->rng_sched, n);
	case EXEC_EXHAUSTIVE:
		return (int)dfs_choose(ex, n);
	case EXEC_QUANTUM:
		/* Round robin: the first ready agent at or after the cursor. */
		for (unsigned k = 0; k < na; k++) {
			unsigned a = (ex->rr_next + k) % na;

			for (unsigned i = 0; i < n; i++)
				if (ready[i] == a) {
					ex->rr_next = (a + 1) % na;
					return (int)i;
				}
		}
		return 0;
	case EXEC_PCT:
		if (!ex->prio)
			return 0;
		for (unsigned i = 1; i < n; i++)
			if (ex->prio[ready[i]] > ex->prio[ready[best]])
				best = i;
		for (unsigned i = 0; i < ex->cfg.pct_depth; i++)
			if (ex->pct_change[i] == ex->step) {
				/* Demote the agent that would run, then pick
				 * again among the ready ones. */
				ex->prio[ready[best]] = i + 1;
				best = 0;
				for (unsigned j = 1; j < n; j++)
					if (ex->prio[ready[j]] >
					    ex->prio[ready[best]])
						best = j;
			}
		return (int)best;
	}
	return 0;
}
