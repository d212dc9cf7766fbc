/* Where a record's call goes: the ops that trace a site and the address
 * its call has now and will have (ftrace_ops_test, ftrace_find_unique_ops,
 * ftrace_find_tramp_ops_curr, ftrace_get_addr_new/curr in
 * kernel/trace/ftrace.c). */
#include "patcher/ftrace_internal.h"

int ops_traces(const struct ftrace_ops *op, uint64_t ip)
{
	/* ftrace_ops_test(): an empty filter traces everything; notrace
	 * always wins. */
	if (op->filter.n && !ipset_has(&op->filter, ip))
		return 0;
	return !ipset_has(&op->notrace, ip);
}

struct ftrace_ops *ftrace_find_unique_ops(const struct ftrace_core *c,
					  size_t i)
{
	struct ftrace_ops *op, *found = NULL;

	if (i >= c->nrecs)
		return NULL;
	for (op = c->list; op; op = op->next) {
		if (!ops_traces(op, c->recs[i].site.ip))
			continue;
		if (found)
			return NULL;
		found = op;
	}
	return found;
}

/* The ops whose trampoline the site calls now: the ops being removed is
 * tested first, since it is no longer on the list
 * (ftrace_find_tramp_ops_curr, kernel/trace/ftrace.c). */
static struct ftrace_ops *find_tramp_ops_curr(const struct ftrace_core *c,
					      uint64_t ip)
{
	struct ftrace_ops *op;

	if (c->removed_ops && ipset_has(&c->removed_ops->tramp_hash, ip))
		return c->removed_ops;
	for (op = c->list; op; op = op->next)
		if (op->trampoline && ipset_has(&op->tramp_hash, ip))
			return op;
	return NULL;
}

uint64_t ftrace_get_addr_new(const struct ftrace_core *c, size_t i)
{
	const struct ftrace_rec *r = &c->recs[i];
	struct ftrace_ops *op;

	/* A single direct ops: call its trampoline (the arch falls back to
	 * ftrace_caller + ops->direct_call when out of reach). */
	if ((r->flags & FTRACE_FL_DIRECT) && r->refs == 1 && r->direct)
		return r->direct;
	/* Trampolines take precedence over regs (ftrace_get_addr_new). */
	if (r->flags & FTRACE_FL_TRAMP) {
		op = ftrace_find_unique_ops(c, i);
		if (op && op->trampoline)
			return op->trampoline;
		/* "Bad trampoline accounting": the kernel returns
		 * FTRACE_ADDR. */
		return c->cfg.caller;
	}
	if (r->flags & FTRACE_FL_REGS)
		return c->cfg.regs_caller;
	return c->cfg.caller;
}

uint64_t ftrace_get_addr_curr(const struct ftrace_core *c, size_t i)
{
	const struct ftrace_rec *r = &c->recs[i];
	struct ftrace_ops *op;

	if ((r->flags & FTRACE_FL_DIRECT_EN) && r->direct)
		return r->direct;
	if (r->flags & FTRACE_FL_TRAMP_EN) {
		op = find_tramp_ops_curr(c, r->site.ip);
		return op ? op->trampoline : c->cfg.caller;
	}
	if (r->flags & FTRACE_FL_REGS_EN)
		return c->cfg.regs_caller;
	return c->cfg.caller;
}
