/* A violation as a herd7 litmus test (litmus_export.h): the locations
 * and the observer from the recorded execution, the patcher's thread from
 * the plans. */
#include "verify/litmus_export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/world_int.h"

#define LX_LOCS 8
#define LX_VALS 8
#define LX_OBS 8
/* A load at p .. p + LX_PTR_SPAN after a load that returned p reads a
 * field of what p points to: an address dependency. */
#define LX_PTR_SPAN 0x200

struct lx_loc {
	uint64_t addr;
	int insn;           /* a fetched word (else a loaded location) */
	int half;           /* 0: whole; 1, 2: low, high 32 bits of a
			       misaligned 64-bit literal */
	uint64_t val[LX_VALS];
	int nval;           /* val[0] is the first value */
	int ptr;            /* its values point at loc[ptr] (else -1) */
	int dep;            /* loaded through loc[dep]'s value (else -1) */
	int seen;           /* the rank of the value the CPU saw */
	int reg;            /* P1's register holding what it saw */
};

struct lx {
	struct world *w;
	int cpu;
	uint64_t step;
	const char *kind, *msg;
	struct lx_loc loc[LX_LOCS];
	int nloc;
	int order[LX_OBS];  /* P1's accesses: loc indices in program order */
	int norder;
};

/* 1 if a step of one of w's plans writes the bytes [a, a + n). */
static int plan_writes(const struct world *w, uint64_t a, uint64_t n)
{
	for (size_t i = 0; i < w->nplans; i++) {
		const struct plan *p = &w->plans[i].plan;

		for (size_t k = 0; k < p->n; k++) {
			const struct plan_step *s = &p->steps[k];
			uint64_t sz = s->op == PLAN_WRITE_INSN ? 4 : 8;

			if ((s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) &&
			    s->addr < a + n && a < s->addr + sz)
				return 1;
		}
	}
	return 0;
}

/* The violation the test is about: the first one a CPU made. */
static int find_violation(struct lx *x, struct ftv_err *err)
{
	size_t n;
	const struct exec_violation *v = exec_violations(x->w->ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].cpu >= 0 && world_exec_violation_shown(&v[i])) {
			x->cpu = v[i].cpu;
			x->step = v[i].step;
			x->kind = exec_viol_name(v[i].kind);
			x->msg = v[i].msg;
			return 0;
		}
	for (size_t i = 0; i < world_nviolations(x->w); i++) {
		const struct world_violation *wv = world_violation(x->w, i);

		if (wv->cpu >= 0) {
			x->cpu = wv->cpu;
			x->step = wv->step;
			x->kind = wv->kind;
			x->msg = wv->msg;
			return 0;
		}
	}
	return ftv_errf(err, "no CPU made the violation (%s): it happened in the "
			"patcher alone, with no memory-model outcome",
			world_nviolations(x->w) ? world_violation(x->w, 0)->kind
						: n ? exec_viol_name(v[0].kind) : "none");
}

static int add_val(struct lx_loc *l, uint64_t v)
{
	for (int i = 0; i < l->nval; i++)
		if (l->val[i] == v)
			return i;
	if (l->nval >= LX_VALS)
		return -1;
	l->val[l->nval] = v;
	return l->nval++;
}

static uint64_t part(const struct lx_loc *l, uint64_t v)
{
	return l->half == 1 ? v & 0xffffffffu : l->half == 2 ? v >> 32 : v;
}

/* Every value an update of w writes to l, in plan order. */
static int add_plan_vals(struct lx_loc *l, const struct world *w)
{
	for (size_t i = 0; i < w->nplans; i++) {
		const struct plan *p = &w->plans[i].plan;

		for (size_t k = 0; k < p->n; k++) {
			const struct plan_step *s = &p->steps[k];
			uint64_t base = l->half == 2 ? l->addr - 4 : l->addr;

			if ((s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) &&
			    s->addr == base &&
			    add_val(l, part(l, s->op == PLAN_WRITE_INSN ? (uint32_t)s->new
									: s->new)) < 0)
				return -1;
		}
	}
	return 0;
}

/* The first value of the location at addr: the executor's record of its
 * initial contents. */
static uint64_t first_value(struct ftv_exec *ex, uint64_t addr, uint64_t dflt)
{
	const struct exec_write *wr;

	for (int id = 0; (wr = exec_write_get(ex, id)); id++)
		if (wr->addr == addr && wr->plan < 0 && wr->cpu < 0)
			return wr->val;
	return dflt;
}

static int new_loc(struct lx *x, uint64_t addr, int insn, int half, uint64_t first,
		   uint64_t seen, struct ftv_err *err)
{
	struct lx_loc *l;

	if (x->nloc >= LX_LOCS || x->norder >= LX_OBS)
		return ftv_errf(err, "more than %d locations observed", LX_LOCS);
	l = &x->loc[x->nloc];
	memset(l, 0, sizeof(*l));
	l->addr = addr;
	l->insn = insn;
	l->half = half;
	l->ptr = l->dep = -1;
	add_val(l, part(l, first));
	if (add_plan_vals(l, x->w) < 0 || (l->seen = add_val(l, part(l, seen))) < 0)
		return ftv_errf(err, "a location takes more than %d values", LX_VALS);
	x->order[x->norder++] = x->nloc++;
	return 0;
}

/* The violating CPU's last access to each location an update writes,
 * before the violation, in the order it made them. */
static int observer(struct lx *x, struct ftv_err *err)
{
	size_t n;
	const struct exec_obs *ob = exec_observations(x->w->ex, &n);

	for (size_t i = 0; i < n; i++) {
		const struct exec_obs *o = &ob[i];
		int later = 0;
		uint64_t sz = o->kind == EXEC_OBS_FETCH ? 4 : 8;

		if (o->cpu != x->cpu || o->step > x->step ||
		    !plan_writes(x->w, o->addr, sz))
			continue;
		for (size_t k = i + 1; k < n && !later; k++)
			later = ob[k].cpu == x->cpu && ob[k].step <= x->step &&
				ob[k].addr == o->addr && ob[k].kind == o->kind;
		if (later)
			continue;
		uint64_t first = first_value(x->w->ex, o->addr, 0);

		if (o->kind == EXEC_OBS_LOAD && (o->addr & 7)) {
			/* two 32-bit single-copy-atomic halves */
			if (new_loc(x, o->addr, 0, 1, first, o->val, err) ||
			    new_loc(x, o->addr + 4, 0, 2, first, o->val, err))
				return -1;
		} else if (new_loc(x, o->addr, o->kind == EXEC_OBS_FETCH, 0, first, o->val,
				   err)) {
			return -1;
		}
	}
	if (!x->nloc)
		return ftv_errf(err, "cpu%d saw no value an update writes before its "
				"violation (%s): no memory-model outcome to export",
				x->cpu, x->kind);
	/* address dependencies: a load of a field of what an earlier load
	 * returned */
	for (int i = 0; i < x->norder; i++)
		for (int j = 0; j < i; j++) {
			struct lx_loc *a = &x->loc[x->order[j]], *b = &x->loc[x->order[i]];
			uint64_t p = a->val[a->seen];

			if (!a->insn && !a->half && !b->insn && b->dep < 0 && p &&
			    b->addr >= p && b->addr < p + LX_PTR_SPAN) {
				b->dep = x->order[j];
				a->ptr = x->order[i];
			}
		}
	return 0;
}

/* --- the text -------------------------------------------------------------- */

struct lx_out {
	FILE *f;
	char init[2][2048];   /* P0's and P1's init items */
	char code[2][64][40]; /* each thread's instructions */
	int ncode[2];
	int reg[2];           /* next free register */
};

static void init_item(struct lx_out *o, int t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void init_item(struct lx_out *o, int t, const char *fmt, ...)
{
	size_t l = strlen(o->init[t]);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->init[t] + l, sizeof(o->init[t]) - l, fmt, ap);
	va_end(ap);
	l = strlen(o->init[t]);
	snprintf(o->init[t] + l, sizeof(o->init[t]) - l, " ");
}

static void ins(struct lx_out *o, int t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void ins(struct lx_out *o, int t, const char *fmt, ...)
{
	va_list ap;

	if (o->ncode[t] >= 64)
		return;
	va_start(ap, fmt);
	vsnprintf(o->code[t][o->ncode[t]++], sizeof(o->code[0][0]), fmt, ap);
	va_end(ap);
}

static void loc_name(const struct lx *x, int i, char *buf, size_t n)
{
	if (x->loc[i].insn)
		snprintf(buf, n, "P1:m%d", i);
	else
		snprintf(buf, n, "x%d", i);
}

/* Value j of location i as herd writes it: an instruction, a location
 * (a pointer's), a number (its rank). */
static void val_text(const struct lx *x, int i, int j, char *buf, size_t n)
{
	const struct lx_loc *l = &x->loc[i];

	if (l->insn) {
		if (j)
			snprintf(buf, n, "instr:\"B .+%d\"", 4 + 8 * j);
		else
			snprintf(buf, n, "NOP");
	} else if (l->ptr >= 0) {
		if (j == l->seen)
			snprintf(buf, n, "x%d", l->ptr);
		else
			snprintf(buf, n, "z%d_%d", i, j);
	} else {
		snprintf(buf, n, "%d", j);
	}
}

/* P0: the steps of p on the locations, in order; a location's address
 * and value registers are allocated as they are first used. */
static void patcher(struct lx *x, struct lx_out *o, const struct plan *p,
		    int *areg, int (*vreg)[LX_VALS], int *any)
{
	static const char *const bar[] = { [PLAN_DSB] = "DSB ISH", [PLAN_DMB] = "DMB ISH",
					   [PLAN_ISB] = "ISB" };
	char nm[32], vt[48];

	for (size_t k = 0; k < p->n; k++) {
		const struct plan_step *s = &p->steps[k];

		switch (s->op) {
		case PLAN_DSB:
		case PLAN_DMB:
		case PLAN_ISB:
			/* (a barrier before the first store orders nothing
			 * of the test's) */
			if (*any)
				ins(o, 0, "%s", bar[s->op]);
			break;
		case PLAN_WRITE_INSN:
		case PLAN_WRITE_DATA64:
		case PLAN_CACHE_CLEAN:
		case PLAN_ICACHE_INVAL:
			for (int i = 0; i < x->nloc; i++) {
				struct lx_loc *l = &x->loc[i];
				uint64_t base = l->half == 2 ? l->addr - 4 : l->addr;
				int wr = s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64;
				uint64_t len = s->len ? s->len : 1;

				if (wr ? s->addr != base
				       : !l->insn || l->addr < s->addr || l->addr >= s->addr + len)
					continue;
				if (areg[i] < 0) {
					areg[i] = o->reg[0]++;
					loc_name(x, i, nm, sizeof(nm));
					init_item(o, 0, "0:X%d=%s;", areg[i], nm);
				}
				*any = 1;
				if (!wr) {
					ins(o, 0, "%s,X%d", s->op == PLAN_CACHE_CLEAN ? "DC CVAU" : "IC IVAU",
					    areg[i]);
					continue;
				}
				int j = add_val(l, part(l, s->op == PLAN_WRITE_INSN ? (uint32_t)s->new
										   : s->new));

				if (j < 0)
					continue;
				if (vreg[i][j] < 0) {
					vreg[i][j] = o->reg[0]++;
					val_text(x, i, j, vt, sizeof(vt));
					init_item(o, 0, "0:X%d=%s;", vreg[i][j], vt);
				}
				ins(o, 0, "STR %c%d,[X%d]", l->insn || l->half ? 'W' : 'X', vreg[i][j],
				    areg[i]);
			}
			break;
		default:
			/* locks, waits, frees, stop_machine, the patch window:
			 * no memory event of the test */
			break;
		}
	}
}

/* P1: each access in order; a fetched word is a label followed by one
 * block per value, each recording its rank + 1. */
static void observer_code(struct lx *x, struct lx_out *o)
{
	char nm[32], vt[48];

	for (int k = 0; k < x->norder; k++) {
		int i = x->order[k];
		struct lx_loc *l = &x->loc[i];

		l->reg = o->reg[1]++;
		if (l->insn) {
			init_item(o, 1, "1:X%d=0;", l->reg);
			for (int j = 0; j < l->nval; j++) {
				if (!j)
					ins(o, 1, "m%d: NOP", i);
				else
					ins(o, 1, "B e%d", i);
				ins(o, 1, "MOV W%d,#%d", l->reg, j + 1);
			}
			ins(o, 1, "e%d:", i);
			continue;
		}
		if (l->dep >= 0) {
			ins(o, 1, "LDR %c%d,[X%d]", l->half ? 'W' : 'X', l->reg, x->loc[l->dep].reg);
			continue;
		}
		int a = o->reg[1]++;

		loc_name(x, i, nm, sizeof(nm));
		init_item(o, 1, "1:X%d=%s;", a, nm);
		ins(o, 1, "LDR %c%d,[X%d]", l->half ? 'W' : 'X', l->reg, a);
	}
	(void)vt;
}

static void write_test(struct lx *x, struct world *pw, FILE *f, const char *name,
		       const struct litmus_export_opts *opts, int fixed)
{
	struct lx_out *o = calloc(1, sizeof(*o));
	int areg[LX_LOCS], vreg[LX_LOCS][LX_VALS], any = 0;
	char vt[48], msg[200];
	const struct exec_config *xc = &x->w->cfg.exec;

	if (!o)
		return;
	memset(areg, -1, sizeof(areg));
	memset(vreg, -1, sizeof(vreg));
	o->f = f;
	observer_code(x, o);
	for (size_t i = 0; i < pw->nplans; i++) {
		const struct plan *p = &pw->plans[i].plan;
		int touches = 0;

		for (size_t k = 0; k < p->n && !touches; k++)
			for (int l = 0; l < x->nloc; l++)
				touches |= (p->steps[k].op == PLAN_WRITE_INSN ||
					    p->steps[k].op == PLAN_WRITE_DATA64) &&
					   p->steps[k].addr ==
						   (x->loc[l].half == 2 ? x->loc[l].addr - 4
									: x->loc[l].addr);
		if (touches)
			patcher(x, o, p, areg, vreg, &any);
	}
	snprintf(msg, sizeof(msg), "%s", x->msg);
	for (char *c = msg; *c; c++)
		if (*c == '"')
			*c = '\'';
	fprintf(f, "AArch64 %s%s\n", name, fixed ? "+fixed" : "");
	fprintf(f, "\"%s%s cpu%d: %s\"\n", fixed ? "the corrected plans on the observer of " : "",
		x->kind, x->cpu, msg);
	fprintf(f, "Variant=ifetch\n");
	if (xc->dic || xc->idc)
		fprintf(f, "CacheType=%s\n", xc->dic ? "DIC" : "IDC");
	fprintf(f, "(* %s *)\n", opts->cmd ? opts->cmd : "ftv");
	fprintf(f, "{\n  %s\n  %s\n", o->init[0], o->init[1]);
	for (int i = 0; i < x->nloc; i++) {
		const struct lx_loc *l = &x->loc[i];

		if (l->ptr < 0)
			continue;
		val_text(x, i, 0, vt, sizeof(vt));
		fprintf(f, "  [x%d]=%s;\n", i, vt);
	}
	fprintf(f, "}\n");
	int w0 = 4, w1 = 4;

	for (int k = 0; k < o->ncode[0]; k++)
		if ((int)strlen(o->code[0][k]) > w0)
			w0 = (int)strlen(o->code[0][k]);
	for (int k = 0; k < o->ncode[1]; k++)
		if ((int)strlen(o->code[1][k]) > w1)
			w1 = (int)strlen(o->code[1][k]);
	fprintf(f, " %-*s | %-*s ;\n", w0, "P0", w1, "P1");
	for (int k = 0; k < o->ncode[0] || k < o->ncode[1]; k++)
		fprintf(f, " %-*s | %-*s ;\n", w0, k < o->ncode[0] ? o->code[0][k] : "", w1,
			k < o->ncode[1] ? o->code[1][k] : "");
	fprintf(f, "exists (");
	for (int k = 0; k < x->norder; k++) {
		const struct lx_loc *l = &x->loc[x->order[k]];

		if (l->insn)
			snprintf(vt, sizeof(vt), "%d", l->seen + 1);
		else
			val_text(x, x->order[k], l->seen, vt, sizeof(vt));
		fprintf(f, "%s1:X%d=%s", k ? " /\\ " : "", l->reg, vt);
	}
	fprintf(f, ")\n");
	free(o);
}

static int write_file(struct lx *x, struct world *pw, const char *path,
		      const struct litmus_export_opts *opts, int fixed, struct ftv_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return ftv_errf(err, "%s: cannot write", path);
	write_test(x, pw, f, opts->name, opts, fixed);
	if (fclose(f))
		return ftv_errf(err, "%s: cannot write", path);
	return 0;
}

int litmus_export(struct world *w, struct world *twin,
		  const struct litmus_export_opts *opts, struct ftv_err *err)
{
	struct lx *x = calloc(1, sizeof(*x));
	int ret = -1;

	if (!x)
		return ftv_errf(err, "out of memory");
	x->w = w;
	if (find_violation(x, err) || observer(x, err))
		goto out;
	/* the twin's values get their ranks too, so both tests are written
	 * with the same table */
	for (int i = 0; twin && i < x->nloc; i++)
		if (add_plan_vals(&x->loc[i], twin) < 0) {
			ftv_errf(err, "a location takes more than %d values", LX_VALS);
			goto out;
		}
	if (write_file(x, w, opts->path, opts, 0, err) ||
	    (opts->fixed_path && twin &&
	     write_file(x, twin, opts->fixed_path, opts, 1, err)))
		goto out;
	ret = 0;
out:
	free(x);
	return ret;
}
