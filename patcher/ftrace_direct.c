/* Direct calls (register/modify/unregister_ftrace_direct, Linux 6.x) and
 * the function-graph caller of the global-function scheme (the -pg one). */
#include "patcher/ftrace_internal.h"
#include "patcher/ftrace_abi.h"

#include <stdlib.h>
#include <string.h>

static int set_rec_direct(struct ftrace_core *c, const struct ftrace_ops *ops,
			  uint64_t addr)
{
	for (size_t i = 0; i < ops->filter.n; i++) {
		int r = ftrace_core_find_rec(c, ops->filter.v[i]);

		if (r >= 0)
			c->recs[r].direct = addr;
	}
	return 0;
}

int ftrace_register_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			   uint64_t addr, struct plan *p, struct ftv_err *err)
{
	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops->core != c || ops->dead)
		return ftv_errf(err, "ftrace: bad ops for a direct call");
	if (ops->registered)
		return ftv_errf(err, "ftrace: ops %s is already registered",
				ops->name);
	if (!addr)
		return ftv_errf(err, "ftrace: direct call to address 0");
	/* A direct ops must say which functions it attaches to. */
	if (!ops->filter.n)
		return ftv_errf(err, "ftrace: direct ops %s has an empty filter",
				ops->name);
	/* One direct call per function (-EBUSY). */
	for (size_t i = 0; i < ops->filter.n; i++) {
		int r = ftrace_core_find_rec(c, ops->filter.v[i]);

		if (r >= 0 && c->recs[r].direct) {
			const struct ftrace_site *s = &c->recs[r].site;

			return ftv_errf(err, "ftrace: %s (0x%llx) already has a direct call",
					s->name ? s->name : "?",
					(unsigned long long)s->ip);
		}
	}
	/* register_ftrace_direct: func = call_direct_funcs, direct flags
	 * (MULTI_FLAGS). The kernel also sets ops->trampoline to
	 * FTRACE_REGS_ADDR; the model leaves it 0, which changes no target:
	 * DIRECT takes precedence over TRAMP in ftrace_get_addr_new/curr and
	 * that trampoline is the regs caller anyway. */
	ops->func = c->cfg.direct_func ? c->cfg.direct_func : c->cfg.stub_func;
	ops->flags |= FTRACE_OPS_FL_DIRECT | FTRACE_OPS_FL_SAVE_REGS;
	ops->direct_call = addr;
	set_rec_direct(c, ops, addr);
	if (ftrace_register_ops(c, ops, p, err)) {
		set_rec_direct(c, ops, 0);
		ops->direct_call = 0;
		ops->flags &= ~FTRACE_OPS_FL_DIRECT;
		return -1;
	}
	return 0;
}

static struct ftrace_ops *tmp_ops(struct ftrace_core *c, struct ftv_err *err)
{
	struct ftrace_ops *t = c->tmp_direct;

	if (!t) {
		t = ftrace_ops_new(c, &(struct ftrace_ops_desc){
				       .name = "modify-direct-stub",
				       .func = c->cfg.stub_func,
				       .flags = FTRACE_OPS_FL_STUB },
				   err);
		if (!t)
			return NULL;
		/* Static in the kernel: never freed. */
		t->flags &= ~FTRACE_OPS_FL_DYNAMIC;
		t->tables_owned = 0;
		c->tmp_direct = t;
	}
	return t;
}

/* __modify_ftrace_direct: a stub ops over the same functions sends every
 * site through the list function (which calls the direct ops' func, which
 * reads ops->direct_call), the direct address changes, and removing the
 * stub makes the sites call the new trampoline. */
int ftrace_modify_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			 uint64_t addr, struct plan *p, struct ftv_err *err)
{
	struct ftrace_ops *t;

	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops->core != c || !ops->registered ||
	    !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return ftv_errf(err, "ftrace: ops is not a registered direct ops");
	if (!addr)
		return ftv_errf(err, "ftrace: direct call to address 0");
	t = tmp_ops(c, err);
	if (!t)
		return -1;
	if (ipset_copy(&t->filter, &ops->filter) ||
	    ipset_copy(&t->notrace, &ops->notrace))
		return core_oom(err);
	/* tmp_ops.func_hash = ops->func_hash: the same tables. */
	t->filter_tbl = ops->filter_tbl;
	t->notrace_tbl = ops->notrace_tbl;
	t->flags = FTRACE_OPS_FL_STUB;
	/* The kernel gives the stub the new address too (tmp_ops.direct_call
	 * = addr); being a STUB, the list function never calls it. */
	t->direct_call = addr;
	if (ftrace_register_ops(c, t, p, err))
		return -1;
	if (c->bug)
		return 0;
	set_rec_direct(c, ops, addr);
	ops->direct_call = addr;
	if (emu_w64(p, ops->addr + c->cfg.ops_layout->direct_call, addr,
		    "WRITE_ONCE(ops->direct_call)"))
		return core_oom(err);
	return ftrace_unregister_ops(c, t, p, err);
}

int ftrace_unregister_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			     struct plan *p, struct ftv_err *err)
{
	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops->core != c || !ops->registered ||
	    !(ops->flags & FTRACE_OPS_FL_DIRECT))
		return ftv_errf(err, "ftrace: ops is not a registered direct ops");
	/* The sites are switched off first; the direct entries go after,
	 * so that ftrace_get_addr_curr still finds the old trampoline. The
	 * filter is kept by value before the ops may be released. */
	struct ipset keep = { 0 };

	if (ipset_copy(&keep, &ops->filter))
		return core_oom(err);
	if (ftrace_unregister_ops(c, ops, p, err)) {
		ipset_release(&keep);
		return -1;
	}
	if (!c->bug) {
		for (size_t i = 0; i < keep.n; i++) {
			int r = ftrace_core_find_rec(c, keep.v[i]);

			if (r >= 0)
				c->recs[r].direct = 0;
		}
	}
	ipset_release(&keep);
	return 0;
}

int ftrace_register_graph(struct ftrace_core *c, struct ftrace_ops *ops,
			  struct plan *p, struct ftv_err *err)
{
	if (core_check_alive(c, err))
		return -1;
	if (!c->cfg.arch->modify_graph_caller)
		return ftv_errf(err, "ftrace: arch %s has no ftrace_graph_call to patch",
				c->cfg.arch->name);
	if (c->graph_ops)
		return ftv_errf(err, "ftrace: a graph tracer is already registered");
	if (!ops || ops->core != c || ops->dead || ops->registered)
		return ftv_errf(err, "ftrace: bad ops for the graph tracer");
	/* The ops stands for the kernel's graph_ops, whose func is
	 * ftrace_stub (FTRACE_OPS_FL_STUB; kernel/trace/ftrace.c since v3.17,
	 * fgraph.c later, for every arch without its own ftrace_graph_func):
	 * the work happens in ftrace_graph_caller, never through ftrace_call,
	 * whatever func the caller gave. */
	ops->flags |= FTRACE_OPS_FL_GRAPH | FTRACE_OPS_FL_STUB;
	ops->func = c->cfg.stub_func;
	if (ops_link(c, ops, p, err))
		return -1;
	c->graph_ops = ops;
	/* register_ftrace_graph(): ftrace_graph_entry is set before
	 * ftrace_startup() patches ftrace_graph_call in. */
	if (c->cfg.graph_ops_addr &&
	    emu_w64(p, c->cfg.graph_ops_addr, ops->addr,
		    "ftrace_graph_entry = ftrace_graph_entry_test"))
		return core_oom(err);
	if (core_update(c, GRAPH_START, p, err))
		return -1;
	return 0;
}

int ftrace_unregister_graph(struct ftrace_core *c, struct ftrace_ops *ops,
			    struct plan *p, struct ftv_err *err)
{
	int ret;

	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops != c->graph_ops)
		return ftv_errf(err, "ftrace: ops is not the registered graph tracer");
	if (ops_unlink(c, ops, p))
		return core_oom(err);
	c->graph_ops = NULL;
	/* unregister_ftrace_graph(): ftrace_graph_entry_stub before
	 * ftrace_shutdown() patches ftrace_graph_call out; a CPU that loaded
	 * the ops before still reads its tables, which are freed only after
	 * every CPU has quiesced. */
	if (c->cfg.graph_ops_addr &&
	    emu_w64(p, c->cfg.graph_ops_addr, 0,
		    "ftrace_graph_entry = ftrace_graph_entry_stub"))
		return core_oom(err);
	c->removed_ops = ops;
	ret = core_update(c, GRAPH_STOP, p, err);
	c->removed_ops = NULL;
	if (ret)
		return -1;
	if (c->bug)
		return 0;
	if (ops_queue_release(c, ops) || core_finish_frees(c, p))
		return core_oom(err);
	return 0;
}
