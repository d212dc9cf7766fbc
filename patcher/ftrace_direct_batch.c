/* Direct-call batches: update_ftrace_direct_add() and
 * update_ftrace_direct_del() (kernel/trace/ftrace.c, Jiri Olsa's series
 * "ftrace,bpf: Use single direct ops for bpf trampolines": 05dc5e9c1fe1
 * "ftrace: Add update_ftrace_direct_add function", 8d2c1233f371 "ftrace:
 * Add update_ftrace_direct_del function", merged for Linux 7.0).
 *
 * One shared direct ops carries many ip -> trampoline entries. In the
 * kernel they live in the global direct_functions hash, which
 * ftrace_get_addr_new/curr (ftrace_find_rec_direct) read while
 * ftrace_replace_code rewrites the sites; here they are the records'
 * `direct` fields, which the same two functions read (ftrace_addr.c).
 *
 * add: the entries go into direct_functions first (rcu_assign_pointer),
 * then the ops' filter grows by the new ips: the first add registers the
 * ops (register_ftrace_function_nolock, which takes ftrace_lock itself),
 * later ones move the filter of the registered ops (ftrace_update_ops).
 * del: the ips leave the filter first (ftrace_update_ops, or
 * unregister_ftrace_function once it would be empty), then their entries
 * leave direct_functions, so that ftrace_get_addr_curr still finds the old
 * trampoline while the sites are switched off.
 *
 * The bug. Both functions held direct_mutex only; the ftrace_update_ops()
 * calls ran without ftrace_lock until 3ebc98c1ae7e ("ftrace: Add missing
 * ftrace_lock to update_ftrace_direct_add/del", 2026), so another updater
 * under ftrace_lock (register_ftrace_function, ftrace_set_filter, ...)
 * could run ftrace_replace_code over the same records at the same time,
 * each computing a site's current and new call from records and a hash the
 * other was changing (the splats from ftrace_get_addr_curr). The mutant
 * FTRACE_MUT_DIRECT_BATCH_UNLOCKED models it as the plan of such an update
 * applied by another task than ftrace_lock's holder (PLAN_AGENT_TEXT), so
 * the executor may interleave its site writes with those of ftrace's next
 * update; the fixed code's plan is ftrace's own (PLAN_AGENT_FTRACE), one
 * update after another.
 *
 * The model's limit: the list function reaches a direct ops' trampoline
 * through ops->direct_call (trampolines/tracers.c, ftv_call_direct_funcs)
 * where the kernel's call_direct_funcs looks the ip up in direct_functions,
 * so the entries of one shared ops name one trampoline. */
#include "patcher/ftrace_internal.h"

#include <stdlib.h>

/* The batch's ftrace_update_ops(ops, filter, EMPTY_HASH): the ops' filter
 * becomes ips (reset) or grows by them, one update. Without ftrace_lock in
 * the mutant: another task applies the plan (a plan has one agent; the
 * batch's is its own, from its first step). Then the entries of ips get
 * direct (add: set before, as direct_functions is published first; del:
 * 0 after, once the sites no longer call them). */
static void set_direct(struct ftrace_core *c, const uint64_t *ips, size_t n, uint64_t addr)
{
	for (size_t i = 0; i < n; i++)
		c->recs[ftrace_core_find_rec(c, ips[i])].direct = addr;
}

static int batch_update(struct ftrace_core *c, struct ftrace_ops *ops, const uint64_t *ips,
			size_t n, int reset, const uint64_t *entries, size_t nentries,
			uint64_t direct, struct plan *p, struct ftv_err *err)
{
	size_t from = p->n;
	int ret;

	if (direct)
		set_direct(c, entries, nentries, direct);
	c->direct_batch = 1;
	ret = ftrace_set_filter_ips(c, ops, ips, n, reset, p, err);
	c->direct_batch = 0;
	if (!ret && (c->cfg.mutants & FTRACE_MUT_DIRECT_BATCH_UNLOCKED) && !from)
		p->agent = PLAN_AGENT_TEXT;
	/* an add that failed backs out; a del's entries go once it is done */
	if (!c->bug && (direct ? ret : !ret))
		set_direct(c, entries, nentries, 0);
	return ret;
}

static int batch_ops_check(struct ftrace_core *c, struct ftrace_ops *ops, size_t n,
			   struct ftv_err *err)
{
	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops->core != c || ops->dead)
		return ftv_errf(err, "ftrace: bad ops for a direct-call batch");
	if (!n)
		return ftv_errf(err, "ftrace: an empty direct-call batch (-EINVAL)");
	if (ops->registered && !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return ftv_errf(err, "ftrace: ops %s is registered and no direct ops",
				ops->name);
	return 0;
}

int ftrace_direct_batch_add(struct ftrace_core *c, struct ftrace_ops *ops,
			    const uint64_t *ips, size_t n, uint64_t addr,
			    struct plan *p, struct ftv_err *err)
{
	if (batch_ops_check(c, ops, n, err))
		return -1;
	if (!addr)
		return ftv_errf(err, "ftrace: direct call to address 0");
	if (ops->registered && ops->direct_call != addr)
		return ftv_errf(err, "ftrace: the shared direct ops %s calls 0x%llx: the "
				"model's entries of one ops name one trampoline",
				ops->name, (unsigned long long)ops->direct_call);
	/* "Make sure requested entries are not already registered." */
	for (size_t i = 0; i < n; i++) {
		int r = ftrace_core_find_rec(c, ips[i]);

		if (r < 0)
			return ftv_errf(err, "ftrace: 0x%llx is not a record ip",
					(unsigned long long)ips[i]);
		if (c->recs[r].direct)
			return ftv_errf(err, "ftrace: %s (0x%llx) already has a direct call",
					c->recs[r].site.name ? c->recs[r].site.name : "?",
					(unsigned long long)ips[i]);
	}
	if (!ops->registered) {
		/* reg: the ops takes the batch as its filter and is registered
		 * under ftrace_lock; the kernel's shared ops is static
		 * (bpf's direct_ops), registered again after its last del. */
		ops->flags &= ~FTRACE_OPS_FL_DYNAMIC;
		if (ftrace_set_filter_ips(c, ops, ips, n, 1, p, err))
			return -1;
		return ftrace_register_direct(c, ops, addr, p, err);
	}
	return batch_update(c, ops, ips, n, 0, ips, n, addr, p, err);
}

int ftrace_direct_batch_del(struct ftrace_core *c, struct ftrace_ops *ops,
			    const uint64_t *ips, size_t n, struct plan *p,
			    struct ftv_err *err)
{
	struct ipset keep = { 0 };
	int ret = -1;

	if (batch_ops_check(c, ops, n, err))
		return -1;
	if (!ops->registered)
		return ftv_errf(err, "ftrace: the direct ops %s is not registered", ops->name);
	for (size_t i = 0; i < n; i++)
		if (!ipset_has(&ops->filter, ips[i]))
			return ftv_errf(err, "ftrace: 0x%llx has no entry in %s (-EINVAL)",
					(unsigned long long)ips[i], ops->name);
	for (size_t i = 0; i < ops->filter.n; i++) {
		int gone = 0;

		for (size_t k = 0; k < n && !gone; k++)
			gone = ops->filter.v[i] == ips[k];
		if (!gone && ipset_add(&keep, ops->filter.v[i]))
			return core_oom(err);
	}
	if (!keep.n) {
		/* the last entries: unregister_ftrace_function, under
		 * ftrace_lock, then the entries go */
		ipset_release(&keep);
		return ftrace_unregister_direct(c, ops, p, err);
	}
	ret = batch_update(c, ops, keep.v, keep.n, 1, ips, n, 0, p, err);
	ipset_release(&keep);
	return ret;
}

/* The same with ftrace_set_filter's SPEC (function names, addresses). */
int ftrace_direct_batch_spec(struct ftrace_core *c, struct ftrace_ops *ops,
			     const char *spec, uint64_t addr, struct plan *p,
			     struct ftv_err *err)
{
	struct ipset ips = { 0 };
	int ret;

	if (core_check_alive(c, err))
		return -1;
	ret = ops_parse_spec(c, spec, &ips, err);
	if (!ret)
		ret = addr ? ftrace_direct_batch_add(c, ops, ips.v, ips.n, addr, p, err)
			   : ftrace_direct_batch_del(c, ops, ips.v, ips.n, p, err);
	ipset_release(&ips);
	return ret;
}
