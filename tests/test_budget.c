/* A step budget is not a bug: a run that runs out of steps while its CPUs
 * still make progress is "budget exhausted" (exit 3, not judged, never a
 * fuzz finding), the default budget grows with the CPUs and rounds, and
 * a budget no run could use is refused. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

/* A small scenario with the lines given: a temporary file (path). */
static void scenario_with(char *path, size_t n, const char *lines)
{
	char text[1024];

	snprintf(text, sizeof(text),
		 "name budget\nscheme callops\nobjects rand1 rand2\nseed 1\nexpect ok\n%s"
		 "ops t1 tracer_a\nfilter t1 r1_f3,r1_f5\nregister t1\nrun 150\n"
		 "unregister t1\n", lines);
	ftv_test_tmpfile(path, n, text);
}

START_TEST(scenario_out_of_steps_is_budget_exhausted_not_a_violation)
{
	char path[64], *out;
	int rc;

	/* 4 CPUs of 500 rounds need some 50000 steps: 3000 end them early */
	scenario_with(path, sizeof(path), "cpus 4\nrounds 500\npolicy quantum\nquantum 50\nsteps 3000\n");
	rc = FTV_RUN(&out, "scenario", "--build", (char *)ftv_test_env("FTV_BUILD"), path);
	ck_assert_msg(rc == 3, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "budget: budget exhausted (0 violations)") &&
			      strstr(out, "budget: budget exhausted: cpu") &&
			      strstr(out, "within 3000 steps"),
		      "%s", out);
	ck_assert_msg(!strstr(out, "unfinished") && !strstr(out, "stuck"), "%s", out);
	free(out);
	unlink(path);
}
END_TEST

START_TEST(scenario_budget_grows_with_cpus_and_rounds)
{
	char path[64], *out;
	int rc;

	/* 8 CPUs of 600 rounds: more than the old fixed 100000 steps */
	scenario_with(path, sizeof(path), "cpus 8\nrounds 600\npolicy quantum\nquantum 50\n");
	rc = FTV_RUN(&out, "scenario", "--build", (char *)ftv_test_env("FTV_BUILD"), path);
	ck_assert_msg(rc == 0 && strstr(out, "budget: no violation (0 violations)"),
		      "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

START_TEST(fuzz_32_cpus_do_not_run_out_of_steps)
{
	char *out;
	/* iteration 0 of seed 1: 32 CPUs of 580 rounds, some 470000 steps
	 * (it was "unfinished" at a fixed 400000) */
	int rc = FTV_RUN(&out, "fuzz", "--build", (char *)ftv_test_env("FTV_BUILD"), "--cpus",
			 "32", "--seed", "1", "--iterations", "1", "--out", "/tmp/ftv-budget-never-written.scn");

	ck_assert_msg(rc == 0 && strstr(out, "580 rounds") && strstr(out, "steps: ok\n") &&
			      !strstr(out, "VIOLATION") && !strstr(out, "budget exhausted"),
		      "exit %d: %s", rc, out);
	free(out);
}
END_TEST

START_TEST(scenario_rounds_beyond_the_bound_are_refused)
{
	char path[64], *out, want[128];
	int rc;

	scenario_with(path, sizeof(path), "rounds 1000000000\n");
	rc = FTV_RUN(&out, "scenario", "--build", (char *)ftv_test_env("FTV_BUILD"), path);
	snprintf(want, sizeof(want), "%s:6: rounds: 1000000000 is more than 1000000", path);
	ck_assert_msg(rc == 2 && strstr(out, want), "exit %d: %s", rc, out);
	free(out);
	unlink(path);
	scenario_with(path, sizeof(path), "calls 100000\n");
	rc = FTV_RUN(&out, "scenario", "--build", (char *)ftv_test_env("FTV_BUILD"), path);
	snprintf(want, sizeof(want), "%s:6: calls: 100000 is more than 4096", path);
	ck_assert_msg(rc == 2 && strstr(out, want), "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

static Suite *budget_suite(void)
{
	Suite *s = suite_create("budget");
	TCase *tc = tcase_create("budget");

	tcase_add_test(tc, scenario_out_of_steps_is_budget_exhausted_not_a_violation);
	tcase_add_test(tc, scenario_budget_grows_with_cpus_and_rounds);
	tcase_add_test(tc, fuzz_32_cpus_do_not_run_out_of_steps);
	tcase_add_test(tc, scenario_rounds_beyond_the_bound_are_refused);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(budget, budget_suite)
