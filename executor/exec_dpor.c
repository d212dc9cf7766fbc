/* The reduced exhaustive walk (exec_dpor.h).
 *
 * The tree is kept as the path of the current run: node k is the state
 * before step k, with the agents ready there, the agents to explore from
 * it (backtrack), those explored (done), the sleep set inherited from the
 * parent and the transitions explored from it so far (each an agent and a
 * value, with the footprint of the step it made). Each run replays the
 * path up to its deepest node and takes the branch chosen there, then
 * extends the path with fresh nodes.
 *
 * After a run, happens-before is computed with vector clocks (clock[a] =
 * how many of agent a's steps precede the step or are it), and each race
 * i < j (dependent steps of different agents, i not ordered before j by
 * anything in between) is reversed: v = the steps after i not ordered
 * after it, then j; an initial of v (an agent whose first step in v has no
 * predecessor in v) goes into node i's backtrack set unless one is there
 * already or asleep; if no initial is ready at node i, every ready agent
 * does (a disabled agent cannot be scheduled first). */
#include "executor/exec_dpor.h"

#include <stdlib.h>
#include <string.h>

#include "executor/exec_dpor_int.h"
#include "util/rng.h"
#include "util/vec.h"

struct xdpor *xd_new(unsigned nagents, int reduce, unsigned split,
		     unsigned shard, unsigned nshards)
{
	struct xdpor *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->nagents = nagents;
	d->reduce = reduce;
	d->nshards = nshards ? nshards : 1;
	d->shard = shard;
	d->split = d->nshards > 1 ? split : 0;
	return d;
}

static void node_clear(struct xdnode *n)
{
	n->nsleep = n->nexpl = n->npool = 0;
}

void xd_free(struct xdpor *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->capnode; i++) {
		free(d->node[i].sleep);
		free(d->node[i].expl);
		free(d->node[i].pool);
		free(d->node[i].sum.w);
	}
	xdss_free(d->ss);
	free(d->slbuf);
	free(d->rloc);
	free(d->node);
	free(d->st);
	free(d->pool);
	free(d->vc);
	free(d);
}

void xd_restart(struct xdpor *d)
{
	for (size_t i = 0; i < d->nnode; i++)
		node_clear(&d->node[i]);
	d->nnode = 0;
	d->last_nst = 0;
	d->prefix_next = 0;
	memset(&d->s, 0, sizeof(d->s));
	if (d->ss)
		xdss_clear(d->ss);
}

void xd_set_random(struct xdpor *d, uint64_t seed)
{
	d->random = seed != 0;
	if (seed)
		ftv_rng_seed(&d->rng, seed);
}

void xd_stats(const struct xdpor *d, struct xd_stats *st)
{
	*st = d->s;
}

/* --- footprints ------------------------------------------------------------ */

/* Sorts v[0..n) in place: insertion sort, as footprints are short or
 * nearly sorted (the executor reports a barrier's many channels in
 * order), and heapsort (no calls through a comparison) once that has
 * moved more than a few entries per entry. */
static void fp_sort(uint64_t *v, size_t n)
{
	size_t moves = 0;

	for (size_t i = 1; i < n; i++) {
		uint64_t x = v[i];
		size_t j = i;

		for (; j > 0 && v[j - 1] > x; j--)
			v[j] = v[j - 1];
		v[j] = x;
		moves += i - j;
		if (moves > 4 * n + 64)
			break;
	}
	if (moves <= 4 * n + 64)
		return;
	for (size_t end = n, start = n / 2;;) {
		size_t root, child;
		uint64_t x;

		if (start > 0) {
			start--;
		} else {
			if (--end == 0)
				return;
			x = v[end];
			v[end] = v[0];
			v[0] = x;
		}
		/* sift v[start] down within v[0..end) */
		root = start;
		x = v[root];
		while ((child = 2 * root + 1) < end) {
			if (child + 1 < end && v[child + 1] > v[child])
				child++;
			if (v[child] <= x)
				break;
			v[root] = v[child];
			root = child;
		}
		v[root] = x;
	}
}

/* Sorts a footprint by location and merges the modes of each location;
 * returns the new length. */
static size_t fp_norm(uint64_t *v, size_t n)
{
	size_t k = 0;

	fp_sort(v, n);
	for (size_t i = 0; i < n; i++) {
		if (k && v[k - 1] >> 2 == v[i] >> 2)
			v[k - 1] |= v[i] & 3;
		else
			v[k++] = v[i];
	}
	return k;
}

/* A location two normalised footprints both touch where a writes and b
 * reads it (waits: one of the kinds that name a wait, XLOC_SBNEED and
 * XLOC_QSWAIT) or where either writes it (!waits: they conflict). */
static int fp_meet(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
		   int waits)
{
	size_t i = 0, j = 0;

	while (i < na && j < nb) {
		uint64_t la = a[i] >> 2, lb = b[j] >> 2;
		unsigned k = XLOC_KIND((uint32_t)la);

		if (la < lb) {
			i++;
		} else if (lb < la) {
			j++;
		} else {
			if (waits ? (k == XLOC_SBNEED || k == XLOC_QSWAIT) &&
					    (a[i] & XA_W) && (b[j] & XA_R)
				  : ((a[i] | b[j]) & XA_W) != 0)
				return 1;
			i++;
			j++;
		}
	}
	return 0;
}

static int fp_conflict(const uint64_t *a, size_t na, const uint64_t *b,
		       size_t nb)
{
	return fp_meet(a, na, b, nb, 0);
}

static void norm_step(struct xdpor *d, size_t k)
{
	struct xdstep *s = &d->st[k];

	if (!s->norm) {
		s->len = fp_norm(d->pool + s->off, s->len);
		s->vis = 0;
		s->rd = s->wr = 0;
		for (size_t i = 0; i < s->len; i++) {
			uint64_t e = d->pool[s->off + i];
			uint64_t h = 1ULL << ((e >> 2) * 0x9e3779b97f4a7c15ULL >> 58);

			s->vis |= xloc_visible((uint32_t)(e >> 2));
			s->rd |= h;
			if (e & XA_W)
				s->wr |= h;
		}
	}
	s->norm = 1;
}

/* Step j waited for step i: j reads a store i drained or pushed
 * (XLOC_SBNEED), or ends a grace period i's CPU held up (XLOC_QSWAIT).
 * From the state before i every execution runs i before j (the store j
 * waited for is older than j's own and its channel drains in order, or
 * the patcher pushed it before its barrier; only the CPU that holds a
 * grace period up can end its part, by its own turns): the race has no
 * reversal, and reversing it would only add an "initial" of a sequence
 * that cannot run, a branch the sleep sets then cut. The races whose
 * reversals source-DPOR's completeness needs are those that have one
 * (Abdulla et al., POPL 2014, the races of an execution). The orders in
 * which j does come first (the store drained, or the CPU past its
 * quiescent point, before the barrier or the grace period began) differ
 * earlier, at a race of their own: the barrier and the grace period's
 * start read the drains and the CPUs' progress. */
static int step_waited(const struct xdpor *d, size_t i, size_t j)
{
	const struct xdstep *a = &d->st[i], *b = &d->st[j];

	return fp_meet(d->pool + a->off, a->len, d->pool + b->off, b->len, 1);
}

static int step_dep(const struct xdpor *d, size_t i, size_t j)
{
	const struct xdstep *a = &d->st[i], *b = &d->st[j];

	if (a->agent == b->agent)
		return 1;
	/* a conflict needs a location both touch, one writing */
	if (!(a->wr & b->rd) && !(a->rd & b->wr))
		return 0;
	return fp_conflict(d->pool + a->off, a->len, d->pool + b->off, b->len);
}

/* --- nodes ----------------------------------------------------------------- */

static int tr_add(struct xdpor *d, struct xdnode *n, struct xdtr **v,
		  size_t *nv, size_t *cap, unsigned agent, unsigned val,
		  unsigned nval, const uint64_t *fp, size_t len)
{
	struct xdtr t = { agent, val, nval, n->npool, len };

	if (VEC_RESERVE(n->pool, n->cappool, n->npool + len + 1) ||
	    VEC_PUSH(*v, *nv, *cap, t)) {
		d->oom = 1;
		return -1;
	}
	if (len)
		memcpy(n->pool + n->npool, fp, len * sizeof(*fp));
	n->npool += len;
	return 0;
}

static int asleep(const struct xdnode *n, unsigned agent, unsigned val)
{
	for (size_t i = 0; i < n->nsleep; i++)
		if (n->sleep[i].agent == agent && n->sleep[i].val == val)
			return 1;
	return 0;
}

/* The sleep set of node k+1: what sleeps or was explored at node k and
 * commutes with step k. */
static void child_sleep(struct xdpor *d, size_t k, struct xdnode *c)
{
	struct xdnode *p = &d->node[k];
	const struct xdstep *s = &d->st[k];
	const uint64_t *fp = d->pool + s->off;

	for (int pass = 0; pass < 2; pass++) {
		const struct xdtr *v = pass ? p->expl : p->sleep;
		size_t n = pass ? p->nexpl : p->nsleep;

		for (size_t i = 0; i < n; i++) {
			const uint64_t *g = p->pool + v[i].off;

			if (v[i].agent == s->agent ||
			    fp_conflict(g, v[i].len, fp, s->len))
				continue;
			tr_add(d, c, &c->sleep, &c->nsleep, &c->capsleep,
			       v[i].agent, v[i].val, v[i].nval, g, v[i].len);
		}
	}
}

static struct xdnode *new_node(struct xdpor *d, uint64_t ready)
{
	size_t k = d->nnode;
	struct xdnode *n;
	const struct xdnode *p;

	if (VEC_RESERVE(d->node, d->capnode, k + 1)) {
		d->oom = 1;
		return NULL;
	}
	p = k ? &d->node[k - 1] : NULL; /* (after the array moved) */
	n = &d->node[k];
	node_clear(n);
	n->ready = ready;
	n->backtrack = n->done = n->vdone = 0;
	n->agent = -1;
	n->val = n->nval = 0;
	n->vset = 0;
	n->ord = p ? p->ord + (__builtin_popcountll(p->ready) > 1) : 0;
	n->owned = p ? p->owned || p->kind == N_SPLIT : d->nshards == 1;
	/* Above the split every shard explores everything alike; at the
	 * split each agent is a prefix some shard owns; below, the owner
	 * explores with the reduction. */
	if (d->nshards > 1 && !n->owned && n->ord >= d->split &&
	    __builtin_popcountll(ready) > 1)
		n->kind = N_SPLIT;
	else if (!d->reduce || !n->owned)
		n->kind = N_NAIVE;
	else
		n->kind = N_REDUCED;
	d->nnode = k + 1;
	if (p && d->reduce)
		child_sleep(d, k - 1, n);
	n->vdepth = p ? p->vdepth + (d->st[k - 1].vis != 0) : 0;
	n->sum.n = 0;
	n->cutn = 0;
	n->hashed = d->ss && d->next_hashed && n->kind == N_REDUCED;
	if (n->hashed) {
		n->h[0] = d->next_h[0];
		n->h[1] = d->next_h[1];
		n->sym = (int)d->next_sym;
		memcpy(n->pi, d->next_pi, sizeof(n->pi));
	}
	d->next_hashed = 0;
	return n;
}

/* The next agent of n to explore, in agent order: skips those asleep and
 * those another shard owns. -1: none left. */
static int next_agent(struct xdpor *d, struct xdnode *n, int fresh)
{
	uint64_t cand = n->ready & ~n->done;

	/* A fresh node runs its first agent that is not asleep; after
	 * that, a reduced node explores only what races asked for. */
	if (n->kind == N_REDUCED && !fresh)
		cand &= n->backtrack;
	while (cand) {
		unsigned a = (unsigned)__builtin_ctzll(cand);

		cand &= cand - 1;
		if (n->kind == N_REDUCED && fully_asleep(n, a)) {
			/* explored from an ancestor already */
			n->done |= bit(a);
			d->s.pruned++;
			continue;
		}
		if (n->kind == N_SPLIT &&
		    d->prefix_next++ % d->nshards != d->shard) {
			n->done |= bit(a);
			continue;
		}
		n->agent = (int)a;
		n->backtrack |= bit(a);
		n->vset = 0;
		n->vdone = 0;
		n->nval = 0;
		return (int)a;
	}
	return -1;
}

/* --- a run ----------------------------------------------------------------- */

void xd_start_run(struct xdpor *d)
{
	d->nst = 0;
	d->npool = 0;
	d->cut = 0;
	d->split_seen = 0;
	d->cut_at = 0;
}

int xd_resume(struct xdpor *d, size_t k)
{
	/* The steps before k are the last run's: its record of them (their
	 * footprints, normalised in place, norm_step) is what a replay
	 * would have made again. */
	if (d->random || d->nshards > 1 || k > d->last_nst || k > d->nnode)
		return -1;
	d->nst = k;
	d->npool = k ? d->st[k - 1].off + d->st[k - 1].len : 0;
	d->cut = 0;
	d->split_seen = 0;
	d->cut_at = 0;
	return 0;
}

int xd_pick(struct xdpor *d, uint64_t ready)
{
	size_t k = d->nst;
	struct xdnode *n;
	struct xdstep *s;
	int a;

	if (d->random) {
		unsigned c = (unsigned)ftv_rng_below(&d->rng,
						     (uint64_t)__builtin_popcountll(ready));

		while (c--)
			ready &= ready - 1;
		return __builtin_ctzll(ready);
	}
	if (k)
		norm_step(d, k - 1);
	if (k < d->nnode) {
		n = &d->node[k];
		if (n->ready != ready)
			d->s.diverged++;
		a = n->agent;
		if (a < 0 || !(ready & bit((unsigned)a))) {
			d->cut = 1;
			return -1;
		}
	} else {
		n = new_node(d, ready);
		if (!n) {
			d->cut = 1;
			return -1;
		}
		if (n->kind == N_NAIVE)
			n->backtrack = ready;
		if (d->ss && xdc_known_state(d, n, k)) {
			d->cut = 1;
			return -1;
		}
		a = next_agent(d, n, 1);
		if (a < 0) {
			if (n->kind == N_SPLIT)
				d->s.probes++;
			else
				d->s.blocked++;
			d->cut = 1;
			return -1;
		}
	}
	if (VEC_RESERVE(d->st, d->capst, k + 1)) {
		d->oom = 1;
		d->cut = 1;
		return -1;
	}
	s = &d->st[k];
	*s = (struct xdstep){ (unsigned)a, 0, 1, 0, ready, d->npool, 0, 0, 0, 0, 0, 0 };
	d->nst = k + 1;
	if (n->kind == N_SPLIT)
		d->split_seen = 1;
	return a;
}

unsigned xd_choose(struct xdpor *d, unsigned n)
{
	struct xdstep *s;
	struct xdnode *nd;
	unsigned v;

	if (d->random)
		return (unsigned)ftv_rng_below(&d->rng, n);
	if (!d->nst)
		return 0;
	s = &d->st[d->nst - 1];
	nd = &d->node[d->nst - 1];
	if (s->nchoices++ || n > 64) {
		/* One choice per step is what the walk records; a second
		 * one (or more than 64 values) would go unexplored. */
		d->s.multi++;
		return 0;
	}
	if (nd->nval && nd->nval != n)
		d->s.diverged++;
	nd->nval = n;
	s->nval = n;
	if (nd->vset && nd->val < n) {
		v = nd->val;
	} else {
		for (v = 0; v < n; v++)
			if (!(nd->vdone & bit(v)) &&
			    !(nd->kind == N_REDUCED &&
			      asleep(nd, (unsigned)nd->agent, v)))
				break;
		if (v == n) {
			d->s.diverged++;
			v = 0;
		}
		nd->val = v;
		nd->vset = 1;
	}
	s->val = v;
	return v;
}

void xd_unsound(struct xdpor *d)
{
	if (!d->random)
		d->s.multi++;
}

void xd_access(struct xdpor *d, uint32_t loc, unsigned mode)
{
	if (d->random || !d->nst)
		return;
	if (VEC_RESERVE(d->pool, d->cappool, d->npool + 1)) {
		d->oom = 1;
		return;
	}
	d->pool[d->npool++] = (uint64_t)loc << 2 | mode;
	d->st[d->nst - 1].len++;
}

/* --- after a run ----------------------------------------------------------- */

/* Race i < j: make sure an initial of notdep(i).j is explored from node i. */
static void reverse(struct xdpor *d, size_t i, size_t j, const uint32_t *vj)
{
	struct xdnode *n = &d->node[i];
	unsigned ai = d->st[i].agent;
	uint32_t si = d->st[i].seq;
	uint32_t first[XD_MAX_AGENTS] = { 0 };
	unsigned init[XD_MAX_AGENTS], ival[XD_MAX_AGENTS], ninit = 0;

	if (n->kind != N_REDUCED)
		return;
	for (size_t k = i + 1; k <= j; k++) {
		const uint32_t *vk = k == j ? vj : clock_of(d, k);
		unsigned b = d->st[k].agent;
		int initial = 1;

		if (k < j && vk[ai] >= si)
			continue; /* ordered after i: not in v */
		if (first[b])
			continue;
		for (unsigned c = 0; c < d->vw && initial; c++)
			if (first[c] && vk[c] >= first[c])
				initial = 0;
		first[b] = d->st[k].seq;
		if (initial) {
			init[ninit] = b;
			ival[ninit++] = d->st[k].val;
		}
	}
	for (unsigned q = 0; q < ninit; q++)
		if ((n->backtrack & bit(init[q])) || asleep(n, init[q], ival[q]))
			return;
	/* Prefer j's own agent, then the first initial that can run. */
	for (unsigned q = 0; q < ninit; q++)
		if (init[q] == d->st[j].agent && (n->ready & bit(init[q]))) {
			n->backtrack |= bit(init[q]);
			return;
		}
	for (unsigned q = 0; q < ninit; q++)
		if (n->ready & bit(init[q])) {
			n->backtrack |= bit(init[q]);
			return;
		}
	n->backtrack |= n->ready;
}

void xd_end_run(struct xdpor *d, int ended)
{
	uint32_t cnt[XD_MAX_AGENTS] = { 0 };
	size_t last[XD_MAX_AGENTS];

	(void)ended;
	if (d->random)
		return;
	if (d->nst)
		norm_step(d, d->nst - 1);
	d->last_nst = d->nst;
	/* (the agents a run has are few of the XD_MAX_AGENTS: its CPUs,
	 * the patchers and the channels used; the clocks need only those) */
	d->vw = 1;
	for (size_t j = 0; j < d->nst; j++)
		if (d->st[j].agent >= d->vw)
			d->vw = d->st[j].agent + 1;
	if (VEC_RESERVE(d->vc, d->capvc, (d->nst ? d->nst : 1) * d->vw)) {
		d->oom = 1;
		return;
	}
	for (size_t j = 0; j < d->nst; j++) {
		struct xdstep *s = &d->st[j];
		uint32_t *vj = clock_of(d, j);
		unsigned a = s->agent;

		s->seq = ++cnt[a];
		if (s->seq > 1)
			memcpy(vj, clock_of(d, last[a]), d->vw * sizeof(*vj));
		else
			memset(vj, 0, d->vw * sizeof(*vj));
		vj[a] = s->seq;
		last[a] = j;
		for (size_t i = j; i-- > 0;) {
			const struct xdstep *t = &d->st[i];
			const uint32_t *vi;

			if (t->agent == a || vj[t->agent] >= t->seq)
				continue;
			if (!step_dep(d, i, j))
				continue;
			if (d->reduce && !step_waited(d, i, j))
				reverse(d, i, j, vj);
			vi = clock_of(d, i);
			for (unsigned c = 0; c < d->vw; c++)
				if (vi[c] > vj[c])
					vj[c] = vi[c];
		}
	}
	if (d->cut_at)
		xdc_reverse_summary(d, d->cut_at - 1);
	if (!xd_counted(d)) {
		if (!d->cut)
			d->s.probes++;
		return;
	}
	d->s.executions++;
}

int xd_counted(const struct xdpor *d)
{
	/* A run that passed no split node is in every shard's top tree:
	 * shard 0 counts it. */
	return !d->cut && (d->nshards == 1 || d->split_seen || d->shard == 0);
}

size_t xd_nsteps(const struct xdpor *d)
{
	return d->nst;
}

void xd_step(const struct xdpor *d, size_t i, unsigned *agent, unsigned *val)
{
	*agent = d->st[i].agent;
	*val = d->st[i].nval > 1 ? d->st[i].val : 0;
}

int xd_visible(const struct xdpor *d, size_t i)
{
	return i < d->nst && d->st[i].vis;
}

size_t xd_past(const struct xdpor *d, size_t k, size_t *idx)
{
	size_t n = 0;

	if (k >= d->nst) {
		for (size_t i = 0; i < d->nst; i++)
			idx[n++] = i;
		return n;
	}
	for (size_t i = 0; i <= k; i++)
		if (clock_of(d, k)[d->st[i].agent] >= d->st[i].seq)
			idx[n++] = i;
	return n;
}

int xd_next(struct xdpor *d)
{
	if (d->random)
		return 0;
	while (d->nnode) {
		size_t k = d->nnode - 1;
		struct xdnode *n = &d->node[k];

		if (n->agent >= 0) {
			unsigned a = (unsigned)n->agent, nv;

			if (d->reduce && k < d->nst)
				tr_add(d, n, &n->expl, &n->nexpl, &n->capexpl,
				       a, n->val, n->nval ? n->nval : 1,
				       d->pool + d->st[k].off, d->st[k].len);
			if (d->ss && k < d->nst &&
			    xdss_add_steps(d->ss, &n->sum, a, d->pool + d->st[k].off,
					   d->st[k].len))
				d->oom = 1;
			if (n->val < 64)
				n->vdone |= bit(n->val);
			nv = n->nval ? n->nval : 1;
			for (unsigned u = 0; u < nv; u++) {
				if ((n->vdone & bit(u)) ||
				    (n->kind == N_REDUCED && asleep(n, a, u)))
					continue;
				n->val = u;
				n->vset = 1;
				return 0;
			}
			n->done |= bit(a);
			n->agent = -1;
		}
		if (next_agent(d, n, 0) >= 0)
			return 0;
		d->s.pruned += (uint64_t)__builtin_popcountll(n->ready & ~n->done);
		xdc_finish_node(d, k);
		node_clear(n);
		d->nnode--;
	}
	return 1;
}

size_t xd_depth(const struct xdpor *d)
{
	return d->nnode ? d->nnode - 1 : 0;
}
