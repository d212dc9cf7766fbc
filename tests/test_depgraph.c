/* Inside each directory dependencies run one way: no two files use each
 * other's functions or data, directly or around a circle
 * (tools/depgraph.py, from the built objects' symbol tables). */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(no_directory_has_a_dependency_circle)
{
	const char *top = ftv_test_env("FTV_TOP");
	char script[4200], *out = NULL;

	snprintf(script, sizeof(script), "%s/tools/depgraph.py", top);
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), script, "--top", (char *)top,
			 "--build", (char *)ftv_test_env("FTV_BUILD"), "--check", NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0 && strstr(out, "no circles"), "%.3000s", out);
	free(out);
}
END_TEST

static Suite *depgraph_suite(void)
{
	Suite *s = suite_create("depgraph");
	TCase *tc = tcase_create("depgraph");

	tcase_add_test(tc, no_directory_has_a_dependency_circle);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(depgraph, depgraph_suite)
