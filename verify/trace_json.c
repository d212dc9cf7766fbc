/* Chrome trace-event JSON of a world's run (verify/trace_json.h): the
 * executor's observations (fetches, literal loads), plan steps and drains,
 * the timeline's function entries, returns and tracer calls
 * (verify/timeline.c) and the violations, merged in the order they
 * happened and written with the project's JSON writer. */
#include "verify/trace_json_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"
#include "util/json.h"
#include "util/vec.h"

struct trace_json *trace_json_open(FILE *f)
{
	struct trace_json *tj = calloc(1, sizeof(*tj));

	if (!tj)
		return NULL;
	tj->f = f;
	json_init(&tj->j, f);
	json_begin_object(&tj->j);
	json_key_str(&tj->j, "displayTimeUnit", "ms");
	json_key(&tj->j, "otherData");
	json_begin_object(&tj->j);
	json_key_str(&tj->j, "generator", "ftv");
	json_key_str(&tj->j, "time", "1 scheduler step = 1 ms (ts = step * 1000 us); the "
		     "events of a step are spread over it in the order they happened, 1 us apart "
		     "(closer when a step has more than 999)");
	json_end_object(&tj->j);
	json_key(&tj->j, "traceEvents");
	json_begin_array(&tj->j);
	/* nothing buffered for a fork() to duplicate */
	fflush(f);
	return tj;
}

struct trace_json *trace_json_create(const char *path, struct ftv_err *err)
{
	FILE *f = fopen(path, "w");
	struct trace_json *tj;

	if (!f) {
		ftv_errf(err, "%s: cannot write: %s", path, strerror(errno));
		return NULL;
	}
	tj = trace_json_open(f);
	if (!tj) {
		fclose(f);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	tj->own = 1;
	snprintf(tj->path, sizeof(tj->path), "%s", path);
	return tj;
}

int trace_json_finish(struct trace_json *tj, struct ftv_err *err)
{
	char path[1024];

	if (!tj)
		return 0;
	snprintf(path, sizeof(path), "%s", tj->path);
	if (trace_json_close(tj))
		return ftv_errf(err, "%s: write error", path);
	return 0;
}

int trace_json_close(struct trace_json *tj)
{
	int bad;

	if (!tj)
		return -1;
	json_end_array(&tj->j);
	json_end_object(&tj->j);
	json_newline(&tj->j);
	bad = fflush(tj->f) || ferror(tj->f);
	if (tj->own && fclose(tj->f))
		bad = 1;
	free(tj);
	return bad ? -1 : 0;
}

/* ---- the events, in time order ------------------------------------------ */

static int push(struct tjw *t, uint64_t step, enum src src, size_t idx)
{
	if (VEC_RESERVE(t->it, t->capit, t->nit + 1))
		return -1;
	t->it[t->nit] = (struct item){ .step = step, .idx = idx, .seq = t->nit, .src = src };
	t->nit++;
	return 0;
}

static int is_plan_or_drain(const struct exec_event *e)
{
	return e->kind == EXEC_EV_PLAN || e->kind == EXEC_EV_DRAIN;
}

static uint64_t viol_step(struct tjw *t, uint64_t step, uint64_t last)
{
	/* a violation found at the end (a result compared after the run)
	 * has no step of its own: it goes at the end */
	(void)t;
	return step ? step : last;
}

static int cmp_item_step(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->step != y->step)
		return x->step < y->step ? -1 : 1;
	/* violations after the events of their step; stable otherwise */
	if ((x->src >= S_XVIOL) != (y->src >= S_XVIOL))
		return x->src >= S_XVIOL ? 1 : -1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The CPUs' observations and the timeline's events, merged by how many
 * observations each timeline event came after; the patcher's and the
 * store buffer's events are in steps of their own (a step is one agent's
 * turn). */
static int collect(struct tjw *t)
{
	struct world *w = t->w;
	size_t sobs, sev, i = 0, k = 0, nx;
	uint64_t start = world_timeline_start(w, &sobs, &sev), last = exec_steps(w->ex);
	const struct exec_violation *xv = exec_violations(w->ex, &nx);

	t->obs = exec_observations(w->ex, &t->nobs);
	t->ev = exec_trace(w->ex, &t->nev);
	t->tl = world_timeline(w, &t->ntl);
	i = sobs;
	while (i < t->nobs || k < t->ntl) {
		if (k < t->ntl && (i >= t->nobs || t->tl[k].nobs <= i)) {
			if (push(t, t->tl[k].step, S_TL, k))
				return -1;
			k++;
		} else {
			if (push(t, t->obs[i].step, S_OBS, i))
				return -1;
			i++;
		}
	}
	for (i = sev; i < t->nev; i++)
		if (is_plan_or_drain(&t->ev[i]) && push(t, t->ev[i].step, S_EV, i))
			return -1;
	for (i = 0; i < nx; i++)
		if (world_exec_violation_shown(&xv[i]) &&
		    push(t, viol_step(t, xv[i].step < start ? start : xv[i].step, last),
			 S_XVIOL, i))
			return -1;
	for (i = 0; i < world_nviolations(w); i++)
		if (push(t, viol_step(t, world_violation(w, i)->step, last), S_WVIOL, i))
			return -1;
	/* the merge above is in time order within the CPUs' steps; sorting
	 * by step (stably) puts the rest in place */
	qsort(t->it, t->nit, sizeof(*t->it), cmp_item_step);
	return 0;
}

/* ts of every item: its step, then its rank in the step. */
static void place(struct tjw *t)
{
	for (size_t i = 0; i < t->nit;) {
		size_t j = i;
		uint64_t sp;

		while (j < t->nit && t->it[j].step == t->it[i].step)
			j++;
		sp = TJ_NS_PER_STEP / (j - i + 1);
		if (sp > TJ_SPACING_NS)
			sp = TJ_SPACING_NS;
		if (!sp)
			sp = 1;
		for (size_t k = i; k < j; k++) {
			t->it[k].ts = t->it[k].step * TJ_NS_PER_STEP + (k - i) * sp;
			t->it[k].dur = sp / 2 ? sp / 2 : 1;
		}
		i = j;
	}
}

static int index_plans_and_drains(struct tjw *t)
{
	int maxw = -1;

	for (size_t i = 0; i < t->nit; i++) {
		const struct exec_event *e;

		if (t->it[i].src != S_EV)
			continue;
		e = &t->ev[t->it[i].idx];
		if (e->kind == EXEC_EV_PLAN) {
			if (VEC_RESERVE(t->ps, t->capp, t->np + 1))
				return -1;
			t->ps[t->np++] = (struct pstep){ e->a, t->it[i].ts + t->it[i].dur / 2 };
		} else if ((int)e->b > maxw) {
			maxw = (int)e->b;
		}
	}
	for (size_t i = 0; i < t->nobs; i++)
		for (int h = 0; h < 2; h++)
			if (t->obs[i].wid[h] > maxw)
				maxw = t->obs[i].wid[h];
	t->ndrain = (size_t)(maxw + 1);
	t->drain = calloc(t->ndrain ? t->ndrain : 1, sizeof(*t->drain));
	t->seen = calloc(t->ndrain ? t->ndrain : 1, sizeof(*t->seen));
	if (!t->drain || !t->seen)
		return -1;
	for (size_t i = 0; i < t->nit; i++) {
		const struct exec_event *e;

		if (t->it[i].src != S_EV)
			continue;
		e = &t->ev[t->it[i].idx];
		/* a torn 64-bit write drains in two halves: the later one */
		if (e->kind == EXEC_EV_DRAIN && e->b < t->ndrain)
			t->drain[e->b] = t->it[i].ts + t->it[i].dur / 2;
	}
	return 0;
}

static void write_meta(struct tjw *t, const char *name)
{
	struct world *w = t->w;
	char b[300];

	snprintf(b, sizeof(b), "%s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s", name,
		 w->sd->name, w->cfg.exec.ncpus, exec_policy_name(w->cfg.exec.policy),
		 (unsigned long long)w->cfg.exec.seed,
		 w->cfg.mutant_name ? w->cfg.mutant_name : "none");
	tj_meta(t, "process_name", 0, "name", b, 0);
	tj_meta(t, "process_sort_index", 0, "sort_index", NULL, t->pid);
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		snprintf(b, sizeof(b), "cpu%u", c);
		tj_meta(t, "thread_name", cpu_tid((int)c), "name", b, 0);
		tj_meta(t, "thread_sort_index", cpu_tid((int)c), "sort_index", NULL, c);
	}
	tj_meta(t, "thread_name", TID_PATCHER, "name",
		w->sd->patcher_track ? w->sd->patcher_track : "patcher", 0);
	tj_meta(t, "thread_sort_index", TID_PATCHER, "sort_index", NULL, 100);
	tj_meta(t, "thread_name", TID_SBUF, "name", "store buffer", 0);
	tj_meta(t, "thread_sort_index", TID_SBUF, "sort_index", NULL, 101);
	for (size_t i = 0; i < w->nplans; i++)
		if (w->plans[i].agent == PLAN_AGENT_TEXT) {
			tj_meta(t, "thread_name", TID_TEXT, "name", "text patcher (another task)", 0);
			tj_meta(t, "thread_sort_index", TID_TEXT, "sort_index", NULL, 102);
			break;
		}
}

int trace_json_world(struct trace_json *tj, struct world *w, const char *name)
{
	struct tjw t;
	int ret = -1;

	memset(&t, 0, sizeof(t));
	t.tj = tj;
	t.j = &tj->j;
	t.w = w;
	t.pid = ++tj->npid;
	for (int a = 0; a < PLAN_AGENTS; a++)
		t.plan_open[a] = -1;
	if (collect(&t))
		goto out;
	place(&t);
	if (index_plans_and_drains(&t))
		goto out;
	write_meta(&t, name);
	for (size_t i = 0; i < t.nit; i++) {
		const struct item *it = &t.it[i];

		switch (it->src) {
		case S_OBS:
			tj_write_obs(&t, it);
			break;
		case S_TL:
			tj_write_tl(&t, it);
			break;
		case S_EV:
			if (t.ev[it->idx].kind == EXEC_EV_PLAN)
				tj_write_plan_step(&t, it);
			else
				tj_write_drain(&t, it);
			break;
		case S_XVIOL:
		case S_WVIOL:
			tj_write_violation(&t, it);
			break;
		}
	}
	/* what is still open at the end: a plan that never finished, the
	 * calls of a CPU that faulted or did not finish its rounds */
	tj_close_plan(&t);
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		for (; t.depth[c]; t.depth[c]--) {
			tj_begin_event(&t, "E", NULL, NULL, cpu_tid((int)c), t.last_ts + 1);
			json_end_object(t.j);
		}
	ret = 0;
out:
	free(t.it);
	free(t.ps);
	free(t.drain);
	free(t.seen);
	return ret;
}

int trace_json_write(struct world *w, const char *name, FILE *f)
{
	struct trace_json *tj = trace_json_open(f);
	int ret;

	if (!tj)
		return -1;
	ret = trace_json_world(tj, w, name);
	return trace_json_close(tj) || ret ? -1 : 0;
}
