/* The executor's public interface (exec.h): creating it from its parts
 * (exec_int.h), CPU setup, watches, breakpoints, plans, and what a run
 * leaves to read. The run loop is in exec_run.c. */
#include "executor/exec_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "executor/exec_pool.h"
#include "executor/exec_report.h"
#include "executor/exec_snap.h"

/* A CPU's buffered store to the byte at addr shadows it in its copy. */
static int cpu_holds(void *ctx, unsigned cpu, uint64_t addr)
{
	struct ftv_exec *ex = ctx;

	return xb_holds(&ex->csb[cpu], addr, 1);
}

/* exec_config.text_loads: every load reaches xm_text_load. */
static int watch_text_loads(struct ftv_exec *ex, struct ftv_err *err)
{
	for (size_t i = 0; i < ex->eng.nregions; i++) {
		struct sim_region *r = sim_region_get(ex->eng.as, i);

		if ((r->perms & SIM_X) && xe_watch_loads(&ex->eng, r->base, err))
			return -1;
	}
	return 0;
}

void exec_reuse_engines(void)
{
	sim_keep_buffers();
	xe_pool_enable();
}

size_t exec_engines_reused(void)
{
	return xe_pool_taken();
}

struct ftv_exec *exec_new(struct sim_aspace *as, const struct exec_config *cfg,
			  struct ftv_err *err)
{
	const struct xarch *arch = xarch_get(cfg->arch);
	struct ftv_exec *ex;

	if (cfg->ncpus < 1 || cfg->ncpus > EXEC_MAX_CPUS) {
		ftv_errf(err, "%u CPUs: between 1 and %d supported", cfg->ncpus,
			 EXEC_MAX_CPUS);
		return NULL;
	}
	if (!arch) {
		ftv_errf(err, "architecture %d not supported by the executor",
			 (int)cfg->arch);
		return NULL;
	}
	ex = calloc(1, sizeof(*ex));
	if (!ex) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	ex->cfg = *cfg;
	ex->arch = arch;
	xl_init(&ex->log, cfg->record_max, &ex->oom);
	xs_init(&ex->sched, cfg, &ex->oom);
	for (unsigned i = 0; i < cfg->ncpus; i++)
		ex->cpu[i].st = XCPU_DONE; /* until exec_cpu_setup */
	ex->eng.load_gate = &ex->sb.ngate;
	ex->eng.exact_load_pc = cfg->verify;
	ex->eng.loads_everywhere = cfg->verify || cfg->text_loads ||
				   cfg->policy == EXEC_EXHAUSTIVE;
	ex->eng.ro_data = cfg->ro_data;
	ex->eng.shared_copies = cfg->once;
	if (cfg->expect_pcs > arch->range_hooks)
		ex->eng.all_for_good = 1;
	if (xe_init(&ex->eng, as, arch, cfg->ncpus, cfg->cpu_sbuf, &xrun_ops,
		    ex, err) ||
	    xm_init(&ex->model, as, arch, &ex->log, &ex->eng, &ex->sched,
		    cfg->ncpus, cfg->quiet_obs, &ex->oom, err)) {
		exec_free(ex);
		return NULL;
	}
	xm_cache_type(&ex->model, cfg->dic, cfg->idc);
	xb_init(&ex->sb, &ex->model, XL_AGENT_SBUF, -1);
	ex->sb.chans = cfg->verify;
	/* A load of instruction words reads the CPU's copy unless loads
	 * read the model (text_loads) or CPUs buffer their own stores
	 * (cpu_sbuf); verify's and exhaustive exploration's scheduling
	 * points stay as they were (their counts are part of what they
	 * report). */
	ex->sb.insn_exempt = !cfg->verify && !cfg->text_loads && !cfg->cpu_sbuf &&
			     !cfg->fine && cfg->policy != EXEC_EXHAUSTIVE;
	for (unsigned i = 0; i < cfg->ncpus; i++)
		xb_init(&ex->csb[i], &ex->model, (int)i, (int)i);
	if (cfg->cpu_sbuf) {
		ex->model.held = cpu_holds;
		ex->model.held_ctx = ex;
	}
	xp_init(&ex->plans, ex, &ex->model, &ex->sb, ex->cpu, cfg->ncpus,
		cfg->stop_anywhere);
	ex->sp.eng = &ex->eng;
	if (cfg->text_loads && watch_text_loads(ex, err)) {
		exec_free(ex);
		return NULL;
	}
	if (xsp_scan_sysops(&ex->sp, cfg->cpu_sbuf, err)) {
		exec_free(ex);
		return NULL;
	}
	return ex;
}

void exec_free(struct ftv_exec *ex)
{
	if (!ex)
		return;
	xe_snapshot_free(&ex->eng); /* (its pages tracked: before the engine) */
	xe_free(&ex->eng);
	xm_free(&ex->model);
	for (unsigned i = 0; i < EXEC_MAX_CPUS; i++) {
		free(ex->cpu[i].faults);
		xb_free(&ex->csb[i]);
	}
	xb_free(&ex->sb);
	xp_free(&ex->plans);
	free(ex->state_sink.w);
	xsp_free(&ex->sp);
	xs_free(&ex->sched);
	xv_free(&ex->visited);
	xl_free(&ex->log);
	free(ex->newpts);
	free(ex->loadpts);
	free(ex);
}

/* --- CPUs ---------------------------------------------------------------- */

int exec_cpu_set_reg(struct ftv_exec *ex, unsigned cpu, int reg, uint64_t v)
{
	if (cpu >= ex->cfg.ncpus)
		return -1;
	return xe_set_reg(&ex->eng, cpu, reg, v);
}

uint64_t exec_cpu_reg(struct ftv_exec *ex, unsigned cpu, int reg)
{
	if (cpu >= ex->cfg.ncpus)
		return 0;
	return xe_reg(&ex->eng, cpu, reg);
}

int exec_cpu_done(struct ftv_exec *ex, unsigned cpu)
{
	return cpu < ex->cfg.ncpus && ex->cpu[cpu].st == XCPU_DONE;
}

uint64_t exec_cpu_last_qs(struct ftv_exec *ex, unsigned cpu)
{
	const struct xcpu *c = cpu < ex->cfg.ncpus ? &ex->cpu[cpu] : NULL;

	if (!c)
		return 0;
	/* parked at its quiescent point, or asleep at its sleep point: it
	 * is passing it now */
	if ((c->st == XCPU_PARKED && c->parked_qs) || c->asleep)
		return ex->stats.steps + 1;
	return c->qs_step;
}

int exec_cpu_setup(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		   uint64_t sp, const uint64_t *args, unsigned nargs,
		   uint64_t exit_pc, struct ftv_err *err)
{
	struct xcpu *c;

	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	if (nargs > 8)
		return ftv_errf(err, "cpu%u: %u arguments, at most 8", cpu,
				nargs);
	c = &ex->cpu[cpu];
	exec_cpu_set_reg(ex, cpu, ex->arch->pc_reg, pc);
	exec_cpu_set_reg(ex, cpu, ex->arch->sp_reg, sp);
	for (unsigned i = 0; i < nargs; i++)
		exec_cpu_set_reg(ex, cpu, ex->arch->arg0_reg + (int)i, args[i]);
	c->exit_pc = exit_pc ? exit_pc : EXEC_NO_EXIT;
	c->st = XCPU_RUN;
	return 0;
}

int exec_cpu_on_undef(struct ftv_exec *ex, unsigned cpu, uint64_t handler,
		      struct ftv_err *err)
{
	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	if (!ex->arch->take_exception)
		return ftv_errf(err, "%s: undefined instructions as exceptions are not modelled",
				ftv_arch_name(ex->arch->arch));
	ex->cpu[cpu].undef = 1;
	ex->cpu[cpu].handler = handler;
	return 0;
}

size_t exec_cpu_faults(struct ftv_exec *ex, unsigned cpu, const uint64_t **pcs)
{
	if (cpu >= ex->cfg.ncpus) {
		*pcs = NULL;
		return 0;
	}
	*pcs = ex->cpu[cpu].faults;
	return ex->cpu[cpu].nfaults;
}

int exec_cpu_quiescent(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		       struct ftv_err *err)
{
	struct xspecial *s;

	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	s = xsp_get(&ex->sp, pc, err);
	if (!s)
		return -1;
	s->flags |= SP_QS;
	ex->cpu[cpu].qs_pc = pc;
	ex->cpu[cpu].has_qs = 1;
	return 0;
}

int exec_cpu_sleep_point(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
			 struct ftv_err *err)
{
	struct xspecial *s;

	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	if (!ex->cpu[cpu].has_qs)
		return ftv_errf(err, "cpu%u: a sleep point needs a quiescent point first", cpu);
	s = xsp_get(&ex->sp, pc, err);
	if (!s)
		return -1;
	s->flags |= SP_QS;
	ex->cpu[cpu].sleep_pc = pc;
	return 0;
}

int exec_progress_point(struct ftv_exec *ex, uint64_t pc, struct ftv_err *err)
{
	struct xspecial *s = xsp_get(&ex->sp, pc, err);

	if (!s)
		return -1;
	s->flags |= SP_PROG;
	return 0;
}

int exec_cpu_context_sync(struct ftv_exec *ex, unsigned cpu)
{
	if (cpu >= ex->cfg.ncpus)
		return -1;
	xm_context_sync(&ex->model, cpu);
	return 0;
}

/* --- watches, breakpoints, plans ----------------------------------------- */

int exec_watch_insn(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err)
{
	struct xspecial *s;
	struct winsn *w;
	int ri = xe_region(&ex->eng, addr);

	if (addr & 3)
		return ftv_errf(err, "watch 0x%llx: %s", (unsigned long long)addr,
				ex->arch->unaligned_watch);
	if (ri < 0 || !(sim_region_get(ex->eng.as, (size_t)ri)->perms & SIM_X))
		return ftv_errf(err, "watch 0x%llx: not in an executable region",
				(unsigned long long)addr);
	if (xm_insn(&ex->model, addr))
		return 0;
	w = xm_watch_insn(&ex->model, addr);
	if (!w)
		return ftv_errf(err, "out of memory");
	s = xsp_get(&ex->sp, addr, err);
	if (!s)
		return -1;
	s->flags |= SP_WATCH;
	s->w = w;
	/* (no CPU has fetched the word through the model yet: its first
	 * fetch, a scheduling point, puts the model's value in the CPU's
	 * copy and drops the translation from before) */
	return 0;
}

int exec_watch_data64(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err)
{
	uint64_t v;

	if (sim_read64(ex->eng.as, addr, &v))
		return ftv_errf(err, "watch literal 0x%llx: not mapped",
				(unsigned long long)addr);
	if (xm_data(&ex->model, addr))
		return 0;
	if (!xm_watch_data(&ex->model, addr, 8, v))
		return ftv_errf(err, "out of memory");
	return xe_watch_loads(&ex->eng, addr, err);
}

int exec_break(struct ftv_exec *ex, uint64_t pc, exec_break_fn fn, void *arg,
	       struct ftv_err *err)
{
	return xsp_add_break(&ex->sp, pc, fn, arg, EXEC_BREAK_PLANS, err);
}

int exec_order_point(struct ftv_exec *ex, uint64_t pc, enum exec_point kind,
		     struct ftv_err *err)
{
	static const unsigned flag[] = { [EXEC_POINT_CTRL] = SP_BRANCH,
					 [EXEC_POINT_LOAD] = SP_LOADSEQ,
					 [EXEC_POINT_DC_DEP] = SP_DCDEP,
					 [EXEC_POINT_ADDR] = SP_ADDR };
	struct xspecial *s = xsp_get(&ex->sp, pc, err);

	if (!s)
		return -1;
	s->flags |= flag[kind];
	return 0;
}

int exec_break_flags(struct ftv_exec *ex, uint64_t pc, exec_break_fn fn,
		     void *arg, unsigned flags, struct ftv_err *err)
{
	return xsp_add_break(&ex->sp, pc, fn, arg, flags, err);
}

int exec_submit(struct ftv_exec *ex, const struct plan *p, exec_plan_fn done,
		void *arg, struct ftv_err *err)
{
	int id;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->op == PLAN_WRITE_INSN && exec_watch_insn(ex, s->addr, err))
			return ftv_err_prefix(err, "plan step %zu (%s)", i,
					      s->what ? s->what : "");
		if (s->op == PLAN_WRITE_DATA64 &&
		    exec_watch_data64(ex, s->addr, err))
			return ftv_err_prefix(err, "plan step %zu (%s)", i,
					      s->what ? s->what : "");
		/* under verify, loads in a range a plan frees are events (in
		 * the walk and in its replays alike) */
		if (s->op == PLAN_FREE && ex->cfg.verify &&
		    xm_add_free_range(&ex->model, s->addr, s->len))
			return ftv_errf(err, "out of memory");
	}
	id = xp_submit(&ex->plans, p, done, arg);
	if (id < 0)
		return ftv_errf(err, "out of memory");
	return id;
}

const struct exec_plan_result *exec_plan_result(struct ftv_exec *ex, int plan)
{
	if (plan < 0 || (size_t)plan >= ex->plans.n)
		return NULL;
	return &ex->plans.v[plan].res;
}

const struct plan_step *exec_plan_step(struct ftv_exec *ex, int plan, size_t step)
{
	return plan < 0 ? NULL : xp_step_at(&ex->plans, (size_t)plan, step);
}

/* --- what a run leaves --------------------------------------------------- */

const struct exec_violation *exec_violations(struct ftv_exec *ex, size_t *n)
{
	*n = ex->log.nviol;
	return ex->log.viol;
}

const struct exec_obs *exec_observations(struct ftv_exec *ex, size_t *n)
{
	*n = ex->log.nobs;
	return ex->log.obs;
}

const struct exec_event *exec_trace(struct ftv_exec *ex, size_t *n)
{
	*n = ex->log.nev;
	return ex->log.ev;
}

const struct exec_write *exec_write_get(struct ftv_exec *ex, int wid)
{
	return xl_write_get(&ex->log, wid);
}

int exec_plan_stores_pending(struct ftv_exec *ex, int plan)
{
	for (size_t i = 0; i < ex->sb.n; i++) {
		const struct exec_write *w;

		if (plan < 0)
			return 1;
		w = xl_write_get(&ex->log, ex->sb.v[i].wid);
		if (w && w->plan == plan)
			return 1;
	}
	return 0;
}

uint64_t exec_trace_hash(struct ftv_exec *ex)
{
	return xl_hash(&ex->log);
}

void exec_trace_print(struct ftv_exec *ex, FILE *f)
{
	struct sim_aspace *as = ex->eng.as;

	for (size_t i = 0; i < ex->log.nev; i++) {
		const struct exec_event *e = &ex->log.ev[i];
		char who[16], a[128], b[128], w[160];
		const struct exec_write *wr;
		const char *what;
		size_t plan, step;

		if (e->agent >= 0)
			snprintf(who, sizeof(who), "cpu%d", e->agent);
		else
			snprintf(who, sizeof(who), "%s",
				 e->agent == XL_AGENT_PATCHER ? "patcher"
				 : e->agent == XL_AGENT_PATCHER_TEXT ? "patcher1"
								     : "sbuf");
		switch (e->kind) {
		case EXEC_EV_CPU:
			sim_symbolize(as, e->a, a, sizeof(a), 0);
			sim_symbolize(as, e->b, b, sizeof(b), 0);
			fprintf(f, "%6llu %-8s run    %s -> %s\n",
				(unsigned long long)e->step, who, a, b);
			break;
		case EXEC_EV_FETCH:
			sim_symbolize(as, e->a, a, sizeof(a), 0);
			ex->arch->word((uint32_t)e->b, e->a, b, sizeof(b));
			fprintf(f, "%6llu %-8s fetch  %s: %s\n",
				(unsigned long long)e->step, who, a, b);
			break;
		case EXEC_EV_PLAN:
			plan = (size_t)(e->a >> 32);
			step = (size_t)(uint32_t)e->a;
			fprintf(f, "%6llu %-8s plan %zu step %zu: %s",
				(unsigned long long)e->step, who, plan, step,
				plan_op_name((enum plan_op)e->b));
			what = xp_step_what(&ex->plans, plan, step);
			if (what)
				fprintf(f, " \"%s\"", what);
			fputc('\n', f);
			break;
		case EXEC_EV_DRAIN:
			wr = xl_write_get(&ex->log, (int)e->b);
			sim_symbolize(as, e->a, a, sizeof(a), 0);
			xr_write_desc(&ex->log, (int)e->b, w, sizeof(w));
			fprintf(f, "%6llu %-8s visible %s <- 0x%llx, %s\n",
				(unsigned long long)e->step, who, a,
				(unsigned long long)(wr ? wr->val : 0), w);
			break;
		}
	}
}

uint64_t exec_steps(struct ftv_exec *ex)
{
	return ex->stats.steps;
}

void exec_get_stats(struct ftv_exec *ex, struct exec_stats *st)
{
	struct rusage ru;

	*st = ex->stats;
	st->fetches = ex->model.fetches;
	st->dropped = ex->log.dropped;
	if (!getrusage(RUSAGE_SELF, &ru))
		st->peak_rss_kb = ru.ru_maxrss;
}

int exec_last_fetch(struct ftv_exec *ex, unsigned cpu, uint64_t addr,
		    uint32_t *val)
{
	struct winsn *w = xm_insn(&ex->model, addr);

	if (!w || cpu >= ex->cfg.ncpus || w->last[cpu] < 0)
		return -1;
	*val = (uint32_t)ex->log.wr[w->coh[w->last[cpu]].wid].val;
	return 0;
}

void exec_watched(struct ftv_exec *ex, size_t *words, size_t *data)
{
	*words = ex->model.nwi;
	*data = ex->model.nwd;
}

struct sim_aspace *exec_aspace(struct ftv_exec *ex)
{
	return ex->eng.as;
}
