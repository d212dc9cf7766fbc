/* Pages of private anonymous memory that hold anything, found without
 * faulting in the ones never populated (exec_pages.c). */
#ifndef FTV_EXECUTOR_EXEC_PAGES_H
#define FTV_EXECUTOR_EXEC_PAGES_H

#include <stdint.h>

#define XPG_SIZE 4096ULL

/* map[i] (len / XPG_SIZE bytes) = 1 when page i of [p, p+len) may hold a
 * non-zero byte, 0 when it is all zeros. */
void xpg_nonzero(const uint8_t *p, uint64_t len, uint8_t *map);
/* The first page index i in [from, n) with a[i] or b[i] (b may be NULL)
 * non-zero, or n: page maps of sparse regions are mostly zeros, looked at
 * eight pages at a time. */
uint64_t xpg_next(const uint8_t *a, const uint8_t *b, uint64_t from,
		  uint64_t n);
/* Zero-filled memory that costs nothing until written (mmap), or NULL. */
uint8_t *xpg_alloc(uint64_t len);
void xpg_free(uint8_t *p, uint64_t len);
/* Copies the pages of src that map marks into dst (the rest of dst stays
 * as it is: zero in a fresh xpg_alloc buffer). */
void xpg_copy_nonzero(uint8_t *dst, const uint8_t *src, uint64_t len,
		      const uint8_t *map);

#endif
