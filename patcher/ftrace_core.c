/* The ftrace core model (ftrace_core.h): its lifecycle, ftrace_bug(),
 * the accessors and the state an exhaustive walk saves. The records and
 * modules are in ftrace_recs.c, the call addresses in ftrace_addr.c, the
 * batched code update in ftrace_update.c. */
#include "patcher/ftrace_internal.h"
#include "patcher/ftrace_abi.h"
#include "sim/aspace.h"

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
void core_bug(struct ftrace_core *c, struct ftrace_rec *r,
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

int ftrace_core_state_update(struct ftrace_core_state *s, const struct ftrace_core *c)
{
	char *bug;

	if (s->nrecs != c->nrecs)
		return -1;
	if (c->bug && (!s->bug || strcmp(s->bug, c->bug))) {
		bug = strdup(c->bug);
		if (!bug)
			return -1;
		free(s->bug);
		s->bug = bug;
	} else if (!c->bug) {
		free(s->bug);
		s->bug = NULL;
	}
	for (size_t i = 0; i < c->nrecs; i++)
		s->flags[i] = c->recs[i].flags;
	return 0;
}

void ftrace_core_state_restore(struct ftrace_core *c,
			       const struct ftrace_core_state *s)
{
	free(c->bug);
	c->bug = s->bug ? strdup(s->bug) : NULL;
	for (size_t i = 0; i < s->nrecs && i < c->nrecs; i++)
		c->recs[i].flags = s->flags[i];
}

uint64_t ftrace_core_state_hash(const struct ftrace_core_state *s, uint64_t h)
{
	/* FNV-1a over the flags, then the bug's text */
	for (size_t i = 0; i < s->nrecs; i++)
		for (size_t b = 0; b < sizeof(s->flags[i]); b++)
			h = (h ^ (uint8_t)(s->flags[i] >> (8 * b))) * 0x100000001b3ULL;
	for (const char *p = s->bug ? s->bug : ""; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	return h;
}

void ftrace_core_state_free(struct ftrace_core_state *s)
{
	if (!s)
		return;
	free(s->bug);
	free(s);
}
