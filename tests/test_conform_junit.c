/* `ftv conform --junit FILE` writes JUnit XML that an XML parser accepts
 * (Python's xml.etree, as CI tools parse it), with one testcase per
 * scenario and a <failure> for a verdict that did not match, its message
 * escaped. Two tiny scenarios keep it fast; test_conform.c runs them all. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void write_scn(const char *path, const char *name, const char *expect)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "name %s\nscheme callops\nobjects rand1\ncpus 2\nrounds 4\n"
		   "expect %s\nops t1 tracer_a\nfilter t1 r1_f3,r1_f5\nregister t1\n"
		   "run 30\nunregister t1\n", name, expect);
	fclose(f);
}

START_TEST(junit_output_parses_as_xml)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char ok[4200], wrong[4200], xml[4200], *out = NULL;

	snprintf(ok, sizeof(ok), "%s/junit-ok.scn", b);
	snprintf(wrong, sizeof(wrong), "%s/junit-wrong.scn", b);
	snprintf(xml, sizeof(xml), "%s/junit-test.xml", b);
	write_scn(ok, "junit-ok", "ok");
	/* the correct backend finds nothing, so this expectation mismatches */
	write_scn(wrong, "junit-wrong", "violation cmodx");
	char *conform[] = { (char *)ftv_test_env("FTV"), "conform", "--junit", xml,
			    ok, wrong, NULL };

	ck_assert_int_eq(ftv_test_run(conform, &out), 1);
	free(out);
	/* The parser raises on anything malformed; then the structure. */
	const char *prog =
		"import sys, xml.etree.ElementTree as E\n"
		"r = E.parse(sys.argv[1]).getroot()\n"
		"assert r.tag == 'testsuites', r.tag\n"
		"s = r.findall('testsuite')\n"
		"assert len(s) == 1 and s[0].get('name') == 'ftv-conform'\n"
		"c = s[0].findall('testcase')\n"
		"assert [x.get('name') for x in c] == ['junit-ok', 'junit-wrong'], c\n"
		"assert c[0].find('failure') is None\n"
		"f = c[1].find('failure')\n"
		"assert f is not None and f.get('message'), f\n"
		"assert s[0].get('tests') == '2' and s[0].get('failures') == '1'\n"
		"print('junit ok')\n";
	char *py[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c", (char *)prog, xml, NULL };
	int rc = ftv_test_run(py, &out);

	ck_assert_msg(rc == 0 && strstr(out, "junit ok"), "python: %d\n%s", rc, out);
	free(out);
}
END_TEST

static Suite *conform_junit_suite(void)
{
	Suite *s = suite_create("conform_junit");
	TCase *tc = tcase_create("junit");

	tcase_add_test(tc, junit_output_parses_as_xml);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(conform_junit, conform_junit_suite)
