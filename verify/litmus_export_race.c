/* Two updaters racing over one site as a herd7 test (--litmus of a
 * violation the patcher made alone: direct-batch-unlocked).
 *
 * update_ftrace_direct_add()/_del() ran ftrace_update_ops() without
 * ftrace_lock before 3ebc98c1ae7e ("ftrace: Add missing ftrace_lock to
 * update_ftrace_direct_add/del", kernel/trace/ftrace.c), so another
 * updater's ftrace_replace_code() rewrote the same records at the same
 * time: its ftrace_modify_code() read the site (validate-before-write:
 * aarch64_insn_read() and the compare in ftrace_modify_code(),
 * arch/arm64/kernel/ftrace.c) expecting the word the batch writes, found
 * another, and ftrace_bug() killed ftrace. No CPU made an access; the two
 * patcher tasks are the test's threads:
 *
 *   P0, P1  the two updates whose plans write the site, in submission
 *        order (the order ftrace_lock serialises them in the corrected
 *        code): each its validating reads of the site (LDR: a step's
 *        validate, or a live step's read of it, plan_step.rsize/raddr)
 *        and its stores there (STR), in plan order. Barriers and cache
 *        maintenance leave the test: the outcome needs no reordering (it
 *        is sequentially consistent without the lock).
 *   lock P0's update ends with mutex_unlock(&ftrace_lock), a release
 *        (STLR lock=1); P1's begins with mutex_lock(), an acquire (LDAR
 *        lock) in the corrected sequence (the handshake: P1 enters its
 *        critical section after P0 left it, include/linux/mutex.h; the
 *        arm64 mutex fast path is an acquire cmpxchg and a release). The
 *        mutant's P1 takes no lock: it reads the flag when its update
 *        returns, ordering nothing of its own (the same `exists` in both).
 *   exists  P1 read lock=1 (P0's update was over) and the failing
 *        validation read the word it found in the run: Allowed to the
 *        unlocked updates, Forbidden to the serialised ones (message
 *        passing when the validator is P1, load buffering when P0).
 *
 * Values are ranks, as in the other tests (litmus_export.h): the site's
 * first word 0, then each word an update writes there. */
#include <stdio.h>
#include <string.h>

#include "verify/litmus_export.h"
#include "verify/litmus_export_int.h"
#include "verify/world_int.h"

/* The two plans (indices into pw->plans) of the run that write addr:
 * 0 if exactly two do. */
static int two_writers(const struct world *pw, uint64_t addr, size_t out[2])
{
	int n = 0;

	for (size_t i = 0; i < pw->nplans; i++) {
		const struct plan *p = &pw->plans[i].plan;
		int writes = 0;

		if (pw->plans[i].id < 0)
			continue; /* settled before the CPUs started */
		for (size_t k = 0; k < p->n; k++)
			writes |= p->steps[k].op == PLAN_WRITE_INSN && p->steps[k].addr == addr;
		if (writes && n++ < 2)
			out[n - 1] = i;
	}
	return n == 2 ? 0 : -1;
}

/* Thread t: plan p's reads and stores of the site; *fail the register of
 * its read expecting `expect` (the failing validation), when fail. */
static void updater(struct lx_out *o, int t, const struct plan *p, struct lx_loc *l,
		    uint64_t expect, int *fail)
{
	lx_init_item(o, t, "%d:X1=site;", t);
	o->reg[t] = 2;
	for (size_t k = 0; k < p->n; k++) {
		const struct plan_step *s = &p->steps[k];
		int wr = s->op == PLAN_WRITE_INSN && s->addr == l->addr;

		if ((wr && s->validate) || (s->rsize == 4 && s->raddr == l->addr)) {
			int r = o->reg[t]++;

			lx_ins(o, t, "LDR W%d,[X1]", r);
			if (fail && *fail < 0 && (uint32_t)(wr && s->validate ? s->old : s->rval) ==
						       (uint32_t)expect)
				*fail = r;
		}
		if (wr) {
			int r = o->reg[t]++;

			lx_init_item(o, t, "%d:X%d=%d;", t, r, lx_add_val(l, (uint32_t)s->new));
			lx_ins(o, t, "STR W%d,[X1]", r);
		}
	}
}

/* Both threads with pw's two plans at the site (validator: the thread
 * of the failing read, its register in *freg; fixed: P1 takes the lock):
 * 0, or -1 when pw has not exactly two. The lock is X9, P0's 1 to
 * release it X8, P1's read of it X8. */
static int build(const struct world *pw, uint64_t expect, struct lx_loc *l, int validator,
		 int fixed, struct lx_out *o, int *freg)
{
	size_t pl[2];

	if (two_writers(pw, l->addr, pl))
		return -1;
	memset(o, 0, sizeof(*o));
	*freg = -1;
	lx_init_item(o, 0, "0:X8=1; 0:X9=lock;");
	lx_init_item(o, 1, "1:X9=lock;");
	updater(o, 0, &pw->plans[pl[0]].plan, l, expect, validator == 0 ? freg : NULL);
	/* mutex_unlock(&ftrace_lock) when P0's update returns */
	lx_ins(o, 0, "STLR W8,[X9]");
	if (fixed)
		lx_ins(o, 1, "LDAR W8,[X9]");
	updater(o, 1, &pw->plans[pl[1]].plan, l, expect, validator == 1 ? freg : NULL);
	if (!fixed)
		lx_ins(o, 1, "LDR W8,[X9]");
	/* X2..X7 for the site's reads and values (X8, X9: the lock's), a
	 * rank for every value (LX_VALS) */
	return o->reg[0] > 8 || o->reg[1] > 8 || strstr(o->init[0], "=-1;") ||
			       strstr(o->init[1], "=-1;")
		       ? -1
		       : 0;
}

static int write_test(const struct world *w, const struct lx_out *o, const char *path,
		      const char *name, const char *cmd, const char *msg, int fixed,
		      int validator, int freg, int seen, struct ftv_err *err)
{
	FILE *f = fopen(path, "w");
	char m[200];

	if (!f)
		return ftv_errf(err, "%s: cannot write", path);
	snprintf(m, sizeof(m), "%s", msg);
	for (char *c = m; *c; c++)
		if (*c == '"')
			*c = '\'';
	fprintf(f, "AArch64 %s%s\n", name, fixed ? "+fixed" : "");
	fprintf(f, "\"%sftrace_bug: %s\"\n", fixed ? "the corrected plans (under ftrace_lock) of " : "",
		m);
	fprintf(f, "Variant=ifetch\n");
	fprintf(f, "(* exported by ftv from %s, mutant %s: two updaters, no CPU *)\n",
		cmd ? cmd : name,
		fixed ? "none" : w->cfg.mutant_name ? w->cfg.mutant_name : "none");
	fprintf(f, "{\n  %s\n  %s\n}\n", o->init[0], o->init[1]);
	lx_print_code(o, f);
	fprintf(f, "exists (1:X8=1 /\\ %d:X%d=%d)\n", validator, freg, seen);
	if (fclose(f))
		return ftv_errf(err, "%s: cannot write", path);
	return 0;
}

/* No test written (1), err saying why. */
static int no_test(struct ftv_err *err, const char *why)
{
	ftv_errf(err, "%s", why);
	return 1;
}

int lx_race_export(struct world *w, struct world *twin, const char *path,
		   const char *fixed_path, const char *name, const char *cmd,
		   struct ftv_err *err)
{
	const struct plan_step *bad;
	struct lx_loc l;
	struct lx_out o[2];
	size_t pl[2], tp[2];
	int validator = -1, freg[2] = { -1, -1 }, seen;
	const char *msg = "";

	if (!w->run.bug_seen)
		return 1; /* (err: find_violation's why, no CPU's violation) */
	bad = exec_plan_step(w->ex, w->run.bug_plan, w->run.bug_step);
	if (!bad || bad->op != PLAN_WRITE_INSN || two_writers(w, bad->addr, pl) ||
	    (twin && two_writers(twin, bad->addr, tp)))
		return no_test(err, "an update's validation failed with no second updater of "
				"the site: no race to export");
	for (int t = 0; t < 2; t++)
		if (w->plans[pl[t]].id == w->run.bug_plan)
			validator = t;
	if (validator < 0 || w->plans[pl[0]].agent == w->plans[pl[1]].agent)
		return no_test(err, "the failed validation is not one of two agents' updates "
				"of the site: no race to export");
	for (size_t i = 0; i < world_nviolations(w); i++)
		if (!strcmp(world_violation(w, i)->kind, "ftrace_bug")) {
			msg = world_violation(w, i)->msg;
			break;
		}
	memset(&l, 0, sizeof(l));
	l.addr = bad->addr;
	l.insn = 1;
	l.dep = -1;
	lx_add_val(&l, (uint32_t)lx_first_value(w->ex, bad->addr, 0));
	if (build(w, bad->old, &l, validator, 0, &o[0], &freg[0]) ||
	    (twin && build(twin, bad->old, &l, validator, 1, &o[1], &freg[1])))
		return no_test(err, "no test of the race: not two updates of the site in the "
				    "twin, or more reads, stores or values than the test holds");
	seen = lx_add_val(&l, (uint32_t)w->run.bug_found);
	if (seen < 0 || freg[0] < 0 || (twin && freg[1] < 0))
		return no_test(err, "no test of the race: the failing read is not in the plans");
	if (write_test(w, &o[0], path, name, cmd, msg, 0, validator, freg[0], seen, err) ||
	    (twin && fixed_path &&
	     write_test(w, &o[1], fixed_path, name, cmd, msg, 1, validator, freg[1], seen, err)))
		return -1;
	return 0;
}
