/* The second comparison set (issue 30): tools/herd_variants.py's variants
 * of ftv's own herd-syntax tests (a barrier or cache maintenance removed,
 * replaced or moved, CacheType changed, a second writer added), and
 * herd7's verdicts for them kept as data (tests/data/herd-variants.txt:
 * herd7 is not on CI's machines). The generator is deterministic and the
 * data covers exactly what it writes; ftv gives herd's verdict, or the
 * architecture's where herd's model departs from it (tests/data/
 * herd-arch.txt, each with its reference), on every variant. */
#include "tests/suite.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VARIANTS 1024

/* Writes the variants into FTV_BUILD/herd-variants/; returns that dir. */
static const char *generate(void)
{
	static char dir[512];
	char script[512], *out = NULL;
	const char *top = ftv_test_env("FTV_TOP");

	snprintf(dir, sizeof(dir), "%s/herd-variants", ftv_test_env("FTV_BUILD"));
	snprintf(script, sizeof(script), "%s/tools/herd_variants.py", top);
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), script, "--top",
			 (char *)top, "--out", dir, NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0, "herd_variants.py: exit %d: %s", rc, out);
	free(out);
	return dir;
}

/* FTV_BUILD/herd-variants-expected.txt: herd's verdicts, the
 * architecture's (herd-arch.txt) in their place where it lists one. */
static const char *expected_kinds(void)
{
	static char out[512];
	char herd[512], arch[512], line[1024];
	FILE *o, *f;

	snprintf(out, sizeof(out), "%s/herd-variants-expected.txt", ftv_test_env("FTV_BUILD"));
	ftv_test_path(herd, sizeof(herd), "FTV_TOP", "tests/data/herd-variants.txt");
	ftv_test_path(arch, sizeof(arch), "FTV_TOP", "tests/data/herd-arch.txt");
	o = fopen(out, "w");
	ck_assert_ptr_nonnull(o);
	/* later lines win (litmus_kinds_get takes the last): herd, then
	 * the architecture's, their comments cut */
	for (int k = 0; k < 2; k++) {
		f = fopen(k ? arch : herd, "r");
		ck_assert_ptr_nonnull(f);
		while (fgets(line, sizeof(line), f)) {
			line[strcspn(line, "#")] = 0;
			if (line[0])
				fprintf(o, "%s\n", line);
		}
		fclose(f);
	}
	fclose(o);
	return out;
}

/* The names herd gave verdicts for (NAME Allowed|Forbidden lines). */
static size_t read_verdicts(char names[][128], size_t max)
{
	char path[512], line[512];
	size_t n = 0;
	FILE *f;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "tests/data/herd-variants.txt");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f) && n < max) {
		char name[128], kind[32];

		if (line[0] == '#' || sscanf(line, "%127s %31s", name, kind) != 2)
			continue;
		ck_assert_msg(!strcmp(kind, "Allowed") || !strcmp(kind, "Forbidden"),
			      "%s: %s", name, kind);
		strcpy(names[n++], name);
	}
	fclose(f);
	return n;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

START_TEST(every_variant_has_herds_verdict)
{
	static char want[MAX_VARIANTS][128], got[MAX_VARIANTS][128];
	size_t nw = read_verdicts(want, MAX_VARIANTS), ng = 0;
	const char *dir = generate();
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && ng < MAX_VARIANTS) {
		size_t len = strlen(e->d_name);

		if (len > 7 && !strcmp(e->d_name + len - 7, ".litmus")) {
			snprintf(got[ng], sizeof(got[ng]), "%.*s", (int)(len - 7), e->d_name);
			ng++;
		}
	}
	closedir(d);
	qsort(want, nw, sizeof(want[0]), cmp_name);
	qsort(got, ng, sizeof(got[0]), cmp_name);
	ck_assert_msg(ng >= 150, "only %zu variants", ng);
	ck_assert_msg(nw == ng, "%zu verdicts for %zu variants", nw, ng);
	for (size_t i = 0; i < ng; i++)
		ck_assert_msg(!strcmp(want[i], got[i]), "variant %s, verdict for %s",
			      got[i], want[i]);
}
END_TEST

/* Which variants a test runs (by name). */
enum vgroup { V_ONE_THREAD, V_SECOND_WRITER, V_OTHER };

static enum vgroup group_of(const char *name)
{
	if (strstr(name, "+thr"))
		return V_SECOND_WRITER;
	if (!strncmp(name, "SM.B", 4) || !strncmp(name, "DIC.SM.B", 8) ||
	    !strncmp(name, "IDC.SM.B", 8))
		return V_ONE_THREAD;
	return V_OTHER;
}

/* Runs `ftv litmus --kinds` on the variants of group g (at least min of
 * them): every one gives herd's verdict (the architecture's where
 * herd-arch.txt says), every exploration complete, none unsupported. */
static void run_group(enum vgroup g, int min)
{
	const char *dir = generate();
	char kinds[512], *out = NULL;
	char **argv = calloc(MAX_VARIANTS + 8, sizeof(*argv));
	int n = 0, rc, lines = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	ck_assert_ptr_nonnull(argv);
	snprintf(kinds, sizeof(kinds), "%s", expected_kinds());
	argv[n++] = (char *)ftv_test_env("FTV");
	argv[n++] = "litmus";
	argv[n++] = "--kinds";
	argv[n++] = kinds;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && n < MAX_VARIANTS + 4) {
		size_t len = strlen(e->d_name);
		char path[1024];

		if (len < 8 || strcmp(e->d_name + len - 7, ".litmus") || group_of(e->d_name) != g)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		argv[n++] = strdup(path);
	}
	closedir(d);
	argv[n] = NULL;
	ck_assert_msg(n >= 4 + min, "only %d variants", n - 4);
	rc = ftv_test_run(argv, &out);
	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
	for (const char *p = out; (p = strchr(p, '\n')); p++)
		lines++;
	ck_assert_msg(lines == n - 4, "%d lines for %d tests:\n%s", lines, n - 4, out);
	ck_assert_msg(!strstr(out, "MISMATCH") && !strstr(out, "INCOMPLETE") &&
		      !strstr(out, "unsupported"), "%s", out);
	for (int i = 4; i < n; i++)
		free(argv[i]);
	free(argv);
	free(out);
}

/* The one-thread self-modification shapes (SM.B*: a thread patches its
 * own next branch with part of the maintenance sequence). */
START_TEST(one_thread_variants_agree_with_herd)
{
	run_group(V_ONE_THREAD, 100);
}
END_TEST

/* P0 copied as a third thread: two writers with cache maintenance on
 * each, the three-thread MP.RF/MP.FF shapes that crashed inside
 * libunicorn once (issue 30), each now decided in a few thousand
 * reduced runs. */
START_TEST(second_writer_variants_agree_with_herd)
{
	run_group(V_SECOND_WRITER, 25);
}
END_TEST

/* Every other variant: two threads, a barrier or cache maintenance
 * removed, replaced or moved, the CacheType changed. */
START_TEST(two_thread_variants_agree_with_herd)
{
	run_group(V_OTHER, 250);
}
END_TEST

static Suite *herd_variants_suite(void)
{
	Suite *s = suite_create("herd_variants");
	TCase *tc = tcase_create("variants");

	/* about 20 s of CPU for the 439; wall clock on a loaded machine */
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_variant_has_herds_verdict);
	tcase_add_test(tc, one_thread_variants_agree_with_herd);
	tcase_add_test(tc, second_writer_variants_agree_with_herd);
	tcase_add_test(tc, two_thread_variants_agree_with_herd);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(herd_variants, herd_variants_suite)
