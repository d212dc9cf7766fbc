/* ftv verify --stateful with symmetry (executor/exec_sym.h: states that
 * differ by a permutation of interchangeable CPUs merged) against the
 * same walk without it (--no-symmetry, the reference): on the `symmetric`
 * 3-CPU proof worlds and on mutants of them (callops, tramp, riscv64),
 * the same verdict, completeness, violation kinds and shortest
 * counterexample; symmetry is on there and cuts runs through a
 * permutation other than the identity (it is not the plain walk under
 * another name); and a world whose CPUs are not interchangeable (the BPF
 * unit reads the CPU number; no `symmetric` line) says so and has none. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static unsigned long long num(const char *out, const char *key)
{
	char v[32];

	ftv_test_json_field(out, key, v, sizeof(v));
	return strtoull(v, NULL, 10);
}

static void out_dir(char *dir, size_t n)
{
	char cmd[4200];

	ftv_test_path(dir, n, "FTV_BUILD", "verify-symmetry");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* ftv verify --json --stateful [--mutate m] [--no-symmetry] world: its
 * output (freed by the caller), the exit code checked. */
static char *verify(const char *world, const char *mutant, int nosym)
{
	char path[4096], dir[4096], *out;
	char *argv[12];
	int n = 0, rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", world);
	out_dir(dir, sizeof(dir));
	argv[n++] = (char *)ftv_test_env("FTV");
	argv[n++] = "verify";
	argv[n++] = "--json";
	argv[n++] = "--stateful";
	argv[n++] = "--out";
	argv[n++] = dir;
	if (mutant) {
		argv[n++] = "--mutate";
		argv[n++] = (char *)mutant;
	}
	if (nosym)
		argv[n++] = "--no-symmetry";
	argv[n++] = path;
	argv[n] = NULL;
	rc = ftv_test_run(argv, &out);
	ck_assert_msg(rc == (mutant ? 1 : 0), "%s %s %s: exit %d: %s", world,
		      mutant ? mutant : "", nosym ? "--no-symmetry" : "", rc, out);
	return out;
}

static const char *const worlds[][2] = {
	{ "corpus/verify/verify-mcount-call-nop-3cpus.scn", NULL },
	{ "corpus/verify/verify-riscv-atomic-call-nop-3cpus.scn", NULL },
	{ "corpus/verify/verify-callops-call-nop-3cpus.scn", "bl-before-literal" },
	{ "corpus/verify/verify-callops-call-nop-3cpus.scn", "free-before-unpatch" },
	{ "corpus/verify/verify-callops-call-nop-3cpus.scn", "free-without-quiescence" },
	{ "corpus/verify/verify-tramp-call-nop-3cpus.scn", "free-before-unpatch" },
	{ "corpus/verify/verify-riscv-atomic-call-nop-3cpus.scn", "jalr-before-literal" },
};

START_TEST(verify_symmetry_keeps_verdicts)
{
	static const char *const keys[] = { "verdict", "complete", "kinds",
					     "counterexample_steps" };
	const char *w = worlds[_i][0], *m = worlds[_i][1];
	char *out[2], v[2][4][200];

	out[0] = verify(w, m, 1);
	out[1] = verify(w, m, 0);
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 4; k++)
			ftv_test_json_field(out[c], keys[k], v[c][k], sizeof(v[c][k]));
	for (int k = 0; k < 4; k++)
		ck_assert_msg(!strcmp(v[0][k], v[1][k]), "%s %s: %s %s, with symmetry %s", w,
			      m ? m : "", keys[k], v[0][k], v[1][k]);
	ck_assert_msg(!strcmp(v[0][1], "true"), "%s %s: incomplete", w, m ? m : "");
	/* the reference had none; the walk with it merged states of other
	 * permutations, and explored fewer executions */
	ck_assert_msg(num(out[0], "symmetric_cpus") == 0 &&
			      num(out[0], "state_cuts_permuted") == 0, "%s", out[0]);
	ck_assert_msg(num(out[1], "symmetric_cpus") == 3 &&
			      num(out[1], "state_cuts_permuted") > 0 &&
			      num(out[1], "executions") < num(out[0], "executions"),
		      "%s %s: %s / %s", w, m ? m : "", out[0], out[1]);
	free(out[0]);
	free(out[1]);
}
END_TEST

/* The --stats line of `ftv verify --stateful` on world, with extra lines
 * appended to its scenario (written to the build directory). */
static char *stats_of(const char *world, const char *extra)
{
	char path[4096], dir[4096], copy[4300], *out;
	FILE *in, *o;
	char line[1024];
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", world);
	out_dir(dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s/%s", dir, strrchr(world, '/') + 1);
	in = fopen(path, "r");
	o = fopen(copy, "w");
	ck_assert(in && o);
	while (fgets(line, sizeof(line), in))
		fputs(line, o);
	fputs(extra, o);
	fclose(in);
	fclose(o);
	rc = FTV_RUN(&out, "verify", "--stateful", "--stats", "--out", dir, copy);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", copy, rc, out);
	return out;
}

/* Not interchangeable: the BPF unit's trampolines index a shared
 * per-CPU count array by the CPU number (corpus/src/bpf.c), so a world
 * with it has no symmetry even when its file says `symmetric`; a world
 * without the line has none either. */
START_TEST(verify_symmetry_refused)
{
	char *a = stats_of("corpus/scenarios/verify-bpf-tramp.scn", "symmetric\ncpus 2\n");
	char *b = stats_of("corpus/scenarios/verify-callops-make-call-3cpus.scn", "");
	char *c = verify("corpus/scenarios/verify-callops-make-call-3cpus.scn", NULL, 0);

	ck_assert_msg(strstr(a, "stats: symmetry: none (the BPF unit's code reads the CPU "
				"number)"), "%s", a);
	ck_assert_msg(strstr(b, "stats: symmetry: none (the scenario does not say "
				"`symmetric`)"), "%s", b);
	ck_assert_msg(num(c, "symmetric_cpus") == 0 && num(c, "state_cuts_permuted") == 0,
		      "%s", c);
	free(a);
	free(b);
	free(c);
}
END_TEST

/* The same world with `symmetric` has it (the --stats line names the
 * CPUs). */
START_TEST(verify_symmetry_stats)
{
	char *a = stats_of("corpus/verify/verify-mcount-call-nop-3cpus.scn", "");

	ck_assert_msg(strstr(a, "stats: symmetry: cpu0..cpu2 interchangeable; "), "%s", a);
	free(a);
}
END_TEST

static Suite *verify_symmetry_suite(void)
{
	Suite *s = suite_create("verify_symmetry");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, verify_symmetry_keeps_verdicts, 0,
			    (int)(sizeof(worlds) / sizeof(worlds[0])));
	tcase_add_test(tc, verify_symmetry_refused);
	tcase_add_test(tc, verify_symmetry_stats);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_symmetry, verify_symmetry_suite)
