/* Scheme kernel: ftv's worlds patched by Linux's own compiled arm64
 * backend (make kernel: Debian's 6.12 and its mutants, mk/kernel.mk).
 * The unmodified kernel passes the kernel scenarios and proves the
 * kernel proof worlds; each mutated kernel with a model twin is found by
 * verify with the twin's kind, its report naming the kernel function and
 * source line; a kernel that faults at boot is named with its line; what
 * the scheme does not model yet is refused, not run wrongly. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ftv CMD SCN --kernel BUILD/kdir [more]: SCN from the source tree unless
 * absolute */
static int run(const char *cmd, const char *scn, const char *kdir, const char *more, char **out)
{
	char s[512], k[512];
	char *argv[] = { (char *)ftv_test_env("FTV"), (char *)cmd, s, "--kernel", k,
			 (char *)more, NULL };

	if (scn[0] == '/')
		snprintf(s, sizeof(s), "%s", scn);
	else
		ftv_test_path(s, sizeof(s), "FTV_TOP", scn);
	ftv_test_path(k, sizeof(k), "FTV_BUILD", kdir);
	return ftv_test_run(argv, out);
}

START_TEST(debian_6_12_passes_the_kernel_scenarios)
{
	static const char *const scn[] = { "make-call", "modify-call", "direct", "graph",
					   "module", "module-far" };
	char *out = NULL, path[128];

	for (size_t i = 0; i < sizeof(scn) / sizeof(scn[0]); i++) {
		snprintf(path, sizeof(path), "corpus/scenarios/kernel-%s.scn", scn[i]);
		ck_assert_msg(run("scenario", path, "kernel/6.12", NULL, &out) == 0, "%s: %s",
			      path, out);
		/* the kernel's own code patched: transitions were made */
		ck_assert_msg(strstr(out, "no violation") && !strstr(out, " 0 transitions"),
			      "%s: %s", path, out);
		free(out);
	}
}
END_TEST

/* The Perfetto trace of `ftv scenario SCN --kernel BUILD/kernel/6.12`;
 * *rc: its exit status. */
static char *trace_of(const char *scn, int *rc)
{
	char *out = NULL, *json = NULL, trace[] = "/tmp/ftv-ktrace-XXXXXX";
	char s[512], k[512], t[600];
	char *a[] = { (char *)ftv_test_env("FTV"), "scenario", s, "--kernel", k, t, NULL };
	char *cat[] = { "/bin/cat", trace, NULL };
	int fd = mkstemp(trace);

	ck_assert_int_ge(fd, 0);
	close(fd);
	ftv_test_path(s, sizeof(s), "FTV_TOP", scn);
	ftv_test_path(k, sizeof(k), "FTV_BUILD", "kernel/6.12");
	snprintf(t, sizeof(t), "--trace=%s", trace);
	*rc = ftv_test_run(a, &out);
	free(out);
	ck_assert_int_eq(ftv_test_run(cat, &json), 0);
	unlink(trace);
	return json;
}

/* the Perfetto trace's patcher CPU track names each step in kernel terms */
START_TEST(the_patcher_track_names_the_kernel_function_and_line)
{
	int rc;
	char *json = trace_of("corpus/scenarios/kernel-make-call.scn", &rc);

	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(json, "\"name\":\"patcher CPU (the kernel's code)\"") &&
		      strstr(json, ": make_call: ftrace_make_call+0x") &&
		      strstr(json, "(arch/arm64/kernel/patching.c:"), "%.2000s", json);
	free(json);
}
END_TEST

START_TEST(debian_6_12_proves_the_kernel_proof_worlds)
{
	static const char *const scn[] = { "make-call", "disable", "far", "direct-far", "graph" };
	char *out = NULL, path[128];

	for (size_t i = 0; i < sizeof(scn) / sizeof(scn[0]); i++) {
		snprintf(path, sizeof(path), "corpus/scenarios/verify-kernel-%s.scn", scn[i]);
		ck_assert_msg(run("verify", path, "kernel/6.12", NULL, &out) == 0, "%s: %s",
			      path, out);
		ck_assert_msg(strstr(out, "verified: ") && strstr(out, ", complete"), "%s: %s",
			      path, out);
		free(out);
	}
}
END_TEST

/* each kernel-source twin of a model mutant (tools/kernel-mutate.py) */
static const struct {
	const char *mutant, *world, *kind, *where;
} twins[] = {
	/* bl-before-literal's twin: the BL seen before the ops literal */
	{ "make-call-bl-before-ops", "corpus/scenarios/verify-kernel-make-call.scn",
	  "VIOLATION nop-ops", "\"make_call: ftrace_make_call+0x" },
	/* skip-literal-on-modify's twin: the second tracer never called */
	{ "modify-call-keeps-ops", "corpus/scenarios/verify-kernel-modify.scn",
	  "VIOLATION count", NULL },
	/* live-mov-patch's twin: NOP -> MOV X9, LR fetched while written */
	{ "make-call-writes-mov", "corpus/scenarios/verify-kernel-make-call.scn",
	  "VIOLATION cmodx", "\"make_call: ftrace_make_call+0x" },
	/* bl-before-literal's twin on a far module's site: the BL to the
	 * module's PLT (get_ftrace_plt) seen before the ops literal */
	{ "make-call-bl-before-ops", "corpus/scenarios/verify-kernel-far.scn",
	  "VIOLATION nop-ops", "\"make_call: ftrace_make_call+0x" },
	/* no-range-check's twin on a far module: ftrace_find_callable_addr
	 * keeps the far ftrace_caller, aarch64_insn_gen_branch_imm refuses
	 * the offset and the site gets AARCH64_BREAK_FAULT (not the model's
	 * bad-branch: the kernel's encoder still checks), the fault naming
	 * the store that wrote it */
	{ "callable-addr-no-range-check", "corpus/scenarios/verify-kernel-far.scn",
	  "executing d4202000 (brk #0x100)", "the word written by \"make_call: ftrace_make_call+0x" },
};

START_TEST(each_kernel_twin_is_found_by_verify_with_its_models_kind)
{
	char *out = NULL, kdir[128];

	snprintf(kdir, sizeof(kdir), "kernel-mut/%s", twins[_i].mutant);
	ck_assert_msg(run("verify", twins[_i].world, kdir, "--out=/tmp", &out) == 1,
		      "%s: %s", twins[_i].mutant, out);
	ck_assert_msg(strstr(out, twins[_i].kind), "%s: %s", twins[_i].mutant, out);
	/* in the kernel's terms: its function and source line */
	if (twins[_i].where)
		ck_assert_msg(strstr(out, twins[_i].where) &&
			      strstr(out, "(arch/arm64/kernel/ftrace.c:") &&
			      strstr(out, "> __aarch64_insn_write+0x") &&
			      strstr(out, "(arch/arm64/kernel/patching.c:"),
			      "%s: %s", twins[_i].mutant, out);
	free(out);
}
END_TEST

/* corpus/kernel-mutants: each twin's scenario (the model mutant's world,
 * scheme kernel) reports the model mutant's kind on its mutated kernel,
 * and nothing on Debian's 6.12 */
static const struct {
	const char *mutant, *kind;
	int at_line; /* a step of the kernel's is named (a dropped store is none) */
} scn_twins[] = {
	{ "make-call-bl-before-ops", "nop-ops", 1 },       /* mutant-bl-before-literal */
	{ "modify-call-keeps-ops", "use-after-free", 0 },  /* mutant-skip-literal-on-modify */
	{ "make-call-writes-mov", "cmodx", 1 },            /* mutant-live-mov-patch */
};

START_TEST(each_kernel_mutant_scenario_has_its_models_kind_and_6_12_none)
{
	char *out = NULL, kdir[128], scn[160], want[64];

	snprintf(kdir, sizeof(kdir), "kernel-mut/%s", scn_twins[_i].mutant);
	snprintf(scn, sizeof(scn), "corpus/kernel-mutants/kernel-mutant-%s.scn",
		 scn_twins[_i].mutant);
	snprintf(want, sizeof(want), "VIOLATION %s ", scn_twins[_i].kind);
	ck_assert_msg(run("scenario", scn, kdir, NULL, &out) == 1, "%s: %s", scn, out);
	ck_assert_msg(strstr(out, want), "%s: %s", scn, out);
	ck_assert_msg(!scn_twins[_i].at_line || strstr(out, " (arch/arm64/kernel/ftrace.c:"),
		      "%s: %s", scn, out);
	free(out);
	ck_assert_msg(run("scenario", scn, "kernel/6.12", NULL, &out) == 0, "%s: %s", scn, out);
	ck_assert_msg(strstr(out, "no violation (0 violations)"), "%s: %s", scn, out);
	free(out);
}
END_TEST

/* misaligned-literal's twin (ftrace_call_adjust without its alignment
 * check) cannot tear the ops: the kernel writes and ftrace_caller reads the
 * literal 8-byte aligned down, so the store lands on the instruction before
 * the site's NOPs: named at the kernel's line, at boot. 6.12 skips those
 * sites with its own WARN, decided by its ftrace_call_adjust. */
START_TEST(the_misaligned_twin_overwrites_the_word_before_the_site)
{
	char fz[128];
	char *argv[] = { (char *)ftv_test_env("FTV"), "fuzz", "--scheme", "kernel", "--kernel",
			 fz, "--seed", "1", "--iterations", "1", "--out", "/tmp/ftv-kfuzz-none.scn",
			 NULL };
	const char *scn = "corpus/kernel-mutants/kernel-mutant-call-adjust-misaligned.scn";
	char *out = NULL;
	int rc = run("scenario", scn, "kernel-mut/call-adjust-misaligned", NULL, &out);

	ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "init_nop: ftrace_init_nop+0x") &&
		      strstr(out, "(arch/arm64/kernel/ftrace.c:") &&
		      strstr(out, "> aarch64_insn_write_literal_u64+0x") &&
		      strstr(out, ": the ops literal overwrites ") &&
		      strstr(out, " at r1_entry+0x8/0xc, not a NOP of the site") &&
		      !strstr(out, "bad-ops-literal"), "%s", out);
	free(out);
	ck_assert_int_eq(run("scenario", scn, "kernel/6.12", NULL, &out), 0);
	ck_assert_msg(strstr(out, "13 sites skipped, as the kernel does: Misaligned patch-site ("),
		      "%s", out);
	free(out);
	/* verify's world of the twin (r1_f13's site, 4 mod 8) stops there
	 * too; on 6.12 the site is not traceable and the world is refused */
	ck_assert_int_eq(run("verify", "corpus/verify/verify-kernel-misaligned.scn",
			     "kernel-mut/call-adjust-misaligned", "--out=/tmp", &out), 2);
	ck_assert_msg(strstr(out, "init_nop: ftrace_init_nop+0x") &&
		      strstr(out, " not a NOP of the site"), "%s", out);
	free(out);
	ck_assert_int_eq(run("verify", "corpus/verify/verify-kernel-misaligned.scn", "kernel/6.12",
			     "--out=/tmp", &out), 2);
	ck_assert_msg(strstr(out, "r1_f13: no traced function"), "%s", out);
	free(out);
	/* every literal of 6.12 lands on NOPs, those of the weak functions'
	 * overriders included (fuzz's objects: rand1 rand2 weak hooks, rand3) */
	ftv_test_path(fz, sizeof(fz), "FTV_BUILD", "kernel/6.12");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "1 iterations") && strstr(out, " 0 violating iterations") &&
		      strstr(out, "weak hooks"), "%s", out);
	free(out);
}
END_TEST

/* literal-store-after-unmap has no model twin: its first ftrace_init_nop
 * already faults, as the kernel's would at boot */
START_TEST(a_kernel_faulting_at_boot_is_named_at_its_source_line)
{
	char *out = NULL;
	int rc = run("scenario", "corpus/scenarios/kernel-make-call.scn",
		     "kernel-mut/literal-store-after-unmap", NULL, &out);

	ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "ftrace_init_nop returned -14") &&
		      strstr(out, "aarch64_insn_write_literal_u64+0x") &&
		      strstr(out, "(arch/arm64/kernel/patching.c:") &&
		      strstr(out, "no fixmap mapping"), "%s", out);
	free(out);
}
END_TEST

START_TEST(mutants_and_missing_builds_are_refused)
{
	char *out = NULL;

	/* the model's mutants are the model's: a kernel is mutated in its
	 * source */
	ck_assert_int_eq(run("scenario", "corpus/scenarios/kernel-make-call.scn", "kernel/6.12",
			     "--mutate=bl-before-literal", &out), 2);
	free(out);
	ck_assert_int_eq(run("scenario", "corpus/scenarios/kernel-make-call.scn",
			     "kernel/no-such-build", NULL, &out), 2);
	ck_assert_msg(strstr(out, "make kernel"), "%s", out);
	free(out);
}
END_TEST

/* The core is ftv's model in every scheme: its mutants (the ops freed
 * before the sites stop using it, kernel/trace/ftrace.c's side) run with
 * the kernel's backend as they are, and are found as with the model's. */
START_TEST(the_cores_mutants_run_on_the_kernels_backend)
{
	char s[512], k[512], *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "verify", s, "--kernel", k,
			 "--mutate=free-before-unpatch", "--out=/tmp", NULL };

	ftv_test_path(s, sizeof(s), "FTV_TOP", "corpus/scenarios/verify-kernel-disable.scn");
	ftv_test_path(k, sizeof(k), "FTV_BUILD", "kernel/6.12");
	ck_assert_int_eq(ftv_test_run(argv, &out), 1);
	ck_assert_msg(strstr(out, "VIOLATION use-after-free ") &&
		      strstr(out, "mutate free-before-unpatch"), "%s", out);
	free(out);
}
END_TEST

/* The text of a fuzz --json line from key to end (NULL: to the line's
 * end), or "" when the output has no such key. */
static char *json_span(const char *out, const char *key, const char *end)
{
	const char *p = strstr(out, key), *q;

	if (!p)
		return strdup("");
	q = end ? strstr(p, end) : NULL;
	if (!q)
		q = p + strcspn(p, "\n");
	return strndup(p, (size_t)(q - p));
}

/* A campaign's worlds share kept kernels (kernel/kpool.c): the same
 * iterations, transitions, steps and findings (the shrink's candidates
 * included) as with a fresh kernel for every world (FTV_KERNEL_FRESH=1),
 * on 6.12 and on a mutated kernel. */
START_TEST(kept_kernels_fuzz_as_fresh_ones)
{
	static const char *const kdirs[] = { "kernel/6.12", "kernel-mut/make-call-bl-before-ops" };

	for (size_t i = 0; i < sizeof(kdirs) / sizeof(kdirs[0]); i++) {
		char k[512], bld[512], scn[2][64], *out[2] = { NULL, NULL };
		char *sum[2], *kind[2], *rep[2];

		ftv_test_path(k, sizeof(k), "FTV_BUILD", kdirs[i]);
		ftv_test_path(bld, sizeof(bld), "FTV_BUILD", "");
		for (int fresh = 0; fresh < 2; fresh++) {
			char *argv[] = { (char *)ftv_test_env("FTV"), "fuzz", "--build", bld,
					 "--scheme", "kernel", "--kernel", k, "--seed", "1",
					 "--iterations", "4", "--shrink-budget", "12", "--out",
					 scn[fresh], "--json", NULL };
			int rc;

			snprintf(scn[fresh], sizeof(scn[fresh]), "/tmp/ftv-kpool-%d-%d-%zu.scn",
				 (int)getpid(), fresh, i);
			if (fresh)
				setenv("FTV_KERNEL_FRESH", "1", 1);
			rc = ftv_test_run(argv, &out[fresh]);
			unsetenv("FTV_KERNEL_FRESH");
			unlink(scn[fresh]);
			ck_assert_msg(rc == (i ? 1 : 0), "%s: exit %d: %s", kdirs[i], rc, out[fresh]);
			sum[fresh] = json_span(out[fresh], "\"iterations\":", ",\"elapsed_s\"");
			kind[fresh] = json_span(out[fresh], "\"type\":\"finding\"", ",\"replay\"");
			rep[fresh] = json_span(out[fresh], "\"report\":", NULL);
		}
		ck_assert_msg(strstr(sum[0], "\"transitions\":") && !strcmp(sum[0], sum[1]),
			      "%s: kept %s, fresh %s", kdirs[i], sum[0], sum[1]);
		ck_assert_msg(!strcmp(kind[0], kind[1]) && !strcmp(rep[0], rep[1]),
			      "%s: kept %s %s, fresh %s %s", kdirs[i], kind[0], rep[0], kind[1], rep[1]);
		/* the mutant's nop-ops is found, named at the kernel's line */
		ck_assert_msg(!i || (strstr(kind[0], "\"kind\":\"nop-ops\"") &&
				     strstr(rep[0], "ftrace_make_call+0x")), "%s %s", kind[0], rep[0]);
		for (int f = 0; f < 2; f++) {
			free(sum[f]);
			free(kind[f]);
			free(rep[f]);
			free(out[f]);
		}
	}
}
END_TEST

/* The patcher CPU reads the site when it runs (kernel/kback.c): another
 * task's write of the word before ftrace_modify_code reads it makes the
 * real code return -EINVAL at its own line (its rerun from the read),
 * where the recorded plans of before (FTV_KERNEL_RECORDED=1) blamed a
 * store the code never reaches; the same run twice is the same trace; the
 * twin writing the word ftrace expects passes. */
START_TEST(the_patcher_cpu_reads_the_world_when_it_runs)
{
	char *out = NULL, *again = NULL;
	const char *scn = "corpus/scenarios/kernel-unreserved-write.scn";
	int rc;

	ck_assert_msg(run("scenario", scn, "kernel/6.12", NULL, &out) == 1, "%s", out);
	ck_assert_msg(strstr(out, "VIOLATION ftrace_bug") &&
		      strstr(out, "make_call: ftrace_make_call+0x") &&
		      strstr(out, "(arch/arm64/kernel/ftrace.c:") &&
		      strstr(out, "> aarch64_insn_read+0x") &&
		      strstr(out, "returned -22 after reading 0x14000001 (expected 0xd503201f)") &&
		      !strstr(out, "__aarch64_insn_write"), "%s", out);
	ck_assert_int_eq(run("scenario", scn, "kernel/6.12", NULL, &again), 1);
	/* the same trace hash (", trace 0123456789abcdef,"; the peak RSS
	 * after it may differ) */
	ck_assert_ptr_nonnull(strstr(out, ", trace "));
	ck_assert_ptr_nonnull(strstr(again, ", trace "));
	ck_assert(!strncmp(strstr(out, ", trace "), strstr(again, ", trace "), 24));
	free(again);
	setenv("FTV_KERNEL_RECORDED", "1", 1);
	ck_assert_int_eq(run("scenario", scn, "kernel/6.12", NULL, &again), 1);
	unsetenv("FTV_KERNEL_RECORDED");
	ck_assert_msg(strstr(again, "VIOLATION ftrace_bug") &&
		      strstr(again, "> __aarch64_insn_write+0x") && !strstr(again, "returned -22"),
		      "%s", again);
	free(again);
	free(out);
	/* the other task's steps on a track of their own; the patcher CPU's
	 * last step, where the code returned */
	out = trace_of(scn, &rc);
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(out, "\"name\":\"text patcher (another task)\"") &&
		      strstr(out, "\"name\":\"write-insn: text-write: aarch64_insn_patch_text_nosync, "
			     "no ftrace_lock\",\"cat\":\"plan-step\",\"pid\":1,\"tid\":1002") &&
		      strstr(out, "\"name\":\"fail: make_call: ftrace_make_call+0x"), "%.3000s", out);
	ck_assert_msg(strstr(strstr(out, "\"name\":\"fail: make_call: "), "\"tid\":1000,"),
		      "%.3000s", out);
	free(out);
	ck_assert_int_eq(run("scenario", "corpus/scenarios/kernel-text-write-same.scn",
			     "kernel/6.12", NULL, &out), 0);
	ck_assert_msg(strstr(out, "no violation") && !strstr(out, " 0 tracer calls"), "%s", out);
	free(out);
}
END_TEST

/* verify's world of kernel-unreserved-write (the patcher CPU's live read
 * of the site, another task's store to it): the walk finds the ftrace_bug
 * in its first execution, and its counterexample (the steps the violation
 * depends on) replays as it was found. The walk numbers the store
 * buffer's channels (a schedule's sbuf:N) in the order it first saw each
 * address over all its runs, its random discovery runs first; a replay
 * numbering them in its own run's order drained other stores ("the
 * schedule diverged" at step 15), so verify fell back to the whole
 * execution. The replay file now carries the walk's numbering
 * (`channels`). */
START_TEST(a_foreign_write_under_the_live_read_is_found_and_replays)
{
	const char *scn = "corpus/verify/verify-kernel-unreserved-write.scn";
	char dir[] = "/tmp/ftv-kuw-XXXXXX", outarg[64], s[512], k[512], cx[640];
	char *argv[] = { (char *)ftv_test_env("FTV"), "verify", "--first", outarg, s,
			 "--kernel", k, NULL };
	char *out = NULL;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(outarg, sizeof(outarg), "--out=%s", dir);
	ftv_test_path(s, sizeof(s), "FTV_TOP", scn);
	ftv_test_path(k, sizeof(k), "FTV_BUILD", "kernel/6.12");
	ck_assert_msg(ftv_test_run(argv, &out) == 1, "%s", out);
	ck_assert_msg(strstr(out, "VIOLATION ftrace_bug") &&
		      strstr(out, "found after 1 executions") &&
		      strstr(out, "returned -22 after reading 0x14000001") &&
		      !strstr(out, "did not reproduce") && !strstr(out, "diverged"), "%s", out);
	free(out);
	snprintf(cx, sizeof(cx), "%s/verify-kernel-unreserved-write.cx.scn", dir);
	ck_assert_msg(run("scenario", cx, "kernel/6.12", NULL, &out) == 1, "%s", out);
	ck_assert_msg(strstr(out, "VIOLATION ftrace_bug") &&
		      strstr(out, "returned -22 after reading 0x14000001") &&
		      !strstr(out, "diverged"), "%s", out);
	free(out);
	unlink(cx);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

static Suite *kernel_scheme_suite(void)
{
	Suite *s = suite_create("kernel_scheme");
	TCase *t = tcase_create("kernel_scheme");

	tcase_set_timeout(t, 300);
	tcase_add_test(t, debian_6_12_passes_the_kernel_scenarios);
	tcase_add_test(t, debian_6_12_proves_the_kernel_proof_worlds);
	tcase_add_test(t, the_patcher_track_names_the_kernel_function_and_line);
	tcase_add_loop_test(t, each_kernel_twin_is_found_by_verify_with_its_models_kind, 0,
			    sizeof(twins) / sizeof(twins[0]));
	tcase_add_loop_test(t, each_kernel_mutant_scenario_has_its_models_kind_and_6_12_none, 0,
			    sizeof(scn_twins) / sizeof(scn_twins[0]));
	tcase_add_test(t, the_misaligned_twin_overwrites_the_word_before_the_site);
	tcase_add_test(t, a_kernel_faulting_at_boot_is_named_at_its_source_line);
	tcase_add_test(t, the_cores_mutants_run_on_the_kernels_backend);
	tcase_add_test(t, mutants_and_missing_builds_are_refused);
	tcase_add_test(t, kept_kernels_fuzz_as_fresh_ones);
	tcase_add_test(t, the_patcher_cpu_reads_the_world_when_it_runs);
	tcase_add_test(t, a_foreign_write_under_the_live_read_is_found_and_replays);
	suite_add_tcase(s, t);
	return s;
}
FTV_SUITE(kernel_scheme, kernel_scheme_suite)
