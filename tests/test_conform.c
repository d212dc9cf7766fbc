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

/* Issue #17: a scenario that cannot load (named after its file) or run (a
 * corpus object that does not exist) is an error, not a mismatch; the
 * others still run and are reported, in TAP and in JUnit. */
static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

#define GOOD_SCN "scheme callops\ncpus 2\nrounds 4\nexpect ok\nops t1 tracer_a\n" \
		 "filter t1 r1_f3,r1_f5\nregister t1\nrun 30\nunregister t1\n"

START_TEST(a_scenario_in_error_is_reported_and_the_others_run)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char bad[4200], good[4200], missing[4200], xml[4200], *out = NULL;

	snprintf(bad, sizeof(bad), "%s/err-bad.scn", b);
	snprintf(good, sizeof(good), "%s/err-good.scn", b);
	snprintf(missing, sizeof(missing), "%s/err-missing.scn", b);
	snprintf(xml, sizeof(xml), "%s/err-junit.xml", b);
	write_file(bad, "name bad\nscheme callops\ncpus many\n");
	write_file(good, "name good\nobjects rand1\n" GOOD_SCN);
	write_file(missing, "name missing\nobjects rand1 no-such-object\n" GOOD_SCN);
	remove(xml);
	char *tap[] = { (char *)ftv_test_env("FTV"), "conform", "--tap", "--junit", xml, bad,
			good, missing, NULL };

	ck_assert_int_eq(ftv_test_run(tap, &out), 1);
	/* stderr has each error too (interleaved here) */
	ck_assert_msg(strstr(out, "TAP version 13\n1..3\n") &&
		      strstr(out, "\nnot ok 1 err-bad # error: ") &&
		      strstr(out, "ftv conform: ") &&
		      strstr(out, "err-bad.scn:3: cpus needs a number\n") &&
		      strstr(out, "\nok 2 good # expected no violation, found no violation") &&
		      strstr(out, "\nnot ok 3 missing # error: ") &&
		      strstr(out, "err-missing.scn: ") && strstr(out, "no-such-object.o"),
		      "%s", out);
	free(out);
	const char *prog =
		"import sys, xml.etree.ElementTree as E\n"
		"s = E.parse(sys.argv[1]).getroot().find('testsuite')\n"
		"assert (s.get('tests'), s.get('failures'), s.get('errors')) == ('3', '0', '2'), s.attrib\n"
		"c = s.findall('testcase')\n"
		"assert [x.get('name') for x in c] == ['err-bad', 'good', 'missing'], c\n"
		"assert 'cpus needs a number' in c[0].find('error').get('message')\n"
		"assert c[1].find('error') is None and c[1].find('failure') is None\n"
		"assert 'no-such-object' in c[2].find('error').get('message')\n"
		"assert c[2].find('failure') is None\n"
		"print('junit ok')\n";
	char *py[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c", (char *)prog, xml, NULL };
	int rc = ftv_test_run(py, &out);

	ck_assert_msg(rc == 0 && strstr(out, "junit ok"), "python: %d\n%s", rc, out);
	free(out);

	/* plain lines: the error on stderr, the counts */
	char *plain[] = { (char *)ftv_test_env("FTV"), "conform", missing, good, NULL };

	ck_assert_int_eq(ftv_test_run(plain, &out), 1);
	ck_assert_msg(strstr(out, "ftv conform: ") && strstr(out, "no-such-object.o") &&
		      !strstr(out, "MISMATCH") && strstr(out, "\nok        good") &&
		      strstr(out, "1 passed, 0 failed, 1 in error\n"), "%s", out);
	free(out);

	/* nothing ran: bad input */
	char *none[] = { (char *)ftv_test_env("FTV"), "conform", "--tap", bad, missing, NULL };

	ck_assert_int_eq(ftv_test_run(none, &out), 2);
	ck_assert_msg(strstr(out, "not ok 1 err-bad # error") && strstr(out, "not ok 2 missing # error"),
		      "%s", out);
	free(out);
}
END_TEST

START_TEST(an_unwritable_junit_file_is_refused_before_running)
{
	char good[4200], *out = NULL;

	snprintf(good, sizeof(good), "%s/err-good.scn", ftv_test_env("FTV_BUILD"));
	write_file(good, "name good\nobjects rand1\n" GOOD_SCN);
	char *argv[] = { (char *)ftv_test_env("FTV"), "conform", "--junit",
			 "/nonexistent/dir/j.xml", good, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_str_eq(out, "ftv conform: /nonexistent/dir/j.xml: No such file or directory\n");
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
	TCase *errors = tcase_create("errors");

	tcase_set_timeout(errors, 120);
	tcase_add_test(errors, a_scenario_in_error_is_reported_and_the_others_run);
	tcase_add_test(errors, an_unwritable_junit_file_is_refused_before_running);
	suite_add_tcase(s, errors);
	return s;
}
FTV_SUITE(conform, conform_suite)
