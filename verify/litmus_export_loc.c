/* A --litmus test's locations (litmus_export_int.h): their values and
 * the plan steps that store them. */
#include "verify/litmus_export_int.h"

#include "executor/exec.h"

/* The value a freed location reads: the executor's poison (xm_poison:
 * POISON_FREE over data, include/linux/poison.h; zero words over text,
 * UDF #0). */
uint64_t lx_poison(int insn)
{
	return insn ? 0 : 0x6b6b6b6b6b6b6b6bull;
}

int lx_add_val(struct lx_loc *l, uint64_t v)
{
	for (int i = 0; i < l->nval; i++)
		if (l->val[i] == v)
			return i;
	if (l->nval >= LX_VALS)
		return -1;
	l->val[l->nval] = v;
	return l->nval++;
}

uint64_t lx_part(const struct lx_loc *l, uint64_t v)
{
	return l->half == 1 ? v & 0xffffffffu : l->half == 2 ? v >> 32 : v;
}

/* 1 with *v the value step s stores to l (its part of it), else 0. */
int lx_step_value(const struct lx_loc *l, const struct plan_step *s, uint64_t *v)
{
	uint64_t base = l->half == 2 ? l->addr - 4 : l->addr;

	if ((s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) && s->addr == base) {
		*v = lx_part(l, s->op == PLAN_WRITE_INSN ? (uint32_t)s->new : s->new);
		return 1;
	}
	if (s->op == PLAN_FREE && l->addr >= s->addr && l->addr < s->addr + s->len) {
		*v = lx_part(l, lx_poison(l->insn));
		return 1;
	}
	return 0;
}

/* The first value of the location at addr: the executor's record of its
 * initial contents. */
uint64_t lx_first_value(struct ftv_exec *ex, uint64_t addr, uint64_t dflt)
{
	const struct exec_write *wr;

	for (int id = 0; (wr = exec_write_get(ex, id)); id++)
		if (wr->addr == addr && wr->plan < 0 && wr->cpu < 0)
			return wr->val;
	return dflt;
}
