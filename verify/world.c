/* Building a world: load, link, map the data the trampolines use, create
 * the ftrace core over the loaded sites, init_nop them before any CPU runs,
 * and calibrate the workload. */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"
#include "util/vec.h"

static int sym(struct world *w, const char *name, uint64_t *out, int required,
	       struct ftv_err *err)
{
	*out = sim_image_lookup(w->img, name);
	if (!*out && required)
		return ftv_errf(err, "trampolines: symbol %s not found", name);
	return 0;
}

int world_add_trampolines(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;
	char path[4096];

	for (size_t i = 0; i < WORLD_SCHEME_TRAMPS && w->sd->tramps[i]; i++) {
		snprintf(path, sizeof(path), "%s%s%s/%s", c->tramp_dir,
			 w->ad->tramp_subdir[0] ? "/" : "", w->ad->tramp_subdir,
			 w->sd->tramps[i]);
		if (sim_image_add_file(w->img, path, 0, err))
			return -1;
	}
	return 0;
}

static int load(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;
	struct sim_load_opts lo = { .stub_undefined = 1,
				    .far_modules = c->far_modules };

	w->as = sim_aspace_new();
	if (!w->as)
		return ftv_errf(err, "out of memory");
	w->img = sim_image_new(w->as, &lo);
	if (!w->img)
		return ftv_errf(err, "cannot map the image's regions");
	for (unsigned i = 0; i < c->nobjects; i++)
		if (sim_image_add_file(w->img, c->objects[i], 0, err))
			return -1;
	/* the objects decide the image's architecture; the trampolines
	 * would only say theirs differs */
	if (c->nobjects && sim_image_arch(w->img) != w->sd->arch)
		return ftv_errf(err, "%s: %s object, but scheme %s is %s's (%s schemes: %s)",
				c->objects[0], ftv_arch_name(sim_image_arch(w->img)), w->sd->name,
				ftv_arch_name(w->sd->arch), ftv_arch_name(sim_image_arch(w->img)),
				ftv_arch_schemes(sim_image_arch(w->img)));
	if (world_add_trampolines(w, err))
		return -1;
	for (unsigned i = 0; i < c->nmodules; i++)
		if (sim_image_add_file(w->img, c->modules[i], 1, err))
			return -1;
	return sim_image_link(w->img, err);
}

static int find_symbols(struct world *w, struct ftv_err *err)
{
	/* an arch's trampolines may lack the graph tracer and the per-ops
	 * trampoline template: those tracers are refused there */
	int graph = w->ad->graph_tracer;
	struct {
		const char *name;
		uint64_t *out;
		int required;
	} t[] = {
		{ "ftrace_caller", &w->caller, 1 },
		{ "ftv_tracer_a", &w->tracer_a, 1 },
		{ "ftv_tracer_b", &w->tracer_b, 1 },
		{ "ftrace_ops_list_func", &w->list_func, 1 },
		{ "ftv_nop_ops_func", &w->nop_func, 1 },
		{ "ftrace_stub", &w->stub, 1 },
		{ "ftv_call_direct_funcs", &w->direct_func, 1 },
		{ "ftv_direct_tramp", &w->direct_tramp, 1 },
		{ "ftrace_graph_func", &w->graph_func, graph },
		{ "ftv_prepare_return", &w->prepare_return, graph },
		{ "ftv_return_to_handler", &w->return_handler, graph },
		{ "ftv_quiescent", &w->quiescent, 1 },
		{ "ftv_workload", &w->workload, 1 },
		{ "ftv_workload_done", &w->workload_done, 1 },
		{ "ftv_direct_log", &w->direct_log, 1 },
		{ "ftrace_stub_direct_tramp", &w->stub_direct_tramp, 0 },
		{ "ftrace_caller_ops_known", &w->ops_known, 0 },
		{ "ftrace_ops_tramp_template", &w->tramp_template, graph },
		{ "ftrace_ops_tramp_template_end", &w->tramp_template_end, graph },
		{ "ftrace_ops_tramp_template_ops", &w->tramp_ops_slot, graph },
		{ "ftrace_ops_tramp_template_body", &w->tramp_body_slot, graph },
		{ "ftv_static_key", &w->static_key, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (sym(w, t[i].name, t[i].out, t[i].required, err))
			return -1;
	return 0;
}

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
		m->state = m->late ? WMOD_NOT_LOADED : WMOD_LOADED;
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

static int make_core(struct world *w, struct ftv_err *err)
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
	enum sim_site_layout want = w->sd->layout;
	char where[160];

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

		if (s->layout != want)
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
	if (w->ad->backend_ctx(w, err))
		return -1;
	cc.arch_ctx = w->arch_ctx;
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
		struct ftrace_site fs = {
			.ip = r->ip, .init_addr = r->mov, .func = r->func, .literal = r->literal,
			.name = r->name, .module = r->site->module,
			.kind = w->sd->kind,
		};
		struct ftv_err serr;
		int idx;

		if (w->backend->site_usable(w->arch_ctx, &fs, &serr)) {
			/* The kernel's WARN in ftrace_call_adjust; the record is
			 * skipped, which is not a violation of the patching. */
			r->rec = -1;
			if (w->cfg.notes_out)
				fprintf(w->cfg.notes_out, "note: %s %s (skipped, as the kernel does)\n",
					serr.msg, sim_symbolize(w->as, r->func, where, sizeof(where), 0));
			continue;
		}
		/* the loader's PLT (a captured module placed as arm64's loader
		 * does), else the world's, one per module */
		fs.plt = r->site->plt;
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
	w->st.sites = w->nrecs;
	w->st.records = ftrace_core_nrecs(w->core);
	return 0;
}

static int callable(const struct world *w, const struct wrec *r)
{
	const char *p = w->cfg.callable_prefix ? w->cfg.callable_prefix : "r";
	const char *n = r->name;

	if (r->rec < 0 || !r->active || !n)
		return 0;
	/* the static-key unit's functions (corpus/src/jumplabel.c) take
	 * integers too */
	if (!w->cfg.callable_prefix && !strncmp(n, "jl_", 3))
		return 1;
	if (strncmp(n, p, strlen(p)))
		return 0;
	if (w->cfg.callable_prefix)
		return 1;
	/* the random units' functions: r<seed>_f<n>(long, long) */
	n += 1;
	while (*n >= '0' && *n <= '9')
		n++;
	if (n[0] != '_' || n[1] != 'f')
		return 0;
	for (n += 2; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

/* world_config.call: the records of the functions named, in order. */
static int named_calls(struct world *w, int *pool, struct ftv_err *err)
{
	for (unsigned k = 0; k < w->cfg.ncall; k++) {
		int found = -1;

		for (size_t i = 0; i < w->nrecs && found < 0; i++)
			if (w->recs[i].name && !strcmp(w->recs[i].name, w->cfg.call[k]))
				found = (int)i;
		if (found < 0 || !callable(w, &w->recs[found]))
			return ftv_errf(err, "call %s: no traced function of that name in "
					"the objects that takes integers", w->cfg.call[k]);
		pool[k] = found;
		w->called[found] = 1;
	}
	return 0;
}

/* Whether record i is a function of an object whose functions the probe
 * decides about (world_config.probe_object, probe_module). */
static int probed_object(const struct world *w, const struct wrec *r)
{
	const struct world_config *c = &w->cfg;

	if (!r->site || !r->site->object)
		return 0;
	for (unsigned i = 0; i < c->nobjects; i++)
		if (c->probe_object[i] && !strcmp(c->objects[i], r->site->object))
			return 1;
	for (unsigned i = 0; i < c->nmodules; i++)
		if (c->probe_module[i] && !strcmp(c->modules[i], r->site->object))
			return 1;
	return 0;
}

static void pool_add(struct world *w, int *pool, size_t *npool, size_t i)
{
	if (w->called[i])
		return;
	w->called[i] = 1;
	pool[(*npool)++] = (int)i;
}

/* Adds the functions cfg.call_list names, or else every function of the
 * probed objects, that the call probe accepts. */
static int probe_pool(struct world *w, int *pool, size_t *npool, struct ftv_err *err)
{
	const char *p = w->cfg.call_list;
	int ret = 0;

	while (p && *p && !ret) {
		size_t len = strcspn(p, ",");
		int found = 0;

		for (size_t i = 0; i < w->nrecs && !ret; i++) {
			const struct wrec *r = &w->recs[i];
			int pr;

			if (r->rec < 0 || !r->active || !r->name || strlen(r->name) != len ||
			    strncmp(r->name, p, len))
				continue;
			found = 1;
			if (r->mod >= 0 && w->mods[r->mod].late)
				ret = ftv_errf(err, "call %s: a function of the late module %s "
					       "(the workload calls it once loaded)", r->name,
					       w->mods[r->mod].name);
			else if ((pr = world_probe(w, i, err)) < 0)
				ret = -1;
			else if (pr)
				ret = ftv_errf(err, "call %s: the workload cannot call it: %s",
					       r->name, w->probe[i].why);
			else
				pool_add(w, pool, npool, i);
		}
		if (!found && !ret)
			ret = ftv_errf(err, "call %.*s: no traced function of that name (one "
				       "with a patch site init_nop accepted)", (int)len, p);
		p += len;
		p += *p == ',';
	}
	for (size_t i = 0; !w->cfg.call_list && i < w->nrecs && !ret; i++) {
		const struct wrec *r = &w->recs[i];
		int pr;

		if (r->rec < 0 || !r->active || w->called[i] || !probed_object(w, r) ||
		    (r->mod >= 0 && w->mods[r->mod].late))
			continue;
		pr = world_probe(w, i, err);
		if (pr < 0)
			ret = -1;
		else if (!pr)
			pool_add(w, pool, npool, i);
	}
	world_probe_free(w);
	return ret;
}

size_t world_callables(const struct world *w, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; w->called && i < w->nrecs; i++) {
		int dup = 0;

		if (!w->called[i] || !w->recs[i].name)
			continue;
		for (size_t k = 0; k < n && k < max && !dup; k++)
			dup = !strcmp(names[k], w->recs[i].name);
		if (dup)
			continue;
		if (n < max)
			names[n] = w->recs[i].name;
		n++;
	}
	return n;
}

/* What the probe let the workload call, and what it refused. */
static void probe_note(const struct world *w, FILE *f)
{
	const char *names[8];
	size_t n = world_callables(w, names, 8);
	char sum[600];

	fprintf(f, "note: the workload calls %zu function%s:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n && i < 8; i++)
		fprintf(f, "%s %s", i ? "," : "", names[i]);
	world_probe_summary(w, sum, sizeof(sum));
	fprintf(f, "%s%s%s\n", n > 8 ? ", ..." : "", sum[0] ? "; " : "", sum);
}

static int setup_cpus(struct world *w, struct ftv_err *err)
{
	unsigned ncpus = w->cfg.exec.ncpus, ncalls = w->cfg.calls ? w->cfg.calls : 16;
	int *pool = calloc(w->nrecs > WORLD_MAX_CALLS ? w->nrecs : WORLD_MAX_CALLS,
			   sizeof(int));
	size_t npool = 0;
	struct ftv_rng rng;

	w->called = calloc(w->nrecs ? w->nrecs : 1, 1);
	if (!pool || !w->called) {
		free(pool);
		return ftv_errf(err, "out of memory");
	}
	if (w->cfg.ncall) {
		if (named_calls(w, pool, err)) {
			free(pool);
			return -1;
		}
		ncalls = w->cfg.ncall;
		npool = ncalls;
	}
	for (size_t i = 0; i < w->nrecs && !w->cfg.ncall; i++)
		if (callable(w, &w->recs[i]))
			pool_add(w, pool, &npool, i);
	if (probe_pool(w, pool, &npool, err)) {
		free(pool);
		return -1;
	}
	if (w->probe && w->cfg.notes_out && npool)
		probe_note(w, w->cfg.notes_out);
	if (!npool) {
		char sum[600];

		free(pool);
		world_probe_summary(w, sum, sizeof(sum));
		if (sum[0])
			return ftv_errf(err, "no function of the objects can be called by the "
				       "workload: %s", sum);
		return ftv_errf(err, "no callable traced function in the objects "
			       "(the workload calls the random units' r<N>_f<M>)");
	}
	ftv_rng_fork(&w->rng, &rng, 0x3017);
	for (unsigned c = 0; c < ncpus; c++) {
		struct wcpu *cpu = &w->cpu[c];

		cpu->pcpu = sim_region_alloc(w->percpu, FTV_PCPU_SIZE, 64, err);
		cpu->log = sim_region_alloc(w->percpu, WORLD_LOG_CAP * FTV_LOG_SIZE, 64, err);
		cpu->graph = sim_region_alloc(w->percpu, WORLD_GRAPH_DEPTH * FTV_GRAPH_SIZE, 64, err);
		cpu->work = sim_region_alloc(w->percpu, FTV_WORK_SIZE, 64, err);
		cpu->calls = sim_region_alloc(w->percpu, ncalls * FTV_CALL_SIZE, 64, err);
		if (!cpu->pcpu || !cpu->log || !cpu->graph || !cpu->work || !cpu->calls) {
			free(pool);
			return -1;
		}
		cpu->call_rec = calloc(ncalls, sizeof(int));
		if (!cpu->call_rec) {
			free(pool);
			return ftv_errf(err, "out of memory");
		}
		cpu->ncalls = ncalls;
		cpu->stack = SIM_STACK_BASE + (c + 1) * WORLD_STACK_SIZE - 64;
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_CPU, c);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_LOG_CAP, WORLD_LOG_CAP);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_LOG, cpu->log);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_GRAPH, cpu->graph);
		for (unsigned i = 0; i < ncalls; i++) {
			uint64_t e = cpu->calls + i * FTV_CALL_SIZE;
			int ri = w->cfg.ncall ? pool[i] : pool[ftv_rng_below(&rng, npool)];
			const struct wrec *r = &w->recs[ri];
			const struct wprobe *pr = w->probe ? &w->probe[ri] : NULL;

			cpu->call_rec[i] = ri;
			sim_write64(w->as, e + FTV_CALL_FN, r->func);
			if (pr && pr->state == WPROBE_OK) {
				/* one of the argument vectors the probe
				 * accepted */
				const uint64_t *v = pr->args[ftv_rng_below(&rng, pr->nvec)];

				for (int a = 0; a < 3; a++)
					sim_write64(w->as, e + FTV_CALL_ARG0 + 8 * a, v[a]);
				continue;
			}
			for (int a = 0; a < 3; a++)
				sim_write64(w->as, e + FTV_CALL_ARG0 + 8 * a,
					    ftv_rng_below(&rng, 1000));
		}
		sim_write64(w->as, cpu->work + FTV_WORK_CALLS, cpu->calls);
		sim_write64(w->as, cpu->work + FTV_WORK_NCALLS, ncalls);
	}
	free(pool);
	return 0;
}

static int start_cpus(struct world *w, struct ftv_exec *ex, unsigned rounds, int calibrate,
		      struct ftv_err *err)
{
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		struct wcpu *cpu = &w->cpu[c];

		sim_write64(w->as, cpu->work + FTV_WORK_ROUNDS, rounds);
		sim_write64(w->as, cpu->work + FTV_WORK_DONE, 0);
		sim_write64(w->as, cpu->work + FTV_WORK_CALIBRATE, calibrate);
		if (exec_cpu_setup(ex, c, w->workload, cpu->stack, &cpu->work, 1,
				   w->workload_done, err))
			return -1;
		/* the tracers' this_cpu base: TPIDR_EL1 on arm64, tp on riscv */
		exec_cpu_set_reg(ex, c, w->ad->reg_pcpu, cpu->pcpu);
		if (exec_cpu_quiescent(ex, c, w->quiescent, err))
			return -1;
	}
	return 0;
}

/* One round per CPU with every site disabled, recording what each call
 * returns untraced. */
static int calibrate(struct world *w, struct ftv_exec *ex, struct ftv_err *err)
{
	if (start_cpus(w, ex, 1, 1, err) || exec_run(ex, 50000000, err))
		return -1;
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		if (!exec_cpu_done(ex, c))
			return ftv_errf(err, "cpu%u did not finish its calibration round", c);
	return 0;
}

/* The late modules' functions return untraced what they will return once
 * loaded: calibrated on a machine of its own, with the modules' sites in
 * the state ftrace_module_init will leave them in (a -pg site still calling
 * _mcount would trap), before the world's machine copies the memory with
 * the compiler's words put back. Their call-table entries stay empty until
 * the module is loaded. */
static int calibrate_late(struct world *w, const struct exec_config *ec, struct ftv_err *err)
{
	struct plan p;
	uint64_t lit = (w->backend->flags & FTRACE_ARCH_CALL_OPS) ? ftrace_core_nop_ops(w->core) : 0;
	struct { uint64_t addr, old; int wide; } *saved = NULL;
	size_t nsaved = 0, capsaved = 0;
	struct ftv_exec *ex = NULL;
	int late = 0, ret = -1;

	plan_init(&p);
	for (size_t i = 0; i < w->nrecs; i++) {
		const struct wrec *r = &w->recs[i];
		struct ftrace_site fs = {
			.ip = r->ip, .init_addr = r->mov, .func = r->func, .literal = r->literal,
			.name = r->name, .module = r->site->module, .kind = w->sd->kind,
		};

		if (r->rec < 0 || r->mod < 0 || !w->mods[r->mod].late)
			continue;
		late = 1;
		fs.plt = w->mods[r->mod].plt;
		if (w->backend->init_nop(w->arch_ctx, &fs, lit, &p, err))
			goto out;
	}
	if (!late) {
		ret = 0;
		goto out;
	}
	for (size_t i = 0; i < p.n; i++) {
		const struct plan_step *st = &p.steps[i];
		uint64_t old = 0;
		uint32_t w32 = 0;
		int wide = st->op == PLAN_WRITE_DATA64;

		if (st->op != PLAN_WRITE_INSN && !wide)
			continue;
		if (VEC_RESERVE(saved, capsaved, nsaved + 1)) {
			ftv_errf(err, "out of memory");
			goto out;
		}
		if (wide)
			sim_read64(w->as, st->addr, &old);
		else if (!sim_read32(w->as, st->addr, &w32))
			old = w32;
		saved[nsaved].addr = st->addr;
		saved[nsaved].old = old;
		saved[nsaved++].wide = wide;
		if (wide)
			sim_write64(w->as, st->addr, st->new);
		else
			sim_write32(w->as, st->addr, (uint32_t)st->new);
	}
	ex = exec_new(w->as, ec, err);
	if (!ex || calibrate(w, ex, err))
		goto out;
	exec_free(ex);
	ex = NULL;
	for (size_t i = nsaved; i-- > 0;) {
		if (saved[i].wide)
			sim_write64(w->as, saved[i].addr, saved[i].old);
		else
			sim_write32(w->as, saved[i].addr, (uint32_t)saved[i].old);
	}
	for (size_t m = 0; m < w->nmods; m++)
		if (w->mods[m].late)
			world_module_calls(w, m, 0);
	ret = 0;
out:
	if (ex)
		exec_free(ex);
	free(saved);
	plan_free(&p);
	return ret;
}

struct world *world_alloc(const struct world_config *cfg, struct ftv_err *err)
{
	struct world *w = calloc(1, sizeof(*w));

	if (!w) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	w->cfg = *cfg;
	plan_init(&w->scratch);
	ftv_rng_seed(&w->rng, cfg->exec.seed);
	w->sd = world_schemedesc(cfg->scheme);
	if (!w->sd) {
		ftv_errf(err, "unknown scheme %d", (int)cfg->scheme);
		goto fail;
	}
	w->ad = world_archdesc(w->sd->arch);
	w->backend = w->sd->backend;
	if (!w->backend) {
		ftv_errf(err, "scheme %s: the %s backend is not built in", w->sd->name,
			 ftv_arch_name(w->sd->arch));
		goto fail;
	}
	return w;
fail:
	world_free(w);
	return NULL;
}

int world_setup(struct world *w, struct ftv_err *err)
{
	const struct world_config *cfg = &w->cfg;
	struct exec_config ec;

	if (find_symbols(w, err))
		return -1;
	w->data = sim_map(w->as, "ftrace.data", SIM_DATA_BASE, 16ULL << 20,
			  SIM_R | SIM_W, SIM_REGION_DATA, err);
	w->percpu = sim_map(w->as, "percpu", SIM_DATA_BASE + (16ULL << 20),
			    64ULL << 20, SIM_R | SIM_W, SIM_REGION_DATA, err);
	if (!w->data || !w->percpu ||
	    !sim_map(w->as, "stacks", SIM_STACK_BASE,
		     WORLD_STACK_SIZE * (EXEC_MAX_CPUS + 1), SIM_R | SIM_W,
		     SIM_REGION_STACK, err))
		return -1;
	if (world_probe_map(w, err) || world_probe_check(w, err) || make_core(w, err) ||
	    setup_cpus(w, err))
		return -1;
	ec = cfg->exec;
	ec.arch = w->sd->arch;
	ec.stop_anywhere = w->ad->stop_anywhere;
	/* every site is a watched word (and its tracers' breakpoints come
	 * with the checks) */
	if (!ec.expect_pcs)
		ec.expect_pcs = w->nrecs;
	/* A CPU sent astray by a bad patch may loop forever without reaching
	 * a watched word: bound every free-running turn so the run ends. */
	if (!ec.quantum && !ec.turn_timeout_us)
		ec.turn_timeout_us = 2000000;
	if (calibrate_late(w, &ec, err))
		return -1;
	w->ex = exec_new(w->as, &ec, err);
	if (!w->ex || world_text_watch(w, err))
		return -1;
	if (calibrate(w, w->ex, err))
		return -1;
	if (world_checks_install(w, err) ||
	    start_cpus(w, w->ex, cfg->rounds ? cfg->rounds : 20, 0, err))
		return -1;
	return 0;
}

int world_new(const struct world_config *cfg, struct world **out,
	      struct ftv_err *err)
{
	struct world *w = world_alloc(cfg, err);

	*out = NULL;
	if (!w)
		return -1;
	if (load(w, err) || world_setup(w, err)) {
		world_free(w);
		return -1;
	}
	*out = w;
	return 0;
}

void world_free(struct world *w)
{
	if (!w)
		return;
	if (w->ex)
		exec_free(w->ex);
	if (w->core)
		ftrace_core_free(w->core);
	if (w->img)
		sim_image_free(w->img);
	if (w->as)
		sim_aspace_free(w->as);
	for (size_t i = 0; i < w->nops; i++)
		free(w->ops[i].ever);
	for (size_t i = 0; i < w->nplans; i++) {
		free(w->plans[i].recs);
		free(w->plans[i].enable);
		plan_free(&w->plans[i].plan);
	}
	free(w->plans);
	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		free(w->cpu[c].call_rec);
	free(w->recs);
	free(w->rec_of_core);
	free(w->viol);
	free(w->zeroed);
	free(w->bootfail);
	free(w->arch_ctx);
	timeline_free(w->tl);
	world_probe_free(w);
	world_text_free(w);
	free(w->probe);
	free(w->called);
	plan_free(&w->scratch);
	world_verify_forget(w);
	free(w);
}

struct ftv_exec *world_exec(struct world *w)
{
	return w->ex;
}

struct ftrace_core *world_core(struct world *w)
{
	return w->core;
}

struct sim_aspace *world_aspace(struct world *w)
{
	return w->as;
}

void world_stats(struct world *w, struct world_stats *st)
{
	struct exec_stats es;

	*st = w->st;
	if (w->ex) {
		exec_get_stats(w->ex, &es);
		st->steps = es.steps;
		st->peak_rss_kb = es.peak_rss_kb;
	}
}
