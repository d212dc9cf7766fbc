/* The world's part of the state the stateful walk hashes (verify/verify.h:
 * verify_config.stateful; executor/exec_state_walk.c for the executor's
 * part): every field of struct world_run a later step or check reads.
 *
 * Hashed as they are: each CPU's call in progress (what it expects, what
 * it has seen, its stable set), its graph stack, the modules it calls,
 * the function_trace_op it holds; which ops were freed, the modules'
 * states, what each ops reached while registered (world_vacuous), whether
 * a tracer was called at all (world_vacuous reads only that of the
 * counts), the run's end and budget, the arch explanation's progress, the
 * first ftrace_bug and each plan's completion. Step numbers: each plan's
 * completion step (exec_state_step: by its order among them; world_ops.c,
 * plan_done, compares them) and each CPU's last context synchronisation
 * (exec_state_since: where it falls among those; the checks compare it
 * with the plans' steps only: check.c, touched_since and last_plan_end);
 * each CPU's last quiescent points, the world's and the executor's
 * (exec_cpu_last_qs), the same way but only while a plan that frees an
 * ops has not completed: only that completion reads them (world_ops.c,
 * plan_done's grace-period check).
 * Not hashed: a call's and a held op's step (only worded into a violation
 * message: check.c), the records' settling steps (written, never read),
 * the statistics (world_vacuous reads the tracer calls, but only after a
 * scenario's run, never during or after a walk, which puts the run state
 * back), the timeline (output only), budget_why (said when budget_out
 * is). A violation recorded makes the state
 * unhashable (the walk then neither cuts nor keeps it): what the judge of
 * the run reports must be what a stored run reported. The core's state
 * (ftrace_core_state_save) changes during the walk only when a plan fails
 * (ftrace_core_mark_failed), which records a violation. The built world
 * does not change while the CPUs run (world_run.h). */
#include "verify/world_int.h"

static void words(struct exec_state_sink *s, const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t w = 0;

	for (size_t i = 0; i < n; i++) {
		w = w << 8 | b[i];
		if (i % 8 == 7 || i + 1 == n) {
			exec_state_word(s, w);
			w = 0;
		}
	}
}

static void call_words(struct exec_state_sink *s, const struct world *w,
		       const struct wcall *c)
{
	size_t nops = w->nops < WORLD_MAX_OPS ? w->nops : WORLD_MAX_OPS;

	exec_state_word(s, (uint64_t)c->active);
	if (!c->active)
		return;
	exec_state_word(s, (uint64_t)(uint32_t)c->rec << 32 | c->nexpect);
	words(s, c->expect, sizeof(c->expect));
	words(s, c->seen, nops);
	words(s, c->stable, nops);
	exec_state_word(s, c->direct_seen);
	exec_state_word(s, (uint64_t)c->expect_direct);
	exec_state_word(s, c->nplans);
}

/* A plan that frees an ops has not completed: its completion reads the
 * CPUs' last quiescent points (world_ops.c, plan_done). */
static int free_pending(const struct world *w)
{
	for (size_t i = 0; i < w->nops && i < WORLD_MAX_OPS; i++)
		for (size_t k = 0; w->ops[i].free_plan >= 0 && k < w->nplans; k++)
			if (w->plans[k].id == w->ops[i].free_plan && !w->run.plan[k].done)
				return 1;
	return 0;
}

void world_state_words(struct ftv_exec *ex, struct exec_state_sink *s, void *arg)
{
	struct world *w = arg;
	const struct world_run *r = &w->run;
	size_t nops = w->nops < WORLD_MAX_OPS ? w->nops : WORLD_MAX_OPS;
	int qs = free_pending(w);

	if (r->nviol) {
		exec_state_unhashable(s);
		return;
	}
	/* (the CPUs in the walk's canonical order; under symmetry a graph
	 * stack's values, which may point into the CPU's stack, moved:
	 * executor/exec_sym.h) */
	for (unsigned j = 0; j < w->cfg.exec.ncpus; j++) {
		unsigned c = exec_state_cpu(s, j);
		const struct wcpu_run *p = &r->cpu[c];

		exec_state_since(s, p->last_sync);
		if (qs) {
			exec_state_since(s, p->last_qs);
			exec_state_since(s, exec_cpu_last_qs(ex, c));
		}
		call_words(s, w, &p->call);
		exec_state_word(s, p->gdepth);
		for (unsigned k = 0; k < p->gdepth && k < WORLD_GRAPH_DEPTH; k++)
			exec_state_word(s, exec_state_reloc(s, p->gstack[k]));
		exec_state_word(s, p->mods_on);
		exec_state_word(s, (uint64_t)p->held);
		if (p->held)
			exec_state_word(s, p->held_op);
	}
	words(s, r->ops_freed, nops);
	words(s, r->ops_registered, nops);
	words(s, r->ops_reached, nops);
	words(s, r->ops_disabled_only, nops);
	for (size_t m = 0; m < w->nmods && m < WORLD_MAX_OBJECTS; m++)
		exec_state_word(s, (uint64_t)r->mod_state[m]);
	exec_state_word(s, (uint64_t)r->finished << 1 |
				   (uint64_t)r->budget_out << 2 |
				   (uint64_t)r->bug_seen << 3);
	exec_state_word(s, r->xv_explained);
	if (r->bug_seen) {
		exec_state_word(s, (uint64_t)(int64_t)r->bug_plan);
		exec_state_word(s, r->bug_step);
		exec_state_word(s, r->bug_found);
	}
	exec_state_word(s, r->nplan);
	for (size_t i = 0; i < r->nplan; i++) {
		exec_state_word(s, (uint64_t)r->plan[i].done);
		exec_state_step(s, r->plan[i].done_step);
	}
}
