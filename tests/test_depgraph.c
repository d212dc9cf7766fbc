/* Inside each directory dependencies run one way: no two files use each
 * other's functions or data, directly or around a circle; between
 * directories they follow the layer table (LAYERS in tools/depgraph.py:
 * util < encoders < sim < patcher, layout < executor, trampolines < litmus,
 * verify < tools, bench < tests), by includes and by the built objects'
 * symbols; and every directory of code has its place in that table. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* tools/depgraph.py --check on the tree top with objects in build. */
static int depgraph(const char *top, const char *build, char **out)
{
	char script[4200];

	snprintf(script, sizeof(script), "%s/tools/depgraph.py", ftv_test_env("FTV_TOP"));
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), script, "--top", (char *)top,
			 "--build", (char *)build, "--check", NULL };
	return ftv_test_run(argv, out);
}

START_TEST(no_directory_has_a_dependency_circle_and_layers_hold)
{
	char *out = NULL;
	int rc = depgraph(ftv_test_env("FTV_TOP"), ftv_test_env("FTV_BUILD"), &out);

	ck_assert_msg(rc == 0 && strstr(out, "no circles") && strstr(out, "layers kept"),
		      "%.3000s", out);
	free(out);
}
END_TEST

static void put(const char *dir, const char *rel, const char *text)
{
	char path[4200], sub[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	snprintf(sub, sizeof(sub), "%s", path);
	*strrchr(sub, '/') = 0;
	mkdir(sub, 0700); /* one level: the layer table names top directories */
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	fputs(text, f);
	fclose(f);
}

/* A small tree breaking each rule once, next to a use that keeps them. */
START_TEST(layers_refuse_upward_and_sideways_uses_and_unplaced_directories)
{
	char dir[] = "/tmp/ftv-depgraph-XXXXXX", build[64], *out = NULL;
	int rc;

	ck_assert(mkdtemp(dir));
	snprintf(build, sizeof(build), "%s/build", dir);
	put(dir, "util/u.h", "/* nothing */\n");
	put(dir, "encoders/e.c", "#include \"util/u.h\"\n");
	put(dir, "verify/v.h", "/* nothing */\n");
	put(dir, "sim/s.c", "#include <stdio.h>\n#include \"verify/v.h\"\n");
	put(dir, "layout/l.h", "/* nothing */\n");
	put(dir, "patcher/p.c", "#include \"layout/l.h\"\n");
	put(dir, "newdir/n.c", "#include \"util/u.h\"\n");
	rc = depgraph(dir, build, &out);
	ck_assert_msg(rc == 1, "exit %d: %.3000s", rc, out);
	ck_assert_msg(strstr(out, "sim/ uses verify/ (sim/s.c:2 includes verify/), but sim is "
				  "in layer 2 and verify in layer 6"), "%.3000s", out);
	ck_assert_msg(strstr(out, "patcher/ uses layout/ (patcher/p.c:1 includes layout/), but "
				  "patcher is in layer 3 and layout in layer 3"), "%.3000s", out);
	ck_assert_msg(strstr(out, "newdir/ holds code but is in no layer: add it to LAYERS"),
		      "%.3000s", out);
	ck_assert_msg(!strstr(out, "encoders/ uses"), "%.3000s", out);
	ck_assert_msg(strstr(out, "3 layer problem(s)"), "%.3000s", out);
	free(out);
	char *rm[] = { "/bin/rm", "-rf", dir, NULL };
	ck_assert_int_eq(ftv_test_run(rm, &out), 0);
	free(out);
}
END_TEST

static Suite *depgraph_suite(void)
{
	Suite *s = suite_create("depgraph");
	TCase *tc = tcase_create("depgraph");

	tcase_add_test(tc, no_directory_has_a_dependency_circle_and_layers_hold);
	tcase_add_test(tc, layers_refuse_upward_and_sideways_uses_and_unplaced_directories);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(depgraph, depgraph_suite)
