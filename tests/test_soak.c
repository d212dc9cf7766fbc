/* The short, deterministic soak (make soak's fixed-size twin): a few fuzz
 * iterations of every correct scheme from a fixed seed must report
 * nothing. Seed 7 is the seed that found two false alarms: iteration 8 of
 * the tramp scheme (a CPU running a per-ops trampoline still being copied,
 * tramp-fresh-trampoline.scn; the row runs tramp-tasks, the same
 * trampolines, since fuzz finds tramp's own func/ops race) and iteration 6 of the mcount scheme (the
 * graph ops counted twice, mcount-graph-alone.scn); the counts below reach
 * both. The jump-label row flips the static-key unit's keys with the
 * correct arch_jump_label_transform_apply(); its mutant is found at once
 * (fuzz_finds_the_historical_mutants), as the BPF image's early free. The
 * callops row's direct ops are update_ftrace_direct_add/del batches half
 * the time; their mutant is found at once too. */
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
	/* make soak's bpf-tramp campaign: direct ops through BPF images */
	{ "arm64", "callops", "6", { "rand1", "bpf", NULL } },
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

/* The historical bugs' mutants, found from seed 1 by the iteration named:
 * the code before cfb00a357864 (no kick_all_cpus_sync() after the jump
 * labels are patched: a CPU executes the old instruction after
 * static_key_enable() returned), and before e21d2b92354b (a BPF image
 * freed after synchronize_rcu_tasks() alone: a task asleep in the
 * function the fexit image called returns into freed memory), and before
 * 3ebc98c1ae7e (update_ftrace_direct_add/del's ftrace_update_ops() without
 * ftrace_lock: the batch and the module's ftrace_module_enable() rewrite
 * the same sites at once, and one of them finds a word it did not expect).
 * objects NULL: fuzz's default objects. */
static const struct {
	const char *mutant, *objects, *iterations, *found, *kinds;
} mutants[] = {
	{ "jump-label-no-sync", "jumplabel", "1", "iteration 0 (seed 0x2c83f301eb3f9c90)",
	  "VIOLATION (not-visible)" },
	{ "bpf-tramp-early-free", "bpf", "10", "iteration 9 (seed 0xc6c3859bb051ada8)",
	  "VIOLATION (fault unfinished use-after-free)" },
	{ "direct-batch-unlocked", NULL, "1", "iteration 0 (seed 0x2c83f301eb3f9c90)",
	  "VIOLATION (ftrace_bug)" },
};

START_TEST(fuzz_finds_the_historical_mutants)
{
	char dir[] = "/tmp/ftv-soak-test-XXXXXX", path[64], *out;
	int rc;

	ck_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/finding.scn", dir);
	rc = ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), "fuzz",
					   "--mutate", (char *)mutants[_i].mutant, "--seed", "1",
					   "--iterations", (char *)mutants[_i].iterations,
					   "--shrink-budget", "1", "--out", path,
					   mutants[_i].objects ? "--objects" : NULL,
					   (char *)mutants[_i].objects, NULL },
			  &out);
	unlink(path);
	rmdir(dir);
	ck_assert_msg(rc == 1, "%s: exit %d: %s", mutants[_i].mutant, rc, out);
	ck_assert_msg(strstr(out, mutants[_i].found) && strstr(out, mutants[_i].kinds),
		      "%s: %s", mutants[_i].mutant, out);
	ck_assert_msg(strstr(out, " 1 violating iterations\n"), "%s", out);
	free(out);
}
END_TEST

static Suite *soak_suite(void)
{
	Suite *s = suite_create("soak");
	TCase *tc = tcase_create("short");

	tcase_set_timeout(tc, 300); /* ASan builds, loaded machines */
	tcase_add_loop_test(tc, soak_short_finds_nothing_on_a_correct_scheme, 0,
			    (int)(sizeof(soak) / sizeof(soak[0])));
	tcase_add_loop_test(tc, fuzz_finds_the_historical_mutants, 0,
			    (int)(sizeof(mutants) / sizeof(mutants[0])));
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(soak, soak_suite)
