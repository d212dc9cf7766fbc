/* A set of 8-byte granules (exec_gset.h). */
#include "executor/exec_gset.h"

#include <stdlib.h>
#include <string.h>

#define GRAIN(a) ((a) & ~7ULL)

static size_t slot_of(const struct xgset *g, uint64_t key)
{
	uint64_t h = key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17) & (g->cap - 1);
}

static size_t find(const struct xgset *g, uint64_t key)
{
	size_t i = slot_of(g, key);

	while (g->v[i] && g->v[i] != key)
		i = (i + 1) & (g->cap - 1);
	return i;
}

static int grow(struct xgset *g)
{
	struct xgset n = { NULL, 0, g->cap ? 2 * g->cap : 64 };

	n.v = calloc(n.cap, sizeof(*n.v));
	if (!n.v)
		return -1;
	for (size_t i = 0; i < g->cap; i++)
		if (g->v[i]) {
			n.v[find(&n, g->v[i])] = g->v[i];
			n.n++;
		}
	free(g->v);
	*g = n;
	return 0;
}

int xg_add(struct xgset *g, uint64_t addr)
{
	uint64_t key = GRAIN(addr) + 1;
	size_t i;

	if ((g->n + 1) * 2 > g->cap && grow(g))
		return -1;
	i = find(g, key);
	if (g->v[i])
		return 0;
	g->v[i] = key;
	g->n++;
	return 1;
}

int xg_has(const struct xgset *g, uint64_t addr)
{
	return g->cap && g->v[find(g, GRAIN(addr) + 1)] != 0;
}

int xg_any(const struct xgset *g, uint64_t addr, uint64_t len)
{
	if (!g->n || !len)
		return 0;
	for (uint64_t a = GRAIN(addr); a < addr + len; a += 8)
		if (xg_has(g, a))
			return 1;
	return 0;
}

void xg_clear(struct xgset *g)
{
	if (g->cap)
		memset(g->v, 0, g->cap * sizeof(*g->v));
	g->n = 0;
}

void xg_free(struct xgset *g)
{
	free(g->v);
	memset(g, 0, sizeof(*g));
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t xg_common(const struct xgset *a, const struct xgset *b, uint64_t *out,
		 size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < a->cap; i++)
		if (a->v[i] && xg_has(b, a->v[i] - 1)) {
			if (n < max)
				out[n] = a->v[i] - 1;
			n++;
		}
	qsort(out, n < max ? n : max, sizeof(*out), cmp_u64);
	return n;
}
