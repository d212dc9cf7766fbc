/* The conformance scenarios (the .scn files under corpus/scenarios) all reach the verdicts
 * their files expect: the three schemes run clean on 4 CPUs, and every
 * backend and core mutant is caught with the violation kind named. The TAP
 * output is what CI systems read, and the JUnit file must be well formed. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(every_scenario_reaches_its_expected_verdict)
{
	char dir[4096], junit[4200], *out = NULL;
	int status;

	ftv_test_path(dir, sizeof(dir), "FTV_TOP", "corpus/scenarios");
	snprintf(junit, sizeof(junit), "%s/conform.xml", ftv_test_env("FTV_BUILD"));
	char *argv[] = { (char *)ftv_test_env("FTV"), "conform", "--tap", "--junit",
			 junit, dir, NULL };

	status = ftv_test_run(argv, &out);
	ck_assert_msg(status == 0, "ftv conform exited %d:\n%s", status, out);
	ck_assert_ptr_nonnull(strstr(out, "TAP version 13"));
	ck_assert_ptr_null(strstr(out, "not ok"));
	/* the three schemes and every mutant of the issue are there */
	const char *must[] = { "ok ", "callops-direct", "tramp-ops", "mcount-tracers",
			       "mutant-bl-before-literal", "mutant-skip-literal-on-modify",
			       "mutant-misaligned-literal", "mutant-live-mov-patch",
			       "mutant-free-without-quiescence", "mutant-no-range-check",
			       /* RISC-V */
			       "riscv-atomic", "riscv-pair-hazard",
			       "riscv-mutant-atomic-rewrite-auipc",
			       "riscv-mutant-free-without-quiescence" };
	for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
		ck_assert_msg(strstr(out, must[i]), "no %s in:\n%s", must[i], out);
	free(out);

	FILE *f = fopen(junit, "r");
	char buf[65536];
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<testsuite name=\"ftv-conform\""));
	ck_assert_ptr_nonnull(strstr(buf, "failures=\"0\""));
	ck_assert_ptr_null(strstr(buf, "<failure"));
	ck_assert_ptr_nonnull(strstr(buf, "</testsuites>"));
}
END_TEST

START_TEST(a_wrong_expectation_is_a_mismatch_and_exit_1)
{
	char path[4200], base[4096], *out = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/wrong.scn", ftv_test_env("FTV_BUILD"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	/* bl-before-literal is caught, so "expect ok" must not match */
	fprintf(f, "name wrong\nscheme callops\nobjects rand1\ncpus 2\nrounds 40\n"
		   "mutate bl-before-literal\nexpect ok\nops t1 tracer_a\n"
		   "filter t1 r1_f3,r1_f5,r1_f9\nregister t1\nrun 100\nunregister t1\n");
	fclose(f);
	(void)base;
	char *argv[] = { (char *)ftv_test_env("FTV"), "conform", path, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	ck_assert_ptr_nonnull(strstr(out, "MISMATCH"));
	ck_assert_ptr_nonnull(strstr(out, "0 passed, 1 failed"));
	free(out);
}
END_TEST

START_TEST(a_malformed_scenario_names_file_and_line)
{
	char path[4200], *out = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.scn", ftv_test_env("FTV_BUILD"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name bad\nscheme callops\ncpus many\n");
	fclose(f);
	char *argv[] = { (char *)ftv_test_env("FTV"), "conform", path, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_ptr_nonnull(strstr(out, "bad.scn:3: cpus needs a number"));
	free(out);
}
END_TEST

static Suite *conform_suite(void)
{
	Suite *s = suite_create("conform");
	TCase *tc = tcase_create("scenarios");

	tcase_set_timeout(tc, 1200);
	tcase_add_test(tc, every_scenario_reaches_its_expected_verdict);
	tcase_add_test(tc, a_wrong_expectation_is_a_mismatch_and_exit_1);
	tcase_add_test(tc, a_malformed_scenario_names_file_and_line);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(conform, conform_suite)
