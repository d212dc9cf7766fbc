/* The checks on every tracer call, made from breakpoints at the tracer
 * functions, the traced functions' entries and the workload's quiescent
 * point (the executor calls them with the CPU stopped before the
 * instruction, registers readable):
 *
 *  - the ops a trampoline passes is one ftrace allocated, not yet freed, and
 *    one that asked to trace this function at some point; the func that runs
 *    is that ops' func; ip is the patch site and parent_ip follows a call;
 *  - an ops enabled throughout a call is called exactly once for it (the
 *    check_count of the kernel's ftrace-ops sample): counted for calls made
 *    while no update is in flight, by a CPU that has context-synchronised
 *    since the last update finished;
 *  - ftrace_nop_ops' func runs only when the CPU took a BL written before
 *    the site was disabled (never the BL of an enable whose ops literal is
 *    not visible yet);
 *  - function-graph entries and returns pair up on each CPU in stack order;
 *  - every workload call returns what it returned untraced.
 */
#include "verify/world_int.h"

#include <string.h>

#include "patcher/ftrace_abi.h"

/* A plan is in flight until its last step ran and every store it made
 * is visible (a plan's last data stores may drain after it ended: the
 * state of the ops list is settled only then). */
static int plans_in_flight(const struct world *w)
{
	for (size_t i = 0; i < w->nplans; i++)
		if (!w->run.plan[i].done)
			return 1;
	return exec_plan_stores_pending(w->ex, -1);
}

static uint64_t last_plan_end(const struct world *w)
{
	uint64_t end = 0;

	for (size_t i = 0; i < w->nplans; i++)
		if (w->run.plan[i].done && w->run.plan[i].done_step > end)
			end = w->run.plan[i].done_step;
	return end;
}

static char *where(struct world *w, uint64_t addr, char *buf, size_t n)
{
	return sim_symbolize(w->as, addr, buf, n, 1);
}

/* The i-th C argument of the function cpu is about to enter. */
static uint64_t cpu_arg(struct world *w, int cpu, int i)
{
	return exec_cpu_reg(w->ex, cpu, w->ad->reg_arg0 + i);
}

/* Whether plan index+1 `touch` (0: none) is queued or running, or ended
 * after step `since`. */
static int touched_since(const struct world *w, size_t touch, uint64_t since)
{
	const struct wplan_run *r;

	if (!touch)
		return 0;
	r = &w->run.plan[touch - 1];
	return !r->done || r->done_step >= since ||
	       exec_plan_stores_pending(w->ex, w->plans[touch - 1].id);
}

/* An ops that stays registered, whose filter does not change and whose
 * sites and literals no update touches, is called for every call of a
 * function it traces, while other ops come and go: ftrace switches a site
 * or ftrace_call from one ops' func to the list func and back so that every
 * ops registered throughout is reached either way (update_ftrace_function()
 * and ftrace_ops_list_func(), kernel/trace/ftrace.c; add_ftrace_ops()
 * publishes a new ops' next link before the list head with
 * rcu_assign_pointer()). Such ops are the call's stable set, decided at its
 * entry: the last update of the site and the last of the ops ended before
 * this CPU's last context synchronisation. Until then the CPU may still
 * run text older than either, such as the -pg scheme's ftrace_graph_call
 * still a NOP after register_ftrace_graph() returned: arm64 patches it
 * live with aarch64_insn_patch_text_nosync(), no IPI. */
/* A record ftrace keeps out of every update (a module's before
 * ftrace_module_enable): its site stays a NOP whatever traces it
 * (ftrace_hash_rec_update() skips FTRACE_FL_DISABLED). */
static int rec_disabled(struct world *w, int ri)
{
	const struct ftrace_rec *rec = ftrace_core_rec(w->core, w->recs[ri].rec);

	return rec && (rec->flags & FTRACE_FL_DISABLED);
}

static void stable_ops(struct world *w, unsigned cpu, int ri)
{
	struct wcall *c = &w->run.cpu[cpu].call;
	const struct wrec *r = &w->recs[ri];

	if (touched_since(w, r->touch_plan, w->run.cpu[cpu].last_sync) || rec_disabled(w, ri))
		return;
	for (size_t i = 0; i < w->nops && i < WORLD_MAX_OPS; i++) {
		const struct wops *o = &w->ops[i];

		if (o->direct || !ftrace_ops_registered(o->ops) ||
		    !ftrace_ops_traces_ip(o->ops, r->ip) ||
		    touched_since(w, o->touch_plan, w->run.cpu[cpu].last_sync))
			continue;
		/* as in on_entry: a STUB ops' func is never called, but for
		 * the -pg scheme's graph ops entered through
		 * ftrace_graph_caller */
		if ((ftrace_ops_flags(o->ops) & FTRACE_OPS_FL_STUB) &&
		    !((ftrace_ops_flags(o->ops) & FTRACE_OPS_FL_GRAPH) &&
		      ftrace_core_graph_enabled(w->core)))
			continue;
		c->stable[i] = 1;
	}
}

/* Whether the plan step that made write nw ran before step. */
static int issued_before(struct world *w, const struct exec_write *nw, uint64_t step)
{
	size_t n;
	const struct exec_event *ev = exec_trace(w->ex, &n);
	uint64_t want = (uint64_t)nw->plan << 32 | (uint32_t)nw->step;

	if (nw->plan < 0 || nw->step < 0)
		return 0;
	for (size_t i = 0; i < n && ev[i].step < step; i++)
		if (ev[i].kind == EXEC_EV_PLAN && ev[i].a == want)
			return 1;
	return 0;
}

/* Why a walk of the list may have stopped short: during the call cpu
 * read an ops' next link as NULL though a newer store had linked
 * something behind it (the store was not visible to it yet). The reason,
 * in the developer's terms, into why; "" when there is none. */
static void walk_cut_short(struct world *w, unsigned cpu, uint64_t since, char *why,
			   size_t n)
{
	size_t nobs;
	const struct exec_obs *ob = exec_observations(w->ex, &nobs);

	why[0] = 0;
	for (size_t k = nobs; k-- > 0;) {
		const struct exec_obs *o = &ob[k];

		if (o->step < since)
			break;
		if (o->cpu != (int)cpu || o->kind != EXEC_OBS_LOAD || o->val)
			continue;
		for (size_t i = 0; i < w->nops; i++) {
			const struct exec_write *nw;

			if (o->addr != w->ops[i].addr + ftrace_core_ops_layout(w->core)->next)
				continue;
			for (int wid = o->wid[0] + 1; (nw = exec_write_get(w->ex, wid)); wid++)
				if (nw->addr == o->addr && nw->val && nw->cpu < 0 &&
				    issued_before(w, nw, o->step)) {
					snprintf(why, n, ": the CPU read ops %s's next as NULL at "
						 "step %llu, before the store %s (write #%d) was "
						 "visible to it, so its walk of the list ended at %s. "
						 "add_ftrace_ops() sets a new ops' next before "
						 "rcu_assign_pointer() publishes the ops: that "
						 "ordering is missing", w->ops[i].name,
						 (unsigned long long)o->step,
						 nw->what ? nw->what : "ops->next", wid,
						 w->ops[i].name);
					return;
				}
		}
	}
}

/* The stable ops of a call that ended without being called, unless an
 * update of it or of the site was queued during the call. */
static void check_stable(struct world *w, unsigned cpu)
{
	struct wcall *c = &w->run.cpu[cpu].call;
	const struct wrec *r = &w->recs[c->rec];
	char buf[160], why[400];

	if (r->touch_plan > c->nplans)
		return;
	for (size_t i = 0; i < w->nops && i < WORLD_MAX_OPS; i++) {
		if (!c->stable[i] || c->seen[i] || w->ops[i].touch_plan > c->nplans)
			continue;
		walk_cut_short(w, cpu, c->step, why, sizeof(why));
		world_add_violation(w, "count", (int)cpu, c->step,
				    "%s: ops %s was not called, though it was registered and "
				    "traced the function throughout and no update touched it or "
				    "the site: every ops registered throughout must be reached%s",
				    where(w, r->func, buf, sizeof(buf)), w->ops[i].name,
				    why[0] ? why : " (a walk of the ops list cut short?)");
	}
}

/* Ends the call in progress on cpu: compare what ran with what had to. */
static void finish_call(struct world *w, unsigned cpu)
{
	struct wcall *c = &w->run.cpu[cpu].call;
	unsigned seen = c->direct_seen;
	char buf[160];

	if (!c->active)
		return;
	c->active = 0;
	/* not a settled call (no count to check): an update was queued or
	 * running when it began or during it; its stable ops still count */
	if (c->nexpect == (unsigned)-1 || w->nplans != c->nplans || plans_in_flight(w)) {
		check_stable(w, cpu);
		return;
	}
	for (size_t i = 0; i < w->nops && i < WORLD_MAX_OPS; i++)
		seen += c->seen[i];
	if (seen != c->nexpect) {
		const struct wrec *r = &w->recs[c->rec];
		char names[256] = "";

		for (size_t i = 0; i < w->nops; i++)
			if (ftrace_ops_registered(w->ops[i].ops) &&
			    r->rec >= 0 && ftrace_ops_traces_ip(w->ops[i].ops, r->ip)) {
				strncat(names, " ", sizeof(names) - strlen(names) - 1);
				strncat(names, w->ops[i].name, sizeof(names) - strlen(names) - 1);
				strncat(names, c->seen[i] ? "(called)" : "(missed)",
					sizeof(names) - strlen(names) - 1);
			}
		world_add_violation(w, "count", (int)cpu, c->step,
				    "%s: %u tracer calls for one call, %u expected from the "
				    "ops enabled throughout:%s%s",
				    where(w, r->func, buf, sizeof(buf)), seen, c->nexpect, names,
				    c->expect_direct && !c->direct_seen ? " direct(missed)" : "");
	}
}

/* A traced function's entry: start counting its tracer calls. */
static void on_entry(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	struct wcall *c = &w->run.cpu[cpu].call;
	int ri = world_rec_at_func(w, pc);
	struct exec_stats st;

	(void)ex;
	finish_call(w, cpu);
	if (ri < 0 || w->recs[ri].rec < 0)
		return;
	st.steps = exec_steps(w->ex);
	w->run.st.func_calls++;
	memset(c, 0, sizeof(*c));
	c->active = 1;
	c->rec = ri;
	c->step = st.steps;
	c->nexpect = (unsigned)-1;
	c->nplans = w->nplans;
	stable_ops(w, (unsigned)cpu, ri);
	if (plans_in_flight(w) || w->run.cpu[cpu].last_sync <= last_plan_end(w))
		return;
	const struct ftrace_rec *rec = ftrace_core_rec(w->core, w->recs[ri].rec);
	unsigned n = 0;

	for (size_t i = 0; i < w->nops && !rec_disabled(w, ri); i++) {
		const struct wops *o = &w->ops[i];

		if (!ftrace_ops_registered(o->ops) ||
		    !ftrace_ops_traces_ip(o->ops, w->recs[ri].ip))
			continue;
		/* A STUB ops' func is never called, except that the -pg
		 * scheme's graph ops (graph_ops: func ftrace_stub) is entered
		 * once per call through ftrace_graph_caller while that is
		 * patched in (on_graph_entry). */
		if ((ftrace_ops_flags(o->ops) & FTRACE_OPS_FL_STUB) &&
		    !((ftrace_ops_flags(o->ops) & FTRACE_OPS_FL_GRAPH) &&
		      ftrace_core_graph_enabled(w->core)))
			continue;
		/* a direct ops is seen through its trampoline's log, and
		 * only the logging trampolines can be seen (ftv_direct_tramp,
		 * a BPF image's fentry program) */
		if (o->direct && rec->direct != w->direct_tramp &&
		    !world_bpf_image_at(w, rec->direct))
			continue;
		if (o->direct)
			c->expect_direct = 1;
		n++;
	}
	c->nexpect = n;
}

static void on_quiescent(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	struct exec_stats st;

	(void)pc;
	finish_call(w, cpu);
	/* the model of a task switch: an exception return, a context
	 * synchronisation event */
	exec_cpu_context_sync(ex, cpu);
	st.steps = exec_steps(ex);
	world_cpu_synced(w, (unsigned)cpu, st.steps);
}

static void on_done(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	(void)ex;
	(void)pc;
	finish_call(arg, cpu);
}

/* The update (world plan) an executor plan id belongs to. */
static const char *plan_what(const struct world *w, int id)
{
	for (size_t i = 0; i < w->nplans; i++)
		if (w->plans[i].id == id)
			return w->plans[i].what;
	return "?";
}

/* A tracer called straight from ftrace_call with the function_trace_op the
 * CPU loaded before its turn ended there (world_schemedesc.preempt): say
 * which update's ftrace_call it executed, and whether a newer one existed
 * already. Empty when that is not the case. */
static void held_op_explain(struct world *w, int cpu, uint64_t op, char *out, size_t n)
{
	const struct wcpu_run *c = &w->run.cpu[cpu];
	uint64_t call = sim_image_lookup(w->img, "ftrace_call");
	const struct wops *o = world_ops_at(w, op);
	size_t nobs;
	const struct exec_obs *obs = exec_observations(w->ex, &nobs);
	const struct exec_write *wr = NULL, *newest = NULL;
	char b[160], what[300];
	int fetched = -1;

	if (!c->held || c->held_op != op || !call ||
	    exec_cpu_reg(w->ex, cpu, w->ad->reg_ra) != call + 4)
		return;
	for (size_t i = nobs; i-- > 0;)
		if (obs[i].kind == EXEC_OBS_FETCH && obs[i].cpu == cpu && obs[i].addr == call) {
			fetched = obs[i].wid[0];
			wr = exec_write_get(w->ex, fetched);
			break;
		}
	for (int id = 0; exec_write_get(w->ex, id); id++)
		if (exec_write_get(w->ex, id)->addr == call)
			newest = exec_write_get(w->ex, id);
	where(w, exec_cpu_reg(w->ex, cpu, 32), b, sizeof(b));
	if (wr && wr->plan >= 0)
		snprintf(what, sizeof(what), "the call to %s that \"%s\" wrote (plan %d step %d, %s)",
			 b, wr->what, wr->plan, wr->step, plan_what(w, wr->plan));
	else
		snprintf(what, sizeof(what), "the call to %s", b);
	/* (a truncated explanation is still one) */
	if (!wr || wr == newest) {
		if (snprintf(out, n, ": cpu%d loaded function_trace_op (%s) at step %llu, its turn "
			 "ended there (a task preempted in ftrace_caller), and meanwhile ftrace_call "
			 "became %s; the ops and the func are two loads in a preemptible "
			 "ftrace_caller without CALL_OPS, and ftrace_sync_ipi does not reach a "
			 "preempted task",
			 cpu, o ? o->name : "ftrace_list_ops", (unsigned long long)c->held_step,
			 what) >= (int)n)
			out[n - 1] = 0;
	} else if (snprintf(out, n, ": cpu%d loaded function_trace_op (%s) at step %llu, then "
			 "executed %s, older than ftrace_call's newest instruction (plan %d step %d, "
			 "%s): no context synchronisation has reached it since, and ftrace_sync_ipi "
			 "comes only after the new function_trace_op is published; the ops and the "
			 "func are two loads in ftrace_caller without CALL_OPS",
			 cpu, o ? o->name : "ftrace_list_ops", (unsigned long long)c->held_step,
			 what, newest->plan, newest->step, plan_what(w, newest->plan)) >= (int)n) {
		out[n - 1] = 0;
	}
}

/* Ops o ran for the call of record ri in progress on cpu: once at most. */
static void count_call(struct world *w, int cpu, int ri, struct wops *o,
		       uint64_t step)
{
	struct wcall *c = &w->run.cpu[cpu].call;
	size_t oi = (size_t)(o - w->ops);
	char b[160];

	if (!c->active || c->rec != ri)
		return;
	if (c->seen[oi])
		world_add_violation(w, "count", cpu, step,
				    "ops %s called twice for one call of %s", o->name,
				    where(w, w->recs[ri].func, b, sizeof(b)));
	c->seen[oi] = 1;
}

/* tracer_a, tracer_b, the graph ops' func: func(ip, parent_ip, op, fregs) */
static void on_tracer(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	uint64_t ip = cpu_arg(w, cpu, 0), parent = cpu_arg(w, cpu, 1);
	uint64_t op = cpu_arg(w, cpu, 2);
	struct wops *o = world_ops_at(w, op);
	int ri = world_rec_at_ip(w, ip);
	struct exec_stats st;
	char b1[160], b2[160];

	st.steps = exec_steps(ex);
	w->run.st.tracer_calls++;
	if (ri < 0) {
		world_add_violation(w, "bad-ip", cpu, st.steps,
				    "%s called with ip %s, which is no patch site",
				    where(w, pc, b1, sizeof(b1)), where(w, ip, b2, sizeof(b2)));
		return;
	}
	if (!o && (op == ftrace_core_list_ops(w->core) || op == ftrace_core_nop_ops(w->core))) {
		/* ftrace's own ops, whose func is the list function or the nop
		 * func: another func ran with it */
		char why[900] = "";
		int list = op == ftrace_core_list_ops(w->core);

		held_op_explain(w, cpu, op, why, sizeof(why));
		world_add_violation(w, "wrong-func", cpu, st.steps,
				    "%s ran for %s at %s, whose func is %s%s",
				    where(w, pc, b1, sizeof(b1)),
				    list ? "ftrace_list_ops" : "ftrace_nop_ops",
				    where(w, ip, b2, sizeof(b2)),
				    sim_symbolize(w->as, list ? w->list_func : w->nop_func,
						  (char[160]){ 0 }, 160, 0), why);
		w->run.cpu[cpu].held = 0;
		return;
	}
	if (!o) {
		world_add_violation(w, "bad-ops", cpu, st.steps,
				    "%s called for %s with ops 0x%016llx, which ftrace never "
				    "allocated", where(w, pc, b1, sizeof(b1)),
				    where(w, ip, b2, sizeof(b2)), (unsigned long long)op);
		return;
	}
	if (world_ops_freed(w, o))
		world_add_violation(w, "use-after-free", cpu, st.steps,
				    "ops %s (0x%016llx) used by %s after it was freed",
				    o->name, (unsigned long long)op, where(w, ip, b2, sizeof(b2)));
	if (o->func != pc) {
		char why[900] = "";

		held_op_explain(w, cpu, op, why, sizeof(why));
		world_add_violation(w, "wrong-func", cpu, st.steps,
				    "%s ran for ops %s at %s, whose func is %s%s",
				    where(w, pc, b1, sizeof(b1)), o->name,
				    where(w, ip, b2, sizeof(b2)),
				    sim_symbolize(w->as, o->func, (char[160]){ 0 }, 160, 0), why);
	}
	w->run.cpu[cpu].held = 0;
	if (!o->ever[ri])
		world_add_violation(w, "wrong-ops", cpu, st.steps,
				    "ops %s called for %s, which it never asked to trace",
				    o->name, where(w, ip, b2, sizeof(b2)));
	/* A function the graph tracer hooked may tail-call another, which
	 * then returns to return_to_handler (ftrace_graph_ret_addr resolves
	 * it); a BPF image calls the original function with adr lr; ret x10
	 * (prepare_trampoline()); any other parent must follow a call
	 * instruction. */
	if (parent != sim_image_lookup(w->img, "return_to_handler") &&
	    !world_bpf_orig_return(w, parent) && !w->ad->follows_call(w->as, parent))
		world_add_violation(w, "bad-parent", cpu, st.steps,
				    "ops %s called for %s with parent_ip %s, which follows no call",
				    o->name, where(w, ip, b1, sizeof(b1)),
				    where(w, parent, b2, sizeof(b2)));
	count_call(w, cpu, ri, o, st.steps);
}

/* The direct trampoline logs (ip, parent_ip). */
static void on_direct(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	uint64_t ip = cpu_arg(w, cpu, 0);
	int ri = world_rec_at_ip(w, ip);
	struct wcall *c = &w->run.cpu[cpu].call;
	struct exec_stats st;
	char b[160];

	(void)pc;
	st.steps = exec_steps(ex);
	w->run.st.tracer_calls++;
	if (ri < 0) {
		world_add_violation(w, "bad-ip", cpu, st.steps,
				    "direct trampoline entered from %s, which is no patch site",
				    where(w, ip, b, sizeof(b)));
		return;
	}
	if (c->active && c->rec == ri) {
		if (c->direct_seen)
			world_add_violation(w, "count", cpu, st.steps,
					    "direct trampoline ran twice for one call of %s",
					    where(w, w->recs[ri].func, b, sizeof(b)));
		c->direct_seen++;
	}
}

/* Has a plan queued after executor plan `id`, touching record ri, begun?
 * Plans run one after another: the earliest unfinished one is running. */
static int later_plan_started(const struct world *w, int id, int ri)
{
	size_t k = w->nplans, first_undone = w->nplans;

	/* ftrace's plans (agent 0) run one after another; another agent's
	 * touch no record */
	for (size_t i = 0; i < w->nplans; i++) {
		if (w->plans[i].agent != PLAN_AGENT_FTRACE)
			continue;
		if (w->plans[i].id == id)
			k = i;
		if (!w->run.plan[i].done && first_undone == w->nplans)
			first_undone = i;
	}
	for (size_t j = k + 1; j < w->nplans; j++) {
		const struct wplan *p = &w->plans[j];

		if (p->agent != PLAN_AGENT_FTRACE)
			continue;
		if (!w->run.plan[j].done && j != first_undone)
			break;
		for (size_t r = 0; r < p->nrecs; r++)
			if (p->recs[r] == ri)
				return 1;
	}
	return 0;
}

/* ftrace_nop_ops' func: which write did this CPU's last fetch of the site's
 * BL come from? The BL of an enable (make_call, modify_call) must never
 * lead to nop_ops: its literal was written first. */
static void on_nop(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	uint64_t ip = cpu_arg(w, cpu, 0);
	int ri = world_rec_at_ip(w, ip);
	size_t n;
	const struct exec_obs *obs = exec_observations(ex, &n);
	struct exec_stats st;
	char b[160];

	(void)pc;
	if (ri < 0)
		return;
	st.steps = exec_steps(ex);
	for (size_t i = n; i-- > 0;) {
		const struct exec_write *wr;

		if (obs[i].kind != EXEC_OBS_FETCH || obs[i].cpu != cpu ||
		    obs[i].addr != ip)
			continue;
		wr = exec_write_get(ex, obs[i].wid[0]);
		if (wr && wr->what && (!strncmp(wr->what, "make_call", 9) ||
				       !strncmp(wr->what, "modify_call", 11)) &&
		    !later_plan_started(w, wr->plan, ri))
			world_add_violation(w, "nop-ops", cpu, st.steps,
					    "ftrace_nop_ops called at %s through the %s written by "
					    "\"%s\" (plan %d step %d): the %s was visible before "
					    "the ops literal it needs",
					    where(w, ip, b, sizeof(b)), w->ad->call_insn, wr->what,
					    wr->plan, wr->step, w->ad->call_insn);
		break;
	}
}

/* ftrace_graph_caller entered the graph tracer for ip with graph ops op
 * (the -pg scheme): the checks of a tracer call that apply to it. */
static void graph_ops_entry(struct world *w, int cpu, uint64_t ip, uint64_t op)
{
	struct wops *o = world_ops_at(w, op);
	int ri = world_rec_at_ip(w, ip);
	uint64_t step = exec_steps(w->ex);
	char b[160];

	w->run.st.tracer_calls++;
	if (ri < 0) {
		world_add_violation(w, "bad-ip", cpu, step,
				    "ftrace_graph_caller entered the graph tracer for %s, "
				    "which is no patch site", where(w, ip, b, sizeof(b)));
		return;
	}
	if (!o) {
		world_add_violation(w, "bad-ops", cpu, step,
				    "graph entry for %s with ops 0x%016llx, which ftrace "
				    "never allocated", where(w, ip, b, sizeof(b)),
				    (unsigned long long)op);
		return;
	}
	if (world_ops_freed(w, o))
		world_add_violation(w, "use-after-free", cpu, step,
				    "graph ops %s (0x%016llx) used for %s after it was freed",
				    o->name, (unsigned long long)op, where(w, ip, b, sizeof(b)));
	if (!o->ever[ri])
		world_add_violation(w, "wrong-ops", cpu, step,
				    "graph ops %s entered for %s, which it never asked to trace",
				    o->name, where(w, ip, b, sizeof(b)));
	count_call(w, cpu, ri, o, step);
}

static void on_graph_entry(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	struct wcpu_run *c = &w->run.cpu[cpu];
	uint64_t ip = cpu_arg(w, cpu, 1);

	(void)ex;
	(void)pc;
	if (c->gdepth < WORLD_GRAPH_DEPTH)
		c->gstack[c->gdepth] = ip;
	c->gdepth++;
	/* Where the graph tracer is entered through the patched
	 * ftrace_graph_call (the -pg scheme), the graph ops' func is
	 * ftrace_stub: this entry, through ftrace_graph_caller, is its call. */
	if (w->backend->modify_graph_caller)
		graph_ops_entry(w, cpu, ip, cpu_arg(w, cpu, 2));
}

static void on_graph_return(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	struct wcpu_run *c = &w->run.cpu[cpu];
	struct exec_stats st;

	(void)pc;
	st.steps = exec_steps(ex);
	if (!c->gdepth) {
		world_add_violation(w, "graph", cpu, st.steps,
				    "return_to_handler reached with no graph entry on this CPU");
		return;
	}
	c->gdepth--;
}

/* A scheduling point and nothing else: lets other agents run while this
 * CPU holds a value it loaded (the ops pointer). */
static void on_preempt_point(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	(void)ex;
	(void)cpu;
	(void)pc;
	(void)arg;
}

/* A scheme's preemption point (world_schemedesc.preempt): the CPU's turn
 * may end here; it holds the function_trace_op it loaded (the third
 * argument register). */
static void on_held_op(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;

	(void)pc;
	w->run.cpu[cpu].held = 1;
	w->run.cpu[cpu].held_op = exec_cpu_reg(ex, cpu, w->ad->reg_arg0 + 2);
	w->run.cpu[cpu].held_step = exec_steps(ex);
}

static int install(struct world *w, struct ftv_err *err)
{
	if (w->op_loaded && exec_break(w->ex, w->op_loaded, on_preempt_point, w, err))
		return -1;
	for (size_t i = 0; i < sizeof(w->sd->preempt) / sizeof(w->sd->preempt[0]) &&
			   w->sd->preempt[i]; i++) {
		uint64_t at = sim_image_lookup(w->img, w->sd->preempt[i]);

		if (!at)
			return ftv_errf(err, "trampolines: symbol %s not found", w->sd->preempt[i]);
		/* (where a task is preempted: fuzz's window-hold) */
		if (exec_break_flags(w->ex, at, on_held_op, w,
				     EXEC_BREAK_PLANS | EXEC_BREAK_WINDOW, err))
			return -1;
	}
	for (size_t i = 0; w->cfg.exec.window_hold &&
			   i < sizeof(w->sd->window) / sizeof(w->sd->window[0]) &&
			   w->sd->window[i]; i++) {
		uint64_t at = sim_image_lookup(w->img, w->sd->window[i]);

		if (!at)
			return ftv_errf(err, "trampolines: symbol %s not found", w->sd->window[i]);
		if (exec_break_flags(w->ex, at, on_preempt_point, w, EXEC_BREAK_WINDOW, err))
			return -1;
	}
	if (exec_break(w->ex, w->tracer_a, on_tracer, w, err) ||
	    exec_break(w->ex, w->tracer_b, on_tracer, w, err) ||
	    exec_break(w->ex, w->nop_func, on_nop, w, err) ||
	    exec_break(w->ex, w->direct_log, on_direct, w, err) ||
	    exec_break(w->ex, w->quiescent, on_quiescent, w, err) ||
	    exec_break(w->ex, w->workload_done, on_done, w, err))
		return -1;
	/* the function-graph tracer, where the trampolines have one */
	if (w->graph_func &&
	    (exec_break(w->ex, w->graph_func, on_tracer, w, err) ||
	     exec_break(w->ex, w->prepare_return, on_graph_entry, w, err) ||
	     exec_break(w->ex, w->return_handler, on_graph_return, w, err)))
		return -1;
	for (size_t i = 0; i < w->nrecs; i++)
		if (w->recs[i].rec >= 0 && w->recs[i].active &&
		    exec_break(w->ex, w->recs[i].func, on_entry, w, err))
			return -1;
	return 0;
}

/* After a completed run: the calls still open, what the workload saw
 * returned, CPUs that did not finish, graph entries that never returned. */
static void finish(struct world *w, int complete)
{
	char b[160];

	if (!complete)
		return;
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		uint64_t bad = 0, done = 0;

		finish_call(w, c);
		sim_read64(w->as, w->cpu[c].work + FTV_WORK_BADRET, &bad);
		sim_read64(w->as, w->cpu[c].work + FTV_WORK_DONE, &done);
		if (bad) {
			/* the log holds the details of the first ones */
			uint64_t head = 0;

			sim_read64(w->as, w->cpu[c].pcpu + FTV_PCPU_LOG_HEAD, &head);
			for (uint64_t i = 0; i < head && i < WORLD_LOG_CAP; i++) {
				uint64_t rec = w->cpu[c].log + i * FTV_LOG_SIZE, kind, fn, exp, got;

				sim_read64(w->as, rec + FTV_LOG_KIND, &kind);
				if (kind != FTV_LOG_BADRET)
					continue;
				sim_read64(w->as, rec + FTV_LOG_IP, &fn);
				sim_read64(w->as, rec + FTV_LOG_PARENT_IP, &exp);
				sim_read64(w->as, rec + FTV_LOG_RETVAL, &got);
				world_add_violation(w, "bad-return", (int)c, 0,
						    "%s returned 0x%llx traced, 0x%llx untraced",
						    where(w, fn, b, sizeof(b)),
						    (unsigned long long)got, (unsigned long long)exp);
			}
		}
		/* out of steps, still running: world_budget_exhausted */
		if (w->run.budget_out && !exec_cpu_done(w->ex, c))
			continue;
		if (!exec_cpu_done(w->ex, c))
			world_add_violation(w, "unfinished", (int)c, world_step(w),
					    "cpu%u completed %llu of its %u rounds", c,
					    (unsigned long long)done,
					    w->cfg.rounds ? w->cfg.rounds : 20);
		if (w->run.cpu[c].gdepth)
			world_add_violation(w, "graph", (int)c, world_step(w),
					    "%u function-graph entries never returned on cpu%u",
					    w->run.cpu[c].gdepth, c);
	}
}

static void ftrace_bug(struct world *w, int complete)
{
	if (complete && ftrace_core_bug(w->core))
		world_add_violation(w, "ftrace_bug", -1, world_step(w), "%s",
				    ftrace_core_bug(w->core));
}

/* The calls first; the ftrace_bug after the explanations of the faults it
 * may have caused (verify/explain.c). */
WORLD_CHECK(calls, .order = 10, .install = install, .finish = finish)
WORLD_CHECK(ftrace_bug, .order = 40, .finish = ftrace_bug)
