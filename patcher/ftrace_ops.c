/* ftrace_ops in the model: creation, their image in emulated memory (struct
 * ftv_ops, filter tables, the ops list), filters, register and unregister
 * (register_ftrace_function / unregister_ftrace_function,
 * ftrace_set_filter / ftrace_set_notrace). */
#include "patcher/ftrace_internal.h"
#include "patcher/ftrace_abi.h"
#include "util/num.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct ftrace_ops *ftrace_ops_new(struct ftrace_core *c,
				  const struct ftrace_ops_desc *d,
				  struct ftv_err *err)
{
	struct ftrace_ops *o;

	if (core_check_alive(c, err))
		return NULL;
	o = calloc(1, sizeof(*o));
	if (!o || !(o->name = strdup(d->name ? d->name : "ops"))) {
		free(o);
		core_oom(err);
		return NULL;
	}
	o->addr = c->cfg.alloc(c->cfg.alloc_ctx, c->cfg.ops_layout->size,
			       c->cfg.ops_layout->align, err);
	if (!o->addr) {
		if (err && !err->msg[0])
			ftv_errf(err, "ftrace: no emulated memory for ops %s",
				 o->name);
		free(o->name);
		free(o);
		return NULL;
	}
	core_name(c, o->addr, c->cfg.ops_layout->size, "ops:%s", o->name);
	o->core = c;
	o->id = c->next_id++;
	o->func = d->func;
	o->flags = d->flags & ~FTRACE_OPS_FL_DYNAMIC;
	if (!d->static_ops)
		o->flags |= FTRACE_OPS_FL_DYNAMIC;
	o->private_data = d->private_data;
	o->trampoline = d->trampoline;
	o->trampoline_size = d->trampoline_size;
	o->tables_owned = 1;
	o->all_next = c->all;
	c->all = o;
	return o;
}

/* Writes a sorted table preceded by its count (FTV_TABLE_COUNT); the
 * caller publishes the pointer afterwards. */
static int write_table(struct ftrace_core *c, const struct ipset *s,
		       struct emu_table *t, struct plan *p, const char *what,
		       const char *owner, struct ftv_err *err)
{
	uint64_t base;

	t->ptr = 0;
	t->n = s->n;
	if (!s->n)
		return 0;
	base = c->cfg.alloc(c->cfg.alloc_ctx, (s->n + 1) * 8, 8, err);
	if (!base)
		return err && err->msg[0] ? -1
			: ftv_errf(err, "ftrace: no emulated memory for a %zu-entry table",
				   s->n);
	core_name(c, base, (s->n + 1) * 8, "ops:%s:%s", owner,
		  strstr(what, "notrace") ? "notrace" : "filter");
	if (emu_w64(p, base, s->n, what))
		return core_oom(err);
	for (size_t i = 0; i < s->n; i++)
		if (emu_w64(p, base + 8 + 8 * i, s->v[i], what))
			return core_oom(err);
	t->ptr = base + 8;
	return 0;
}

static int queue_table_free(struct ftrace_core *c, struct emu_table *t,
			    const char *what)
{
	if (!t->ptr)
		return 0;
	if (core_queue_free(c, t->ptr + FTV_TABLE_COUNT, (t->n + 1) * 8, what))
		return -1;
	t->ptr = 0;
	t->n = 0;
	return 0;
}

int ops_write_tables(struct ftrace_core *c, struct ftrace_ops *ops,
		     struct plan *p, struct ftv_err *err)
{
	if (!ops->tables_owned)
		return 0;
	if (write_table(c, &ops->filter, &ops->filter_tbl, p,
			"ops filter table", ops->name, err) ||
	    write_table(c, &ops->notrace, &ops->notrace_tbl, p,
			"ops notrace table", ops->name, err))
		return -1;
	return 0;
}

/* The flags a trampoline reads (FTV_OPS_FL_*: the same low bits). */
static uint64_t emu_flags(const struct ftrace_ops *ops)
{
	return ops->flags & (FTV_OPS_FL_SAVE_REGS | FTV_OPS_FL_RECURSION |
			     FTV_OPS_FL_STUB | FTV_OPS_FL_DIRECT |
			     FTV_OPS_FL_GRAPH);
}

int ops_write_struct(struct ftrace_ops *ops, uint64_t next, struct plan *p)
{
	const struct ftrace_ops_layout *l = ops->core->cfg.ops_layout;
	uint64_t a = ops->addr;

	return emu_w64(p, a + l->func, ops->func, "ops->func") ||
	       emu_w64(p, a + l->direct_call, ops->direct_call,
		       "ops->direct_call") ||
	       emu_w64(p, a + l->flags, emu_flags(ops), "ops->flags") ||
	       emu_w64(p, a + l->private_data, ops->private_data,
		       "ops->private") ||
	       emu_w64(p, a + l->filter, ops->filter_tbl.ptr,
		       "ops->filter") ||
	       emu_w64(p, a + l->nfilter, ops->filter_tbl.n,
		       "ops->nfilter") ||
	       emu_w64(p, a + l->notrace, ops->notrace_tbl.ptr,
		       "ops->notrace") ||
	       emu_w64(p, a + l->nnotrace, ops->notrace_tbl.n,
		       "ops->nnotrace") ||
	       emu_w64(p, a + l->tramp, ops->trampoline,
		       "ops->trampoline") ||
	       emu_w64(p, a + l->id, (uint64_t)ops->id, "ops->id") ||
	       emu_w64(p, a + l->next, next, "ops->next");
}

/* add_ftrace_ops(): the new ops goes at the head; its fields (next
 * included) are visible before the head points at it (rcu_assign_pointer
 * is a store-release: DMB then store). */
int ops_link(struct ftrace_core *c, struct ftrace_ops *ops, struct plan *p,
	     struct ftv_err *err)
{
	uint64_t next = c->list ? c->list->addr : 0;

	if (ops_write_tables(c, ops, p, err))
		return -1;
	if (ops_write_struct(ops, next, p) || emu_publish_barrier(c, p) ||
	    emu_w64(p, c->list_head, ops->addr, "ftrace_ops_list = ops"))
		return core_oom(err);
	ops->next = c->list;
	c->list = ops;
	ops->registered = 1;
	return 0;
}

/* remove_ftrace_ops(): the predecessor skips the ops; the ops keeps its own
 * next so that a CPU walking the list through it still reaches the end. */
int ops_unlink(struct ftrace_core *c, struct ftrace_ops *ops, struct plan *p)
{
	struct ftrace_ops **pp = &c->list, *prev = NULL;
	uint64_t next = ops->next ? ops->next->addr : 0;

	while (*pp && *pp != ops) {
		prev = *pp;
		pp = &(*pp)->next;
	}
	if (!*pp)
		return 0;
	*pp = ops->next;
	ops->next = NULL;
	ops->registered = 0;
	if (emu_publish_barrier(c, p))
		return -1;
	if (prev)
		return emu_w64(p, prev->addr + c->cfg.ops_layout->next, next,
			       "prev->next = ops->next");
	return emu_w64(p, c->list_head, next, "ftrace_ops_list = ops->next");
}

/* What an unregistered ops leaves to free once every CPU has quiesced. */
int ops_queue_release(struct ftrace_core *c, struct ftrace_ops *ops)
{
	if ((ops->flags & FTRACE_OPS_FL_ALLOC_TRAMP) &&
	    core_queue_free(c, ops->trampoline, ops->trampoline_size,
			    "free ops trampoline"))
		return -1;
	if (ops->tables_owned &&
	    (queue_table_free(c, &ops->filter_tbl, "free ops filter table") ||
	     queue_table_free(c, &ops->notrace_tbl, "free ops notrace table")))
		return -1;
	if (ops->flags & FTRACE_OPS_FL_DYNAMIC) {
		if (core_queue_free(c, ops->addr, c->cfg.ops_layout->size, "free ops"))
			return -1;
		ops->dead = 1;
	}
	return 0;
}

static int ops_usable(struct ftrace_core *c, struct ftrace_ops *ops,
		      struct ftv_err *err)
{
	if (core_check_alive(c, err))
		return -1;
	if (!ops || ops->core != c)
		return ftv_errf(err, "ftrace: ops does not belong to this model");
	if (ops->dead)
		return ftv_errf(err, "ftrace: ops %s was freed", ops->name);
	return 0;
}

int ftrace_register_ops(struct ftrace_core *c, struct ftrace_ops *ops,
			struct plan *p, struct ftv_err *err)
{
	if (ops_usable(c, ops, err))
		return -1;
	if (ops->registered)
		return ftv_errf(err, "ftrace: ops %s is already registered",
				ops->name);
	if ((ops->flags & FTRACE_OPS_FL_DIRECT) && !ops->direct_call)
		return ftv_errf(err, "ftrace: ops %s is a direct ops without a trampoline: use ftrace_register_direct",
				ops->name);
	if (ops_link(c, ops, p, err) ||
	    core_update(c, GRAPH_KEEP, p, err))
		return -1;
	if (!c->bug && core_finish_frees(c, p))
		return core_oom(err);
	return 0;
}

int ftrace_unregister_ops(struct ftrace_core *c, struct ftrace_ops *ops,
			  struct plan *p, struct ftv_err *err)
{
	int ret;

	if (ops_usable(c, ops, err))
		return -1;
	if (!ops->registered)
		return ftv_errf(err, "ftrace: ops %s is not registered",
				ops->name);
	if (ops == c->graph_ops)
		return ftv_errf(err, "ftrace: ops %s is the graph ops: use ftrace_unregister_graph",
				ops->name);
	if (ops_unlink(c, ops, p))
		return core_oom(err);
	if ((c->cfg.mutants & FTRACE_MUT_FREE_BEFORE_UNPATCH) &&
	    (ops_queue_release(c, ops) || core_finish_frees(c, p)))
		return core_oom(err);
	c->removed_ops = ops;
	ret = core_update(c, GRAPH_KEEP, p, err);
	c->removed_ops = NULL;
	if (ret)
		return -1;
	/* After ftrace_bug a site may still reference the ops: keep it. */
	if (c->bug || (c->cfg.mutants & FTRACE_MUT_FREE_BEFORE_UNPATCH))
		return 0;
	if (ops_queue_release(c, ops) || core_finish_frees(c, p))
		return core_oom(err);
	return 0;
}

/* Every record ip the token names: a function name, or an address that is
 * a record ip or function entry. */
static int spec_token(struct ftrace_core *c, const char *tok, struct ipset *s,
		      struct ftv_err *err)
{
	uint64_t addr;
	int byaddr = ftv_parse_u64(tok, &addr) == 0, found = 0;

	for (size_t i = 0; i < c->nrecs; i++) {
		const struct ftrace_site *si = &c->recs[i].site;
		int hit = byaddr ? (si->ip == addr || si->func == addr)
				 : (si->name && !strcmp(si->name, tok));

		if (!hit || (c->recs[i].flags & FTRACE_FL_UNLOADED))
			continue;
		if (ipset_add(s, si->ip))
			return core_oom(err);
		found = 1;
	}
	if (!found)
		return ftv_errf(err, "ftrace: no traceable function matches '%s'",
				tok);
	return 0;
}

int ops_parse_spec(struct ftrace_core *c, const char *spec,
		      struct ipset *s, struct ftv_err *err)
{
	char *dup = strdup(spec ? spec : ""), *save = NULL, *tok;
	int ret = 0;

	if (!dup)
		return core_oom(err);
	for (tok = strtok_r(dup, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		char *end;

		while (isspace((unsigned char)*tok))
			tok++;
		end = tok + strlen(tok);
		while (end > tok && isspace((unsigned char)end[-1]))
			*--end = 0;
		if (*tok)
			ret = spec_token(c, tok, s, err);
	}
	free(dup);
	return ret;
}

/* ftrace_set_hash + ftrace_hash_move_and_update_ops: the new table is
 * complete before the pointer moves; records are updated after; the old
 * table goes after a quiescent point. */
static int set_hash(struct ftrace_core *c, struct ftrace_ops *ops,
		    int notrace, const struct ipset *add, int reset,
		    struct plan *p, struct ftv_err *err)
{
	struct ipset *set = notrace ? &ops->notrace : &ops->filter;
	struct emu_table *tbl = notrace ? &ops->notrace_tbl : &ops->filter_tbl;
	struct ipset next = { 0 };
	struct emu_table nt;
	struct plan tp = { 0 };
	int ret = -1, early;

	if (ops_usable(c, ops, err))
		return -1;
	if (!ops->tables_owned)
		return ftv_errf(err, "ftrace: ops %s shares its tables", ops->name);
	if (ops->registered && (ops->flags & FTRACE_OPS_FL_DIRECT) && !c->direct_batch)
		return ftv_errf(err, "ftrace: ops %s is a registered direct ops: use ftrace_modify_direct",
				ops->name);
	if ((!reset && ipset_copy(&next, set)))
		goto oom;
	for (size_t i = 0; i < add->n; i++)
		if (ipset_add(&next, add->v[i]))
			goto oom;
	if (!ops->registered) {
		ipset_release(set);
		*set = next;
		return 0;
	}
	plan_init(&tp);
	if (write_table(c, &next, &nt, &tp,
			notrace ? "new notrace table" : "new filter table",
			ops->name, err))
		goto out;
	early = !!(c->cfg.mutants & FTRACE_MUT_PUBLISH_TABLE_EARLY);
	if ((!early && plan_append(p, &tp)) || emu_publish_barrier(c, p) ||
	    emu_w64(p, ops->addr + (notrace ? c->cfg.ops_layout->notrace : c->cfg.ops_layout->filter),
		    nt.ptr, notrace ? "ops->notrace" : "ops->filter") ||
	    emu_w64(p, ops->addr + (notrace ? c->cfg.ops_layout->nnotrace : c->cfg.ops_layout->nfilter),
		    nt.n, notrace ? "ops->nnotrace" : "ops->nfilter") ||
	    (early && plan_append(p, &tp)) ||
	    queue_table_free(c, tbl, notrace ? "free old notrace table"
					     : "free old filter table"))
		goto oom;
	*tbl = nt;
	ipset_release(set);
	*set = next;
	next = (struct ipset){ 0 };
	if (core_update(c, GRAPH_KEEP, p, err))
		goto out;
	if (!c->bug && core_finish_frees(c, p))
		goto oom;
	ret = 0;
	goto out;
oom:
	core_oom(err);
out:
	plan_free(&tp);
	ipset_release(&next);
	return ret;
}

static int set_spec(struct ftrace_core *c, struct ftrace_ops *ops, int notrace,
		    const char *spec, int reset, struct plan *p,
		    struct ftv_err *err)
{
	struct ipset add = { 0 };
	int ret;

	if (ops_usable(c, ops, err))
		return -1;
	ret = ops_parse_spec(c, spec, &add, err);
	if (!ret)
		ret = set_hash(c, ops, notrace, &add, reset, p, err);
	ipset_release(&add);
	return ret;
}

static int set_ips(struct ftrace_core *c, struct ftrace_ops *ops, int notrace,
		   const uint64_t *ips, size_t n, int reset, struct plan *p,
		   struct ftv_err *err)
{
	struct ipset add = { 0 };
	int ret = 0;

	if (ops_usable(c, ops, err))
		return -1;
	for (size_t i = 0; i < n && !ret; i++) {
		if (ftrace_core_find_rec(c, ips[i]) < 0)
			ret = ftv_errf(err, "ftrace: 0x%llx is not a record ip",
				       (unsigned long long)ips[i]);
		else if (ipset_add(&add, ips[i]))
			ret = core_oom(err);
	}
	if (!ret)
		ret = set_hash(c, ops, notrace, &add, reset, p, err);
	ipset_release(&add);
	return ret;
}

int ftrace_set_filter(struct ftrace_core *c, struct ftrace_ops *ops,
		      const char *spec, int reset, struct plan *p,
		      struct ftv_err *err)
{
	return set_spec(c, ops, 0, spec, reset, p, err);
}

int ftrace_set_notrace(struct ftrace_core *c, struct ftrace_ops *ops,
		       const char *spec, int reset, struct plan *p,
		       struct ftv_err *err)
{
	return set_spec(c, ops, 1, spec, reset, p, err);
}

int ftrace_set_filter_ips(struct ftrace_core *c, struct ftrace_ops *ops,
			  const uint64_t *ips, size_t n, int reset,
			  struct plan *p, struct ftv_err *err)
{
	return set_ips(c, ops, 0, ips, n, reset, p, err);
}

int ftrace_set_notrace_ips(struct ftrace_core *c, struct ftrace_ops *ops,
			   const uint64_t *ips, size_t n, int reset,
			   struct plan *p, struct ftv_err *err)
{
	return set_ips(c, ops, 1, ips, n, reset, p, err);
}

uint64_t ftrace_ops_addr(const struct ftrace_ops *ops)
{
	return ops->addr;
}

const char *ftrace_ops_name(const struct ftrace_ops *ops)
{
	return ops->name;
}

unsigned ftrace_ops_flags(const struct ftrace_ops *ops)
{
	return ops->flags;
}

int ftrace_ops_registered(const struct ftrace_ops *ops)
{
	return ops->registered;
}

uint64_t ftrace_ops_direct_call(const struct ftrace_ops *ops)
{
	return ops->direct_call;
}

int ftrace_ops_id(const struct ftrace_ops *ops)
{
	return ops->id;
}

int ftrace_ops_traces_ip(const struct ftrace_ops *ops, uint64_t ip)
{
	return ops_traces(ops, ip);
}

struct ftrace_ops *ftrace_core_ops_at(const struct ftrace_core *c,
				      uint64_t addr)
{
	for (struct ftrace_ops *o = c->all; o; o = o->all_next)
		if (o->addr == addr)
			return o;
	return NULL;
}
