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
}

void xb_reset(struct xsbuf *b)
{
	b->n = 0;
	b->epoch = 0;
}

void xb_push(struct xsbuf *b, uint64_t addr, unsigned size, uint64_t val,
	     int wid)
{
	struct xstore s = { addr, size, val, wid, b->epoch };

	if (VEC_PUSH(b->v, b->n, b->cap, s))
		*b->m->oom = 1;
}

void xb_barrier(struct xsbuf *b)
{
	b->epoch++;
}

static int overlaps(uint64_t a, uint64_t al, uint64_t b, uint64_t bl)
{
	return a < b + bl && b < a + al;
}

int xb_holds(const struct xsbuf *b, uint64_t addr, uint64_t len)
{
	for (size_t i = 0; i < b->n; i++)
		if (overlaps(b->v[i].addr, b->v[i].size, addr, len))
			return 1;
	return 0;
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

void xb_drain(struct xsbuf *b)
{
	unsigned cand[64], nc = 0, k;
	uint64_t minep = UINT64_MAX;
	struct xstore s;

	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].epoch < minep)
			minep = b->v[i].epoch;
	/* Stores not separated by a DMB may become visible in any order,
	 * except that stores to the same location stay in program order
	 * (coherence). */
	for (size_t i = 0; i < b->n && nc < 64; i++) {
		int blocked = b->v[i].epoch != minep;

		for (size_t j = 0; j < i && !blocked; j++)
			blocked = overlaps(b->v[j].addr, b->v[j].size,
					   b->v[i].addr, b->v[i].size);
		if (!blocked)
			cand[nc++] = (unsigned)i;
	}
	k = cand[xs_choose(b->m->sched, XCH_DRAIN, nc)];
	s = b->v[k];
	memmove(&b->v[k], &b->v[k + 1], (b->n - k - 1) * sizeof(s));
	b->n--;
	/* the owner's copy has had it since the store */
	xm_store_visible(b->m, s.addr, s.size, s.val, s.wid, b->owner);
	xl_event(b->m->log, b->agent, EXEC_EV_DRAIN, s.addr, (uint64_t)s.wid);
}
