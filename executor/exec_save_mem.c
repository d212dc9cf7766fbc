/* The engines' part of a saved state (exec_save.h): the pages written
 * since the last reset, and the registers. Beside exec_snap.c, whose
 * reset this is with saved pages in place of the snapshot's. */
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "executor/exec_dirty.h"
#include "executor/exec_int.h"
#include "executor/exec_pages.h"
#include "executor/exec_save.h"
#include "executor/exec_snap.h"
#include "util/vec.h"

/* Buffer k (exec_save.h): region k % nregions, copy k / nregions (0:
 * the memory, c + 1: CPU c's). */
static uint8_t *buffer(struct xengine *e, size_t k)
{
	size_t i = k % e->nregions, c = k / e->nregions;

	return c ? e->cpu[c - 1].copy[i] : sim_region_get(e->as, i)->host;
}

int xsv_save_mem(struct ftv_exec *ex, struct xsave *s)
{
	struct xengine *e = &ex->eng;
	size_t nb = (size_t)(e->ncpus + 1) * e->nregions;

	s->npg = 0;
	for (size_t k = 0; k < nb; k++) {
		const struct xdirty *d = &e->dirty[k];
		const uint8_t *buf = buffer(e, k);

		if (!buf)
			continue;
		if (!d->on)
			return -1;
		for (uint64_t n = 0; n < d->nlist; n++) {
			size_t at = s->npg / 2;

			if (VEC_RESERVE(s->pg, s->cappg, s->npg + 2) ||
			    vec_reserve((void **)&s->data, &s->capdata,
					(at + 1) * XPG_SIZE, 1))
				return -1;
			s->pg[s->npg++] = k;
			s->pg[s->npg++] = d->list[n];
			memcpy(s->data + at * XPG_SIZE, buf + d->list[n] * XPG_SIZE,
			       XPG_SIZE);
		}
	}
	return 0;
}

/* Page pg of buffer k made what `want` holds: memory by a copy, a CPU's
 * copy word by word, each word changed losing its translations (as
 * exec_snap.c's restore_copy_page); not the words the resets leave
 * (xe_lazy_words: exec_save.c's io_model puts back those the saved run
 * wrote). */
static void put_page(struct xengine *e, size_t k, uint64_t pg, const uint8_t *want)
{
	size_t i = k % e->nregions;
	unsigned c = (unsigned)(k / e->nregions);
	uint8_t *p = buffer(e, k) + pg * XPG_SIZE;
	uint64_t at = e->rbase[i] + pg * XPG_SIZE;

	if (!memcmp(p, want, XPG_SIZE))
		return;
	if (!c) {
		memcpy(p, want, XPG_SIZE);
		return;
	}
	for (uint64_t o = 0; o < XPG_SIZE; o += 4) {
		uint64_t x, y;

		/* eight bytes at a time: a few words of a page differ */
		if (o % 8 == 0) {
			memcpy(&x, p + o, 8);
			memcpy(&y, want + o, 8);
			if (x == y) {
				o += 4;
				continue;
			}
		}
		if (!memcmp(p + o, want + o, 4) || xe_lazy_word(e, at + o))
			continue;
		memcpy(p + o, want + o, 4);
		xe_invalidate(e, c - 1, at + o, 4);
	}
}

/* Puts page pg of buffer k on its dirty list, as a store to it would. */
static void touch(struct xengine *e, struct xdirty *d, size_t k, uint64_t pg)
{
	volatile uint8_t *p = buffer(e, k) + pg * XPG_SIZE;

	if (!d->map[pg])
		p[0] = p[0];
}

int xsv_restore_mem(struct ftv_exec *ex, const struct xsave *s)
{
	struct xengine *e = &ex->eng;
	size_t nb = (size_t)(e->ncpus + 1) * e->nregions, j = 0;

	for (size_t k = 0; k < nb; k++) {
		struct xdirty *d = &e->dirty[k];
		size_t j0 = j;

		if (!buffer(e, k))
			continue;
		while (j < s->npg / 2 && s->pg[2 * j] == k)
			j++;
		/* the pages written since the reset that the save does not
		 * hold: the snapshot's */
		for (uint64_t n = 0; n < d->nlist; n++) {
			uint64_t pg = d->list[n];
			size_t q = j0;

			while (q < j && s->pg[2 * q + 1] != pg)
				q++;
			if (q == j)
				put_page(e, k, pg, xe_snap_page(e, k % e->nregions, pg));
		}
		/* the list as a reset leaves it (the pages kept writable),
		 * then the saved pages written: the list a replay of the
		 * saved run's prefix would have made (the state hash reads
		 * the pages on the lists, exec_state.c) */
		if (xdt_rearm(d))
			return -1;
		for (size_t q = j0; q < j; q++) {
			put_page(e, k, s->pg[2 * q + 1], s->data + q * XPG_SIZE);
			touch(e, d, k, s->pg[2 * q + 1]);
		}
	}
	return 0;
}

uint64_t xsv_memory_hash(struct ftv_exec *ex)
{
	struct xengine *e = &ex->eng;
	uint64_t h = 0xcbf29ce484222325ULL;

	/* every page that held something at the snapshot or was written
	 * since the last reset (the others are the snapshot's zeros), each
	 * word that differs from the snapshot, in address order */
	for (size_t k = 0; k < (size_t)(e->ncpus + 1) * e->nregions; k++) {
		size_t i = k % e->nregions;
		const uint8_t *buf = buffer(e, k);

		for (uint64_t pg = 0; buf && pg < e->rsize[i] / XPG_SIZE; pg++) {
			const uint8_t *p = buf + pg * XPG_SIZE, *sp = xe_snap_page(e, i, pg);

			if ((!e->snap_nz[i][pg] && !e->dirty[k].map[pg]) ||
			    !memcmp(p, sp, XPG_SIZE))
				continue;
			for (uint64_t o = 0; o < XPG_SIZE; o += 4) {
				uint32_t a, b;

				memcpy(&a, p + o, 4);
				memcpy(&b, sp + o, 4);
				if (a == b)
					continue;
				h = (h ^ (k << 40 ^ pg << 12 ^ o)) * 0x100000001b3ULL;
				h = (h ^ a) * 0x100000001b3ULL;
			}
		}
	}
	return h;
}

void xe_put_regs(struct xengine *e, unsigned cpu, const uint64_t *rv)
{
	struct xecpu *c = &e->cpu[cpu];

	for (int r = 0; r < e->arch->nregs; r++)
		if (r != e->arch->zero_reg)
			uc_reg_write(c->uc, e->arch->regs[r], &rv[r]);
	if (e->arch->flags_reg >= 0)
		uc_reg_write(c->uc, e->arch->flags_reg, &rv[e->arch->nregs]);
	c->fault_ok = 0;
	c->rval_ok = 0;
}
