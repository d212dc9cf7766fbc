/* The text of a --litmus test (litmus_export.h): the patcher's thread
 * from the plans, the observer's from the derived locations, the
 * handshakes of the waits, herd7's syntax. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "verify/litmus_export_int.h"
#include "verify/world_int.h"

static const char *const lx_hs_name[LX_NHS] = { "cs", "ref", "stop" };


void lx_init_item(struct lx_out *o, int t, const char *fmt, ...)
{
	size_t l = strlen(o->init[t]);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->init[t] + l, sizeof(o->init[t]) - l, fmt, ap);
	va_end(ap);
	l = strlen(o->init[t]);
	snprintf(o->init[t] + l, sizeof(o->init[t]) - l, " ");
}

void lx_ins(struct lx_out *o, int t, const char *fmt, ...)
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
		lx_ins(o, 0, "DSB ISH");
	else if (*pend & LX_DMB)
		lx_ins(o, 0, "DMB ISH");
	if (*pend & LX_ISB)
		lx_ins(o, 0, "ISB");
	*pend = 0;
}

struct lx_p0 {
	int areg[LX_LOCS], vreg[LX_LOCS][LX_VALS];
	int any, pend;
	int hreg[LX_NHS];   /* the handshake flags' address registers */
	int waited[LX_NHS]; /* the plans wait on the flag somewhere */
};

/* An update's wait for the observer: P0 reads the handshake flag P1
 * clears with release when it leaves its read-side critical section
 * (LX_GP) or drops its reference (LX_REF), and `exists` requires it to
 * have read 0. The read is an acquire: what the plan does after the
 * wait (the free) is ordered after it. synchronize_rcu_tasks() starts
 * and ends with a full barrier (kernel/rcu/tasks.h, rcu_tasks_wait_gp()
 * and the smp_mb()s of rcu_tasks_postscan()/rcu_tasks_postgp(): "Enforce
 * full grace-period ordering"): a DMB ISH before the read. */
static void p0_wait(struct lx_out *o, struct lx_p0 *z, int h)
{
	flush_barriers(o, &z->pend);
	if (z->hreg[h] < 0) {
		z->hreg[h] = o->reg[0]++;
		lx_init_item(o, 0, "0:X%d=%s;", z->hreg[h], lx_hs_name[h]);
	}
	if (h == LX_GP)
		lx_ins(o, 0, "DMB ISH");
	if (o->nw < LX_WAITS)
		o->wreg[o->nw++] = o->reg[0];
	lx_ins(o, 0, "LDAR W%d,[X%d]", o->reg[0]++, z->hreg[h]);
	z->waited[h] = z->any = 1;
}

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
	lx_init_item(o, 0, "0:X%d=%s;", *reg, t);
}

/* P0: the steps of p on the locations, in order; a location's address
 * and value registers are allocated as they are first used. */
static void patcher(struct lx *x, struct lx_out *o, const struct plan *p, struct lx_p0 *z)
{
	for (size_t k = 0; k < p->n; k++) {
		const struct plan_step *s = &p->steps[k];
		int wr = s->op == PLAN_WRITE_INSN || s->op == PLAN_WRITE_DATA64 ||
			 s->op == PLAN_FREE;
		uint64_t v;

		/* (a barrier before the first event orders nothing of the
		 * test's) */
		if (s->op == PLAN_DSB || s->op == PLAN_DMB || s->op == PLAN_ISB) {
			if (z->any)
				z->pend |= s->op == PLAN_DSB ? LX_DSB : s->op == PLAN_DMB ? LX_DMB
											: LX_ISB;
			continue;
		}
		int h = s->op == PLAN_QUIESCE ? LX_GP : s->op == PLAN_WAIT_ZERO ? LX_REF
			: s->op == PLAN_STOP_MACHINE ? LX_SM : -1;

		if (h >= 0 && x->hs[h]) {
			p0_wait(o, z, h);
			continue;
		}
		if (!wr && s->op != PLAN_CACHE_CLEAN && s->op != PLAN_ICACHE_INVAL)
			/* locks, stop_machine, the patch window, the IPIs (the
			 * observer's ISB): no P0 event */
			continue;
		for (int i = 0; i < x->nloc; i++) {
			struct lx_loc *l = &x->loc[i];
			uint64_t len = s->len ? s->len : 1;

			if (l->dead || (wr ? !lx_step_value(l, s, &v)
					   : !l->insn || l->addr < s->addr ||
						     l->addr >= s->addr + len))
				continue;
			flush_barriers(o, &z->pend);
			p0_reg(x, o, &z->areg[i], i, -1);
			z->any = 1;
			if (!wr) {
				lx_ins(o, 0, "%s,X%d", s->op == PLAN_CACHE_CLEAN ? "DC CVAU" : "IC IVAU",
				    z->areg[i]);
				continue;
			}
			int j = lx_add_val(l, v);

			if (j < 0)
				continue;
			p0_reg(x, o, &z->vreg[i][j], i, j);
			lx_ins(o, 0, "STR %c%d,[X%d]", l->insn || l->half ? 'W' : 'X', z->vreg[i][j],
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
	int hs_reg[LX_NHS] = { -1, -1, -1 }, zero = -1;

	if (x->done) {
		x->done_reg = o->reg[1]++;
		int a = o->reg[1]++;

		lx_init_item(o, 1, "1:X%d=done;", a);
		/* a load reconstructed from the twin (twin_obs): the call
		 * began after the update returned, whose DSB ISH completed
		 * its stores; herd7 has no real time, so the read of the
		 * return is an acquire (the catalogue's MP+dmb+acq), which
		 * orders the CPU's later loads after it */
		lx_ins(o, 1, "%s W%d,[X%d]", x->twin_obs ? "LDAR" : "LDR", x->done_reg, a);
		if (sync) {
			lx_ins(o, 1, "CBNZ W%d,sync", x->done_reg);
			lx_ins(o, 1, "sync: ISB");
		}
	}
	for (int h = 0; h < LX_NHS; h++)
		if (x->hs[h]) {
			hs_reg[h] = o->reg[1]++;
			lx_init_item(o, 1, "1:X%d=%s;", hs_reg[h], lx_hs_name[h]);
		}
	for (int h = LX_REF; h <= LX_SM; h++)
		if (x->hs[h])
			/* the reference P1 took before its first access
			 * (__bpf_tramp_enter(): percpu_ref_get(),
			 * kernel/bpf/trampoline.c); P1 running, not yet at its
			 * stop point */
			lx_init_item(o, 2, "%s=1;", lx_hs_name[h]);
	if (x->hs[LX_GP]) {
		/* entering the read-side critical section: for RCU Tasks, the
		 * task runs, not voluntarily switched out since the grace
		 * period's scan (rcu_tasks_pertask(), check_holdout_task():
		 * kernel/rcu/tasks.h); the switch that made it run is a full
		 * barrier (smp_mb__after_spinlock() in __schedule(),
		 * kernel/sched/core.c) */
		int one = o->reg[1]++;

		lx_init_item(o, 1, "1:X%d=1;", one);
		lx_ins(o, 1, "STR W%d,[X%d]", one, hs_reg[LX_GP]);
		lx_ins(o, 1, "DMB ISH");
	}
	for (int k = 0; k < x->norder; k++) {
		int i = x->order[k];
		struct lx_loc *l = &x->loc[i];

		l->reg = o->reg[1]++;
		if (l->insn) {
			lx_init_item(o, 1, "1:X%d=0;", l->reg);
			for (int j = 0; j < l->nval; j++) {
				if (!j)
					lx_ins(o, 1, "m%d: NOP", i);
				else
					lx_ins(o, 1, "B e%d", i);
				lx_ins(o, 1, "MOV W%d,#%d", l->reg, j + 1);
			}
			lx_ins(o, 1, "e%d:", i);
			continue;
		}
		int a = o->reg[1]++;

		loc_name(x, i, nm, sizeof(nm));
		lx_init_item(o, 1, "1:X%d=%s;", a, nm);
		if (l->dep >= 0) {
			/* the field at an address computed from the pointer:
			 * herd's address dependency (the catalogue's
			 * EOR; LDR [Xa,Wt,SXTW]), its locations being whole */
			int t = o->reg[1]++;

			lx_ins(o, 1, "EOR W%d,W%d,W%d", t, x->loc[l->dep].reg, x->loc[l->dep].reg);
			lx_ins(o, 1, "LDR %c%d,[X%d,W%d,SXTW]", l->half ? 'W' : 'X', l->reg, a, t);
			continue;
		}
		lx_ins(o, 1, "LDR %c%d,[X%d]", l->half ? 'W' : 'X', l->reg, a);
	}
	/* leaving the critical section (the task's next voluntary switch, a
	 * quiescent state for RCU Tasks), dropping the reference
	 * (__bpf_tramp_exit(): percpu_ref_put()): stores with release, after
	 * every access of P1 (a fetch included: herd's aarch64.cat orders an
	 * instruction's fetch before the accesses po-after it) */
	for (int h = 0; h < LX_NHS; h++)
		if (x->hs[h]) {
			if (zero < 0) {
				zero = o->reg[1]++;
				lx_init_item(o, 1, "1:X%d=0;", zero);
			}
			lx_ins(o, 1, "STLR W%d,[X%d]", zero, hs_reg[h]);
		}
}

/* 1 if p writes or frees a location of the test; then *sync if it holds
 * the IPI, hs[] the handshakes it waits on. */
int lx_touches(const struct lx *x, const struct plan *p, int *sync, int *hs)
{
	int t = 0;
	uint64_t v;

	for (size_t k = 0; k < p->n; k++)
		for (int l = 0; l < x->nloc; l++)
			t |= !x->loc[l].dead && lx_step_value(&x->loc[l], &p->steps[k], &v);
	for (size_t k = 0; t && k < p->n; k++) {
		*sync |= p->steps[k].op == PLAN_SYNC_ALL;
		hs[LX_GP] |= p->steps[k].op == PLAN_QUIESCE;
		hs[LX_REF] |= p->steps[k].op == PLAN_WAIT_ZERO;
		hs[LX_SM] |= p->steps[k].op == PLAN_STOP_MACHINE;
	}
	return t;
}

/* Both threads of the test with pw's plans. */
void lx_build(struct lx *x, struct world *pw, struct lx_out *o)
{
	struct lx_p0 z;
	int sync = 0, hs[LX_NHS] = { 0 };

	memset(o, 0, sizeof(*o));
	memset(&z, -1, sizeof(z));
	z.any = z.pend = 0;
	memset(z.waited, 0, sizeof(z.waited));
	for (size_t i = 0; i < pw->nplans; i++)
		lx_touches(x, &pw->plans[i].plan, &sync, hs);
	observer_code(x, o, sync);
	for (size_t i = 0; i < pw->nplans; i++)
		if (lx_touches(x, &pw->plans[i].plan, &sync, hs))
			patcher(x, o, &pw->plans[i].plan, &z);
	if (x->done) {
		/* the update returned */
		int a = o->reg[0]++, v = o->reg[0]++;

		flush_barriers(o, &z.pend);
		lx_init_item(o, 0, "0:X%d=done; 0:X%d=1;", a, v);
		lx_ins(o, 0, "STR W%d,[X%d]", v, a);
	}
	/* plans that never wait read the flag when they return: the
	 * condition is the same in both tests, and orders nothing of
	 * theirs */
	for (int h = 0; h < LX_NHS; h++)
		if (x->hs[h] && !z.waited[h])
			p0_wait(o, &z, h);
	flush_barriers(o, &z.pend);
}

/* The two threads' columns. */
void lx_print_code(const struct lx_out *o, FILE *f)
{
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
}

static void print_test(struct lx *x, const struct lx_out *o, FILE *f,
		       const char *name, const char *cmd, int fixed)
{
	char vt[48], msg[200];
	const struct exec_config *xc = &x->w->cfg.exec;

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
	fprintf(f, "(* exported by ftv from %s, mutant %s *)\n", cmd ? cmd : name,
		fixed ? "none" : x->w->cfg.mutant_name ? x->w->cfg.mutant_name : "none");
	fprintf(f, "{\n");
	if (o->init[2][0])
		fprintf(f, "  %s\n", o->init[2]);
	fprintf(f, "  %s\n  %s\n", o->init[0], o->init[1]);
	fprintf(f, "}\n");
	lx_print_code(o, f);
	fprintf(f, "exists (");
	for (int k = 0; k < o->nw; k++)
		fprintf(f, "0:X%d=0 /\\ ", o->wreg[k]);
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

int lx_write(struct lx *x, const struct lx_out *o, const char *path,
		      const char *name, const char *cmd, int fixed, struct ftv_err *err)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return ftv_errf(err, "%s: cannot write", path);
	print_test(x, o, f, name, cmd, fixed);
	if (fclose(f))
		return ftv_errf(err, "%s: cannot write", path);
	return 0;
}

