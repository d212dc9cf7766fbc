/* A set of 8-byte granules of memory (exec_gset.c): open addressing on
 * the granule's address, for exec_verify's record of the data the CPUs
 * read and the patcher writes (exec_model.h: xmodel.rd, xmodel.stw). */
#ifndef FTV_EXECUTOR_EXEC_GSET_H
#define FTV_EXECUTOR_EXEC_GSET_H

#include <stddef.h>
#include <stdint.h>

struct xgset {
	uint64_t *v;             /* granule address + 1; 0: empty slot */
	size_t n, cap;           /* cap: 0 or a power of two */
};

/* 1 if the granule of addr was added, 0 if it was there, -1: out of
 * memory. */
int xg_add(struct xgset *g, uint64_t addr);
int xg_has(const struct xgset *g, uint64_t addr);
/* Some granule of [addr, addr+len) is in g. */
int xg_any(const struct xgset *g, uint64_t addr, uint64_t len);
void xg_clear(struct xgset *g);
void xg_free(struct xgset *g);
/* The granules in both a and b, sorted, into out (at most max);
 * returns how many there are. */
size_t xg_common(const struct xgset *a, const struct xgset *b, uint64_t *out,
		 size_t max);

#endif
