/* The snapshot of memory and registers that exec_reset puts back
 * (exec_snap.h).
 *
 * The snapshot keeps only the pages that hold something (see
 * exec_pages.c): copying whole regions, most of them never written, cost
 * seconds and hundreds of MiB per world.
 *
 * A reset puts back the pages written since the snapshot or the last
 * reset. Which those are is told by write protection (exec_dirty.h): from
 * the snapshot on, every region's memory and every CPU's private copy of
 * it is tracked, and a reset looks at the pages on their lists alone. If
 * a buffer cannot be tracked, no buffer is, and a reset finds the pages by
 * asking the kernel which pages of every region are populated (mincore or
 * pagemap, exec_pages.c) and comparing them: the same pages put back, at
 * the cost of a walk of every region's page tables (issue 31's profile:
 * 44% of an ftv verify). */
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "executor/exec_dirty.h"
#include "executor/exec_snap.h"
#include "executor/exec_pages.h"

static const uint8_t zero_page[XPG_SIZE];

/* --- tracking ------------------------------------------------------------ */

/* Buffer k of the tracked ones: region i's memory (k = i), or CPU c's
 * copy of it (k = (c + 1) * nregions + i). */
static struct xdirty *tracked(struct xengine *e, unsigned c, size_t i)
{
	return &e->dirty[(c + 1) * e->nregions + i];
}

void xe_dirty_stop(struct xengine *e)
{
	size_t n = (e->ncpus + 1) * e->nregions;

	for (size_t k = 0; e->dirty && k < n; k++)
		xdt_untrack(&e->dirty[k]);
	free(e->dirty);
	e->dirty = NULL;
}

/* Tracks every region and private copy; none if one cannot be. */
static void dirty_start(struct xengine *e)
{
	xe_dirty_stop(e);
	e->dirty = calloc((e->ncpus + 1) * (e->nregions ? e->nregions : 1),
			  sizeof(*e->dirty));
	for (size_t i = 0; e->dirty && i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);

		if (xdt_track(&e->dirty[i], r->host, r->size))
			goto off;
		for (unsigned c = 0; c < e->ncpus; c++)
			if (e->cpu[c].copy[i] &&
			    xdt_track(tracked(e, c, i), e->cpu[c].copy[i], r->size))
				goto off;
	}
	return;
off:
	xe_dirty_stop(e);
}

/* --- snapshot ------------------------------------------------------------ */

void xe_snapshot_free(struct xengine *e)
{
	xe_dirty_stop(e);
	free(e->lazy);
	e->lazy = NULL;
	e->nlazy = 0;
	for (size_t i = 0; e->snap && i < e->nregions; i++)
		xpg_free(e->snap[i], e->rsize[i]);
	for (size_t i = 0; e->snap_nz && i < e->nregions; i++)
		free(e->snap_nz[i]);
	free(e->snap);
	free(e->snap_nz);
	e->snap = NULL;
	e->snap_nz = NULL;
}

int xe_snapshot(struct xengine *e, struct ftv_err *err)
{
	size_t n = e->nregions ? e->nregions : 1;

	/* A reset would put pages back by comparing and zeroing them, and a
	 * zeroed page of a copy-on-write mapping given back (exec_pages.c)
	 * would read the shared copy again. */
	if (e->shared_copies)
		return ftv_errf(err, "an executor that runs once takes no snapshot");

	if (e->snap) {
		/* Taken again: what the CPUs hold now is what a reset
		 * restores. */
		xe_snapshot_free(e);
		for (unsigned c = 0; c < e->ncpus; c++)
			for (int r = 0; r < e->arch->nregs; r++)
				if (r != e->arch->zero_reg)
					uc_reg_read(e->cpu[c].uc,
						    e->arch->regs[r],
						    &e->cpu[c].init[r]);
	}
	e->snap = calloc(n, sizeof(*e->snap));
	e->snap_nz = calloc(n, sizeof(*e->snap_nz));
	if (!e->snap || !e->snap_nz)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);

		e->snap[i] = xpg_alloc(r->size);
		e->snap_nz[i] = malloc(r->size / XPG_SIZE);
		if (!e->snap[i] || !e->snap_nz[i])
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, e->snap_nz[i]);
		xpg_copy_nonzero(e->snap[i], r->host, r->size,
				 e->snap_nz[i]);
	}
	dirty_start(e);
	return 0;
}

int xe_has_snapshot(const struct xengine *e)
{
	return e->snap != NULL;
}

/* --- reset --------------------------------------------------------------- */

/* Page pg of region i as the snapshot has it. */
static const uint8_t *snap_page(const struct xengine *e, size_t i, uint64_t pg)
{
	return e->snap_nz[i][pg] ? e->snap[i] + pg * XPG_SIZE : zero_page;
}

const uint8_t *xe_snap_page(const struct xengine *e, size_t i, uint64_t pg)
{
	return snap_page(e, i, pg);
}

/* addr is one of the words a reset leaves (xe_lazy_words). */
static int lazy(const struct xengine *e, uint64_t addr)
{
	size_t lo = 0, hi = e->nlazy;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (e->lazy[mid] == addr)
			return 1;
		if (e->lazy[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* Page pg of CPU c's copy of region i back to the snapshot: only the
 * words that changed, and only their translations dropped (never a whole
 * cache); not the lazy words (xe_lazy_words). */
static void restore_copy_page(struct xengine *e, unsigned c, size_t i,
			      uint64_t pg)
{
	uint8_t *cp = e->cpu[c].copy[i] + pg * XPG_SIZE;
	const uint8_t *s = snap_page(e, i, pg);
	uint64_t at = e->rbase[i] + pg * XPG_SIZE;

	/* most pages are as they were: one compare */
	if (!memcmp(cp, s, XPG_SIZE))
		return;
	for (uint64_t o = 0; o < XPG_SIZE; o += 8) {
		uint64_t now, was;

		/* eight bytes at a time: a changed page holds a few changed
		 * words among hundreds */
		memcpy(&now, cp + o, 8);
		memcpy(&was, s + o, 8);
		if (now == was)
			continue;
		for (uint64_t h = o; h < o + 8; h += 4) {
			if (!memcmp(cp + h, s + h, 4) ||
			    (e->nlazy && lazy(e, at + h)))
				continue;
			memcpy(cp + h, s + h, 4);
			xe_invalidate(e, c, at + h, 4);
		}
	}
}

int xe_lazy_word(const struct xengine *e, uint64_t addr)
{
	return e->nlazy && lazy(e, addr);
}

int xe_lazy_words(struct xengine *e, const uint64_t *addrs, size_t n)
{
	/* The words left before, put back: a page whose word was left may
	 * be off its dirty list by now (xdt_rearm), and an exact reset
	 * would not look at it again. */
	for (size_t k = 0; e->snap && k < e->nlazy; k++) {
		uint64_t a = e->lazy[k];
		int ri = xe_region(e, a);
		const uint8_t *s;

		if (ri < 0 || a + 4 > e->rbase[ri] + e->rsize[ri])
			continue;
		s = snap_page(e, (size_t)ri, (a - e->rbase[ri]) / XPG_SIZE) +
		    (a - e->rbase[ri]) % XPG_SIZE;
		for (unsigned c = 0; c < e->ncpus; c++) {
			uint8_t *cp = e->cpu[c].copy[ri];

			if (!cp || !memcmp(cp + (a - e->rbase[ri]), s, 4))
				continue;
			memcpy(cp + (a - e->rbase[ri]), s, 4);
			xe_invalidate(e, c, a, 4);
		}
	}
	free(e->lazy);
	e->lazy = NULL;
	e->nlazy = 0;
	if (!n)
		return 0;
	e->lazy = malloc(n * sizeof(*addrs));
	if (!e->lazy)
		return -1;
	memcpy(e->lazy, addrs, n * sizeof(*addrs));
	e->nlazy = n;
	return 0;
}

/* The tracked reset: the pages on the lists. -1 if a buffer could not be
 * made read-only again (tracking is then off, and the caller resets by
 * the page tables). */
static int reset_tracked(struct xengine *e)
{
	int ret = 0;

	for (size_t i = 0; i < e->nregions; i++) {
		struct xdirty *d = &e->dirty[i];

		for (uint64_t k = 0; k < d->nlist; k++) {
			uint64_t pg = d->list[k];

			memcpy(sim_region_get(e->as, i)->host + pg * XPG_SIZE,
			       snap_page(e, i, pg), XPG_SIZE);
		}
		if (xdt_rearm(d))
			ret = -1;
		for (unsigned c = 0; c < e->ncpus; c++) {
			struct xdirty *t = tracked(e, c, i);

			if (!e->cpu[c].copy[i])
				continue;
			for (uint64_t k = 0; k < t->nlist; k++)
				restore_copy_page(e, c, i, t->list[k]);
			if (xdt_rearm(t))
				ret = -1;
		}
	}
	if (ret)
		xe_dirty_stop(e);
	return ret;
}

/* Puts back the pages of buf that may differ from the snapshot: those that
 * held something then (snap_nz) or hold something now (nz). */
static void restore_pages(uint8_t *buf, const uint8_t *snap,
			  const uint8_t *snap_nz, const uint8_t *nz,
			  uint64_t size)
{
	uint64_t n = size / XPG_SIZE;

	for (uint64_t p = xpg_next(snap_nz, nz, 0, n); p < n;
	     p = xpg_next(snap_nz, nz, p + 1, n)) {
		uint64_t off = p * XPG_SIZE;

		if (snap_nz[p])
			memcpy(buf + off, snap + off, XPG_SIZE);
		else if (nz[p])
			memset(buf + off, 0, XPG_SIZE);
	}
}

/* The untracked reset: every page populated now or in the snapshot. */
static int reset_scan(struct xengine *e, struct ftv_err *err)
{
	uint8_t *nz = NULL;

	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);
		const uint8_t *snz = e->snap_nz[i];
		uint64_t n = r->size / XPG_SIZE;

		free(nz);
		nz = malloc(n);
		if (!nz)
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, nz);
		restore_pages(r->host, e->snap[i], snz, nz, r->size);
		for (unsigned c = 0; c < e->ncpus; c++) {
			uint8_t *cp = e->cpu[c].copy[i];

			if (!cp)
				continue;
			/* Pages all zero in both the copy and the snapshot
			 * have nothing to put back. */
			xpg_nonzero(cp, r->size, nz);
			for (uint64_t pg = xpg_next(snz, nz, 0, n); pg < n;
			     pg = xpg_next(snz, nz, pg + 1, n))
				restore_copy_page(e, c, i, pg);
		}
	}
	free(nz);
	return 0;
}

int xe_reset(struct xengine *e, struct ftv_err *err)
{
	if ((!e->dirty || reset_tracked(e)) && reset_scan(e, err))
		return -1;
	for (unsigned i = 0; i < e->ncpus; i++) {
		struct xecpu *c = &e->cpu[i];

		for (int r = 0; r < e->arch->nregs; r++)
			if (r != e->arch->zero_reg)
				uc_reg_write(c->uc, e->arch->regs[r],
					     &c->init[r]);
		if (e->arch->flags_reg >= 0) {
			uint64_t z = 0;

			uc_reg_write(c->uc, e->arch->flags_reg, &z);
		}
		c->fault_ok = 0;
		c->rval_ok = 0;
	}
	return 0;
}
