/* Growable arrays: one helper instead of a realloc loop per array.
 *
 *   struct item *v = NULL; size_t n = 0, cap = 0;
 *   if (VEC_RESERVE(v, cap, n + 1)) return ftv_errf(err, "out of memory");
 *   v[n++] = it;
 *
 * Capacity doubles (from 16); new slots are zeroed, so a caller may grow
 * first and fill in later. On failure the array and its capacity are left as
 * they were. */
#ifndef FTV_UTIL_VEC_H
#define FTV_UTIL_VEC_H

#include <stddef.h>

/* Makes *p hold at least `need` elements of `elem` bytes; *cap is its
 * current capacity in elements. Returns 0, or -1 when out of memory (or
 * when need * elem overflows). */
int vec_reserve(void **p, size_t *cap, size_t need, size_t elem);

#define VEC_RESERVE(arr, cap, need)                                            \
	vec_reserve((void **)&(arr), &(cap), (need), sizeof(*(arr)))

/* Appends *x (an lvalue of the element type): 0, or -1 out of memory. */
#define VEC_PUSH(arr, n, cap, x)                                               \
	(VEC_RESERVE(arr, cap, (n) + 1) ? -1 : ((arr)[(n)++] = (x), 0))

#endif
