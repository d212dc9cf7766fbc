/* The overhead table of the arm64 CALL_OPS commit (N relevant / N
 * irrelevant tracers), pinned: the rows' ftrace state built by the
 * core and arm64 backend (bench/overhead.c) with 1,000 calls instead of the
 * sample's 100,000. Instruction counts are deterministic, so the shape is
 * asserted exactly where the kernel's design makes it exact. */
#include <stdio.h>
#include <string.h>

#include "bench/overhead.h"
#include "encoders/a64.h"
#include "tests/suite.h"

#define CALLS 1000

static struct ovh_env env;
static char tracee_dir[4096], tramp_dir[4096];

static void setup_env(void)
{
	ftv_test_path(tracee_dir, sizeof(tracee_dir), "FTV_BUILD", "bench");
	ftv_test_path(tramp_dir, sizeof(tramp_dir), "FTV_BUILD", "trampolines");
	env.tracee_dir = tracee_dir;
	env.tramp_dir = tramp_dir;
	env.per_insn = 0;
}

static int row(unsigned rel, unsigned irr)
{
	for (unsigned r = 0; r < ovh_nrows; r++)
		if (ovh_rows[r].relevant == rel && ovh_rows[r].irrelevant == irr)
			return (int)r;
	ck_abort_msg("no row (%u,%u)", rel, irr);
	return -1;
}

static uint64_t overhead(const struct ovh_measure *m, unsigned rel, unsigned irr)
{
	return m[row(rel, irr)].insns - m[0].insns;
}

static int is_bl(uint32_t w)
{
	return (w & 0xfc000000u) == 0x94000000u;
}

START_TEST(callops_one_tracer_costs_the_same_whatever_the_irrelevant_ones)
{
	struct ovh_measure m[16];
	struct ftv_err err;
	static const unsigned irr[] = { 1, 2, 10, 100 };

	setup_env();
	ck_assert_msg(!ovh_measure_rows(&env, FTV_SCHEME_CALLOPS, CALLS, m, &err),
		      "%s", err.msg);
	/* each relevant tracer ran once per call, the irrelevant never */
	for (unsigned r = 0; r < ovh_nrows; r++) {
		ck_assert_uint_eq(m[r].relevant_calls,
				  (uint64_t)ovh_rows[r].relevant * CALLS);
		ck_assert_uint_eq(m[r].irrelevant_calls, 0);
	}
	/* irrelevant ops leave the tracee's site a NOP: no cost at all */
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_uint_eq(m[row(0, irr[i])].insns, m[0].insns);
		ck_assert_uint_eq(m[row(0, irr[i])].site_word, a64_gen_nop());
	}
	/* one relevant ops: the site's literal is that ops and its func is
	 * called directly, whatever else is registered */
	ck_assert_uint_gt(overhead(m, 1, 0), 0);
	for (unsigned i = 0; i < 4; i++) {
		const struct ovh_measure *x = &m[row(1, irr[i])];

		ck_assert_uint_eq(x->insns, m[row(1, 0)].insns);
		ck_assert(is_bl(x->site_word));
		ck_assert_uint_ne(x->literal, 0);
		ck_assert_uint_ne(x->literal, x->list_ops);
	}
	/* several relevant ops: the list func, which grows with their number */
	ck_assert_uint_eq(m[row(2, 0)].literal, m[row(2, 0)].list_ops);
	ck_assert_uint_gt(overhead(m, 2, 0), overhead(m, 1, 0));
	ck_assert_uint_gt(overhead(m, 10, 0), overhead(m, 2, 0));
	ck_assert_uint_ge(overhead(m, 100, 0), 10 * overhead(m, 10, 0) / 2);
	ck_assert_uint_ge(overhead(m, 100, 0), 10 * overhead(m, 1, 0));
	/* the count of every call is the same: totals are calls * per-call
	 * plus the loop's fixed entry and exit */
	ck_assert_uint_eq((m[row(1, 0)].insns - m[0].insns) % CALLS, 0);
}
END_TEST

START_TEST(mcount_list_func_grows_with_the_irrelevant_tracers)
{
	struct ovh_measure m[16];
	struct ftv_err err;

	setup_env();
	ck_assert_msg(!ovh_measure_rows(&env, FTV_SCHEME_MCOUNT, CALLS, m, &err),
		      "%s", err.msg);
	ck_assert_uint_eq(m[row(0, 100)].insns, m[0].insns);
	ck_assert_uint_eq(m[row(1, 100)].relevant_calls, CALLS);
	ck_assert_uint_eq(m[row(1, 100)].irrelevant_calls, 0);
	ck_assert_uint_gt(overhead(m, 1, 2), overhead(m, 1, 1));
	ck_assert_uint_gt(overhead(m, 1, 10), overhead(m, 1, 2));
	ck_assert_uint_ge(overhead(m, 1, 100), 10 * overhead(m, 1, 1));
	/* one ops alone is called straight from ftrace_call */
	ck_assert_uint_lt(overhead(m, 1, 0), overhead(m, 1, 1));
}
END_TEST

/* The rows are reached by registering and unregistering ops in one world;
 * a fresh world with only that row's ops, counted one instruction at a time
 * instead of by translation blocks, gives the same count. */
START_TEST(a_row_costs_the_same_built_fresh_and_counted_per_instruction)
{
	struct ovh_measure m[16], fresh;
	struct ftv_err err;

	setup_env();
	ck_assert_msg(!ovh_measure_rows(&env, FTV_SCHEME_TRAMP, CALLS, m, &err),
		      "%s", err.msg);
	env.per_insn = 1;
	ck_assert_msg(!ovh_measure(&env, FTV_SCHEME_TRAMP, 2, 0, CALLS, &fresh, &err),
		      "%s", err.msg);
	ck_assert_uint_eq(fresh.insns, m[row(2, 0)].insns);
	ck_assert_uint_eq(fresh.site_word, m[row(2, 0)].site_word);
	ck_assert_uint_eq(fresh.relevant_calls, 2 * CALLS);
	/* per-ops trampolines: one relevant tracer is flat as with CALL_OPS */
	ck_assert_uint_eq(m[row(1, 100)].insns, m[row(1, 0)].insns);
}
END_TEST

static Suite *bench_suite(void)
{
	Suite *s = suite_create("bench_overhead");
	TCase *tc = tcase_create("rows");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, callops_one_tracer_costs_the_same_whatever_the_irrelevant_ones);
	tcase_add_test(tc, mcount_list_func_grows_with_the_irrelevant_tracers);
	tcase_add_test(tc, a_row_costs_the_same_built_fresh_and_counted_per_instruction);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(bench_overhead, bench_suite)
