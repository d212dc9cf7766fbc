/* The ftrace core model: records, their accounting and the batched code
 * update (kernel/trace/ftrace.c: ftrace_check_record, ftrace_replace_code,
 * ftrace_modify_all_code, ftrace_get_addr_new/curr). See ftrace_core.h. */
#include "patcher/ftrace_internal.h"
#include "patcher/ftrace_abi.h"
#include "sim/aspace.h"
#include "util/vec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int core_oom(struct ftv_err *err)
{
	return ftv_errf(err, "ftrace: out of memory");
}

void core_name(struct ftrace_core *c, uint64_t addr, uint64_t size,
	       const char *fmt, ...)
{
	char name[96];
	va_list ap;

	if (!c->cfg.as || !addr)
		return;
	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	sim_sym_add(c->cfg.as, name, addr, size, SIM_SYM_OBJECT, NULL);
}

static uint64_t core_alloc(struct ftrace_core *c, uint64_t size,
			   uint64_t align, struct ftv_err *err)
{
	uint64_t a = c->cfg.alloc(c->cfg.alloc_ctx, size, align, err);

	if (!a && err && !err->msg[0])
		ftv_errf(err, "ftrace: emulated allocation of %llu bytes failed",
			 (unsigned long long)size);
	return a;
}

/* The core's static ops (ftrace_list_ops, ftrace_nop_ops): STUB ops whose
 * func is the list walker or a function that does nothing (Linux 6.3,
 * "ftrace: Add DYNAMIC_FTRACE_WITH_CALL_OPS"). */
static int write_stub_ops(const struct ftrace_ops_layout *l, uint64_t addr,
			  uint64_t func, int id, struct plan *p)
{
	return emu_w64(p, addr + l->func, func, "init: stub ops func") ||
	       emu_w64(p, addr + l->flags, FTV_OPS_FL_STUB,
		       "init: stub ops flags") ||
	       emu_w64(p, addr + l->id, (uint64_t)id, "init: stub ops id");
}

struct ftrace_core *ftrace_core_new(const struct ftrace_core_config *cfg,
				    struct plan *p, struct ftv_err *err)
{
	struct ftrace_core *c;

	if (!cfg || !cfg->arch || !cfg->alloc || !cfg->caller) {
		ftv_errf(err, "ftrace: config needs an arch, an allocator and ftrace_caller");
		return NULL;
	}
	if (!cfg->arch->make_call || !cfg->arch->make_nop ||
	    !cfg->arch->modify_call || !cfg->arch->init_nop) {
		ftv_errf(err, "ftrace: arch %s lacks a required verb",
			 cfg->arch->name ? cfg->arch->name : "?");
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		core_oom(err);
		return NULL;
	}
	c->cfg = *cfg;
	if (!c->cfg.regs_caller)
		c->cfg.regs_caller = c->cfg.caller;
	if (!c->cfg.list_func || !c->cfg.stub_func) {
		ftv_errf(err, "ftrace: config needs list_func and stub_func");
		goto fail;
	}
	if (!c->cfg.nop_func)
		c->cfg.nop_func = c->cfg.stub_func;
	if (c->cfg.drop_quiesce)
		c->cfg.mutants |= FTRACE_MUT_DROP_QUIESCE;
	if (!c->cfg.assist_func)
		c->cfg.assist_func = c->cfg.list_func;
	if (!c->cfg.ops_layout)
		c->cfg.ops_layout = &ftrace_ops_layout_ftv;
	c->next_id = 1;
	/* ids 1 and 2 name the list and nop ops in tracer logs. */
	c->list_ops = core_alloc(c, c->cfg.ops_layout->size, c->cfg.ops_layout->align, err);
	if (!c->list_ops)
		goto fail;
	c->nop_ops = core_alloc(c, c->cfg.ops_layout->size, c->cfg.ops_layout->align, err);
	if (!c->nop_ops)
		goto fail;
	/* The trampolines' own variables when the caller names them (the
	 * loaded ftv_ops_list and function_trace_op symbols), else fresh. */
	c->list_head = c->cfg.list_head_addr ? c->cfg.list_head_addr
					     : core_alloc(c, 16, 8, err);
	if (!c->list_head)
		goto fail;
	/* (beside a list head of its own; a given one's neighbour is
	 * not the core's: the kernel's CALL_OPS ftrace_caller has no
	 * function_trace_op, and the list head's is another variable) */
	c->trace_op = c->cfg.trace_op_addr ? c->cfg.trace_op_addr
		      : c->cfg.list_head_addr ? core_alloc(c, 8, 8, err)
					      : c->list_head + 8;
	if (!c->trace_op)
		goto fail;
	core_name(c, c->list_ops, c->cfg.ops_layout->size, "ftrace_list_ops");
	core_name(c, c->nop_ops, c->cfg.ops_layout->size, "ftrace_nop_ops");
	if (!c->cfg.list_head_addr)
		core_name(c, c->list_head, 8, "ftrace_ops_list");
	if (!c->cfg.trace_op_addr)
		core_name(c, c->trace_op, 8, "function_trace_op");
	if (write_stub_ops(c->cfg.ops_layout, c->list_ops, c->cfg.list_func, c->next_id++, p) ||
	    write_stub_ops(c->cfg.ops_layout, c->nop_ops, c->cfg.nop_func, c->next_id++, p) ||
	    emu_w64(p, c->list_head, 0, "init: ftrace_ops_list = empty") ||
	    emu_w64(p, c->trace_op, c->list_ops, "init: function_trace_op")) {
		core_oom(err);
		goto fail;
	}
	/* ftrace_call starts out calling ftrace_stub (entry-ftrace.S). */
	c->trace_func = c->cfg.stub_func;
	return c;
fail:
	free(c);
	return NULL;
}

void ftrace_core_free(struct ftrace_core *c)
{
	struct ftrace_ops *o, *n;

	if (!c)
		return;
	for (o = c->all; o; o = n) {
		n = o->all_next;
		ipset_release(&o->filter);
		ipset_release(&o->notrace);
		ipset_release(&o->tramp_hash);
		free(o->name);
		free(o);
	}
	for (size_t i = 0; i < c->nrecs; i++) {
		free((char *)c->recs[i].site.name);
		free((char *)c->recs[i].site.module);
	}
	free(c->recs);
	free(c->frees);
	free(c->bug);
	free(c);
}

static void site_name(const struct ftrace_rec *r, char *buf, size_t n)
{
	if (r->site.name)
		snprintf(buf, n, "%s+0x%llx", r->site.name,
			 (unsigned long long)(r->site.ip - r->site.func));
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)r->site.ip);
}

/* ftrace_bug(): the record is left FAILED|DISABLED and ftrace is killed. */
static void core_bug(struct ftrace_core *c, struct ftrace_rec *r,
		     const char *verb, const char *msg)
{
	char where[160], buf[800];

	if (r) {
		site_name(r, where, sizeof(where));
		r->flags |= FTRACE_FL_FAILED | FTRACE_FL_DISABLED;
		snprintf(buf, sizeof(buf), "ftrace bug: %s failed at %s (ip 0x%llx): %s",
			 verb, where, (unsigned long long)r->site.ip, msg);
	} else {
		snprintf(buf, sizeof(buf), "ftrace bug: %s failed: %s", verb, msg);
	}
	if (!c->bug)
		c->bug = strdup(buf);
}

int core_check_alive(struct ftrace_core *c, struct ftv_err *err)
{
	if (c->bug)
		return ftv_errf(err, "ftrace is disabled after: %s", c->bug);
	return 0;
}

int ftrace_core_loc_wanted(const struct ftrace_core *c, uint64_t addr, int in_text)
{
	/* The bug: the zeroed entry of a weak function came back from the
	 * boot relocation as a value that is neither zero nor the
	 * kaslr_offset() the old test compared with, and became a record. */
	if (c->cfg.mutants & FTRACE_MUT_PATCH_ZEROED_ENTRY)
		return 1;
	return addr && in_text;
}

/* Appends the record of site s (ip order), with copies of its names. */
static struct ftrace_rec *new_rec(struct ftrace_core *c, const struct ftrace_site *s,
				  struct ftv_err *err)
{
	struct ftrace_rec *r;

	if (c->nrecs && s->ip <= c->recs[c->nrecs - 1].site.ip) {
		ftv_errf(err, "ftrace: site 0x%llx (%s) added out of ip order",
			 (unsigned long long)s->ip, s->name ? s->name : "?");
		return NULL;
	}
	if ((c->cfg.arch->flags & FTRACE_ARCH_CALL_OPS) && !s->literal && !s->zeroed) {
		ftv_errf(err, "ftrace: site 0x%llx (%s) has no ops literal but arch %s uses CALL_OPS",
			 (unsigned long long)s->ip, s->name ? s->name : "?", c->cfg.arch->name);
		return NULL;
	}
	if (VEC_RESERVE(c->recs, c->cap, c->nrecs + 1)) {
		core_oom(err);
		return NULL;
	}
	r = &c->recs[c->nrecs];
	memset(r, 0, sizeof(*r));
	r->site = *s;
	/* The record keeps its own copies of the names. */
	r->site.name = s->name ? strdup(s->name) : NULL;
	r->site.module = s->module ? strdup(s->module) : NULL;
	if ((s->name && !r->site.name) || (s->module && !r->site.module)) {
		free((char *)r->site.name);
		free((char *)r->site.module);
		core_oom(err);
		return NULL;
	}
	c->nrecs++;
	return r;
}

/* ftrace_init_nop() of record i, into p; the record is FAILED on error. */
static int rec_init_nop(struct ftrace_core *c, size_t i, struct plan *p, struct ftv_err *err)
{
	struct ftrace_rec *r = &c->recs[i];
	struct ftv_err verr = { { 0 } };
	size_t mark = p->n;
	uint64_t lit = (c->cfg.arch->flags & FTRACE_ARCH_CALL_OPS) ? c->nop_ops : 0;

	if (c->cfg.arch->init_nop(c->cfg.arch_ctx, &r->site, lit, p, &verr)) {
		p->n = mark;
		core_bug(c, r, "ftrace_init_nop", verr.msg);
		return ftv_errf(err, "%s", c->bug);
	}
	for (size_t k = mark; k < p->n; k++)
		p->steps[k].rec = (int)i;
	r->ops_cur = lit;
	return 0;
}

int ftrace_core_add_site(struct ftrace_core *c, const struct ftrace_site *s,
			 struct plan *p, struct ftv_err *err)
{
	struct ftrace_rec *r;

	if (core_check_alive(c, err))
		return -1;
	r = new_rec(c, s, err);
	if (!r)
		return -1;
	if (rec_init_nop(c, c->nrecs - 1, p, err))
		return -1;
	/* ftrace_module_init: a module's records stay out of every update
	 * until ftrace_module_enable, just before the module's init runs. */
	if (s->module)
		r->flags |= FTRACE_FL_DISABLED;
	return (int)(c->nrecs - 1);
}

int ftrace_core_add_module_site(struct ftrace_core *c, const struct ftrace_site *s,
				struct ftv_err *err)
{
	struct ftrace_rec *r;

	if (!s->module)
		return ftv_errf(err, "ftrace: site 0x%llx (%s) belongs to no module",
				(unsigned long long)s->ip, s->name ? s->name : "?");
	r = new_rec(c, s, err);
	if (!r)
		return -1;
	r->flags |= FTRACE_FL_UNLOADED | FTRACE_FL_DISABLED;
	return (int)(c->nrecs - 1);
}

/* The records of module, or an error naming it. */
static int module_recs(struct ftrace_core *c, const char *module, int *loaded,
		       struct ftv_err *err)
{
	int n = 0;

	*loaded = 0;
	for (size_t i = 0; i < c->nrecs; i++) {
		const struct ftrace_rec *r = &c->recs[i];

		if (!r->site.module || strcmp(r->site.module, module))
			continue;
		n++;
		*loaded |= !(r->flags & FTRACE_FL_UNLOADED);
	}
	if (!n)
		return ftv_errf(err, "ftrace: no records for module %s", module);
	return n;
}

/* ftrace_module_init(), ftrace_process_locs() for a module being loaded:
 * every site is turned into its disabled state before anything can run
 * it; the records stay DISABLED until ftrace_module_enable. The kernel
 * does it without stop_machine: nobody runs the module yet. */
int ftrace_module_init(struct ftrace_core *c, const char *module, struct plan *p,
		       struct ftv_err *err)
{
	int loaded;

	if (core_check_alive(c, err) || module_recs(c, module, &loaded, err) < 0)
		return -1;
	if (loaded)
		return ftv_errf(err, "ftrace: module %s is already loaded", module);
	for (size_t i = 0; i < c->nrecs; i++) {
		struct ftrace_rec *r = &c->recs[i];

		if (!r->site.module || strcmp(r->site.module, module))
			continue;
		r->flags &= ~FTRACE_FL_UNLOADED;
		if (rec_init_nop(c, i, p, err))
			return -1;
	}
	return 0;
}

/* ftrace_release_mod(): called by delete_module once nobody calls the
 * module any more; its records are freed, so no update patches its text
 * again. */
int ftrace_release_mod(struct ftrace_core *c, const char *module, struct ftv_err *err)
{
	int loaded;

	if (module_recs(c, module, &loaded, err) < 0)
		return -1;
	if (!loaded)
		return ftv_errf(err, "ftrace: module %s is not loaded", module);
	for (size_t i = 0; i < c->nrecs; i++) {
		struct ftrace_rec *r = &c->recs[i];

		if (!r->site.module || strcmp(r->site.module, module))
			continue;
		r->flags = FTRACE_FL_UNLOADED | FTRACE_FL_DISABLED;
		r->refs = 0;
		r->ops_cur = 0;
		r->direct = 0;
	}
	return 0;
}

int ftrace_module_enable(struct ftrace_core *c, const char *module,
			 struct plan *p, struct ftv_err *err)
{
	int found = 0, ret;

	if (core_check_alive(c, err))
		return -1;
	for (size_t i = 0; i < c->nrecs; i++) {
		struct ftrace_rec *r = &c->recs[i];

		if (!r->site.module || (module && strcmp(r->site.module, module)))
			continue;
		if (r->flags & FTRACE_FL_UNLOADED)
			continue;
		found = 1;
		if (!(r->flags & FTRACE_FL_FAILED))
			r->flags &= ~FTRACE_FL_DISABLED;
	}
	if (!found && !module)
		return 0;
	if (!found)
		return ftv_errf(err, "ftrace: no records for module %s", module);
	/* Nothing runs the module's code yet: no stop_machine. */
	c->no_stop_machine = 1;
	ret = core_update(c, GRAPH_KEEP, p, err);
	c->no_stop_machine = 0;
	return ret;
}

int ops_traces(const struct ftrace_ops *op, uint64_t ip)
{
	/* ftrace_ops_test(): an empty filter traces everything; notrace
	 * always wins. */
	if (op->filter.n && !ipset_has(&op->filter, ip))
		return 0;
	return !ipset_has(&op->notrace, ip);
}

/* The func the site may call straight through the ops, without the list
 * function's help (ftrace_ops_get_func() == ops->func). */
static int ops_callable_directly(const struct ftrace_ops *op)
{
	return !(op->flags & (FTRACE_OPS_FL_RECURSION | FTRACE_OPS_FL_RCU));
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

size_t ftrace_core_nrecs(const struct ftrace_core *c)
{
	return c->nrecs;
}

const struct ftrace_rec *ftrace_core_rec(const struct ftrace_core *c, size_t i)
{
	return i < c->nrecs ? &c->recs[i] : NULL;
}

int ftrace_core_find_rec(const struct ftrace_core *c, uint64_t ip)
{
	size_t lo = 0, hi = c->nrecs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (c->recs[mid].site.ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->nrecs && c->recs[lo].site.ip == ip &&
	       !(c->recs[lo].flags & FTRACE_FL_UNLOADED) ? (int)lo : -1;
}

uint64_t ftrace_core_list_ops(const struct ftrace_core *c)
{
	return c->list_ops;
}

const struct ftrace_ops_layout *ftrace_core_ops_layout(const struct ftrace_core *c)
{
	return c->cfg.ops_layout;
}

uint64_t ftrace_core_nop_ops(const struct ftrace_core *c)
{
	return c->nop_ops;
}

uint64_t ftrace_core_list_head(const struct ftrace_core *c)
{
	return c->list_head;
}

uint64_t ftrace_core_function_trace_op(const struct ftrace_core *c)
{
	return c->trace_op;
}

uint64_t ftrace_core_trace_func(const struct ftrace_core *c)
{
	return c->trace_func;
}

int ftrace_core_graph_enabled(const struct ftrace_core *c)
{
	return c->graph_enabled;
}

const char *ftrace_core_bug(const struct ftrace_core *c)
{
	return c->bug;
}

void ftrace_core_rec_refused(struct ftrace_core *c, int rec)
{
	if (rec >= 0 && (size_t)rec < c->nrecs)
		c->recs[rec].flags |= FTRACE_FL_FAILED | FTRACE_FL_DISABLED;
}

void ftrace_core_mark_failed(struct ftrace_core *c, int rec, const char *msg)
{
	struct ftrace_rec *r = rec >= 0 && (size_t)rec < c->nrecs
				       ? &c->recs[rec] : NULL;

	core_bug(c, r, "applying the plan", msg ? msg : "validation failed");
}

struct ftrace_core_state {
	char *bug;
	size_t nrecs;
	unsigned long flags[];
};

struct ftrace_core_state *ftrace_core_state_save(const struct ftrace_core *c)
{
	struct ftrace_core_state *s =
		malloc(sizeof(*s) + c->nrecs * sizeof(s->flags[0]));

	if (!s)
		return NULL;
	s->bug = c->bug ? strdup(c->bug) : NULL;
	s->nrecs = c->nrecs;
	for (size_t i = 0; i < c->nrecs; i++)
		s->flags[i] = c->recs[i].flags;
	return s;
}

void ftrace_core_state_restore(struct ftrace_core *c,
			       const struct ftrace_core_state *s)
{
	free(c->bug);
	c->bug = s->bug ? strdup(s->bug) : NULL;
	for (size_t i = 0; i < s->nrecs && i < c->nrecs; i++)
		c->recs[i].flags = s->flags[i];
}

void ftrace_core_state_free(struct ftrace_core_state *s)
{
	if (!s)
		return;
	free(s->bug);
	free(s);
}
