/* The README's examples cannot go stale: every "$ " command shown in a
 * fenced block is run by tools/readme_examples.py and its output compared
 * with what the README shows, timings, RSS and the scratch directory masked
 * (the rule is in the script's docstring). These tests run it on the README
 * as it is, and on copies with one shown line changed: a count or a
 * violation's step must fail, a timing or an RSS figure must not. */
#include "tests/suite.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs the script on FILE (NULL: its default set, README.md and the docs/
 * pages with examples; only the blocks containing MATCH, when given);
 * returns its exit status, its output in *out. */
static int examples(const char *file, const char *match, char **out)
{
	char script[4200];
	char *argv[12];
	int n = 0;

	ftv_test_path(script, sizeof(script), "FTV_TOP", "tools/readme_examples.py");
	argv[n++] = (char *)ftv_test_env("FTV_PYTHON");
	argv[n++] = script;
	argv[n++] = "--build";
	argv[n++] = (char *)ftv_test_env("FTV_BUILD");
	argv[n++] = "--top";
	argv[n++] = (char *)ftv_test_env("FTV_TOP");
	argv[n++] = "--check";
	if (match) {
		argv[n++] = "--match";
		argv[n++] = (char *)match;
	}
	if (file)
		argv[n++] = (char *)file;
	argv[n] = NULL;
	return ftv_test_run(argv, out);
}

/* A copy of the README in a fresh directory, the first match of the
 * extended regex PAT replaced by REP; *line gets the changed line. */
static void readme_with(const char *pat, const char *rep, char *path, size_t pathsz,
			char *line, size_t linesz)
{
	char readme[4200], dir[] = "/tmp/ftv-readme-test-XXXXXX";
	char *text, *ls, *le;
	regex_t rx;
	regmatch_t m;
	FILE *f;

	ftv_test_path(readme, sizeof(readme), "FTV_TOP", "README.md");
	text = ftv_test_slurp(readme);
	ck_assert(regcomp(&rx, pat, REG_EXTENDED | REG_NEWLINE) == 0);
	ck_assert_msg(regexec(&rx, text, 1, &m, 0) == 0, "README.md has no line matching %s", pat);
	regfree(&rx);
	ck_assert(mkdtemp(dir));
	snprintf(path, pathsz, "%s/README.md", dir);
	ck_assert((f = fopen(path, "w")));
	fwrite(text, 1, (size_t)m.rm_so, f);
	fputs(rep, f);
	fputs(text + m.rm_eo, f);
	ck_assert(fclose(f) == 0);
	for (ls = text + m.rm_so; ls > text && ls[-1] != '\n'; ls--)
		;
	le = strchr(text + m.rm_eo, '\n');
	snprintf(line, linesz, "%.*s%s%.*s", (int)(text + m.rm_so - ls), ls, rep,
		 (int)((le ? le : text + strlen(text)) - (text + m.rm_eo)), text + m.rm_eo);
	free(text);
}

static void drop(const char *path)
{
	char dir[4200];

	unlink(path);
	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = 0;
	rmdir(dir);
}

START_TEST(the_readme_examples_print_what_the_readme_shows)
{
	char *out = NULL, *p;
	int rc, ran = 0;

	rc = examples(NULL, NULL, &out);
	ck_assert_msg(rc == 0, "the examples of README.md or docs/ differ from what ftv prints "
		      "(`make readme-examples` rewrites them after a deliberate change):\n%.4000s", out);
	p = strstr(out, "readme_examples: ");
	ck_assert_msg(p && sscanf(p, "readme_examples: %d commands run", &ran) == 1, "%s", out);
	/* the quick start, the report, the commands: a README that lost its
	 * examples would pass with nothing checked */
	ck_assert_msg(ran >= 12, "only %d commands run:\n%s", ran, out);
	free(out);
}
END_TEST

/* Each change (an extended regex and its replacement) applied alone to a
 * copy of the README: the blocks holding the changed line exit WANT. */
static void check_changed(const char *const change[][2], size_t n, int want)
{
	for (size_t i = 0; i < n; i++) {
		char path[4200], line[4200], *out = NULL;
		int rc;

		readme_with(change[i][0], change[i][1], path, sizeof(path), line, sizeof(line));
		rc = examples(path, line, &out);
		ck_assert_msg(rc == want, "changed '%s': exit %d, not %d:\n%s", line, rc, want, out);
		/* a difference is reported with the line as it is now shown */
		ck_assert_msg(!want || (strstr(out, "differs") && strstr(out, change[i][1])),
			      "changed '%s', not named:\n%s", line, out);
		free(out);
		drop(path);
	}
}

/* A changed count ("3 passed" shown, more found) and a changed first
 * VIOLATION line fail, naming the line. */
START_TEST(a_changed_count_or_violation_fails)
{
	static const char *const change[][2] = {
		{ "^[0-9]+ passed, 0 failed$", "99 passed, 0 failed" },
		{ "^VIOLATION nop-ops cpu[0-9]+ step [0-9]+", "VIOLATION nop-ops cpu0 step 1" },
	};

	check_changed(change, sizeof(change) / sizeof(change[0]), 1);
}
END_TEST

/* A duration, a rate or a peak RSS that moved is no difference. */
START_TEST(timings_and_rss_are_masked)
{
	static const char *const change[][2] = {
		{ "iterations in [0-9.]+ s \\([0-9.]+ iterations/s\\)",
		  "iterations in 123.4 s (0.02 iterations/s)" },
		{ "peak RSS [0-9]+ MiB", "peak RSS 999 MiB" },
		{ "  [0-9]+\\.[0-9]s  expected no violation", "  123.4s  expected no violation" },
	};

	check_changed(change, sizeof(change) / sizeof(change[0]), 0);
}
END_TEST

/* A file without an example is bad input, not a pass. */
START_TEST(a_file_without_examples_is_bad_input)
{
	char path[] = "/tmp/ftv-readme-none-XXXXXX", *out = NULL;
	int fd = mkstemp(path);

	ck_assert(fd >= 0);
	ck_assert(write(fd, "# nothing\n\n```\nmake\n```\n", 24) == 24);
	close(fd);
	ck_assert_int_eq(examples(path, NULL, &out), 2);
	ck_assert_msg(strstr(out, "no example"), "%s", out);
	free(out);
	unlink(path);
}
END_TEST

static Suite *readme_suite(void)
{
	Suite *s = suite_create("readme");
	TCase *tc = tcase_create("readme");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, the_readme_examples_print_what_the_readme_shows);
	tcase_add_test(tc, a_changed_count_or_violation_fails);
	tcase_add_test(tc, timings_and_rss_are_masked);
	tcase_add_test(tc, a_file_without_examples_is_bad_input);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(readme, readme_suite)
