/* --litmus FILE (verify/litmus_export.h, issue 30): every arm64 mutant's
 * counterexample from its ftv verify world (tools/litmus_mutants.py's
 * table) written as a herd7 test, pinned by the golden files of
 * tests/data/litmus-export/, with herd7's verdicts kept as data
 * (verdicts.txt: herd7 is not on CI's machines; `make litmus-export
 * HERD=...` re-runs it). Each exported test is Allowed and its fixed
 * twin (the same observer, the corrected backend's plans) Forbidden, by
 * ftv litmus here and by herd7 in the data; the mutants without a
 * memory-model outcome say why and write nothing. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ftv litmus --herd FILE's verdict: "Allowed" or "Forbidden". */
static const char *ftv_verdict(const char *file)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--herd", (char *)file, NULL };
	const char *v;

	ftv_test_run(argv, &out);
	ck_assert_msg(out && strstr(out, "Observation "), "ftv litmus %s: %s", file, out);
	v = strstr(out, " Never ") ? "Forbidden" : strstr(out, " Sometimes ") ? "Allowed" : "?";
	free(out);
	return v;
}

/* The mutants whose counterexample is exported, with their test: wrong
 * orders; the lifetime bugs (a free a store of the poison, the waits a
 * handshake with the observer); a wrong word (the twin never writes it);
 * a word rewritten live (cmodx: the CPU runs the new word before
 * stop_machine()'s rendezvous, or one the corrected plans never write
 * live); a literal only the corrected plans rewrite, its load
 * reconstructed (skip-literal-on-modify: the old literal read after the
 * update returned); a site the corrected backend skips (misaligned-literal:
 * its twin the mutant's plans without the site, the BL never written); two
 * updaters racing over a site (direct-batch-unlocked: ftrace_bug, no CPU;
 * the twin's ftrace_lock a release/acquire handshake). */
static const char *const exported[][2] = {
	{ "bl-before-literal", "verify-callops-make-call" },
	{ "jump-label-no-sync", "verify-jump-label" },
	{ "no-publish-barrier", "verify-mcount-publish" },
	{ "publish-table-early", "verify-mcount-table" },
	{ "free-before-unpatch", "verify-callops-disable" },
	{ "free-without-quiescence", "verify-callops-disable" },
	{ "bpf-tramp-early-free", "verify-bpf-tramp" },
	{ "no-range-check", "verify-callops-far" },
	{ "live-mov-patch", "verify-callops-make-call" },
	{ "patch-text-first-master", "verify-patch-text" },
	{ "skip-literal-on-modify", "verify-callops-modify" },
	{ "misaligned-literal", "verify-callops-misaligned" },
	{ "direct-batch-unlocked", "verify-direct-batch" },
};

START_TEST(golden_tests_and_verdicts)
{
	char script[512], dir[512], odir[512], *out = NULL;
	const char *top = ftv_test_env("FTV_TOP");

	snprintf(script, sizeof(script), "%s/tools/litmus_mutants.py", top);
	ftv_test_path(dir, sizeof(dir), "FTV_TOP", "tests/data/litmus-export");
	snprintf(odir, sizeof(odir), "%s/litmus-export", ftv_test_env("FTV_BUILD"));
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), script, "--out", odir, "--check",
			 dir, NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0, "litmus_mutants.py --check: exit %d:\n%s", rc, out);
	/* those with a memory-model outcome, each Allowed by herd7 (the
	 * data) and ftv, its twin Forbidden by both */
	for (size_t i = 0; i < sizeof(exported) / sizeof(exported[0]); i++) {
		char row[256];

		snprintf(row, sizeof(row), "| `%s` | `%s` | yes | yes | yes | yes |",
			 exported[i][0], exported[i][1]);
		ck_assert_msg(strstr(out, row), "%s not in:\n%s", row, out);
	}
	/* and the others say why there is no test */
	ck_assert_msg(strstr(out, "| `patch-zeroed-entry` | none: no CPU made the violation"),
		      "%s", out);
	free(out);
}
END_TEST

/* The golden files themselves, read back by ftv litmus: each mutant of
 * verdicts.txt (herd7's verdicts on them), its test Allowed and its twin
 * Forbidden, as herd7 says. */
START_TEST(golden_files_verdicts)
{
	char path[512], rel[256], line[256], name[128], hm[32], hf[32];
	size_t n = 0;
	FILE *f;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "tests/data/litmus-export/verdicts.txt");
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%127s %31s %31s", name, hm, hf) != 3)
			continue;
		ck_assert_str_eq(hm, "Allowed");
		ck_assert_str_eq(hf, "Forbidden");
		snprintf(rel, sizeof(rel), "tests/data/litmus-export/%s.litmus", name);
		ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
		ck_assert_str_eq(ftv_verdict(path), hm);
		snprintf(rel, sizeof(rel), "tests/data/litmus-export/%s+fixed.litmus", name);
		ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
		ck_assert_str_eq(ftv_verdict(path), hf);
		n++;
	}
	fclose(f);
	ck_assert_uint_eq(n, sizeof(exported) / sizeof(exported[0]));
}
END_TEST

/* The golden file rel's text (malloc'd). */
static char *golden_text(const char *rel)
{
	char path[512], *buf;
	FILE *f;
	long n;

	ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

/* skip-literal-on-modify: the literal's load, reconstructed, follows the
 * read of `done` with acquire and reads the old literal; only the twin
 * stores the new one. misaligned-literal: the derived twin (the site
 * skipped) stores nothing, the mutant's test writes the BL the CPU ran. */
START_TEST(reconstructed_load_and_skipped_site)
{
	char *m = golden_text("tests/data/litmus-export/skip-literal-on-modify.litmus");
	char *f = golden_text("tests/data/litmus-export/skip-literal-on-modify+fixed.litmus");

	ck_assert_msg(strstr(m, "LDAR W0,[X1]") && strstr(m, "1:X1=done;"), "%s", m);
	ck_assert_msg(strstr(m, "exists (1:X0=1 /\\ 1:X2=0)"), "%s", m);
	ck_assert_msg(!strstr(m, "0:X2=1") && strstr(f, "0:X2=1;"), "%s\n%s", m, f);
	free(m);
	free(f);
	m = golden_text("tests/data/litmus-export/misaligned-literal.litmus");
	f = golden_text("tests/data/litmus-export/misaligned-literal+fixed.litmus");
	ck_assert_msg(strstr(m, "0:X1=instr:\"B .+12\"") && strstr(m, "STR W1,[X0]"), "%s", m);
	ck_assert_msg(!strstr(f, "STR") && strstr(f, "m0: NOP"), "%s", f);
	free(m);
	free(f);
}
END_TEST

/* direct-batch-unlocked: two patcher threads and no observer. P0 (the
 * batch) releases the lock when its update returns; the mutant's P1
 * (ftrace_set_filter's update) reads it at its end, the twin's takes it
 * with acquire before its validating read; both ask for that read to
 * find the site's first word (NOP) with the lock released. */
START_TEST(two_updaters_race)
{
	char *m = golden_text("tests/data/litmus-export/direct-batch-unlocked.litmus");
	char *f = golden_text("tests/data/litmus-export/direct-batch-unlocked+fixed.litmus");
	const char *cond = "exists (1:X8=1 /\\ 1:X2=0)";

	ck_assert_msg(strstr(m, "STLR W8,[X9]") && strstr(f, "STLR W8,[X9]"), "%s\n%s", m, f);
	ck_assert_msg(!strstr(m, "LDAR") && strstr(m, "LDR W8,[X9]"), "%s", m);
	ck_assert_msg(strstr(f, "LDAR W8,[X9]"), "%s", f);
	/* the twin's acquire comes before its validating read */
	ck_assert_msg(strstr(f, "LDAR W8,[X9]") < strstr(f, "| LDR W2,[X1]"), "%s", f);
	ck_assert_msg(strstr(m, cond) && strstr(f, cond), "%s\n%s", m, f);
	ck_assert_msg(strstr(m, "during set_filter"), "%s", m);
	free(m);
	free(f);
}
END_TEST

/* ftv scenario --litmus: a file that cannot be written is a one-line
 * error naming it, exit 2; the test is written where it can be. */
START_TEST(unwritable_file_is_an_error)
{
	char world[512], path[512], *out = NULL;
	FILE *f;

	ftv_test_path(world, sizeof(world), "FTV_TOP",
		      "corpus/scenarios/verify-callops-make-call.scn");
	char *bad[] = { (char *)ftv_test_env("FTV"), "scenario", "--mutate", "bl-before-literal",
			"--litmus", "/nonexistent-dir/x.litmus", world, NULL };
	int rc = ftv_test_run(bad, &out);

	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, "ftv scenario: --litmus: /nonexistent-dir/x.litmus: cannot write"),
		      "%s", out);
	free(out);
	snprintf(path, sizeof(path), "%s/litmus-export-scenario.litmus", ftv_test_env("FTV_BUILD"));
	remove(path);
	char *good[] = { (char *)ftv_test_env("FTV"), "scenario", "--mutate", "bl-before-literal",
			 "--litmus", path, world, NULL };
	rc = ftv_test_run(good, &out);
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(out, "litmus: "), "%s", out);
	free(out);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	ck_assert_str_eq(ftv_verdict(path), "Allowed");
}
END_TEST

/* --litmus-fixed alone, and fuzz's --litmus without --replay: usage
 * errors (exit 2) that say what is missing. */
START_TEST(options_need_their_partners)
{
	char world[512], *out = NULL;

	ftv_test_path(world, sizeof(world), "FTV_TOP",
		      "corpus/scenarios/verify-callops-make-call.scn");
	char *fixed_alone[] = { (char *)ftv_test_env("FTV"), "verify", "--litmus-fixed", "x.litmus",
				world, NULL };
	ck_assert_int_eq(ftv_test_run(fixed_alone, &out), 2);
	ck_assert_msg(strstr(out, "it needs --litmus"), "%s", out);
	free(out);
	char *fuzz[] = { (char *)ftv_test_env("FTV"), "fuzz", "--litmus", "x.litmus", NULL };
	ck_assert_int_eq(ftv_test_run(fuzz, &out), 2);
	ck_assert_msg(strstr(out, "it needs --replay FILE"), "%s", out);
	free(out);
}
END_TEST

/* A riscv64 world's violation: a note (the tests are AArch64 ones), the
 * run's verdict unchanged, no file. */
START_TEST(riscv_world_is_a_note)
{
	char world[512], path[512], *out = NULL;

	ftv_test_path(world, sizeof(world), "FTV_TOP",
		      "corpus/scenarios/riscv-mutant-jalr-before-literal.scn");
	snprintf(path, sizeof(path), "%s/litmus-export-riscv.litmus", ftv_test_env("FTV_BUILD"));
	remove(path);
	char *argv[] = { (char *)ftv_test_env("FTV"), "scenario", "--litmus", path, world, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	ck_assert_msg(strstr(out, "note: --litmus: no test written: the tests are AArch64 ones; "
				  "this world is riscv64's"), "%s", out);
	free(out);
	ck_assert_ptr_null(fopen(path, "r"));
}
END_TEST

static Suite *litmus_export_suite(void)
{
	Suite *s = suite_create("litmus_export");
	TCase *tc = tcase_create("export");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, golden_files_verdicts);
	tcase_add_test(tc, golden_tests_and_verdicts);
	tcase_add_test(tc, reconstructed_load_and_skipped_site);
	tcase_add_test(tc, two_updaters_race);
	tcase_add_test(tc, unwritable_file_is_an_error);
	tcase_add_test(tc, options_need_their_partners);
	tcase_add_test(tc, riscv_world_is_a_note);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(litmus_export, litmus_export_suite)
