/* Building a world: load, link, find the trampolines' symbols, map the
 * data they use, then make the core (verify/world_core.c) and the CPUs
 * and their workload (verify/world_cpus.c), and calibrate it. */
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
	return w->sd->add_tramps ? w->sd->add_tramps(w, err) : 0;
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
	/* the per-ops trampoline's template: required where the scheme
	 * gives every ops its own trampoline (the kernel scheme does not
	 * load it: its ftrace_caller has no ftrace_caller_ops_known) */
	int tmpl = graph && w->sd->ops_trampolines;
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
		{ "ftrace_ops_tramp_template", &w->tramp_template, tmpl },
		{ "ftrace_ops_tramp_template_end", &w->tramp_template_end, tmpl },
		{ "ftrace_ops_tramp_template_ops", &w->tramp_ops_slot, tmpl },
		{ "ftrace_ops_tramp_template_body", &w->tramp_body_slot, tmpl },
		{ "ftrace_caller_op_loaded", &w->op_loaded, 0 },
		{ "ftv_static_key", &w->static_key, 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (sym(w, t[i].name, t[i].out, t[i].required, err))
			return -1;
	return 0;
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
	if (world_probe_map(w, err) || world_probe_check(w, err) || world_make_core(w, err) ||
	    world_setup_cpus(w, err))
		return -1;
	ec = cfg->exec;
	ec.arch = w->sd->arch;
	ec.stop_anywhere = w->ad->stop_anywhere;
	/* every site is a watched word (and its tracers' breakpoints come
	 * with the checks) */
	if (!ec.expect_pcs)
		ec.expect_pcs = w->nrecs;
	/* A CPU sent astray by a bad patch may loop forever without reaching
	 * a watched word: the executor's instruction budget ends such a turn
	 * (exec_config.turn_insns, the same instruction on every run). The
	 * time guard is the last resort where the machine cannot spend the
	 * budget in time: it was 100 ms of CPU time and decided alone, and a
	 * correct turn of a sanitized build on a loaded machine reached it
	 * (a different trace hash: tests/test_exec_pool.c). It now ends the
	 * run unjudged (world_finish: budget exhausted, exit 3) and is far
	 * above the budget's cost (docs/determinism.md). */
	if (!ec.quantum && !ec.turn_timeout_us)
		ec.turn_timeout_us = world_turn_guard_us();
	if (world_calibrate_late(w, &ec, err))
		return -1;
	w->ex = exec_new(w->as, &ec, err);
	if (!w->ex || world_text_watch(w, err))
		return -1;
	if (world_calibrate(w, w->ex, err))
		return -1;
	if (world_checks_install(w, err) ||
	    world_start_cpus(w, w->ex, cfg->rounds ? cfg->rounds : 20, 0, err))
		return -1;
	return 0;
}

uint64_t world_turn_guard_us(void)
{
	const char *v = getenv("FTV_TURN_TIME_SCALE");
	double k = v && *v ? strtod(v, NULL) : 1.0;
	double us = WORLD_TURN_GUARD_US * (k > 0 ? k : 1.0);

	return us < 1 ? 1 : us > 1e15 ? (uint64_t)1e15 : (uint64_t)us;
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
	world_run_free(&w->run);
	free(w->zeroed);
	free(w->bootfail);
	if (w->sd->backend_free)
		w->sd->backend_free(w->arch_ctx);
	else
		free(w->arch_ctx);
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

	*st = w->run.st;
	if (w->ex) {
		exec_get_stats(w->ex, &es);
		st->steps = es.steps;
		st->peak_rss_kb = es.peak_rss_kb;
	}
}
