/* Bounded exhaustive verification (exec.h: exec_verify): the driver of
 * the reduced walk of exec_dpor.c over runs of the executor, the snapshot
 * it starts every run from, forced schedules (replays of what it found),
 * and the scheduling points it discovers. */
#include "executor/exec_int.h"
#include "executor/exec_snap.h"
#include "executor/exec_verify_prefix.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/vec.h"

int exec_snapshot(struct ftv_exec *ex, struct ftv_err *err)
{
	struct xmodel *m = &ex->model;

	if (xe_snapshot(&ex->eng, err))
		return -1;
	/* The initial contents of every watched location are what memory
	 * holds now. */
	for (size_t i = 0; i < m->nwi; i++) {
		uint32_t v;

		sim_read32(m->as, m->wi[i]->addr, &v);
		ex->log.wr[m->wi[i]->coh[0].wid].val = v;
	}
	for (size_t i = 0; i < m->nwd; i++) {
		uint64_t v = 0;

		sim_read64(m->as, m->wd[i]->addr, &v);
		ex->log.wr[m->wd[i]->init_wid].val = v;
	}
	return 0;
}

/* Bytes written at once in memory and in every CPU's copy of them. */
static void apply_bytes(struct ftv_exec *ex, uint64_t addr, uint64_t val, unsigned size)
{
	uint8_t b[8];

	memcpy(b, &val, 8);
	sim_write(ex->eng.as, addr, b, size, NULL);
	if (!xe_private(&ex->eng, addr))
		return;
	for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4) {
		struct winsn *w = xm_insn(&ex->model, a);

		if (w)
			memset(w->written, 1, sizeof(w->written));
	}
	for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
		uint8_t *p = xe_copy_ptr(&ex->eng, c, addr);

		if (p)
			memcpy(p, b, size);
	}
	xe_invalidate_all(&ex->eng, addr, size);
}

void exec_apply(struct ftv_exec *ex, const struct plan *p, int id, exec_plan_fn done,
		void *arg)
{
	struct exec_plan_result res = { EXEC_PLAN_DONE, 0, 0 };

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];
		unsigned size = s->op == PLAN_WRITE_INSN ? 4 : 8;
		uint64_t cur = 0;

		if (s->op == PLAN_FREE) {
			xm_poison(&ex->model, s->addr, s->len);
			continue;
		}
		if (s->op != PLAN_WRITE_INSN && s->op != PLAN_WRITE_DATA64)
			continue;
		if (sim_read(ex->eng.as, s->addr, &cur, size, NULL)) {
			res = (struct exec_plan_result){ EXEC_PLAN_FAULT, i, 0 };
			break;
		}
		if (s->validate && cur != (size == 4 ? (uint32_t)s->old : s->old)) {
			res = (struct exec_plan_result){ EXEC_PLAN_MISMATCH, i, cur };
			break;
		}
		apply_bytes(ex, s->addr, size == 4 ? (uint32_t)s->new : s->new, size);
	}
	if (done)
		done(ex, id, &res, arg);
}

int exec_set_schedule(struct ftv_exec *ex, const struct exec_choice *c,
		      size_t n)
{
	struct xsched *s = &ex->sched;

	free(s->force);
	s->force = NULL;
	s->nforce = 0;
	s->force_diverged = 0;
	s->force_diverged_at = 0;
	if (!n)
		return 0;
	s->force = malloc(n * sizeof(*c));
	if (!s->force)
		return -1;
	memcpy(s->force, c, n * sizeof(*c));
	s->nforce = n;
	return 0;
}

uint64_t exec_schedule_diverged(struct ftv_exec *ex, size_t *first)
{
	if (first)
		*first = ex->sched.force_diverged_at;
	return ex->sched.force_diverged;
}

int exec_preempt_point(struct ftv_exec *ex, uint64_t pc, struct ftv_err *err)
{
	struct xspecial *s;

	for (size_t i = 0; i < ex->nloadpts; i++)
		if (ex->loadpts[i] == pc)
			return 0;
	s = xsp_get(&ex->sp, pc, err);
	if (!s)
		return -1;
	s->flags |= SP_LOAD;
	if (VEC_PUSH(ex->loadpts, ex->nloadpts, ex->caploadpts, pc))
		return ftv_errf(err, "out of memory");
	return 0;
}

size_t exec_load_points(struct ftv_exec *ex, const uint64_t **pcs)
{
	*pcs = ex->loadpts;
	return ex->nloadpts;
}

uint64_t exec_run_step(struct ftv_exec *ex)
{
	return ex->log.step;
}

size_t exec_verify_nsteps(struct ftv_exec *ex)
{
	return ex->sched.dpor ? xd_nsteps(ex->sched.dpor) : 0;
}

/* The steps of step k's causal past, in a new array (*idx, freed by the
 * caller); 0 with *idx NULL when there is none or no memory. */
static size_t past_of(struct xdpor *d, size_t k, size_t **idx)
{
	*idx = NULL;
	if (!d || !xd_nsteps(d))
		return 0;
	*idx = malloc(xd_nsteps(d) * sizeof(**idx));
	return *idx ? xd_past(d, k, *idx) : 0;
}

size_t exec_verify_past(struct ftv_exec *ex, size_t k,
			struct exec_choice *out, size_t max)
{
	struct xdpor *d = ex->sched.dpor;
	size_t *idx, n = past_of(d, k, &idx);
	unsigned nc = ex->cfg.ncpus;

	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		unsigned a, v;

		xd_step(d, idx[i], &a, &v);
		/* a store buffer step names its channel */
		out[i].agent = a < nc ? (int)a : a == nc ? EXEC_AGENT_PATCHER
			: a == XD_TEXT(nc) ? EXEC_AGENT_PATCHER_TEXT : EXEC_AGENT_SBUF;
		out[i].value = a >= XD_CHAN0(nc) ? a - XD_CHAN0(nc) : v;
	}
	free(idx);
	return n;
}

size_t exec_verify_visible(struct ftv_exec *ex, size_t k)
{
	struct xdpor *d = ex->sched.dpor;
	size_t *idx, v = 0, n = past_of(d, k, &idx);

	for (size_t i = 0; i < n; i++)
		v += xd_visible(d, idx[i]) != 0;
	free(idx);
	return v;
}

size_t exec_observed(struct ftv_exec *ex, uint64_t *out, size_t max)
{
	return xg_common(&ex->model.rd, &ex->model.stw, out, max);
}

int exec_observe(struct ftv_exec *ex, uint64_t addr)
{
	ex->model.rd_frozen = 1;
	return xg_add(&ex->model.rd, addr) < 0 ? -1 : 0;
}

void exec_observe_none(struct ftv_exec *ex)
{
	ex->model.rd_frozen = 1;
}

/* The loads of watched data seen where no turn begins become scheduling
 * points; 1 if there were any. */
static int mark_new_points(struct ftv_exec *ex, struct ftv_err *err)
{
	size_t n = ex->nnewpts;

	for (size_t i = 0; i < n; i++)
		if (exec_preempt_point(ex, ex->newpts[i], err))
			return -1;
	ex->nnewpts = 0;
	return n > 0;
}

/* Runs of a walk between two engine recycles (xe_recycle: Unicorn's code
 * buffer grows with every run that retranslates changed words). */
#define XV_RECYCLE 2048

/* The walking thread's CPU seconds when the walk's time is split
 * (exec_verify_config.split), else 0. */
static double split_now(const struct exec_verify_config *cfg)
{
	struct timespec ts;

	if (!cfg->split || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The seconds since *t added to *to; *t moved to now. */
static void split_add(const struct exec_verify_config *cfg, double *t, double *to)
{
	double n = split_now(cfg);

	*to += n - *t;
	*t = n;
}

/* The watched words are the reset's lazy words (xe_lazy_words): each
 * CPU's fetch of one puts its value in the CPU's copy, and a reset that
 * put the snapshot's back made the next execution translate the block
 * again. Kept up to date with the words watched. */
static int lazy_words(struct ftv_exec *ex, struct ftv_err *err)
{
	struct xmodel *m = &ex->model;
	uint64_t *a;
	size_t n = 0;

	if (ex->lazy_nwi == m->nwi)
		return 0;
	a = malloc((m->nwi ? m->nwi : 1) * sizeof(*a));
	if (!a)
		return ftv_errf(err, "out of memory");
	/* (m->wi is sorted by address) */
	for (size_t i = 0; i < m->nwi; i++)
		if (m->wi[i]->addr % 4 == 0)
			a[n++] = m->wi[i]->addr;
	if (xe_lazy_words(&ex->eng, a, n)) {
		free(a);
		return ftv_errf(err, "out of memory");
	}
	free(a);
	ex->lazy_nwi = m->nwi;
	return 0;
}

/* One run: from the deepest state saved on its prefix (pr, at or above
 * its branch point `depth`: exec_verify_prefix.c) or from the snapshot;
 * 0, or -1 with err set. Every run's step count begins at base: the
 * step numbers a run stamps are the same whichever way it starts. */
static int one_run(struct ftv_exec *ex, const struct exec_verify_config *cfg,
		   const struct exec_verify_hooks *h, struct xprefix *pr,
		   size_t depth, uint64_t base, struct exec_verify_split *sp,
		   struct ftv_err *err)
{
	double t = split_now(cfg);
	uint64_t max = cfg->max_steps ? cfg->max_steps : 100000, s0;
	int ret;

	ex->save_fn = NULL;
	ex->save_at = UINT64_MAX;
	if (++ex->verify_runs % XV_RECYCLE == 0) {
		if (xe_recycle(&ex->eng, err))
			return -1;
		/* new engines: the saves' translations are gone with them */
		if (pr)
			xpr_clear(pr);
	}
	if (pr && xpr_start(pr, depth, &s0, sp)) {
		split_add(cfg, &t, &sp->restore);
		ret = exec_run_at(ex, s0, max, err);
		split_add(cfg, &t, &sp->run);
		if (ret || !pr->probe)
			return ret;
		/* prefix_check: the run proper from the reset */
		pr->probe = 0;
	}
	ex->log.nviol = 0; /* each run's own */
	if ((!cfg->exact_reset && lazy_words(ex, err)) || exec_reset(ex, err))
		return -1;
	ex->truncated = 0;
	ex->stats.steps = base;
	ex->run_step0 = ex->stats.steps;
	if (h->reset)
		h->reset(ex, h->arg);
	split_add(cfg, &t, &sp->restore);
	ret = exec_run(ex, max, err);
	split_add(cfg, &t, &sp->run);
	if (!ret && pr && pr->check && xpr_checked(pr, ex->verify_runs, err))
		return -1;
	return ret;
}

/* ceil(log2(n)): levels of agent branching explored alike by every shard
 * (without reduction) above the split, about one prefix per shard at
 * two-way branching; few, since every prefix explored there is explored
 * by each shard, and equivalent prefixes are not merged. */
static unsigned split_levels(unsigned n)
{
	unsigned l = 0;

	while ((1ULL << l) < n)
		l++;
	return l;
}

int exec_verify(struct ftv_exec *ex, const struct exec_verify_config *cfg,
		const struct exec_verify_hooks *h,
		struct exec_verify_stats *st, struct ftv_err *err)
{
	unsigned nshards = cfg->nshards ? cfg->nshards : 1;
	unsigned ndisc = cfg->discovery ? cfg->discovery : 32;
	struct xdpor *d;
	struct xd_stats ds;
	struct xprefix pr;
	uint64_t base = ex->stats.steps;
	size_t depth = 0;
	int ret = -1, complete = 0;

	struct exec_verify_split *sp = &st->split;
	double t0 = split_now(cfg), t;

	memset(st, 0, sizeof(*st));
	if (!ex->cfg.verify || ex->cfg.policy != EXEC_EXHAUSTIVE)
		return ftv_errf(err, "exec_verify needs the exhaustive policy and exec_config.verify");
	if (ex->cfg.cpu_sbuf)
		return ftv_errf(err, "exec_verify does not explore CPU store buffers");
	if (cfg->shard >= nshards)
		return ftv_errf(err, "shard %u of %u", cfg->shard, nshards);
	if (!xe_has_snapshot(&ex->eng) && exec_snapshot(ex, err))
		return -1;
	/* every load of a CPU is seen once data is watched (xe_watch_loads
	 * hooks them all): stores to data no CPU reads are no steps */
	ex->model.rd_known = ex->model.nwd > 0;
	ex->model.coarse = cfg->coarse;
	/* CPUs, the patcher and the store buffer's channels */
	d = xd_new(XD_MAX_AGENTS, cfg->reduce,
		   nshards > 1 ? split_levels(nshards) : 0, cfg->shard, nshards);
	if (!d)
		return ftv_errf(err, "out of memory");
	ex->sched.dpor = d;
	if (cfg->stateful && xd_set_stateful(d, cfg->state_bytes ? cfg->state_bytes
								 : (size_t)2 << 30)) {
		xd_free(d);
		ex->sched.dpor = NULL;
		return ftv_errf(err, "out of memory");
	}
	xpr_init(&pr, ex, h, cfg->prefix_restore && nshards == 1,
		 cfg->prefix_check);
	/* Discovery: random runs, to find the loads of watched data before
	 * the walk rather than during it. */
	for (unsigned r = 0; r < ndisc; r++) {
		xd_set_random(d, 0x5eed0000ULL + r);
		if (one_run(ex, cfg, h, NULL, 0, base, sp, err))
			goto out;
		st->discovery++;
		if (mark_new_points(ex, err) < 0)
			goto out;
		ex->model.rd_fresh = 0;
	}
	xd_set_random(d, 0);
	for (;;) {
		int ended, stop = 0, fresh;

		if (one_run(ex, cfg, h, &pr, depth, base, sp, err))
			goto out;
		t = split_now(cfg);
		sp->steps += xd_nsteps(d);
		ended = !ex->cut && !ex->truncated;
		xd_end_run(d, ended);
		fresh = mark_new_points(ex, err);
		split_add(cfg, &t, &sp->book);
		if (fresh < 0)
			goto out;
		/* data written without a step of its own was read after
		 * all: the drains of the tree were not what they are */
		fresh |= ex->model.rd_fresh;
		ex->model.rd_fresh = 0;
		if (fresh) {
			/* The turns were not what the tree recorded: start
			 * over with the new scheduling points. */
			xd_restart(d);
			xpr_clear(&pr);
			depth = 0;
			st->restarts++;
			st->executions = st->truncated = st->steps = 0;
			if (h->restart)
				h->restart(ex, h->arg);
			continue;
		}
		if (xd_counted(d)) {
			st->executions++;
			st->steps += ex->log.step;
			if (ex->truncated)
				st->truncated++;
		}
		if (h->done)
			stop = h->done(ex, xd_counted(d), ended, h->arg);
		split_add(cfg, &t, &sp->check);
		if (stop)
			break;
		if (cfg->max_executions && st->executions >= cfg->max_executions) {
			st->budget = 1;
			break;
		}
		if (xd_next(d)) {
			complete = 1;
			break;
		}
		depth = xd_depth(d);
		sp->replayed += depth;
		split_add(cfg, &t, &sp->book);
	}
	ret = 0;
out:
	sp->walk = split_now(cfg) - t0;
	xd_stats(d, &ds);
	st->blocked = ds.blocked;
	st->probes = ds.probes;
	st->pruned = ds.pruned;
	st->multi = ds.multi;
	st->diverged = ds.diverged;
	st->state_cuts = ds.state_cuts;
	st->state_cuts_moved = ds.state_cuts_moved;
	st->sym_cpus = exec_symmetric_cpus(ex, NULL, NULL);
	st->states = xd_states(d, &st->states_full);
	st->complete = complete && !st->truncated && !ds.multi && !ds.diverged &&
		       !ex->oom;
	ex->sched.dpor = NULL;
	xd_free(d);
	xpr_free(&pr);
	ex->save_fn = NULL;
	ex->save_at = UINT64_MAX;
	/* every word put back by the resets after the walk's */
	xe_lazy_words(&ex->eng, NULL, 0);
	ex->lazy_nwi = 0;
	if (!ret && ex->oom)
		return ftv_errf(err, "out of memory while verifying");
	return ret;
}
