/* What a timeline of the run needs beyond the executor's event log
 * (exec_trace, exec_observations): which traced function each CPU entered
 * and when it left it, its tracer calls and direct trampoline entries, and
 * its quiescent points. Recorded only when world_config.timeline or
 * trace_json is set,
 * from breakpoints alone: a breakpoint runs its callback and nothing else
 * (no scheduling point, no register change), so the run and its trace hash
 * are the same with or without the timeline.
 *
 * A function is left at one of its return instructions (the arch's
 * is_return) with the stack pointer back where it was at the entry: every
 * frame entered at or below that stack pointer is closed then, which also
 * closes a function that tail-called another (both frames share the entry
 * stack pointer). The quiescent point, between workload rounds, closes what
 * is still open. */
#include "verify/world_int.h"


/* A function body longer than this is not scanned for its returns. */
#define TL_SCAN_MAX (1u << 20)
/* Events kept per CPU: a CPU sent astray may call functions in a loop
 * until the executor's instruction budget stops it (millions); its
 * timeline is cut there (tl_cut says where) and the other CPUs' goes on. */
#define TL_CPU_MAX (1u << 17)

/* The timeline's state is the run state's (verify/world_run.h: struct
 * wtimeline, the arrays tl_ev and tl_frame), so that an exhaustive walk
 * would restore it with the rest. */

uint64_t world_timeline_dropped(const struct world *w, int cpu)
{
	const struct wtimeline *tl = &w->run.tl;

	return tl->on && tl->count[cpu] > TL_CPU_MAX ? tl->count[cpu] - TL_CPU_MAX : 0;
}

const struct tl_event *world_timeline(const struct world *w, size_t *n)
{
	*n = w->run.tl.on ? w->run.ntl_ev : 0;
	return w->run.tl.on ? w->run.tl_ev : NULL;
}

uint64_t world_timeline_start(const struct world *w, size_t *nobs, size_t *nev)
{
	const struct wtimeline *tl = &w->run.tl;

	*nobs = tl->on ? tl->start_nobs : 0;
	*nev = tl->on ? tl->start_nev : 0;
	return tl->on ? tl->start_step : 0;
}

static void add(struct world *w, int cpu, enum tl_kind kind, uint64_t a, uint64_t b,
		uint64_t c, uint64_t d)
{
	struct world_run *r = &w->run;
	struct wtimeline *tl = &r->tl;
	size_t nobs;

	if (++tl->count[cpu] > TL_CPU_MAX) {
		if (tl->count[cpu] == TL_CPU_MAX + 1)
			kind = TL_CUT;
		else
			return;
	}
	if (tl->oom || WORLD_RUN_RESERVE(r, tl_ev, r->ntl_ev + 1)) {
		tl->oom = 1;
		return;
	}
	exec_observations(w->ex, &nobs);
	r->tl_ev[r->ntl_ev++] = (struct tl_event){ exec_steps(w->ex), nobs, cpu, kind, a, b, c, d };
}

/* Closes the frames of cpu entered at or below sp (all of them: sp 0). */
static void unwind(struct world *w, int cpu, uint64_t sp, int all)
{
	struct world_run *r = &w->run;
	struct wtimeline *tl = &r->tl;

	while (tl->top[cpu] && (all || r->tl_frame[tl->top[cpu] - 1].sp <= sp)) {
		size_t f = tl->top[cpu] - 1;

		tl->top[cpu] = r->tl_frame[f].prev;
		r->tl_frame[f].prev = tl->free_frame;
		tl->free_frame = f + 1;
		add(w, cpu, TL_RETURN, r->tl_frame[f].func, 0, 0, 0);
	}
}

static void on_enter(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	struct world_run *r = &w->run;
	struct wtimeline *tl = &r->tl;
	uint64_t sp = exec_cpu_reg(ex, (unsigned)cpu, w->ad->reg_sp);
	size_t f = tl->free_frame;

	if (f) {
		tl->free_frame = r->tl_frame[f - 1].prev;
	} else {
		if (WORLD_RUN_RESERVE(r, tl_frame, r->ntl_frame + 1)) {
			tl->oom = 1;
			return;
		}
		f = ++r->ntl_frame;
	}
	r->tl_frame[f - 1] = (struct tl_frame){ pc, sp, tl->top[cpu] };
	tl->top[cpu] = f;
	add(w, cpu, TL_ENTER, pc, sp, 0, 0);
}

static void on_return(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;

	(void)pc;
	unwind(w, cpu, exec_cpu_reg(ex, (unsigned)cpu, w->ad->reg_sp), 0);
}

static void on_tracer(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;
	int a0 = w->ad->reg_arg0;

	/* func(ip, parent_ip, op, fregs) */
	add(w, cpu, TL_TRACER, pc, exec_cpu_reg(ex, (unsigned)cpu, a0),
	    exec_cpu_reg(ex, (unsigned)cpu, a0 + 2), exec_cpu_reg(ex, (unsigned)cpu, a0 + 1));
}

static void on_direct(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;

	add(w, cpu, TL_DIRECT, pc, exec_cpu_reg(ex, (unsigned)cpu, w->ad->reg_arg0), 0, 0);
}

static void on_quiescent(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct world *w = arg;

	(void)ex;
	(void)pc;
	unwind(w, cpu, 0, 1);
	add(w, cpu, TL_QS, pc, 0, 0, 0);
}

/* Breakpoints at the returns of the function at func. */
static int break_returns(struct world *w, uint64_t func, struct ftv_err *err)
{
	const struct sim_symbol *s = sim_sym_at(w->as, func);
	uint64_t end;
	unsigned len;

	if (!s || s->addr != func || !s->size)
		return 0;
	end = func + (s->size < TL_SCAN_MAX ? s->size : TL_SCAN_MAX);
	for (uint64_t pc = func; pc < end; pc += len) {
		int ret = w->ad->is_return(w->as, pc, &len);

		if (!len)
			break;
		if (ret && exec_break(w->ex, pc, on_return, w, err))
			return -1;
	}
	return 0;
}

static int install(struct world *w, struct ftv_err *err)
{
	const uint64_t tracers[] = { w->tracer_a, w->tracer_b, w->graph_func, w->nop_func };

	if (!w->cfg.trace_json && !w->cfg.timeline)
		return 0;
	w->run.tl.on = 1;
	/* after the calibration round */
	w->run.tl.start_step = exec_steps(w->ex);
	exec_observations(w->ex, &w->run.tl.start_nobs);
	exec_trace(w->ex, &w->run.tl.start_nev);
	for (size_t i = 0; i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (tracers[i] && exec_break(w->ex, tracers[i], on_tracer, w, err))
			return -1;
	if (exec_break(w->ex, w->direct_log, on_direct, w, err) ||
	    exec_break(w->ex, w->quiescent, on_quiescent, w, err))
		return -1;
	/* every traced function, called by the workload or by another */
	for (size_t i = 0; i < w->nrecs; i++) {
		if (w->recs[i].rec < 0 || (i && w->recs[i].func == w->recs[i - 1].func))
			continue;
		if (exec_break(w->ex, w->recs[i].func, on_enter, w, err) ||
		    break_returns(w, w->recs[i].func, err))
			return -1;
	}
	return 0;
}

/* After the checks' own breakpoints: at a function's entry the call
 * check has started the call the tracers are counted for. */
WORLD_CHECK(timeline, .order = 90, .install = install)
