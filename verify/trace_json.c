/* Chrome trace-event JSON of a world's run (verify/trace_json.h): the
 * executor's observations (fetches, literal loads), plan steps and drains,
 * the timeline's function entries, returns and tracer calls
 * (verify/timeline.c) and the violations, merged in the order they
 * happened and written with the project's JSON writer. */
#include "verify/trace_json.h"
#include "verify/world_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"
#include "util/json.h"
#include "util/vec.h"

#define TJ_NS_PER_STEP 1000000ULL /* one scheduler step is 1 ms */
#define TJ_SPACING_NS 1000ULL     /* 1 us between the events of a step */

/* Track ids: CPU n is thread n + 1; then the patcher and the store
 * buffer. */
enum { TID_PATCHER = 1000, TID_SBUF = 1001 };

static int cpu_tid(int cpu)
{
	return cpu + 1;
}

struct trace_json {
	FILE *f;
	int own;       /* f was opened by trace_json_create */
	uint64_t flows; /* flow ids are the file's, not a process's */
	char path[1024];
	struct json j;
	unsigned npid;
};

enum src { S_OBS, S_TL, S_EV, S_XVIOL, S_WVIOL };

struct item {
	uint64_t step;
	uint64_t ts, dur; /* ns */
	size_t idx;       /* in its source */
	size_t seq;       /* the order it was collected in */
	enum src src;
};

/* What one world's writing needs at hand. */
struct tjw {
	struct trace_json *tj;
	struct json *j;
	struct world *w;
	unsigned pid;
	struct item *it;
	size_t nit, capit;
	const struct exec_obs *obs;
	const struct exec_event *ev;
	const struct tl_event *tl;
	size_t nobs, nev, ntl;
	/* the ts of each plan step performed (key plan << 32 | step, in
	 * order) and of each write's drain (by write id, 0: none) */
	struct pstep {
		uint64_t key, ts;
	} *ps;
	size_t np, capp;
	uint64_t *drain;
	size_t ndrain;
	/* the CPUs that fetched each write already (bit per CPU), so a flow
	 * arrow goes to the first fetch only */
	uint32_t *seen;
	unsigned depth[EXEC_MAX_CPUS]; /* open function slices */
	int plan_open;                 /* the plan whose slice is open, or -1 */
	uint64_t plan_end;             /* ts where that plan's last step ends */
	uint64_t last_ts;
};

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

static uint64_t plan_step_ts(const struct tjw *t, uint64_t key)
{
	size_t lo = 0, hi = t->np;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->ps[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->np && t->ps[lo].key == key ? t->ps[lo].ts : 0;
}

/* ---- writing ------------------------------------------------------------- */

static void ts_key(struct json *j, const char *key, uint64_t ns)
{
	json_key_double(j, key, (double)ns / 1000.0, 3);
}

static void begin_event(struct tjw *t, const char *ph, const char *name, const char *cat,
			int tid, uint64_t ts)
{
	struct json *j = t->j;

	json_begin_object(j);
	json_key_str(j, "ph", ph);
	if (name)
		json_key_str(j, "name", name);
	if (cat)
		json_key_str(j, "cat", cat);
	json_key_u64(j, "pid", t->pid);
	json_key_u64(j, "tid", (uint64_t)tid);
	ts_key(j, "ts", ts);
	if (ts > t->last_ts)
		t->last_ts = ts;
}

static void meta(struct tjw *t, const char *what, int tid, const char *key, const char *name,
		 uint64_t sort)
{
	struct json *j = t->j;

	json_begin_object(j);
	json_key_str(j, "ph", "M");
	json_key_str(j, "name", what);
	json_key_u64(j, "pid", t->pid);
	json_key_u64(j, "tid", (uint64_t)tid);
	json_key_u64(j, "ts", 0);
	json_key(j, "args");
	json_begin_object(j);
	if (name)
		json_key_str(j, key, name);
	else
		json_key_u64(j, key, sort);
	json_end_object(j);
	json_end_object(j);
}

/* The name of the ops at addr: one the scenario made, or the core's own
 * (ftrace_nop_ops, ftrace_list_ops); NULL if none. */
static const char *ops_name(struct world *w, uint64_t addr)
{
	const struct wops *o = world_ops_at(w, addr);

	if (o)
		return o->name;
	if (addr && addr == ftrace_core_nop_ops(w->core))
		return "ftrace_nop_ops";
	if (addr && addr == ftrace_core_list_ops(w->core))
		return "ftrace_list_ops";
	return NULL;
}

/* The fields of an ops as the trampolines read them (patcher/ftrace_abi.h). */
static const char *ops_field(uint64_t off)
{
	static const struct {
		uint64_t off;
		const char *name;
	} f[] = {
		{ FTV_OPS_FUNC, "func" }, { FTV_OPS_DIRECT_CALL, "direct_call" },
		{ FTV_OPS_FLAGS, "flags" }, { FTV_OPS_PRIVATE, "private" },
		{ FTV_OPS_NEXT, "next" }, { FTV_OPS_FILTER, "filter" },
		{ FTV_OPS_NFILTER, "nfilter" }, { FTV_OPS_NOTRACE, "notrace" },
		{ FTV_OPS_NNOTRACE, "nnotrace" }, { FTV_OPS_TRAMP, "trampoline" },
		{ FTV_OPS_ID, "id" },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (f[i].off == off)
			return f[i].name;
	return NULL;
}

/* func+off/size [module]; a CALL_OPS literal, which lies before its
 * function, as "the ops literal of func"; a field of an ops as "t1->func". */
static char *where(struct world *w, uint64_t addr, char *buf, size_t n)
{
	char f[160];

	for (size_t i = 0; i < w->nrecs && addr; i++)
		if (w->recs[i].literal == addr) {
			snprintf(buf, n, "the ops literal of %s",
				 sim_symbolize(w->as, w->recs[i].func, f, sizeof(f), 1));
			return buf;
		}
	for (size_t i = 0; i < w->nops; i++) {
		const struct wops *o = &w->ops[i];

		if (addr >= o->addr && addr < o->addr + FTV_OPS_SIZE && o->addr) {
			const char *fl = ops_field(addr - o->addr);

			if (fl)
				snprintf(buf, n, "%s->%s", o->name, fl);
			else
				snprintf(buf, n, "%s+0x%llx", o->name,
					 (unsigned long long)(addr - o->addr));
			return buf;
		}
	}
	return sim_symbolize(w->as, addr, buf, n, 1);
}

/* The disassembly, with the symbol a branch lands on: "bl 0xffff800080000000
 * <ftrace_caller>". */
static void disasm(struct world *w, uint32_t word, uint64_t pc, char *buf, size_t n)
{
	const struct sim_symbol *s;
	const char *hex;
	size_t l;

	w->ad->disasm(word, pc, buf, n);
	hex = strstr(buf, "0x");
	l = strlen(buf);
	if (hex && (s = sim_sym_at(w->as, strtoull(hex, NULL, 16))) &&
	    s->addr == strtoull(hex, NULL, 16) && l + strlen(s->name) + 4 < n)
		snprintf(buf + l, n - l, " <%s>", s->name);
}

static void write_desc(struct world *w, int wid, char *buf, size_t n)
{
	const struct exec_write *wr = exec_write_get(w->ex, wid);

	if (!wr)
		snprintf(buf, n, "write #%d", wid);
	else if (wr->plan >= 0)
		snprintf(buf, n, "write #%d (plan %d step %d \"%s\")", wid, wr->plan, wr->step,
			 wr->what ? wr->what : "");
	else if (wr->cpu >= 0)
		snprintf(buf, n, "write #%d (store by cpu%d)", wid, wr->cpu);
	else
		snprintf(buf, n, "write #%d (initial)", wid);
}

/* An arrow from the plan step that made write wid, through its drain, to
 * the slice at ts on the CPU's track: the first time this CPU sees it. */
static void flow(struct tjw *t, int wid, int cpu, uint64_t ts)
{
	const struct exec_write *wr = exec_write_get(t->w->ex, wid);
	struct json *j = t->j;
	uint64_t from, id;

	if (!wr || wr->plan < 0 || wid < 0 || (size_t)wid >= t->ndrain ||
	    (t->seen[wid] >> cpu & 1))
		return;
	from = plan_step_ts(t, (uint64_t)wr->plan << 32 | (uint32_t)wr->step);
	if (!from)
		return;
	t->seen[wid] |= 1u << cpu;
	id = ++t->tj->flows;
	begin_event(t, "s", "write", "flow", TID_PATCHER, from);
	json_key_u64(j, "id", id);
	json_end_object(j);
	if (t->drain[wid]) {
		begin_event(t, "t", "write", "flow", TID_SBUF, t->drain[wid]);
		json_key_u64(j, "id", id);
		json_end_object(j);
	}
	begin_event(t, "f", "write", "flow", cpu_tid(cpu), ts);
	json_key_str(j, "bp", "e");
	json_key_u64(j, "id", id);
	json_end_object(j);
}

static void x_event(struct tjw *t, const struct item *it, const char *name, const char *cat,
		    int tid)
{
	begin_event(t, "X", name, cat, tid, it->ts);
	json_key_double(t->j, "dur", (double)it->dur / 1000.0, 3);
	json_key(t->j, "args");
	json_begin_object(t->j);
	json_key_u64(t->j, "step", it->step);
}

static void end_x(struct tjw *t, const struct item *it)
{
	json_end_object(t->j); /* args */
	json_end_object(t->j);
	if (it->ts + it->dur > t->last_ts)
		t->last_ts = it->ts + it->dur;
}

static void write_obs(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const struct exec_obs *o = &t->obs[it->idx];
	char name[300], dis[128], at[200], wd[200];
	struct json *j = t->j;

	where(w, o->addr, at, sizeof(at));
	if (o->kind == EXEC_OBS_FETCH) {
		disasm(w, (uint32_t)o->val, o->addr, dis, sizeof(dis));
		snprintf(name, sizeof(name), "fetch %s", dis);
		x_event(t, it, name, "fetch", cpu_tid(o->cpu));
		json_key_str(j, "at", at);
		json_key_hex(j, "word", o->val);
		json_key_str(j, "insn", dis);
	} else {
		const char *op = ops_name(w, o->val);

		if (!strncmp(at, "the ops literal", 15))
			snprintf(name, sizeof(name), "load ops literal: %s",
				 op ? op : where(w, o->val, dis, sizeof(dis)));
		else
			snprintf(name, sizeof(name), "load %s", at);
		x_event(t, it, name, "load", cpu_tid(o->cpu));
		json_key_str(j, "at", at);
		json_key_hex(j, "value", o->val);
		if (op)
			json_key_str(j, "ops", op);
	}
	write_desc(w, o->wid[0], wd, sizeof(wd));
	json_key_str(j, "write", wd);
	if (o->wid[1] != o->wid[0]) {
		write_desc(w, o->wid[1], wd, sizeof(wd));
		json_key_str(j, "write_high", wd);
	}
	end_x(t, it);
	flow(t, o->wid[0], o->cpu, it->ts + it->dur / 2);
	if (o->wid[1] != o->wid[0])
		flow(t, o->wid[1], o->cpu, it->ts + it->dur / 2);
}

static const char *sym_name(struct world *w, uint64_t addr, char *buf, size_t n)
{
	const struct sim_symbol *s = sim_sym_at(w->as, addr);

	if (s && s->addr == addr)
		snprintf(buf, n, "%s", s->name);
	else
		sim_symbolize(w->as, addr, buf, n, 0);
	return buf;
}

static void write_tl(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const struct tl_event *e = &t->tl[it->idx];
	struct json *j = t->j;
	char name[200], b1[200], b2[200];
	const char *op;

	switch (e->kind) {
	case TL_ENTER:
		begin_event(t, "B", sym_name(w, e->a, name, sizeof(name)), "function",
			    cpu_tid(e->cpu), it->ts);
		json_key(j, "args");
		json_begin_object(j);
		json_key_str(j, "func", where(w, e->a, b1, sizeof(b1)));
		json_key_u64(j, "step", it->step);
		json_end_object(j);
		json_end_object(j);
		t->depth[e->cpu]++;
		break;
	case TL_RETURN:
		if (!t->depth[e->cpu])
			break;
		t->depth[e->cpu]--;
		begin_event(t, "E", NULL, NULL, cpu_tid(e->cpu), it->ts);
		json_end_object(j);
		break;
	case TL_TRACER:
		op = ops_name(w, e->c);
		snprintf(name, sizeof(name), "%s (ops %s)", sym_name(w, e->a, b1, sizeof(b1)),
			 op ? op : "?");
		x_event(t, it, name, "tracer", cpu_tid(e->cpu));
		json_key_str(j, "ip", where(w, e->b, b1, sizeof(b1)));
		json_key_str(j, "parent_ip", where(w, e->d, b2, sizeof(b2)));
		if (op)
			json_key_str(j, "ops", op);
		json_key_hex(j, "ops_addr", e->c);
		end_x(t, it);
		break;
	case TL_DIRECT:
		x_event(t, it, "direct trampoline", "tracer", cpu_tid(e->cpu));
		json_key_str(j, "ip", where(w, e->b, b1, sizeof(b1)));
		end_x(t, it);
		break;
	case TL_QS:
		begin_event(t, "i", "quiescent point", "sched", cpu_tid(e->cpu), it->ts);
		json_key_str(j, "s", "t");
		json_end_object(j);
		break;
	case TL_CUT:
		begin_event(t, "i", "timeline cut", "sched", cpu_tid(e->cpu), it->ts);
		json_key_str(j, "s", "t");
		json_key(j, "args");
		json_begin_object(j);
		snprintf(b1, sizeof(b1), "this CPU's function entries, returns and tracer calls "
			 "from here on were not recorded (%llu more)",
			 (unsigned long long)world_timeline_dropped(w, e->cpu));
		json_key_str(j, "message", b1);
		json_end_object(j);
		json_end_object(j);
		break;
	}
}

static const struct wplan *wplan_of(struct world *w, int id)
{
	for (size_t i = 0; i < w->nplans; i++)
		if (w->plans[i].id == id)
			return &w->plans[i];
	return NULL;
}

static void close_plan(struct tjw *t)
{
	if (t->plan_open < 0)
		return;
	begin_event(t, "E", NULL, NULL, TID_PATCHER, t->plan_end + 1);
	json_end_object(t->j);
	t->plan_open = -1;
}

static void word_text(struct world *w, const struct plan_step *s, uint64_t v, char *buf,
		      size_t n)
{
	char d[128];
	const char *op;

	if (s->op == PLAN_WRITE_INSN) {
		disasm(w, (uint32_t)v, s->addr, d, sizeof(d));
		snprintf(buf, n, "%08llx (%s)", (unsigned long long)(uint32_t)v, d);
	} else if ((op = ops_name(w, v))) {
		snprintf(buf, n, "0x%016llx (ops %s)", (unsigned long long)v, op);
	} else if (sim_sym_at(w->as, v)) {
		snprintf(buf, n, "0x%016llx (%s)", (unsigned long long)v,
			 sim_symbolize(w->as, v, d, sizeof(d), 0));
	} else {
		snprintf(buf, n, "0x%016llx", (unsigned long long)v);
	}
}

static void write_plan_step(struct tjw *t, const struct item *it, uint64_t *prev_step)
{
	struct world *w = t->w;
	const struct exec_event *e = &t->ev[it->idx];
	int id = (int)(e->a >> 32);
	size_t k = (uint32_t)e->a;
	const struct wplan *wp = wplan_of(w, id);
	const struct plan_step *s = wp && k < wp->plan.n ? &wp->plan.steps[k] : NULL;
	struct json *j = t->j;
	char name[300], b[200];

	if (t->plan_open != id) {
		close_plan(t);
		snprintf(name, sizeof(name), "plan %d: %s%s%s", id, wp ? wp->what : "?",
			 wp && wp->ops ? " " : "", wp && wp->ops ? wp->ops : "");
		/* just before its first step's slice, which it contains */
		begin_event(t, "B", name, "plan", TID_PATCHER, it->ts ? it->ts - 1 : 0);
		json_key(j, "args");
		json_begin_object(j);
		json_key_u64(j, "plan", (uint64_t)id);
		if (wp)
			json_key_u64(j, "steps", wp->plan.n);
		json_end_object(j);
		json_end_object(j);
		t->plan_open = id;
		*prev_step = it->step;
	}
	snprintf(name, sizeof(name), "%s%s%s", plan_op_name((enum plan_op)e->b),
		 s && s->what ? ": " : "", s && s->what ? s->what : "");
	x_event(t, it, name, "plan-step", TID_PATCHER);
	json_key_u64(j, "plan_step", k);
	/* the patcher's turns between: other agents ran, or it waited (for
	 * the store buffer to drain, for every CPU to pass a quiescent
	 * point) */
	json_key_u64(j, "steps_since_previous", it->step - *prev_step);
	if (s) {
		if (s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) {
			json_key_str(j, "at", where(w, s->addr, b, sizeof(b)));
			word_text(w, s, s->old, b, sizeof(b));
			json_key_str(j, "old", b);
			word_text(w, s, s->new, b, sizeof(b));
			json_key_str(j, "new", b);
			json_key_bool(j, "validate", s->validate);
		} else if (s->len) {
			json_key_str(j, "at", where(w, s->addr, b, sizeof(b)));
			json_key_u64(j, "len", s->len);
		}
		if (s->rec >= 0 && (size_t)s->rec < w->ncore && w->rec_of_core[s->rec] >= 0)
			json_key_str(j, "record",
				     where(w, w->recs[w->rec_of_core[s->rec]].ip, b, sizeof(b)));
	}
	end_x(t, it);
	*prev_step = it->step;
	t->plan_end = it->ts + it->dur;
	if (t->plan_end + 1 > t->last_ts)
		t->last_ts = t->plan_end + 1;
	if (wp && k + 1 >= wp->plan.n)
		close_plan(t);
}

static void write_drain(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const struct exec_event *e = &t->ev[it->idx];
	const struct exec_write *wr = exec_write_get(w->ex, (int)e->b);
	char name[300], at[200], wd[200];

	where(w, e->a, at, sizeof(at));
	snprintf(name, sizeof(name), "visible %s", at);
	x_event(t, it, name, "store", TID_SBUF);
	json_key_str(t->j, "at", at);
	if (wr)
		json_key_hex(t->j, "value", wr->val);
	write_desc(w, (int)e->b, wd, sizeof(wd));
	json_key_str(t->j, "write", wd);
	end_x(t, it);
}

static void write_violation(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const char *kind, *msg;
	char name[64];
	int cpu;

	if (it->src == S_XVIOL) {
		size_t n;
		const struct exec_violation *v = &exec_violations(w->ex, &n)[it->idx];

		kind = exec_viol_name(v->kind);
		msg = v->msg;
		cpu = v->cpu;
	} else {
		const struct world_violation *v = world_violation(w, it->idx);

		kind = v->kind;
		msg = v->msg;
		cpu = v->cpu;
	}
	snprintf(name, sizeof(name), "VIOLATION %s", kind);
	begin_event(t, "i", name, "violation",
		    cpu >= 0 && (unsigned)cpu < w->cfg.exec.ncpus ? cpu_tid(cpu) : TID_PATCHER,
		    it->ts);
	json_key_str(t->j, "s", cpu >= 0 ? "t" : "p");
	json_key(t->j, "args");
	json_begin_object(t->j);
	json_key_str(t->j, "kind", kind);
	json_key_u64(t->j, "step", it->step);
	json_key_str(t->j, "message", msg);
	json_end_object(t->j);
	json_end_object(t->j);
}

static void write_meta(struct tjw *t, const char *name)
{
	struct world *w = t->w;
	char b[300];

	snprintf(b, sizeof(b), "%s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s", name,
		 w->sd->name, w->cfg.exec.ncpus, exec_policy_name(w->cfg.exec.policy),
		 (unsigned long long)w->cfg.exec.seed,
		 w->cfg.mutant_name ? w->cfg.mutant_name : "none");
	meta(t, "process_name", 0, "name", b, 0);
	meta(t, "process_sort_index", 0, "sort_index", NULL, t->pid);
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		snprintf(b, sizeof(b), "cpu%u", c);
		meta(t, "thread_name", cpu_tid((int)c), "name", b, 0);
		meta(t, "thread_sort_index", cpu_tid((int)c), "sort_index", NULL, c);
	}
	meta(t, "thread_name", TID_PATCHER, "name", "patcher", 0);
	meta(t, "thread_sort_index", TID_PATCHER, "sort_index", NULL, 100);
	meta(t, "thread_name", TID_SBUF, "name", "store buffer", 0);
	meta(t, "thread_sort_index", TID_SBUF, "sort_index", NULL, 101);
}

int trace_json_world(struct trace_json *tj, struct world *w, const char *name)
{
	struct tjw t;
	uint64_t prev_step = 0;
	int ret = -1;

	memset(&t, 0, sizeof(t));
	t.tj = tj;
	t.j = &tj->j;
	t.w = w;
	t.pid = ++tj->npid;
	t.plan_open = -1;
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
			write_obs(&t, it);
			break;
		case S_TL:
			write_tl(&t, it);
			break;
		case S_EV:
			if (t.ev[it->idx].kind == EXEC_EV_PLAN)
				write_plan_step(&t, it, &prev_step);
			else
				write_drain(&t, it);
			break;
		case S_XVIOL:
		case S_WVIOL:
			write_violation(&t, it);
			break;
		}
	}
	/* what is still open at the end: a plan that never finished, the
	 * calls of a CPU that faulted or did not finish its rounds */
	close_plan(&t);
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		for (; t.depth[c]; t.depth[c]--) {
			begin_event(&t, "E", NULL, NULL, cpu_tid((int)c), t.last_ts + 1);
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
