/* The patcher as an agent (exec_plan.h): plan steps, what each waits for,
 * and what each does to the model. */
#include "executor/exec_plan.h"

#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

void xp_init(struct xplans *ps, struct ftv_exec *ex, struct xmodel *m,
	     struct xsbuf *sb, struct xcpu *cpu, unsigned ncpus,
	     int stop_anywhere)
{
	ps->ex = ex;
	ps->m = m;
	ps->sb = sb;
	ps->cpu = cpu;
	ps->ncpus = ncpus;
	ps->stop_anywhere = stop_anywhere;
}

void xp_free(struct xplans *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		plan_free(&ps->v[i].p);
	free(ps->v);
	free(ps->pend.v);
}

/* The plan in progress moves on: plans before it write no more. */
static void set_cur(struct xplans *ps, size_t cur)
{
	ps->cur = cur;
	ps->m->log->plans_closed = cur;
}

void xp_reset(struct xplans *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		ps->v[i].res = (struct exec_plan_result){ EXEC_PLAN_QUEUED, 0,
							  0 };
		ps->v[i].next = 0;
		ps->v[i].waiting = 0;
	}
	set_cur(ps, 0);
	ps->pend.n = 0;
	ps->stop_machine = 0;
}

int xp_submit(struct xplans *ps, const struct plan *p, exec_plan_fn fn,
	      void *arg)
{
	struct xplan *xp;

	if (VEC_RESERVE(ps->v, ps->cap, ps->n + 1))
		return -1;
	xp = &ps->v[ps->n];
	memset(xp, 0, sizeof(*xp));
	plan_init(&xp->p);
	if (plan_append(&xp->p, p))
		return -1;
	xp->fn = fn;
	xp->arg = arg;
	xp->res.status = EXEC_PLAN_QUEUED;
	return (int)ps->n++;
}

const char *xp_step_what(const struct xplans *ps, size_t plan, size_t step)
{
	if (plan < ps->n && step < ps->v[plan].p.n)
		return ps->v[plan].p.steps[step].what;
	return NULL;
}

/* The plan in progress, after finishing (and reporting) those whose steps
 * are all done. */
static struct xplan *cur_plan(struct xplans *ps)
{
	while (ps->cur < ps->n &&
	       (ps->v[ps->cur].res.status == EXEC_PLAN_DONE ||
		ps->v[ps->cur].res.status == EXEC_PLAN_MISMATCH ||
		ps->v[ps->cur].next >= ps->v[ps->cur].p.n)) {
		struct xplan *xp = &ps->v[ps->cur];

		if (xp->res.status != EXEC_PLAN_MISMATCH &&
		    xp->res.status != EXEC_PLAN_DONE) {
			xp->res.status = EXEC_PLAN_DONE;
			if (xp->fn)
				xp->fn(ps->ex, (int)ps->cur, &xp->res,
				       xp->arg);
		}
		set_cur(ps, ps->cur + 1);
	}
	return ps->cur < ps->n ? &ps->v[ps->cur] : NULL;
}

int xp_ready(struct xplans *ps)
{
	struct xplan *xp = cur_plan(ps);
	const struct plan_step *s;

	if (!xp)
		return 0;
	s = &xp->p.steps[xp->next];
	switch (s->op) {
	case PLAN_DSB:
	case PLAN_SYNC_ALL:
		/* DSB completes only when every earlier store is visible;
		 * sending an IPI implies one (dsb(ishst) in the GIC driver). */
		return ps->sb->n == 0;
	case PLAN_CACHE_CLEAN:
	case PLAN_ICACHE_INVAL:
		/* Maintenance by VA is ordered after earlier stores to the
		 * same location (Arm ARM D7.5.9). */
		return !xb_holds(ps->sb, s->addr, s->len ? s->len : 1);
	case PLAN_QUIESCE:
		if (!xp->waiting) {
			xp->waiting = 1;
			for (unsigned c = 0; c < ps->ncpus; c++)
				xp->qs_snap[c] = ps->cpu[c].qs_count;
		}
		/* synchronize_rcu_tasks(): every CPU has passed a voluntary
		 * quiescent point since (CPUs without one never hold a
		 * reference across a turn). */
		for (unsigned c = 0; c < ps->ncpus; c++) {
			struct xcpu *cp = &ps->cpu[c];

			if (cp->st == XCPU_RUN && cp->has_qs &&
			    cp->qs_count <= xp->qs_snap[c])
				return 0;
		}
		return 1;
	case PLAN_STOP_MACHINE:
		ps->stop_machine = 1;
		if (ps->stop_anywhere) {
			/* The stopper thread preempts each CPU where it is:
			 * between turns a CPU is at an instruction boundary
			 * (a turn ends before a watched fetch, at a quantum
			 * or at a hook), possibly between the two words of
			 * a call pair. */
			for (unsigned c = 0; c < ps->ncpus; c++)
				if (ps->cpu[c].st == XCPU_RUN)
					ps->cpu[c].st = XCPU_PARKED;
			return 1;
		}
		for (unsigned c = 0; c < ps->ncpus; c++)
			if (ps->cpu[c].st == XCPU_RUN && ps->cpu[c].has_qs)
				return 0;
		return 1;
	default:
		return 1;
	}
}

void xp_step(struct xplans *ps)
{
	struct xplan *xp = cur_plan(ps);
	struct xmodel *m = ps->m;
	int id = (int)(xp - ps->v);
	size_t idx = xp->next;
	const struct plan_step *s = &xp->p.steps[idx];
	unsigned size = s->op == PLAN_WRITE_INSN ? 4 : 8;
	int wid;

	xp->res.status = EXEC_PLAN_RUNNING;
	xl_event(m->log, XL_AGENT_PATCHER, EXEC_EV_PLAN,
		 (uint64_t)id << 32 | idx, s->op);
	switch (s->op) {
	case PLAN_WRITE_INSN:
	case PLAN_WRITE_DATA64:
		if (s->validate) {
			uint64_t cur = xb_read(ps->sb, s->addr, size);
			uint64_t old = size == 4 ? (uint32_t)s->old : s->old;

			if (cur != old) {
				/* ftrace_modify_code(): -EINVAL, nothing is
				 * written and the update stops (ftrace_bug). */
				xp->res = (struct exec_plan_result){
					EXEC_PLAN_MISMATCH, idx, cur };
				if (xp->fn)
					xp->fn(ps->ex, id, &xp->res, xp->arg);
				set_cur(ps, ps->cur + 1);
				return;
			}
		}
		wid = xm_write(m, s->addr,
			       size == 4 ? (uint32_t)s->new : s->new, size, id,
			       (int)idx, -1, s->what);
		if (wid < 0)
			return;
		if (size == 8 && (s->addr & 7)) {
			/* Not single-copy atomic: two 32-bit stores that may
			 * become visible separately (Arm ARM B2.2.1). */
			xb_push(ps->sb, s->addr, 4, s->new & 0xffffffffu, wid);
			xb_push(ps->sb, s->addr + 4, 4, s->new >> 32, wid);
		} else {
			xb_push(ps->sb, s->addr, size, s->new, wid);
		}
		break;
	case PLAN_CACHE_CLEAN:
	case PLAN_ICACHE_INVAL:
		xm_cache_op(m, &ps->pend, s->op == PLAN_ICACHE_INVAL, s->addr,
			    s->len);
		break;
	case PLAN_DSB:
		xm_dsb(m, &ps->pend);
		break;
	case PLAN_DMB:
		xb_barrier(ps->sb);
		break;
	case PLAN_ISB:
		/* The patching agent runs no patched code itself. */
		break;
	case PLAN_SYNC_ALL:
		m->arch->sync_all(m);
		break;
	case PLAN_QUIESCE:
		xp->waiting = 0;
		break;
	case PLAN_FREE:
		xm_poison(m, s->addr, s->len);
		break;
	case PLAN_STOP_MACHINE:
		break;
	case PLAN_RESUME_MACHINE:
		/* Leaving multi_cpu_stop() each CPU returns through an
		 * exception return: a context synchronisation event. */
		ps->stop_machine = 0;
		for (unsigned c = 0; c < ps->ncpus; c++)
			if (ps->cpu[c].st == XCPU_PARKED)
				ps->cpu[c].st = XCPU_RUN;
		xm_context_sync_all(m);
		break;
	}
	xp->next++;
	cur_plan(ps);
}
