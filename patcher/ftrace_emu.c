/* The ftrace model's memory in the emulated kernel: its allocator over a
 * sim region, and the plan steps every part of the core writes that memory
 * with (the ops, the list, the tables, function_trace_op). A leaf: the core
 * and the ops code both use it. */
#include "patcher/ftrace_internal.h"
#include "sim/aspace.h"

int emu_w64(struct plan *p, uint64_t addr, uint64_t val, const char *what)
{
	return plan_write_data64(p, addr, 0, val, 0, -1, what);
}

/* rcu_assign_pointer(): a store-release, modelled as DMB then store. */
int emu_publish_barrier(struct ftrace_core *c, struct plan *p)
{
	if (c->cfg.mutants & FTRACE_MUT_NO_PUBLISH_BARRIER)
		return 0;
	return plan_simple(p, PLAN_DMB, -1, "rcu_assign_pointer");
}

uint64_t ftrace_alloc_from_region(void *region, uint64_t size, uint64_t align,
				  struct ftv_err *err)
{
	return sim_region_alloc(region, size, align, err);
}
