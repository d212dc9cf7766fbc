/* The ftrace core over a world's sites: the records made from the loaded
 * (or given) sites, the modules, the kernel table's zeroed entries, and
 * the boot-time init_nop of every site, applied before any CPU exists
 * (ftrace_init, ftrace_module_init). */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static int cmp_site(const void *a, const void *b)
{
	const struct wrec *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* A validate failure of init_nop: remember it and take the record out of
 * the workload and the checks. */
static int boot_failure(struct world *w, uint64_t addr, uint32_t actual,
			uint32_t expected, struct ftv_err *err)
{
	struct world_boot_failure *f;

	if (VEC_RESERVE(w->bootfail, w->capbootfail, w->nbootfail + 1))
		return ftv_errf(err, "out of memory");
	f = &w->bootfail[w->nbootfail++];
	*f = (struct world_boot_failure){ addr, addr, actual, expected };
	for (size_t i = 0; i < w->nrecs; i++) {
		struct wrec *r = &w->recs[i];

		if (r->ip == addr || r->mov == addr || r->literal == addr) {
			r->active = 0;
			f->ip = r->ip;
		}
	}
	return 0;
}

size_t world_boot_failures(const struct world *w,
			   const struct world_boot_failure **out)
{
	*out = w->bootfail;
	return w->nbootfail;
}

/* Boot plan steps applied at a time (make_core). */
#define WORLD_BOOT_CHUNK 4096

/* Writes a plan straight into memory: boot time, before any CPU exists
 * (ftrace_init runs before secondary CPUs come up; modules are not yet
 * runnable when ftrace_module_init patches them). */
static int apply_boot_plan(struct world *w, const struct plan *p,
			   struct ftv_err *err)
{
	int refused = -2;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];
		char where[160];

		if ((s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) && s->rec >= 0 &&
		    (s->rec == refused || world_boot_write_outside_text(w, s))) {
			/* the kernel BUGs here; ftv reports it, makes no write
			 * and leaves the record out of every update */
			refused = s->rec;
			ftrace_core_rec_refused(w->core, s->rec);
			continue;
		}
		if (s->op == PLAN_WRITE_INSN) {
			uint32_t cur;

			if (sim_read32(w->as, s->addr, &cur))
				return ftv_errf(err, "boot plan writes unmapped 0x%llx",
						(unsigned long long)s->addr);
			if (s->validate && cur != (uint32_t)s->old &&
			    w->cfg.keep_boot_failures) {
				/* ftrace_bug(): the write is not made and the
				 * record is never enabled; reported, not fatal. */
				if (boot_failure(w, s->addr, cur, (uint32_t)s->old, err))
					return -1;
				continue;
			}
			if (s->validate && cur != (uint32_t)s->old)
				return ftv_errf(err, "ftrace failed to modify [<%016llx>] %s: "
						"actual 0x%08x, expected 0x%08x",
						(unsigned long long)s->addr,
						sim_symbolize(w->as, s->addr, where, sizeof(where), 0),
						cur, (uint32_t)s->old);
			sim_write32(w->as, s->addr, (uint32_t)s->new);
		} else if (s->op == PLAN_WRITE_DATA64) {
			if (sim_write64(w->as, s->addr, s->new))
				return ftv_errf(err, "boot plan writes unmapped 0x%llx",
						(unsigned long long)s->addr);
		}
	}
	return 0;
}

/* The world's modules, from the configuration: the image's object of each
 * module path, and whether it is loaded late. */
static int make_modules(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;

	for (unsigned i = 0; i < c->nmodules; i++) {
		const struct sim_object_info *oi = NULL;
		struct wmod *m = &w->mods[w->nmods];

		for (size_t k = 0; k < sim_image_nobjects(w->img); k++)
			if (sim_image_object(w->img, k)->is_module &&
			    !strcmp(sim_image_object(w->img, k)->path, c->modules[i]))
				oi = sim_image_object(w->img, k);
		if (!oi)
			return ftv_errf(err, "module %s is not in the image", c->modules[i]);
		for (size_t k = 0; k < w->nmods; k++)
			if (!strcmp(w->mods[k].name, oi->name))
				return ftv_errf(err, "module %s loaded twice", oi->name);
		memset(m, 0, sizeof(*m));
		m->name = oi->name;
		m->obj = oi;
		m->late = c->module_late[i];
		w->run.mod_state[w->nmods] = m->late ? WMOD_NOT_LOADED : WMOD_LOADED;
		m->ready_plan = -1;
		w->nmods++;
	}
	return 0;
}

static int mod_index(const struct world *w, const char *module)
{
	for (size_t k = 0; module && k < w->nmods; k++)
		if (!strcmp(w->mods[k].name, module))
			return (int)k;
	return -1;
}

/* module_init_ftrace_plt(): one ftrace PLT per module, made when it is
 * linked (before any CPU exists, so no text is written while they run). */
static uint64_t module_plt(struct world *w, const char *module, struct ftv_err *err)
{
	int m = mod_index(w, module);

	if (!w->ad->module_plt || !module)
		return 0;
	if (m >= 0) {
		if (!w->mods[m].plt)
			w->mods[m].plt = w->ad->module_plt(w, module, err);
		return w->mods[m].plt;
	}
	/* a module of a captured layout (replay): no world module */
	return w->ad->module_plt(w, module, err);
}

int world_make_core(struct world *w, struct ftv_err *err)
{
	struct ftrace_core_config cc = {
		.arch = w->backend,
		.caller = w->caller,
		.list_func = w->list_func,
		.nop_func = w->nop_func,
		.stub_func = w->stub,
		.direct_func = w->direct_func,
		.alloc = ftrace_alloc_from_region,
		.alloc_ctx = w->data,
		.mutants = w->cfg.core_mutants,
	};
	const struct world_config *cf = &w->cfg;
	size_t n = cf->sites ? cf->nsites : sim_image_nsites(w->img), k = 0;
	enum ftv_site_kind want = w->sd->kind;
	char where[160], skipped[200] = "", why[sizeof(((struct ftv_err *)0)->msg)] = "";
	size_t nskipped = 0;

	cc.list_head_addr = sim_image_lookup(w->img, "ftv_ops_list");
	cc.trace_op_addr = sim_image_lookup(w->img, "function_trace_op");
	cc.graph_ops_addr = sim_image_lookup(w->img, "ftv_graph_ops");
	w->recs = calloc(n ? n : 1, sizeof(*w->recs));
	if (!w->recs)
		return ftv_errf(err, "out of memory");
	if (make_modules(w, err))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct sim_site *s = cf->sites ? &cf->sites[i]
					   : sim_image_site(w->img, i);
		struct wrec *r = &w->recs[k];

		if (s->kind != want)
			continue;
		r->site = s;
		r->active = !cf->site_active || cf->site_active[i];
		r->ip = s->addr;
		r->func = s->func;
		r->literal = s->literal;
		r->mov = s->mov_addr;
		r->name = s->funcname;
		r->last_plan = -1;
		r->mod = mod_index(w, s->module);
		k++;
	}
	w->nrecs = k;
	qsort(w->recs, w->nrecs, sizeof(*w->recs), cmp_site);
	w->func_sorted = 1;
	for (size_t i = 1; i < w->nrecs; i++)
		if (w->recs[i].func <= w->recs[i - 1].func)
			w->func_sorted = 0;
	/* the backend's context may depend on the sites (what the compiler
	 * left at their entries) */
	if ((w->sd->backend_ctx ? w->sd->backend_ctx : w->ad->backend_ctx)(w, err))
		return -1;
	cc.arch_ctx = w->arch_ctx;
	if (w->ops_layout.size)
		cc.ops_layout = &w->ops_layout;
	plan_reset(&w->scratch);
	w->core = ftrace_core_new(&cc, &w->scratch, err);
	if (!w->core)
		return -1;
	/* ftrace_process_locs over the kernel's table: the zeroed entries
	 * first (they name address 0, below every site); the kernel would
	 * make one record of each, ftv of the first it takes */
	if (!cf->sites && world_zeroed_entries(w, &w->zeroed, &w->nzeroed, err))
		return -1;
	for (size_t i = 0; i < w->nzeroed; i++) {
		struct world_zeroed *z = &w->zeroed[i];
		struct ftrace_site fs;

		z->rec = -1;
		if (!ftrace_core_loc_wanted(w->core, 0, 0) || ftrace_core_nrecs(w->core) ||
		    world_zeroed_site(w, z, &fs) || world_zeroed_unencodable(w, z, &fs))
			continue;
		z->rec = ftrace_core_add_site(w->core, &fs, &w->scratch, err);
		if (z->rec < 0)
			return -1;
	}
	w->caprec_of_core = w->nrecs ? w->nrecs : 1;
	w->rec_of_core = calloc(w->caprec_of_core, sizeof(int));
	if (!w->rec_of_core)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < w->nrecs; i++) {
		struct wrec *r = &w->recs[i];
		struct ftrace_site fs = world_ftrace_site(r->site);
		struct ftv_err serr;
		int idx;

		if (w->backend->site_usable(w->arch_ctx, &fs, &serr)) {
			/* The kernel's WARN in ftrace_call_adjust; the record is
			 * skipped, which is not a violation of the patching. */
			r->rec = -1;
			/* one line for them all, after the loop, naming a few */
			if (!nskipped++)
				snprintf(why, sizeof(why), "%s", serr.msg);
			if (nskipped <= 3)
				snprintf(skipped + strlen(skipped), sizeof(skipped) - strlen(skipped),
					 "%s%s", nskipped > 1 ? ", " : "",
					 sim_symbolize(w->as, r->func, where, sizeof(where), 0));
			continue;
		}
		/* the loader's PLT (a captured module placed as arm64's loader
		 * does), else the world's, one per module */
		if (fs.module && !fs.plt)
			fs.plt = module_plt(w, fs.module, err);
		if (r->mod >= 0 && w->mods[r->mod].late)
			idx = ftrace_core_add_module_site(w->core, &fs, err);
		else
			idx = ftrace_core_add_site(w->core, &fs, &w->scratch, err);
		if (idx < 0)
			return -1;
		/* The boot plan is applied as it grows, between records (a
		 * record's steps stay together), in the order a whole plan
		 * would be: the patcher reads no memory, so nothing it plans
		 * depends on what was applied. A replayed kernel's 44,000
		 * records made a plan of 33 MiB otherwise. */
		if (w->scratch.n >= WORLD_BOOT_CHUNK) {
			if (apply_boot_plan(w, &w->scratch, err))
				return -1;
			plan_reset(&w->scratch);
		}
		r->rec = idx;
		if ((size_t)idx >= w->ncore) {
			if (VEC_RESERVE(w->rec_of_core, w->caprec_of_core, (size_t)idx + 1))
				return ftv_errf(err, "out of memory");
			w->ncore = idx + 1;
		}
		w->rec_of_core[idx] = (int)i;
	}
	if (apply_boot_plan(w, &w->scratch, err))
		return -1;
	plan_reset(&w->scratch);
	/* arm64's ftrace_call_adjust: the ops literal before the site must
	 * be 8-byte aligned, which -falign-functions=8 gives with
	 * -fpatchable-function-entry=4,2 (arch/arm64/Makefile) */
	if (nskipped && w->cfg.notes_out)
		fprintf(w->cfg.notes_out, "note: %zu site%s skipped, as the kernel does: %s (%s%s)%s\n",
			nskipped, nskipped == 1 ? "" : "s", why, skipped, nskipped > 3 ? ", ..." : "",
			strstr(why, "Misaligned") ? "; the ops literal before each needs 8-byte alignment "
							 "(-falign-functions=8)" : "");
	w->run.st.sites = w->nrecs;
	w->run.st.records = ftrace_core_nrecs(w->core);
	if (WORLD_RUN_RESERVE(&w->run, rec, w->nrecs))
		return ftv_errf(err, "out of memory");
	w->run.nrec = w->nrecs;
	return 0;
}
