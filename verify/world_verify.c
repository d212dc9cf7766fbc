/* Bounded exhaustive verification of a world (verify/verify.h): the world's
 * state saved once its updates are queued and put back before each
 * execution, the checks run on each, and the shortest counterexample. */
#include "verify/verify.h"
#include "verify/world_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/vec.h"

/* What an execution changes: the world's run state and the core's (the
 * memory and the executor are exec_reset's). Nothing else is saved: a
 * field an execution writes belongs in struct world_run. */
struct wsaved {
	struct world_run run;
	struct ftrace_core_state *core;
};

void world_verify_forget(struct world *w)
{
	struct wsaved *s = w->saved;

	if (!s)
		return;
	world_run_free(&s->run);
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
	s->core = ftrace_core_state_save(w->core);
	if (!s->core || world_run_copy(&s->run, &w->run))
		return ftv_errf(err, "out of memory");
	return 0;
}

/* (the live arrays are at least as large as the saved ones: only
 * operations add plans, and none runs during the walk) */
static int world_restore(struct world *w, unsigned char scribble)
{
	const struct wsaved *s = w->saved;

	if (scribble)
		world_run_scribble(&w->run, scribble);
	ftrace_core_state_restore(w->core, s->core);
	return world_run_copy(&w->run, &s->run);
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
		world_cpu_synced(w, c, now);
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
	if (world_restore(v->w, v->cfg->scribble))
		v->oom = 1;
}

/* exec_verify_config.prefix_restore: the world's part of a saved state,
 * what world_restore puts back at a reset (struct wsaved), at a step of
 * a run. */
static int on_save(struct ftv_exec *ex, void **slot, void *arg)
{
	struct vctx *v = arg;
	struct wsaved *s = *slot;

	(void)ex;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return -1;
		*slot = s;
	}
	/* (in place: a core's state is a word per record, some hundred KiB
	 * for a kernel's, and a run saves one) */
	if (!s->core || ftrace_core_state_update(s->core, v->w->core)) {
		ftrace_core_state_free(s->core);
		s->core = ftrace_core_state_save(v->w->core);
	}
	if (!s->core || world_run_copy(&s->run, &v->w->run))
		return -1;
	return 0;
}

static int on_restore_saved(struct ftv_exec *ex, const void *slot, void *arg)
{
	struct vctx *v = arg;
	const struct wsaved *s = slot;

	(void)ex;
	if (v->cfg->scribble)
		world_run_scribble(&v->w->run, v->cfg->scribble);
	ftrace_core_state_restore(v->w->core, s->core);
	return world_run_copy(&v->w->run, &s->run);
}

static void on_drop(void *slot, void *arg)
{
	struct wsaved *s = slot;

	(void)arg;
	world_run_free(&s->run);
	ftrace_core_state_free(s->core);
	free(s);
}

/* The world's run state and its core's flags (prefix_check). */
static uint64_t on_fingerprint(struct ftv_exec *ex, void *arg)
{
	struct vctx *v = arg;
	struct ftrace_core_state *c = ftrace_core_state_save(v->w->core);
	uint64_t h = world_run_hash(&v->w->run, 0);

	(void)ex;
	if (c) {
		h = ftrace_core_state_hash(c, h);
		ftrace_core_state_free(c);
	}
	return h;
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
	const char *k = w->run.viol[i].kind;

	(void)n0;
	return !strcmp(k, "unfinished") || !strcmp(k, "stuck");
}

/* The figures of one execution, chained into h. */
static uint64_t run_hash(uint64_t h, uint64_t trace, uint64_t steps, uint64_t ended,
			 uint64_t nx, uint64_t nviol)
{
	const uint64_t v[] = { trace, steps, ended, nx, nviol };

	return world_run_fnv(h, v, sizeof(v));
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
	size_t nx, m = exec_verify_nsteps(ex), n0 = w->run.nviol, best = SIZE_MAX;
	const struct exec_violation *xv;
	uint64_t best_k = 0;
	/* the world stamps its violations with the executor's step count
	 * over every run; this run's steps began at base */
	uint64_t base = exec_steps(ex) - exec_run_step(ex);

	if (!counted)
		return 0;
	if (ended)
		for (size_t i = 0; i < w->nplans; i++)
			if (!w->run.plan[i].done)
				world_add_violation(w, "stuck", -1, world_step(w),
						    "plan %d (%s) never completed",
						    w->plans[i].id, w->plans[i].what);
	/* what only a run that reached its end can show */
	world_checks_finish(w, ended);
	xv = exec_violations(ex, &nx);
	if (v->cfg->hash_runs)
		r->runs_hash = world_run_hash(&w->run,
					      run_hash(r->runs_hash, exec_trace_hash(ex), m,
						       (uint64_t)ended, nx, w->run.nviol));
	if (!nx && w->run.nviol == w->saved->run.nviol)
		return 0;
	if (VEC_RESERVE(v->past, v->cap, m + 1)) {
		v->oom = 1;
		return 1;
	}
	/* The violation reached in the fewest steps: each one's causal past
	 * (those found by the end-of-run checks need the whole run). */
	for (size_t i = 0; i < nx + w->run.nviol - w->saved->run.nviol; i++) {
		size_t wi = w->saved->run.nviol + (i - nx);
		/* (a world check's violation: the step where it was found,
		 * whose causal past holds what led to it) */
		uint64_t k = i < nx ? xv[i].step
			     : whole_run(w, wi, n0) || w->run.viol[wi].found < base ? m
			     : w->run.viol[wi].found - base;
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
		for (size_t i = w->saved->run.nviol; i < w->run.nviol; i++)
			add_kind(r->kinds, sizeof(r->kinds), w->run.viol[i].kind);
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
		.coarse = cfg->coarse,
		.shard = cfg->shard,
		.nshards = cfg->nshards,
		.split = cfg->split,
		.exact_reset = cfg->exact_reset,
		.stateful = cfg->stateful,
		.state_bytes = cfg->state_bytes,
		.prefix_restore = cfg->prefix_restore || cfg->prefix_check,
		.prefix_check = cfg->prefix_check,
	};
	struct vctx v = { .w = w, .cfg = cfg, .res = res };
	struct exec_verify_hooks h = {
		.reset = on_reset, .done = on_done, .restart = on_restart, .arg = &v,
		.save = on_save, .restore = on_restore_saved, .drop = on_drop,
		.fingerprint = on_fingerprint,
	};
	const uint64_t *pts;
	double t0 = now();
	int ret;

	memset(res, 0, sizeof(*res));
	if (w->run.nviol) {
		/* The world broke before any step of the walk (the boot's
		 * init_nop, queuing the updates): that is the counterexample,
		 * of no visible steps, whatever the walk would find. */
		res->violated = 1;
		for (size_t i = 0; i < w->run.nviol; i++)
			add_kind(res->kinds, sizeof(res->kinds), w->run.viol[i].kind);
		res->secs = now() - t0;
		res->points = malloc(sizeof(*res->points));
		if (!res->points)
			return ftv_errf(err, "out of memory");
		exec_watched(w->ex, &res->nwords, &res->ndata);
		return 0;
	}
	if (world_save(w, err) || exec_snapshot(w->ex, err))
		return -1;
	exec_set_state_fn(w->ex, world_state_words, w);
	if (!cfg->stateful)
		snprintf(res->sym_why, sizeof(res->sym_why), "the walk is stateless");
	else if (cfg->no_symmetry)
		snprintf(res->sym_why, sizeof(res->sym_why), "--no-symmetry");
	else
		world_set_symmetry(w, res->sym_why, sizeof(res->sym_why));
	ret = exec_verify(w->ex, &xc, &h, &res->x, err);
	exec_symmetry_off(w->ex);
	exec_set_state_fn(w->ex, NULL, NULL);
	free(v.past);
	res->secs = now() - t0;
	/* leave the world as the updates left it queued */
	if (world_restore(w, 0))
		v.oom = 1;
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
