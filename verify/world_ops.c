/* The operations a scenario performs on a world: each one is an ftrace
 * update built by the core into a plan and queued on the executor, with the
 * bookkeeping the checks need (which records it touches, whether it
 * enables or disables them, which ops it frees). */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"
#include "util/vec.h"

/* A CPU the executor stopped (a fault, a runaway) holds nothing and will
 * never pass a quiescent point again; synchronize_rcu_tasks ignores it. */
static int cpu_stopped(struct ftv_exec *ex, unsigned cpu)
{
	size_t n;
	const struct exec_violation *v = exec_violations(ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].cpu == (int)cpu &&
		    (v[i].kind == EXEC_V_FAULT || v[i].kind == EXEC_V_STUCK))
			return 1;
	return 0;
}

const struct plan_step *world_plan_step(struct world *w, int id, const struct wplan *wp,
					size_t k)
{
	const struct plan_step *s = w->ex ? exec_plan_step(w->ex, id, k) : NULL;

	return s ? s : wp && k < wp->plan.n ? &wp->plan.steps[k] : NULL;
}

static void plan_done(struct ftv_exec *ex, int id,
		      const struct exec_plan_result *res, void *arg)
{
	struct world *w = arg;
	struct wplan *wp = NULL;
	struct wplan_run *pr = NULL;
	struct exec_stats st;

	st.steps = exec_steps(ex);
	for (size_t i = 0; i < w->nplans; i++)
		if (w->plans[i].id == id) {
			wp = &w->plans[i];
			pr = &w->run.plan[i];
		}
	if (!wp)
		return;
	pr->done = 1;
	pr->done_step = st.steps;
	for (size_t i = 0; i < wp->nrecs; i++)
		w->run.rec[wp->recs[i]].settled_step = st.steps;
	if (res->status == EXEC_PLAN_MISMATCH) {
		/* ftrace_bug(): validate-before-write found another word */
		const struct plan_step *s = world_plan_step(w, id, wp, res->step);
		char where[160], dis[96] = "";

		if (s)
			w->ad->disasm((uint32_t)res->found, s->addr, dis, sizeof(dis));
		if (!w->run.bug_seen) {
			w->run.bug_seen = 1;
			w->run.bug_plan = id;
			w->run.bug_step = res->step;
			w->run.bug_found = res->found;
		}
		world_add_violation(w, "ftrace_bug", -1, st.steps,
				    "ftrace failed to modify [<%016llx>] %s: actual 0x%08llx (%s), "
				    "expected 0x%08llx (%s, during %s)",
				    (unsigned long long)(s ? s->addr : 0),
				    s ? sim_symbolize(w->as, s->addr, where, sizeof(where), 0) : "?",
				    (unsigned long long)res->found, dis,
				    (unsigned long long)(s ? s->old : 0), s && s->what ? s->what : "?",
				    wp->what);
		/* ftrace_bug(): the record is FAILED and ftrace is killed */
		if (wp->agent == PLAN_AGENT_FTRACE)
			ftrace_core_mark_failed(w->core, s ? s->rec : -1,
						w->run.viol[w->run.nviol - 1].msg);
		return;
	}
	if (res->status == EXEC_PLAN_FAULT) {
		/* the write through the patch window faulted (-EFAULT) */
		const struct plan_step *s = world_plan_step(w, id, wp, res->step);
		char where[160];

		world_add_violation(w, "ftrace_bug", -1, st.steps,
				    "ftrace faulted on modifying [<%016llx>] %s (%s, during %s)",
				    (unsigned long long)(s ? s->addr : 0),
				    s ? sim_symbolize(w->as, s->addr, where, sizeof(where), 0) : "?",
				    s && s->what ? s->what : "?", wp->what);
		if (wp->agent == PLAN_AGENT_FTRACE)
			ftrace_core_mark_failed(w->core, s ? s->rec : -1,
						w->run.viol[w->run.nviol - 1].msg);
		return;
	}
	/* The update began no earlier than the previous one of its agent
	 * ended (each agent runs its plans one after another). */
	uint64_t began = 0;

	for (size_t i = 0; i < w->nplans; i++) {
		const struct wplan_run *r = &w->run.plan[i];

		if (&w->plans[i] != wp && r->done && r->done_step <= st.steps &&
		    w->plans[i].id < id && w->plans[i].agent == wp->agent &&
		    r->done_step > began)
			began = r->done_step;
	}
	for (size_t i = 0; i < w->nops; i++) {
		if (w->ops[i].free_plan != id)
			continue;
		w->run.ops_freed[i] = 1;
		/* synchronize_rcu_tasks() before the free: every CPU still
		 * running must have passed a quiescent point since the update
		 * unlinked the ops, or it may still be inside ftrace_caller or
		 * the list func with the pointer in hand. A CPU another agent's
		 * stop_machine() parked at its quiescent point has passed it,
		 * though the world's breakpoint there runs when it resumes:
		 * the executor says when. */
		for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
			if (!exec_cpu_done(ex, c) && !cpu_stopped(ex, c) &&
			    w->run.cpu[c].last_qs < began && exec_cpu_last_qs(ex, c) < began)
				world_add_violation(w, "no-grace-period", (int)c, st.steps,
						    "ops %s freed by \"%s\" while cpu%u had not "
						    "passed a quiescent point since the update began "
						    "(step %llu, its last at step %llu): it may still "
						    "hold the ops from a literal or the ops list",
						    w->ops[i].name, wp->what, c,
						    (unsigned long long)began,
						    (unsigned long long)w->run.cpu[c].last_qs);
	}
}

/* What each registered ops reaches now (world_vacuous): called at every
 * operation, after the core has taken it in. A record of a module ftrace
 * has not enabled yet is FTRACE_FL_DISABLED (kernel/trace/ftrace.c:
 * ftrace_module_init marks them so; ftrace_module_enable clears it). */
static void note_reach(struct world *w)
{
	for (size_t i = 0; i < w->nops; i++) {
		struct wops *o = &w->ops[i];

		if (!o->ops || !ftrace_ops_registered(o->ops))
			continue;
		w->run.ops_registered[i] = 1;
		for (size_t k = 0; k < w->nrecs && !w->run.ops_reached[i]; k++) {
			const struct wrec *r = &w->recs[k];

			if (r->rec < 0 || !ftrace_ops_traces_ip(o->ops, r->ip))
				continue;
			if (ftrace_core_rec(w->core, (size_t)r->rec)->flags & FTRACE_FL_DISABLED)
				w->run.ops_disabled_only[i] = 1;
			else
				w->run.ops_reached[i] = 1;
		}
	}
}

int world_vacuous(const struct world *w, char *why, size_t n)
{
	int found = 0, tracers = 0;

	if (why && n)
		why[0] = 0;
	for (size_t i = 0; i < w->nops; i++) {
		const struct wops *o = &w->ops[i];

		if (!w->run.ops_registered[i])
			continue;
		if (w->run.ops_reached[i]) {
			tracers += !o->direct;
			continue;
		}
		if (!found++ && why && n)
			snprintf(why, n, "%s reached no site (%s)", o->name,
				 w->run.ops_disabled_only[i] ? "its sites are in modules whose sites are not "
						    "enabled: add enable-modules"
						  : "its filter matches no function ftrace patches");
	}
	/* tracers on patched sites, never called while the CPUs ran */
	if (!found && tracers && !w->run.st.tracer_calls && w->run.finished) {
		found = 1;
		if (why && n)
			snprintf(why, n, "no tracer was called in %llu steps (the workload never "
				 "called a traced function while one was registered)",
				 (unsigned long long)exec_steps(w->ex));
	}
	return found;
}

int world_submit(struct world *w, const char *what, struct ftv_err *err)
{
	struct wplan *wp;
	int id;

	note_reach(w);
	if (!w->scratch.n) {
		w->cur_ops = 0;
		return 0;
	}
	if (VEC_RESERVE(w->plans, w->capplans, w->nplans + 1) ||
	    WORLD_RUN_RESERVE(&w->run, plan, w->nplans + 1))
		return ftv_errf(err, "out of memory");
	wp = &w->plans[w->nplans];
	memset(wp, 0, sizeof(*wp));
	wp->what = what;
	wp->agent = w->scratch.agent;
	plan_init(&wp->plan);
	if (plan_append(&wp->plan, &w->scratch))
		return ftv_errf(err, "out of memory");
	wp->recs = calloc(w->scratch.n, sizeof(int));
	wp->enable = calloc(w->scratch.n, 1);
	if (!wp->recs || !wp->enable) {
		free(wp->recs);
		free(wp->enable);
		return ftv_errf(err, "out of memory");
	}
	for (size_t i = 0; i < w->scratch.n; i++) {
		const struct plan_step *s = &w->scratch.steps[i];
		int r;

		if (s->op == PLAN_FREE) {
			struct wops *o = world_ops_at(w, s->addr);

			if (o)
				o->free_plan = -2; /* fixed up below */
			continue;
		}
		if (s->op == PLAN_WRITE_DATA64) {
			/* a site's ops literal (arm64: func - 8; riscv64: the
			 * function's entry) */
			r = world_rec_at_func(w, s->addr + 8);
			if (r < 0 || w->recs[r].literal != s->addr)
				r = world_rec_at_func(w, s->addr);
			if (r >= 0 && w->recs[r].literal == s->addr)
				w->recs[r].touch_plan = w->nplans + 1;
			continue;
		}
		if (s->op != PLAN_WRITE_INSN)
			continue;
		r = world_rec_at_ip(w, s->addr);
		if (r < 0)
			continue;
		wp->recs[wp->nrecs] = r;
		wp->enable[wp->nrecs] = s->what && (!strncmp(s->what, "make_call", 9) ||
						    !strncmp(s->what, "modify_call", 11));
		w->recs[r].last_plan = (int)w->nplans;
		w->recs[r].touch_plan = w->nplans + 1;
		w->recs[r].last_enable = wp->enable[wp->nrecs];
		wp->nrecs++;
		w->run.st.transitions++;
	}
	if (w->cfg.plans_out) {
		fprintf(w->cfg.plans_out, "plan %zu: %s (%zu steps)\n", w->nplans, what,
			w->scratch.n);
		ftrace_plan_format(w->cfg.plans_out, &w->scratch, 0, w->as, w->ad->disasm);
	}
	if (w->settling) {
		/* (ids the executor's queue never gives) */
		id = -2 - w->nsettled++;
	} else {
		id = exec_submit(w->ex, &w->scratch, plan_done, w, err);
		if (id < 0)
			return -1;
	}
	wp->id = id;
	for (size_t i = 0; i < w->nops; i++)
		if (w->ops[i].free_plan == -2)
			w->ops[i].free_plan = id;
	if (w->cur_ops)
		w->ops[w->cur_ops - 1].touch_plan = w->nplans + 1;
	w->cur_ops = 0;
	w->run.plan[w->nplans] = (struct wplan_run){ 0 };
	w->nplans++;
	w->run.nplan = w->nplans;
	w->run.st.plans++;
	plan_reset(&w->scratch);
	w->scratch.agent = PLAN_AGENT_FTRACE;
	if (w->settling)
		exec_apply(w->ex, &wp->plan, id, plan_done, w);
	return 0;
}

/* The ever[] sets: every record an ops is asked to trace while registered
 * (filter, minus notrace), recomputed from the core after each change. */
static void note_interest(struct world *w, struct wops *o)
{
	for (size_t i = 0; i < w->nrecs; i++) {
		const struct wrec *r = &w->recs[i];

		if (r->rec >= 0 && ftrace_ops_traces_ip(o->ops, r->ip))
			o->ever[i] = 1;
	}
}

struct ftrace_ops *world_find_ops(struct world *w, const char *name)
{
	for (size_t i = 0; i < w->nops; i++)
		if (!strcmp(w->ops[i].name, name))
			return w->ops[i].ops;
	return NULL;
}

static struct wops *wops_of(struct world *w, struct ftrace_ops *ops)
{
	for (size_t i = 0; i < w->nops; i++)
		if (w->ops[i].ops == ops)
			return &w->ops[i];
	return NULL;
}

/* A per-ops trampoline (FTRACE_FL_TRAMP): the template copied into fresh text and
 * its two literals filled, all before anything can branch to it.
 *
 * Cache maintenance alone does not make fresh text safe to run: a CPU
 * that has not context-synchronised since may still fetch what the memory
 * held before (Arm ARM B2.2.5), here the zeros of the unused page. The
 * kernel makes new text executable on every CPU before anything can reach
 * it: x86's create_trampoline() (arch/x86/kernel/ftrace.c, v3.17 onwards)
 * writes the copy, and the call sites are only pointed at it through
 * text_poke_bp_batch(), whose first text_poke_sync() (on_each_cpu(
 * do_sync_core)) serialises every CPU after the copy and before any site
 * can call it; arm64 does the same for any new text with
 * flush_icache_range() (arch/arm64/include/asm/cacheflush.h:
 * caches_clean_inval_pou() then kick_all_cpus_sync()). Hence the sync on
 * every CPU after the copy's cache maintenance. */
static uint64_t make_ops_trampoline(struct world *w, uint64_t ops_addr,
				    uint64_t *size, struct ftv_err *err)
{
	struct sim_region *text = sim_region_named(w->as, "kernel.text");
	uint64_t len = w->tramp_template_end - w->tramp_template, at;

	if (!text)
		return ftv_errf(err, "no kernel.text region"), 0;
	at = sim_region_alloc(text, len, 16, err);
	if (!at)
		return 0;
	for (uint64_t off = 0; off < w->tramp_ops_slot - w->tramp_template; off += 4) {
		uint32_t word;

		sim_read32(w->as, w->tramp_template + off, &word);
		plan_write_insn(&w->scratch, at + off, 0, word, 0, -1,
				"ops trampoline: copy template");
	}
	if (ops_addr)
		plan_write_data64(&w->scratch, at + (w->tramp_ops_slot - w->tramp_template),
				  0, ops_addr, 0, -1, "ops trampoline: ops");
	plan_write_data64(&w->scratch, at + (w->tramp_body_slot - w->tramp_template),
			  0, w->ops_known, 0, -1, "ops trampoline: body");
	plan_cache_sync(&w->scratch, at, len, -1);
	plan_simple(&w->scratch, PLAN_SYNC_ALL, -1,
		    "ops trampoline: kick_all_cpus_sync");
	*size = len;
	return at;
}

struct ftrace_ops *world_ops(struct world *w, const char *name,
			     const char *tracer, struct ftv_err *err)
{
	struct ftrace_ops_desc d = { .name = name };
	struct wops *o;

	if (w->nops == WORLD_MAX_OPS)
		return ftv_errf(err, "too many ops (%d)", WORLD_MAX_OPS), NULL;
	if (world_find_ops(w, name))
		return ftv_errf(err, "ops %s already exists", name), NULL;
	if (!strcmp(tracer, "tracer_a"))
		d.func = w->tracer_a;
	else if (!strcmp(tracer, "tracer_b"))
		d.func = w->tracer_b;
	else if (!strcmp(tracer, "graph")) {
		if (!w->graph_func)
			return ftv_errf(err, "tracer graph: no function-graph tracer in the "
					"%s trampolines", ftv_arch_name(w->sd->arch)), NULL;
		/* -pg: the graph tracer is entered through ftrace_graph_caller
		 * and its ops' func is ftrace_stub (ftrace_register_graph);
		 * otherwise ftrace_graph_func is the ops' func, called like
		 * any tracer (arm64 DYNAMIC_FTRACE_WITH_ARGS). */
		d.func = w->backend->modify_graph_caller ? w->stub : w->graph_func;
		d.flags = FTRACE_OPS_FL_GRAPH;
	} else if (!strcmp(tracer, "direct"))
		d.func = w->direct_func;
	else
		return ftv_errf(err, "unknown tracer '%s' (tracer_a, tracer_b, graph, direct)",
				tracer), NULL;
	o = &w->ops[w->nops];
	memset(o, 0, sizeof(*o));
	o->ever = calloc(w->nrecs ? w->nrecs : 1, 1);
	if (!o->ever)
		return ftv_errf(err, "out of memory"), NULL;
	/* The per-ops trampolines scheme gives every tracer ops its own
	 * trampoline (FTRACE_FL_TRAMP), the function-graph ops included (the
	 * point of "ftrace: Optimize function graph to be called directly",
	 * x86, 2014); its ops slot is filled once the ops has an address, all
	 * before anything can branch to it. */
	uint64_t tramp_ops_slot = 0;

	if (w->sd->ops_trampolines &&
	    (!strncmp(tracer, "tracer_", 7) || !strcmp(tracer, "graph"))) {
		d.trampoline = make_ops_trampoline(w, 0, &d.trampoline_size, err);
		if (!d.trampoline) {
			free(o->ever);
			plan_reset(&w->scratch);
			return NULL;
		}
		d.flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
		tramp_ops_slot = d.trampoline + (w->tramp_ops_slot - w->tramp_template);
	}
	o->ops = ftrace_ops_new(w->core, &d, err);
	if (!o->ops) {
		free(o->ever);
		plan_reset(&w->scratch);
		return NULL;
	}
	if (tramp_ops_slot)
		plan_write_data64(&w->scratch, tramp_ops_slot, 0,
				  ftrace_ops_addr(o->ops), 0, -1, "ops trampoline: ops");
	snprintf(o->name, sizeof(o->name), "%s", name);
	snprintf(o->tracer, sizeof(o->tracer), "%s", tracer);
	o->addr = ftrace_ops_addr(o->ops);
	o->func = d.func;
	o->direct = !strcmp(tracer, "direct");
	/* Watch the fields trampolines and the list func load, so a CPU can
	 * be preempted between loading the literal and using the ops: the
	 * window in which freeing without a quiescent point bites. */
	if (exec_watch_data64(w->ex, o->addr + ftrace_core_ops_layout(w->core)->func, err) ||
	    exec_watch_data64(w->ex, o->addr + ftrace_core_ops_layout(w->core)->direct_call, err) ||
	    exec_watch_data64(w->ex, o->addr + ftrace_core_ops_layout(w->core)->next, err)) {
		free(o->ever);
		return NULL;
	}
	o->free_plan = -1;
	w->nops++;
	return o->ops;
}

static int after(struct world *w, struct wops *o, int ret, const char *what,
		 struct ftv_err *err)
{
	if (ret) {
		plan_reset(&w->scratch);
		return -1;
	}
	size_t n = w->nplans;

	if (o) {
		note_interest(w, o);
		w->cur_ops = (size_t)(o - w->ops) + 1;
	}
	if (world_submit(w, what, err))
		return -1;
	if (o && w->nplans > n)
		w->plans[n].ops = o->name;
	return 0;
}

/* Names the ops of the plan queued as the n-th, for an operation that
 * after() was not given it (its interest is not noted). */
static int after_named(struct world *w, const struct wops *o, int ret, size_t n)
{
	if (!ret && o && w->nplans > n)
		w->plans[n].ops = o->name;
	return ret;
}

struct wops *world_wops_of(struct world *w, struct ftrace_ops *ops)
{
	return wops_of(w, ops);
}

int world_after_op(struct world *w, struct wops *o, int ret, const char *what,
		   struct ftv_err *err)
{
	return after(w, o, ret, what, err);
}

int world_filter(struct world *w, struct ftrace_ops *ops, const char *spec, int reset,
		 int notrace, struct ftv_err *err)
{
	int ret = notrace ? ftrace_set_notrace(w->core, ops, spec, reset, &w->scratch, err)
			  : ftrace_set_filter(w->core, ops, spec, reset, &w->scratch, err);

	return after(w, wops_of(w, ops), ret, notrace ? "set_notrace" : "set_filter", err);
}

int world_set_filter(struct world *w, struct ftrace_ops *ops, const char *spec,
		     struct ftv_err *err)
{
	return world_filter(w, ops, spec, 1, 0, err);
}

int world_set_filter_ips(struct world *w, struct ftrace_ops *ops,
			 const uint64_t *ips, size_t n, struct ftv_err *err)
{
	return after(w, wops_of(w, ops),
		     ftrace_set_filter_ips(w->core, ops, ips, n, 1, &w->scratch, err),
		     "set_filter", err);
}

int world_set_notrace(struct world *w, struct ftrace_ops *ops,
		      const char *spec, struct ftv_err *err)
{
	return world_filter(w, ops, spec, 1, 1, err);
}

int world_register(struct world *w, struct ftrace_ops *ops, struct ftv_err *err)
{
	struct wops *o = wops_of(w, ops);
	int ret;

	/* the graph tracer of a scheme that patches ftrace_graph_call */
	if (w->backend->modify_graph_caller && !strcmp(o->tracer, "graph"))
		ret = ftrace_register_graph(w->core, ops, &w->scratch, err);
	else
		ret = ftrace_register_ops(w->core, ops, &w->scratch, err);
	return after(w, o, ret, "register", err);
}

int world_unregister(struct world *w, struct ftrace_ops *ops,
		     struct ftv_err *err)
{
	struct wops *o = wops_of(w, ops);
	size_t n = w->nplans;
	int ret;

	if (w->backend->modify_graph_caller && !strcmp(o->tracer, "graph"))
		ret = ftrace_unregister_graph(w->core, ops, &w->scratch, err);
	else
		ret = ftrace_unregister_ops(w->core, ops, &w->scratch, err);
	ret = after_named(w, o, after(w, NULL, ret, "unregister", err), n);
	/* the ops is touched: a call that began with it stable may miss
	 * it once the unregistration has unlinked it */
	if (!ret && o && w->nplans > n)
		o->touch_plan = n + 1;
	return ret;
}

static int tramp_addr(struct world *w, const char *tramp, uint64_t *addr,
		      struct ftv_err *err)
{
	if (!strncmp(tramp, "0x", 2)) {
		*addr = strtoull(tramp, NULL, 16);
		return 0;
	}
	*addr = sim_image_lookup(w->img, tramp);
	if (!*addr)
		return ftv_errf(err, "unknown direct trampoline '%s'", tramp);
	return 0;
}

int world_direct(struct world *w, struct ftrace_ops *ops, const char *tramp,
		 struct ftv_err *err)
{
	uint64_t addr;

	if (tramp_addr(w, tramp, &addr, err))
		return -1;
	return after(w, wops_of(w, ops),
		     ftrace_register_direct(w->core, ops, addr, &w->scratch, err),
		     "register_ftrace_direct", err);
}

int world_direct_modify(struct world *w, struct ftrace_ops *ops,
			const char *tramp, struct ftv_err *err)
{
	uint64_t addr;

	if (tramp_addr(w, tramp, &addr, err))
		return -1;
	return after(w, wops_of(w, ops),
		     ftrace_modify_direct(w->core, ops, addr, &w->scratch, err),
		     "modify_ftrace_direct", err);
}

int world_direct_remove(struct world *w, struct ftrace_ops *ops,
			struct ftv_err *err)
{
	size_t n = w->nplans;

	return after_named(w, wops_of(w, ops),
			   after(w, NULL, ftrace_unregister_direct(w->core, ops, &w->scratch, err),
				 "unregister_ftrace_direct", err), n);
}

/* update_ftrace_direct_add (tramp given) or update_ftrace_direct_del
 * (tramp NULL) of the functions in spec on the shared direct ops
 * (patcher/ftrace_direct_batch.c). */
int world_direct_batch(struct world *w, struct ftrace_ops *ops, const char *spec,
		       const char *tramp, struct ftv_err *err)
{
	uint64_t addr = 0;
	size_t n = w->nplans;
	int ret;

	if (tramp && tramp_addr(w, tramp, &addr, err))
		return -1;
	ret = ftrace_direct_batch_spec(w->core, ops, spec, addr, &w->scratch, err);
	if (ret)
		w->scratch.agent = PLAN_AGENT_FTRACE;
	return after_named(w, wops_of(w, ops),
			   after(w, tramp ? wops_of(w, ops) : NULL, ret,
				 tramp ? "update_ftrace_direct_add" : "update_ftrace_direct_del",
				 err), n);
}

int world_enable_modules(struct world *w, const char *name, struct ftv_err *err)
{
	int found = 0;

	/* A world made from given sites (ftv replay): every module its
	 * records name was loaded with the kernel. */
	if (!name && w->cfg.sites) {
		if (ftrace_module_enable(w->core, NULL, &w->scratch, err)) {
			plan_reset(&w->scratch);
			return -1;
		}
		return world_submit(w, "ftrace_module_enable", err);
	}

	for (size_t i = 0; i < w->nmods; i++) {
		const struct wmod *md = &w->mods[i];

		/* a late module is enabled by its own load */
		if (md->late || (name && strcmp(md->name, name)))
			continue;
		found = 1;
		if (ftrace_module_enable(w->core, md->name, &w->scratch, err)) {
			plan_reset(&w->scratch);
			return -1;
		}
	}
	if (name && !found)
		return ftv_errf(err, "no module named '%s' is loaded at boot", name);
	return world_submit(w, "ftrace_module_enable", err);
}

int world_run(struct world *w, uint64_t steps, struct ftv_err *err)
{
	return exec_run(w->ex, steps, err);
}

/* Whether a violation is known already (stop_early). */
static int violated(struct world *w)
{
	size_t nx;

	exec_violations(w->ex, &nx);
	world_checks_poll(w);
	return nx || w->run.nviol;
}

/* What the run left undone when its steps ran out (world_budget_exhausted):
 * 0 if every CPU finished its rounds and every plan completed. */
static int left_undone(struct world *w)
{
	unsigned short_cpus = 0, first = 0;
	uint64_t done = 0;
	size_t plans = 0;

	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		if (!exec_cpu_done(w->ex, c) && !short_cpus++)
			first = c;
	for (size_t i = 0; i < w->nplans; i++)
		plans += !w->run.plan[i].done;
	if (short_cpus) {
		sim_read64(w->as, w->cpu[first].work + FTV_WORK_DONE, &done);
		snprintf(w->run.budget_why, sizeof(w->run.budget_why),
			 "cpu%u completed %llu of its %u rounds%s", first,
			 (unsigned long long)done, w->cfg.rounds ? w->cfg.rounds : 20,
			 short_cpus > 1 ? " (and more CPUs short)" : "");
	} else if (plans) {
		snprintf(w->run.budget_why, sizeof(w->run.budget_why), "%zu update%s still applying",
			 plans, plans == 1 ? "" : "s");
	}
	return short_cpus || plans;
}

int world_budget_exhausted(const struct world *w, char *why, size_t n)
{
	if (why && n)
		snprintf(why, n, "%s", w->run.budget_out ? w->run.budget_why : "");
	return w->run.budget_out;
}

int world_finish(struct world *w, uint64_t max_steps, struct ftv_err *err)
{
	uint64_t done = 0, before = world_step(w);
	int early = 0, used_all;

	/* every operation is in: the tail rounds count once it has landed */
	exec_finish_tail(w->ex);
	if (!w->cfg.stop_early) {
		if (exec_run(w->ex, max_steps, err))
			return -1;
		used_all = world_step(w) - before >= max_steps;
	} else {
		used_all = 0;
		while (done < max_steps && !(early = violated(w))) {
			uint64_t slice = max_steps - done < WORLD_FINISH_SLICE
						 ? max_steps - done : WORLD_FINISH_SLICE;
			uint64_t from = world_step(w);

			if (exec_run(w->ex, slice, err))
				return -1;
			done += slice;
			if (world_step(w) - from < slice)
				break; /* everything settled, or nobody can move */
			used_all = done >= max_steps;
		}
	}
	w->run.finished = 1;
	if (early) {
		/* cut short: the end-of-run checks would report the cut */
		world_checks_finish(w, 0);
		return 0;
	}
	/* The steps ran out with CPUs still running or plans applying: the
	 * budget ended the run, not a bug (a stuck CPU halts and is seen
	 * well before: a fault, a CPU that cannot move). The checks that need
	 * a finished run are not made, the rest are (world_budget_exhausted). */
	w->run.budget_out = used_all && left_undone(w);
	if (exec_run_guarded(w->ex, w->run.budget_why, sizeof(w->run.budget_why)))
		w->run.budget_out = 1;
	for (size_t i = 0; i < w->nplans && !w->run.budget_out; i++)
		if (!w->run.plan[i].done)
			world_add_violation(w, "stuck", -1, world_step(w),
					    "plan %d (%s) never completed within %llu steps",
					    w->plans[i].id, w->plans[i].what,
					    (unsigned long long)max_steps);
	world_checks_finish(w, 1);
	return 0;
}

int world_static_key(struct world *w, int on, struct ftv_err *err)
{
	if (!w->static_key || !w->backend->static_branch)
		return ftv_errf(err, "static-key: no static branch in the %s trampolines "
				"or backend", ftv_arch_name(w->sd->arch));
	if (on == w->static_key_on)
		return ftv_errf(err, "static-key: the key is %s already", on ? "on" : "off");
	w->scratch.agent = PLAN_AGENT_TEXT;
	if (w->backend->static_branch(w->arch_ctx, w->static_key, on, &w->scratch, err)) {
		plan_reset(&w->scratch);
		w->scratch.agent = PLAN_AGENT_FTRACE;
		return -1;
	}
	w->static_key_on = on;
	return world_submit(w, on ? "static_key_enable" : "static_key_disable", err);
}
