/* ftv verify --stateful (stateful DPOR, executor/exec_dpor_state.h)
 * against the stateless walk, the reference: on proof worlds of every
 * scheme (2 and 3 CPUs, the kernel's, riscv64's) and on mutants' worlds,
 * the same verdict, completeness, violation kinds and shortest
 * counterexample; the stateful walk keeps states and cuts runs at them
 * (it is not the stateless walk under another name); and the unreduced
 * walk finds the violations both find. */
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

/* ftv verify --json [--mutate m] [mode] world: its output (freed by the
 * caller), the exit code checked against the mutant's presence. */
static char *verify(const char *world, const char *mutant, const char *mode)
{
	char path[4096], dir[4096], cmd[4200], *out;
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", world);
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-stateful");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	rc = mutant ? FTV_RUN(&out, "verify", "--json", "--out", dir, "--mutate",
			      (char *)mutant, (char *)mode, path)
		    : FTV_RUN(&out, "verify", "--json", "--out", dir, (char *)mode, path);
	ck_assert_msg(rc == (mutant ? 1 : 0), "%s %s %s: exit %d: %s", world,
		      mutant ? mutant : "", mode, rc, out);
	return out;
}

static const char *const worlds[][2] = {
	{ "corpus/scenarios/verify-callops-make-call.scn", NULL },
	{ "corpus/scenarios/verify-callops-modify.scn", NULL },
	{ "corpus/scenarios/verify-callops-disable-3cpus.scn", NULL },
	{ "corpus/scenarios/verify-callops-make-call-3cpus.scn", NULL },
	{ "corpus/scenarios/verify-tramp.scn", NULL },
	{ "corpus/scenarios/verify-tramp-tasks-func-ops.scn", NULL },
	{ "corpus/scenarios/verify-mcount-3cpus.scn", NULL },
	{ "corpus/verify/verify-mcount-call-nop-3cpus.scn", NULL },
	{ "corpus/scenarios/verify-kernel-make-call.scn", NULL },
	{ "corpus/scenarios/verify-kernel-modify.scn", NULL },
	{ "corpus/scenarios/verify-direct-batch.scn", NULL },
	{ "corpus/scenarios/verify-bpf-tramp.scn", NULL },
	{ "corpus/scenarios/verify-riscv-atomic.scn", NULL },
	{ "corpus/scenarios/verify-callops-make-call.scn", "bl-before-literal" },
	{ "corpus/scenarios/verify-callops-make-call.scn", "live-mov-patch" },
	{ "corpus/scenarios/verify-callops-disable.scn", "free-before-unpatch" },
	{ "corpus/scenarios/verify-callops-disable.scn", "free-without-quiescence" },
	{ "corpus/scenarios/verify-callops-modify.scn", "skip-literal-on-modify" },
	{ "corpus/scenarios/verify-mcount-publish.scn", "no-publish-barrier" },
	{ "corpus/scenarios/verify-mcount-table.scn", "publish-table-early" },
	{ "corpus/scenarios/verify-jump-label.scn", "jump-label-no-sync" },
	{ "corpus/scenarios/verify-bpf-tramp.scn", "bpf-tramp-early-free" },
	{ "corpus/scenarios/verify-riscv-atomic.scn", "jalr-before-literal" },
	{ "corpus/scenarios/verify-riscv-atomic-3cpus.scn", NULL },
	{ "corpus/verify/verify-riscv-direct.scn", "atomic-rewrite-auipc" },
	{ "corpus/scenarios/verify-riscv-window.scn", "unlocked-init-literal" },
};

START_TEST(verify_stateful_keeps_verdicts)
{
	static const char *const keys[] = { "verdict", "complete", "kinds",
					     "counterexample_steps" };
	const char *w = worlds[_i][0], *m = worlds[_i][1];
	char *out[2], v[2][4][200];

	out[0] = verify(w, m, "--json");
	out[1] = verify(w, m, "--stateful");
	for (int c = 0; c < 2; c++)
		for (int k = 0; k < 4; k++)
			ftv_test_json_field(out[c], keys[k], v[c][k], sizeof(v[c][k]));
	for (int k = 0; k < 4; k++)
		ck_assert_msg(!strcmp(v[0][k], v[1][k]), "%s %s: %s %s, stateful %s", w,
			      m ? m : "", keys[k], v[0][k], v[1][k]);
	ck_assert_msg(!strcmp(v[0][1], "true"), "%s %s: incomplete", w, m ? m : "");
	/* the stateful walk kept states (riscv64's too, whose fetch checks
	 * keep state of their own: xarch.ctx_words) */
	ck_assert_msg(num(out[1], "states") > 0, "%s %s: %s", w, m ? m : "", out[1]);
	ck_assert_msg(!strstr(out[0], "\"states\""), "%s", out[0]);
	free(out[0]);
	free(out[1]);
}
END_TEST

/* Where states repeat, runs are cut at them: on the modify_call and
 * 3-CPU make_call worlds, fewer executions than the stateless walk's,
 * and runs cut at a known state. */
START_TEST(verify_stateful_cuts_runs)
{
	static const char *const cut[] = {
		"corpus/scenarios/verify-callops-modify.scn",
		"corpus/scenarios/verify-callops-make-call-3cpus.scn",
		"corpus/scenarios/verify-tramp.scn",
	};

	for (size_t i = 0; i < sizeof(cut) / sizeof(cut[0]); i++) {
		char *a = verify(cut[i], NULL, "--json"), *b = verify(cut[i], NULL, "--stateful");

		ck_assert_msg(num(b, "state_cuts") > 0 &&
				      num(b, "executions") < num(a, "executions"),
			      "%s: %s / %s", cut[i], a, b);
		free(a);
		free(b);
	}
}
END_TEST

/* The unreduced walk (every interleaving, to the first violation) finds
 * the violations the stateful walk finds. */
START_TEST(verify_stateful_agrees_with_unreduced)
{
	char *a = verify("corpus/scenarios/verify-callops-disable.scn", "free-before-unpatch",
			 "--stateful");
	char *b;
	char path[4096], dir[4096];
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "corpus/scenarios/verify-callops-disable.scn");
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-stateful");
	rc = FTV_RUN(&b, "verify", "--json", "--out", dir, "--mutate", "free-before-unpatch",
		     "--unreduced", "--first", path);
	ck_assert_msg(rc == 1 && strstr(a, "\"verdict\":\"violation\"") &&
			      strstr(b, "\"verdict\":\"violation\""),
		      "exit %d: %s / %s", rc, a, b);
	free(a);
	free(b);
}
END_TEST

/* A table that fills up keeps no more states and cuts only at those it
 * kept: the same verdict and shortest counterexample, the reduction line
 * says the table is full. */
START_TEST(verify_stateful_full_table_keeps_verdicts)
{
	char path[4096], dir[4096], *a, *b;
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "corpus/scenarios/verify-callops-disable.scn");
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-stateful");
	a = verify("corpus/scenarios/verify-callops-disable.scn", "free-before-unpatch",
		   "--stateful");
	setenv("FTV_VERIFY_STATE_BYTES", "70000", 1);
	rc = FTV_RUN(&b, "verify", "--out", dir, "--mutate", "free-before-unpatch",
		     "--stateful", path);
	unsetenv("FTV_VERIFY_STATE_BYTES");
	ck_assert_msg(rc == 1 && strstr(b, "states, the table full)") &&
			      strstr(b, "counterexample: 12 visible steps") &&
			      strstr(a, "\"counterexample_steps\":12"),
		      "exit %d: %s / %s", rc, a, b);
	free(a);
	free(b);
}
END_TEST

static Suite *verify_stateful_suite(void)
{
	Suite *s = suite_create("verify_stateful");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, verify_stateful_keeps_verdicts, 0,
			    (int)(sizeof(worlds) / sizeof(worlds[0])));
	tcase_add_test(tc, verify_stateful_cuts_runs);
	tcase_add_test(tc, verify_stateful_agrees_with_unreduced);
	tcase_add_test(tc, verify_stateful_full_table_keeps_verdicts);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_stateful, verify_stateful_suite)
