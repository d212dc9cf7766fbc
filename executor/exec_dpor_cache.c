/* Stateful DPOR in the reduced walk (exec_dpor_state.h): the states of
 * finished nodes kept, a fresh node in one of them cut, and the races of
 * the cut run's prefix with the summary of what follows reversed. */
#include "executor/exec_dpor_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

int xd_set_stateful(struct xdpor *d, size_t max_bytes)
{
	if (!d->reduce || d->nshards > 1)
		return 0;
	d->ss = xdss_new(max_bytes);
	return d->ss ? 0 : -1;
}

int xd_fresh(const struct xdpor *d)
{
	return d->ss && !d->random && d->nst >= d->nnode;
}

void xd_state(struct xdpor *d, const uint64_t h[2])
{
	d->next_hashed = h != NULL;
	d->next_sym = 0;
	if (h) {
		d->next_h[0] = h[0];
		d->next_h[1] = h[1];
	}
}

void xd_state_sym(struct xdpor *d, const uint8_t *pi, unsigned n)
{
	d->next_sym = pi && n <= XD_SYM_MAX ? n : 0;
	if (d->next_sym)
		memcpy(d->next_pi, pi, n);
}

/* Node n's maps: its frame to the canonical one (pi) and back. */
static const struct xdmap *node_map(const struct xdnode *n, struct xdmap *m, int back)
{
	if (!n->sym)
		return NULL;
	m->n = (unsigned)n->sym;
	m->ident = 1;
	for (unsigned c = 0; c < m->n; c++) {
		m->a[back ? n->pi[c] : c] = back ? (uint8_t)c : n->pi[c];
		m->ident &= n->pi[c] == c;
	}
	return m;
}

size_t xd_states(const struct xdpor *d, int *full)
{
	return d->ss ? xdss_states(d->ss, full) : 0;
}

/* n's sleep set as a sorted list of agent << 8 | value (in d->slbuf). */
static size_t sleep_list(struct xdpor *d, const struct xdnode *n)
{
	size_t k = 0;

	if (VEC_RESERVE(d->slbuf, d->capslbuf, n->nsleep + 1)) {
		d->oom = 1;
		return 0;
	}
	for (size_t i = 0; i < n->nsleep; i++) {
		uint16_t x = (uint16_t)(n->sleep[i].agent << 8 | (n->sleep[i].val & 0xff));
		size_t j = k++;

		for (; j > 0 && d->slbuf[j - 1] > x; j--)
			d->slbuf[j] = d->slbuf[j - 1];
		d->slbuf[j] = x;
	}
	return k;
}

/* Stateful: the fresh node k is in a state whose finished subtree covers
 * it (exec_dpor_state.h): 1, the run is cut there. */
int xdc_known_state(struct xdpor *d, struct xdnode *n, size_t k)
{
	size_t nsl;

	if (!n->hashed)
		return 0;
	struct xdmap m;
	int moved = 0;

	nsl = sleep_list(d, n);
	if (!xdss_lookup(d->ss, n->h, n->vdepth, d->slbuf, nsl, &n->sum,
			 node_map(n, &m, 1), &moved))
		return 0;
	n->cutn = 1;
	n->done = n->ready;
	d->cut_at = k + 1;
	d->s.state_cuts++;
	d->s.state_cuts_moved += moved;
	return 1;
}

/* Stateful: node k is finished (leaving the path). Its summary goes into
 * its parent's, and its state into the table. */
void xdc_finish_node(struct xdpor *d, size_t k)
{
	struct xdnode *n = &d->node[k];

	if (!d->ss)
		return;
	if (k && xdss_union(&d->node[k - 1].sum, &n->sum))
		d->oom = 1;
	if (n->hashed && !n->cutn) {
		size_t nsl = sleep_list(d, n);
		struct xdmap m;

		xdss_store(d->ss, n->h, n->vdepth, d->slbuf, nsl, &n->sum,
			   node_map(n, &m, 0));
	}
}

/* Stateful, after a run cut at a known state: the races between the
 * prefix and the summary of what follows (exec_dpor_state.h), reversed
 * conservatively. */

static void add_race(struct xdnode *n, unsigned b)
{
	if (n->kind != N_REDUCED || (n->backtrack & bit(b)))
		return;
	if ((n->ready & bit(b)) && !fully_asleep(n, b))
		n->backtrack |= bit(b);
	else
		n->backtrack |= n->ready;
}


static struct xdrloc *rloc_at(struct xdpor *d, uint32_t loc, int add)
{
	size_t j = (size_t)((loc * 0x9e3779b97f4a7c15ULL) >> 40) & (d->caprloc - 1);

	for (; d->rloc[j].loc1; j = (j + 1) & (d->caprloc - 1))
		if (d->rloc[j].loc1 == loc + 1)
			return &d->rloc[j];
	if (!add)
		return NULL;
	d->rloc[j].loc1 = loc + 1;
	return &d->rloc[j];
}

/* The prefix steps before node k that race with a step of the summary of
 * node k: e touches a location a summary step of another agent b touches,
 * one of them writing. A prefix step before the last prefix write of that
 * location happens before that write, and the write before b's step (it
 * writes what b touches): that is no race. Reversed as add_race says. */
void xdc_reverse_summary(struct xdpor *d, size_t k)
{
	const struct xdsum *sum = &d->node[k].sum;
	size_t nbits = 0, cap, lastb[XD_MAX_AGENTS];

	for (size_t w = 0; w < sum->n; w++)
		nbits += (size_t)__builtin_popcountll(sum->w[w]);
	if (!nbits)
		return;
	for (cap = 64; cap < 2 * nbits; cap *= 2)
		;
	if (cap > d->caprloc) {
		free(d->rloc);
		d->rloc = malloc(cap * sizeof(*d->rloc));
		d->caprloc = d->rloc ? cap : 0;
		if (!d->rloc) {
			d->oom = 1;
			return;
		}
	}
	memset(d->rloc, 0, d->caprloc * sizeof(*d->rloc));
	for (size_t w = 0; w < sum->n; w++)
		for (uint64_t m = sum->w[w]; m; m &= m - 1) {
			unsigned b, mode;
			uint32_t loc;
			struct xdrloc *r;

			xdss_key(d->ss, w * 64 + (size_t)__builtin_ctzll(m), &b, &loc, &mode);
			r = rloc_at(d, loc, 1);
			if (mode & XA_W)
				r->wr |= bit(b);
			else
				r->rd |= bit(b);
		}
	memset(lastb, 0, sizeof(lastb));
	for (size_t i = 0; i < k && i < d->nst; i++)
		lastb[d->st[i].agent] = i + 1;
	for (size_t i = (k < d->nst ? k : d->nst); i-- > 0;) {
		const struct xdstep *s = &d->st[i];
		const uint64_t *fp = d->pool + s->off;
		uint64_t after = 0;

		/* the agents whose last prefix step happens after e: each of
		 * their steps that follow does too (no race) */
		for (unsigned b = 0; b < d->vw; b++)
			if (lastb[b] > i + 1 &&
			    clock_of(d, lastb[b] - 1)[s->agent] >= s->seq)
				after |= bit(b);
		for (size_t e = 0; e < s->len; e++) {
			struct xdrloc *r = rloc_at(d, (uint32_t)(fp[e] >> 2), 0);
			uint64_t race;

			if (!r || r->closed)
				continue;
			race = (r->wr | ((fp[e] & XA_W) ? r->rd : 0)) & ~bit(s->agent) &
			       ~after;
			for (; race; race &= race - 1)
				add_race(&d->node[i], (unsigned)__builtin_ctzll(race));
			if (fp[e] & XA_W)
				r->closed = 1;
		}
	}
}
