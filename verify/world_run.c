/* The run state as one value (verify/world_run.h): copied, scribbled and
 * freed by walking WORLD_RUN_ARRAYS, nothing listed by hand. */
#include "verify/world_run.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* An array's memory: what a copy keeps of its destination. */
struct run_mem {
#define MEM(T, name) T *name; size_t cap##name;
	WORLD_RUN_ARRAYS(MEM)
#undef MEM
};

static void keep_mem(const struct world_run *r, struct run_mem *m)
{
#define KEEP(T, name) m->name = r->name; m->cap##name = r->cap##name;
	WORLD_RUN_ARRAYS(KEEP)
#undef KEEP
}

static void put_mem(struct world_run *r, const struct run_mem *m)
{
#define PUT(T, name) r->name = m->name; r->cap##name = m->cap##name;
	WORLD_RUN_ARRAYS(PUT)
#undef PUT
}

int world_run_copy(struct world_run *dst, const struct world_run *src)
{
	struct run_mem m;

	/* room first, so that a failure leaves dst's state as it was */
#define ROOM(T, name)                                                          \
	if (src->n##name > dst->cap##name &&                                   \
	    WORLD_RUN_RESERVE(dst, name, src->n##name))                        \
		return -1;
	WORLD_RUN_ARRAYS(ROOM)
#undef ROOM
	keep_mem(dst, &m);
	memcpy(dst, src, sizeof(*dst)); /* every byte, padding too */
	put_mem(dst, &m);
#define COPY(T, name)                                                          \
	if (src->n##name)                                                      \
		memcpy(dst->name, src->name, src->n##name * sizeof(T));
	WORLD_RUN_ARRAYS(COPY)
#undef COPY
	return 0;
}

void world_run_free(struct world_run *r)
{
#define FREE(T, name) free(r->name); r->name = NULL; r->n##name = r->cap##name = 0;
	WORLD_RUN_ARRAYS(FREE)
#undef FREE
}

void world_run_scribble(struct world_run *r, unsigned char byte)
{
	struct run_mem m;

	keep_mem(r, &m);
	memset(r, byte, sizeof(*r));
	put_mem(r, &m);
#define SCRIBBLE(T, name)                                                      \
	if (r->cap##name)                                                      \
		memset(r->name, byte, r->cap##name * sizeof(T));
	WORLD_RUN_ARRAYS(SCRIBBLE)
#undef SCRIBBLE
}

uint64_t world_run_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	if (!h)
		h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t world_run_hash(const struct world_run *r, uint64_t h)
{
	struct world_run *x = malloc(sizeof(*x));

	if (!x)
		return 0;
	memcpy(x, r, sizeof(*x));
#define FORGET(T, name) x->name = NULL; x->cap##name = 0;
	WORLD_RUN_ARRAYS(FORGET)
#undef FORGET
	h = world_run_fnv(h, x, sizeof(*x));
	free(x);
#define ELEMS(T, name) if (r->n##name) h = world_run_fnv(h, r->name, r->n##name * sizeof(T));
	WORLD_RUN_ARRAYS(ELEMS)
#undef ELEMS
	return h;
}
