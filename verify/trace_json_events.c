/* The events of a world's Chrome trace-event JSON (verify/trace_json.h),
 * one writer per kind: fetches and literal loads, function slices and
 * tracer calls, plan steps, drains with their flow arrows, violations. */
#include "verify/trace_json_int.h"

#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"

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

static void ts_key(struct json *j, const char *key, uint64_t ns)
{
	json_key_double(j, key, (double)ns / 1000.0, 3);
}

void tj_begin_event(struct tjw *t, const char *ph, const char *name, const char *cat,
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

void tj_meta(struct tjw *t, const char *what, int tid, const char *key, const char *name,
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

		const struct ftrace_ops_layout *l = ftrace_core_ops_layout(w->core);

		if (addr >= o->addr && addr < o->addr + l->size && o->addr) {
			const char *fl = ftrace_ops_field_name(l, addr - o->addr);

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
static const struct wplan *wplan_of(struct world *w, int id)
{
	for (size_t i = 0; i < w->nplans; i++)
		if (w->plans[i].id == id)
			return &w->plans[i];
	return NULL;
}

static int agent_tid(int a)
{
	return a == PLAN_AGENT_TEXT ? TID_TEXT : TID_PATCHER;
}

/* the agent of plan id (its track) */
static int plan_agent(struct world *w, int id)
{
	const struct wplan *wp = wplan_of(w, id);

	return wp && wp->agent == PLAN_AGENT_TEXT ? PLAN_AGENT_TEXT : PLAN_AGENT_FTRACE;
}

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
	tj_begin_event(t, "s", "write", "flow", agent_tid(plan_agent(t->w, wr->plan)), from);
	json_key_u64(j, "id", id);
	json_end_object(j);
	if (t->drain[wid]) {
		tj_begin_event(t, "t", "write", "flow", TID_SBUF, t->drain[wid]);
		json_key_u64(j, "id", id);
		json_end_object(j);
	}
	tj_begin_event(t, "f", "write", "flow", cpu_tid(cpu), ts);
	json_key_str(j, "bp", "e");
	json_key_u64(j, "id", id);
	json_end_object(j);
}

static void x_event(struct tjw *t, const struct item *it, const char *name, const char *cat,
		    int tid)
{
	tj_begin_event(t, "X", name, cat, tid, it->ts);
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

void tj_write_obs(struct tjw *t, const struct item *it)
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

void tj_write_tl(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const struct tl_event *e = &t->tl[it->idx];
	struct json *j = t->j;
	char name[200], b1[200], b2[200];
	const char *op;

	switch (e->kind) {
	case TL_ENTER:
		tj_begin_event(t, "B", sym_name(w, e->a, name, sizeof(name)), "function",
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
		tj_begin_event(t, "E", NULL, NULL, cpu_tid(e->cpu), it->ts);
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
		tj_begin_event(t, "i", "quiescent point", "sched", cpu_tid(e->cpu), it->ts);
		json_key_str(j, "s", "t");
		json_end_object(j);
		break;
	case TL_CUT:
		tj_begin_event(t, "i", "timeline cut", "sched", cpu_tid(e->cpu), it->ts);
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

static void close_plan(struct tjw *t, int a)
{
	if (t->plan_open[a] < 0)
		return;
	tj_begin_event(t, "E", NULL, NULL, agent_tid(a), t->plan_end[a] + 1);
	json_end_object(t->j);
	t->plan_open[a] = -1;
}

void tj_close_plan(struct tjw *t)
{
	for (int a = 0; a < PLAN_AGENTS; a++)
		close_plan(t, a);
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

void tj_write_plan_step(struct tjw *t, const struct item *it)
{
	struct world *w = t->w;
	const struct exec_event *e = &t->ev[it->idx];
	int id = (int)(e->a >> 32);
	size_t k = (uint32_t)e->a;
	const struct wplan *wp = wplan_of(w, id);
	const struct plan_step *s = world_plan_step(w, id, wp, k);
	int a = plan_agent(w, id), tid = agent_tid(a);
	uint64_t *prev_step = &t->prev_step[a];
	struct json *j = t->j;
	char name[300], b[200];

	if (t->plan_open[a] != id) {
		close_plan(t, a);
		snprintf(name, sizeof(name), "plan %d: %s%s%s", id, wp ? wp->what : "?",
			 wp && wp->ops ? " " : "", wp && wp->ops ? wp->ops : "");
		/* just before its first step's slice, which it contains */
		tj_begin_event(t, "B", name, "plan", tid, it->ts ? it->ts - 1 : 0);
		json_key(j, "args");
		json_begin_object(j);
		json_key_u64(j, "plan", (uint64_t)id);
		if (wp)
			json_key_u64(j, "steps", wp->plan.n);
		json_end_object(j);
		json_end_object(j);
		t->plan_open[a] = id;
		*prev_step = it->step;
	}
	snprintf(name, sizeof(name), "%s%s%s", plan_op_name((enum plan_op)e->b),
		 s && s->what ? ": " : "", s && s->what ? s->what : "");
	x_event(t, it, name, "plan-step", tid);
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
	t->plan_end[a] = it->ts + it->dur;
	if (t->plan_end[a] + 1 > t->last_ts)
		t->last_ts = t->plan_end[a] + 1;
	/* its last step as performed (a live plan's steps follow its reads) */
	if (wp && !world_plan_step(w, id, NULL, k + 1))
		close_plan(t, a);
}

void tj_write_drain(struct tjw *t, const struct item *it)
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

void tj_write_violation(struct tjw *t, const struct item *it)
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
	tj_begin_event(t, "i", name, "violation",
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
