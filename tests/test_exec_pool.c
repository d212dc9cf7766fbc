/* Engines reused from one executor to the next (executor/exec_pool.h):
 * fuzz iterations run on engines other worlds used report exactly what
 * they report on fresh ones (counts, violations, the trace hash of every
 * step), whichever world had the engines before. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/exec.h"
#include "verify/fuzz.h"
#include "verify/world.h"

#define POOL_ITERS 6

/* The fuzz generator of scheme over rand1, rand2 and the module rand3,
 * and the corpus and trampolines it needs (4096 bytes each). */
static void gen_setup(struct fuzz_gen *g, enum ftv_scheme scheme, char *corpus, char *tramp)
{
	struct ftv_err err;

	ftv_test_path(corpus, 4096, "FTV_BUILD", "corpus");
	ftv_test_path(tramp, 4096, "FTV_BUILD", "trampolines");
	memset(g, 0, sizeof(*g));
	g->scheme = scheme;
	snprintf(g->objects[0], sizeof(g->objects[0]), "rand1");
	snprintf(g->objects[1], sizeof(g->objects[1]), "rand2");
	g->nobjects = 2;
	snprintf(g->modules[0], sizeof(g->modules[0]), "rand3");
	g->nmodules = 1;
	ck_assert_msg(!fuzz_targets(g, corpus, tramp, &err), "%s", err.msg);
}

static void same_with_reused_engines(enum ftv_scheme scheme)
{
	static struct fuzz_gen g;
	static struct scenario s;
	struct scn_result fresh[POOL_ITERS], res;
	char corpus[4096], tramp[4096];
	struct ftv_err err;
	size_t before;

	gen_setup(&g, scheme, corpus, tramp);
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

/* And the time guard of a world's free-running turns (verify/world.h,
 * world_turn_guard_us; FTV_TURN_TIME_SCALE): the instruction budget
 * decides every turn, so the trace of a run does not depend on the clock.
 * A guard a thousand times longer gives the same trace hash, step counts
 * and verdict as the default; one of ten microseconds gives the same, or a
 * run ended unjudged that says so ("budget exhausted": the time guard),
 * never another trace with a verdict of its own. (Before, the guard was
 * 100 ms of CPU time and decided alone: a turn of a sanitized build on a
 * loaded machine reached it, and test_exec_pool saw another hash.) */
#define GUARD_ITERS 4

static void run_iters(enum ftv_scheme scheme, const char *scale, struct scn_result *res)
{
	static struct fuzz_gen g;
	static struct scenario s;
	char corpus[4096], tramp[4096];
	struct ftv_err err;

	ck_assert_int_eq(setenv("FTV_TURN_TIME_SCALE", scale, 1), 0);
	gen_setup(&g, scheme, corpus, tramp);
	for (unsigned i = 0; i < GUARD_ITERS; i++) {
		fuzz_generate(&g, fuzz_iter_seed(3, i), &s);
		ck_assert_msg(fuzz_fails(&s, NULL, corpus, tramp, &res[i], &err) >= 0, "%s",
			      err.msg);
	}
}

static void same_whatever_the_guard(enum ftv_scheme scheme)
{
	struct scn_result base[GUARD_ITERS], huge[GUARD_ITERS], tiny[GUARD_ITERS];

	run_iters(scheme, "1", base);
	ck_assert_uint_eq(world_turn_guard_us(), WORLD_TURN_GUARD_US);
	run_iters(scheme, "1000", huge);
	ck_assert_uint_eq(world_turn_guard_us(), 1000 * WORLD_TURN_GUARD_US);
	run_iters(scheme, "0.000001", tiny);
	ck_assert_uint_eq(world_turn_guard_us(), 10);
	for (unsigned i = 0; i < GUARD_ITERS; i++) {
		ck_assert_msg(!base[i].budget_out, "iteration %u: %s", i, base[i].budget);
		ck_assert_msg(huge[i].trace_hash == base[i].trace_hash,
			      "iteration %u: trace hash 0x%llx with a huge guard, 0x%llx", i,
			      (unsigned long long)huge[i].trace_hash,
			      (unsigned long long)base[i].trace_hash);
		ck_assert_uint_eq(huge[i].stats.steps, base[i].stats.steps);
		ck_assert_int_eq(huge[i].violated, base[i].violated);
		ck_assert_str_eq(huge[i].kinds, base[i].kinds);
		if (tiny[i].budget_out && strstr(tiny[i].budget, "time guard")) {
			/* cut short: what it found before is what the full run
			 * found by then */
			ck_assert_msg(!tiny[i].violated || base[i].violated, "iteration %u", i);
			continue;
		}
		ck_assert_msg(tiny[i].trace_hash == base[i].trace_hash,
			      "iteration %u: trace hash 0x%llx with a tiny guard, 0x%llx", i,
			      (unsigned long long)tiny[i].trace_hash,
			      (unsigned long long)base[i].trace_hash);
		ck_assert_str_eq(tiny[i].kinds, base[i].kinds);
	}
}

START_TEST(callops_traces_do_not_depend_on_the_turn_time_guard)
{
	same_whatever_the_guard(FTV_SCHEME_CALLOPS);
}
END_TEST

START_TEST(riscv64_atomic_traces_do_not_depend_on_the_turn_time_guard)
{
	same_whatever_the_guard(FTV_SCHEME_ATOMIC);
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
	tc = tcase_create("turn_guard");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, callops_traces_do_not_depend_on_the_turn_time_guard);
	tcase_add_test(tc, riscv64_atomic_traces_do_not_depend_on_the_turn_time_guard);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(exec_pool, exec_pool_suite)
