/* The patcher as an agent (exec_plan.h): plan steps, what each waits for,
 * and what each does to the model. */
#include "executor/exec_plan.h"

#include <stdio.h>
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
	for (int k = 0; k < XP_LOCKS; k++)
		ps->lock_owner[k] = -1;
}

void xp_free(struct xplans *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		plan_free(&ps->v[i].p);
		plan_free(&ps->v[i].orig);
	}
	free(ps->v);
	for (int a = 0; a < PLAN_AGENTS; a++)
		free(ps->pend[a].v);
}

static int finished(const struct xplan *xp)
{
	return xp->res.status == EXEC_PLAN_DONE || xp->res.status == EXEC_PLAN_MISMATCH ||
	       xp->res.status == EXEC_PLAN_FAULT;
}

/* Agent a's plan in progress moves on (to the next of its own); cur, the
 * lowest of them, too: plans before it write no more. */
static void set_cur(struct xplans *ps, int a, size_t cur)
{
	size_t low = ps->n;

	while (cur < ps->n && ps->v[cur].p.agent != a)
		cur++;
	ps->acur[a] = cur;
	for (int k = 0; k < PLAN_AGENTS; k++)
		if (ps->acur[k] < low)
			low = ps->acur[k];
	ps->cur = low;
	ps->m->log->plans_closed = low;
}

void xp_reset(struct xplans *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		ps->v[i].res = (struct exec_plan_result){ EXEC_PLAN_QUEUED, 0,
							  0 };
		ps->v[i].next = 0;
		ps->v[i].waiting = 0;
		ps->v[i].read_done = 0;
		/* a live plan's steps as its code made them at first */
		if (ps->v[i].live) {
			plan_reset(&ps->v[i].p);
			plan_append(&ps->v[i].p, &ps->v[i].orig);
		}
	}
	for (int a = 0; a < PLAN_AGENTS; a++) {
		set_cur(ps, a, 0);
		ps->pend[a].n = 0;
	}
	ps->stop_machine = 0;
	for (int k = 0; k < XP_LOCKS; k++)
		ps->lock_owner[k] = -1;
	ps->win_mapped = 0;
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
	plan_init(&xp->orig);
	for (size_t i = 0; i < p->n && !xp->live; i++)
		xp->live = p->steps[i].live != NULL;
	if (xp->live && plan_append(&xp->orig, p))
		return -1;
	xp->fn = fn;
	xp->arg = arg;
	xp->res.status = EXEC_PLAN_QUEUED;
	if (xp->p.agent < 0 || xp->p.agent >= PLAN_AGENTS)
		xp->p.agent = PLAN_AGENT_FTRACE;
	if (xp->p.agent != PLAN_AGENT_FTRACE)
		ps->sb->shared = 1; /* (xsbuf.need) */
	ps->n++;
	/* an agent that had nothing left picks it up */
	for (int a = 0; a < PLAN_AGENTS; a++)
		if (ps->acur[a] >= ps->n - 1)
			set_cur(ps, a, ps->acur[a] < ps->n - 1 ? ps->acur[a] : ps->n - 1);
	return (int)ps->n - 1;
}

const char *xp_step_what(const struct xplans *ps, size_t plan, size_t step)
{
	if (plan < ps->n && step < ps->v[plan].p.n)
		return ps->v[plan].p.steps[step].what;
	return NULL;
}

const struct plan_step *xp_step_at(const struct xplans *ps, size_t plan, size_t step)
{
	if (plan < ps->n && step < ps->v[plan].p.n)
		return &ps->v[plan].p.steps[step];
	return NULL;
}

/* The current step reads every CPU's progress (quiescent points passed,
 * done, parked): for exec_verify's reduction. */
static void read_progress(struct xplans *ps)
{
	for (unsigned c = 0; c < ps->ncpus; c++)
		xs_access(ps->m->sched, XLOC(XLOC_PROG, c), XA_R);
}

/* A plan completed or stopped: its callback may read anything the world
 * keeps about the CPUs, and what it sets is read by the checks. */
static void plan_finished(struct xplans *ps)
{
	read_progress(ps);
	xs_access(ps->m->sched, XLOC(XLOC_PLANS, 0), XA_W);
}

/* Agent a's plan in progress, after finishing (and reporting) those whose
 * steps are all done. */
static struct xplan *cur_plan(struct xplans *ps, int a)
{
	while (ps->acur[a] < ps->n &&
	       (finished(&ps->v[ps->acur[a]]) ||
		ps->v[ps->acur[a]].next >= ps->v[ps->acur[a]].p.n)) {
		size_t id = ps->acur[a];
		struct xplan *xp = &ps->v[id];

		if (!finished(xp)) {
			xp->res.status = EXEC_PLAN_DONE;
			plan_finished(ps);
			if (xp->p.visible_on_return)
				for (size_t i = 0; i < xp->p.n; i++)
					if (xp->p.steps[i].op == PLAN_WRITE_INSN)
						xm_returned(ps->m, (int)id, xp->p.steps[i].addr);
			if (xp->fn)
				xp->fn(ps->ex, (int)id, &xp->res, xp->arg);
		}
		set_cur(ps, a, id + 1);
	}
	return ps->acur[a] < ps->n ? &ps->v[ps->acur[a]] : NULL;
}

static int lock_slot(const struct xplans *ps, uint64_t id)
{
	for (int k = 0; k < XP_LOCKS; k++)
		if (ps->lock_owner[k] >= 0 && ps->lock_id[k] == id)
			return k;
	return -1;
}

int xp_waits_for_sbuf(struct xplans *ps)
{
	if (!ps->sb->n)
		return 0;
	for (int a = 0; a < PLAN_AGENTS; a++) {
		struct xplan *xp = cur_plan(ps, a);
		const struct plan_step *s;

		if (!xp)
			continue;
		s = &xp->p.steps[xp->next];
		if (s->op == PLAN_DSB || s->op == PLAN_SYNC_ALL ||
		    (s->op == PLAN_QUIESCE && !xp->waiting) ||
		    ((s->op == PLAN_CACHE_CLEAN || s->op == PLAN_ICACHE_INVAL) &&
		     xb_holds(ps->sb, s->addr, s->len ? s->len : 1)))
			return 1;
	}
	return 0;
}

/* The grace period xp waits for has not seen CPU c pass a quiescent
 * point yet (synchronize_rcu_tasks(): see xp_ready). Only c's own turns
 * change that: it passes one, sleeps, or finishes. */
static int qs_holds_up(const struct xplan *xp, const struct xcpu *cp, unsigned c)
{
	return (cp->st == XCPU_RUN || (cp->st == XCPU_PARKED && !cp->parked_qs)) &&
	       cp->has_qs && cp->qs_count <= xp->qs_snap[c] && !cp->asleep;
}

/* XLOC_QSWAIT of plan i's grace period and CPU c. */
static void qs_wait_access(struct xplans *ps, size_t i, unsigned c, unsigned mode)
{
	if (!ps->m->coarse && i < (1u << 17))
		xs_access(ps->m->sched, XLOC(XLOC_QSWAIT, (uint32_t)i << 6 | c), mode);
}

void xp_cpu_turn(struct xplans *ps, unsigned cpu)
{
	for (size_t i = 0; i < ps->n; i++)
		if (ps->v[i].waiting && (ps->v[i].qs_block >> cpu & 1) &&
		    qs_holds_up(&ps->v[i], &ps->cpu[cpu], cpu))
			qs_wait_access(ps, i, cpu, XA_W);
}

int xp_ready(struct xplans *ps, int a)
{
	struct xplan *xp = cur_plan(ps, a);
	const struct plan_step *s;
	int k;

	if (!xp)
		return 0;
	s = &xp->p.steps[xp->next];
	switch (s->op) {
	case PLAN_LOCK:
		/* a sleeping lock: wait while another agent holds it */
		k = lock_slot(ps, s->addr);
		return k < 0 || ps->lock_owner[k] == a;
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
			/* The grace period starts with a full barrier on the
			 * updater (synchronize_rcu*() orders the caller's
			 * earlier stores before it: the memory-barrier
			 * guarantee of Documentation/RCU/Design/Requirements),
			 * so a CPU that starts reading after the start sees
			 * them: begin once the buffer has drained. */
			if (ps->sb->n)
				return 0;
			/* (right after the patcher step that made QUIESCE
			 * the next one: that step reads the counts) */
			read_progress(ps);
			xp->waiting = 1;
			xp->qs_block = 0;
			for (unsigned c = 0; c < ps->ncpus; c++) {
				xp->qs_snap[c] = ps->cpu[c].qs_count;
				if (qs_holds_up(xp, &ps->cpu[c], c))
					xp->qs_block |= 1ULL << c;
			}
		}
		/* synchronize_rcu_tasks(): every CPU has passed a voluntary
		 * quiescent point since (CPUs without one never hold a
		 * reference across a turn). A CPU another agent's
		 * stop_machine() parked anywhere but there was preempted, not
		 * quiescent (RCU Tasks counts voluntary switches only): it is
		 * waited for until it resumes and passes one. */
		for (unsigned c = 0; c < ps->ncpus; c++)
			if (qs_holds_up(xp, &ps->cpu[c], c))
				return 0;
		return 1;
	case PLAN_WAIT_ZERO:
		/* percpu_ref_kill()'s wait, one CPU's count at a time: the
		 * counts only go down once nobody can take the ref any more
		 * (kernel/bpf/trampoline.c: after a grace period of the
		 * unreachable image). The CPUs change them at their progress
		 * points. */
		read_progress(ps);
		return xb_read(ps->sb, s->addr, 8) == 0;
	case PLAN_STOP_MACHINE:
		if (!ps->stop_machine)
			xs_access(ps->m->sched, XLOC(XLOC_SM, 0), XA_W);
		ps->stop_machine = 1;
		if (ps->stop_anywhere) {
			/* The stopper thread preempts each CPU where it is:
			 * between turns a CPU is at an instruction boundary
			 * (a turn ends before a watched fetch, at a quantum
			 * or at a hook), possibly between the two words of
			 * a call pair. */
			for (unsigned c = 0; c < ps->ncpus; c++)
				if (ps->cpu[c].st == XCPU_RUN) {
					xs_access(ps->m->sched,
						  XLOC(XLOC_PROG, c), XA_W);
					ps->cpu[c].st = XCPU_PARKED;
				}
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

/* The kernel's page size: what the patch window maps. */
#define XP_PAGE 4096ULL

/* A store through the patch window: where it lands, or 0 when the window
 * is not mapped (reported). */
static uint64_t through_window(struct xplans *ps, int a, size_t id, size_t idx,
			       const struct plan_step *s)
{
	struct xmodel *m = ps->m;
	uint64_t at;

	if (!ps->win_mapped) {
		xl_violation(m->log, EXEC_V_WINDOW, -1, s->addr,
			     "patch-window: plan %zu step %zu (patcher%d, \"%s\") writes 0x%llx "
			     "for 0x%016llx through the patch window, which plan %d step %d "
			     "(patcher%d) has unmapped: the store faults (\"ftrace faulted on "
			     "modifying\"); the window is shared, and whoever writes through it "
			     "must hold the lock every other user takes (text_mutex)",
			     id, idx, a, s->what ? s->what : "", (unsigned long long)s->new,
			     (unsigned long long)s->addr, ps->win_plan, ps->win_step,
			     ps->win_agent);
		return 0;
	}
	at = ps->win_page + (s->addr & (XP_PAGE - 1));
	if (at != s->addr)
		xl_violation(m->log, EXEC_V_WINDOW, -1, s->addr,
			     "patch-window: plan %zu step %zu (patcher%d, \"%s\") writes 0x%llx "
			     "for 0x%016llx through the patch window, which plan %d step %d "
			     "(patcher%d) has mapped to page 0x%016llx since: the store lands at "
			     "0x%016llx, in text nobody meant to change; the window is shared, "
			     "and whoever writes through it must hold the lock every other user "
			     "takes (text_mutex)",
			     id, idx, a, s->what ? s->what : "", (unsigned long long)s->new,
			     (unsigned long long)s->addr, ps->win_plan, ps->win_step,
			     ps->win_agent, (unsigned long long)ps->win_page,
			     (unsigned long long)at);
	return at;
}

/* A plan stops (ftrace_bug): nothing more of it is performed. */
static void stop_plan(struct xplans *ps, int a, struct xplan *xp, int id,
		      enum exec_plan_status st, size_t idx, uint64_t found)
{
	/* the error path unlocks what the task held, and unmaps */
	for (int k = 0; k < XP_LOCKS; k++)
		if (ps->lock_owner[k] == a)
			ps->lock_owner[k] = -1;
	if (ps->win_mapped && ps->win_agent == a)
		ps->win_mapped = 0;
	xp->res = (struct exec_plan_result){ st, idx, found };
	plan_finished(ps);
	if (xp->fn)
		xp->fn(ps->ex, id, &xp->res, xp->arg);
	set_cur(ps, a, (size_t)id + 1);
}

/* reads of one live run the executor passes back (ftrace_modify_code
 * makes one) */
#define XP_LIVE_READS 16

/* The read the code of live step idx made before it (patcher/plan.h):
 * made now, through the store buffer as a validate. Another value than
 * the one the code ran with: the code's rerun from those reads gives the
 * run's steps from here on, in place of the rest of the run. 0, or -1
 * when the rerun failed (the plan stopped). */
static int live_read(struct xplans *ps, int a, struct xplan *xp, int id, size_t idx)
{
	const struct plan_step *s = &xp->p.steps[idx];
	const struct plan_live *l = s->live;
	uint64_t v = xb_read(ps->sb, s->raddr, s->rsize), reads[XP_LIVE_READS];
	size_t from = idx, to = idx + 1, nr = 0, k;
	struct plan np, tail;
	struct ftv_err err = { "" };
	int bad, rec;

	if (s->rsize < 8)
		v &= (1ull << (8 * s->rsize)) - 1;
	xm_touch(ps->m, s->raddr, s->rsize, XA_R);
	/* The read sees the stores still in the buffer (xb_read forwards
	 * them, another patcher's too): it depends on every store pushed,
	 * which each patcher step marks by writing XLOC_PATCH. The step
	 * writes it too when it goes on, but not when the read's rerun
	 * makes it wait (a DSB with stores buffered, xp_step): then only
	 * this keeps another patcher's store before the read from
	 * commuting with it. */
	xs_access(ps->m->sched, XLOC(XLOC_PATCH, 0), XA_R);
	xp->read_done = 1;
	xp->found = v;
	if (v == s->rval)
		return 0;
	/* the run's steps: adjacent, the same live */
	while (from > 0 && xp->p.steps[from - 1].live == l)
		from--;
	while (to < xp->p.n && xp->p.steps[to].live == l)
		to++;
	for (size_t i = from; i < idx && nr < XP_LIVE_READS - 1; i++)
		if (xp->p.steps[i].rsize)
			reads[nr++] = xp->p.steps[i].rval;
	reads[nr++] = v;
	plan_init(&np);
	plan_init(&tail);
	k = idx - from;
	rec = xp->p.steps[from].rec;
	bad = !l || l->rerun(l, reads, nr, &np, &err) || np.n <= k ||
	      np.steps[k].rsize != s->rsize || np.steps[k].rval != v;
	if (!bad) {
		/* steps idx.. of the run are the rerun's k.. */
		for (size_t i = to; i < xp->p.n && !bad; i++)
			bad = plan_push(&tail, &xp->p.steps[i]);
		xp->p.n = idx;
		for (size_t i = k; i < np.n && !bad; i++) {
			/* the record the run serves, as the core set it on
			 * the run's steps (the code knows no record numbers) */
			if (np.steps[i].rec < 0)
				np.steps[i].rec = rec;
			bad = plan_push(&xp->p, &np.steps[i]);
		}
		for (size_t i = 0; i < tail.n && !bad; i++)
			bad = plan_push(&xp->p, &tail.steps[i]);
	}
	plan_free(&np);
	plan_free(&tail);
	if (!bad)
		return 0;
	fprintf(stderr, "ftv: plan %d step %zu: the patcher's code, rerun after reading 0x%llx at "
		"0x%llx: %s\n", id, idx, (unsigned long long)v, (unsigned long long)s->raddr,
		err.msg[0] ? err.msg : "no such step");
	stop_plan(ps, a, xp, id, EXEC_PLAN_FAULT, idx, v);
	return -1;
}

void xp_step(struct xplans *ps, int a)
{
	struct xplan *xp = cur_plan(ps, a);
	struct xmodel *m = ps->m;
	int id = (int)(xp - ps->v);
	size_t idx = xp->next;
	const struct plan_step *s = &xp->p.steps[idx];
	unsigned size = s->op == PLAN_WRITE_INSN ? 4 : 8;
	uint64_t at = s->addr;
	int wid, k;

	if (s->rsize && !xp->read_done) {
		/* the code before the step ran now: its read, and what it
		 * did with the value */
		if (live_read(ps, a, xp, id, idx))
			return;
		s = &xp->p.steps[idx];
		size = s->op == PLAN_WRITE_INSN ? 4 : 8;
		at = s->addr;
		if (!xp_ready(ps, a))
			return; /* it waits at the step, the read made */
	}
	xp->res.status = EXEC_PLAN_RUNNING;
	xl_event(m->log, a ? XL_AGENT_PATCHER_TEXT : XL_AGENT_PATCHER, EXEC_EV_PLAN,
		 (uint64_t)id << 32 | idx, s->op);
	xs_access(m->sched, XLOC(XLOC_PATCH, 0), XA_W);
	switch (s->op) {
	case PLAN_WRITE_INSN:
	case PLAN_WRITE_DATA64:
		if (s->window)
			xs_access(m->sched, XLOC(XLOC_WIN, 0), XA_R);
		if (s->window && !(at = through_window(ps, a, (size_t)id, idx, s))) {
			stop_plan(ps, a, xp, id, EXEC_PLAN_FAULT, idx, 0);
			return;
		}
		/* what it validates against: memory, under its own buffer */
		xm_touch(m, s->addr, size, XA_R);
		if (s->validate) {
			uint64_t cur = xb_read(ps->sb, at, size);
			uint64_t old = size == 4 ? (uint32_t)s->old : s->old;

			if (cur != old) {
				/* ftrace_modify_code(): -EINVAL, nothing is
				 * written and the update stops (ftrace_bug). */
				stop_plan(ps, a, xp, id, EXEC_PLAN_MISMATCH, idx, cur);
				return;
			}
		}
		wid = xm_write(m, at, size == 4 ? (uint32_t)s->new : s->new, size, id,
			       (int)idx, -1, s->what);
		if (wid < 0)
			return;
		if (size == 8 && (at & 7)) {
			/* Not single-copy atomic: two 32-bit stores that may
			 * become visible separately (Arm ARM B2.2.1). */
			xb_push(ps->sb, at, 4, s->new & 0xffffffffu, wid);
			xb_push(ps->sb, at + 4, 4, s->new >> 32, wid);
		} else {
			xb_push(ps->sb, at, size, s->new, wid);
		}
		break;
	case PLAN_CACHE_CLEAN:
	case PLAN_ICACHE_INVAL:
		/* (it waited for the stores to its range: xp_ready) */
		xb_waited(ps->sb, s->addr, s->len ? s->len : 1);
		xm_cache_op(m, &ps->pend[a], s->op == PLAN_ICACHE_INVAL, s->addr,
			    s->len);
		break;
	case PLAN_DSB:
		xb_waited(ps->sb, 0, 0); /* every store drained first */
		xm_dsb(m, &ps->pend[a]);
		break;
	case PLAN_DMB:
		xb_barrier(ps->sb);
		break;
	case PLAN_ISB:
		/* The patching agent runs no patched code itself. */
		break;
	case PLAN_SYNC_ALL:
		xb_waited(ps->sb, 0, 0);
		m->arch->sync_all(m);
		break;
	case PLAN_QUIESCE:
		/* every CPU passed a quiescent point since, after every
		 * store drained (xp_ready) */
		xb_waited(ps->sb, 0, 0);
		read_progress(ps);
		/* it could not pass before the turns of these CPUs that
		 * passed their quiescent points */
		for (unsigned c = 0; c < ps->ncpus; c++)
			if (xp->qs_block >> c & 1)
				qs_wait_access(ps, (size_t)id, c, XA_R);
		xp->waiting = 0;
		break;
	case PLAN_FREE:
		xm_poison(m, s->addr, s->len);
		break;
	case PLAN_WAIT_ZERO:
		read_progress(ps);
		break;
	case PLAN_STOP_MACHINE:
		/* every CPU parked */
		read_progress(ps);
		break;
	case PLAN_STOP_REQUEST:
		/* The request is made when the patcher gets here, and it goes
		 * on at once: each CPU parks at its next quiescent point,
		 * running until then. */
		xs_access(m->sched, XLOC(XLOC_SM, 0), XA_W);
		ps->stop_machine = 1;
		break;
	case PLAN_RESUME_MACHINE:
		/* Leaving multi_cpu_stop() each CPU returns through an
		 * exception return: a context synchronisation event. */
		ps->stop_machine = 0;
		xs_access(m->sched, XLOC(XLOC_SM, 0), XA_W);
		for (unsigned c = 0; c < ps->ncpus; c++)
			if (ps->cpu[c].st == XCPU_PARKED) {
				xs_access(m->sched, XLOC(XLOC_PROG, c), XA_W);
				ps->cpu[c].st = XCPU_RUN;
				ps->cpu[c].parked_qs = 0;
			}
		xm_context_sync_all(m);
		break;
	case PLAN_FAIL:
		/* the code returned an error (ftrace_modify_code's -EINVAL on
		 * the word it read): ftrace_bug, nothing more of the plan */
		stop_plan(ps, a, xp, id, EXEC_PLAN_MISMATCH, idx, xp->found);
		return;
	case PLAN_LOCK:
		xs_access(m->sched, XLOC(XLOC_LOCK, 0), XA_W);
		if (lock_slot(ps, s->addr) < 0)
			for (k = 0; k < XP_LOCKS; k++)
				if (ps->lock_owner[k] < 0) {
					ps->lock_id[k] = s->addr;
					ps->lock_owner[k] = a;
					break;
				}
		break;
	case PLAN_UNLOCK:
		xs_access(m->sched, XLOC(XLOC_LOCK, 0), XA_W);
		k = lock_slot(ps, s->addr);
		if (k >= 0 && ps->lock_owner[k] == a)
			ps->lock_owner[k] = -1;
		break;
	case PLAN_MAP_WINDOW:
		/* patch_map(): set_fixmap_offset(FIX_TEXT_POKE0, page) */
		xs_access(m->sched, XLOC(XLOC_WIN, 0), XA_W);
		ps->win_mapped = 1;
		ps->win_page = s->addr & ~(XP_PAGE - 1);
		ps->win_agent = a;
		ps->win_plan = id;
		ps->win_step = (int)idx;
		break;
	case PLAN_UNMAP_WINDOW:
		/* patch_unmap(): clear_fixmap, whoever mapped it */
		xs_access(m->sched, XLOC(XLOC_WIN, 0), XA_W);
		ps->win_mapped = 0;
		ps->win_agent = a;
		ps->win_plan = id;
		ps->win_step = (int)idx;
		break;
	}
	xp->next++;
	xp->read_done = 0;
	cur_plan(ps, a);
}
