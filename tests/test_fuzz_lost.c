/* `ftv fuzz` loses nothing it found: the replay file's directory is checked
 * before the campaign, an existing replay file is kept, a replay that
 * cannot be written is printed on stderr, JSON says found, --time bounds
 * the shrink too, SIGINT writes the finding and prints the summary (one
 * process and --jobs), SIGTERM does the same, a signal delivered twice at
 * once is one request, a finding is on disk before its shrink ends, and
 * --replay honours --json. */
#include "tests/suite.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

/* A finding in one iteration: seed 2's iteration 0 trips the mutant on 2
 * CPUs; with a shrink budget of 2 runs it stays short. */
#define FINDING "--seed", "2", "--cpus", "2", "--mutate", "bl-before-literal"

static void scratch(char *dir, size_t n)
{
	snprintf(dir, n, "/tmp/ftv-fuzz-lost-XXXXXX");
	ck_assert(mkdtemp(dir));
}

static void rm_rf(const char *dir)
{
	char *out;
	char *argv[] = { "/bin/rm", "-rf", (char *)dir, NULL };

	ftv_test_run(argv, &out);
	free(out);
}

/* The replay file still fails the same way. */
static void replays(const char *path)
{
	char *out;
	int rc = FTV_RUN(&out, "fuzz", "--replay", (char *)path);

	ck_assert_msg(rc == 1 && strstr(out, "VIOLATION (") && strstr(out, "nop-ops"),
		      "replay of %s: exit %d: %s", path, rc, out);
	free(out);
}

START_TEST(fuzz_out_in_a_missing_directory_fails_before_the_campaign)
{
	char *out;
	int rc = FTV_RUN(&out, "fuzz", FINDING, "--iterations", "1", "--out",
			 "/nonexistent/dir/x.scn", "--json");

	ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "ftv fuzz: --out: /nonexistent/dir/x.scn: ") &&
		      strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
	ck_assert_msg(!strstr(out, "\"type\""), "the campaign ran: %s", out);
	free(out);
	rc = FTV_RUN(&out, "fuzz", "--iterations", "1", "--out", "/tmp");
	ck_assert_msg(rc == 2 && strstr(out, "/tmp: is a directory"), "exit %d: %s", rc, out);
	free(out);
}
END_TEST

/* /dev/full passes the check (it exists and is no directory) and fails the
 * write: the replay text goes to stderr, the finding is still reported,
 * JSON says found. */
START_TEST(fuzz_replay_that_cannot_be_written_is_printed_and_found)
{
	char *out;
	const char *err, *summary;
	int rc = FTV_RUN(&out, "fuzz", FINDING, "--iterations", "1", "--shrink-budget", "2",
			 "--out", "/dev/full", "--json");

	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	err = strstr(out, "ftv fuzz: cannot write the replay file: /dev/full: ");
	ck_assert_msg(err, "%s", out);
	/* the replay file itself, whole */
	ck_assert_msg(strstr(err, "\n# ftv fuzz replay file: a scenario") &&
		      strstr(err, "\nname     fuzz-4871f8862353a927\n") &&
		      strstr(err, "\nexpect   violation nop-ops\n"), "%s", err);
	ck_assert_msg(strstr(out, "{\"type\":\"finding\"") && strstr(out, "\"replay\":null"),
		      "%s", out);
	summary = strstr(out, "{\"type\":\"summary\"");
	ck_assert_msg(summary && strstr(summary, "\"violations\":1,\"found\":true"), "%s", out);
	free(out);
}
END_TEST

START_TEST(fuzz_keeps_an_existing_replay_file)
{
	char dir[64], path[128], next[128], *out, *kept;
	FILE *f;
	int rc;

	scratch(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/ftv-fuzz-2.scn", dir);
	snprintf(next, sizeof(next), "%s/ftv-fuzz-2-1.scn", dir);
	f = fopen(path, "w");
	ck_assert(f);
	fputs("an earlier finding\n", f);
	fclose(f);
	rc = FTV_RUN(&out, "fuzz", FINDING, "--iterations", "1", "--shrink-budget", "2",
		     "--out", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	kept = ftv_test_slurp(path);
	ck_assert_str_eq(kept, "an earlier finding\n");
	free(kept);
	ck_assert_msg(strstr(out, "the replay file is ") && strstr(out, next), "%s", out);
	ck_assert_msg(strstr(out, "(replay: ftv fuzz --replay ") &&
		      strstr(strstr(out, "(replay: ftv fuzz --replay "), next), "%s", out);
	replays(next);
	free(out);
	rm_rf(dir);
}
END_TEST

/* --time bounds the shrink: with the time spent by the first iteration
 * (which always runs), the shrink is cut short at once and the case as
 * found is written, saying so. */
START_TEST(fuzz_time_cuts_the_shrink_short_and_writes_the_case)
{
	char dir[64], path[128], *out, *scn;
	int rc;

	scratch(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/t.scn", dir);
	rc = FTV_RUN(&out, "fuzz", FINDING, "--time", "0.001", "--out", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	{
		/* as found: as many operations after the shrink as before */
		const char *at = strstr(out, "found nop-ops; shrunk from ");
		unsigned from = 0, to = 1;

		ck_assert_msg(at && sscanf(at, "found nop-ops; shrunk from %u to %u", &from,
					   &to) == 2 && from == to, "%s", out);
		ck_assert_msg(strstr(at, " operations, 2 to 2 CPUs, 129 to 129 rounds in 0 runs "
					 "(cut short by --time)\n"), "%s", out);
	}
	ck_assert_msg(strstr(out, "fuzz: seed 2: 1 iterations in "), "%s", out);
	scn = ftv_test_slurp(path);
	ck_assert_msg(strstr(scn, "in 0 runs (cut short by --time)\n"), "%s", scn);
	free(scn);
	replays(path);
	free(out);
	rm_rf(dir);
}
END_TEST

/* Runs ftv with args in its own process group, its output into *out; once
 * the output holds `when`, SIGINT goes to the whole group, as a terminal's
 * Ctrl-C would. Returns the wait status. */
/* How a test signals the campaign once `when` shows in its output: sig
 * to its process group (a terminal's Ctrl-C); with `also_child`, to the
 * campaign process too, at the same instant (timeout(1) does both). */
static int signal_when(char *const args[], const char *when, int sig, int also_child,
		       char **out);

static int interrupt_when(char *const args[], const char *when, char **out)
{
	return signal_when(args, when, SIGINT, 0, out);
}

static int signal_when(char *const args[], const char *when, int sig, int also_child,
		       char **out)
{
	char *argv[32];
	int fds[2], status, sent = 0, n = 0;
	size_t len = 0, cap = 1 << 16;
	char *buf = malloc(cap);
	pid_t pid;
	ssize_t r;

	argv[n++] = (char *)ftv_test_env("FTV");
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	ck_assert(buf && pipe(fds) == 0);
	pid = fork();
	ck_assert(pid >= 0);
	if (!pid) {
		setpgid(0, 0);
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[1]);
	while ((r = read(fds[0], buf + len, cap - len - 1)) > 0) {
		len += (size_t)r;
		buf[len] = 0;
		if (!sent && strstr(buf, when)) {
			/* the child first, its group a moment later: two
			 * deliveries, not one pending signal */
			if (also_child) {
				kill(pid, sig);
				usleep(20000);
			}
			kill(-pid, sig);
			sent = 1;
		}
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert(buf);
		}
	}
	close(fds[0]);
	buf[len] = 0;
	waitpid(pid, &status, 0);
	*out = buf;
	ck_assert_msg(sent, "never saw '%s': %s", when, buf);
	return status;
}

/* Nothing found: the summary of what ran, then death by SIGINT (a shell
 * sees an interrupted campaign, not a clean one). */
static void interrupted_clean(const char *jobs)
{
	char *args[] = { "fuzz", "--seed", "1", "--time", "600", "--cpus", "1", "--jobs",
			 (char *)jobs, NULL };
	char *out;
	int st = interrupt_when(args, "fuzz: iteration ", &out);

	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "status 0x%x: %s", st, out);
	ck_assert_msg(strstr(out, "fuzz: interrupted (SIGINT): stopped after the runs in progress\n"
				  "fuzz: seed 1: "),
		      "%s", out);
	ck_assert_msg(strstr(out, " 0 violating iterations\n"), "%s", out);
	ck_assert_msg(!strstr(out, "died"), "%s", out);
	free(out);
}

START_TEST(fuzz_sigint_prints_the_summary)
{
	interrupted_clean("1");
}
END_TEST

START_TEST(fuzz_sigint_prints_the_summary_with_jobs)
{
	interrupted_clean("2");
}
END_TEST

/* SIGINT while a finding is shrunk: the smallest case so far is written
 * and reported, then the summary; exit 1. */
static void signalled_finding(const char *jobs, int sig, int also_child)
{
	char dir[64], path[128], *out, cut[64], said[64];
	char *args[] = { "fuzz", FINDING, "--time", "600", "--shrink-budget", "100000",
			 "--jobs", (char *)jobs, "--out", path, NULL };
	const char *name = sig == SIGTERM ? "SIGTERM" : "SIGINT";
	int st;

	scratch(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/i.scn", dir);
	st = signal_when(args, "VIOLATION (nop-ops), shrinking\n", sig, also_child, &out);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 1, "status 0x%x: %s", st, out);
	ck_assert_msg(strstr(out, "found nop-ops; shrunk from "), "%s", out);
	/* one process: iteration 0's shrink takes 24 runs, so it was cut
	 * short, unless the machine stalled long enough for it to finish
	 * (with jobs, whichever worker found first) */
	snprintf(cut, sizeof(cut), " (cut short by %s)\n", name);
	if (!strcmp(jobs, "1"))
		ck_assert_msg(strstr(out, cut) || strstr(out, "in 24 runs\n"), "%s", out);
	ck_assert_msg(strstr(out, "(replay: ftv fuzz --replay ") && strstr(out, path), "%s", out);
	snprintf(said, sizeof(said), "fuzz: interrupted (%s)", name);
	ck_assert_msg(strstr(out, said) && strstr(out, " 1 violating iterations\n"), "%s", out);
	replays(path);
	free(out);
	rm_rf(dir);
}

static void interrupted_finding(const char *jobs)
{
	signalled_finding(jobs, SIGINT, 0);
}

/* timeout -s INT: the signal reaches the campaign twice at once (its
 * group and itself): one request, not the second Ctrl-C that kills */
START_TEST(fuzz_sigint_twice_at_once_is_one_request)
{
	signalled_finding("2", SIGINT, 1);
}
END_TEST

/* SIGTERM (timeout's default, a CI job cancelled) is SIGINT */
START_TEST(fuzz_sigterm_during_a_shrink_writes_the_finding)
{
	signalled_finding("1", SIGTERM, 0);
}
END_TEST

START_TEST(fuzz_sigterm_during_a_shrink_writes_the_finding_with_jobs)
{
	signalled_finding("2", SIGTERM, 1);
}
END_TEST

/* Killed outright mid-shrink (SIGKILL: nothing can be caught), the
 * finding is on disk already: written before the shrink's first run and
 * replaced by each smaller case. */
START_TEST(fuzz_finding_is_on_disk_before_its_shrink_ends)
{
	char dir[64], path[128], *out, *text;
	char *args[] = { "fuzz", FINDING, "--time", "600", "--shrink-budget", "100000",
			 "--out", path, NULL };
	int st;

	scratch(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/k.scn", dir);
	st = signal_when(args, "fuzz: shrinking: run ", SIGKILL, 0, &out);
	ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "status 0x%x: %s", st, out);
	text = ftv_test_slurp(path);
	ck_assert_msg(strstr(text, "# violation nop-ops; being shrunk (not finished) from "),
		      "%s", text);
	free(text);
	replays(path);
	free(out);
	rm_rf(dir);
}
END_TEST

START_TEST(fuzz_sigint_writes_the_finding)
{
	interrupted_finding("1");
}
END_TEST

START_TEST(fuzz_sigint_writes_the_finding_with_jobs)
{
	interrupted_finding("2");
}
END_TEST

START_TEST(fuzz_replay_json_is_one_object)
{
	char dir[64], path[128], *out;
	int rc;

	scratch(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/r.scn", dir);
	rc = FTV_RUN(&out, "fuzz", FINDING, "--iterations", "1", "--shrink-budget", "2",
		     "--out", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	free(out);
	rc = FTV_RUN(&out, "fuzz", "--replay", path, "--json");
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_msg(!strncmp(out, "{\"type\":\"replay\",\"replay\":\"", 27), "%s", out);
	ck_assert_msg(strstr(out, "\"name\":\"fuzz-4871f8862353a927\",\"scheme\":\"callops\","
				  "\"arch\":\"arm64\",\"cpus\":2,"), "%s", out);
	ck_assert_msg(strstr(out, "\"violated\":true,") && strstr(out, "\"kinds\":\"nop-ops\",") &&
		      strstr(out, "\"as_expected\":true,") &&
		      strstr(out, "\"report\":\"== fuzz-4871f8862353a927: "), "%s", out);
	ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1 && out[strlen(out) - 2] == '}',
		      "not one line: %s", out);
	free(out);
	rm_rf(dir);
}
END_TEST

static Suite *fuzz_lost_suite(void)
{
	Suite *s = suite_create("fuzz_lost");
	TCase *tc = tcase_create("fuzz_lost");

	tcase_set_timeout(tc, 300); /* ASan builds, loaded machines */
	tcase_add_test(tc, fuzz_out_in_a_missing_directory_fails_before_the_campaign);
	tcase_add_test(tc, fuzz_replay_that_cannot_be_written_is_printed_and_found);
	tcase_add_test(tc, fuzz_keeps_an_existing_replay_file);
	tcase_add_test(tc, fuzz_time_cuts_the_shrink_short_and_writes_the_case);
	tcase_add_test(tc, fuzz_sigint_prints_the_summary);
	tcase_add_test(tc, fuzz_sigint_prints_the_summary_with_jobs);
	tcase_add_test(tc, fuzz_sigint_writes_the_finding);
	tcase_add_test(tc, fuzz_sigint_writes_the_finding_with_jobs);
	tcase_add_test(tc, fuzz_sigint_twice_at_once_is_one_request);
	tcase_add_test(tc, fuzz_sigterm_during_a_shrink_writes_the_finding);
	tcase_add_test(tc, fuzz_sigterm_during_a_shrink_writes_the_finding_with_jobs);
	tcase_add_test(tc, fuzz_finding_is_on_disk_before_its_shrink_ends);
	tcase_add_test(tc, fuzz_replay_json_is_one_object);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(fuzz_lost, fuzz_lost_suite)
