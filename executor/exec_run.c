/* The run loop: what happens at the pcs the engines stop at (watched
 * fetches, system instructions, breakpoints, quiescent points), one CPU
 * turn, the steps of a run, reset and exhaustive exploration. */
#include "executor/exec_int.h"
#include "executor/exec_snap.h"
#include "util/vec.h"

#include <stdio.h>
#include <string.h>

#include "util/vec.h"
/* Runs of an exploration between two engine recycles (xe_recycle): a few
 * MiB of translations per engine at most. */
#define XRUN_RECYCLE 2048

/* A plan is in flight: the queue is not empty or a store is buffered. */
static int in_flight(struct ftv_exec *ex)
{
	return xp_busy(&ex->plans) || ex->sb.n;
}

/* --- the engine's hooks -------------------------------------------------- */

static void sysop_effect(struct ftv_exec *ex, unsigned cpu, uint64_t pc)
{
	uint8_t *p = xe_copy_ptr(&ex->eng, cpu, pc);
	uint32_t w;
	int reg;
	uint64_t va = 0;
	enum xsysop op;

	if (!p)
		return;
	memcpy(&w, p, 4);
	op = ex->arch->sysop(w, &reg);
	switch (op) {
	case XS_ISB:
	case XS_ERET:
		/* ISB and exception returns are context synchronisation
		 * events (Arm ARM D1.10 "Context synchronization event") */
		xm_cpu_barrier(&ex->model, cpu, XM_ORDER);
		if (ex->cfg.cpu_sbuf)
			xm_context_sync_early(&ex->model, cpu);
		else
			xm_context_sync(&ex->model, cpu);
		break;
	case XS_DSB_LD:
		xm_cpu_ctrl(&ex->model, cpu);
		xm_cpu_barrier(&ex->model, cpu, XM_ORDER);
		break;
	case XS_DSB_ST:
		xm_cpu_barrier(&ex->model, cpu, XM_ORDER);
		break;
	case XS_IC_ALL:
		xm_cache_op_all(&ex->model, &ex->model.cpu[cpu].pend, 1);
		break;
	case XS_FENCE_I:
		xm_fence_i(&ex->model, cpu);
		break;
	case XS_DSB:
		/* only a full DSB completes cache maintenance (herd's
		 * dsb.full, Arm ARM D7.5.9) */
		xm_cpu_barrier(&ex->model, cpu, XM_DSB);
		xm_cpu_ctrl(&ex->model, cpu);
		break;
	case XS_DMB:
		xm_cpu_barrier(&ex->model, cpu, XM_DMB);
		break;
	case XS_DMB_LD:
		xm_cpu_load_order(&ex->model, cpu);
		break;
	case XS_DMB_ST:
		/* later stores drain after the earlier ones */
		xb_barrier(&ex->csb[cpu]);
		break;
	case XS_DC_CVAU:
		if (reg >= 0)
			va = xe_reg(&ex->eng, cpu, reg);
		xm_cpu_dc(&ex->model, cpu, va);
		break;
	case XS_IC_IVAU:
		if (reg >= 0)
			va = xe_reg(&ex->eng, cpu, reg);
		xm_cache_op(&ex->model, &ex->model.cpu[cpu].pend, 1, va, 4);
		break;
	default:
		break;
	}
}

/* The CPU passes its quiescent point at pc; 1 if stop_machine() parks it
 * there, or its tail rounds are done (exec_config.tail_rounds) and it ends
 * there, at the top of a round, no call of the workload in progress. */
static int pass_qs(struct ftv_exec *ex, unsigned cpu, uint64_t pc)
{
	struct xcpu *c = &ex->cpu[cpu];

	c->qs_count++;
	c->qs_step = ex->stats.steps + 1;
	xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
	xs_access(&ex->sched, XLOC(XLOC_SM, 0), XA_R);
	if (c->tail_left && pc == c->qs_pc && !--c->tail_left) {
		c->st = XCPU_DONE;
		c->stopped_in_hook = 1;
		xe_stop(&ex->eng, cpu);
		return 1;
	}
	if (!ex->plans.stop_machine)
		return 0;
	/* stop_machine(): park at the quiescent point. */
	c->st = XCPU_PARKED;
	c->parked_qs = 1;
	c->stopped_in_hook = 1;
	c->qs_counted = 1;
	xe_stop(&ex->eng, cpu);
	return 1;
}

/* Before the instruction at a special pc. */
static void on_pc(void *ctx, unsigned cpu, uint64_t pc)
{
	struct ftv_exec *ex = ctx;
	struct xcpu *c = &ex->cpu[cpu];
	struct xspecial *s = xsp_at(&ex->sp, pc);
	int qs, sleep, win = c->in_window;

	if (!s)
		return;
	/* (the special pc after an EXEC_BREAK_WINDOW one, or the window's
	 * own watched fetch, ends the window) */
	c->in_window = 0;
	qs = xcpu_qs_at(c, pc);
	sleep = qs && pc == c->sleep_pc;
	/* a progress point: this turn changes what a PLAN_WAIT_ZERO reads
	 * (said again when the turn that stopped before it resumes) */
	if (s->flags & SP_PROG)
		xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
	if (c->armed && c->armed_pc == pc) {
		/* Restarted at the instruction a hook stopped before: it
		 * executes now; stopping actions were done already. Under
		 * verify the stop came first and the quiescent point is
		 * passed now, at the start of the turn. */
		c->armed = 0;
		if (sleep && c->asleep) {
			/* woken up: it has switched voluntarily; its CPU
			 * took the wakeup's interrupt or returned from idle
			 * through an exception, a context synchronisation
			 * event (as the world's quiescent point has one) */
			c->asleep = 0;
			xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
			xm_context_sync(&ex->model, cpu);
			if (!ex->cfg.verify && pass_qs(ex, cpu, pc))
				return;
		}
		if (ex->cfg.verify && qs && !c->qs_counted && pass_qs(ex, cpu, pc))
			return;
		c->qs_counted = 0;
	} else if (ex->cfg.verify || sleep) {
		/* Every visible event begins a turn of its own. At a sleep
		 * point (schedule()) the task gives the CPU up: until its
		 * next turn it is asleep, a quiescent state for RCU Tasks
		 * (rcu_tasks_pertask: not on a runqueue since the grace
		 * period began). */
		if (sleep) {
			c->asleep = 1;
			xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
		}
		c->stopped_in_hook = 1;
		xe_stop(&ex->eng, cpu);
		return;
	} else {
		if (qs && pass_qs(ex, cpu, pc)) {
			c->qs_counted = 0;
			return;
		}
		if (s->flags & SP_WATCH) {
			struct winsn *w = s->w;

			if (!ex->cfg.fine && c->quiet_left && !in_flight(ex) &&
			    w && xm_fetch_is_quiet(&ex->model, cpu, w)) {
				/* Nothing is changing: run on (the sparse
				 * patching fast path). */
				c->quiet_left--;
				xm_fetch(&ex->model, cpu, w, 1);
				goto effects;
			}
			/* The fetch is a scheduling point; the model picks
			 * the value when this CPU next gets its turn. */
			c->stopped_in_hook = 1;
			c->window_stop = (win || (s->flags & SP_WINDOW)) && in_flight(ex);
			xe_stop(&ex->eng, cpu);
			return;
		}
	}
effects:
	for (size_t i = 0; i < s->nbrk; i++) {
		if (s->brk[i].flags & EXEC_BREAK_PLANS)
			xs_access(&ex->sched, XLOC(XLOC_PLANS, 0), XA_R);
		s->brk[i].fn(ex, (int)cpu, pc, s->brk[i].arg);
	}
	if (s->flags & SP_WINDOW)
		c->in_window = 1;
	if (s->flags & SP_LOADSEQ)
		ex->model.cpu[cpu].load_vseq = ex->model.vseq;
	if (s->flags & SP_DCDEP)
		ex->model.cpu[cpu].dc_dep = 1;
	if (s->flags & SP_ADDR)
		xm_cpu_load_order(&ex->model, cpu);
	/* A watched word is whatever this CPU fetched there: it may have
	 * become a system instruction (a store of an ISB over a branch). */
	if (s->flags & (SP_SYSOP | SP_WATCH))
		sysop_effect(ex, cpu, pc);
	ex->model.cpu[cpu].dc_dep = 0;
	if (s->flags & SP_BRANCH)
		xm_cpu_ctrl(&ex->model, cpu);
}

/* While the patcher's store buffer holds stores, before every instruction:
 * a load of bytes a buffered store holds is a scheduling point, as the
 * fetch of a watched word is. The store may drain (or not) before the load
 * runs, and other agents run meanwhile, so the reorderings the buffer
 * allows are observed by the CPUs reading the core's data (the ops list,
 * an ops' fields, filter tables, function_trace_op, a site's literal)
 * exactly where they read it. The address comes from the encoding and the
 * registers (encoders/memread.h), since a memory hook sees a load only as
 * it happens. A load of unknown address is a scheduling point whenever
 * anything is buffered. Special pcs keep their own stopping rules (their
 * watched fetch is a scheduling point already). */
static int on_pre_insn(void *ctx, unsigned cpu, uint64_t pc)
{
	struct ftv_exec *ex = ctx;
	struct xcpu *c = &ex->cpu[cpu];
	const uint8_t *p;
	uint32_t w = 0;
	struct memread mr;
	uint64_t addr;
	if (xsp_at(&ex->sp, pc))
		return 0;
	if (c->armed && c->armed_pc == pc) {
		/* restarted at the load this hook stopped before */
		c->armed = 0;
		return 0;
	}
	p = xe_copy_ptr(&ex->eng, cpu, pc);
	if (!p)
		return 0;
	/* a 2-byte instruction at a region's end: its high half reads as
	 * zeros, which the decoders ignore for a compressed one (pc's
	 * region was xe_copy_ptr's last lookup). Each size a constant: a
	 * copy of a variable length was a byte loop whose stores the load
	 * of w then waited for (a third of this hook's time). */
	if (xe_region(&ex->eng, pc + 3) >= 0)
		memcpy(&w, p, 4);
	else
		memcpy(&w, p, 2);
	if (!ex->arch->memread(w, &mr))
		return 0;
	if (mr.kind != MR_UNKNOWN) {
		uint64_t base = mr.kind == MR_PCREL ? 0 : xe_reg(&ex->eng, cpu, (int)mr.base);
		uint64_t index = mr.kind == MR_INDEX &&
				 (int)mr.index != ex->arch->index_zero_reg
					 ? xe_reg(&ex->eng, cpu, (int)mr.index) : 0;

		addr = memread_addr(&mr, pc, base, index);
		if (!xb_gate_holds(&ex->sb, addr, mr.len ? mr.len : 1))
			return 0;
	}
	ex->stats.load_points++;
	c->stopped_in_hook = 1;
	xe_stop(&ex->eng, cpu);
	return 1;
}

/* Quiet mode keeps loads made while nothing is in flight out of the record
 * (the checks still run on every load). */
static void on_load(void *ctx, unsigned cpu, uint64_t pc, uint64_t addr,
		    int size)
{
	struct ftv_exec *ex = ctx;

	if (ex->cfg.verify)
		xm_cpu_read(&ex->model, addr, size);
	if (ex->cfg.text_loads && ex->cfg.cpu_sbuf) {
		/* memory under the CPU's own buffered stores */
		for (uint64_t a = addr & ~3ULL; a < addr + (uint64_t)size; a += 4) {
			struct winsn *w = xm_insn(&ex->model, a);

			if (w && xb_holds(&ex->csb[cpu], a, 4))
				xm_text_load_word(&ex->model, cpu, w,
						  (uint32_t)xb_read(&ex->csb[cpu], a, 4));
			else if (w)
				xm_text_load_early(&ex->model, cpu, w);
		}
	} else if (ex->cfg.text_loads) {
		xm_text_load(&ex->model, cpu, addr, size);
	}
	if (xm_load(&ex->model, cpu, addr, size,
		    !ex->cfg.quiet_obs || in_flight(ex)) &&
	    ex->cfg.verify && !xsp_at(&ex->sp, pc)) {
		/* A load of watched data in the middle of a turn: it must
		 * begin one (exec_verify marks it after the run and starts
		 * over). */
		for (size_t i = 0; i < ex->nnewpts; i++)
			if (ex->newpts[i] == pc)
				return;
		if (VEC_PUSH(ex->newpts, ex->nnewpts, ex->capnewpts, pc))
			ex->oom = 1;
	}
}

static void on_text_store(void *ctx, unsigned cpu, uint64_t addr,
			  unsigned size, uint64_t val)
{
	struct ftv_exec *ex = ctx;
	int wid;

	if (!ex->cfg.cpu_sbuf) {
		xm_cpu_store(&ex->model, cpu, addr, size, val);
		return;
	}
	/* Into the CPU's store buffer; the CPU's own copy has it already
	 * (the store lands there after this hook). */
	wid = xm_write(&ex->model, addr, val, size, -1, -1, (int)cpu,
		       "cpu store");
	if (wid < 0)
		return;
	xb_push(&ex->csb[cpu], addr, size, val, wid);
	xm_cpu_store_buffered(&ex->model, cpu, addr, size);
}

const struct xe_ops xrun_ops = {
	.pc = on_pc,
	.pre_insn = on_pre_insn,
	.load = on_load,
	.text_store = on_text_store,
};

/* --- a CPU's turn -------------------------------------------------------- */

static int next_is_visible(struct ftv_exec *ex, unsigned cpu, uint64_t pc)
{
	uint8_t *p = xe_copy_ptr(&ex->eng, cpu, pc);
	struct xcpu *c = &ex->cpu[cpu];
	uint32_t w;

	if (!p || xm_insn(&ex->model, pc))
		return 1;
	if (xcpu_qs_at(c, pc))
		return 1;
	memcpy(&w, p, 4);
	return ex->arch->is_memory(w);
}

/* An undefined instruction on a CPU that takes it as an exception
 * (exec_cpu_on_undef): recorded, then to the handler or the CPU's end.
 * 1 if it was taken. */
static int take_undef(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		      uint32_t w)
{
	struct xcpu *c = &ex->cpu[cpu];

	if (!c->undef || !ex->arch->is_undef || !ex->arch->is_undef(w))
		return 0;
	if (VEC_PUSH(c->faults, c->nfaults, c->capfaults, pc))
		ex->oom = 1;
	if (!c->handler) {
		/* herd's fatal fault: the thread ends there */
		c->st = XCPU_DONE;
		return 1;
	}
	/* Exception entry is a context synchronisation event too. */
	ex->arch->take_exception(&ex->eng, cpu, pc, c->handler);
	xm_context_sync(&ex->model, cpu);
	return 1;
}

/* Who wrote the word a CPU faulted executing, when it is a watched word a
 * plan wrote: the CPU's last fetch of pc and the write it returned (a
 * kernel-scheme step's what names the kernel function and line), so the
 * fault is reported where the patcher made it. "" otherwise. */
static const char *fault_writer(struct ftv_exec *ex, unsigned cpu, uint64_t pc, uint32_t w,
				char *buf, size_t len)
{
	for (size_t i = ex->log.nobs; i-- > 0;) {
		const struct exec_obs *o = &ex->log.obs[i];
		const struct exec_write *wr;

		if (o->kind != EXEC_OBS_FETCH || o->cpu != (int)cpu || o->addr != pc)
			continue;
		wr = xl_write_get(&ex->log, o->wid[0]);
		if (!wr || wr->plan < 0 || !wr->what || (uint32_t)o->val != w)
			return "";
		snprintf(buf, len, "; the word written by \"%s\" (plan %d step %d)", wr->what,
			 wr->plan, wr->step);
		return buf;
	}
	return "";
}

static void cpu_fault(struct ftv_exec *ex, unsigned cpu,
		      const struct xe_stop *st)
{
	char where[128], insn[128], by[320];
	const char *why = st->why;
	uint64_t pc = st->fault_pc;
	uint8_t *p = xe_copy_ptr(&ex->eng, cpu, pc);
	uint32_t w = 0;

	if (p)
		memcpy(&w, p, 4);
	if (st->exception && take_undef(ex, cpu, pc, w))
		return;
	if (st->exception && ex->arch->exception_why)
		why = ex->arch->exception_why(w);
	sim_symbolize(ex->eng.as, pc, where, sizeof(where), 0);
	ex->arch->insn(w, pc, insn, sizeof(insn));
	ex->cpu[cpu].st = XCPU_FAULT;
	xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
	xl_violation(&ex->log, EXEC_V_FAULT, (int)cpu, pc,
		     "cpu%u step %llu: fault at %s executing %s: %s%s", cpu,
		     (unsigned long long)ex->log.step, where, insn, why,
		     fault_writer(ex, cpu, pc, w, by, sizeof(by)));
}

static uint64_t turn_insns(const struct ftv_exec *ex)
{
	if (!ex->cfg.turn_insns)
		return EXEC_TURN_INSNS;
	return ex->cfg.turn_insns == UINT64_MAX ? 0 : ex->cfg.turn_insns;
}

/* One turn of a CPU: perform the pending fetch of a watched word, then run up
 * to the next scheduling point. */
static void cpu_turn(struct ftv_exec *ex, unsigned cpu)
{
	struct xcpu *c = &ex->cpu[cpu];
	uint64_t pc = xe_pc(&ex->eng, cpu), start = pc;
	struct winsn *w = xm_insn(&ex->model, pc);
	unsigned n = 0;

	/* What no event names (a freed range of unwatched text) and, when
	 * stop_machine() may park a CPU anywhere, whether it is parked. */
	xs_access(&ex->sched, XLOC(XLOC_MEM, 0), XA_R);
	if (ex->cfg.stop_anywhere)
		xs_access(&ex->sched, XLOC(XLOC_SM, 0), XA_R);
	if (w)
		xm_fetch(&ex->model, cpu, w, 0);
	c->quiet_left = ex->cfg.fetch_quantum ? ex->cfg.fetch_quantum : 1024;
	if (w || c->stopped_in_hook) {
		c->armed = 1;
		c->armed_pc = pc;
	}
	c->stopped_in_hook = 0;
	c->window_stop = 0;
	ex->stats.cpu_turns++;
	for (;;) {
		size_t count = ex->cfg.fine ? 1 : ex->cfg.quantum;
		/* Free-running turns have no instruction count; a CPU sent
		 * astray by a bad patch could run forever without reaching a
		 * scheduling point. The instruction budget ends such a turn,
		 * at the same instruction on every run; the time guard only
		 * ends a run it has not reached in time (a slow machine),
		 * unjudged. */
		uint64_t timeout = count ? 0 : ex->cfg.turn_timeout_us;
		uint64_t insns = count ? 0 : turn_insns(ex);
		struct xe_stop st;

		pc = xe_run(&ex->eng, cpu, pc, c->exit_pc, insns, timeout, count, &st);
		if (st.fault) {
			/* The turn's trace event keeps the engine's pc. */
			cpu_fault(ex, cpu, &st);
			break;
		}
		if (st.out_of_insns) {
			char where[128];

			c->st = XCPU_FAULT;
			xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
			xl_violation(&ex->log, EXEC_V_STUCK, (int)cpu, pc,
				     "cpu%u step %llu: ran %llu instructions without reaching a "
				     "watched word, a quiescent point or its exit; now at %s (a "
				     "branch or return sent it astray)", cpu,
				     (unsigned long long)ex->log.step, (unsigned long long)insns,
				     sim_symbolize(ex->eng.as, pc, where,
						   sizeof(where), 0));
			break;
		}
		if (st.timed_out) {
			/* No verdict, no event: the run ends here (exec_run). */
			ex->guarded = (int)cpu + 1;
			return;
		}
		if (pc == c->exit_pc) {
			c->st = XCPU_DONE;
			xs_access(&ex->sched, XLOC(XLOC_PROG, cpu), XA_W);
			break;
		}
		if (!ex->cfg.fine || c->stopped_in_hook || c->st != XCPU_RUN)
			break;
		/* Fine mode: go on through instructions only this CPU sees. */
		if (next_is_visible(ex, cpu, pc) || ++n >= 4096)
			break;
	}
	xl_event(&ex->log, (int)cpu, EXEC_EV_CPU, start, pc);
}

/* --- runs ---------------------------------------------------------------- */

static int all_settled(struct ftv_exec *ex)
{
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		if (ex->cpu[i].st == XCPU_RUN || ex->cpu[i].st == XCPU_PARKED ||
		    ex->csb[i].n)
			return 0;
	return !in_flight(ex);
}

/* With store buffers: the instruction cpu is about to execute waits for
 * stores still in its buffer. A full DSB or DMB, and DSB ST, wait for all
 * of them (Arm ARM B2.3.10: the DMB orders them before every later access;
 * herd's bob and DSB-ob). DC CVAU waits for those to its line (herd: a
 * DC is ordered after earlier accesses to the same cache line), which
 * also keeps the CPU's later stores to other lines after them, an order
 * herd does not give; with IDC (the PoU is memory, the DC changes nothing
 * a fetch sees: aarch64.cat's IC-ca names no DC then) it does not wait:
 * it is performed when those stores are (xm_cpu_dc, struct xpend.own),
 * and a later store to another line may become visible first. */
static int waits_for_stores(struct ftv_exec *ex, unsigned cpu)
{
	const struct xsbuf *b = &ex->csb[cpu];
	uint64_t pc = xe_pc(&ex->eng, cpu), va = 0;
	uint8_t *p;
	uint32_t w;
	int reg;

	if (!b->n || !(p = xe_copy_ptr(&ex->eng, cpu, pc)))
		return 0;
	memcpy(&w, p, 4);
	switch (ex->arch->sysop(w, &reg)) {
	case XS_DSB:
	case XS_DSB_ST:
	case XS_DMB:
	/* FENCE.I makes the hart's own stores fetchable to it: they must
	 * have left its buffer */
	case XS_FENCE_I:
		return 1;
	case XS_DC_CVAU:
		if (ex->model.idc)
			return 0;
		if (reg >= 0)
			va = xe_reg(&ex->eng, cpu, reg);
		return xb_holds(b, va & ~63ULL, 64);
	default:
		return 0;
	}
}

/* exec_config.verify: the store buffer's stores that no CPU can observe
 * (xm_observed) become visible at once, as part of the step that made
 * them drainable: they are no step of their own and no branching point.
 * (A buffered store only holds back the stores ordered after it, so
 * draining it early loses no execution of the visible steps.) */
static void drain_unobserved(struct ftv_exec *ex)
{
	unsigned cand[64], nc;
	int again = 1;

	while (again && ex->sb.n && ex->sb.chans) {
		again = 0;
		nc = xb_candidates(&ex->sb, cand, NULL);
		for (unsigned i = 0; i < nc; i++) {
			const struct xstore *st = &ex->sb.v[cand[i]];

			if (xm_observed(&ex->model, st->addr, st->size))
				continue;
			ex->sched.drain_now = (int)i;
			ex->sb.quiet = 1;
			xb_drain(&ex->sb);
			ex->sb.quiet = 0;
			again = 1;
			break;
		}
	}
}

/* One turn of a patcher: under exec_config.verify, its steps that touch
 * nothing a CPU observes (a store into the store buffer, bookkeeping) run
 * on into the next one that does, so that a turn is one visible step. */
static void patcher_turn(struct ftv_exec *ex, int agent)
{
	unsigned left = 100000;

	for (;;) {
		ex->sched.vis = 0;
		xp_step(&ex->plans, agent);
		if (!ex->cfg.verify)
			return;
		drain_unobserved(ex);
		if (ex->sched.vis || !--left || ex->oom ||
		    !xp_ready(&ex->plans, agent))
			return;
	}
}

/* exec_config.prune_states: 1 if the walk met this state before (the run
 * ends here), else it is remembered. */
static int seen_state(struct ftv_exec *ex)
{
	uint64_t h[2];
	int r;

	xst_hash(ex, h);
	r = xv_add(&ex->visited, h);
	if (r < 0)
		ex->oom = 1;
	if (r == 1)
		ex->stats.states++;
	if (r)
		return 0;
	ex->stats.state_cuts++;
	return 1;
}

/* exec_config.tail_rounds, at each step once exec_finish_tail was called:
 * the CPUs count their rounds from the first step nothing is in flight,
 * and stop counting while a plan a callback submitted is. */
static void tail_step(struct ftv_exec *ex)
{
	int busy = in_flight(ex);

	if (busy == !ex->tail_set)
		return;
	ex->tail_set = !busy;
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		ex->cpu[i].tail_left = busy ? 0 : ex->cfg.tail_rounds + 1;
}

void exec_finish_tail(struct ftv_exec *ex)
{
	ex->tail_armed = ex->cfg.tail_rounds && !ex->cfg.verify &&
			 ex->cfg.policy != EXEC_EXHAUSTIVE;
}

int exec_run(struct ftv_exec *ex, uint64_t max_steps, struct ftv_err *err)
{
	return exec_run_at(ex, 0, max_steps, err);
}

int exec_run_at(struct ftv_exec *ex, uint64_t s0, uint64_t max_steps,
		struct ftv_err *err)
{
	unsigned ready[2 * EXEC_MAX_CPUS + 3];
	unsigned n = ex->cfg.ncpus;
	uint64_t s;

	if (!ex->cfg.once && !ex->cfg.never_reset && !xe_has_snapshot(&ex->eng) &&
	    xe_snapshot(&ex->eng, err))
		return -1;
	/* A run a time guard ended stays ended until exec_reset: going on
	 * would make a trace of the clock's choosing. */
	if (ex->guarded) {
		ex->truncated = 1;
		return 0;
	}
	xs_start_run(&ex->sched);
	/* a restored state: the reduced walk's record of the steps before
	 * it is the run before's (exec_save.h) */
	if (s0 && (!ex->sched.dpor || xd_resume(ex->sched.dpor, s0)))
		return ftv_errf(err, "a run resumed at step %llu has no walk to resume",
				(unsigned long long)s0);
	ex->cut = 0;
	ex->save_stopped = 0;
	if (ex->cfg.verify && !s0)
		drain_unobserved(ex);
	for (s = s0; s < max_steps; s++) {
		unsigned nr = 0;
		int pick, pready, tready;
		/* Under stop_machine() a CPU without a quiescent point is
		 * parked wherever it is (multi_cpu_stop runs on it). */
		unsigned held = 0;

		if (s == ex->save_at && ex->save_fn && ex->save_fn(ex, ex->save_arg)) {
			ex->save_stopped = 1;
			break;
		}
		pready = xp_ready(&ex->plans, PLAN_AGENT_FTRACE);
		tready = xp_ready(&ex->plans, PLAN_AGENT_TEXT);
		if (ex->tail_armed)
			tail_step(ex);

		for (unsigned i = 0; i < n; i++)
			if (ex->cpu[i].st == XCPU_RUN &&
			    !(ex->plans.stop_machine && !ex->cpu[i].has_qs) &&
			    !waits_for_stores(ex, i)) {
				if (ex->cpu[i].held_until > ex->log.step)
					held |= 1u << i;
				else
					ready[nr++] = i;
			}
		if (pready)
			ready[nr++] = XS_PATCHER(n);
		/* held-back stores (exec_config.drain_hold) are due once
		 * their time is up; while a patcher waits for them they
		 * drain anyway, the one due first first: the hold makes
		 * them visible late and in their order, not the patcher
		 * slow */
		ex->sb.now = ex->cfg.drain_hold ? ex->log.step : UINT64_MAX;
		if (ex->sb.n && (xb_due(&ex->sb) || xp_waits_for_sbuf(&ex->plans))) {
			ready[nr++] = XS_SBUF(n);
			if (ex->sched.dpor) {
				unsigned cand[64], nc;
				int chan[64];

				nc = xb_candidates(&ex->sb, cand, chan);
				xs_set_drains(&ex->sched, chan, nc);
			}
		}
		if (tready)
			ready[nr++] = XS_PATCHER_TEXT(n);
		for (unsigned i = 0; i < n; i++)
			if (ex->csb[i].n)
				ready[nr++] = XS_CPU_SBUF(n, i);
		/* held CPUs (exec_config.cpu_hold) run early, and stores held
		 * back (exec_config.drain_hold) drain early, rather than leave
		 * nobody to move */
		for (unsigned i = 0; !nr && held && i < n; i++)
			if (held & 1u << i)
				ready[nr++] = i;
		if (!nr && ex->sb.n)
			ready[nr++] = XS_SBUF(n);
		if (!nr) {
			if (!all_settled(ex))
				xl_violation(&ex->log, EXEC_V_STUCK, -1, 0,
					     "step %llu: no CPU can run and the patcher waits at plan %zu step %zu",
					     (unsigned long long)ex->log.step,
					     ex->plans.cur,
					     xp_busy(&ex->plans)
						     ? ex->plans.v[ex->plans.cur].next
						     : 0);
			break;
		}
		if (nr > 1 && ex->prunable && xs_new_node(&ex->sched) &&
		    seen_state(ex)) {
			ex->cut = 1;
			break;
		}
		if (ex->sched.dpor && xd_fresh(ex->sched.dpor)) {
			/* stateful DPOR: the state of a node met first */
			uint64_t h[2];

			xd_state(ex->sched.dpor,
				 (nr > 1 || ex->sb.n) && xst_hash_walk(ex, h) ? h : NULL);
			if (ex->sym.on)
				xd_state_sym(ex->sched.dpor, ex->sym.pi, ex->sym.n);
		}
		pick = xs_pick(&ex->sched, ready, nr, ex->log.step);
		if (pick < 0) {
			ex->cut = 1;
			break;
		}
		if (ex->state_trace)
			xst_trace(ex, ready[pick]);
		if (ready[pick] < n) {
			uint64_t h;

			if (ex->sched.dpor)
				xp_cpu_turn(&ex->plans, ready[pick]);
			cpu_turn(ex, ready[pick]);
			if (ex->guarded)
				break;
			h = xs_cpu_hold(&ex->sched);
			if (!h && ex->cpu[ready[pick]].window_stop)
				h = xs_window_hold(&ex->sched);
			if (h)
				ex->cpu[ready[pick]].held_until = ex->log.step + 1 + h;
		}
		else if (ready[pick] == XS_PATCHER(n))
			patcher_turn(ex, PLAN_AGENT_FTRACE);
		else if (ready[pick] == XS_PATCHER_TEXT(n))
			patcher_turn(ex, PLAN_AGENT_TEXT);
		else if (ready[pick] == XS_SBUF(n))
			xb_drain(&ex->sb);
		else
			xb_drain(&ex->csb[ready[pick] - XS_CPU_SBUF(n, 0)]);
		if (ex->cfg.verify)
			drain_unobserved(ex);
		ex->log.step++;
		ex->stats.steps++;
	}
	if ((s == max_steps && !all_settled(ex) && !ex->cut) || ex->guarded)
		ex->truncated = 1;
	if (ex->oom)
		return ftv_errf(err, "out of memory while running");
	return 0;
}

int exec_reset(struct ftv_exec *ex, struct ftv_err *err)
{
	if (ex->cfg.once)
		return ftv_errf(err, "an executor that runs once cannot be reset");
	if (!xe_has_snapshot(&ex->eng) && ex->cfg.never_reset)
		return ftv_errf(err, "an executor never reset took no snapshot to reset to");
	if (!xe_has_snapshot(&ex->eng))
		return 0;
	if (xe_reset(&ex->eng, err))
		return -1;
	ex->guarded = 0;
	for (unsigned i = 0; i < ex->cfg.ncpus; i++) {
		struct xcpu *c = &ex->cpu[i];

		c->st = c->exit_pc ? XCPU_RUN : XCPU_DONE;
		c->held_until = 0;
		c->nfaults = 0;
		c->qs_count = 0;
		c->qs_step = 0;
		c->tail_left = 0;
		c->parked_qs = 0;
		c->armed = 0;
		c->stopped_in_hook = 0;
		c->qs_counted = 0;
		c->asleep = 0;
	}
	ex->tail_armed = ex->tail_set = 0;
	xp_reset(&ex->plans);
	xb_reset(&ex->sb);
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		xb_reset(&ex->csb[i]);
	xl_reset(&ex->log);
	xm_reset(&ex->model);
	return 0;
}

int exec_run_was_cut(const struct ftv_exec *ex)
{
	return ex->cut;
}

int exec_run_guarded(const struct ftv_exec *ex, char *why, size_t n)
{
	if (!ex->guarded)
		return 0;
	if (why && n)
		snprintf(why, n, "cpu%d's turn ran past its time guard (%llu ms) before its "
			 "instruction budget (%llu): a slow machine, the run is not judged",
			 ex->guarded - 1, (unsigned long long)(ex->cfg.turn_timeout_us / 1000),
			 (unsigned long long)turn_insns(ex));
	return 1;
}

uint64_t exec_set_turn_guard(struct ftv_exec *ex, uint64_t us)
{
	uint64_t was = ex->cfg.turn_timeout_us;

	ex->cfg.turn_timeout_us = us;
	return was;
}

size_t exec_drain_channels(const struct ftv_exec *ex, uint64_t *out, size_t max)
{
	for (size_t i = 0; i < ex->sb.nchan && i < max; i++)
		out[i] = ex->sb.chan[i];
	return ex->sb.nchan;
}

int exec_set_drain_channels(struct ftv_exec *ex, const uint64_t *addr, size_t n)
{
	if (n > XB_MAX_CHAN)
		return -1;
	for (size_t i = 0; i < n; i++)
		ex->sb.chan[i] = addr[i];
	ex->sb.nchan = (unsigned)n;
	return 0;
}

void exec_explore_stop(struct ftv_exec *ex)
{
	ex->explore_stop = 1;
}

int exec_explore(struct ftv_exec *ex, uint64_t max_runs,
		 uint64_t steps_per_run, exec_outcome_fn fn, void *arg,
		 struct ftv_err *err)
{
	int exhaustive = ex->cfg.policy == EXEC_EXHAUSTIVE;

	if (!exhaustive && ex->cfg.policy != EXEC_RANDOM)
		return ftv_errf(err, "exploration needs the exhaustive or the random policy");
	if (exhaustive)
		xs_explore_start(&ex->sched);
	xv_clear(&ex->visited);
	ex->visited.max_bytes = ex->cfg.prune_states;
	/* the memory the hash compares with is the snapshot's (exec_run
	 * would take it at the first run) */
	if (exhaustive && ex->cfg.prune_states && !ex->cfg.once &&
	    !xe_has_snapshot(&ex->eng) && xe_snapshot(&ex->eng, err))
		return -1;
	ex->prunable = exhaustive && ex->cfg.prune_states && xst_prunable(ex);
	ex->stats.complete = 0;
	ex->truncated = 0;
	ex->explore_stop = 0;
	for (uint64_t r = 0; r < max_runs && !ex->explore_stop; r++) {
		/* A fresh engine now and then: see xe_recycle. */
		if (r && r % XRUN_RECYCLE == 0 && xe_recycle(&ex->eng, err))
			return -1;
		if (exec_reset(ex, err))
			return -1;
		ex->log.run = r;
		if (exec_run(ex, steps_per_run, err))
			return -1;
		ex->stats.runs++;
		if (fn)
			fn(ex, arg);
		if (exhaustive && xs_dfs_next(&ex->sched)) {
			/* Every choice explored, each run to its end. */
			ex->stats.complete = !ex->truncated;
			break;
		}
	}
	return 0;
}
