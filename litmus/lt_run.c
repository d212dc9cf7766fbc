/* Running a litmus test: its address space (each thread's code in its own
 * 4 KiB, its fault handler in the upper half, data locations 64 bytes
 * apart), every interleaving and fetch choice explored, the final states
 * collected as herd reports them. */
#include "litmus/lt_int.h"
#include "executor/exec.h"
#include "sim/aspace.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Every thread ends by branching here: the CPUs' common exit, so that a
 * thread running off the end of code it branched into ends there, as in
 * herd. */
static uint64_t exit_addr(const struct litmus *lt)
{
	return SIM_KERNEL_TEXT_BASE + LT_THREAD_SPAN * (uint64_t)lt->nthreads;
}

uint64_t lt_block_base(int thread, int handler)
{
	return SIM_KERNEL_TEXT_BASE + LT_THREAD_SPAN * (uint64_t)thread +
	       (handler ? LT_HANDLER_OFF : 0);
}

int lt_find_label(const struct litmus *lt, int t, const char *name,
		  uint64_t *addr)
{
	for (int i = 0; i < lt->nlabel; i++)
		if (lt->label[i].thread == t && !strcmp(lt->label[i].name, name)) {
			*addr = lt_block_base(t, lt->label[i].handler) +
				4ULL * lt->label[i].index;
			return 0;
		}
	return -1;
}

/* A code label of any thread (herd's page table entries name labels
 * without their thread). */
static int any_label(const struct litmus *lt, const char *name,
		     uint64_t *addr)
{
	for (int t = 0; t < lt->nthreads; t++)
		if (!lt_find_label(lt, t, name, addr))
			return 0;
	return -1;
}

uint64_t lt_loc_addr(const struct litmus *lt, const char *name)
{
	int i = lt_find_loc(lt, name);
	uint64_t a;

	for (int k = 0; k < lt->nalias; k++) {
		const struct lt_alias *al = &lt->alias[k];

		/* location pa placed at code label va */
		if (!strcmp(al->pa, name) && !any_label(lt, al->va, &a))
			return a;
		/* location va placed at location pa */
		if (!strcmp(al->va, name) && lt_find_loc(lt, al->pa) >= 0)
			return lt_loc_addr(lt, al->pa);
	}
	return i < 0 ? 0 : SIM_DATA_BASE + 64ULL * (uint64_t)i;
}

/* Every page table entry names a code label or a location, and no
 * location is the target of two. */
static int check_aliases(const struct litmus *lt, struct ftv_err *err)
{
	for (int k = 0; k < lt->nalias; k++) {
		const struct lt_alias *al = &lt->alias[k];
		uint64_t a;

		if (any_label(lt, al->va, &a) && lt_find_loc(lt, al->va) < 0)
			return ftv_errf(err, "%s:%d: pte_%s: no label or location %s",
					lt->path, al->line, al->va, al->va);
		for (int j = 0; j < k; j++)
			if (!strcmp(lt->alias[j].pa, al->pa) ||
			    !strcmp(lt->alias[j].va, al->va))
				return ftv_errf(err, "%s:%d: pte_%s: two page table entries alias one location; not modelled by ftv",
						lt->path, al->line, al->va);
	}
	return 0;
}

/* Replaces label names (of thread t, or Pn:label) and herd's `.+N` in an
 * instruction by addresses; the mnemonic itself is never a label. */
static int resolve_text(const struct litmus *lt, int t, uint64_t pc,
			const char *in, char *out, size_t n,
			struct ftv_err *err)
{
	size_t o = 0;
	const char *p = in;

	/* the mnemonic, and for dc/ic the operation */
	while (*p && !isspace((unsigned char)*p))
		p++;
	if ((p - in == 2) && (!strncasecmp(in, "dc", 2) ||
			      !strncasecmp(in, "ic", 2))) {
		while (isspace((unsigned char)*p))
			p++;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
	}
	if ((size_t)(p - in) >= n)
		return ftv_errf(err, "instruction too long");
	memcpy(out, in, (size_t)(p - in));
	o = (size_t)(p - in);
	while (*p) {
		char tok[LT_NAME + 8], lab[LT_NAME];
		const char *s = p;
		uint64_t addr;
		int tt;

		if (*p == '.' && (p == in || !lt_is_ident((unsigned char)p[-1])) &&
		    !lt_is_ident((unsigned char)p[1])) {
			/* herd's ".", ".+N", ".-N": this instruction's pc */
			long long off = 0;
			char *end;

			p++;
			while (isspace((unsigned char)*p))
				p++;
			if (*p == '+' || *p == '-') {
				off = strtoll(p, &end, 0);
				if (end == p + 1)
					return ftv_errf(err, "bad offset in '%s'", in);
				p = end;
			}
			addr = pc + (uint64_t)off;
			goto put;
		}
		if (!lt_is_ident_start((unsigned char)*p) ||
		    (p > in && (lt_is_ident((unsigned char)p[-1]) ||
				p[-1] == '#'))) {
			if (o + 1 >= n)
				return ftv_errf(err, "instruction too long");
			out[o++] = *p++;
			continue;
		}
		while (lt_is_ident((unsigned char)*p))
			p++;
		if (*p == ':' && (s[0] == 'P' || s[0] == 'p') &&
		    lt_is_ident_start((unsigned char)p[1])) {
			p++;
			while (lt_is_ident((unsigned char)*p))
				p++;
		}
		if ((size_t)(p - s) >= sizeof(tok))
			return ftv_errf(err, "name too long in '%s'", in);
		memcpy(tok, s, (size_t)(p - s));
		tok[p - s] = 0;
		if (!lt_parse_code_ref(tok, &tt, lab)) {
			if (lt_find_label(lt, tt, lab, &addr))
				return ftv_errf(err, "unknown label %s", tok);
		} else if (lt_find_label(lt, t, tok, &addr)) {
			if (o + strlen(tok) >= n)
				return ftv_errf(err, "instruction too long");
			memcpy(out + o, tok, strlen(tok));
			o += strlen(tok);
			continue;
		}
put:
		o += (size_t)snprintf(out + o, n - o, "0x%llx",
				      (unsigned long long)addr);
		if (o >= n)
			return ftv_errf(err, "instruction too long");
	}
	out[o] = 0;
	return 0;
}

static int assemble_at(const struct litmus *lt, int t, uint64_t pc,
		       const char *text, uint32_t *w, struct ftv_err *err)
{
	char buf[256];

	if (resolve_text(lt, t, pc, text, buf, sizeof(buf), err) ||
	    lt->arch->assemble(buf, pc, w, err))
		return -1;
	return 0;
}

int lt_check_insns(struct litmus *lt, struct ftv_err *err)
{
	for (int t = 0; t < lt->nthreads; t++)
		for (int h = 0; h < 2; h++) {
			const struct lt_block *b = h ? &lt->handler[t]
						     : &lt->code[t];

			for (unsigned i = 0; i < b->n; i++) {
				struct ftv_err e;
				uint32_t w;

				if (!assemble_at(lt, t, lt_block_base(t, h) + 4ULL * i,
						 b->insn[i].text, &w, &e) ||
				    !strstr(e.msg, "unknown instruction"))
					continue;
				return lt_unsupported(lt, err, "%s:%d: %s: not modelled by ftv",
						      lt->path, b->insn[i].line,
						      e.msg);
			}
		}
	return 0;
}

/* Values are resolved after parsing: errors name the line they came from. */
int lt_resolve_value(const struct litmus *lt, const struct lt_val *v,
		     uint64_t *out, struct ftv_err *err)
{
	uint64_t pc = 0;
	uint32_t w;

	switch (v->kind) {
	case LV_NUM:
		*out = v->num;
		return 0;
	case LV_LOC:
		*out = lt_loc_addr(lt, v->name);
		return 0;
	case LV_CODE:
		if (lt_find_label(lt, v->thread, v->name, out))
			return ftv_errf(err, "%s:%d: unknown label P%d:%s",
					lt->path, v->line, v->thread, v->name);
		return 0;
	case LV_INSN:
		if (v->has_at && lt_find_label(lt, v->thread, v->name, &pc))
			return ftv_errf(err, "%s:%d: unknown label P%d:%s",
					lt->path, v->line, v->thread, v->name);
		if (assemble_at(lt, v->has_at ? v->thread : 0, pc, v->text, &w,
				err))
			return ftv_err_prefix(err, "%s:%d: insn \"%s\"",
					      lt->path, v->line, v->text);
		*out = w;
		return 0;
	}
	return -1;
}

/* --- the final states ------------------------------------------------------ */

struct lrun {
	const struct litmus *lt;
	const struct litmus_opts *o;
	struct sim_aspace *as;
	uint64_t cval[LT_MAX_ITEMS];    /* resolved condition values */
	struct litmus_result *res;
	size_t capstates;
	uint64_t t0_ms, next_progress_ms;
	uint64_t cpu0_ms;           /* CPU time at the start (the budget's) */
	uint64_t time_ms;           /* the walk's share of the budget */
	uint64_t runs, random_runs;
	int random;                 /* the random search: stop at a witness */
	int oom;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The process's CPU time: the time budget's clock (litmus_opts.time_ms). */
static uint64_t cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Whether thread t took an exception at its (or another's) label. */
static int faulted_at(const struct litmus *lt, struct ftv_exec *ex, int t,
		      int lthread, const char *label)
{
	const uint64_t *pcs;
	size_t n = exec_cpu_faults(ex, (unsigned)t, &pcs);
	uint64_t a;

	if (lt_find_label(lt, lthread, label, &a))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (pcs[i] == a)
			return 1;
	return 0;
}

static uint64_t obs_value(struct lrun *r, struct ftv_exec *ex,
			  const struct lt_obs *ob)
{
	const struct litmus *lt = r->lt;
	uint64_t v = 0;

	switch (ob->kind) {
	case LC_REG:
		v = exec_cpu_reg(ex, (unsigned)ob->thread, ob->reg);
		return ob->is32 ? (uint32_t)v : v;
	case LC_MEM: {
		int li = lt_find_loc(lt, ob->loc);

		sim_read64(r->as, lt_loc_addr(lt, ob->loc), &v);
		return li >= 0 && lt->loc_size[li] == 4 ? (uint32_t)v : v;
	}
	case LC_FAULT:
		return (uint64_t)faulted_at(lt, ex, ob->lthread, ob->lthread,
					    ob->label);
	default:
		return 0;
	}
}

static int eval(struct lrun *r, struct ftv_exec *ex, int k)
{
	const struct litmus *lt = r->lt;
	const struct lt_cond *c = &lt->cond[k];
	uint64_t v = 0;
	uint32_t w;

	switch (c->kind) {
	case LC_TRUE:
		return 1;
	case LC_FALSE:
		return 0;
	case LC_AND:
		return eval(r, ex, c->a) && eval(r, ex, c->b);
	case LC_OR:
		return eval(r, ex, c->a) || eval(r, ex, c->b);
	case LC_NOT:
		return !eval(r, ex, c->a);
	case LC_REG:
		v = exec_cpu_reg(ex, (unsigned)c->thread, c->reg);
		if (c->is32)
			return (uint32_t)v == (uint32_t)r->cval[k];
		return v == r->cval[k];
	case LC_MEM: {
		int li = lt_find_loc(lt, c->loc);

		sim_read64(r->as, lt_loc_addr(lt, c->loc), &v);
		if (li >= 0 && lt->loc_size[li] == 4)
			return (uint32_t)v == (uint32_t)r->cval[k];
		return v == r->cval[k];
	}
	case LC_FETCH:
		if (lt_find_label(lt, c->lthread, c->label, &v) ||
		    exec_last_fetch(ex, (unsigned)c->thread, v, &w))
			return 0;
		return w == r->cval[k];
	case LC_FAULT:
		return faulted_at(lt, ex, c->lthread, c->lthread, c->label);
	}
	return 0;
}

static void add_state(struct lrun *r, const uint64_t *val, int sat)
{
	struct litmus_result *res = r->res;
	size_t n = (size_t)r->lt->nobs;

	for (size_t i = 0; i < res->nstates; i++)
		if (!memcmp(res->states[i].val, val, n * sizeof(*val))) {
			res->states[i].count++;
			return;
		}
	if (res->nstates == r->capstates) {
		size_t cap = r->capstates ? r->capstates * 2 : 16;
		struct litmus_state *ns = realloc(res->states,
						  cap * sizeof(*ns));

		if (!ns) {
			r->oom = 1;
			return;
		}
		res->states = ns;
		r->capstates = cap;
	}
	res->states[res->nstates].val = malloc((n ? n : 1) * sizeof(*val));
	if (!res->states[res->nstates].val) {
		r->oom = 1;
		return;
	}
	memcpy(res->states[res->nstates].val, val, n * sizeof(*val));
	res->states[res->nstates].sat = sat;
	res->states[res->nstates].count = 1;
	res->nstates++;
}

/* The resident set now, in MiB (/proc/self/statm), or 0 if unknown. */
static long rss_mb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long size = 0, res = 0;
	long page = sysconf(_SC_PAGESIZE);

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &res) != 2)
		res = 0;
	fclose(f);
	return (long)(res * (unsigned long)(page > 0 ? page : 4096) >> 20);
}

/* The budgets, checked after every run: CPU time and memory. */
static void check_budgets(struct lrun *r, struct ftv_exec *ex, uint64_t runs)
{
	uint64_t t = now_ms();
	uint64_t mem = r->o->mem_mb ? r->o->mem_mb : 1024;

	if (r->time_ms && cpu_ms() - r->cpu0_ms >= r->time_ms) {
		r->res->budget = LT_BUDGET_TIME;
		r->res->budget_limit = r->o->time_ms;
		exec_explore_stop(ex);
	}
	/* /proc costs a system call: every 64 runs is enough, each run
	 * being short (a bounded number of steps). */
	if (runs % 64 == 1 && (uint64_t)rss_mb() >= mem) {
		r->res->budget = LT_BUDGET_MEMORY;
		r->res->budget_limit = mem;
		exec_explore_stop(ex);
	}
	if (r->o->progress && t >= r->next_progress_ms) {
		r->o->progress(r->lt, runs, t - r->t0_ms, r->o->progress_arg);
		r->next_progress_ms = t + 100;
	}
}

static void outcome(struct ftv_exec *ex, void *arg)
{
	struct lrun *r = arg;
	const struct litmus *lt = r->lt;
	uint64_t val[LT_MAX_ITEMS];
	int sat;

	check_budgets(r, ex, ++r->runs);
	if (exec_run_was_cut(ex))
		return;
	for (int t = 0; t < lt->nthreads; t++)
		if (!exec_cpu_done(ex, (unsigned)t))
			return;
	r->res->finished++;
	for (int i = 0; i < lt->nobs; i++)
		val[i] = obs_value(r, ex, &lt->obs[i]);
	sat = eval(r, ex, lt->root);
	add_state(r, val, sat);
	if (!sat)
		return;
	r->res->witnesses++;
	if (r->random)
		exec_explore_stop(ex);
	if (r->o->want_witness && !r->res->witness) {
		size_t len = 0;
		FILE *f = open_memstream(&r->res->witness, &len);

		if (f) {
			exec_trace_print(ex, f);
			fclose(f);
		}
	}
}

/* --- building and running -------------------------------------------------- */

static int build_block(const struct litmus *lt, struct sim_aspace *as, int t,
		       int handler, struct ftv_err *err)
{
	const struct lt_block *b = handler ? &lt->handler[t] : &lt->code[t];
	uint64_t base = lt_block_base(t, handler);
	uint32_t w;

	if (!b->present)
		return 0;
	for (unsigned i = 0; i < b->n; i++) {
		if (assemble_at(lt, t, base + 4ULL * i, b->insn[i].text, &w,
				err))
			return ftv_err_prefix(err, "%s:%d", lt->path,
					      b->insn[i].line);
		sim_write32(as, base + 4ULL * i, w);
	}
	if (lt->arch->branch(base + 4ULL * b->n, exit_addr(lt), &w, err))
		return ftv_err_prefix(err, "%s: the branch ending P%d", lt->path,
				      t);
	sim_write32(as, base + 4ULL * b->n, w);
	return 0;
}

static int build_space(const struct litmus *lt, struct sim_aspace *as,
		       struct ftv_err *err)
{
	uint64_t tsize = LT_THREAD_SPAN * (uint64_t)(lt->nthreads + 1);
	uint64_t dsize = (64ULL * (uint64_t)lt->nloc + SIM_PAGE) & ~(SIM_PAGE - 1);

	if (!sim_map(as, "litmus.text", SIM_KERNEL_TEXT_BASE, tsize,
		     SIM_R | SIM_X, SIM_REGION_TEXT, err) ||
	    !sim_map(as, "litmus.data", SIM_DATA_BASE, dsize, SIM_R | SIM_W,
		     SIM_REGION_DATA, err) ||
	    !sim_map(as, "litmus.stack", SIM_STACK_BASE,
		     SIM_PAGE * (uint64_t)lt->nthreads, SIM_R | SIM_W,
		     SIM_REGION_STACK, err))
		return -1;
	for (int t = 0; t < lt->nthreads; t++) {
		char name[16];

		snprintf(name, sizeof(name), "P%d", t);
		sim_sym_add(as, name, lt_block_base(t, 0),
			    4ULL * lt->code[t].n + 4, SIM_SYM_FUNC, NULL);
		if (lt->handler[t].present) {
			snprintf(name, sizeof(name), "P%d.F", t);
			sim_sym_add(as, name, lt_block_base(t, 1),
				    4ULL * lt->handler[t].n + 4, SIM_SYM_FUNC,
				    NULL);
		}
		if (build_block(lt, as, t, 0, err) ||
		    build_block(lt, as, t, 1, err))
			return -1;
	}
	for (int i = 0; i < lt->ninit; i++) {
		uint64_t v;

		if (lt->init[i].reg >= 0)
			continue;
		if (lt_resolve_value(lt, &lt->init[i].v, &v, err))
			return -1;
		sim_write64(as, lt_loc_addr(lt, lt->init[i].loc), v);
	}
	return 0;
}

static int watch_code(const struct litmus *lt, struct ftv_exec *ex, int t,
		      const char *label, int line, struct ftv_err *err)
{
	uint64_t a;
	int h = 0;

	if (lt_find_label(lt, t, label, &a))
		return ftv_errf(err, "%s:%d: unknown label P%d:%s", lt->path,
				line, t, label);
	for (int i = 0; i < lt->nlabel; i++)
		if (lt->label[i].thread == t && !strcmp(lt->label[i].name, label))
			h = lt->label[i].handler;
	/* A label at the very end has no instruction to watch. */
	if (a >= lt_block_base(t, h) +
			 4ULL * (h ? lt->handler[t].n : lt->code[t].n))
		return 0;
	return exec_watch_insn(ex, a, err);
}

static long peak_rss_mb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss / 1024;
}

/* A test whose threads fault (or hang) says nothing about the fetch
 * model: reject it, naming the line. */
static int check_violations(const struct litmus *lt, struct ftv_exec *ex,
			    struct ftv_err *err)
{
	size_t nv;
	const struct exec_violation *v = exec_violations(ex, &nv);

	for (size_t i = 0; i < nv; i++) {
		uint64_t off;
		unsigned t, k;
		int line = 0, h;

		if (v[i].kind != EXEC_V_FAULT && v[i].kind != EXEC_V_STUCK)
			continue;
		off = v[i].addr - SIM_KERNEL_TEXT_BASE;
		t = (unsigned)(off / LT_THREAD_SPAN);
		h = off % LT_THREAD_SPAN >= LT_HANDLER_OFF;
		k = (unsigned)(off % LT_THREAD_SPAN -
			       (h ? LT_HANDLER_OFF : 0)) / 4;
		if (v[i].kind == EXEC_V_FAULT && t < (unsigned)lt->nthreads) {
			const struct lt_block *b = h ? &lt->handler[t]
						     : &lt->code[t];

			if (k < b->n)
				line = b->insn[k].line;
		}
		return ftv_errf(err, "%s:%d: run %llu: %s", lt->path, line,
				(unsigned long long)v[i].run, v[i].msg);
	}
	return 0;
}

/* An executor for the test: CPUs at their threads, registers, watches. */
static struct ftv_exec *setup_exec(const struct litmus *lt,
				   const struct exec_config *cfg,
				   struct sim_aspace *as, struct ftv_err *err)
{
	struct ftv_exec *ex = exec_new(as, cfg, err);

	if (!ex)
		return NULL;
	for (int t = 0; t < lt->nthreads; t++) {
		uint64_t base = lt_block_base(t, 0);

		if (exec_cpu_setup(ex, (unsigned)t, base,
				   SIM_STACK_BASE + SIM_PAGE * (uint64_t)(t + 1),
				   NULL, 0, exit_addr(lt), err))
			goto bad;
	}
	/* herd's faults: an undefined instruction ends the thread, or goes
	 * to its fault handler (Pn.F); ftv's own syntax keeps them errors */
	for (int t = 0; t < lt->nthreads; t++)
		if ((lt->syntax == LT_SYNTAX_HERD || lt->handler[t].present) &&
		    exec_cpu_on_undef(ex, (unsigned)t,
				      lt->handler[t].present ? lt_block_base(t, 1) : 0,
				      err))
			goto bad;
	for (int i = 0; i < lt->ninit; i++) {
		const struct lt_init *in = &lt->init[i];
		uint64_t v;

		if (in->v.kind == LV_CODE &&
		    watch_code(lt, ex, in->v.thread, in->v.name, in->v.line, err))
			goto bad;
		if (in->reg < 0)
			continue;
		if (in->thread >= lt->nthreads) {
			ftv_errf(err, "%s:%d: init names thread %d of %d",
				 lt->path, in->v.line, in->thread,
				 lt->nthreads);
			goto bad;
		}
		if (lt_resolve_value(lt, &in->v, &v, err))
			goto bad;
		exec_cpu_set_reg(ex, (unsigned)in->thread, in->reg, v);
	}
	/* herd's addr; po; [ISB] and addr; [DC] (aarch64.cat, dob): the
	 * accesses whose address depends on a load order the thread's later
	 * ISB after them; a DC whose address does is performed after it */
	for (int t = 0; lt->arch->addr_deps && t < lt->nthreads; t++) {
		uint32_t w[LT_MAX_INSNS];
		unsigned char mark[LT_MAX_INSNS];
		uint64_t base = lt_block_base(t, 0);
		unsigned n = lt->code[t].n;

		for (unsigned i = 0; i < n; i++)
			sim_read32(as, base + 4ULL * i, &w[i]);
		lt->arch->addr_deps(w, n, base, mark);
		for (unsigned i = 0; i < n; i++)
			if (((mark[i] & LT_DEP_CTRL) &&
			     exec_order_point(ex, base + 4ULL * i, EXEC_POINT_CTRL, err)) ||
			    ((mark[i] & LT_DEP_LOAD) &&
			     exec_order_point(ex, base + 4ULL * i, EXEC_POINT_LOAD, err)) ||
			    ((mark[i] & LT_DEP_LOAD) && (mark[i] & LT_DEP_CTRL) &&
			     exec_order_point(ex, base + 4ULL * i, EXEC_POINT_ADDR, err)) ||
			    ((mark[i] & LT_DEP_DC) &&
			     exec_order_point(ex, base + 4ULL * i, EXEC_POINT_DC_DEP, err)))
				goto bad;
	}
	/* a location placed at a code label: stores to it are stores to code */
	for (int k = 0; k < lt->nalias; k++)
		for (int t = 0; t < lt->nthreads; t++) {
			uint64_t a;

			if (!lt_find_label(lt, t, lt->alias[k].va, &a) &&
			    watch_code(lt, ex, t, lt->alias[k].va,
				       lt->alias[k].line, err))
				goto bad;
		}
	for (int i = 0; i < lt->ncond; i++)
		if (lt->cond[i].kind == LC_FETCH &&
		    watch_code(lt, ex, lt->cond[i].lthread, lt->cond[i].label,
			       lt->cond[i].v.line, err))
			goto bad;
	return ex;
bad:
	exec_free(ex);
	return NULL;
}

/* When the exhaustive walk ran out of time without a witness: seeded
 * random runs for the rest of the budget. A witness they find settles
 * Allowed (one run is proof); they prove nothing else. The depth-first
 * walk reaches a witness that needs every CPU to go in turn late. The
 * runs go through exec_explore, which recycles the engines and stops at
 * the first witness or when a budget (time, memory) runs out. */
static int random_search(const struct litmus *lt, struct lrun *r,
			 struct exec_config cfg, struct ftv_err *err)
{
	struct ftv_exec *ex;
	struct exec_stats st;
	int rc = -1;

	cfg.policy = EXEC_RANDOM;
	cfg.seed = 1;
	ex = setup_exec(lt, &cfg, r->as, err);
	if (!ex)
		return -1;
	r->random = 1;
	if (exec_explore(ex, UINT64_MAX, 4096, outcome, r, err))
		goto out;
	exec_get_stats(ex, &st);
	r->random_runs = st.runs;
	rc = check_violations(lt, ex, err);
	/* memory as it was, for whoever runs next */
	if (!rc)
		rc = exec_reset(ex, err);
out:
	exec_free(ex);
	return rc;
}

static int run_walk(const struct litmus *lt, const struct litmus_opts *o,
		    struct litmus_result *res, struct ftv_err *err)
{
	struct exec_config cfg = { .arch = lt->arch->arch,
				   .ncpus = (unsigned)lt->nthreads,
				   .policy = EXEC_EXHAUSTIVE, .fine = 1,
				   .dic = o->dic >= 0 ? o->dic : lt->dic,
				   .idc = o->idc >= 0 ? o->idc : lt->idc,
				   .text_loads = 1, .cpu_sbuf = 1 };
	struct lrun r = { .lt = lt, .o = o, .res = res };
	struct ftv_exec *ex = NULL;
	struct exec_stats st;
	uint64_t max_runs = o->max_runs ? o->max_runs : 1000000;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	/* the set of states met: half the memory budget at most */
	if (o->reduce == LT_REDUCE_ON)
		cfg.prune_states = (size_t)((o->mem_mb ? o->mem_mb : 1024) << 19);
	if (lt->unsup)
		return ftv_errf(err, "%s", lt->unsup_msg);
	if (check_aliases(lt, err))
		return -1;
	r.as = sim_aspace_new();
	if (!r.as)
		return ftv_errf(err, "out of memory");
	if (build_space(lt, r.as, err))
		goto out;
	for (int i = 0; i < lt->ncond; i++)
		if ((lt->cond[i].kind == LC_REG || lt->cond[i].kind == LC_MEM ||
		     lt->cond[i].kind == LC_FETCH) &&
		    lt_resolve_value(lt, &lt->cond[i].v, &r.cval[i], err))
			goto out;
	ex = setup_exec(lt, &cfg, r.as, err);
	if (!ex)
		goto out;
	r.t0_ms = now_ms();
	r.cpu0_ms = cpu_ms();
	r.next_progress_ms = r.t0_ms + 100;
	/* three quarters of the time for the walk, the rest for a random
	 * search if the walk found no witness */
	r.time_ms = o->time_ms - o->time_ms / 4;
	if (exec_explore(ex, max_runs, 4096, outcome, &r, err))
		goto out;
	if (r.oom) {
		ftv_errf(err, "out of memory");
		goto out;
	}
	if (check_violations(lt, ex, err))
		goto out;
	exec_get_stats(ex, &st);
	res->runs = st.runs;
	res->complete = st.complete;
	res->states_met = st.states;
	res->runs_cut = st.state_cuts;
	if (st.complete)
		res->budget = LT_BUDGET_NONE;
	else if (!res->budget && st.runs >= max_runs) {
		res->budget = LT_BUDGET_RUNS;
		res->budget_limit = max_runs;
	}
	if (res->budget == LT_BUDGET_TIME && !res->witnesses) {
		res->budget_limit = o->time_ms;
		r.time_ms = o->time_ms;
		if (exec_reset(ex, err))
			goto out;
		exec_free(ex);
		ex = NULL;
		if (random_search(lt, &r, cfg, err))
			goto out;
		res->runs += r.random_runs;
	}
	res->allowed = res->witnesses > 0;
	res->elapsed_ms = now_ms() - r.t0_ms;
	res->cpu_ms = cpu_ms() - r.cpu0_ms;
	res->peak_rss_mb = peak_rss_mb();
	rc = 0;
out:
	exec_free(ex);
	sim_aspace_free(r.as);
	if (rc)
		litmus_result_free(res);
	return rc;
}

/* LT_REDUCE_AUTO: a test of three threads or more is reduced from the
 * start; a smaller one is walked plainly (its counts are those of every
 * schedule) unless that takes more than LT_AUTO_PLAIN_RUNS runs, when the
 * reduced walk takes over with the time left. */
#define LT_AUTO_PLAIN_RUNS 20000

int litmus_run(const struct litmus *lt, const struct litmus_opts *o,
	       struct litmus_result *res, struct ftv_err *err)
{
	struct litmus_opts p = *o;
	uint64_t max_runs = o->max_runs ? o->max_runs : 1000000;
	uint64_t spent, wall;

	if (o->reduce != LT_REDUCE_AUTO)
		return run_walk(lt, o, res, err);
	p.reduce = lt->nthreads >= 3 ? LT_REDUCE_ON : LT_REDUCE_OFF;
	if (lt->nthreads >= 3 || max_runs <= LT_AUTO_PLAIN_RUNS)
		return run_walk(lt, &p, res, err);
	p.max_runs = LT_AUTO_PLAIN_RUNS;
	if (run_walk(lt, &p, res, err))
		return -1;
	/* done, or out of time or memory: that is the answer */
	if (res->complete || res->budget != LT_BUDGET_RUNS)
		return 0;
	spent = res->cpu_ms;
	wall = res->elapsed_ms;
	litmus_result_free(res);
	p = *o;
	p.reduce = LT_REDUCE_ON;
	if (o->time_ms)
		p.time_ms = o->time_ms > spent ? o->time_ms - spent : 1;
	if (run_walk(lt, &p, res, err))
		return -1;
	res->elapsed_ms += wall;
	res->cpu_ms += spent;
	return 0;
}

void litmus_result_free(struct litmus_result *res)
{
	for (size_t i = 0; i < res->nstates; i++)
		free(res->states[i].val);
	free(res->states);
	free(res->witness);
	res->states = NULL;
	res->nstates = 0;
	res->witness = NULL;
}
