/* The ftrace core's batched code update: the records' accounting, the
 * verb each one needs and the update of all code (__ftrace_hash_rec_update,
 * ftrace_check_record, ftrace_replace_code, ftrace_modify_all_code in
 * kernel/trace/ftrace.c), and the frees made at its end. */
#include "patcher/ftrace_internal.h"
#include "util/vec.h"

/* The func the site may call straight through the ops, without the list
 * function's help (ftrace_ops_get_func() == ops->func). */
static int ops_callable_directly(const struct ftrace_ops *op)
{
	return !(op->flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU));
}

/* The wanted state of a record from the registered ops (what
 * __ftrace_hash_rec_update accumulates incrementally). */
static void rec_account(struct ftrace_core *c, size_t i)
{
	struct ftrace_rec *r = &c->recs[i];
	struct ftrace_ops *op, *only = NULL;
	unsigned refs = 0, want = 0;

	for (op = c->list; op; op = op->next) {
		if (!ops_traces(op, r->site.ip))
			continue;
		refs++;
		only = op;
		/* If any ops wants regs saved, every ops gets them. */
		if (op->flags & FTRACE_OPS_FL_SAVE_REGS)
			want |= FTRACE_FL_REGS;
		if (op->flags & FTRACE_OPS_FL_DIRECT)
			want |= FTRACE_FL_DIRECT;
	}
	if (refs == 1) {
		/* A single ops with its own trampoline is called directly. */
		if (only->trampoline)
			want |= FTRACE_FL_TRAMP;
		/* CALL_OPS: the site's literal may name the ops only when it
		 * is the only one and its func needs no list help. */
		if ((c->cfg.arch->flags & FTRACE_ARCH_CALL_OPS) &&
		    ops_callable_directly(only))
			want |= FTRACE_FL_CALL_OPS;
	}
	r->refs = refs;
	r->flags &= ~(FTRACE_FL_REGS | FTRACE_FL_DIRECT | FTRACE_FL_TRAMP |
		      FTRACE_FL_CALL_OPS);
	r->flags |= want;
}

/* The ops literal the site must hold (arm64_rec_get_ops): the unique ops,
 * else ftrace_list_ops; ftrace_nop_ops once disabled. */
static uint64_t rec_literal_new(struct ftrace_core *c, size_t i)
{
	struct ftrace_rec *r = &c->recs[i];
	struct ftrace_ops *op;

	if (!(c->cfg.arch->flags & FTRACE_ARCH_CALL_OPS))
		return 0;
	if (!r->refs)
		return c->nop_ops;
	if (r->flags & FTRACE_FL_CALL_OPS) {
		op = ftrace_find_unique_ops(c, i);
		if (op)
			return op->addr;
	}
	return c->list_ops;
}

enum rec_action { REC_IGNORE, REC_MAKE_CALL, REC_MAKE_NOP, REC_MODIFY };

/* ftrace_check_record(update=1): decide the verb and move the _EN flags. */
static enum rec_action rec_check(struct ftrace_rec *r, uint64_t lit_new)
{
	const unsigned en_mask = FTRACE_FL_ENABLED | FTRACE_FL_REGS_EN |
				 FTRACE_FL_TRAMP_EN | FTRACE_FL_DIRECT_EN |
				 FTRACE_FL_CALL_OPS_EN;
	unsigned en = 0;

	if (!r->refs) {
		if (!(r->flags & FTRACE_FL_ENABLED))
			return REC_IGNORE;
		r->flags &= ~en_mask;
		return REC_MAKE_NOP;
	}
	en = FTRACE_FL_ENABLED;
	if (r->flags & FTRACE_FL_REGS)
		en |= FTRACE_FL_REGS_EN;
	if (r->flags & FTRACE_FL_TRAMP)
		en |= FTRACE_FL_TRAMP_EN;
	/* Direct and ops calls only ever with a single ops; otherwise the
	 * list function handles them. */
	if ((r->flags & FTRACE_FL_DIRECT) && r->refs == 1)
		en |= FTRACE_FL_DIRECT_EN;
	if ((r->flags & FTRACE_FL_CALL_OPS) && r->refs == 1)
		en |= FTRACE_FL_CALL_OPS_EN;
	if (!(r->flags & FTRACE_FL_ENABLED)) {
		r->flags = (r->flags & ~en_mask) | en;
		return REC_MAKE_CALL;
	}
	/* The literal comparison is defensive: one update changes one ops,
	 * so the unique ops of a site cannot be swapped for another without
	 * its flags changing too. */
	if ((r->flags & en_mask) == en && r->ops_cur == lit_new)
		return REC_IGNORE;
	r->flags = (r->flags & ~en_mask) | en;
	return REC_MODIFY;
}

/* ftrace_replace_code(): one verb per changed record, in ip order; the first
 * failure stops processing. */
static int replace_code(struct ftrace_core *c, struct plan *p)
{
	const struct ftrace_arch *a = c->cfg.arch;

	for (size_t i = 0; i < c->nrecs; i++) {
		struct ftrace_rec *r = &c->recs[i];
		struct ftv_err verr = { { 0 } };
		uint64_t new_addr, old_addr, lit;
		size_t mark = p->n;
		const char *verb = NULL;
		int ret = 0;

		if (r->flags & (FTRACE_FL_DISABLED | FTRACE_FL_FAILED))
			continue;
		rec_account(c, i);
		lit = rec_literal_new(c, i);
		new_addr = ftrace_get_addr_new(c, i);
		/* Before the _EN flags move. */
		old_addr = ftrace_get_addr_curr(c, i);
		switch (rec_check(r, lit)) {
		case REC_IGNORE:
			continue;
		case REC_MAKE_CALL:
			verb = "ftrace_make_call";
			ret = a->make_call(c->cfg.arch_ctx, &r->site, new_addr,
					   lit, p, &verr);
			break;
		case REC_MAKE_NOP:
			verb = "ftrace_make_nop";
			ret = a->make_nop(c->cfg.arch_ctx, &r->site, old_addr,
					  lit, p, &verr);
			break;
		case REC_MODIFY:
			verb = "ftrace_modify_call";
			ret = a->modify_call(c->cfg.arch_ctx, &r->site,
					     old_addr, new_addr, lit, p, &verr);
			break;
		}
		if (ret) {
			p->n = mark;
			core_bug(c, r, verb, verr.msg[0] ? verr.msg : "error");
			return -1;
		}
		for (size_t k = mark; k < p->n; k++)
			p->steps[k].rec = (int)i;
		r->ops_cur = lit;
	}
	return 0;
}

/* ftrace_save_tramp_hashes(): remember which records call which ops'
 * trampoline, so that the next update knows what it is replacing. */
static int save_tramp_hashes(struct ftrace_core *c)
{
	for (struct ftrace_ops *op = c->list; op; op = op->next) {
		ipset_clear(&op->tramp_hash);
		if (!op->trampoline)
			continue;
		for (size_t i = 0; i < c->nrecs; i++) {
			const struct ftrace_rec *r = &c->recs[i];

			if ((r->flags & FTRACE_FL_TRAMP_EN) && r->refs == 1 &&
			    ops_traces(op, r->site.ip) &&
			    ipset_add(&op->tramp_hash, r->site.ip))
				return -1;
		}
	}
	if (c->removed_ops)
		ipset_clear(&c->removed_ops->tramp_hash);
	return 0;
}

/* update_ftrace_function(): what ftrace_call must call for the current list
 * (and the ops it passes): nothing -> ftrace_stub; one ops -> its func, or
 * the assist function when ftrace must guard it (ftrace_ops_get_func);
 * several -> the list function. */
static uint64_t trace_func_for_list(struct ftrace_core *c, uint64_t *op_out)
{
	struct ftrace_ops *op = c->list;

	*op_out = c->list_ops;
	if (!op)
		return c->cfg.stub_func;
	if (!op->next) {
		*op_out = op->addr;
		return ops_callable_directly(op) ? op->func
						 : c->cfg.assist_func;
	}
	return c->cfg.list_func;
}

static int arch_global(struct ftrace_core *c, uint64_t func, struct plan *p)
{
	struct ftv_err verr = { { 0 } };

	if (c->cfg.arch->update_ftrace_func(c->cfg.arch_ctx, func, p, &verr)) {
		core_bug(c, NULL, "ftrace_update_ftrace_func", verr.msg);
		return -1;
	}
	return 0;
}

/* ftrace_modify_all_code(), wrapped the way the arch's
 * arch_ftrace_update_code() runs it. Returns 0 even when a verb failed (the
 * bug is in c->bug); -1 only when out of memory. */
int core_update(struct ftrace_core *c, int graph_cmd, struct plan *p,
		struct ftv_err *err)
{
	const struct ftrace_arch *a = c->cfg.arch;
	int stop = (a->flags & FTRACE_ARCH_STOP_MACHINE) &&
		   !c->no_stop_machine;
	uint64_t func = c->trace_func, op = c->list_ops;
	int update_func = 0;
	struct ftv_err verr = { { 0 } };

	if (a->update_ftrace_func) {
		func = trace_func_for_list(c, &op);
		update_func = func != c->trace_func;
	}
	if (stop && plan_simple(p, PLAN_STOP_MACHINE, -1, "stop_machine"))
		return core_oom(err);
	if (a->update_prepare && a->update_prepare(c->cfg.arch_ctx, p, &verr)) {
		core_bug(c, NULL, "ftrace_arch_code_modify_prepare", verr.msg);
		goto out;
	}
	/* Switch ftrace_call to the list function before any site changes:
	 * only the list function checks each ops' filter, so no ops sees a
	 * function it does not trace during the transition. */
	if (update_func && c->trace_func != c->cfg.list_func) {
		if (arch_global(c, c->cfg.list_func, p))
			goto out;
		c->trace_func = c->cfg.list_func;
		/* FTRACE_ARCH_TRACE_OP_TASKS_RCU: no CPU executes the old
		 * func any more (a CPU that has not context-synchronised may,
		 * Arm ARM B2.2.5), so none pairs it with a newer ops */
		if (!stop && (a->flags & FTRACE_ARCH_TRACE_OP_TASKS_RCU) &&
		    plan_simple(p, PLAN_SYNC_ALL, -1, "ftrace_sync_ipi (list func)"))
			return core_oom(err);
	}
	if (replace_code(c, p))
		goto out;
	if (update_func && func != c->cfg.list_func) {
		/* function_trace_op, then make every CPU see it (smp_wmb +
		 * ftrace_sync_ipi) before ftrace_call calls the func that
		 * expects it; under stop_machine nobody else runs. The IPI
		 * reaches the CPUs, not a task preempted after its load of
		 * the old function_trace_op: FTRACE_ARCH_TRACE_OP_TASKS_RCU
		 * waits for those too. */
		if (emu_w64(p, c->trace_op, op, "function_trace_op") ||
		    plan_simple(p, PLAN_DMB, -1, "smp_wmb"))
			return core_oom(err);
		if (!stop && (a->flags & FTRACE_ARCH_TRACE_OP_TASKS_RCU) &&
		    plan_simple(p, PLAN_QUIESCE, -1, "synchronize_rcu_tasks (function_trace_op)"))
			return core_oom(err);
		else if (!stop && !(a->flags & FTRACE_ARCH_TRACE_OP_TASKS_RCU) &&
			 plan_simple(p, PLAN_SYNC_ALL, -1, "ftrace_sync_ipi"))
			return core_oom(err);
		if (arch_global(c, func, p))
			goto out;
		c->trace_func = func;
	}
	if (graph_cmd != GRAPH_KEEP) {
		int en = graph_cmd == GRAPH_START;

		if (a->modify_graph_caller(c->cfg.arch_ctx, en, p, &verr)) {
			core_bug(c, NULL, en ? "ftrace_enable_ftrace_graph_caller"
					     : "ftrace_disable_ftrace_graph_caller",
				 verr.msg);
			goto out;
		}
		c->graph_enabled = en;
	}
	if (a->update_post && a->update_post(c->cfg.arch_ctx, p, &verr)) {
		core_bug(c, NULL, "ftrace_arch_code_modify_post_process",
			 verr.msg);
		goto out;
	}
out:
	if (stop && plan_simple(p, PLAN_RESUME_MACHINE, -1, "resume machine"))
		return core_oom(err);
	if (save_tramp_hashes(c))
		return core_oom(err);
	return 0;
}

int core_queue_free(struct ftrace_core *c, uint64_t addr, uint64_t len,
		    const char *what)
{
	if (!addr || !len)
		return 0;
	struct pending_free f = { addr, len, what };

	return VEC_PUSH(c->frees, c->nfrees, c->capfrees, f);
}

/* Memory an emulated CPU may still be using (an ops it loaded from a
 * literal or the list, a filter table it is walking, a trampoline it is
 * running) is released only after every CPU passed a quiescent point
 * (synchronize_rcu_tasks in ftrace_shutdown). */
int core_finish_frees(struct ftrace_core *c, struct plan *p)
{
	if (!c->nfrees)
		return 0;
	if (!(c->cfg.mutants & FTRACE_MUT_DROP_QUIESCE) &&
	    plan_simple(p, PLAN_QUIESCE, -1, "synchronize_rcu_tasks"))
		return -1;
	for (size_t i = 0; i < c->nfrees; i++)
		if (plan_free_mem(p, c->frees[i].addr, c->frees[i].len, -1,
				  c->frees[i].what))
			return -1;
	c->nfrees = 0;
	return 0;
}
