/* The states the reduced walk finished, with their summaries
 * (exec_dpor_state.h). */
#include "executor/exec_dpor_state.h"
#include "executor/exec_dpor.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* A finished state; h0 = h1 = 0: an empty slot. */
struct xdent {
	uint64_t h0, h1;
	uint32_t vdepth;
	uint32_t sum;            /* summary id */
	uint32_t sl_off;         /* sleep set in sl */
	uint32_t nsl;
	uint32_t perm;           /* the storing node's pi, packed (statistics) */
};

struct xdspan {
	size_t off;
	size_t len;
};

struct xdss {
	size_t max_bytes;
	int full;
	/* the states */
	struct xdent *t;
	size_t nt, capt;
	uint16_t *sl;
	size_t nsl, capsl;
	/* the summaries, hash-consed: id i is words sw[sv[i].off ..), id 0
	 * the empty one; sh: open addressing of id + 1 */
	uint64_t *sw;
	size_t nsw, capsw;
	struct xdspan *sv;
	size_t nsv, capsv;
	uint32_t *sh;
	size_t capsh;
	/* the dense numbering of (agent, loc, mode): key -> index + 1 */
	uint64_t *nk;
	uint32_t *ni;
	size_t capn;
	uint64_t *keys;
	size_t nkeys, capkeys;
	/* a summary or sleep set mapped (xdmap) */
	struct xdsum msum;
	uint16_t *msl;
	size_t capmsl;
};

static uint64_t mixw(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ x >> 33;
}

static size_t bytes(const struct xdss *s)
{
	return s->capt * sizeof(*s->t) + s->capsl * 2 + s->capsw * 8 +
	       s->capsv * sizeof(*s->sv) + s->capsh * 4 + s->capn * 12 +
	       s->capkeys * 8;
}

struct xdss *xdss_new(size_t max_bytes)
{
	struct xdss *s = calloc(1, sizeof(*s));

	if (s)
		s->max_bytes = max_bytes;
	return s;
}

void xdss_clear(struct xdss *s)
{
	size_t mb = s->max_bytes;

	free(s->t);
	free(s->sl);
	free(s->sw);
	free(s->sv);
	free(s->sh);
	free(s->nk);
	free(s->ni);
	free(s->keys);
	free(s->msum.w);
	free(s->msl);
	memset(s, 0, sizeof(*s));
	s->max_bytes = mb;
}

void xdss_free(struct xdss *s)
{
	if (!s)
		return;
	xdss_clear(s);
	free(s);
}

size_t xdss_states(const struct xdss *s, int *full)
{
	if (full)
		*full = s->full;
	return s->nt;
}

/* --- the numbering --------------------------------------------------------- */

static int num_grow(struct xdss *s)
{
	size_t cap = s->capn ? 2 * s->capn : 1024;
	uint64_t *nk = calloc(cap, sizeof(*nk));
	uint32_t *ni = calloc(cap, sizeof(*ni));

	if (!nk || !ni) {
		free(nk);
		free(ni);
		return -1;
	}
	for (size_t i = 0; i < s->capn; i++) {
		size_t j;

		if (!s->ni[i])
			continue;
		for (j = mixw(s->nk[i]) & (cap - 1); ni[j]; j = (j + 1) & (cap - 1))
			;
		nk[j] = s->nk[i];
		ni[j] = s->ni[i];
	}
	free(s->nk);
	free(s->ni);
	s->nk = nk;
	s->ni = ni;
	s->capn = cap;
	return 0;
}

/* The index of key, numbered if new; -1 out of memory. */
static long number(struct xdss *s, uint64_t key)
{
	size_t j;

	if (2 * (s->nkeys + 1) > s->capn && num_grow(s))
		return -1;
	for (j = mixw(key) & (s->capn - 1); s->ni[j]; j = (j + 1) & (s->capn - 1))
		if (s->nk[j] == key)
			return (long)s->ni[j] - 1;
	if (VEC_PUSH(s->keys, s->nkeys, s->capkeys, key))
		return -1;
	s->nk[j] = key;
	s->ni[j] = (uint32_t)s->nkeys;
	return (long)s->nkeys - 1;
}

void xdss_key(const struct xdss *s, size_t i, unsigned *agent, uint32_t *loc,
	      unsigned *mode)
{
	uint64_t k = s->keys[i];

	*agent = (unsigned)(k >> 34);
	*loc = (uint32_t)(k >> 2);
	*mode = (unsigned)(k & 3);
}

static int set_bit(struct xdsum *sum, size_t i)
{
	size_t w = i / 64;

	if (w >= sum->n) {
		if (VEC_RESERVE(sum->w, sum->cap, w + 1))
			return -1;
		memset(sum->w + sum->n, 0, (w + 1 - sum->n) * 8);
		sum->n = w + 1;
	}
	sum->w[w] |= 1ULL << (i % 64);
	return 0;
}

int xdss_add_steps(struct xdss *s, struct xdsum *sum, unsigned agent,
		   const uint64_t *fp, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned m = 1; m <= 2; m++) {
			long k;

			if (!(fp[i] & m))
				continue;
			k = number(s, (uint64_t)agent << 34 | (fp[i] >> 2) << 2 | m);
			if (k < 0 || set_bit(sum, (size_t)k))
				return -1;
		}
	return 0;
}

int xdss_union(struct xdsum *sum, const struct xdsum *o)
{
	if (o->n > sum->n) {
		if (VEC_RESERVE(sum->w, sum->cap, o->n))
			return -1;
		memset(sum->w + sum->n, 0, (o->n - sum->n) * 8);
		sum->n = o->n;
	}
	for (size_t i = 0; i < o->n; i++)
		sum->w[i] |= o->w[i];
	return 0;
}

/* --- the summaries --------------------------------------------------------- */

static size_t trimmed(const uint64_t *w, size_t n)
{
	while (n && !w[n - 1])
		n--;
	return n;
}

static uint64_t sum_hash(const uint64_t *w, size_t n)
{
	uint64_t h = n;

	for (size_t i = 0; i < n; i++)
		h = mixw(h ^ w[i]) + i;
	return h;
}

static int sh_grow(struct xdss *s)
{
	size_t cap = s->capsh ? 2 * s->capsh : 1024;
	uint32_t *sh = calloc(cap, sizeof(*sh));

	if (!sh)
		return -1;
	for (size_t id = 1; id < s->nsv; id++) {
		size_t j = sum_hash(s->sw + s->sv[id].off, s->sv[id].len) & (cap - 1);

		while (sh[j])
			j = (j + 1) & (cap - 1);
		sh[j] = (uint32_t)id + 1;
	}
	free(s->sh);
	s->sh = sh;
	s->capsh = cap;
	return 0;
}

/* The id of sum's contents, interned if new; -1 out of memory. */
static long intern(struct xdss *s, const struct xdsum *sum)
{
	size_t n = trimmed(sum->w, sum->n), j;
	struct xdspan sp;

	if (!n)
		return 0;
	if (!s->nsv && VEC_PUSH(s->sv, s->nsv, s->capsv, ((struct xdspan){ 0, 0 })))
		return -1;
	if (2 * (s->nsv + 1) > s->capsh && sh_grow(s))
		return -1;
	for (j = sum_hash(sum->w, n) & (s->capsh - 1); s->sh[j];
	     j = (j + 1) & (s->capsh - 1)) {
		const struct xdspan *o = &s->sv[s->sh[j] - 1];

		if (o->len == n && !memcmp(s->sw + o->off, sum->w, n * 8))
			return (long)s->sh[j] - 1;
	}
	if (VEC_RESERVE(s->sw, s->capsw, s->nsw + n))
		return -1;
	memcpy(s->sw + s->nsw, sum->w, n * 8);
	sp = (struct xdspan){ s->nsw, n };
	s->nsw += n;
	if (VEC_PUSH(s->sv, s->nsv, s->capsv, sp))
		return -1;
	s->sh[j] = (uint32_t)s->nsv;
	return (long)s->nsv - 1;
}

/* --- relabelling (symmetry) ----------------------------------------------- */

static unsigned map_agent(const struct xdmap *m, unsigned a)
{
	return a < m->n ? m->a[a] : a;
}

/* A location that names a CPU (exec_dpor.h): that CPU relabelled. */
static uint32_t map_loc(const struct xdmap *m, uint32_t loc)
{
	uint32_t id = XLOC_ID(loc);

	switch (XLOC_KIND(loc)) {
	case XLOC_PROG:
		return XLOC(XLOC_PROG, map_agent(m, id));
	case XLOC_FLOOR:
		return XLOC(XLOC_FLOOR, id / 64 * 64 + map_agent(m, id % 64));
	case XLOC_QSWAIT:
		return XLOC(XLOC_QSWAIT, (id >> 6) << 6 | map_agent(m, id & 63));
	default:
		return loc;
	}
}

/* sum relabelled by m, in s->msum; NULL out of memory. */
static const struct xdsum *map_sum(struct xdss *s, const uint64_t *w, size_t n,
				   const struct xdmap *m)
{
	s->msum.n = 0;
	for (size_t i = 0; i < n; i++)
		for (uint64_t b = w[i]; b; b &= b - 1) {
			unsigned agent, mode;
			uint32_t loc;
			long k;

			xdss_key(s, i * 64 + (size_t)__builtin_ctzll(b), &agent, &loc, &mode);
			k = number(s, (uint64_t)map_agent(m, agent) << 34 |
					      (uint64_t)map_loc(m, loc) << 2 | mode);
			if (k < 0 || set_bit(&s->msum, (size_t)k))
				return NULL;
		}
	return &s->msum;
}

/* A sorted sleep list relabelled by m, sorted again, in s->msl. */
static const uint16_t *map_sleep(struct xdss *s, const uint16_t *sl, size_t n,
				 const struct xdmap *m)
{
	if (VEC_RESERVE(s->msl, s->capmsl, n + 1))
		return NULL;
	for (size_t i = 0; i < n; i++) {
		uint16_t x = (uint16_t)(map_agent(m, sl[i] >> 8) << 8 | (sl[i] & 0xff));
		size_t j = i;

		for (; j > 0 && s->msl[j - 1] > x; j--)
			s->msl[j] = s->msl[j - 1];
		s->msl[j] = x;
	}
	return s->msl;
}

static uint32_t pack(const struct xdmap *m)
{
	uint32_t p = 0;

	for (unsigned c = 0; m && c < m->n; c++)
		p |= (uint32_t)m->a[c] << (3 * c);
	return p;
}

/* The packed pi of the node whose canonical-to-own map is m. */
static uint32_t pack_inv(const struct xdmap *m)
{
	uint32_t p = 0;

	for (unsigned j = 0; m && j < m->n; j++)
		p |= (uint32_t)j << (3 * m->a[j]);
	return p;
}

/* --- the states ------------------------------------------------------------ */

static size_t slot(const struct xdss *s, uint64_t h0, uint64_t h1)
{
	size_t j = (size_t)(h0 ^ (h1 >> 7)) & (s->capt - 1);

	while ((s->t[j].h0 | s->t[j].h1) && (s->t[j].h0 != h0 || s->t[j].h1 != h1))
		j = (j + 1) & (s->capt - 1);
	return j;
}

static int t_grow(struct xdss *s)
{
	size_t cap = s->capt ? 2 * s->capt : 4096;
	struct xdent *t = calloc(cap, sizeof(*t)), *old = s->t;
	size_t oldcap = s->capt;

	if (!t)
		return -1;
	s->t = t;
	s->capt = cap;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].h0 | old[i].h1)
			s->t[slot(s, old[i].h0, old[i].h1)] = old[i];
	free(old);
	return 0;
}

/* Every element of a[0..na) is in b[0..nb) (both sorted). */
static int subset(const uint16_t *a, size_t na, const uint16_t *b, size_t nb)
{
	size_t j = 0;

	for (size_t i = 0; i < na; i++) {
		while (j < nb && b[j] < a[i])
			j++;
		if (j == nb || b[j] != a[i])
			return 0;
		j++;
	}
	return 1;
}

static void key_of(const uint64_t h[2], uint64_t *h0, uint64_t *h1)
{
	*h0 = h[0];
	*h1 = h[1];
	if (!(*h0 | *h1))
		*h1 = 1;
}

int xdss_lookup(struct xdss *s, const uint64_t h[2], uint32_t vdepth,
		const uint16_t *sl, size_t nsl, struct xdsum *out,
		const struct xdmap *m, int *moved)
{
	uint64_t h0, h1;
	const struct xdent *e;
	const struct xdspan *sp;
	const uint16_t *esl;
	const uint64_t *w;
	const struct xdmap *mid = m;
	size_t n;

	if (!s->nt)
		return 0;
	key_of(h, &h0, &h1);
	e = &s->t[slot(s, h0, h1)];
	if (!(e->h0 | e->h1) || e->vdepth > vdepth)
		return 0;
	/* the entry in the node's frame (exec_dpor_state.h) */
	if (m && m->ident)
		mid = m, m = NULL;
	esl = m ? map_sleep(s, s->sl + e->sl_off, e->nsl, m) : s->sl + e->sl_off;
	if (!esl || !subset(esl, e->nsl, sl, nsl))
		return 0;
	sp = e->sum ? &s->sv[e->sum] : NULL;
	w = sp ? s->sw + sp->off : NULL;
	n = sp ? sp->len : 0;
	if (m && n) {
		const struct xdsum *ms = map_sum(s, w, n, m);

		if (!ms)
			return 0;
		/* (s->sw may have moved: number() grows only the keys) */
		w = ms->w;
		n = ms->n;
	}
	out->n = 0;
	if (n) {
		if (VEC_RESERVE(out->w, out->cap, n))
			return 0;
		memcpy(out->w, w, n * 8);
		out->n = n;
	}
	if (moved)
		*moved = e->perm != pack_inv(mid);
	return 1;
}

void xdss_store(struct xdss *s, const uint64_t h[2], uint32_t vdepth,
		const uint16_t *sl, size_t nsl, const struct xdsum *sum,
		const struct xdmap *m)
{
	uint64_t h0, h1;
	struct xdent *e;
	uint32_t perm;
	long id;

	if (s->full)
		return;
	perm = pack(m);
	if (m && !m->ident) {
		/* kept in the canonical frame (exec_dpor_state.h) */
		sl = map_sleep(s, sl, nsl, m);
		sum = map_sum(s, sum->w, sum->n, m);
		if (!sl || !sum) {
			s->full = 1;
			return;
		}
	}
	if (s->max_bytes && bytes(s) + nsl * 2 + sum->n * 8 + 64 > s->max_bytes) {
		s->full = 1;
		return;
	}
	if (2 * (s->nt + 1) > s->capt) {
		/* (the grown table in place of this one) */
		size_t grown = (s->capt ? 2 * s->capt : 4096) * sizeof(*s->t);

		if (s->max_bytes &&
		    bytes(s) - s->capt * sizeof(*s->t) + grown > s->max_bytes) {
			s->full = 1;
			return;
		}
		if (t_grow(s)) {
			s->full = 1;
			return;
		}
	}
	key_of(h, &h0, &h1);
	e = &s->t[slot(s, h0, h1)];
	if (e->h0 | e->h1) {
		/* met again: keep the more general of the two (fewer
		 * visible steps; at as many, the smaller sleep set) */
		if (e->vdepth < vdepth ||
		    (e->vdepth == vdepth && !subset(sl, nsl, s->sl + e->sl_off, e->nsl)))
			return;
	}
	id = intern(s, sum);
	if (id < 0 || VEC_RESERVE(s->sl, s->capsl, s->nsl + nsl + 1)) {
		s->full = 1;
		return;
	}
	if (!(e->h0 | e->h1))
		s->nt++;
	memcpy(s->sl + s->nsl, sl, nsl * 2);
	*e = (struct xdent){ h0, h1, vdepth, (uint32_t)id, (uint32_t)s->nsl,
			     (uint32_t)nsl, perm };
	s->nsl += nsl;
}
