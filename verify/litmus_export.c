/* A violation as a herd7 litmus test (litmus_export.h): the locations
 * and the observer from the recorded execution, the patcher's thread from
 * the plans. */
#include "verify/litmus_export.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/aspace.h"
#include "verify/litmus_export_int.h"
#include "verify/world_int.h"

/* The bytes [addr, addr + size) a step stores to: a write, or a free,
 * which the test makes a store of the poison (the executor's xm_poison:
 * POISON_FREE over data, include/linux/poison.h; zero words over text,
 * UDF #0). 0 for a step that stores nothing. */
static uint64_t step_span(const struct plan_step *s, uint64_t *addr)
{
	*addr = s->addr;
	return s->op == PLAN_WRITE_INSN ? 4 : s->op == PLAN_WRITE_DATA64 ? 8
		: s->op == PLAN_FREE ? s->len : 0;
}

/* 1 if a step of one of w's plans writes (or frees) the bytes [a, a + n);
 * run: of a plan the run submitted (not one settled before the CPUs
 * started: world_ops.c's ids below -1). */
static int plan_writes(const struct world *w, uint64_t a, uint64_t n, int run)
{
	for (size_t i = 0; i < w->nplans; i++) {
		if (run && w->plans[i].id < 0)
			continue;
		const struct plan *p = &w->plans[i].plan;

		for (size_t k = 0; k < p->n; k++) {
			uint64_t sa, sz = step_span(&p->steps[k], &sa);

			if (sz && sa < a + n && a < sa + sz)
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
			x->step = x->found = v[i].step;
			x->kind = exec_viol_name(v[i].kind);
			x->msg = v[i].msg;
			x->vaddr = v[i].addr;
			return 0;
		}
	for (size_t i = 0; i < world_nviolations(x->w); i++) {
		const struct world_violation *wv = world_violation(x->w, i);

		if (wv->cpu >= 0) {
			x->cpu = wv->cpu;
			x->step = wv->step;
			x->found = wv->found;
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

/* Every value an update of w writes to l, in plan order. */
static int add_plan_vals(struct lx_loc *l, const struct world *w)
{
	for (size_t i = 0; i < w->nplans; i++) {
		const struct plan *p = &w->plans[i].plan;
		uint64_t v;

		for (size_t k = 0; k < p->n; k++)
			if (lx_step_value(l, &p->steps[k], &v) && lx_add_val(l, v) < 0)
				return -1;
	}
	return 0;
}

/* 1 if the CPU saw, somewhere, an older value than the last pw's plans
 * write there: else every observation is the newest, an outcome every
 * order of the stores allows. */
static int saw_older(const struct lx *x, const struct world *pw)
{
	for (int k = 0; k < x->norder; k++) {
		const struct lx_loc *l = &x->loc[x->order[k]];
		int last = 0;
		uint64_t val;

		for (size_t i = 0; i < pw->nplans; i++) {
			const struct plan *p = &pw->plans[i].plan;

			for (size_t j = 0; j < p->n; j++)
				if (lx_step_value(l, &p->steps[j], &val))
					for (int v = 0; v < l->nval; v++)
						if (l->val[v] == val)
							last = v;
		}
		if (l->seen != last)
			return 1;
	}
	return 0;
}

/* 1 if the CPU saw, somewhere, a value the corrected plans never write
 * there (nor was it the first): the mutant's wrong word or literal, an
 * outcome the twin cannot produce whatever the order. */
static int twin_lacks(const struct lx *x, const struct world *twin)
{
	for (int k = 0; twin && k < x->norder; k++) {
		const struct lx_loc *l = &x->loc[x->order[k]];
		int written = !l->seen;
		uint64_t v;

		for (size_t i = 0; i < twin->nplans && !written; i++)
			for (size_t j = 0; j < twin->plans[i].plan.n; j++)
				written |= lx_step_value(l, &twin->plans[i].plan.steps[j], &v) &&
					   v == l->val[l->seen];
		if (!written)
			return 1;
	}
	return 0;
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
	lx_add_val(l, lx_part(l, first));
	if (add_plan_vals(l, x->w) < 0 || (l->seen = lx_add_val(l, lx_part(l, seen))) < 0)
		return ftv_errf(err, "a location takes more than %d values", LX_VALS);
	x->order[x->norder++] = x->nloc++;
	return 0;
}

/* 1 if the violation is a fetch of text a plan of the run freed that no
 * observation of the CPU records. */
static int freed_fetch(const struct lx *x, const struct exec_obs *ob, size_t n)
{
	int freed = 0;

	for (size_t i = 0; i < x->w->nplans; i++) {
		const struct plan *p = &x->w->plans[i].plan;

		for (size_t k = 0; k < p->n; k++)
			freed |= p->steps[k].op == PLAN_FREE && x->vaddr >= p->steps[k].addr &&
				 x->vaddr < p->steps[k].addr + p->steps[k].len;
	}
	for (size_t i = 0; freed && i < n; i++)
		if (ob[i].cpu == x->cpu && ob[i].addr == (x->vaddr & ~3ull))
			return 0;
	return freed;
}

/* The record of the twin's write of the word the CPU fetched at addr
 * (the value it fetched), or -1. */
static int twin_rec(const struct world *twin, uint64_t addr, uint64_t val)
{
	for (size_t i = 0; i < twin->nplans; i++)
		for (size_t k = 0; k < twin->plans[i].plan.n; k++) {
			const struct plan_step *s = &twin->plans[i].plan.steps[k];

			if (s->op == PLAN_WRITE_INSN && s->addr == addr && s->rec >= 0 &&
			    (uint32_t)s->new == (uint32_t)val)
				return s->rec;
		}
	return -1;
}

/* The CPU went wrong through a location only the corrected plans write
 * during the run (skip-literal-on-modify never rewrites the ops literal,
 * written once by a plan settled before the CPUs started): the run has no
 * event of its load (the executor records loads of locations its plans
 * write), but its value is certain: no store of the run wrote it, so
 * every load of it read what memory holds. The CPU's last fetch, up
 * to the check that found the violation, of a word the twin writes with
 * the value it fetched (the call: BL ftrace_caller) is the record's
 * site; the twin's 64-bit stores of that record where the run's plans
 * never write are what the trampoline loads through it (the ops literal:
 * ftrace_caller's `bic x11, x30, 0x7; ldr x11, [x11, #-(4 *
 * AARCH64_INSN_SIZE)]`, arch/arm64/kernel/entry-ftrace.S), each read
 * with the value memory holds. 0 with none found (nothing added). */
static int twin_loads(struct lx *x, const struct exec_obs *ob, size_t n, struct ftv_err *err)
{
	int rec = -1;

	for (size_t i = n; x->twin && i-- > 0 && rec < 0;)
		if (ob[i].cpu == x->cpu && ob[i].kind == EXEC_OBS_FETCH && ob[i].step <= x->found)
			rec = twin_rec(x->twin, ob[i].addr, ob[i].val);
	for (size_t i = 0; rec >= 0 && i < x->twin->nplans; i++)
		for (size_t k = 0; k < x->twin->plans[i].plan.n; k++) {
			const struct plan_step *s = &x->twin->plans[i].plan.steps[k];
			uint64_t v;

			/* (a misaligned literal is no record of the corrected
			 * backend's: ftrace_call_adjust() skips its site) */
			int dup = 0;

			for (int l = 0; l < x->nloc; l++)
				dup |= x->loc[l].addr == s->addr;
			if (dup || s->op != PLAN_WRITE_DATA64 || s->rec != rec || (s->addr & 7) ||
			    plan_writes(x->w, s->addr, 8, 1) || sim_read64(x->w->as, s->addr, &v))
				continue;
			if (new_loc(x, s->addr, 0, 0, v, v, err))
				return -1;
			x->twin_obs = 1;
		}
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

	if (freed_fetch(x, ob, n)) {
		/* the CPU ran a word of freed text (returned into a freed
		 * trampoline): that fetch is its violation, the word not
		 * watched, so not among the observations; its value before the
		 * free is the live instruction, whatever it was */
		if (new_loc(x, x->vaddr & ~3ull, 1, 0, ~0ull, lx_poison(1), err))
			return -1;
		return 0;
	}
	for (size_t i = n; i-- > 0 && npick < LX_OBS;) {
		const struct exec_obs *o = &ob[i];
		int dup = 0;

		if (o->cpu != x->cpu || o->step > x->step ||
		    !plan_writes(x->w, o->addr, o->kind == EXEC_OBS_FETCH ? 4 : 8, 0))
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
		uint64_t first = lx_first_value(x->w->ex, o->addr, 0);

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
	if (!x->nloc && twin_loads(x, ob, n, err))
		return -1;
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

/* A fetch of a word while it was rewritten between two instructions
 * that are not a concurrent-modification-safe pair (Arm ARM B2.2.5,
 * CMODX): any behaviour of either, or of neither, may follow. herd7's
 * ifetch model writes B and NOP only and has no such rule; what it can
 * judge is the concurrency itself: the CPU fetched the word the plans
 * write while the patcher wrote it, so the nearest outcome is the CPU
 * executing the new word (the last the updates write there) before the
 * point the corrected sequence makes it wait for (stop_machine()'s
 * rendezvous), or a word the corrected plans never write live at all
 * (MOV X9, LR written by ftrace_init_nop() at boot, not at make_call). */
static void cmodx_outcome(struct lx *x)
{
	for (int k = 0; k < x->norder; k++) {
		struct lx_loc *l = &x->loc[x->order[k]];
		uint64_t v;

		for (size_t i = 0; l->insn && i < x->w->nplans; i++)
			for (size_t j = 0; j < x->w->plans[i].plan.n; j++)
				if (lx_step_value(l, &x->w->plans[i].plan.steps[j], &v))
					l->seen = lx_add_val(l, v);
	}
}

/* 1 if a plan of w frees a location of the test. */
static int frees_a_loc(const struct lx *x, const struct world *w)
{
	uint64_t v;

	for (size_t i = 0; w && i < w->nplans; i++)
		for (size_t k = 0; k < w->plans[i].plan.n; k++)
			for (int l = 0; l < x->nloc; l++)
				if (w->plans[i].plan.steps[k].op == PLAN_FREE && !x->loc[l].dead &&
				    lx_step_value(&x->loc[l], &w->plans[i].plan.steps[k], &v))
					return 1;
	return 0;
}

/* Why the corrected plans on this observer make no test that tells them
 * apart by the memory model, or NULL. */
static const char *no_content(const struct lx_out *m, const struct lx_out *t)
{
	if (!memcmp(m->code, t->code, sizeof(m->code)) && !strcmp(m->init[0], t->init[0]) &&
	    !memcmp(m->ncode, t->ncode, sizeof(m->ncode)))
		return "the corrected plans make the same stores, barriers and cache "
		       "maintenance on these locations: they differ in steps with no "
		       "memory event (waits, frees, locks, stop_machine)";
	/* (a word the corrected plans never write, the wrong word of the
	 * mutant, is kept: the twin cannot produce the outcome, Forbidden
	 * because the value never appears, as the mutant's may be certain:
	 * a wrong word, not a wrong order, still a counterexample herd7
	 * judges) */
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
	x->twin = twin;
	if (w->ad->arch != FTV_ARCH_ARM64) {
		/* (herd7 -variant ifetch is AArch64's model) */
		ftv_errf(err, "the tests are AArch64 ones; this world is %s's",
			 ftv_arch_name(w->ad->arch));
		goto out;
	}
	if (find_violation(x, err)) {
		/* no CPU's: two updaters' race (ftrace_bug), if it is one */
		ret = lx_race_export(w, twin, opts->path, opts->fixed_path, opts->name, opts->cmd,
				     err);
		goto out;
	}
	if (observer(x, err))
		goto out;
	/* (a load reconstructed from the twin's plans: the CPU called after
	 * the update returned, the count check's "enabled throughout") */
	x->done = x->twin_obs || !strcmp(x->kind, "not-visible");
	/* the twin's values get their ranks too, so both tests are written
	 * with the same table */
	for (int i = 0; twin && i < x->nloc; i++)
		if (add_plan_vals(&x->loc[i], twin) < 0) {
			ftv_errf(err, "a location takes more than %d values", LX_VALS);
			goto out;
		}
	drop_constant(x);
	/* the waits of the plans that write the test's locations: a grace
	 * period's or a reference's when one of them frees one (they order
	 * nothing else of the test's), stop_machine()'s when only one of
	 * the two sequences makes the rendezvous (the same rendezvous in
	 * both orders nothing the mutant changed) */
	int hs[2][LX_NHS] = { { 0 } };

	for (int t = 0; t < 2; t++) {
		struct world *pw = t ? twin : w;
		int sync = 0;

		for (size_t i = 0; pw && i < pw->nplans; i++)
			lx_touches(x, &pw->plans[i].plan, &sync, hs[t]);
	}
	for (int h = 0; h < LX_NHS; h++)
		x->hs[h] = h == LX_SM ? hs[0][h] != hs[1][h] : hs[0][h] || hs[1][h];
	if (!frees_a_loc(x, w) && !frees_a_loc(x, twin))
		x->hs[LX_GP] = x->hs[LX_REF] = 0;
	if (!strcmp(x->kind, "cmodx"))
		cmodx_outcome(x);
	if (twin)
		lx_build(x, twin, &o[1]);
	lx_build(x, w, &o[0]);
	if (twin && (why = no_content(&o[0], &o[1]))) {
		ftv_errf(err, "no memory-model outcome: %s", why);
		goto out;
	}
	if (!x->hs[LX_GP] && !x->hs[LX_REF] && !x->hs[LX_SM] && !saw_older(x, w) &&
	    !twin_lacks(x, twin) && !(x->twin_obs && saw_older(x, twin))) {
		/* (with a handshake, the outcome is the newest value read too
		 * early: before the wait the plan made for the CPU; a load
		 * reconstructed from the twin: a value older than the twin's
		 * last there, read after the update returned) */
		ftv_errf(err, "cpu%d saw, at every location it observed, the last value the "
			 "updates write there: no older value, no memory-model outcome", x->cpu);
		goto out;
	}
	ret = lx_write(x, &o[0], opts->path, opts->name, opts->cmd, 0, err) ||
			      (opts->fixed_path && twin &&
			       lx_write(x, &o[1], opts->fixed_path, opts->name, opts->cmd, 1, err))
		      ? -1
		      : 0;
out:
	free(o);
	free(x);
	return ret;
}
