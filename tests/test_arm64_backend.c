#include "tests/suite.h"
#include "encoders/a64.h"
#include "patcher/arm64.h"

#include <string.h>

#define TEXT 0xffff800080100000ULL
#define CALLER 0xffff800080000000ULL

static struct arm64_ftrace A = {
	.ftrace_caller = CALLER,
	.mcount = CALLER + 0x100,
	.ftrace_call = CALLER + 0x80,
	.ftrace_graph_call = CALLER + 0x84,
	.ftrace_graph_caller = CALLER + 0xc0,
};

static struct ftrace_site callops_site(void)
{
	struct ftrace_site s = { .func = TEXT, .ip = TEXT + 4, .literal = TEXT - 8,
				 .kind = FTV_SITE_CALL_OPS, .name = "f" };
	return s;
}

static uint32_t bl(uint64_t pc, uint64_t target)
{
	uint32_t w;

	ck_assert_int_eq(a64_gen_branch(pc, target, 1, &w, NULL), 0);
	return w;
}

/* index of the first step with op at or after from, or -1 */
static int find(const struct plan *p, enum plan_op op, size_t from)
{
	for (size_t i = from; i < p->n; i++)
		if (p->steps[i].op == op)
			return (int)i;
	return -1;
}

START_TEST(make_call_writes_the_literal_before_the_bl)
{
	struct ftrace_site s = callops_site();
	struct plan p;
	int lit, insn;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&A, &s, CALLER, 0xabc0, &p, NULL), 0);
	lit = find(&p, PLAN_WRITE_DATA64, 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_int_ge(lit, 0);
	ck_assert_int_gt(insn, lit);
	ck_assert_int_ge(find(&p, PLAN_DSB, lit), 0);
	ck_assert_int_lt(find(&p, PLAN_DSB, lit), insn); /* literal visible first */
	ck_assert_uint_eq(p.steps[lit].addr, TEXT - 8);
	ck_assert_uint_eq(p.steps[lit].new, 0xabc0);
	ck_assert_uint_eq(p.steps[insn].addr, TEXT + 4);
	ck_assert_uint_eq(p.steps[insn].old, a64_gen_nop());
	ck_assert_uint_eq(p.steps[insn].new, bl(TEXT + 4, CALLER));
	ck_assert(p.steps[insn].validate);
	/* then DC CVAU; DSB; IC IVAU; DSB; ISB */
	ck_assert_int_eq(find(&p, PLAN_CACHE_CLEAN, insn), insn + 1);
	ck_assert_int_eq(find(&p, PLAN_ICACHE_INVAL, insn), insn + 3);
	ck_assert_int_eq(find(&p, PLAN_ISB, insn), insn + 5);
	plan_free(&p);
}
END_TEST

START_TEST(make_nop_and_modify_call_validate_the_old_branch)
{
	struct ftrace_site s = callops_site();
	struct plan p;
	int insn;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_callops.make_nop(&A, &s, CALLER, 0x5550, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_int_gt(insn, find(&p, PLAN_WRITE_DATA64, 0));
	ck_assert_uint_eq(p.steps[insn].old, bl(TEXT + 4, CALLER));
	ck_assert_uint_eq(p.steps[insn].new, a64_gen_nop());
	plan_reset(&p);
	/* same target: the literal changes and the BL is rewritten anyway */
	ck_assert_int_eq(arm64_ftrace_callops.modify_call(&A, &s, CALLER, CALLER, 0x7770, &p, NULL), 0);
	ck_assert_int_ge(find(&p, PLAN_WRITE_DATA64, 0), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].old, p.steps[insn].new);
	plan_free(&p);
}
END_TEST

START_TEST(init_nop_writes_nop_ops_and_mov_x9_lr)
{
	struct ftrace_site s = callops_site();
	struct plan p;
	int insn;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_callops.init_nop(&A, &s, 0x1110, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].addr, TEXT);
	ck_assert_uint_eq(p.steps[insn].new, 0xaa1e03e9); /* mov x9, x30 */
	ck_assert_uint_eq(p.steps[find(&p, PLAN_WRITE_DATA64, 0)].new, 0x1110);
	plan_free(&p);
}
END_TEST

START_TEST(out_of_range_targets_fall_back_to_caller_then_plt)
{
	struct ftrace_site s = callops_site();
	struct plan p;
	struct ftv_err err;
	uint64_t far_tramp = TEXT + (200ULL << 20);
	int insn;

	plan_init(&p);
	/* a direct trampoline out of reach: BL ftrace_caller, which goes
	 * through ops->direct_call */
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&A, &s, far_tramp, 0x40, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].new, bl(s.ip, CALLER));

	/* a far module: neither target nor caller in reach; its PLT is */
	plan_reset(&p);
	s.func = CALLER - (1ULL << 30);
	s.ip = s.func + 4;
	s.literal = s.func - 8;
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&A, &s, CALLER, 0x40, &p, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no module PLT"));
	s.plt = s.func + 0x1000;
	plan_reset(&p);
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&A, &s, CALLER, 0x40, &p, &err), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].new, bl(s.ip, s.plt));
	plan_free(&p);
}
END_TEST

START_TEST(bl_range_edges)
{
	ck_assert(arm64_bl_in_range(0x10000000, 0x10000000 + (128ULL << 20) - 4));
	ck_assert(!arm64_bl_in_range(0x10000000, 0x10000000 + (128ULL << 20)));
	ck_assert(arm64_bl_in_range(0x10000000, 0x10000000 - (128ULL << 20)));
	ck_assert(!arm64_bl_in_range(0x10000000, 0x10000000 - (128ULL << 20) - 4));
	ck_assert(!arm64_bl_in_range(0x10000000, 0x10000002));
}
END_TEST

START_TEST(misaligned_sites_are_refused_unless_mutated)
{
	struct ftrace_site s = callops_site();
	struct arm64_ftrace m = A;
	struct ftv_err err;

	ck_assert_int_eq(arm64_site_usable(&A, &s, &err), 0);
	s.literal += 4;
	ck_assert_int_eq(arm64_site_usable(&A, &s, &err), -1);
	ck_assert_str_eq(err.msg, "Misaligned patch-site");
	m.mutant = ARM64_MUT_MISALIGNED_LITERAL;
	ck_assert_int_eq(arm64_site_usable(&m, &s, &err), 0);
}
END_TEST

START_TEST(mutants_change_the_plan_as_named)
{
	struct ftrace_site s = callops_site();
	struct arm64_ftrace m = A;
	struct plan p;

	plan_init(&p);
	m.mutant = ARM64_MUT_BL_BEFORE_LITERAL;
	arm64_ftrace_callops.make_call(&m, &s, CALLER, 0x40, &p, NULL);
	ck_assert_int_lt(find(&p, PLAN_WRITE_INSN, 0), find(&p, PLAN_WRITE_DATA64, 0));

	plan_reset(&p);
	m.mutant = ARM64_MUT_SKIP_LITERAL_ON_MODIFY;
	arm64_ftrace_callops.modify_call(&m, &s, CALLER, CALLER, 0x40, &p, NULL);
	ck_assert_int_eq(find(&p, PLAN_WRITE_DATA64, 0), -1);

	plan_reset(&p);
	m.mutant = ARM64_MUT_LIVE_MOV_PATCH;
	arm64_ftrace_callops.init_nop(&m, &s, 0x40, &p, NULL);
	ck_assert_int_eq(find(&p, PLAN_WRITE_INSN, 0), -1);
	arm64_ftrace_callops.make_call(&m, &s, CALLER, 0x40, &p, NULL);
	ck_assert_uint_eq(p.steps[find(&p, PLAN_WRITE_INSN, 0)].new, 0xaa1e03e9);

	plan_reset(&p);
	m.mutant = ARM64_MUT_NO_RANGE_CHECK;
	s.func = CALLER - (1ULL << 30);
	s.ip = s.func + 4;
	s.literal = s.func - 8;
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&m, &s, CALLER, 0x40, &p, NULL), 0);
	uint32_t w = p.steps[find(&p, PLAN_WRITE_INSN, 0)].new;
	uint64_t t;
	ck_assert_int_eq(a64_branch_target(w, s.ip, &t), 0);
	ck_assert_uint_ne(t, CALLER); /* truncated: lands elsewhere */
	ck_assert_int_eq(ftrace_arch_mutant_find(arm64_mutants, "no-range-check")->code,
			 ARM64_MUT_NO_RANGE_CHECK);
	ck_assert_ptr_eq(arm64_ftrace_mcount.mutants, arm64_mutants);
	ck_assert_ptr_null(ftrace_arch_mutant_find(arm64_mutants, "bogus"));
	plan_free(&p);
}
END_TEST

START_TEST(mcount_scheme_patches_the_caller_sites)
{
	struct ftrace_site s = { .func = TEXT, .ip = TEXT + 0x1c,
				 .kind = FTV_SITE_MCOUNT, .name = "f" };
	struct plan p;
	int insn;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_mcount.init_nop(&A, &s, 0, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].old, bl(s.ip, A.mcount));
	ck_assert_uint_eq(p.steps[insn].new, a64_gen_nop());
	ck_assert_int_eq(find(&p, PLAN_WRITE_DATA64, 0), -1);
	plan_reset(&p);
	ck_assert_int_eq(arm64_ftrace_mcount.update_ftrace_func(&A, CALLER + 0x400, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].addr, A.ftrace_call);
	ck_assert_uint_eq(p.steps[insn].new, bl(A.ftrace_call, CALLER + 0x400));
	plan_reset(&p);
	ck_assert_int_eq(arm64_ftrace_mcount.modify_graph_caller(&A, 1, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[insn].old, a64_gen_nop());
	ck_assert(a64_is_b(p.steps[insn].new));
	plan_reset(&p);
	ck_assert_int_eq(arm64_ftrace_mcount.update_prepare(NULL, &p, NULL), 0);
	ck_assert_int_eq(p.steps[0].op, PLAN_STOP_MACHINE);
	plan_free(&p);
}
END_TEST

/* Every text write is preceded by the store barrier of mapping the fixmap
 * (__set_pte()'s dsb(ishst)): the ftrace data written before a site's new
 * branch is visible first, in every scheme. */
START_TEST(every_text_write_follows_a_store_barrier)
{
	struct ftrace_site s = callops_site(), m = { .func = TEXT, .ip = TEXT + 0x1c,
						    .kind = FTV_SITE_MCOUNT, .name = "f" };
	struct ftrace_site a = { .func = TEXT, .ip = TEXT + 8, .kind = FTV_SITE_ARGS,
				 .name = "f" };
	struct plan p;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_callops.make_call(&A, &s, CALLER, 0x1000, &p, NULL), 0);
	ck_assert_int_eq(arm64_ftrace_args.make_call(&A, &a, CALLER, 0, &p, NULL), 0);
	ck_assert_int_eq(arm64_ftrace_mcount.make_call(&A, &m, CALLER, 0, &p, NULL), 0);
	ck_assert_int_eq(arm64_ftrace_args.update_ftrace_func(&A, CALLER + 0x400, &p, NULL), 0);
	ck_assert_int_eq(arm64_ftrace_mcount.modify_graph_caller(&A, 1, &p, NULL), 0);
	for (size_t i = 0; i < p.n; i++) {
		if (p.steps[i].op != PLAN_WRITE_INSN)
			continue;
		ck_assert_msg(i > 0 && p.steps[i - 1].op == PLAN_DSB,
			      "step %zu (%s) is not preceded by a DSB", i, p.steps[i].what);
	}
	plan_free(&p);
}
END_TEST

/* Updated live (no stop_machine), the ARGS scheme's ftrace_call write is
 * followed by a sync of every CPU once its cache maintenance is done: the
 * core switches to the list func before any site changes and relies on no
 * CPU calling the old tracer directly after that. */
START_TEST(live_ftrace_call_update_syncs_every_cpu)
{
	struct plan p;
	int insn, ic, sync;

	plan_init(&p);
	ck_assert_int_eq(arm64_ftrace_args.update_ftrace_func(&A, CALLER + 0x400, &p, NULL), 0);
	insn = find(&p, PLAN_WRITE_INSN, 0);
	ic = find(&p, PLAN_ICACHE_INVAL, 0);
	sync = find(&p, PLAN_SYNC_ALL, 0);
	ck_assert_uint_eq(p.steps[insn].addr, A.ftrace_call);
	ck_assert_int_ge(sync, 0);
	ck_assert_int_gt(sync, ic);
	ck_assert_int_ge(find(&p, PLAN_DSB, (size_t)ic), 0);
	ck_assert_int_lt(find(&p, PLAN_DSB, (size_t)ic), sync);
	/* under stop_machine, resuming the CPUs synchronises them */
	plan_reset(&p);
	ck_assert_int_eq(arm64_ftrace_mcount.update_ftrace_func(&A, CALLER + 0x400, &p, NULL), 0);
	ck_assert_int_eq(find(&p, PLAN_SYNC_ALL, 0), -1);
	plan_free(&p);
}
END_TEST

static Suite *arm64_backend_suite(void)
{
	Suite *s = suite_create("arm64_backend");
	TCase *tc = tcase_create("verbs");

	tcase_add_test(tc, make_call_writes_the_literal_before_the_bl);
	tcase_add_test(tc, make_nop_and_modify_call_validate_the_old_branch);
	tcase_add_test(tc, init_nop_writes_nop_ops_and_mov_x9_lr);
	tcase_add_test(tc, out_of_range_targets_fall_back_to_caller_then_plt);
	tcase_add_test(tc, bl_range_edges);
	tcase_add_test(tc, misaligned_sites_are_refused_unless_mutated);
	tcase_add_test(tc, mutants_change_the_plan_as_named);
	tcase_add_test(tc, mcount_scheme_patches_the_caller_sites);
	tcase_add_test(tc, live_ftrace_call_update_syncs_every_cpu);
	tcase_add_test(tc, every_text_write_follows_a_store_barrier);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(arm64_backend, arm64_backend_suite)
