/* Bounded exhaustive verification of a world (verify/verify.h): the world's
 * state saved once its updates are queued and put back before each
 * execution, the checks run on each, and the shortest counterexample. */
#include "verify/verify.h"
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/vec.h"

/* What an execution changes in the world (besides memory and the
 * executor, which exec_reset puts back). */
struct wsaved {
	struct wcpu cpu[EXEC_MAX_CPUS];
	int *plan_done;
	uint64_t *plan_done_step;
	size_t nplans;
	uint64_t *settled;
	size_t nrecs;
	int freed[WORLD_MAX_OPS];
	size_t nviol;
	struct world_stats st;
	size_t xv_explained;
	struct ftrace_core_state *core;
};

void world_verify_forget(struct world *w)
{
	struct wsaved *s = w->saved;

	if (!s)
		return;
	free(s->plan_done);
	free(s->plan_done_step);
	free(s->settled);
	ftrace_core_state_free(s->core);
	free(s);
	w->saved = NULL;
}

static int world_save(struct world *w, struct ftv_err *err)
{
	struct wsaved *s;

	world_verify_forget(w);
	s = calloc(1, sizeof(*s));
	if (!s)
		return ftv_errf(err, "out of memory");
	w->saved = s;
	s->nplans = w->nplans;
	s->nrecs = w->nrecs;
	s->plan_done = calloc(w->nplans + 1, sizeof(*s->plan_done));
	s->plan_done_step = calloc(w->nplans + 1, sizeof(*s->plan_done_step));
	s->settled = calloc(w->nrecs + 1, sizeof(*s->settled));
	s->core = ftrace_core_state_save(w->core);
	if (!s->plan_done || !s->plan_done_step || !s->settled || !s->core)
		return ftv_errf(err, "out of memory");
	memcpy(s->cpu, w->cpu, sizeof(s->cpu));
	for (size_t i = 0; i < w->nplans; i++) {
		s->plan_done[i] = w->plans[i].done;
		s->plan_done_step[i] = w->plans[i].done_step;
	}
	for (size_t i = 0; i < w->nrecs; i++)
		s->settled[i] = w->recs[i].settled_step;
	for (size_t i = 0; i < w->nops; i++)
		s->freed[i] = w->ops[i].freed;
	s->nviol = w->nviol;
	s->st = w->st;
	s->xv_explained = w->xv_explained;
	return 0;
}

static void world_restore(struct world *w)
{
	const struct wsaved *s = w->saved;

	memcpy(w->cpu, s->cpu, sizeof(s->cpu));
	for (size_t i = 0; i < s->nplans; i++) {
		w->plans[i].done = s->plan_done[i];
		w->plans[i].done_step = s->plan_done_step[i];
	}
	for (size_t i = 0; i < s->nrecs; i++)
		w->recs[i].settled_step = s->settled[i];
	for (size_t i = 0; i < w->nops; i++)
		w->ops[i].freed = s->freed[i];
	w->nviol = s->nviol;
	w->st = s->st;
	w->xv_explained = s->xv_explained;
	w->finished = 0;
	ftrace_core_state_restore(w->core, s->core);
}

/* --- the settled prefix (world_settle) ------------------------------------- */

int world_settle(struct world *w, int on, struct ftv_err *err)
{
	uint64_t now = exec_steps(w->ex);

	if (on) {
		w->settling = 1;
		return 0;
	}
	w->settling = 0;
	/* the CPUs take a task switch once it is all done */
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		w->cpu[c].last_sync = now + 1;
		w->cpu[c].last_qs = now + 1;
		world_module_cpu_sync(w, c);
	}
	/* the executor starts from this memory: each watched word and data
	 * location holds what the prefix left as its initial contents */
	return exec_snapshot(w->ex, err);
}

/* --- the hooks of the walk ------------------------------------------------- */

struct vctx {
	struct world *w;
	const struct verify_config *cfg;
	struct verify_result *res;
	struct exec_choice *past;
	size_t cap;
	int oom;
};

static void on_reset(struct ftv_exec *ex, void *arg)
{
	struct vctx *v = arg;

	(void)ex;
	world_restore(v->w);
}

static void on_restart(struct ftv_exec *ex, void *arg)
{
	struct vctx *v = arg;

	(void)ex;
	/* a schedule found with other scheduling points replays nothing */
	v->res->violated = 0;
	v->res->ncx = 0;
	v->res->nfull = 0;
	v->res->cx_steps = 0;
	v->res->kinds[0] = 0;
}

static void add_kind(char *kinds, size_t n, const char *k)
{
	char have[300], want[40];

	snprintf(have, sizeof(have), " %s ", kinds);
	snprintf(want, sizeof(want), " %s ", k);
	if (strstr(have, want) || strlen(kinds) + strlen(k) + 2 >= n)
		return;
	if (kinds[0])
		strcat(kinds, " ");
	strcat(kinds, k);
}

/* Steps of the shortest run reaching step k (every step for k >= m). */
static size_t past_len(struct vctx *v, struct ftv_exec *ex, uint64_t k,
		       size_t m)
{
	if (k >= m)
		return m;
	return exec_verify_past(ex, (size_t)k, v->past, v->cap);
}

/* A violation of the world's own checks needs the whole run (CPUs that
 * did not finish, updates that never completed), or happened at its step:
 * its causal past shows it (e.g. a tracer called with the wrong ops, found
 * in the tracers' log after the run). */
static int whole_run(const struct world *w, size_t i, size_t n0)
{
	const char *k = w->viol[i].kind;

	(void)n0;
	return !strcmp(k, "unfinished") || !strcmp(k, "stuck");
}

static int judge_run(struct ftv_exec *ex, int counted, int ended, void *arg);

/* Each run judged, then the caller's progress and stop (a time budget, a
 * signal): the walk ends there, incomplete. */
static int on_done(struct ftv_exec *ex, int counted, int ended, void *arg)
{
	struct vctx *v = arg;
	int r = judge_run(ex, counted, ended, arg);
	const char *why;

	if (v->cfg->progress)
		v->cfg->progress(v->cfg->ctx, v->res);
	if (r || !v->cfg->stop || !(why = v->cfg->stop(v->cfg->ctx)))
		return r;
	snprintf(v->res->stopped, sizeof(v->res->stopped), "%s", why);
	return 1;
}

static int judge_run(struct ftv_exec *ex, int counted, int ended, void *arg)
{
	struct vctx *v = arg;
	struct world *w = v->w;
	struct verify_result *r = v->res;
	size_t nx, m = exec_verify_nsteps(ex), n0 = w->nviol, best = SIZE_MAX;
	const struct exec_violation *xv;
	uint64_t best_k = 0;
	/* the world stamps its violations with the executor's step count
	 * over every run; this run's steps began at base */
	uint64_t base = exec_steps(ex) - exec_run_step(ex);

	if (!counted)
		return 0;
	if (ended)
		for (size_t i = 0; i < w->nplans; i++)
			if (!w->plans[i].done)
				world_add_violation(w, "stuck", -1, world_step(w),
						    "plan %d (%s) never completed",
						    w->plans[i].id, w->plans[i].what);
	/* what only a run that reached its end can show */
	world_checks_finish(w, ended);
	xv = exec_violations(ex, &nx);
	if (!nx && w->nviol == w->saved->nviol)
		return 0;
	if (VEC_RESERVE(v->past, v->cap, m + 1)) {
		v->oom = 1;
		return 1;
	}
	/* The violation reached in the fewest steps: each one's causal past
	 * (those found by the end-of-run checks need the whole run). */
	for (size_t i = 0; i < nx + w->nviol - w->saved->nviol; i++) {
		size_t wi = w->saved->nviol + (i - nx);
		/* (a world check's violation: the step where it was found,
		 * whose causal past holds what led to it) */
		uint64_t k = i < nx ? xv[i].step
			     : whole_run(w, wi, n0) || w->viol[wi].found < base ? m
			     : w->viol[wi].found - base;
		/* counted in visible steps (exec_verify_visible): those
		 * of the patcher and the store buffer that no CPU can
		 * observe are no steps */
		size_t len = exec_verify_visible(ex, k >= m ? m : (size_t)k);

		if (len < best) {
			best = len;
			best_k = k;
		}
	}
	if (!r->violated || best < r->cx_steps) {
		r->violated = 1;
		r->cx_steps = best;
		r->cx_found = r->x.executions; /* this one included */
		r->ncx = best_k >= m ? m : past_len(v, ex, best_k, m);
		if (best_k >= m)
			exec_verify_past(ex, m, v->past, v->cap);
		free(r->cx);
		r->cx = malloc((r->ncx ? r->ncx : 1) * sizeof(*r->cx));
		if (!r->cx) {
			v->oom = 1;
			return 1;
		}
		memcpy(r->cx, v->past, r->ncx * sizeof(*r->cx));
		free(r->full);
		r->nfull = exec_verify_past(ex, m, v->past, v->cap);
		r->full = malloc((r->nfull ? r->nfull : 1) * sizeof(*r->full));
		if (!r->full) {
			v->oom = 1;
			return 1;
		}
		memcpy(r->full, v->past, r->nfull * sizeof(*r->full));
		r->kinds[0] = 0;
		for (size_t i = 0; i < nx; i++)
			if (world_exec_violation_shown(&xv[i]))
				add_kind(r->kinds, sizeof(r->kinds), exec_viol_name(xv[i].kind));
		for (size_t i = w->saved->nviol; i < w->nviol; i++)
			add_kind(r->kinds, sizeof(r->kinds), w->viol[i].kind);
	}
	return v->cfg->first;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int world_verify(struct world *w, const struct verify_config *cfg,
		 struct verify_result *res, struct ftv_err *err)
{
	struct exec_verify_config xc = {
		.max_executions = cfg->max_executions,
		.max_steps = cfg->max_steps,
		.reduce = cfg->reduce,
		.shard = cfg->shard,
		.nshards = cfg->nshards,
	};
	struct vctx v = { .w = w, .cfg = cfg, .res = res };
	struct exec_verify_hooks h = { on_reset, on_done, on_restart, &v };
	const uint64_t *pts;
	double t0 = now();
	int ret;

	memset(res, 0, sizeof(*res));
	if (w->nviol) {
		/* The world broke before any step of the walk (the boot's
		 * init_nop, queuing the updates): that is the counterexample,
		 * of no visible steps, whatever the walk would find. */
		res->violated = 1;
		for (size_t i = 0; i < w->nviol; i++)
			add_kind(res->kinds, sizeof(res->kinds), w->viol[i].kind);
		res->secs = now() - t0;
		res->points = malloc(sizeof(*res->points));
		if (!res->points)
			return ftv_errf(err, "out of memory");
		exec_watched(w->ex, &res->nwords, &res->ndata);
		return 0;
	}
	if (world_save(w, err) || exec_snapshot(w->ex, err))
		return -1;
	ret = exec_verify(w->ex, &xc, &h, &res->x, err);
	free(v.past);
	res->secs = now() - t0;
	/* leave the world as the updates left it queued */
	world_restore(w);
	if (ret)
		return -1;
	if (v.oom)
		return ftv_errf(err, "out of memory while verifying");
	res->npoints = exec_load_points(w->ex, &pts);
	res->points = malloc((res->npoints ? res->npoints : 1) * sizeof(*pts));
	if (!res->points)
		return ftv_errf(err, "out of memory");
	if (res->npoints)
		memcpy(res->points, pts, res->npoints * sizeof(*pts));
	exec_watched(w->ex, &res->nwords, &res->ndata);
	return 0;
}

void verify_result_free(struct verify_result *r)
{
	free(r->cx);
	free(r->full);
	free(r->points);
	r->full = NULL;
	r->cx = NULL;
	r->points = NULL;
}

const char *verify_verdict(const struct verify_result *r)
{
	return r->violated ? "violation" : r->x.complete ? "verified" : "incomplete";
}

int verify_exit(const struct verify_result *r)
{
	return r->violated ? FTV_EXIT_VIOLATION
			   : r->x.complete ? FTV_EXIT_OK : FTV_EXIT_INCOMPLETE;
}

void verify_bound(const struct verify_result *r, const struct verify_config *cfg,
		  char *buf, size_t n)
{
	if (r->stopped[0] && !r->violated)
		snprintf(buf, n, "stopped by %s", r->stopped);
	else if (r->x.budget)
		snprintf(buf, n, "--max-executions %llu reached",
			 (unsigned long long)cfg->max_executions);
	else if (r->x.truncated)
		snprintf(buf, n, "%llu executions cut at --max-steps %llu",
			 (unsigned long long)r->x.truncated,
			 (unsigned long long)cfg->max_steps);
	else if (r->x.multi)
		snprintf(buf, n, "%llu steps had more choices than the walk records",
			 (unsigned long long)r->x.multi);
	else if (r->x.diverged)
		snprintf(buf, n, "%llu replays diverged (the world is not deterministic)",
			 (unsigned long long)r->x.diverged);
	else if (r->violated)
		snprintf(buf, n, "stopped at the first counterexample");
	else
		snprintf(buf, n, "none");
}

void verify_schedule_format(const struct exec_choice *c, size_t n, char *buf,
			    size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < n && at + 1 < len; i++) {
		char tok[32];

		if (c[i].agent >= 0)
			snprintf(tok, sizeof(tok), "cpu%d", c[i].agent);
		else
			snprintf(tok, sizeof(tok), "%s",
				 c[i].agent == EXEC_AGENT_PATCHER ? "patcher"
				 : c[i].agent == EXEC_AGENT_PATCHER_TEXT ? "text" : "sbuf");
		if (c[i].value)
			snprintf(tok + strlen(tok), sizeof(tok) - strlen(tok), ":%u",
				 c[i].value);
		at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? " " : "", tok);
	}
}

int verify_step_parse(const char *tok, unsigned ncpus, struct exec_choice *out)
{
	const char *colon = strchr(tok, ':');
	size_t l = colon ? (size_t)(colon - tok) : strlen(tok);
	char *end;

	out->value = 0;
	if (l == 7 && !strncmp(tok, "patcher", 7)) {
		out->agent = EXEC_AGENT_PATCHER;
	} else if (l == 4 && !strncmp(tok, "sbuf", 4)) {
		out->agent = EXEC_AGENT_SBUF;
	} else if (l == 4 && !strncmp(tok, "text", 4)) {
		out->agent = EXEC_AGENT_PATCHER_TEXT;
	} else if (l > 3 && !strncmp(tok, "cpu", 3)) {
		unsigned long c = strtoul(tok + 3, &end, 10);

		if (end != tok + l || c >= ncpus)
			return -1;
		out->agent = (int)c;
	} else {
		return -1;
	}
	if (colon) {
		unsigned long v = strtoul(colon + 1, &end, 10);

		if (!colon[1] || *end || v > 64)
			return -1;
		out->value = (unsigned)v;
	}
	return 0;
}

/* --- scheduling points by name --------------------------------------------- */

int world_preempt(struct world *w, const char *spec, struct ftv_err *err)
{
	char name[256];
	const char *plus = strchr(spec, '+');
	uint64_t pc, off = 0;
	char *end;

	if (!strncmp(spec, "0x", 2)) {
		pc = strtoull(spec, &end, 16);
		if (*end)
			return ftv_errf(err, "preempt %s: not an address", spec);
	} else {
		size_t l = plus ? (size_t)(plus - spec) : strlen(spec);

		if (l >= sizeof(name))
			return ftv_errf(err, "preempt %s: name too long", spec);
		memcpy(name, spec, l);
		name[l] = 0;
		if (plus) {
			off = strtoull(plus + 1, &end, 0);
			if (*end && *end != '/')
				return ftv_errf(err, "preempt %s: bad offset", spec);
		}
		pc = sim_image_lookup(w->img, name);
		if (!pc)
			return ftv_errf(err, "preempt %s: no symbol %s", spec, name);
		pc += off;
	}
	return exec_preempt_point(w->ex, pc, err);
}

void world_preempt_name(struct world *w, uint64_t pc, char *buf, size_t n)
{
	char *slash;

	char sym[256], *plus;

	sim_symbolize(w->as, pc, buf, n, 0);
	/* "func+0x8/0x40" -> "func+0x8": what world_preempt reads back */
	slash = strchr(buf, '/');
	if (slash)
		*slash = 0;
	if (!strchr(buf, '+') && strncmp(buf, "0x", 2))
		snprintf(buf + strlen(buf), n - strlen(buf), "+0x0");
	/* a name the image does not resolve (a trampoline's, a test
	 * symbol of the address space alone) is written as the address */
	snprintf(sym, sizeof(sym), "%s", buf);
	plus = strchr(sym, '+');
	if (plus)
		*plus = 0;
	if (strncmp(buf, "0x", 2) &&
	    (!sim_image_lookup(w->img, sym) ||
	     sim_image_lookup(w->img, sym) + strtoull(plus ? plus + 1 : "0", NULL, 0) != pc))
		snprintf(buf, n, "0x%llx", (unsigned long long)pc);
}
