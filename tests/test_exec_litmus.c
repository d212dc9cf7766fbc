/* `ftv litmus` on the shipped corpus (herd7 aarch64-ifetch verdicts, DIC=0,
 * IDC=0; the riscv64 files after Zifencei) and on malformed and
 * mis-labelled files. */
#include "tests/suite.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Returns a malloc'd path. */
static char *write_tmp(const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", ftv_test_env("FTV_BUILD"), name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return strdup(path);
}

/* Runs `ftv litmus [extra] FILES` on a glob of the source tree: exit 0,
 * one "ok" line per file, every exploration complete. Returns the output
 * (malloc'd). */
static char *run_corpus(const char *rel, size_t min, const char *extra)
{
	char pattern[512], *out = NULL;
	char *argv[96];
	glob_t g;
	size_t n = 0, oks = 0;
	int rc;

	ftv_test_path(pattern, sizeof(pattern), "FTV_TOP", rel);
	ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, min);
	argv[n++] = (char *)ftv_test_env("FTV");
	argv[n++] = "litmus";
	/* no wall-clock budget: a verdict must not depend on the machine's
	 * load (--max-runs still bounds every test) */
	argv[n++] = "--time-limit";
	argv[n++] = "0";
	if (extra) {
		argv[n++] = "--kinds";
		argv[n++] = (char *)extra;
	}
	for (size_t i = 0; i < g.gl_pathc && n < 95; i++)
		argv[n++] = g.gl_pathv[i];
	argv[n] = NULL;
	ck_assert_uint_lt(g.gl_pathc, 90);
	rc = ftv_test_run(argv, &out);
	ck_assert_msg(rc == 0, "%s", out);
	ck_assert_ptr_null(strstr(out, "MISMATCH"));
	/* Every file printed one "ok" line, each enumeration complete. */
	for (char *p = out; (p = strstr(p, " ok ")); p++)
		oks++;
	ck_assert_msg(oks == g.gl_pathc, "%zu ok of %zu:\n%s", oks,
		      (size_t)g.gl_pathc, out);
	ck_assert_ptr_null(strstr(out, "INCOMPLETE"));
	globfree(&g);
	return out;
}

START_TEST(litmus_corpus_matches_the_herd_verdicts)
{
	char *out = run_corpus("corpus/litmus/*.litmus", 10, NULL);

	ck_assert_ptr_nonnull(strstr(out, "SM.B+isb "));
	ck_assert_ptr_nonnull(strstr(out, "SB-bnop-cachesyncs "));
	free(out);
}
END_TEST

/* Our own tests in herd's syntax, of the shapes the patching schemes rely
 * on, against the verdicts herd7 gave them (kinds.txt). */
START_TEST(litmus_herd_corpus_matches_herd7)
{
	char kinds[512], *out;

	ftv_test_path(kinds, sizeof(kinds), "FTV_TOP", "corpus/litmus/herd/kinds.txt");
	out = run_corpus("corpus/litmus/herd/*.litmus", 30, kinds);
	ck_assert_ptr_nonnull(strstr(out, "MP.FR+po+po                      Allowed   expected Allowed   ok"));
	ck_assert_ptr_nonnull(strstr(out, "DIC.SM.B+dsb-isb                 Forbidden expected Forbidden ok"));
	free(out);
}
END_TEST

/* The riscv64 fetch rules as data (Zifencei, Ziccif): FENCE.I is needed by
 * the fetching hart itself, on the writer it orders nothing for others. */
START_TEST(litmus_riscv64_corpus_matches_zifencei)
{
	char *out = run_corpus("corpus/litmus/riscv64/*.litmus", 7, NULL);

	ck_assert_ptr_nonnull(strstr(out, "SM+fence.i                       Forbidden expected Forbidden ok"));
	ck_assert_ptr_nonnull(strstr(out, "MP+fence.i+po                    Allowed   expected Allowed   ok"));
	free(out);
}
END_TEST

START_TEST(litmus_wrong_expectation_is_a_mismatch_exit_1)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus",
			 write_tmp("wrong.litmus",
				   "litmus SM.B+isb-wrong\n"
				   "expect Forbidden\n"
				   "init 0:x0 = insn \"nop\"\n"
				   "init 0:x1 = P0:L0\n"
				   "thread 0\n"
				   "    str w0, [x1]\n"
				   "    isb\n"
				   "L0: b L1\n"
				   "    mov w9, #1\n"
				   "L1:\n"
				   "exists 0:x9=0\n"),
			 NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	ck_assert_ptr_nonnull(strstr(out, "Allowed   expected Forbidden MISMATCH"));
	free(out);
	free(argv[2]);
}
END_TEST

START_TEST(litmus_malformed_file_names_file_and_line_exit_2)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus",
			 write_tmp("bad.litmus",
				   "litmus bad\n"
				   "expect Allowed\n"
				   "thread 0\n"
				   "    frobnicate x1, x2\n"
				   "exists 0:x1=0\n"),
			 NULL };
	char *argv2[] = { (char *)ftv_test_env("FTV"), "litmus",
			  write_tmp("bad2.litmus",
				    "litmus bad2\n"
				    "init 0:q7 = 1\n"),
			  NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_msg(strstr(out, "bad.litmus:4: 'frobnicate x1, x2'") != NULL,
		      "%s", out);
	free(out);
	ck_assert_int_eq(ftv_test_run(argv2, &out), 2);
	ck_assert_msg(strstr(out, "bad2.litmus:2: bad register") != NULL, "%s",
		      out);
	free(out);
	free(argv[2]);
	free(argv2[2]);
}
END_TEST

START_TEST(litmus_verbose_shows_a_witness_run)
{
	char path[512], *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "-v", path,
			 NULL };

	ftv_test_path(path, sizeof(path), "FTV_TOP",
		      "corpus/litmus/coFF.litmus");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	/* coFF's witness fetches the NOP, then the old branch. */
	ck_assert_msg(strstr(out, "a run satisfying the condition:") &&
			      strstr(out, "fetch  P1+0x14/0x2c: d503201f (nop)") &&
			      strstr(out, "fetch  P1+0x14/0x2c: 14000003 (b "),
		      "%s", out);
	free(out);
}
END_TEST

START_TEST(litmus_thread_that_faults_is_rejected_with_its_line)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus",
			 write_tmp("fault.litmus",
				   "litmus fault\n"
				   "expect Allowed\n"
				   "thread 0\n"
				   "    nop\n"
				   "    ldr x0, [x1]\n"
				   "exists 0:x0=0\n"),
			 NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_msg(strstr(out, "fault.litmus:5: run 0: cpu0") &&
			      strstr(out, "ldr x0, [x1]"),
		      "%s", out);
	free(out);
	free(argv[2]);
}
END_TEST

/* The fetch() and [loc] conditions: SM.B+isb and SM.B+cachesync-isb asked
 * about the fetched word itself, and a store checked in memory. */
START_TEST(litmus_fetch_and_memory_conditions)
{
	static const char *const body[2] = {
		"    str w0, [x1]\n"
		"    isb\n",
		"    str w0, [x1]\n"
		"    dc cvau, x1\n"
		"    dsb ish\n"
		"    ic ivau, x1\n"
		"    dsb ish\n"
		"    isb\n",
	};
	static const char *const expect[2] = { "Allowed", "Forbidden" };

	for (int i = 0; i < 2; i++) {
		char text[1024], name[32], *out = NULL;
		char *argv[4] = { (char *)ftv_test_env("FTV"), "litmus", NULL,
				  NULL };

		snprintf(text, sizeof(text),
			 "litmus fetch%d\n"
			 "expect %s\n"
			 "init 0:x0 = insn \"nop\"\n"
			 "init 0:x1 = P0:L0\n"
			 "init 0:x3 = x\n"
			 "init 0:x4 = 7\n"
			 "init [x] = 0\n"
			 "thread 0\n"
			 "    str x4, [x3]\n"
			 "%s"
			 "L0: b L1\n"
			 "    mov w9, #1\n"
			 "L1:\n"
			 "exists 0:fetch(P0:L0)=insn \"b P0:L1\" at P0:L0 /\\ [x]=7\n",
			 i, expect[i], body[i]);
		snprintf(name, sizeof(name), "fetch%d.litmus", i);
		argv[2] = write_tmp(name, text);
		ck_assert_msg(ftv_test_run(argv, &out) == 0, "%s", out);
		ck_assert_ptr_nonnull(strstr(out, " ok "));
		free(out);
		free(argv[2]);
	}
}
END_TEST

/* A thread spinning on a branch another CPU overwrites: every run is long
 * and there are many, so the wall-clock budget ends the test, which says
 * INCOMPLETE (budget) and that the verdict is unproven (exit 1), instead
 * of running for half an hour. */
START_TEST(litmus_budget_ends_a_spinning_test)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--time-limit", "1",
			 write_tmp("spin.litmus",
				   "litmus spin\n"
				   "expect Forbidden\n"
				   "init 1:x0 = insn \"nop\"\n"
				   "init 1:x1 = P0:L0\n"
				   "thread 0\n"
				   "L0: b L0\n"
				   "thread 1\n"
				   "    str w0, [x1]\n"
				   "exists 0:x9=1\n"),
			 NULL };
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ck_assert_msg(strstr(out, "spin") && strstr(out, "unproven") &&
			      strstr(out, "INCOMPLETE (budget: 1 s)"),
		      "%s", out);
	/* a bound on a hang, not a timing: the budget is 1 s */
	ck_assert_int_lt(t1.tv_sec - t0.tv_sec, 60);
	free(out);
	free(argv[4]);
}
END_TEST

/* The memory budget: a test stopped when the process passes it. */
START_TEST(litmus_memory_budget_says_so)
{
	char path[512], *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--max-mem", "1",
			 path, NULL };

	ftv_test_path(path, sizeof(path), "FTV_TOP",
		      "corpus/litmus/SB-bnop-cachesyncs.litmus");
	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	ck_assert_msg(strstr(out, "INCOMPLETE (budget: 1 MiB of memory)"), "%s",
		      out);
	free(out);
}
END_TEST

/* Tens of thousands of runs of a four-CPU test stay small: Unicorn's
 * translation buffer would otherwise grow by a few KiB per run and engine
 * (to 3.7 GB and a crash inside libunicorn on herd's icc3). */
START_TEST(litmus_long_exploration_stays_small)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--max-runs", "30000",
			 "--time-limit", "0",
			 write_tmp("wide.litmus",
				   "litmus wide\n"
				   "expect Forbidden\n"
				   "init 0:x0 = insn \"nop\"\n"
				   "init 0:x1 = P3:M\n"
				   "init 1:x1 = P3:M\n"
				   "init 2:x1 = P3:M\n"
				   "thread 0\n"
				   "    str w0, [x1]\n"
				   "    dc cvau, x1\n"
				   "    dsb ish\n"
				   "    ic ivau, x1\n"
				   "    dsb ish\n"
				   "thread 1\n"
				   "    dsb ish\n"
				   "    isb\n"
				   "    blr x1\n"
				   "    dsb sy\n"
				   "thread 2\n"
				   "    dsb ish\n"
				   "    isb\n"
				   "    blr x1\n"
				   "thread 3\n"
				   "    b End\n"
				   "M:  b L\n"
				   "    mov w9, #1\n"
				   "L:  ret\n"
				   "End:\n"
				   "exists 1:x9=7\n"),
			 NULL };
	struct rusage ru;

	ck_assert_int_ge(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "wide "), "%s", out);
	ck_assert_int_eq(getrusage(RUSAGE_CHILDREN, &ru), 0);
	/* about 30 MiB; 105 MiB without recycling the engines (ASan's
	 * shadow memory makes its builds too big to tell) */
	if (!getenv("FTV_SANITIZED"))
		ck_assert_msg(ru.ru_maxrss < 80 * 1024, "peak RSS %ld KiB",
			      ru.ru_maxrss);
	free(out);
	free(argv[6]);
}
END_TEST

static Suite *litmus_suite(void)
{
	Suite *s = suite_create("exec_litmus");
	TCase *tc = tcase_create("litmus");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, litmus_corpus_matches_the_herd_verdicts);
	tcase_add_test(tc, litmus_riscv64_corpus_matches_zifencei);
	tcase_add_test(tc, litmus_herd_corpus_matches_herd7);
	tcase_add_test(tc, litmus_wrong_expectation_is_a_mismatch_exit_1);
	tcase_add_test(tc, litmus_malformed_file_names_file_and_line_exit_2);
	tcase_add_test(tc, litmus_verbose_shows_a_witness_run);
	tcase_add_test(tc, litmus_thread_that_faults_is_rejected_with_its_line);
	tcase_add_test(tc, litmus_fetch_and_memory_conditions);
	tcase_add_test(tc, litmus_budget_ends_a_spinning_test);
	tcase_add_test(tc, litmus_memory_budget_says_so);
	tcase_add_test(tc, litmus_long_exploration_stays_small);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(exec_litmus, litmus_suite)
