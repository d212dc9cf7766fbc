#include "patcher/plan.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

void plan_init(struct plan *p)
{
	memset(p, 0, sizeof(*p));
}

void plan_free(struct plan *p)
{
	free(p->steps);
	plan_init(p);
}

void plan_reset(struct plan *p)
{
	p->n = 0;
	p->visible_on_return = 0;
}

int plan_push(struct plan *p, const struct plan_step *s)
{
	return VEC_PUSH(p->steps, p->n, p->cap, *s);
}

int plan_append(struct plan *dst, const struct plan *src)
{
	if (!dst->n) {
		dst->agent = src->agent;
		dst->visible_on_return = src->visible_on_return;
	}
	for (size_t i = 0; i < src->n; i++)
		if (plan_push(dst, &src->steps[i]))
			return -1;
	return 0;
}

int plan_write_insn(struct plan *p, uint64_t addr, uint32_t old, uint32_t new,
		    int validate, int rec, const char *what)
{
	struct plan_step s = { .op = PLAN_WRITE_INSN, .addr = addr, .len = 4,
			       .old = old, .new = new, .validate = validate,
			       .rec = rec, .what = what };

	return plan_push(p, &s);
}

int plan_write_data64(struct plan *p, uint64_t addr, uint64_t old,
		      uint64_t new, int validate, int rec, const char *what)
{
	struct plan_step s = { .op = PLAN_WRITE_DATA64, .addr = addr, .len = 8,
			       .old = old, .new = new, .validate = validate,
			       .rec = rec, .what = what };

	return plan_push(p, &s);
}

int plan_cache_sync(struct plan *p, uint64_t addr, uint64_t len, int rec)
{
	struct plan_step s = { .addr = addr, .len = len, .rec = rec };

	s.op = PLAN_CACHE_CLEAN;
	s.what = "dc cvau";
	if (plan_push(p, &s))
		return -1;
	if (plan_simple(p, PLAN_DSB, rec, "dsb ish"))
		return -1;
	s.op = PLAN_ICACHE_INVAL;
	s.what = "ic ivau";
	if (plan_push(p, &s))
		return -1;
	return plan_simple(p, PLAN_DSB, rec, "dsb ish");
}

int plan_simple(struct plan *p, enum plan_op op, int rec, const char *what)
{
	struct plan_step s = { .op = op, .rec = rec, .what = what };

	return plan_push(p, &s);
}

int plan_free_mem(struct plan *p, uint64_t addr, uint64_t len, int rec,
		  const char *what)
{
	struct plan_step s = { .op = PLAN_FREE, .addr = addr, .len = len,
			       .rec = rec, .what = what };

	return plan_push(p, &s);
}

const char *plan_op_name(enum plan_op op)
{
	static const char *const names[] = {
		[PLAN_WRITE_INSN] = "write-insn",
		[PLAN_WRITE_DATA64] = "write-data64",
		[PLAN_CACHE_CLEAN] = "dc-cvau",
		[PLAN_ICACHE_INVAL] = "ic-ivau",
		[PLAN_DSB] = "dsb",
		[PLAN_DMB] = "dmb",
		[PLAN_ISB] = "isb",
		[PLAN_SYNC_ALL] = "sync-all",
		[PLAN_QUIESCE] = "quiesce",
		[PLAN_FREE] = "free",
		[PLAN_STOP_MACHINE] = "stop-machine",
		[PLAN_RESUME_MACHINE] = "resume-machine",
		[PLAN_LOCK] = "lock",
		[PLAN_UNLOCK] = "unlock",
		[PLAN_MAP_WINDOW] = "map-window",
		[PLAN_UNMAP_WINDOW] = "unmap-window",
		[PLAN_STOP_REQUEST] = "stop-request",
		[PLAN_WAIT_ZERO] = "wait-zero",
		[PLAN_FAIL] = "fail",
	};

	return (unsigned)op < sizeof(names) / sizeof(names[0]) && names[op]
		       ? names[op] : "?";
}
