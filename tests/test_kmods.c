/* Every module of Debian's arm64 cloud kernel loads: no crash, every patch
 * site found (ftv's count per module equals the entries of its
 * __patchable_function_entries read independently with pyelftools), every
 * relocation applied or precisely reported. tools/kmod-sites.py does the
 * per-module comparison; this test runs it over build/kmods. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

START_TEST(every_debian_module_loads_with_all_its_patch_sites)
{
	char script[4096], dir[4096], *out = NULL;
	const char *python = getenv("FTV_PYTHON") ? getenv("FTV_PYTHON") : "/usr/bin/python3";
	int status;

	ftv_test_path(script, sizeof(script), "FTV_TOP", "tools/kmod-sites.py");
	ftv_test_path(dir, sizeof(dir), "FTV_TOP", "build/kmods/usr/lib/modules");
	char *argv[] = { (char *)python, script, (char *)ftv_test_env("FTV"), dir, NULL };

	status = ftv_test_run(argv, &out);
	ck_assert_msg(status == 0, "kmod-sites failed (%d):\n%s", status, out);
	ck_assert_ptr_nonnull(strstr(out, " passed, 0 failed"));
	/* the cloud kernel has about 1,080 modules: make sure they were all seen */
	const char *n = strstr(out, "kmod-sites: ");
	ck_assert_ptr_nonnull(n);
	ck_assert_int_gt(atoi(n + strlen("kmod-sites: ")), 1000);
	printf("%s", n);
	free(out);
}
END_TEST

static Suite *kmods_suite(void)
{
	Suite *s = suite_create("kmods");
	TCase *tc = tcase_create("debian");

	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, every_debian_module_loads_with_all_its_patch_sites);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(kmods, kmods_suite)
