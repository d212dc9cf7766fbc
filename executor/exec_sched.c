/* The scheduling policies (exec_sched.h). Random choices come from two
 * seeded streams, one for the agents and one for the values; the exhaustive
 * policy is stateless model checking: each run replays a prefix of choices
 * and takes the next untried branch. */
#include "executor/exec_sched.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static const char *const policy_names[] = { "random", "quantum", "pct",
					    "exhaustive" };

int exec_policy_parse(const char *s, enum exec_policy *out)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(s, policy_names[i])) {
			*out = (enum exec_policy)i;
			return 0;
		}
	return -1;
}

const char *exec_policy_name(enum exec_policy p)
{
	return (unsigned)p < 4 ? policy_names[p] : "?";
}

void xs_init(struct xsched *s, const struct exec_config *cfg, int *oom)
{
	struct ftv_rng root;

	s->policy = cfg->policy;
	/* CPUs, the patcher, its store buffer, and each CPU's */
	s->nagents = cfg->ncpus * (cfg->cpu_sbuf ? 2 : 1) + 2;
	s->pct_depth = cfg->pct_depth;
	s->pct_length = cfg->pct_length;
	s->oom = oom;
	ftv_rng_seed(&root, cfg->seed);
	ftv_rng_fork(&root, &s->rng_sched, 1);
	ftv_rng_fork(&root, &s->rng_fetch, 2);
}

void xs_free(struct xsched *s)
{
	free(s->prio);
	free(s->pct_change);
	free(s->dfs);
}

static unsigned dfs_choose(struct xsched *s, enum xchoice_kind kind,
			   unsigned n)
{
	unsigned c;

	if (s->dfs_depth < s->dfs_len) {
		c = s->dfs[s->dfs_depth].c;
		/* The same prefix gives the same state, hence the same n;
		 * guard anyway so a mismatch cannot index out of range. */
		if (c >= n)
			c = n - 1;
		s->dfs[s->dfs_depth].n = n;
		s->dfs[s->dfs_depth++].kind = kind;
		return c;
	}
	if (VEC_RESERVE(s->dfs, s->dfs_cap, s->dfs_len + 1)) {
		*s->oom = 1;
		return 0;
	}
	s->dfs[s->dfs_len++] = (struct xchoice){ 0, n, kind };
	s->dfs_depth = s->dfs_len;
	return 0;
}

void xs_explore_start(struct xsched *s)
{
	s->dfs_len = 0;
}

int xs_dfs_next(struct xsched *s)
{
	/* Drop the choices beyond what this run used, then backtrack. */
	if (s->dfs_len > s->dfs_depth)
		s->dfs_len = s->dfs_depth;
	while (s->dfs_len && s->dfs[s->dfs_len - 1].c + 1 >=
				     s->dfs[s->dfs_len - 1].n)
		s->dfs_len--;
	if (!s->dfs_len)
		return 1;
	s->dfs[s->dfs_len - 1].c++;
	return 0;
}

unsigned xs_choose(struct xsched *s, enum xchoice_kind kind, unsigned n)
{
	if (n <= 1)
		return 0;
	if (s->policy == EXEC_EXHAUSTIVE)
		return dfs_choose(s, kind, n);
	return (unsigned)ftv_rng_below(&s->rng_fetch, n);
}

void xs_start_run(struct xsched *s)
{
	unsigned na = s->nagents, d = s->pct_depth;
	uint64_t len = s->pct_length ? s->pct_length : 1000;

	s->dfs_depth = 0;
	if (s->policy != EXEC_PCT || s->prio)
		return;
	/* PCT (Burckhardt et al., ASPLOS 2010): distinct random initial
	 * priorities d+1 .. d+na, and d change points uniformly in the first
	 * pct_length steps (PCT finds a bug of depth d+1 with probability at
	 * least 1/(na * k^d)); at the i-th one the agent about to run drops
	 * to priority i. */
	s->prio = calloc(na, sizeof(*s->prio));
	s->pct_change = calloc(d ? d : 1, sizeof(*s->pct_change));
	if (!s->prio || !s->pct_change) {
		*s->oom = 1;
		return;
	}
	for (unsigned i = 0; i < na; i++)
		s->prio[i] = d + 1 + i;
	for (unsigned i = na - 1; i > 0; i--) {
		unsigned j = (unsigned)ftv_rng_below(&s->rng_sched, i + 1);
		unsigned t = s->prio[i];

		s->prio[i] = s->prio[j];
		s->prio[j] = t;
	}
	for (unsigned i = 0; i < d; i++)
		s->pct_change[i] = ftv_rng_below(&s->rng_sched, len);
}

int xs_pick(struct xsched *s, const unsigned *ready, unsigned n,
	    uint64_t step)
{
	unsigned na = s->nagents, best = 0;

	if (n == 1 && s->policy != EXEC_QUANTUM)
		return 0;
	switch (s->policy) {
	case EXEC_RANDOM:
		return (int)ftv_rng_below(&s->rng_sched, n);
	case EXEC_EXHAUSTIVE:
		return (int)dfs_choose(s, XCH_AGENT, n);
	case EXEC_QUANTUM:
		/* Round robin: the first ready agent at or after the cursor
		 * (the second patcher in the first one's place). */
		for (unsigned k = 0; k < na; k++) {
			unsigned a = (s->rr_next + k) % na;

			for (unsigned i = 0; i < n; i++)
				if ((ready[i] >= na ? na - 2 : ready[i]) == a) {
					s->rr_next = (a + 1) % na;
					return (int)i;
				}
		}
		return 0;
	case EXEC_PCT:
		if (!s->prio)
			return 0;
#define PRIO(r) (s->prio[(r) >= na ? na - 2 : (r)])
		for (unsigned i = 1; i < n; i++)
			if (PRIO(ready[i]) > PRIO(ready[best]))
				best = i;
		for (unsigned i = 0; i < s->pct_depth; i++)
			if (s->pct_change[i] == step) {
				/* Demote the agent that would run, then pick
				 * again among the ready ones. */
				PRIO(ready[best]) = i + 1;
				best = 0;
				for (unsigned j = 1; j < n; j++)
					if (PRIO(ready[j]) > PRIO(ready[best]))
						best = j;
			}
#undef PRIO
		return (int)best;
	}
	return 0;
}
