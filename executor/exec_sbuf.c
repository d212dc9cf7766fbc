/* The store buffer (exec_sbuf.h). */
#include "executor/exec_sbuf.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

void xb_init(struct xsbuf *b, struct xmodel *m, int agent, int owner)
{
	b->m = m;
	b->agent = agent;
	b->owner = owner;
}

void xb_free(struct xsbuf *b)
{
	free(b->v);
	free(b->need);
}

void xb_reset(struct xsbuf *b)
{
	memset(b->cpush, 0, sizeof(b->cpush));
	b->nneed = 0;
	b->n = 0;
	b->ngate = 0;
	b->epoch = 0;
}

/* Whether a load may read the store while it is buffered (xsbuf.ngate). */
static int gates(const struct xsbuf *b, uint64_t addr, unsigned size)
{
	if (!b->insn_exempt || addr % 4 || size % 4)
		return 1;
	for (uint64_t a = addr; a < addr + size; a += 4)
		if (!xm_insn(b->m, a))
			return 1;
	return 0;
}

static int overlaps(uint64_t a, uint64_t al, uint64_t b, uint64_t bl)
{
	return a < b + bl && b < a + al;
}

/* The channel of addr (XB_MAX_CHAN, exec_sbuf.h), or -1. */
static int chan_of(struct xsbuf *b, uint64_t addr)
{
	for (unsigned i = 0; i < b->nchan; i++)
		if (b->chan[i] == addr)
			return (int)i;
	if (b->nchan == XB_MAX_CHAN) {
		b->chan_full = 1;
		return -1;
	}
	b->chan[b->nchan] = addr;
	return (int)b->nchan++;
}

/* Names the cidx-th store of channel c for the reduction (xsbuf.need). */
static void need_access(struct xsbuf *b, int c, uint32_t cidx, unsigned mode)
{
	if (!b->shared && !b->m->coarse && c >= 0 && cidx && cidx <= 0xffff)
		xs_access(b->m->sched, XLOC(XLOC_SBNEED, (uint32_t)c << 16 | cidx),
			  mode);
}

void xb_push(struct xsbuf *b, uint64_t addr, unsigned size, uint64_t val,
	     int wid)
{
	struct xstore s = { addr, size, val, wid, b->epoch, 0, 0,
			    gates(b, addr, size), 0, 0, 0 };

	/* the patcher's: perhaps held back (exec_config.drain_hold) */
	if (b->owner < 0)
		s.due = b->m->log->step + xs_hold(b->m->sched);

	if (b->chans) {
		int ch = chan_of(b, addr);
		uint32_t newest[XB_MAX_CHAN];

		xs_access(b->m->sched, XLOC(XLOC_SBQ, ch < 0 ? 0 : ch), XA_W);
		if (ch >= 0)
			s.cidx = ++b->cpush[ch];
		/* its drain waits for this push */
		need_access(b, ch, s.cidx, XA_W);
		/* The stores it waits for: its drain reads their drains. */
		for (size_t i = 0; i < b->n; i++) {
			int c = chan_of(b, b->v[i].addr);

			if (c >= 0 && c != ch &&
			    (b->v[i].epoch != s.epoch ||
			     overlaps(b->v[i].addr, b->v[i].size, addr, size))) {
				if (!(s.after & 1ULL << c) || b->v[i].cidx > newest[c])
					newest[c] = b->v[i].cidx;
				s.after |= 1ULL << c;
			}
		}
		s.need_off = b->nneed;
		for (uint64_t m = s.after; m; m &= m - 1) {
			unsigned c = (unsigned)__builtin_ctzll(m);

			if (VEC_PUSH(b->need, b->nneed, b->capneed,
				     c << 16 | newest[c]))
				*b->m->oom = 1;
		}
		s.need_n = b->nneed - s.need_off;
	}
	if (VEC_PUSH(b->v, b->n, b->cap, s))
		*b->m->oom = 1;
	else
		b->ngate += (size_t)s.gates;
}

void xb_barrier(struct xsbuf *b)
{
	b->epoch++;
}


static int holds(const struct xsbuf *b, uint64_t addr, uint64_t len, int gating)
{
	for (size_t i = 0; i < b->n; i++)
		if ((!gating || b->v[i].gates) &&
		    overlaps(b->v[i].addr, b->v[i].size, addr, len))
			return 1;
	return 0;
}

int xb_holds(const struct xsbuf *b, uint64_t addr, uint64_t len)
{
	return holds(b, addr, len, 0);
}

int xb_gate_holds(const struct xsbuf *b, uint64_t addr, uint64_t len)
{
	return holds(b, addr, len, 1);
}

void xb_waited(struct xsbuf *b, uint64_t addr, uint64_t len)
{
	if (!b->chans)
		return;
	for (unsigned c = 0; c < b->nchan; c++)
		if (!len || overlaps(b->chan[c], 4, addr, len))
			xs_access(b->m->sched, XLOC(XLOC_SBDRAIN, c), XA_R);
	/* every store the patcher pushed there is drained (a loop of its
	 * own: the footprint stays in the order the reduction sorts it) */
	for (unsigned c = 0; c < b->nchan; c++)
		if (!len || overlaps(b->chan[c], 4, addr, len))
			need_access(b, (int)c, b->cpush[c], XA_R);
}

uint64_t xb_read(const struct xsbuf *b, uint64_t addr, unsigned size)
{
	uint8_t buf[8] = { 0 };
	uint64_t v = 0;

	sim_read(b->m->as, addr, buf, size, NULL);
	/* The owner reads its own buffered stores (store forwarding). */
	for (size_t i = 0; i < b->n; i++) {
		const struct xstore *s = &b->v[i];

		for (unsigned k = 0; k < s->size; k++)
			if (s->addr + k >= addr && s->addr + k < addr + size)
				buf[s->addr + k - addr] =
					(uint8_t)(s->val >> (8 * k));
	}
	memcpy(&v, buf, size);
	return v;
}

static uint64_t min_epoch(const struct xsbuf *b)
{
	uint64_t minep = UINT64_MAX;

	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].epoch < minep)
			minep = b->v[i].epoch;
	return minep;
}

unsigned xb_candidates(struct xsbuf *b, unsigned *cand, int *chan)
{
	uint64_t minep = min_epoch(b);
	unsigned nc = 0;

	/* Stores not separated by a DMB may become visible in any order,
	 * except that stores to the same location stay in program order
	 * (coherence). */
	for (size_t i = 0; i < b->n && nc < 64; i++) {
		int blocked = b->v[i].epoch != minep;

		for (size_t j = 0; j < i && !blocked; j++)
			blocked = overlaps(b->v[j].addr, b->v[j].size,
					   b->v[i].addr, b->v[i].size);
		if (blocked)
			continue;
		if (chan)
			chan[nc] = chan_of(b, b->v[i].addr);
		cand[nc++] = (unsigned)i;
	}
	return nc;
}

int xb_due(struct xsbuf *b)
{
	unsigned cand[64], nc = xb_candidates(b, cand, NULL);

	for (unsigned i = 0; i < nc; i++)
		if (b->v[cand[i]].due <= b->now)
			return 1;
	return 0;
}

void xb_drain(struct xsbuf *b)
{
	unsigned cand[64], nc, k, nd = 0;
	int ch, chan[64];
	struct xstore s;

	nc = xb_candidates(b, cand, b->chans ? chan : NULL);
	/* the held-back ones wait while another may drain; when none is
	 * due (a patcher waits for the buffer, or nobody else can move),
	 * the one due first drains, so that held stores still become
	 * visible last (no store is held under chans: xs_hold) */
	for (unsigned i = 0; i < nc && !b->chans; i++)
		if (b->v[cand[i]].due <= b->now)
			cand[nd++] = cand[i];
	if (nd) {
		nc = nd;
	} else if (!b->chans) {
		for (unsigned i = 1; i < nc; i++)
			if (b->v[cand[i]].due < b->v[cand[0]].due)
				cand[0] = cand[i];
		nc = 1;
	}
	k = cand[b->chans ? xs_choose_drain(b->m->sched, chan, nc)
			  : xs_choose(b->m->sched, XCH_DRAIN, nc)];
	s = b->v[k];
	memmove(&b->v[k], &b->v[k + 1], (b->n - k - 1) * sizeof(s));
	b->n--;
	b->ngate -= (size_t)s.gates;
	if (xs_recording(b->m->sched)) {
		/* The reduction: this address's queue, and the drains of
		 * the stores this one had to wait for (a DMB between, or
		 * the same bytes): what let it drain. */
		ch = chan_of(b, s.addr);
		xs_access(b->m->sched, XLOC(XLOC_SBQ, ch < 0 ? 0 : ch), XA_W);
		xs_access(b->m->sched, XLOC(XLOC_SBDRAIN, ch < 0 ? 0 : ch), XA_W);
		for (uint64_t m = b->quiet && !b->m->coarse ? 0 : s.after; m;
		     m &= m - 1)
			xs_access(b->m->sched,
				  XLOC(XLOC_SBDRAIN, __builtin_ctzll(m)), XA_R);
		/* (a drain no CPU observes waits in no step's name: it drains
		 * in the step that made it drainable, whichever that is) */
		need_access(b, ch, s.cidx, b->quiet ? XA_W : XA_R | XA_W);
		for (size_t i = 0; i < s.need_n && !b->quiet; i++) {
			uint32_t e = b->need[s.need_off + i];

			need_access(b, (int)(e >> 16), e & 0xffff, XA_R);
		}
	}
	/* the owner's copy has had it since the store */
	xm_store_visible(b->m, s.addr, s.size, s.val, s.wid, b->owner);
	xl_event(b->m->log, b->agent, EXEC_EV_DRAIN, s.addr, (uint64_t)s.wid);
}
