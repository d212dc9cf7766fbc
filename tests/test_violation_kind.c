/* The violation kinds' table (verify/violation_kind.h): it lists every
 * kind the executor and the world's checks report, each pinned kind's
 * scenario exists and reports it, `expect violation` refuses a kind it
 * does not list (file:line, the list of kinds, exit 2), and the man page's
 * VIOLATIONS section names them all. */
#include "tests/suite.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "executor/exec.h"
#include "verify/scenario.h"
#include "verify/violation_kind.h"
#include "verify/world.h"

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static size_t nkinds(void)
{
	size_t n = 0;

	while (violation_kind_at(n))
		n++;
	return n;
}

START_TEST(every_kind_once_with_a_layer_a_meaning_and_a_pin)
{
	const struct violation_kind *k;

	ck_assert_uint_ge(nkinds(), 20);
	for (size_t i = 0; (k = violation_kind_at(i)); i++) {
		ck_assert_ptr_eq(violation_kind_find(k->name), k);
		ck_assert(strstr(k->layer, "executor") || strstr(k->layer, "world"));
		ck_assert_msg(strlen(k->meaning) > 20 && !strchr(k->meaning, '\n'),
			      "%s: a one-line meaning", k->name);
		/* a scenario that shows it, or why none does */
		ck_assert_msg(!k->scenario != !k->unpinned, "%s: a scenario or a reason",
			      k->name);
	}
	ck_assert_ptr_null(violation_kind_find("no-such-kind"));
}
END_TEST

/* The executor names its kinds itself (exec_viol_name): each one a report
 * shows is in the table, as an executor kind. */
START_TEST(the_executors_kinds_are_in_the_table)
{
	for (int k = 0;; k++) {
		const char *name = exec_viol_name((enum exec_viol_kind)k);
		struct exec_violation v = { .kind = (enum exec_viol_kind)k };
		const struct violation_kind *vk;

		if (!strcmp(name, "?"))
			break;
		vk = violation_kind_find(name);
		if (!world_exec_violation_shown(&v)) {
			ck_assert_msg(!vk, "%s is never shown, yet listed", name);
			continue;
		}
		ck_assert_msg(vk && strstr(vk->layer, "executor"), "%s: not an executor kind",
			      name);
	}
}
END_TEST

/* Every kind the world's checks add (world_add_violation("KIND", ...) in
 * any verify/ file) is in the table: read from the sources, so a new
 * check's kind cannot be left out. */
START_TEST(the_worlds_kinds_in_the_sources_are_in_the_table)
{
	char dir[4096];
	struct dirent *e;
	size_t found = 0;
	DIR *d;

	ftv_test_path(dir, sizeof(dir), "FTV_TOP", "verify");
	d = opendir(dir);
	ck_assert_msg(d, "%s", dir);
	while ((e = readdir(d))) {
		char path[4400], *text = NULL, *p;
		size_t len = 0, l = strlen(e->d_name);
		FILE *in;

		if (l < 3 || strcmp(e->d_name + l - 2, ".c"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		in = fopen(path, "r");
		ck_assert_msg(in, "%s", path);
		ck_assert(getdelim(&text, &len, 0, in) > 0);
		fclose(in);
		for (p = text; (p = strstr(p, "world_add_violation(")); p++) {
			char kind[64];
			const char *q = strchr(p, '"');

			/* the definition and other mentions take no literal */
			if (!q || q - p > 60 || sscanf(q, "\"%63[^\"]\"", kind) != 1)
				continue;
			ck_assert_msg(violation_kind_find(kind), "%s: kind '%s' is not in the table",
				      e->d_name, kind);
			found++;
		}
		free(text);
	}
	closedir(d);
	ck_assert_uint_ge(found, 30);
}
END_TEST

/* Each pinned kind's scenario exists and its run reports the kind. */
START_TEST(each_pinning_scenario_reports_its_kind)
{
	const struct violation_kind *k = violation_kind_at((size_t)_i);
	char path[4096], rel[256], corpus[4096], tramp[4096], have[300], want[80];
	struct scenario *s;
	struct scn_result res;
	struct ftv_err err;

	ck_assert_ptr_nonnull(k);
	if (!k->scenario)
		return; /* its reason is checked above */
	snprintf(rel, sizeof(rel), "corpus/scenarios/%s.scn", k->scenario);
	ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
	ck_assert_msg(!access(path, R_OK), "%s: %s does not exist", k->name, path);
	ftv_test_path(corpus, sizeof(corpus), "FTV_BUILD", "corpus");
	ftv_test_path(tramp, sizeof(tramp), "FTV_BUILD", "trampolines");
	s = malloc(sizeof(*s));
	ck_assert(s);
	ck_assert_msg(!scenario_load(path, s, &err), "%s", err.msg);
	ck_assert_msg(!scenario_run(s, corpus, tramp, NULL, &res, &err), "%s", err.msg);
	snprintf(have, sizeof(have), " %s ", res.kinds);
	snprintf(want, sizeof(want), " %s ", k->name);
	ck_assert_msg(strstr(have, want), "%s: %s reports '%s'", k->name, k->scenario,
		      res.kinds);
	free(s);
}
END_TEST

START_TEST(expect_refuses_an_unknown_kind_naming_the_kinds)
{
	char path[64], *out;
	int rc;

	ftv_test_scn(path, sizeof(path), "name k\nscheme callops\nobjects rand1\n"
		     "expect violation count no-such-kind\n");
	rc = FTV_RUN(&out, "scenario", path);
	unlink(path);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, ":4: expect: unknown violation kind 'no-such-kind'"), "%s", out);
	ck_assert_msg(strstr(out, "count, ") || strstr(out, ", count"), "%s", out);
	ck_assert(strchr(out, '\n') == out + strlen(out) - 1);
	free(out);
}
END_TEST

START_TEST(the_man_page_lists_every_kind)
{
	const struct violation_kind *k;
	char *out, *sec;

	ck_assert_int_eq(FTV_RUN(&out, "help", "--man"), 0);
	sec = strstr(out, ".SH VIOLATIONS\n");
	ck_assert_ptr_nonnull(sec);
	for (size_t i = 0; (k = violation_kind_at(i)); i++) {
		char item[96], name[64];
		size_t n = 0;

		/* roff escapes the hyphens */
		for (const char *c = k->name; *c && n + 3 < sizeof(name); c++) {
			if (*c == '-')
				name[n++] = '\\';
			name[n++] = *c;
		}
		name[n] = 0;
		snprintf(item, sizeof(item), ".TP\n\\fB%s\\fR (", name);
		ck_assert_msg(strstr(sec, item), "no %s in the man page", k->name);
	}
	free(out);
}
END_TEST

/* The README's table of kinds ("Reading a report") names every kind of the
 * table, each as `kind`: a kind added without its line fails here. */
START_TEST(the_readme_lists_every_kind)
{
	const struct violation_kind *k;
	char path[4096], *text, *sec, *end;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "README.md");
	text = ftv_test_slurp(path);
	sec = strstr(text, "\n## Reading a report\n");
	ck_assert_msg(sec, "README.md has no \"Reading a report\" section");
	end = strstr(sec + 1, "\n## ");
	if (end)
		*end = 0;
	for (size_t i = 0; (k = violation_kind_at(i)); i++) {
		char item[96];

		snprintf(item, sizeof(item), "`%s`", k->name);
		ck_assert_msg(strstr(sec, item), "README.md's table of kinds has no %s", item);
	}
	free(text);
}
END_TEST

static Suite *violation_kind_suite(void)
{
	Suite *s = suite_create("violation_kind");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_kind_once_with_a_layer_a_meaning_and_a_pin);
	tcase_add_test(tc, the_executors_kinds_are_in_the_table);
	tcase_add_test(tc, the_worlds_kinds_in_the_sources_are_in_the_table);
	tcase_add_loop_test(tc, each_pinning_scenario_reports_its_kind, 0, (int)nkinds());
	tcase_add_test(tc, expect_refuses_an_unknown_kind_naming_the_kinds);
	tcase_add_test(tc, the_man_page_lists_every_kind);
	tcase_add_test(tc, the_readme_lists_every_kind);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(violation_kind, violation_kind_suite)
