/* The hash of a run's state and the set of states met (exec_state.h). */
#include "executor/exec_state.h"

#include <stdlib.h>
#include <string.h>

#include "executor/exec_dirty.h"
#include "executor/exec_int.h"
#include "executor/exec_pages.h"

/* --- the set ------------------------------------------------------------- */

static size_t slot_of(const uint64_t h[2], size_t cap)
{
	return (size_t)(h[0] ^ (h[1] >> 7)) & (cap - 1);
}

static void put(uint64_t *v, size_t cap, const uint64_t h[2])
{
	size_t i = slot_of(h, cap);

	while (v[2 * i] | v[2 * i + 1])
		i = (i + 1) & (cap - 1);
	v[2 * i] = h[0];
	v[2 * i + 1] = h[1];
}

static int grow(struct xvisited *s)
{
	size_t cap = s->cap ? s->cap * 2 : 4096;
	uint64_t *v;

	if (s->max_bytes && cap * 16 > s->max_bytes) {
		s->full = 1;
		return 1;
	}
	v = calloc(cap, 16);
	if (!v)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->v[2 * i] | s->v[2 * i + 1])
			put(v, cap, &s->v[2 * i]);
	free(s->v);
	s->v = v;
	s->cap = cap;
	return 0;
}

int xv_add(struct xvisited *s, const uint64_t h0[2])
{
	uint64_t h[2] = { h0[0], h0[1] };
	size_t i;

	if (!(h[0] | h[1]))
		h[1] = 1;
	if (s->cap) {
		for (i = slot_of(h, s->cap); s->v[2 * i] | s->v[2 * i + 1];
		     i = (i + 1) & (s->cap - 1))
			if (s->v[2 * i] == h[0] && s->v[2 * i + 1] == h[1])
				return 0;
	}
	if (s->full)
		return 2;
	/* at most half full */
	if (2 * (s->n + 1) > s->cap) {
		int g = grow(s);

		if (g)
			return g < 0 ? -1 : 2;
	}
	put(s->v, s->cap, h);
	s->n++;
	return 1;
}

void xv_clear(struct xvisited *s)
{
	if (s->v)
		memset(s->v, 0, s->cap * 16);
	s->n = 0;
	s->full = 0;
}

void xv_free(struct xvisited *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

/* --- the hash ------------------------------------------------------------ */

struct xh {
	uint64_t a, b;
};

static inline uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static inline void mix(struct xh *h, uint64_t w)
{
	h->a = rotl((h->a ^ w) * 0x9e3779b97f4a7c15ULL, 29);
	h->b = rotl((h->b + w) * 0xc2b2ae3d27d4eb4fULL, 31) ^ h->a;
}

/* Under symmetry (exec_sym.h, y not NULL) the state hashed is T_pi of
 * the state: CPUs named and ordered by their canonical positions, values
 * and pages of the CPUs' private ranges moved. */
static inline uint64_t RV(const struct xsym *y, uint64_t v)
{
	return y ? xsym_reloc(y, v) : v;
}

/* The CPU at canonical position j; CPU c's position (-1: none). */
static inline unsigned AT(const struct xsym *y, unsigned j)
{
	return y ? y->pinv[j] : j;
}

static inline int POS(const struct xsym *y, int c)
{
	return y && c >= 0 && (unsigned)c < y->n ? y->pi[c] : c;
}

/* A write by what it is, not by its id (exec_state.h). */
static void mix_write(struct xh *h, const struct xlog *l, int wid,
		      const struct xsym *y)
{
	const struct exec_write *w;

	if (wid < 0 || (size_t)wid >= l->nwr) {
		mix(h, ~0ULL);
		return;
	}
	w = &l->wr[wid];
	mix(h, RV(y, w->addr));
	mix(h, RV(y, w->val));
	mix(h, (uint64_t)w->size << 32 | (uint32_t)POS(y, w->cpu));
	mix(h, (uint64_t)(uint32_t)w->plan << 32 | (uint32_t)w->step);
}

static void mix_sbuf(struct xh *h, const struct xlog *l, const struct xsbuf *b,
		     const struct xsym *y)
{
	mix(h, b->n);
	mix(h, b->epoch);
	mix(h, b->ngate);
	for (size_t i = 0; i < b->n; i++) {
		const struct xstore *s = &b->v[i];

		mix(h, RV(y, s->addr));
		mix(h, RV(y, s->val));
		mix(h, (uint64_t)s->size << 32 | (uint32_t)s->gates);
		mix(h, s->epoch);
		mix(h, s->after);
		mix_write(h, l, s->wid, y);
	}
}

static void mix_model(struct xh *h, const struct xmodel *m, const struct xlog *l,
		      const struct xsym *y)
{
	for (size_t i = 0; i < m->nwi; i++) {
		const struct winsn *w = m->wi[i];

		mix(h, w->ncoh);
		for (size_t k = 0; k < w->ncoh; k++) {
			mix_write(h, l, w->coh[k].wid, y);
			mix(h, w->coh[k].icseq);
			mix(h, w->coh[k].vseq);
		}
		mix(h, w->pou);
		mix(h, w->ic);
		mix(h, w->returned);
		for (unsigned j = 0; j < m->ncpus; j++) {
			unsigned c = AT(y, j);

			mix(h, w->floor[c]);
			mix(h, (uint64_t)(uint32_t)w->last[c] << 32 |
				       (uint32_t)w->view_ok[c]);
			mix(h, w->view_ok[c] ? w->view[c] : 0);
			mix(h, w->dread[c]);
		}
	}
	for (size_t i = 0; i < m->nwd; i++) {
		const struct wdata *d = m->wd[i];

		mix_write(h, l, d->wid[0], y);
		mix_write(h, l, d->wid[1], y);
		mix(h, d->nw);
		for (size_t k = 0; k < d->nw; k++)
			mix_write(h, l, d->wids[k], y);
	}
	for (unsigned j = 0; j < m->ncpus; j++) {
		const struct xmcpu *p = &m->cpu[AT(y, j)];

		mix(h, p->pend.n);
		for (size_t k = 0; k < p->pend.n; k++) {
			mix(h, RV(y, p->pend.v[k].addr));
			mix(h, p->pend.v[k].idx);
			mix(h, (uint64_t)p->pend.v[k].own << 2 |
				       (uint64_t)p->pend.v[k].ic << 1 |
				       (uint64_t)p->pend.v[k].dmb_done);
		}
		mix_write(h, l, p->last_fetch_wid, y);
		mix(h, p->ic_applied);
		mix(h, p->barrier_vseq);
		mix(h, p->dsb_vseq);
		mix(h, p->load_vseq);
		mix(h, (uint64_t)p->dc_dep);
		mix(h, p->fetch_vseq);
		mix(h, p->ctrl_icev);
		mix(h, p->ic_vseq);
		mix(h, p->rd_vseq);
	}
	mix(h, m->nicev);
	for (size_t k = 0; k < m->nicev; k++) {
		mix(h, m->icev[k].w->id);
		mix(h, m->icev[k].idx);
	}
	mix(h, m->vseq);
}

/* The 64-byte blocks of a page that differ from the snapshot's, as a
 * mask (XPG_SIZE is 64 blocks). On x86-64 AVX2 where the processor has
 * it, else SSE2 (its baseline); elsewhere memcmp. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
__attribute__((target("avx2"))) static uint64_t blocks_avx2(const uint8_t *p,
							   const uint8_t *s)
{
	uint64_t m = 0;

	for (unsigned b = 0; b < XPG_SIZE / 64; b++) {
		const __m256i *x = (const __m256i *)(p + 64 * b);
		const __m256i *y = (const __m256i *)(s + 64 * b);
		__m256i e = _mm256_and_si256(
			_mm256_cmpeq_epi8(_mm256_loadu_si256(x), _mm256_loadu_si256(y)),
			_mm256_cmpeq_epi8(_mm256_loadu_si256(x + 1),
					  _mm256_loadu_si256(y + 1)));

		m |= (uint64_t)((uint32_t)_mm256_movemask_epi8(e) != 0xffffffffu) << b;
	}
	return m;
}

static uint64_t blocks_sse2(const uint8_t *p, const uint8_t *s)
{
	uint64_t m = 0;

	for (unsigned b = 0; b < XPG_SIZE / 64; b++) {
		const __m128i *x = (const __m128i *)(p + 64 * b);
		const __m128i *y = (const __m128i *)(s + 64 * b);
		__m128i e = _mm_and_si128(
			_mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(x), _mm_loadu_si128(y)),
				      _mm_cmpeq_epi8(_mm_loadu_si128(x + 1),
						     _mm_loadu_si128(y + 1))),
			_mm_and_si128(_mm_cmpeq_epi8(_mm_loadu_si128(x + 2),
						     _mm_loadu_si128(y + 2)),
				      _mm_cmpeq_epi8(_mm_loadu_si128(x + 3),
						     _mm_loadu_si128(y + 3))));

		m |= (uint64_t)(_mm_movemask_epi8(e) != 0xffff) << b;
	}
	return m;
}

static uint64_t differing_blocks(const uint8_t *p, const uint8_t *s)
{
	static int avx2 = -1;

	if (avx2 < 0)
		avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
	return avx2 ? blocks_avx2(p, s) : blocks_sse2(p, s);
}
#else
static uint64_t differing_blocks(const uint8_t *p, const uint8_t *s)
{
	uint64_t m = 0;

	for (unsigned b = 0; b < XPG_SIZE / 64; b++)
		m |= (uint64_t)(memcmp(p + 64 * b, s + 64 * b, 64) != 0) << b;
	return m;
}
#endif

/* Page pg of buffer buf (region i, copy k: 0 shared, c + 1 CPU c's), if
 * it differs from the snapshot: added to the sum (the dirty lists keep
 * pages in the order of their first store, which differs between
 * schedules; a sum does not). The page is compared 64 bytes at a time
 * in one branch-free pass, then only the blocks that differ are read
 * word by word (a page holds a few locations a test changed; issue 31:
 * the compare was most of the hash, half of it a second pass over a
 * page memcmp had found different). */
static void mix_page(struct xh *sum, const struct xengine *e, size_t i,
		     unsigned k, const uint8_t *buf, uint64_t pg,
		     const struct xsym *y)
{
	static const uint8_t zero[XPG_SIZE];
	const uint8_t *p = buf + pg * XPG_SIZE;
	const uint8_t *s = e->snap_nz[i][pg] ? e->snap[i] + pg * XPG_SIZE
					     : zero;
	struct xh h = { 0x243f6a8885a308d3ULL, 0x13198a2e03707344ULL };
	uint64_t w, was;
	uint64_t m = differing_blocks(p, s);

	if (!m)
		return;
	/* (under symmetry: CPU k - 1's copy, a page of a CPU's range, as
	 * T_pi moves them; a word's offset in its page does not move) */
	mix(&h, (uint64_t)i << 40 | (uint64_t)(k ? (unsigned)POS(y, (int)k - 1) + 1 : 0) << 32);
	mix(&h, y ? xsym_page(y, i, pg) : pg);
	/* the words that differ from the snapshot, with their offsets, in
	 * address order */
	for (; m; m &= m - 1) {
		uint64_t c = 64 * (uint64_t)__builtin_ctzll(m);

		for (uint64_t o = c; o < c + 64; o += 8) {
			memcpy(&w, p + o, 8);
			memcpy(&was, s + o, 8);
			if (w == was)
				continue;
			mix(&h, o);
			mix(&h, RV(y, w));
		}
	}
	sum->a += h.a;
	sum->b += h.b;
}

static void mix_memory(struct xh *h, struct ftv_exec *ex, const struct xsym *y)
{
	const struct xengine *e = &ex->eng;
	struct xh sum = { 0, 0 };

	for (size_t i = 0; i < e->nregions; i++) {
		const uint8_t *host = sim_region_get(e->as, i)->host;
		uint64_t np = e->rsize[i] / XPG_SIZE;

		for (unsigned k = 0; k <= e->ncpus; k++) {
			const uint8_t *buf = k ? e->cpu[k - 1].copy[i] : host;
			const struct xdirty *d;

			if (!buf)
				continue;
			d = e->dirty ? &e->dirty[(size_t)k * e->nregions + i]
				     : NULL;
			if (d && d->on) {
				for (uint64_t n = 0; n < d->nlist; n++)
					mix_page(&sum, e, i, k, buf, d->list[n], y);
			} else {
				for (uint64_t pg = 0; pg < np; pg++)
					mix_page(&sum, e, i, k, buf, pg, y);
			}
		}
	}
	mix(h, sum.a);
	mix(h, sum.b);
}

int xst_prunable(const struct ftv_exec *ex)
{
	if (ex->plans.n || ex->cfg.drain_hold || ex->model.arch_ctx ||
	    !ex->eng.snap)
		return 0;
	for (size_t i = 0; i < ex->sp.n; i++)
		if (ex->sp.v[i].nbrk)
			return 0;
	return 1;
}

void xst_hash_sym(struct ftv_exec *ex, const struct xsym *y, uint64_t out[2])
{
	struct xh h = { 0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL };
	const struct xarch *a = ex->arch;

	for (unsigned j = 0; j < ex->cfg.ncpus; j++) {
		unsigned c = AT(y, j);
		const struct xcpu *p = &ex->cpu[c];
		const uint64_t *rv = xe_regs(&ex->eng, c);

		mix(&h, (uint64_t)p->st << 8 | (uint64_t)p->armed << 1 |
				(uint64_t)p->stopped_in_hook);
		mix(&h, p->armed ? RV(y, p->armed_pc) : 0);
		mix(&h, p->nfaults);
		for (size_t k = 0; k < p->nfaults; k++)
			mix(&h, RV(y, p->faults[k]));
		/* the registers, then the flags */
		for (int r = 0; r <= a->nregs; r++)
			mix(&h, RV(y, rv[r]));
		mix_sbuf(&h, &ex->log, &ex->csb[c], y);
	}
	mix_sbuf(&h, &ex->log, &ex->sb, y);
	mix_model(&h, &ex->model, &ex->log, y);
	mix_memory(&h, ex, y);
	out[0] = h.a;
	out[1] = h.b;
}

void xst_hash(struct ftv_exec *ex, uint64_t out[2])
{
	xst_hash_sym(ex, NULL, out);
}

void xst_hash_words(const uint64_t *w, size_t n, uint64_t out[2])
{
	struct xh h = { 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL };

	for (size_t i = 0; i < n; i++)
		mix(&h, w[i]);
	out[0] = h.a;
	out[1] = h.b;
}
