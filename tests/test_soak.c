/* The short, deterministic soak (make soak's fixed-size twin): a few fuzz
 * iterations of every correct scheme from a fixed seed must report
 * nothing. Seed 7 is the seed that found two false alarms: iteration 8 of
 * the tramp scheme (a CPU running a per-ops trampoline still being copied,
 * tramp-fresh-trampoline.scn; the row runs tramp-tasks, the same
 * trampolines, since fuzz finds tramp's own func/ops race) and iteration 6 of the mcount scheme (the
 * graph ops counted twice, mcount-graph-alone.scn); the counts below reach
 * both. The jump-label row flips the static-key unit's keys with the
 * correct arch_jump_label_transform_apply(); its mutant is found at once
 * (fuzz_finds_the_jump_label_mutant). The callops row's direct ops are
 * update_ftrace_direct_add/del batches half the time; their mutant is
 * found at once too (fuzz_finds_the_direct_batch_mutant). */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *arch, *scheme, *iterations;
	const char *objects[3]; /* --objects, or the scheme's defaults */
} soak[] = {
	{ "arm64", "callops", "4", { NULL } },
	{ "arm64", "tramp-tasks", "9", { NULL } },
	{ "arm64", "mcount", "7", { NULL } },
	{ "arm64", "mcount-ops-tasks", "4", { NULL } },
	{ "riscv64", "atomic", "4", { NULL } },
	/* make soak's jump-label and patch-text campaigns: static keys
	 * flipped and text poked under stop_machine() beside ftrace */
	{ "arm64", "callops", "6", { "rand1", "jumplabel", NULL } },
	{ "riscv64", "atomic", "6", { "rand1", "jumplabel", NULL } },
};

START_TEST(soak_short_finds_nothing_on_a_correct_scheme)
{
	char dir[] = "/tmp/ftv-soak-test-XXXXXX", path[64], *out, want[96];
	int rc;

	ck_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/finding.scn", dir);
	/* a finding is shrunk no further than needed to name it */
	char *argv[24] = { (char *)ftv_test_env("FTV"), "fuzz",
			   "--arch", (char *)soak[_i].arch,
			   "--scheme", (char *)soak[_i].scheme,
			   "--seed", "7", "--iterations",
			   (char *)soak[_i].iterations,
			   "--shrink-budget", "1", "--out", path };
	int n = 14;

	if (soak[_i].objects[0]) {
		argv[n++] = "--objects";
		for (int k = 0; soak[_i].objects[k]; k++)
			argv[n++] = (char *)soak[_i].objects[k];
	}
	argv[n] = NULL;
	rc = ftv_test_run(argv, &out);
	unlink(path);
	rmdir(dir);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", soak[_i].scheme, rc, out);
	snprintf(want, sizeof(want), "fuzz: seed 7: %s iterations in ", soak[_i].iterations);
	ck_assert_msg(strstr(out, want), "%s: %s", soak[_i].scheme, out);
	ck_assert_msg(strstr(out, " 0 violating iterations\n"), "%s: %s", soak[_i].scheme, out);
	ck_assert_msg(!strstr(out, "VIOLATION"), "%s: %s", soak[_i].scheme, out);
	free(out);
}
END_TEST

/* A mutant whose first iteration of seed 1 (its seed 0x2c83f301eb3f9c90)
 * must report kind: the fuzz arguments after --mutate. */
static void first_iteration_finds(const char *const *args, const char *kind)
{
	char dir[] = "/tmp/ftv-soak-test-XXXXXX", path[64], *out, want[64];
	char *argv[24] = { (char *)ftv_test_env("FTV"), "fuzz", "--seed", "1",
			   "--iterations", "1", "--shrink-budget", "1", "--out", path,
			   "--mutate" };
	int n = 11, rc;

	ck_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/finding.scn", dir);
	while (*args && n < 23)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	rc = ftv_test_run(argv, &out);
	unlink(path);
	rmdir(dir);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	snprintf(want, sizeof(want), "VIOLATION (%s)", kind);
	ck_assert_msg(strstr(out, "iteration 0 (seed 0x2c83f301eb3f9c90)") && strstr(out, want),
		      "%s", out);
	ck_assert_msg(strstr(out, " 1 violating iterations\n"), "%s", out);
	free(out);
}

/* The code before cfb00a357864 (no kick_all_cpus_sync() after the jump
 * labels are patched): a CPU executes the old instruction after
 * static_key_enable() returned. */
START_TEST(fuzz_finds_the_jump_label_mutant)
{
	first_iteration_finds((const char *const[]){ "jump-label-no-sync", "--objects",
						     "jumplabel", NULL },
			      "not-visible");
}
END_TEST

/* The code before 3ebc98c1ae7e (update_ftrace_direct_add/del's
 * ftrace_update_ops() without ftrace_lock): the batch and the module's
 * ftrace_module_enable() rewrite the same sites at once, and one of them
 * finds a word it did not expect (ftrace_bug). */
START_TEST(fuzz_finds_the_direct_batch_mutant)
{
	first_iteration_finds((const char *const[]){ "direct-batch-unlocked", NULL },
			      "ftrace_bug");
}
END_TEST

static Suite *soak_suite(void)
{
	Suite *s = suite_create("soak");
	TCase *tc = tcase_create("short");

	tcase_set_timeout(tc, 300); /* ASan builds, loaded machines */
	tcase_add_loop_test(tc, soak_short_finds_nothing_on_a_correct_scheme, 0,
			    (int)(sizeof(soak) / sizeof(soak[0])));
	tcase_add_test(tc, fuzz_finds_the_jump_label_mutant);
	tcase_add_test(tc, fuzz_finds_the_direct_batch_mutant);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(soak, soak_suite)
