/* The ftrace core model against a recording fake arch: accounting, the
 * unique-ops rule, trampolines, regs, quiescence and failures (CALL_OPS
 * scheme). */
#include "tests/test_ftrace_core_fake.h"
#include "tests/suite.h"
#include "patcher/ftrace_abi.h"

#include <stdlib.h>
#include <string.h>

static struct fake_world w;
static struct ftv_err err;

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	fw_init(&w, FW_CALL_OPS, 0);
}

static void teardown(void)
{
	fw_fini(&w);
}

#define OK(x) ck_assert_msg((x) == 0, "%s: %s", #x, err.msg)

static const struct ftrace_rec *rec(int f)
{
	return ftrace_core_rec(w.core, (size_t)fw_rec(&w, f));
}

static const struct fake_call *logged(enum fake_verb v, int f)
{
	int i = fw_find(&w, 0, v, w.ip[f]);

	ck_assert_msg(i >= 0, "no verb %d for f%d", v, f);
	return &w.fa.log[i];
}

START_TEST(ref_counts_follow_overlapping_filters)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);

	OK(ftrace_set_filter(w.core, a, "f0,f1", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, b, "f1, f2", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 2);
	ck_assert_uint_eq(logged(FV_CALL, 0)->lit, ftrace_ops_addr(a));
	ck_assert_uint_eq(logged(FV_CALL, 1)->new_target, FK_CALLER);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, b, &w.plan, &err));
	/* f1 now has two ops: same caller, list ops literal; f2 is new. */
	ck_assert_int_eq(w.fa.n, 2);
	ck_assert_uint_eq(logged(FV_MODIFY, 1)->lit, ftrace_core_list_ops(w.core));
	ck_assert_uint_eq(logged(FV_MODIFY, 1)->old_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_MODIFY, 1)->new_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_CALL, 2)->lit, ftrace_ops_addr(b));
	ck_assert_uint_eq(rec(0)->refs, 1);
	ck_assert_uint_eq(rec(1)->refs, 2);
	ck_assert_uint_eq(rec(2)->refs, 1);
	ck_assert(ftrace_ops_traces_ip(b, w.ip[2]));
	ck_assert(!ftrace_ops_traces_ip(b, w.ip[0]));
	ck_assert_ptr_eq(ftrace_core_ops_at(w.core, ftrace_ops_addr(b)), b);
	ck_assert_ptr_null(ftrace_core_ops_at(w.core, ftrace_core_list_ops(w.core)));
	ck_assert_int_ne(ftrace_ops_id(a), ftrace_ops_id(b));
	ck_assert_uint_eq(rec(3)->refs, 0);
	ck_assert(!(rec(1)->flags & (FTRACE_FL_CALL_OPS | FTRACE_FL_CALL_OPS_EN)));
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	/* f0 off, f1 back to a single ops: b's own literal. */
	ck_assert_int_eq(w.fa.n, 2);
	ck_assert_uint_eq(logged(FV_NOP, 0)->old_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_NOP, 0)->lit, ftrace_core_nop_ops(w.core));
	ck_assert_uint_eq(logged(FV_MODIFY, 1)->lit, ftrace_ops_addr(b));
	ck_assert_uint_eq(rec(1)->refs, 1);
	ck_assert(rec(1)->flags & FTRACE_FL_CALL_OPS_EN);
	ck_assert_uint_eq(rec(0)->flags & FTRACE_FL_ENABLED, 0);
}
END_TEST

START_TEST(notrace_wins_over_an_empty_filter)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);

	OK(ftrace_set_notrace(w.core, a, "f1", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_eq(w.fa.n, FAKE_NFUNC - 1);
	ck_assert_int_lt(fw_find(&w, 0, FV_CALL, w.ip[1]), 0);
	ck_assert_uint_eq(rec(1)->refs, 0);
	w.fa.n = 0;
	/* Clearing notrace on the registered ops enables f1, only. */
	OK(ftrace_set_notrace(w.core, a, "", 1, &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_uint_eq(logged(FV_CALL, 1)->lit, ftrace_ops_addr(a));
}
END_TEST

START_TEST(call_ops_literal_is_unique_ops_list_ops_or_nop_ops)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);
	struct ftrace_ops *r = fw_ops(&w, "rec", FK_TRACER2,
				      FTRACE_OPS_FL_RECURSION, 0);

	OK(ftrace_set_filter(w.core, a, "f0", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, b, "f0", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, r, "f3", 1, &w.plan, &err));
	/* Zero ops: boot left the nop ops in the literal. */
	ck_assert_uint_eq(rec(0)->ops_cur, ftrace_core_nop_ops(w.core));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_uint_eq(rec(0)->ops_cur, ftrace_ops_addr(a));
	ck_assert_ptr_eq(ftrace_find_unique_ops(w.core, fw_rec(&w, 0)), a);
	OK(ftrace_register_ops(w.core, b, &w.plan, &err));
	ck_assert_uint_eq(rec(0)->ops_cur, ftrace_core_list_ops(w.core));
	ck_assert_ptr_null(ftrace_find_unique_ops(w.core, fw_rec(&w, 0)));
	/* An ops whose func needs recursion protection is alone but still
	 * goes through the list function. */
	OK(ftrace_register_ops(w.core, r, &w.plan, &err));
	ck_assert_uint_eq(rec(3)->ops_cur, ftrace_core_list_ops(w.core));
	ck_assert(!(rec(3)->flags & FTRACE_FL_CALL_OPS));
	OK(ftrace_unregister_ops(w.core, b, &w.plan, &err));
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	ck_assert_uint_eq(rec(0)->ops_cur, ftrace_core_nop_ops(w.core));
}
END_TEST

START_TEST(per_ops_trampoline_is_used_only_while_alone)
{
	struct ftrace_ops *t = fw_ops(&w, "t", FK_TRACER1,
				      FTRACE_OPS_FL_ALLOC_TRAMP, FK_TRAMP);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);
	size_t mark;
	long q, f;

	OK(ftrace_set_filter(w.core, t, "f2", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, b, "f2", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, t, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_CALL, 2)->new_target, FK_TRAMP);
	ck_assert(rec(2)->flags & FTRACE_FL_TRAMP);
	ck_assert(rec(2)->flags & FTRACE_FL_TRAMP_EN);
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, fw_rec(&w, 2)), FK_TRAMP);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, b, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 2)->old_target, FK_TRAMP);
	ck_assert_uint_eq(logged(FV_MODIFY, 2)->new_target, FK_CALLER);
	ck_assert(!(rec(2)->flags & (FTRACE_FL_TRAMP | FTRACE_FL_TRAMP_EN)));
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, b, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 2)->old_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_MODIFY, 2)->new_target, FK_TRAMP);
	ck_assert(rec(2)->flags & FTRACE_FL_TRAMP_EN);
	w.fa.n = 0;
	/* t is off the list when the site is switched off: only the
	 * removed-ops rule finds the trampoline the site calls now. */
	mark = w.plan.n;
	OK(ftrace_unregister_ops(w.core, t, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_NOP, 2)->old_target, FK_TRAMP);
	/* The trampoline is freed only after the quiescent point. */
	q = fw_step(&w, mark, PLAN_QUIESCE);
	f = fw_step(&w, mark, PLAN_FREE);
	ck_assert_int_ge(q, 0);
	ck_assert_int_gt(f, q);
	ck_assert_uint_eq(w.plan.steps[f].addr, FK_TRAMP);
	ck_assert_uint_eq(w.plan.steps[f].len, 0x80);
}
END_TEST

START_TEST(save_regs_ops_moves_site_to_regs_caller_and_back)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *r = fw_ops(&w, "regs", FK_TRACER2,
				      FTRACE_OPS_FL_SAVE_REGS, 0);

	OK(ftrace_set_filter(w.core, a, "f4", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, r, "f4,f5", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_CALL, 4)->new_target, FK_CALLER);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, r, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 4)->old_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_MODIFY, 4)->new_target, FK_REGS_CALLER);
	ck_assert_uint_eq(logged(FV_CALL, 5)->new_target, FK_REGS_CALLER);
	ck_assert(rec(4)->flags & FTRACE_FL_REGS);
	ck_assert(rec(4)->flags & FTRACE_FL_REGS_EN);
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, r, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 4)->old_target, FK_REGS_CALLER);
	ck_assert_uint_eq(logged(FV_MODIFY, 4)->new_target, FK_CALLER);
	ck_assert_uint_eq(logged(FV_NOP, 5)->old_target, FK_REGS_CALLER);
	ck_assert(!(rec(4)->flags & (FTRACE_FL_REGS | FTRACE_FL_REGS_EN)));
}
END_TEST

START_TEST(unregister_ends_with_quiesce_then_free_of_the_ops)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	uint64_t addr = ftrace_ops_addr(a);
	size_t mark, last;
	long q;

	OK(ftrace_set_filter(w.core, a, "f0", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_lt(fw_step(&w, 0, PLAN_QUIESCE), 0);
	mark = w.plan.n;
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	q = fw_step(&w, mark, PLAN_QUIESCE);
	ck_assert_int_ge(q, 0);
	/* Everything after the quiescent point is a free; the last one is
	 * the ops itself, and no site step follows the quiesce. */
	for (size_t i = (size_t)q + 1; i < w.plan.n; i++)
		ck_assert_int_eq(w.plan.steps[i].op, PLAN_FREE);
	for (size_t i = mark; i < (size_t)q; i++)
		ck_assert_int_ne(w.plan.steps[i].op, PLAN_FREE);
	last = w.plan.n - 1;
	ck_assert_uint_eq(w.plan.steps[last].addr, addr);
	ck_assert_uint_eq(w.plan.steps[last].len, FTV_OPS_SIZE);
	/* The site was switched off before the quiesce. */
	ck_assert_int_ge(fw_find(&w, 0, FV_NOP, w.ip[0]), 0);
	/* A freed ops cannot come back. */
	ck_assert_int_eq(ftrace_register_ops(w.core, a, &w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "freed"));
}
END_TEST

START_TEST(mutant_knob_drops_the_quiesce_before_free)
{
	struct fake_world m;
	struct ftrace_ops *a;

	fw_init(&m, FW_CALL_OPS, FTRACE_MUT_DROP_QUIESCE);
	a = fw_ops(&m, "a", FK_TRACER1, 0, 0);
	OK(ftrace_set_filter(m.core, a, "f0", 1, &m.plan, &err));
	OK(ftrace_register_ops(m.core, a, &m.plan, &err));
	OK(ftrace_unregister_ops(m.core, a, &m.plan, &err));
	ck_assert_int_ge(fw_step(&m, 0, PLAN_FREE), 0);
	ck_assert_int_lt(fw_step(&m, 0, PLAN_QUIESCE), 0);
	fw_fini(&m);
}
END_TEST

START_TEST(failed_verb_marks_record_and_stops_the_update)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);
	const char *bug;

	OK(ftrace_set_filter(w.core, a, "f0,f1,f2", 1, &w.plan, &err));
	w.fa.fail_ip = w.ip[1];
	w.fa.fail_verb = FV_CALL;
	/* The update itself is not refused; the bug is recorded. */
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_ge(fw_find(&w, 0, FV_CALL, w.ip[0]), 0);
	ck_assert_int_lt(fw_find(&w, 0, FV_CALL, w.ip[2]), 0);
	ck_assert(rec(1)->flags & FTRACE_FL_FAILED);
	ck_assert(rec(1)->flags & FTRACE_FL_DISABLED);
	ck_assert(!(rec(2)->flags & FTRACE_FL_ENABLED));
	for (size_t i = 0; i < w.plan.n; i++)
		ck_assert_int_ne(w.plan.steps[i].rec, fw_rec(&w, 1));
	bug = ftrace_core_bug(w.core);
	ck_assert_ptr_nonnull(bug);
	ck_assert_ptr_nonnull(strstr(bug, "ftrace_make_call failed at f1+0x4"));
	ck_assert_ptr_nonnull(strstr(bug, "fake: refusing"));
	/* ftrace is dead from now on. */
	ck_assert_int_eq(ftrace_register_ops(w.core, b, &w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "ftrace is disabled"));
	/* And nothing is freed: a site may still reference the ops. */
	ck_assert_int_lt(fw_step(&w, 0, PLAN_FREE), 0);
}
END_TEST

START_TEST(direct_attach_modify_detach)
{
	struct ftrace_ops *d = fw_ops(&w, "direct", 0, 0, 0);
	struct ftrace_ops *d2 = fw_ops(&w, "direct2", 0, 0, 0);
	int r6 = fw_rec(&w, 6);
	int i1, i2;
	long dc;
	size_t mark;

	OK(ftrace_set_filter(w.core, d, "f6", 1, &w.plan, &err));
	OK(ftrace_register_direct(w.core, d, FK_DIRECT_A, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_CALL, 6)->new_target, FK_DIRECT_A);
	/* Out of reach, the arch uses ftrace_caller + ops->direct_call of
	 * the literal: it must be the direct ops. */
	ck_assert_uint_eq(logged(FV_CALL, 6)->lit, ftrace_ops_addr(d));
	ck_assert(rec(6)->flags & FTRACE_FL_DIRECT_EN);
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, r6), FK_DIRECT_A);
	/* A second direct call on the same function is refused. */
	OK(ftrace_set_filter(w.core, d2, "f6", 1, &w.plan, &err));
	ck_assert_int_eq(ftrace_register_direct(w.core, d2, FK_DIRECT_B,
						&w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "already has a direct call"));
	w.fa.n = 0;
	mark = w.plan.n;
	OK(ftrace_modify_direct(w.core, d, FK_DIRECT_B, &w.plan, &err));
	/* Through the list function while direct_call changes, then to the
	 * new trampoline. */
	i1 = fw_find(&w, 0, FV_MODIFY, w.ip[6]);
	i2 = fw_find(&w, i1 + 1, FV_MODIFY, w.ip[6]);
	ck_assert_int_ge(i1, 0);
	ck_assert_int_gt(i2, i1);
	ck_assert_uint_eq(w.fa.log[i1].old_target, FK_DIRECT_A);
	ck_assert_uint_eq(w.fa.log[i1].new_target, FK_REGS_CALLER);
	ck_assert_uint_eq(w.fa.log[i1].lit, ftrace_core_list_ops(w.core));
	ck_assert_uint_eq(w.fa.log[i2].old_target, FK_REGS_CALLER);
	ck_assert_uint_eq(w.fa.log[i2].new_target, FK_DIRECT_B);
	ck_assert_uint_eq(w.fa.log[i2].lit, ftrace_ops_addr(d));
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, r6), FK_DIRECT_B);
	ck_assert_uint_eq(ftrace_get_addr_new(w.core, r6), FK_DIRECT_B);
	ck_assert_uint_eq(ftrace_ops_direct_call(d), FK_DIRECT_B);
	/* ops->direct_call is rewritten between the two site updates. */
	dc = -1;
	for (size_t i = mark; i < w.plan.n; i++)
		if (w.plan.steps[i].op == PLAN_WRITE_DATA64 &&
		    w.plan.steps[i].addr == ftrace_ops_addr(d) + FTV_OPS_DIRECT_CALL)
			dc = (long)i;
	ck_assert_int_ge(dc, 0);
	ck_assert_uint_eq(w.plan.steps[dc].new, FK_DIRECT_B);
	w.fa.n = 0;
	OK(ftrace_unregister_direct(w.core, d, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_NOP, 6)->old_target, FK_DIRECT_B);
	ck_assert_uint_eq(rec(6)->direct, 0);
	/* The function is free for another direct call now. */
	OK(ftrace_register_direct(w.core, d2, FK_DIRECT_A, &w.plan, &err));
}
END_TEST

START_TEST(direct_with_a_second_ops_goes_through_the_list)
{
	struct ftrace_ops *d = fw_ops(&w, "direct", 0, 0, 0);
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);

	OK(ftrace_set_filter(w.core, d, "f6", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, a, "f6", 1, &w.plan, &err));
	OK(ftrace_register_direct(w.core, d, FK_DIRECT_A, &w.plan, &err));
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 6)->old_target, FK_DIRECT_A);
	ck_assert_uint_eq(logged(FV_MODIFY, 6)->new_target, FK_REGS_CALLER);
	ck_assert(rec(6)->flags & FTRACE_FL_DIRECT);
	ck_assert(!(rec(6)->flags & FTRACE_FL_DIRECT_EN));
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	ck_assert_uint_eq(logged(FV_MODIFY, 6)->new_target, FK_DIRECT_A);
	ck_assert(rec(6)->flags & FTRACE_FL_DIRECT_EN);
}
END_TEST

/* Walks the emulated ops list from the head, as a list func would. */
static int emu_list(uint64_t *out, int max)
{
	uint64_t p;
	int n = 0;

	ck_assert_int_eq(sim_read64(w.as, ftrace_core_list_head(w.core), &p), 0);
	while (p && n < max) {
		out[n++] = p;
		ck_assert_int_eq(sim_read64(w.as, p + FTV_OPS_NEXT, &p), 0);
	}
	return n;
}

START_TEST(ops_live_in_emulated_memory_written_by_the_plan)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2,
				      FTRACE_OPS_FL_SAVE_REGS, 0);
	uint64_t l[4], v, tbl;
	long head;

	OK(ftrace_set_filter(w.core, a, "f3,f1", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	OK(ftrace_register_ops(w.core, b, &w.plan, &err));
	fw_apply_data(&w, 0);
	/* Newest first, like add_ftrace_ops. */
	ck_assert_int_eq(emu_list(l, 4), 2);
	ck_assert_uint_eq(l[0], ftrace_ops_addr(b));
	ck_assert_uint_eq(l[1], ftrace_ops_addr(a));
	sim_read64(w.as, ftrace_ops_addr(a) + FTV_OPS_FUNC, &v);
	ck_assert_uint_eq(v, FK_TRACER1);
	sim_read64(w.as, ftrace_ops_addr(b) + FTV_OPS_FLAGS, &v);
	ck_assert_uint_eq(v, FTV_OPS_FL_SAVE_REGS);
	/* The filter table: sorted ips, its count just before it. */
	sim_read64(w.as, ftrace_ops_addr(a) + FTV_OPS_FILTER, &tbl);
	sim_read64(w.as, tbl + FTV_TABLE_COUNT, &v);
	ck_assert_uint_eq(v, 2);
	sim_read64(w.as, tbl, &v);
	ck_assert_uint_eq(v, w.ip[1]);
	sim_read64(w.as, tbl + 8, &v);
	ck_assert_uint_eq(v, w.ip[3]);
	sim_read64(w.as, ftrace_ops_addr(b) + FTV_OPS_FILTER, &v);
	ck_assert_uint_eq(v, 0);
	/* The list head is published after a barrier that follows every
	 * field of the new ops. */
	head = -1;
	for (size_t i = 0; i < w.plan.n; i++)
		if (w.plan.steps[i].op == PLAN_WRITE_DATA64 &&
		    w.plan.steps[i].addr == ftrace_core_list_head(w.core) &&
		    w.plan.steps[i].new == ftrace_ops_addr(b))
			head = (long)i;
	ck_assert_int_gt(head, 0);
	ck_assert_int_eq(w.plan.steps[head - 1].op, PLAN_DMB);
	for (long i = head + 1; i < (long)w.plan.n; i++)
		ck_assert(w.plan.steps[i].op != PLAN_WRITE_DATA64 ||
			  w.plan.steps[i].addr < ftrace_ops_addr(b) ||
			  w.plan.steps[i].addr >= ftrace_ops_addr(b) + FTV_OPS_SIZE);
	/* Unregistering a (second on the list) relinks b past it. */
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	fw_apply_data(&w, 0);
	ck_assert_int_eq(emu_list(l, 4), 1);
	ck_assert_uint_eq(l[0], ftrace_ops_addr(b));
}
END_TEST

START_TEST(filter_change_publishes_new_table_then_frees_old_after_quiesce)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	uint64_t old_tbl, new_tbl;
	size_t mark;
	long pub = -1, q, fr = -1, lastw = -1;

	OK(ftrace_set_filter(w.core, a, "f0", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	fw_apply_data(&w, 0);
	sim_read64(w.as, ftrace_ops_addr(a) + FTV_OPS_FILTER, &old_tbl);
	mark = w.plan.n;
	w.fa.n = 0;
	OK(ftrace_set_filter(w.core, a, "f1", 0, &w.plan, &err));
	fw_apply_data(&w, mark);
	sim_read64(w.as, ftrace_ops_addr(a) + FTV_OPS_FILTER, &new_tbl);
	ck_assert_uint_ne(new_tbl, old_tbl);
	for (size_t i = mark; i < w.plan.n; i++) {
		const struct plan_step *s = &w.plan.steps[i];

		if (s->op == PLAN_WRITE_DATA64 && s->addr >= new_tbl - 8 &&
		    s->addr < new_tbl + 16)
			lastw = (long)i;
		if (s->op == PLAN_WRITE_DATA64 &&
		    s->addr == ftrace_ops_addr(a) + FTV_OPS_FILTER)
			pub = (long)i;
		if (s->op == PLAN_FREE)
			fr = (long)i;
	}
	ck_assert_int_gt(pub, lastw);
	q = fw_step(&w, mark, PLAN_QUIESCE);
	ck_assert_int_gt(q, pub);
	ck_assert_int_gt(fr, q);
	ck_assert_uint_eq(w.plan.steps[fr].addr, old_tbl - 8);
	/* Adding f1 enables it; f0 stays. */
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_int_ge(fw_find(&w, 0, FV_CALL, w.ip[1]), 0);
	ck_assert_uint_eq(rec(0)->refs, 1);
}
END_TEST

START_TEST(bad_input_is_refused_and_changes_nothing)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	size_t n0;
	struct ftrace_site s = { .ip = w.ip[0], .func = w.func[0],
				 .literal = w.func[0] - 8, .name = "f0" };

	ck_assert_int_eq(ftrace_set_filter(w.core, a, "f0,nosuch", 1,
					   &w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "'nosuch'"));
	n0 = w.plan.n;
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	/* The failed filter left the ops tracing everything. */
	ck_assert_int_eq(w.fa.n, FAKE_NFUNC);
	ck_assert_int_eq(ftrace_register_ops(w.core, a, &w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "already registered"));
	ck_assert_int_eq(ftrace_core_add_site(w.core, &s, &w.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of ip order"));
	ck_assert_int_gt(w.plan.n, n0);
	/* By address: a function entry names its record. */
	OK(ftrace_set_filter(w.core, a, "0xffff800080000200", 1, &w.plan, &err));
	ck_assert_uint_eq(rec(1)->refs, 1);
	ck_assert_uint_eq(rec(0)->refs, 0);
}
END_TEST

START_TEST(boot_writes_nop_ops_literal_at_every_site)
{
	struct fake_world b;
	struct ftv_err e = { { 0 } };
	int inits = 0;

	/* fw_init resets the log; redo the boot by hand to see it. */
	fw_init(&b, FW_CALL_OPS, 0);
	{
		struct ftrace_site s = { .ip = b.ip[7] + 0x1000,
					 .func = b.func[7] + 0x1000,
					 .literal = b.func[7] + 0x1000 - 8,
					 .name = "late" };

		ck_assert_int_eq(ftrace_core_add_site(b.core, &s, &b.plan, &e),
				 FAKE_NFUNC);
	}
	for (int i = 0; i < b.fa.n; i++)
		if (b.fa.log[i].verb == FV_INIT) {
			inits++;
			ck_assert_uint_eq(b.fa.log[i].lit,
					  ftrace_core_nop_ops(b.core));
		}
	ck_assert_int_eq(inits, 1);
	ck_assert_int_eq(b.plan.steps[0].rec, FAKE_NFUNC);
	fw_fini(&b);
}
END_TEST

START_TEST(plan_format_names_steps_sites_and_records)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	OK(ftrace_set_filter(w.core, a, "f2", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	ftrace_plan_format(f, &w.plan, 0, w.as, NULL);
	ftrace_records_format(f, w.core, NULL);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "write-insn     0xffff800080000304 f2+0x4/0x100"));
	ck_assert_ptr_nonnull(strstr(buf, "0xd503201f -> 0x9"));
	ck_assert_ptr_nonnull(strstr(buf, "[rec 2] fake: call"));
	ck_assert_ptr_nonnull(strstr(buf, "quiesce"));
	ck_assert_ptr_nonnull(strstr(buf, "free ops\n"));
	/* The core's objects are named in the address space. */
	ck_assert_ptr_nonnull(strstr(buf, "ops:a+0x0/0x60"));
	ck_assert_ptr_nonnull(strstr(buf, "ops:a:filter+0x0/0x10"));
	ck_assert_ptr_nonnull(strstr(buf, "ftrace_ops_list+0x0/0x8"));
	ck_assert_ptr_nonnull(strstr(buf, "f2 (0)"));
	ck_assert_ptr_nonnull(strstr(buf, "ops: ftrace_nop_ops"));
	free(buf);
}
END_TEST

START_TEST(module_sites_wait_for_module_enable)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	char name[8] = "m0";
	struct ftrace_site s = { .ip = w.ip[7] + 0x1000,
				 .func = w.func[7] + 0x1000,
				 .literal = w.func[7] + 0x1000 - 8,
				 .name = name, .module = "mod" };
	int m;

	m = ftrace_core_add_site(w.core, &s, &w.plan, &err);
	ck_assert_int_eq(m, FAKE_NFUNC);
	/* The record keeps its own copy of the name. */
	strcpy(name, "xx");
	ck_assert_str_eq(ftrace_core_rec(w.core, m)->site.name, "m0");
	ck_assert(ftrace_core_rec(w.core, m)->flags & FTRACE_FL_DISABLED);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_eq(w.fa.n, FAKE_NFUNC);
	ck_assert_int_lt(fw_find(&w, 0, FV_CALL, s.ip), 0);
	w.fa.n = 0;
	OK(ftrace_module_enable(w.core, "mod", &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_uint_eq(w.fa.log[0].ip, s.ip);
	ck_assert_uint_eq(w.fa.log[0].lit, ftrace_ops_addr(a));
	ck_assert_uint_eq(ftrace_core_rec(w.core, m)->refs, 1);
	ck_assert_int_eq(ftrace_module_enable(w.core, "nosuch", &w.plan, &err), -1);
}
END_TEST

/* load_module while CPUs run: no record until ftrace_module_init, whose
 * init_nops go into the plan; enabled by ftrace_module_enable; gone after
 * ftrace_release_mod, and never patched again. */
START_TEST(late_module_records_come_and_go)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_site s = { .ip = w.ip[7] + 0x1000, .func = w.func[7] + 0x1000,
				 .literal = w.func[7] + 0x1000 - 8, .name = "m0",
				 .module = "mod" };
	int m = ftrace_core_add_module_site(w.core, &s, &err);

	ck_assert_int_eq(m, FAKE_NFUNC);
	ck_assert(ftrace_core_rec(w.core, m)->flags & FTRACE_FL_UNLOADED);
	/* not loaded: no lookup finds it, no filter names it */
	ck_assert_int_eq(ftrace_core_find_rec(w.core, s.ip), -1);
	ck_assert_int_eq(ftrace_set_filter(w.core, a, "m0", 1, &w.plan, &err), -1);
	OK(ftrace_set_filter(w.core, a, "", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_lt(fw_find(&w, 0, FV_CALL, s.ip), 0);
	ck_assert_int_eq(ftrace_module_enable(w.core, "mod", &w.plan, &err), -1);
	/* load: init_nop into the plan, then enable for the ops tracing it */
	w.fa.n = 0;
	OK(ftrace_module_init(w.core, "mod", &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_int_eq(w.fa.log[0].verb, FV_INIT);
	ck_assert_int_eq(ftrace_core_find_rec(w.core, s.ip), m);
	ck_assert(ftrace_core_rec(w.core, m)->flags & FTRACE_FL_DISABLED);
	ck_assert_int_eq(ftrace_module_init(w.core, "mod", &w.plan, &err), -1);
	w.fa.n = 0;
	OK(ftrace_module_enable(w.core, "mod", &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_int_eq(w.fa.log[0].verb, FV_CALL);
	ck_assert_uint_eq(w.fa.log[0].ip, s.ip);
	/* unload: the record goes; later updates leave its text alone */
	OK(ftrace_release_mod(w.core, "mod", &err));
	ck_assert_int_eq(ftrace_core_find_rec(w.core, s.ip), -1);
	ck_assert_int_eq(ftrace_release_mod(w.core, "mod", &err), -1);
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	ck_assert_int_eq(fw_find(&w, 0, FV_NOP, s.ip), -1);
	ck_assert_int_eq(fw_find(&w, 0, FV_NOP, w.ip[0]), 0);
}
END_TEST

/* ftrace_process_locs skips a zeroed entry, and one outside kernel text;
 * the patch-zeroed-entry mutant takes it for a site. */
START_TEST(zeroed_table_entries_are_skipped)
{
	ck_assert_int_eq(ftrace_core_loc_wanted(w.core, 0, 0), 0);
	ck_assert_int_eq(ftrace_core_loc_wanted(w.core, 0x16c035400000ULL, 0), 0);
	ck_assert_int_eq(ftrace_core_loc_wanted(w.core, w.ip[0], 1), 1);
	fw_fini(&w);
	fw_init(&w, FW_CALL_OPS, FTRACE_MUT_PATCH_ZEROED_ENTRY);
	ck_assert_int_eq(ftrace_core_loc_wanted(w.core, 0, 0), 1);
}
END_TEST

START_TEST(static_ops_can_come_back_and_is_never_freed)
{
	struct ftv_err e = { { 0 } };
	struct ftrace_ops *g = ftrace_ops_new(
		w.core, &(struct ftrace_ops_desc){ .name = "global",
						   .func = FK_TRACER1,
						   .static_ops = 1 }, &e);
	size_t mark;

	ck_assert_ptr_nonnull(g);
	ck_assert(!(ftrace_ops_flags(g) & FTRACE_OPS_FL_DYNAMIC));
	OK(ftrace_register_ops(w.core, g, &w.plan, &err));
	mark = w.plan.n;
	OK(ftrace_unregister_ops(w.core, g, &w.plan, &err));
	/* No table, nothing to free, no quiescent point. */
	ck_assert_int_lt(fw_step(&w, mark, PLAN_QUIESCE), 0);
	ck_assert_int_lt(fw_step(&w, mark, PLAN_FREE), 0);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, g, &w.plan, &err));
	ck_assert_int_eq(w.fa.n, FAKE_NFUNC);
	/* With a filter table, the table (only) is freed after a quiesce. */
	OK(ftrace_set_filter(w.core, g, "f1", 1, &w.plan, &err));
	mark = w.plan.n;
	OK(ftrace_unregister_ops(w.core, g, &w.plan, &err));
	ck_assert_int_ge(fw_step(&w, mark, PLAN_QUIESCE), 0);
	for (size_t i = mark; i < w.plan.n; i++)
		if (w.plan.steps[i].op == PLAN_FREE)
			ck_assert_uint_ne(w.plan.steps[i].addr, ftrace_ops_addr(g));
}
END_TEST

START_TEST(a_failure_found_while_applying_kills_the_model)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);

	OK(ftrace_set_filter(w.core, a, "f3", 1, &w.plan, &err));
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ftrace_core_mark_failed(w.core, fw_rec(&w, 3),
				"expected 0xd503201f, found 0x14000000");
	ck_assert(rec(3)->flags & FTRACE_FL_FAILED);
	ck_assert_ptr_nonnull(strstr(ftrace_core_bug(w.core),
				     "applying the plan failed at f3+0x4"));
	ck_assert_ptr_nonnull(strstr(ftrace_core_bug(w.core), "found 0x14000000"));
	ck_assert_int_eq(ftrace_unregister_ops(w.core, a, &w.plan, &err), -1);
}
END_TEST

static long step_at(struct fake_world *x, size_t from, enum plan_op op,
		    uint64_t addr)
{
	for (size_t i = from; i < x->plan.n; i++)
		if (x->plan.steps[i].op == op && x->plan.steps[i].addr == addr)
			return (long)i;
	return -1;
}

START_TEST(mutant_without_publish_barrier_has_no_dmb)
{
	struct fake_world m;
	struct ftrace_ops *a;

	fw_init(&m, FW_CALL_OPS, FTRACE_MUT_NO_PUBLISH_BARRIER);
	a = fw_ops(&m, "a", FK_TRACER1, 0, 0);
	OK(ftrace_register_ops(m.core, a, &m.plan, &err));
	OK(ftrace_set_filter(m.core, a, "f1", 1, &m.plan, &err));
	OK(ftrace_unregister_ops(m.core, a, &m.plan, &err));
	ck_assert_int_lt(fw_step(&m, 0, PLAN_DMB), 0);
	fw_fini(&m);
	/* The faithful model has one before each publication. */
	a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_int_ge(fw_step(&w, 0, PLAN_DMB), 0);
}
END_TEST

START_TEST(mutant_publishes_the_filter_before_its_contents)
{
	struct fake_world m;
	struct ftrace_ops *a;
	size_t mark;
	long ptr, cnt;
	uint64_t tbl;

	fw_init(&m, FW_CALL_OPS, FTRACE_MUT_PUBLISH_TABLE_EARLY);
	a = fw_ops(&m, "a", FK_TRACER1, 0, 0);
	OK(ftrace_register_ops(m.core, a, &m.plan, &err));
	mark = m.plan.n;
	OK(ftrace_set_filter(m.core, a, "f1", 1, &m.plan, &err));
	ptr = step_at(&m, mark, PLAN_WRITE_DATA64,
		      ftrace_ops_addr(a) + FTV_OPS_FILTER);
	ck_assert_int_ge(ptr, 0);
	tbl = m.plan.steps[ptr].new;
	cnt = step_at(&m, mark, PLAN_WRITE_DATA64, tbl + FTV_TABLE_COUNT);
	ck_assert_int_gt(cnt, ptr);
	fw_fini(&m);
}
END_TEST

START_TEST(mutant_frees_the_ops_while_sites_still_use_it)
{
	struct fake_world m;
	struct ftrace_ops *a;
	size_t mark;
	long fr, nop;

	fw_init(&m, FW_CALL_OPS, FTRACE_MUT_FREE_BEFORE_UNPATCH);
	a = fw_ops(&m, "a", FK_TRACER1, 0, 0);
	OK(ftrace_set_filter(m.core, a, "f0", 1, &m.plan, &err));
	OK(ftrace_register_ops(m.core, a, &m.plan, &err));
	mark = m.plan.n;
	OK(ftrace_unregister_ops(m.core, a, &m.plan, &err));
	fr = step_at(&m, mark, PLAN_FREE, ftrace_ops_addr(a));
	nop = step_at(&m, mark, PLAN_WRITE_INSN, m.ip[0]);
	ck_assert_int_ge(fr, 0);
	ck_assert_int_gt(nop, fr);
	fw_fini(&m);
}
END_TEST

static Suite *ftrace_core_suite(void)
{
	Suite *s = suite_create("ftrace_core");
	TCase *tc = tcase_create("callops");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, ref_counts_follow_overlapping_filters);
	tcase_add_test(tc, notrace_wins_over_an_empty_filter);
	tcase_add_test(tc, call_ops_literal_is_unique_ops_list_ops_or_nop_ops);
	tcase_add_test(tc, per_ops_trampoline_is_used_only_while_alone);
	tcase_add_test(tc, save_regs_ops_moves_site_to_regs_caller_and_back);
	tcase_add_test(tc, unregister_ends_with_quiesce_then_free_of_the_ops);
	tcase_add_test(tc, mutant_knob_drops_the_quiesce_before_free);
	tcase_add_test(tc, mutant_without_publish_barrier_has_no_dmb);
	tcase_add_test(tc, mutant_publishes_the_filter_before_its_contents);
	tcase_add_test(tc, mutant_frees_the_ops_while_sites_still_use_it);
	tcase_add_test(tc, failed_verb_marks_record_and_stops_the_update);
	tcase_add_test(tc, direct_attach_modify_detach);
	tcase_add_test(tc, direct_with_a_second_ops_goes_through_the_list);
	tcase_add_test(tc, ops_live_in_emulated_memory_written_by_the_plan);
	tcase_add_test(tc, filter_change_publishes_new_table_then_frees_old_after_quiesce);
	tcase_add_test(tc, bad_input_is_refused_and_changes_nothing);
	tcase_add_test(tc, boot_writes_nop_ops_literal_at_every_site);
	tcase_add_test(tc, plan_format_names_steps_sites_and_records);
	tcase_add_test(tc, module_sites_wait_for_module_enable);
	tcase_add_test(tc, late_module_records_come_and_go);
	tcase_add_test(tc, zeroed_table_entries_are_skipped);
	tcase_add_test(tc, static_ops_can_come_back_and_is_never_freed);
	tcase_add_test(tc, a_failure_found_while_applying_kills_the_model);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(ftrace_core, ftrace_core_suite)
