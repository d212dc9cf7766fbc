/* The golden outputs (tools/golden.py, tests/data/golden/golden.txt): every
 * conformance scenario with its trace hash, short fuzz campaigns of every
 * scheme, a mutant found and shrunk, two replays and the litmus tests print
 * exactly what they printed when the file was written. Refactoring and speed
 * work must not change a byte of it; a change of behaviour regenerates the
 * file with `make golden` and says why in its commit. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(outputs_and_trace_hashes_match_the_golden_file)
{
	const char *top = ftv_test_env("FTV_TOP");
	char script[4200], golden[4200], *out = NULL;

	snprintf(script, sizeof(script), "%s/tools/golden.py", top);
	snprintf(golden, sizeof(golden), "%s/tests/data/golden/golden.txt", top);
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), script,
			 "--ftv", (char *)ftv_test_env("FTV"), "--top", (char *)top,
			 "--check", golden, NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0, "golden outputs differ (make golden regenerates "
		      "them, for a change of behaviour only):\n%.3000s", out);
	free(out);
}
END_TEST

static Suite *golden_suite(void)
{
	Suite *s = suite_create("golden");
	TCase *tc = tcase_create("golden");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, outputs_and_trace_hashes_match_the_golden_file);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(golden, golden_suite)
