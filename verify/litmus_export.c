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
/* A load at p - LX_PTR_BELOW .. p + LX_PTR_SPAN after a load that
 * returned p reads a field of what p points to (or the header before it:
 * a filter table's count precedes its entries): an address dependency. */
#define LX_PTR_SPAN 0x200
#define LX_PTR_BELOW 0x10

struct lx_loc {
	uint64_t addr;
	int insn;           /* a fetched word (else a loaded location) */
	int half;           /* 0: whole; 1, 2: low, high 32 bits of a
			       misaligned 64-bit literal */
	uint64_t val[LX_VALS];
	int nval;           /* val[0] is the first value */
	int dep;            /* loaded through loc[dep]'s value (else -1) */
	int dead;           /* every value written is its first: no event */
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
	/* the violation is an old word run after its update returned: P1
	 * reads the flag `done` P0 sets when it does (in done_reg) */
	int done, done_reg;
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

/* 1 if the CPU saw, somewhere, an older value than the last w's plans
 * write there: else every observation is the newest, an outcome every
 * order of the stores allows. */
static int saw_older(const struct lx *x)
{
	for (int k = 0; k < x->norder; k++) {
		const struct lx_loc *l = &x->loc[x->order[k]];
		uint64_t base = l->half == 2 ? l->addr - 4 : l->addr;
		int last = 0;

		for (size_t i = 0; i < x->w->nplans; i++) {
			const struct plan *p = &x->w->plans[i].plan;

			for (size_t j = 0; j < p->n; j++) {
				const struct plan_step *s = &p->steps[j];

				if ((s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) &&
				    s->addr == base)
					for (int v = 0; v < l->nval; v++)
						if (l->val[v] == part(l, s->op == PLAN_WRITE_INSN
										? (uint32_t)s->new
										: s->new))
							last = v;
			}
		}
		if (l->seen != last)
			return 1;
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
	l->dep = -1;
	add_val(l, part(l, first));
	if (add_plan_vals(l, x->w) < 0 || (l->seen = add_val(l, part(l, seen))) < 0)
		return ftv_errf(err, "a location takes more than %d values", LX_VALS);
	x->order[x->norder++] = x->nloc++;
	return 0;
}

/* The violating CPU's last access to each location an update writes,
 * from its last fetch of such a word (the call the violation happened in)
 * to the violation, in the order it made them. */
static int observer(struct lx *x, struct ftv_err *err)
{
	size_t n, pick[LX_OBS];
	int npick = 0;
	const struct exec_obs *ob = exec_observations(x->w->ex, &n);

	for (size_t i = n; i-- > 0 && npick < LX_OBS;) {
		const struct exec_obs *o = &ob[i];
		int dup = 0;

		if (o->cpu != x->cpu || o->step > x->step ||
		    !plan_writes(x->w, o->addr, o->kind == EXEC_OBS_FETCH ? 4 : 8))
			continue;
		for (int k = 0; k < npick; k++)
			dup |= ob[pick[k]].addr == o->addr && ob[pick[k]].kind == o->kind;
		if (dup)
			continue;
		pick[npick++] = i;
		if (o->kind == EXEC_OBS_FETCH)
			break;
	}
	while (npick-- > 0) {
		const struct exec_obs *o = &ob[pick[npick]];
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
	 * returned (the nearest such pointer below it: a table allocated
	 * just after the struct pointing to it is the table's) */
	for (int i = 0; i < x->norder; i++) {
		struct lx_loc *b = &x->loc[x->order[i]];
		uint64_t best = 0;

		for (int j = 0; j < i && !b->insn; j++) {
			struct lx_loc *a = &x->loc[x->order[j]];
			uint64_t p = a->val[a->seen];

			if (!a->insn && !a->half && p > LX_PTR_BELOW && p > best &&
			    b->addr >= p - LX_PTR_BELOW && b->addr < p + LX_PTR_SPAN) {
				best = p;
				b->dep = x->order[j];
			}
		}
	}
	return 0;
}

/* A loaded location whose every value written, by the mutant's plans and
 * the twin's, is its first tells nothing of the order of the stores: it
 * leaves the test (its stores and its load). */
static void drop_constant(struct lx *x)
{
	int k = 0;

	for (int i = 0; i < x->nloc; i++)
		x->loc[i].dead = !x->loc[i].insn && x->loc[i].nval == 1;
	for (int i = 0; i < x->nloc; i++)
		if (x->loc[i].dep >= 0 && x->loc[x->loc[i].dep].dead)
			/* the pointer's value is always the same: its
			 * field's address is a constant */
			x->loc[i].dep = -1;
	for (int j = 0; j < x->norder; j++)
		if (!x->loc[x->order[j]].dead)
			x->order[k++] = x->order[j];
	x->norder = k;
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

/* Value j of location i as herd writes it: an instruction, or a number
 * (its rank). */
static void val_text(const struct lx *x, int i, int j, char *buf, size_t n)
{
	const struct lx_loc *l = &x->loc[i];

	if (l->insn) {
		if (j)
			snprintf(buf, n, "instr:\"B .+%d\"", 4 + 8 * j);
		else
			snprintf(buf, n, "NOP");
	} else {
		snprintf(buf, n, "%d", j);
	}
}

/* P0: the steps of p on the locations, in order; a location's address
 * and value registers are allocated as they are first used. */
/* Barriers between two events of the test: a run of them orders what a
 * DSB ISH orders if it holds one, else a DMB ISH; an ISB after it. */
enum { LX_DMB = 1, LX_DSB = 2, LX_ISB = 4 };

static void flush_barriers(struct lx_out *o, int *pend)
{
	if (*pend & LX_DSB)
		ins(o, 0, "DSB ISH");
	else if (*pend & LX_DMB)
		ins(o, 0, "DMB ISH");
	if (*pend & LX_ISB)
		ins(o, 0, "ISB");
	*pend = 0;
}

struct lx_p0 {
	int areg[LX_LOCS], vreg[LX_LOCS][LX_VALS];
	int any, pend;
};

static void p0_reg(struct lx *x, struct lx_out *o, int *reg, int i, int j)
{
	char t[48];

	if (*reg >= 0)
		return;
	*reg = o->reg[0]++;
	if (j < 0)
		loc_name(x, i, t, sizeof(t));
	else
		val_text(x, i, j, t, sizeof(t));
	init_item(o, 0, "0:X%d=%s;", *reg, t);
}

/* P0: the steps of p on the locations, in order; a location's address
 * and value registers are allocated as they are first used. */
static void patcher(struct lx *x, struct lx_out *o, const struct plan *p, struct lx_p0 *z)
{
	for (size_t k = 0; k < p->n; k++) {
		const struct plan_step *s = &p->steps[k];
		int wr = s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64;

		/* (a barrier before the first event orders nothing of the
		 * test's) */
		if (s->op == PLAN_DSB || s->op == PLAN_DMB || s->op == PLAN_ISB) {
			if (z->any)
				z->pend |= s->op == PLAN_DSB ? LX_DSB : s->op == PLAN_DMB ? LX_DMB
											: LX_ISB;
			continue;
		}
		if (!wr && s->op != PLAN_CACHE_CLEAN && s->op != PLAN_ICACHE_INVAL)
			/* locks, waits, frees, stop_machine, the patch window,
			 * the IPIs (the observer's ISB): no P0 event */
			continue;
		for (int i = 0; i < x->nloc; i++) {
			struct lx_loc *l = &x->loc[i];
			uint64_t base = l->half == 2 ? l->addr - 4 : l->addr;
			uint64_t len = s->len ? s->len : 1;

			if (l->dead || (wr ? s->addr != base
					   : !l->insn || l->addr < s->addr ||
						     l->addr >= s->addr + len))
				continue;
			flush_barriers(o, &z->pend);
			p0_reg(x, o, &z->areg[i], i, -1);
			z->any = 1;
			if (!wr) {
				ins(o, 0, "%s,X%d", s->op == PLAN_CACHE_CLEAN ? "DC CVAU" : "IC IVAU",
				    z->areg[i]);
				continue;
			}
			int j = add_val(l, part(l, s->op == PLAN_WRITE_INSN ? (uint32_t)s->new
									   : s->new));

			if (j < 0)
				continue;
			p0_reg(x, o, &z->vreg[i][j], i, j);
			ins(o, 0, "STR %c%d,[X%d]", l->insn || l->half ? 'W' : 'X', z->vreg[i][j],
			    z->areg[i]);
		}
	}
}

/* P1: each access in order; a fetched word is a label followed by one
 * block per value, each recording its rank + 1. A CPU that must not run
 * an old word once the update returned (not-visible) first reads the
 * flag P0 sets when it returns, and, when the plan holds the IPI
 * (PLAN_SYNC_ALL: kick_all_cpus_sync() in arch_jump_label_transform_apply(),
 * arch/arm64/kernel/jump_label.c), takes the context synchronisation the
 * IPI's exception gives as an ISB ordered after that read by CBNZ (herd's
 * aarch64.cat orders `ctrl; [ISB]`, as the catalogue's ctrl-isb tests). */
static void observer_code(struct lx *x, struct lx_out *o, int sync)
{
	char nm[32];

	if (x->done) {
		x->done_reg = o->reg[1]++;
		int a = o->reg[1]++;

		init_item(o, 1, "1:X%d=done;", a);
		ins(o, 1, "LDR W%d,[X%d]", x->done_reg, a);
		if (sync) {
			ins(o, 1, "CBNZ W%d,sync", x->done_reg);
			ins(o, 1, "sync: ISB");
		}
	}
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
		int a = o->reg[1]++;

		loc_name(x, i, nm, sizeof(nm));
		init_item(o, 1, "1:X%d=%s;", a, nm);
		if (l->dep >= 0) {
			/* the field at an address computed from the pointer:
			 * herd's address dependency (the catalogue's
			 * EOR; LDR [Xa,Wt,SXTW]), its locations being whole */
			int t = o->reg[1]++;

			ins(o, 1, "EOR W%d,W%d,W%d", t, x->loc[l->dep].reg, x->loc[l->dep].reg);
			ins(o, 1, "LDR %c%d,[X%d,W%d,SXTW]", l->half ? 'W' : 'X', l->reg, a, t);
			continue;
		}
		ins(o, 1, "LDR %c%d,[X%d]", l->half ? 'W' : 'X', l->reg, a);
	}
}

static int touches(const struct lx *x, const struct plan *p, int *sync)
{
	int t = 0;

	for (size_t k = 0; k < p->n; k++) {
		const struct plan_step *s = &p->steps[k];

		for (int l = 0; l < x->nloc; l++)
			t |= !x->loc[l].dead && (s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64) &&
			     s->addr == (x->loc[l].half == 2 ? x->loc[l].addr - 4 : x->loc[l].addr);
	}
	for (size_t k = 0; t && k < p->n; k++)
		*sync |= p->steps[k].op == PLAN_SYNC_ALL;
	return t;
}

/* Both threads of the test with pw's plans. */
static void build_out(struct lx *x, struct world *pw, struct lx_out *o)
{
	struct lx_p0 z;
	int sync = 0;

	memset(o, 0, sizeof(*o));
	memset(&z, -1, sizeof(z));
	z.any = z.pend = 0;
	for (size_t i = 0; i < pw->nplans; i++)
		touches(x, &pw->plans[i].plan, &sync);
	observer_code(x, o, sync);
	for (size_t i = 0; i < pw->nplans; i++)
		if (touches(x, &pw->plans[i].plan, &sync))
			patcher(x, o, &pw->plans[i].plan, &z);
	if (x->done) {
		/* the update returned */
		int a = o->reg[0]++, v = o->reg[0]++;

		flush_barriers(o, &z.pend);
		init_item(o, 0, "0:X%d=done; 0:X%d=1;", a, v);
		ins(o, 0, "STR W%d,[X%d]", v, a);
	}
	flush_barriers(o, &z.pend);
}

static void print_test(struct lx *x, const struct lx_out *o, FILE *f,
		       const struct litmus_export_opts *opts, int fixed)
{
	char vt[48], msg[200];
	const struct exec_config *xc = &x->w->cfg.exec;
	int w0 = 4, w1 = 4;

	snprintf(msg, sizeof(msg), "%s", x->msg);
	for (char *c = msg; *c; c++)
		if (*c == '"')
			*c = '\'';
	fprintf(f, "AArch64 %s%s\n", opts->name, fixed ? "+fixed" : "");
	fprintf(f, "\"%s%s cpu%d: %s\"\n", fixed ? "the corrected plans on the observer of " : "",
		x->kind, x->cpu, msg);
	fprintf(f, "Variant=ifetch\n");
	if (xc->dic || xc->idc)
		fprintf(f, "CacheType=%s\n", xc->dic ? "DIC" : "IDC");
	fprintf(f, "(* exported by ftv from %s, mutant %s *)\n", opts->cmd ? opts->cmd : opts->name,
		fixed ? "none" : x->w->cfg.mutant_name ? x->w->cfg.mutant_name : "none");
	fprintf(f, "{\n  %s\n  %s\n", o->init[0], o->init[1]);
	fprintf(f, "}\n");
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
	if (x->done)
		fprintf(f, "1:X%d=1 /\\ ", x->done_reg);
	for (int k = 0; k < x->norder; k++) {
		const struct lx_loc *l = &x->loc[x->order[k]];

		if (l->insn)
			snprintf(vt, sizeof(vt), "%d", l->seen + 1);
		else
			val_text(x, x->order[k], l->seen, vt, sizeof(vt));
		fprintf(f, "%s1:X%d=%s", k ? " /\\ " : "", l->reg, vt);
	}
	fprintf(f, ")\n");
}

static int write_file(struct lx *x, const struct lx_out *o, const char *path,
		      const struct litmus_export_opts *opts, int fixed, struct ftv_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return ftv_errf(err, "%s: cannot write", path);
	print_test(x, o, f, opts, fixed);
	if (fclose(f))
		return ftv_errf(err, "%s: cannot write", path);
	return 0;
}

/* Why the corrected plans on this observer make no test that tells them
 * apart by the memory model, or NULL. */
static const char *no_content(struct lx *x, const struct lx_out *m, const struct lx_out *t,
			      struct world *twin)
{
	if (!memcmp(m->code, t->code, sizeof(m->code)) && !strcmp(m->init[0], t->init[0]) &&
	    !memcmp(m->ncode, t->ncode, sizeof(m->ncode)))
		return "the corrected plans make the same stores, barriers and cache "
		       "maintenance on these locations: they differ in steps with no "
		       "memory event (waits, frees, locks, stop_machine)";
	for (int i = 0; i < x->nloc; i++) {
		struct lx_loc *l = &x->loc[i];
		int written = !l->seen;

		for (size_t p = 0; p < twin->nplans && !written; p++)
			for (size_t k = 0; k < twin->plans[p].plan.n; k++) {
				const struct plan_step *s = &twin->plans[p].plan.steps[k];

				written |= l->insn && s->op == PLAN_WRITE_INSN && s->addr == l->addr &&
					   (uint32_t)s->new == l->val[l->seen];
			}
		if (l->insn && !written)
			return "the corrected plans never write the instruction the CPU ran: "
			       "the bug is the word written, not the order of the writes";
	}
	return NULL;
}

int litmus_export(struct world *w, struct world *twin,
		  const struct litmus_export_opts *opts, struct ftv_err *err)
{
	struct lx *x = calloc(1, sizeof(*x));
	struct lx_out *o = calloc(2, sizeof(*o));
	const char *why;
	int ret = 1;

	if (!x || !o) {
		ret = ftv_errf(err, "out of memory");
		goto out;
	}
	x->w = w;
	if (w->ad->arch != FTV_ARCH_ARM64) {
		/* (herd7 -variant ifetch is AArch64's model) */
		ftv_errf(err, "the tests are AArch64 ones; this world is %s's",
			 ftv_arch_name(w->ad->arch));
		goto out;
	}
	if (find_violation(x, err) || observer(x, err))
		goto out;
	if (!strcmp(x->kind, "cmodx")) {
		/* herd's ifetch model writes B and NOP only, both of the
		 * concurrent-modification-safe set */
		ftv_errf(err, "cmodx: cpu%d fetched a word while it was rewritten between two "
			 "instructions that are not a concurrent-modification-safe pair (Arm "
			 "ARM B2.2.5): an outcome of the instructions' kind, not of the order "
			 "of memory events", x->cpu);
		goto out;
	}
	x->done = !strcmp(x->kind, "not-visible");
	/* the twin's values get their ranks too, so both tests are written
	 * with the same table */
	for (int i = 0; twin && i < x->nloc; i++)
		if (add_plan_vals(&x->loc[i], twin) < 0) {
			ftv_errf(err, "a location takes more than %d values", LX_VALS);
			goto out;
		}
	drop_constant(x);
	if (twin)
		build_out(x, twin, &o[1]);
	build_out(x, w, &o[0]);
	if (twin && (why = no_content(x, &o[0], &o[1], twin))) {
		ftv_errf(err, "no memory-model outcome: %s", why);
		goto out;
	}
	if (!saw_older(x)) {
		ftv_errf(err, "cpu%d saw, at every location it observed, the last value the "
			 "updates write there: no older value, no memory-model outcome", x->cpu);
		goto out;
	}
	ret = write_file(x, &o[0], opts->path, opts, 0, err) ||
			      (opts->fixed_path && twin &&
			       write_file(x, &o[1], opts->fixed_path, opts, 1, err))
		      ? -1
		      : 0;
out:
	free(o);
	free(x);
	return ret;
}
