/* Engines reused from one executor to the next (executor/exec_pool.h):
 * fuzz iterations run on engines other worlds used report exactly what
 * they report on fresh ones (counts, violations, the trace hash of every
 * step), whichever world had the engines before. */
#include "tests/suite.h"

#include <stdio.h>
#include <string.h>

#include "executor/exec.h"
#include "verify/fuzz.h"

#define POOL_ITERS 6

static void same_with_reused_engines(enum ftv_scheme scheme)
{
	static struct fuzz_gen g;
	static struct scenario s;
	struct scn_result fresh[POOL_ITERS], res;
	char corpus[4096], tramp[4096];
	struct ftv_err err;
	size_t before;

	ftv_test_path(corpus, sizeof(corpus), "FTV_BUILD", "corpus");
	ftv_test_path(tramp, sizeof(tramp), "FTV_BUILD", "trampolines");
	memset(&g, 0, sizeof(g));
	g.scheme = scheme;
	snprintf(g.objects[0], sizeof(g.objects[0]), "rand1");
	snprintf(g.objects[1], sizeof(g.objects[1]), "rand2");
	g.nobjects = 2;
	snprintf(g.modules[0], sizeof(g.modules[0]), "rand3");
	g.nmodules = 1;
	ck_assert_msg(!fuzz_targets(&g, corpus, tramp, &err), "%s", err.msg);
	for (unsigned i = 0; i < POOL_ITERS; i++) {
		fuzz_generate(&g, fuzz_iter_seed(3, i), &s);
		ck_assert_msg(fuzz_fails(&s, NULL, corpus, tramp, &fresh[i], &err) >= 0, "%s",
			      err.msg);
	}
	exec_reuse_engines();
	before = exec_engines_reused();
	/* backwards, and each twice: every iteration gets engines another
	 * one (or itself) left */
	for (unsigned k = 0; k < 2 * POOL_ITERS; k++) {
		unsigned i = POOL_ITERS - 1 - k % POOL_ITERS;

		fuzz_generate(&g, fuzz_iter_seed(3, i), &s);
		ck_assert_msg(fuzz_fails(&s, NULL, corpus, tramp, &res, &err) >= 0, "%s", err.msg);
		ck_assert_msg(res.trace_hash == fresh[i].trace_hash,
			      "iteration %u: trace hash 0x%llx on reused engines, 0x%llx fresh", i,
			      (unsigned long long)res.trace_hash,
			      (unsigned long long)fresh[i].trace_hash);
		ck_assert_uint_eq(res.stats.steps, fresh[i].stats.steps);
		ck_assert_uint_eq(res.stats.transitions, fresh[i].stats.transitions);
		ck_assert_uint_eq(res.stats.plans, fresh[i].stats.plans);
		ck_assert_int_eq(res.violated, fresh[i].violated);
		ck_assert_str_eq(res.kinds, fresh[i].kinds);
	}
	ck_assert_uint_gt(exec_engines_reused(), before);
}

START_TEST(callops_iterations_on_reused_engines_are_as_on_fresh_ones)
{
	same_with_reused_engines(FTV_SCHEME_CALLOPS);
}
END_TEST

START_TEST(riscv64_atomic_iterations_on_reused_engines_are_as_on_fresh_ones)
{
	same_with_reused_engines(FTV_SCHEME_ATOMIC);
}
END_TEST

static Suite *exec_pool_suite(void)
{
	Suite *s = suite_create("exec_pool");
	TCase *tc = tcase_create("exec_pool");

	tcase_set_timeout(tc, 300); /* ASan builds, loaded machines */
	tcase_add_test(tc, callops_iterations_on_reused_engines_are_as_on_fresh_ones);
	tcase_add_test(tc, riscv64_atomic_iterations_on_reused_engines_are_as_on_fresh_ones);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(exec_pool, exec_pool_suite)
