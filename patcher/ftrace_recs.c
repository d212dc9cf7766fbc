/* The ftrace core's records: one per site (ftrace_process_locs), their
 * first NOP (ftrace_init_nop), and the module's (ftrace_module_init,
 * ftrace_module_enable, ftrace_release_mod in kernel/trace/ftrace.c). */
#include "patcher/ftrace_internal.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

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
