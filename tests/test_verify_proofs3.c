/* Issue 31's bigger proof worlds in the conformance suite: the five
 * 3-CPU two-update worlds of corpus/verify/ named -3cpus.scn (CALL_OPS
 * make_call then make_nop, CALL_OPS modify_call twice, the per-ops
 * trampoline, mcount, riscv64 atomic), each proved by `ftv verify
 * --stateful` (state caching, symmetry over the three interchangeable
 * CPUs, the prefix restore): verified, the walk complete (no bound
 * reached, no budget run out: exit 0, not 3), the symmetry on (the
 * worlds' `symmetric` line) and the walk's counts non-trivial (runs
 * executed, states kept, runs cut at a known state). Their CPU times are
 * in docs/bench-scale.md and `make bench`'s "(stateful)" lines; this
 * suite pins the verdicts, not the time (a slow machine passes). */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const worlds[] = {
	"corpus/verify/verify-callops-call-nop-3cpus.scn",
	"corpus/verify/verify-callops-modify-twice-3cpus.scn",
	"corpus/verify/verify-tramp-call-nop-3cpus.scn",
	"corpus/verify/verify-mcount-call-nop-3cpus.scn",
	"corpus/verify/verify-riscv-atomic-call-nop-3cpus.scn",
};

static unsigned long long num(const char *out, const char *key)
{
	char v[32];

	ftv_test_json_field(out, key, v, sizeof(v));
	return strtoull(v, NULL, 10);
}

START_TEST(verify_3cpu_world_proved)
{
	char path[4096], dir[4096], cmd[4200], v[64], *out;
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", worlds[_i]);
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-proofs3");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	rc = ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), "verify", "--json",
					   "--stateful", "--time", "3600", "--out", dir,
					   path, NULL },
			  &out);
	ck_assert_msg(rc == 0, "%s: exit %d: %s", worlds[_i], rc, out);
	ftv_test_json_field(out, "verdict", v, sizeof(v));
	ck_assert_msg(!strcmp(v, "verified"), "%s: %s", worlds[_i], out);
	ftv_test_json_field(out, "complete", v, sizeof(v));
	ck_assert_msg(!strcmp(v, "true"), "%s: %s", worlds[_i], out);
	ftv_test_json_field(out, "bound", v, sizeof(v));
	ck_assert_msg(!strcmp(v, "none"), "%s: %s", worlds[_i], out);
	ck_assert_msg(num(out, "cpus") == 3 && num(out, "symmetric_cpus") == 3, "%s: %s",
		      worlds[_i], out);
	ck_assert_msg(num(out, "executions") > 0 && num(out, "states") > 0 &&
			      num(out, "state_cuts") > 0,
		      "%s: %s", worlds[_i], out);
	free(out);
}
END_TEST

static Suite *verify_proofs3_suite(void)
{
	Suite *s = suite_create("verify_proofs3");
	TCase *tc = tcase_create("core");

	/* the longest two take some 25-30 s of CPU each on an idle core,
	 * a few times that sanitized or on a loaded machine */
	tcase_set_timeout(tc, 3600);
	tcase_add_loop_test(tc, verify_3cpu_world_proved, 0,
			    (int)(sizeof(worlds) / sizeof(worlds[0])));
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_proofs3, verify_proofs3_suite)
