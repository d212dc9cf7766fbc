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
	s->ncpus = cfg->ncpus;
	s->pct_depth = cfg->pct_depth;
	s->pct_length = cfg->pct_length;
	s->oom = oom;
	s->verify = cfg->verify;
	s->drain_now = -1;
	ftv_rng_seed(&root, cfg->seed);
	ftv_rng_fork(&root, &s->rng_sched, 1);
	ftv_rng_fork(&root, &s->rng_fetch, 2);
	s->drain_hold = cfg->drain_hold;
	ftv_rng_fork(&root, &s->rng_hold, 3);
	s->cpu_hold = cfg->cpu_hold;
	ftv_rng_fork(&root, &s->rng_cpu_hold, 4);
	s->window_hold = cfg->window_hold;
	ftv_rng_fork(&root, &s->rng_window, 5);
}

/* A hold of 1 .. max steps with probability 1/den from rng, when the
 * run's choices are the seeded streams'. */
static uint64_t hold(struct xsched *s, unsigned max, struct ftv_rng *rng, unsigned den)
{
	if (!max || s->policy == EXEC_EXHAUSTIVE || s->dpor || s->force || s->verify ||
	    !ftv_rng_chance(rng, 1, den))
		return 0;
	return 1 + ftv_rng_below(rng, max);
}

uint64_t xs_hold(struct xsched *s)
{
	return hold(s, s->drain_hold, &s->rng_hold, 2);
}

uint64_t xs_cpu_hold(struct xsched *s)
{
	return hold(s, s->cpu_hold, &s->rng_cpu_hold, 4);
}

uint64_t xs_window_hold(struct xsched *s)
{
	return hold(s, s->window_hold, &s->rng_window, 2);
}

void xs_free(struct xsched *s)
{
	free(s->prio);
	free(s->pct_change);
	free(s->dfs);
	free(s->force);
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
	if (s->force_step) {
		/* the value of the scheduled step, if it has one */
		unsigned v = s->force[s->force_pos - 1].value;

		return v < n ? v : n - 1;
	}
	if (s->dpor)
		return xd_choose(s->dpor, n);
	if (s->policy == EXEC_EXHAUSTIVE)
		return dfs_choose(s, kind, n);
	return (unsigned)ftv_rng_below(&s->rng_fetch, n);
}

unsigned xs_choose_drain(struct xsched *s, const int *chan, unsigned n)
{
	if (s->drain_now >= 0) {
		/* a drain nobody observes, made at once (exec_run) */
		unsigned k = (unsigned)s->drain_now;

		s->drain_now = -1;
		return k < n ? k : 0;
	}
	if (s->force_step) {
		unsigned want = s->force[s->force_pos - 1].value;

		for (unsigned i = 0; i < n; i++)
			if (chan[i] >= 0 && (unsigned)chan[i] == want)
				return i;
		/* that address has nothing to drain now */
		if (!s->force_diverged++)
			s->force_diverged_at = s->force_pos - 1;
		return 0;
	}
	if (s->dpor && s->drain_pick >= 0)
		return (unsigned)s->drain_pick < n ? (unsigned)s->drain_pick : 0;
	return xs_choose(s, XCH_DRAIN, n);
}

void xs_set_drains(struct xsched *s, const int *chan, unsigned n)
{
	s->drain_chans = 0;
	for (unsigned i = 0; i < n; i++) {
		/* (channels beyond the agents the walk has: unsound, and
		 * counted as such) */
		if (chan[i] < 0 || XD_CHAN0(s->ncpus) + (unsigned)chan[i] >= XD_MAX_AGENTS) {
			xd_unsound(s->dpor);
			continue;
		}
		s->drain_chans |= 1ULL << chan[i];
		s->drain_cand[chan[i]] = i;
	}
}

void xs_start_run(struct xsched *s)
{
	unsigned na = s->nagents, d = s->pct_depth;
	uint64_t len = s->pct_length ? s->pct_length : 1000;

	s->dfs_depth = 0;
	s->force_pos = 0;
	s->force_step = 0;
	if (s->dpor)
		xd_start_run(s->dpor);
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

	s->force_step = 0;
	if (s->force && s->force_pos < s->nforce) {
		/* A schedule being replayed: its agent, if it is ready. */
		const struct exec_choice *c = &s->force[s->force_pos++];
		unsigned want = c->agent >= 0 ? (unsigned)c->agent
			: c->agent == EXEC_AGENT_PATCHER ? XS_PATCHER(s->ncpus)
			: c->agent == EXEC_AGENT_PATCHER_TEXT ? XS_PATCHER_TEXT(s->ncpus)
			: XS_SBUF(s->ncpus);

		s->force_step = 1;
		for (unsigned i = 0; i < n; i++)
			if (ready[i] == want)
				return (int)i;
		if (!s->force_diverged++)
			s->force_diverged_at = s->force_pos - 1;
		s->force_step = 0;
		return 0;
	}
	if (s->dpor) {
		/* The walk's agents (exec_verify: no CPU store buffers):
		 * the CPUs, the two patchers, then each channel of the
		 * store buffer with a store that may drain. */
		uint64_t mask = 0;
		unsigned nc = s->ncpus, sb = XD_CHAN0(nc);
		int a;

		s->drain_pick = -1;
		for (unsigned i = 0; i < n; i++)
			if (ready[i] < nc || ready[i] == XS_PATCHER(nc))
				mask |= 1ULL << ready[i];
			else if (ready[i] == XS_PATCHER_TEXT(nc))
				mask |= 1ULL << XD_TEXT(nc);
		mask |= s->drain_chans << sb;
		s->drain_chans = 0; /* xs_set_drains sets it for each pick */
		a = xd_pick(s->dpor, mask);
		if (a >= (int)sb) {
			s->drain_pick = (int)s->drain_cand[a - sb];
			a = (int)XS_SBUF(nc);
		} else if (a == (int)XD_TEXT(nc)) {
			a = (int)XS_PATCHER_TEXT(nc);
		}
		for (unsigned i = 0; a >= 0 && i < n; i++)
			if (ready[i] == (unsigned)a)
				return (int)i;
		return -1;
	}
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
