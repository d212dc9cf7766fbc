/* Messages that respect the user: a name finds its file in the data
 * directory's subdirectories too, "cannot open" says why and where it
 * looked, a directory or an empty file given as an input says so, a
 * control character in an input is refused (never echoed to a terminal),
 * the skipped sites are one note on stderr, and `ftv help` prints the one
 * exit-code table. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

START_TEST(names_resolve_in_data_subdirectories)
{
	char *out;
	/* corpus/litmus/herd/ */
	int rc = FTV_RUN(&out, "litmus", "MP.RF+cachesync+ctrl-isb");

	ck_assert_msg(rc == 0 && strstr(out, "MP.RF+cachesync+ctrl-isb ") &&
			      strstr(out, "Forbidden expected"),
		      "exit %d: %s", rc, out);
	free(out);
	/* corpus/layouts/, as ftv replay finds it */
	rc = FTV_RUN(&out, "layout", "debian-trixie-arm64-6.12.107-cloud");
	ck_assert_msg(rc == 0 && strstr(out, "sites: 96618 in "), "exit %d: %s", rc, out);
	free(out);
}
END_TEST

START_TEST(cannot_open_says_why_and_where)
{
	char *out, empty[64];
	int rc = FTV_RUN(&out, "scenario", "no-such-scenario");

	ck_assert_msg(rc == 2 && strstr(out, "ftv scenario: no-such-scenario: cannot open: no such "
					     "file here, nor no-such-scenario or "
					     "no-such-scenario.scn in ") &&
			      strstr(out, "scenarios or its subdirectories\n"),
		      "exit %d: %s", rc, out);
	free(out);
	rc = FTV_RUN(&out, "litmus", "no-such-test");
	ck_assert_msg(rc == 2 && strstr(out, "ftv litmus: no-such-test: cannot open: no such file "
					     "here, nor no-such-test or no-such-test.litmus in "),
		      "exit %d: %s", rc, out);
	free(out);
	rc = FTV_RUN(&out, "verify", "/tmp");
	ck_assert_msg(rc == 2 && strstr(out, "ftv verify: /tmp: is a directory, not a file\n"),
		      "exit %d: %s", rc, out);
	free(out);
	ftv_test_tmpfile(empty, sizeof(empty), "");
	rc = FTV_RUN(&out, "scenario", empty);
	ck_assert_msg(rc == 2 && strstr(out, ": is empty\n"), "exit %d: %s", rc, out);
	free(out);
	unlink(empty);
}
END_TEST

/* A scenario whose name would set the terminal's title (OSC 0) */
START_TEST(control_characters_in_an_input_are_refused_never_echoed)
{
	char path[64], want[128], *out;
	int rc;

	ftv_test_tmpfile(path, sizeof(path),
			 "name \033]0;pwned\007\nscheme callops\nobjects rand1\nexpect ok\n");
	rc = FTV_RUN(&out, "scenario", path);
	snprintf(want, sizeof(want), "%s:1:6: a control character (0x1b): not a text file\n", path);
	ck_assert_msg(rc == 2 && strstr(out, want), "exit %d: %s", rc, out);
	ck_assert_msg(!strchr(out, '\033') && !strchr(out, '\007'), "raw control bytes: %s", out);
	free(out);
	unlink(path);
}
END_TEST

START_TEST(skipped_sites_are_one_note_on_stderr)
{
	char cmd[4400], *out;
	char *sh[] = { "/bin/sh", "-c", cmd, NULL };
	int rc;

	snprintf(cmd, sizeof(cmd), "'%s' scenario callops-basic 2>&1 >/dev/null",
		 ftv_test_env("FTV"));
	rc = ftv_test_run(sh, &out);
	ck_assert_msg(rc == 0 && !strncmp(out, "note: 13 sites skipped, as the kernel does: "
					       "Misaligned patch-site (",
					  60) &&
			      strchr(out, '\n') == out + strlen(out) - 1,
		      "exit %d: %s", rc, out);
	free(out);
	snprintf(cmd, sizeof(cmd), "'%s' scenario callops-basic 2>/dev/null", ftv_test_env("FTV"));
	rc = ftv_test_run(sh, &out);
	ck_assert_msg(rc == 0 && !strstr(out, "Misaligned"), "exit %d: %s", rc, out);
	free(out);
}
END_TEST

START_TEST(help_prints_the_exit_table)
{
	char *out;
	int rc = FTV_RUN(&out, "help");

	ck_assert_msg(rc == 0 && strstr(out, "\nexit status:\n  0    ok: ") &&
			      strstr(out, "\n  3    incomplete: ") &&
			      strstr(out, "\n  130  interrupted by SIGINT"),
		      "exit %d: %s", rc, out);
	free(out);
}
END_TEST

/* Every line of out is one JSON object of that type. */
static void json_lines(const char *out, const char *type, int n)
{
	char want[64];
	int lines = 0;

	snprintf(want, sizeof(want), "{\"type\":\"%s", type);
	for (const char *p = out; *p; lines++) {
		const char *nl = strchr(p, '\n');

		ck_assert_msg(nl && !strncmp(p, want, strlen(want)) && nl[-1] == '}', "%s", out);
		p = nl + 1;
	}
	ck_assert_msg(lines == n, "%d lines, not %d: %s", lines, n, out);
}

/* scenario, conform and litmus: --json with fuzz's and verify's envelope */
START_TEST(scenario_conform_and_litmus_print_json)
{
	char cmd[4400], *out;
	char *sh[] = { "/bin/sh", "-c", cmd, NULL };
	int rc;

	snprintf(cmd, sizeof(cmd), "'%s' scenario --json callops-basic mutant-bl-before-literal "
		 "2>/dev/null", ftv_test_env("FTV"));
	rc = ftv_test_run(sh, &out);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	json_lines(out, "scenario\"", 2);
	ck_assert_msg(strstr(out, "\"verdict\":\"VIOLATION\"") &&
			      strstr(out, "\"kinds\":\"nop-ops\"") &&
			      strstr(out, "\"report\":\"== callops-basic: "),
		      "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "'%s' conform --json callops-basic 2>/dev/null",
		 ftv_test_env("FTV"));
	rc = ftv_test_run(sh, &out);
	ck_assert_msg(rc == 0 && strstr(out, "{\"type\":\"conform-summary\",\"passed\":1,"),
		      "exit %d: %s", rc, out);
	json_lines(out, "conform", 2);
	free(out);
	rc = FTV_RUN(&out, "litmus", "--json", "coFF");
	ck_assert_msg(rc == 0 && strstr(out, "\"verdict\":\"Allowed\",\"expected\":\"Allowed\","
					     "\"result\":\"ok\""),
		      "exit %d: %s", rc, out);
	json_lines(out, "litmus\"", 1);
	free(out);
}
END_TEST

static Suite *messages_suite(void)
{
	Suite *s = suite_create("messages");
	TCase *tc = tcase_create("messages");

	tcase_add_test(tc, names_resolve_in_data_subdirectories);
	tcase_add_test(tc, cannot_open_says_why_and_where);
	tcase_add_test(tc, control_characters_in_an_input_are_refused_never_echoed);
	tcase_add_test(tc, skipped_sites_are_one_note_on_stderr);
	tcase_add_test(tc, help_prints_the_exit_table);
	tcase_add_test(tc, scenario_conform_and_litmus_print_json);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(messages, messages_suite)
