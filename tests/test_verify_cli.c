/* ftv verify end to end: a proof (exit 0, "verified: N executions,
 * complete"), a budget hit (exit 3, "incomplete ... not verified"), a
 * mutant's counterexample (exit 1) whose replay file ftv scenario
 * reproduces, --json, and bad usage (exit 2). The -pg world is the
 * quickest of the proof scenarios. */
#include "tests/suite.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static void scn(char *buf, size_t n, const char *name)
{
	ftv_test_path(buf, n, "FTV_TOP", name);
}

START_TEST(verify_proves_stops_at_its_budget_and_rejects_bad_usage)
{
	char path[4096], *out;

	scn(path, sizeof(path), "corpus/scenarios/verify-mcount.scn");
	ck_assert_int_eq(FTV_RUN(&out, "verify", path), 0);
	ck_assert_msg(strstr(out, "verified: 36 executions, complete"), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--max-executions", "3", path), 3);
	ck_assert_msg(strstr(out, "incomplete after 3 executions (budget: --max-executions 3 "
				  "reached): not verified"), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--json", path), 0);
	ck_assert_msg(strstr(out, "\"verdict\":\"verified\"") &&
		      strstr(out, "\"executions\":36") && strstr(out, "\"complete\":true"),
		      "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--shard", "2/2", path), 2);
	ck_assert_msg(strstr(out, "ftv verify: --shard"), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "/nonexistent.scn"), 2);
	free(out);
}
END_TEST

START_TEST(verify_counterexample_is_a_replay_file)
{
	char path[4096], dir[4096], cx[8400], *out;

	scn(path, sizeof(path), "corpus/scenarios/verify-callops-make-call.scn");
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-cli");
	snprintf(cx, sizeof(cx), "mkdir -p %s && rm -f %s/verify-callops-make-call.cx*.scn", dir,
		 dir);
	ck_assert_int_eq(system(cx), 0);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--first", "--out", dir, "--mutate",
				 "bl-before-literal", path), 1);
	ck_assert_msg(strstr(out, "VIOLATION nop-ops") && strstr(out, "counterexample: ") &&
		      strstr(out, "schedule: "), "%s", out);
	free(out);
	snprintf(cx, sizeof(cx), "%s/verify-callops-make-call.cx.scn", dir);
	ck_assert_int_eq(access(cx, R_OK), 0);
	/* ftv scenario replays it: the same violation, the schedule followed */
	ck_assert_int_eq(FTV_RUN(&out, "scenario", cx), 1);
	ck_assert_msg(strstr(out, "VIOLATION nop-ops") && !strstr(out, "diverged"), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "conform", cx), 0);
	free(out);
}
END_TEST

/* Shards' --json outputs combine into one verdict: verified only when
 * every shard is there and complete, executions summed; a missing shard
 * makes it incomplete (exit 3), a duplicate or a bad line is bad input. */
START_TEST(verify_combines_shards)
{
	char path[4096], dir[4096], f[4][4300], cmd[9000], *out;
	unsigned long long sum = 0;

	scn(path, sizeof(path), "corpus/scenarios/verify-mcount.scn");
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-cli");
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	for (int i = 0; i < 3; i++) {
		char shard[8];
		FILE *fp;
		const char *e;

		snprintf(shard, sizeof(shard), "%d/3", i);
		snprintf(f[i], sizeof(f[i]), "%s/shard%d.json", dir, i);
		ck_assert_int_eq(FTV_RUN(&out, "verify", "--json", "--shard", shard, path), 0);
		ck_assert_msg(strstr(out, "\"complete\":true"), "%s", out);
		e = strstr(out, "\"executions\":");
		ck_assert_ptr_nonnull(e);
		sum += strtoull(e + strlen("\"executions\":"), NULL, 10);
		fp = fopen(f[i], "w");
		ck_assert_ptr_nonnull(fp);
		fputs(out, fp);
		fclose(fp);
		free(out);
	}
	/* the shards' explorations together cover the unsharded one's */
	ck_assert_uint_ge(sum, 36);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", f[2], f[0], f[1]), 0);
	snprintf(cmd, sizeof(cmd), "verified: %llu executions, complete (every one of the 3 shards)",
		 sum);
	ck_assert_msg(strstr(out, cmd), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", "--json", f[0], f[1], f[2]), 0);
	ck_assert_msg(strstr(out, "\"type\":\"verify-combined\"") &&
		      strstr(out, "\"verdict\":\"verified\""), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", f[0], f[2]), 3);
	ck_assert_msg(strstr(out, "(shards missing: 1; shards incomplete: none): not verified"),
		      "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", f[0], f[0]), 2);
	/* the merging mechanism fuzz-merge shares: file and line of both */
	ck_assert_msg(strstr(out, "shard0.json:1: shard 0/3 again (also ") &&
		      strstr(out, "shard0.json:1) (verify-mcount)"), "%s", out);
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", path), 2);
	free(out);
	/* a shard of another run (unreduced): the field, both values, both
	 * files and lines */
	{
		char other[4400], text[4096], *at;
		FILE *fp = fopen(f[1], "r");
		size_t len;

		ck_assert_ptr_nonnull(fp);
		len = fread(text, 1, sizeof(text) - 1, fp);
		fclose(fp);
		text[len] = 0;
		at = strstr(text, "\"reduced\":true");
		ck_assert_ptr_nonnull(at);
		memcpy(at, "\"reduced\":0   ", strlen("\"reduced\":true"));
		snprintf(other, sizeof(other), "%s/other.json", dir);
		fp = fopen(other, "w");
		ck_assert_ptr_nonnull(fp);
		fputs(text, fp);
		fclose(fp);
		ck_assert_int_eq(FTV_RUN(&out, "verify", "--combine", f[0], other, f[2]), 2);
		ck_assert_msg(strstr(out, "other.json:1: reduced '0', but ") &&
			      strstr(out, "shard0.json:1 has 'true': not one world (verify-mcount)"),
			      "%s", out);
		free(out);
	}
}
END_TEST

/* A settled prefix: modify_call explored from a site that already calls
 * t1. The mutant that skips the literal on modify is found in a handful
 * of visible steps (the first update is no part of them), its replay file
 * keeps the settle line and replays it step for step; a settle line after
 * the CPUs have run, or a second one, is refused (exit 2) naming the
 * line. */
START_TEST(verify_starts_from_a_settled_prefix)
{
	char path[4096], dir[4096], cx[8400], bad[4200], *out, *at;
	FILE *f;

	scn(path, sizeof(path), "corpus/scenarios/verify-callops-modify.scn");
	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-cli");
	snprintf(cx, sizeof(cx), "mkdir -p %s && rm -f %s/verify-callops-modify.cx*.scn", dir, dir);
	ck_assert_int_eq(system(cx), 0);
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--out", dir, "--mutate",
				 "skip-literal-on-modify", path), 1);
	at = strstr(out, "counterexample: ");
	ck_assert_msg(at && strtoul(at + strlen("counterexample: "), NULL, 10) <= 20 &&
		      strstr(out, "t2(missed)"), "%s", out);
	free(out);
	snprintf(cx, sizeof(cx), "%s/verify-callops-modify.cx.scn", dir);
	f = fopen(cx, "r");
	ck_assert_ptr_nonnull(f);
	{
		char line[512];
		int settle = 0, registers = 0;

		while (fgets(line, sizeof(line), f)) {
			settle += !strcmp(line, "settle\n");
			/* the settle line between the two registrations */
			if (!strncmp(line, "register", 8))
				ck_assert_int_eq(settle, registers++);
		}
		ck_assert_int_eq(settle, 1);
		ck_assert_int_eq(registers, 2);
	}
	fclose(f);
	ck_assert_int_eq(FTV_RUN(&out, "scenario", cx), 1);
	ck_assert_msg(strstr(out, "VIOLATION count") && !strstr(out, "diverged"), "%s", out);
	free(out);

	snprintf(bad, sizeof(bad), "%s/settle-late.scn", dir);
	f = fopen(bad, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name settle-late\nscheme callops\nobjects rand1\ncpus 2\nexpect ok\n"
		   "ops t1 tracer_a\nregister t1\nrun 100\nsettle\nunregister t1\n");
	fclose(f);
	ck_assert_int_eq(FTV_RUN(&out, "verify", bad), 2);
	ck_assert_msg(strstr(out, "settle-late.scn:9: settle: the CPUs have run already "
				  "(line 8)"), "%s", out);
	free(out);
	f = fopen(bad, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name settle-late\nscheme callops\nobjects rand1\ncpus 2\nexpect ok\n"
		   "ops t1 tracer_a\nsettle\nregister t1\nsettle\n");
	fclose(f);
	ck_assert_int_eq(FTV_RUN(&out, "scenario", bad), 2);
	ck_assert_msg(strstr(out, "settle-late.scn:9: settle: one settle line at most"), "%s",
		      out);
	free(out);
}
END_TEST

/* A user's world may never end: --time bounds each walk (incomplete,
 * exit 3, naming the bound). */
START_TEST(verify_time_ends_the_walk_incomplete)
{
	char path[4096], *out;

	/* a world of 500,960 executions (minutes): 0.3 s cannot prove it */
	scn(path, sizeof(path), "corpus/verify/verify-callops-call-nop-3cpus.scn");
	ck_assert_int_eq(FTV_RUN(&out, "verify", "--time", "0.3", path), 3);
	ck_assert_msg(strstr(out, "incomplete after ") &&
		      strstr(out, " executions (budget: stopped by --time 0.3 s): not verified"),
		      "%s", out);
	free(out);
}
END_TEST

/* SIGINT mid-walk: the verdict so far, then exit 130. */
START_TEST(verify_sigint_prints_the_verdict_so_far)
{
	char path[4096], log[64], *out = NULL;
	int st, fd;
	pid_t pid;
	FILE *f;
	long n;

	/* a world no machine completes in the 1.5 s before the signal
	 * (incomplete after 200,000 executions, a minute of CPU) */
	scn(path, sizeof(path), "corpus/verify/verify-tramp-call-nop-3cpus.scn");
	ftv_test_tmpfile(log, sizeof(log), "");
	pid = fork();
	ck_assert(pid >= 0);
	if (!pid) {
		fd = open(log, O_WRONLY | O_TRUNC);
		dup2(fd, 1);
		dup2(fd, 2);
		execl(ftv_test_env("FTV"), "ftv", "verify", "--time", "600", path, (char *)NULL);
		_exit(127);
	}
	/* well into the walk */
	usleep(1500000);
	kill(pid, SIGINT);
	ck_assert(waitpid(pid, &st, 0) == pid);
	f = fopen(log, "r");
	ck_assert(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	out = calloc(1, (size_t)n + 1);
	ck_assert(out && fread(out, 1, (size_t)n, f) == (size_t)n);
	fclose(f);
	unlink(log);
	ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 130, "status 0x%x: %s", st, out);
	ck_assert_msg(strstr(out, " executions (budget: stopped by SIGINT): not verified"),
		      "%s", out);
	free(out);
}
END_TEST

/* A counterexample file already there is kept: the new one gets a suffix. */
START_TEST(verify_keeps_an_existing_counterexample)
{
	char path[4096], dir[64], want[200], *out;

	scn(path, sizeof(path), "corpus/scenarios/verify-mutant-no-publish-barrier.scn");
	snprintf(dir, sizeof(dir), "/tmp/ftv-verify-cx-XXXXXX");
	ck_assert(mkdtemp(dir));
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(FTV_RUN(&out, "verify", "--out", dir, path), 1);
		snprintf(want, sizeof(want), "replay: %s/verify-mutant-no-publish-barrier.cx%s.scn",
			 dir, i ? "-1" : "");
		ck_assert_msg(strstr(out, want), "%s", out);
		free(out);
		snprintf(want, sizeof(want), "%s/verify-mutant-no-publish-barrier.cx%s.scn", dir,
			 i ? "-1" : "");
		ck_assert_int_eq(access(want, R_OK), 0);
	}
	snprintf(want, sizeof(want), "rm -rf %s", dir);
	ck_assert_int_eq(system(want), 0);
}
END_TEST

/* Nothing to interleave (no update a CPU could see): not "verified" */
START_TEST(verify_of_nothing_is_vacuous)
{
	char path[64], *out;
	int rc;

	ftv_test_tmpfile(path, sizeof(path),
			 "name v0\nscheme callops\nobjects rand1\ncpus 2\nexpect ok\n"
			 "workload r1_f3\nops t1 tracer_a\nfilter t1 r1_f5\n");
	rc = FTV_RUN(&out, "verify", "--build", (char *)ftv_test_env("FTV_BUILD"), path);
	ck_assert_msg(rc == 2 && strstr(out, "ftv verify: v0: vacuous: no CPU fetches a word or "
					     "loads data the updates change"),
		      "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

/* The cache maintenance's finer dependencies (a DSB that completes no IC
 * is no write of what a context synchronisation reads, a sync of every
 * CPU writes only the floors it raises; issue 31) against the coarse ones
 * they replaced (--coarse-deps), and the store buffer's waits that are no
 * races (XLOC_SBNEED: a drain or barrier against the store it waited for;
 * the coarse walk reverses them): on proof worlds of every scheme and on
 * mutants' worlds, the same verdict, completeness, violation kinds and
 * shortest counterexample, in no more executions and no more runs the
 * sleep sets cut. Where a second patcher shares the store buffer (the
 * jump label's and text patching's worlds above) no store is named. */
START_TEST(verify_finer_dependencies_keep_verdicts)
{
	static const char *const worlds[][2] = {
		{ "corpus/scenarios/verify-callops-make-call.scn", NULL },
		{ "corpus/scenarios/verify-callops-make-call.scn", "bl-before-literal" },
		{ "corpus/scenarios/verify-callops-disable.scn", "free-without-quiescence" },
		{ "corpus/scenarios/verify-callops-modify.scn", "skip-literal-on-modify" },
		{ "corpus/scenarios/verify-tramp.scn", NULL },
		{ "corpus/scenarios/verify-mcount-3cpus.scn", NULL },
		{ "corpus/scenarios/verify-mcount-publish.scn", "no-publish-barrier" },
		{ "corpus/scenarios/verify-riscv-atomic.scn", NULL },
		{ "corpus/scenarios/verify-riscv-atomic.scn", "jalr-before-literal" },
		{ "corpus/scenarios/verify-jump-label.scn", "jump-label-no-sync" },
		{ "corpus/scenarios/verify-riscv-patch-text.scn", "patch-text-no-fence-i" },
		{ "corpus/scenarios/verify-callops-disable.scn", "free-before-unpatch" },
		{ "corpus/scenarios/verify-direct-batch.scn", NULL },
	};
	static const char *const keys[] = { "verdict", "complete", "kinds",
					     "counterexample_steps" };

	for (size_t i = 0; i < sizeof(worlds) / sizeof(worlds[0]); i++) {
		char path[4096], dir[4096], cmd[4200], v[2][4][200];
		unsigned long long ex[2], blk[2];

		scn(path, sizeof(path), worlds[i][0]);
		ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-cli/agree");
		snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
		ck_assert_int_eq(system(cmd), 0);
		for (int c = 0; c < 2; c++) {
			char *out, e[32];
			int rc = worlds[i][1]
				? FTV_RUN(&out, "verify", "--json", "--out", dir, "--mutate",
					  (char *)worlds[i][1], c ? "--coarse-deps" : "--json", path)
				: FTV_RUN(&out, "verify", "--json", "--out", dir,
					  c ? "--coarse-deps" : "--json", path);

			ck_assert_msg(rc == (worlds[i][1] ? 1 : 0), "%s %s: exit %d: %s",
				      worlds[i][0], worlds[i][1] ? worlds[i][1] : "", rc, out);
			for (int k = 0; k < 4; k++)
				ftv_test_json_field(out, keys[k], v[c][k], sizeof(v[c][k]));
			ftv_test_json_field(out, "executions", e, sizeof(e));
			ex[c] = strtoull(e, NULL, 10);
			ftv_test_json_field(out, "blocked", e, sizeof(e));
			blk[c] = strtoull(e, NULL, 10);
			free(out);
		}
		for (int k = 0; k < 4; k++)
			ck_assert_msg(!strcmp(v[0][k], v[1][k]), "%s %s: %s %s, coarse %s",
				      worlds[i][0], worlds[i][1] ? worlds[i][1] : "", keys[k],
				      v[0][k], v[1][k]);
		ck_assert_msg(ex[0] <= ex[1], "%s: %llu executions, coarse %llu", worlds[i][0],
			      ex[0], ex[1]);
		ck_assert_msg(blk[0] <= blk[1], "%s: %llu runs blocked, coarse %llu",
			      worlds[i][0], blk[0], blk[1]);
	}
}
END_TEST

/* A drain against the store it waited for (a DMB between them), or a
 * barrier against the stores before it, is no race to reverse: on the
 * modify_call world the walk no longer runs into its sleep sets (1,658
 * blocked runs before, 0 now), in the same executions, to the same
 * verdict as with those races reversed (--coarse-deps, whose cache
 * maintenance is coarser too: more executions). */
START_TEST(verify_store_buffer_waits_are_no_races)
{
	char path[4096], *out, e[32];
	unsigned long long ex[2], blk[2];

	scn(path, sizeof(path), "corpus/scenarios/verify-callops-modify.scn");
	for (int c = 0; c < 2; c++) {
		ck_assert_int_eq(FTV_RUN(&out, "verify", "--json", c ? "--coarse-deps" : "--json",
					 path), 0);
		ck_assert_msg(strstr(out, "\"verdict\":\"verified\"") &&
			      strstr(out, "\"complete\":true"), "%s", out);
		ftv_test_json_field(out, "executions", e, sizeof(e));
		ex[c] = strtoull(e, NULL, 10);
		ftv_test_json_field(out, "blocked", e, sizeof(e));
		blk[c] = strtoull(e, NULL, 10);
		free(out);
	}
	ck_assert_msg(ex[0] == 961 && blk[0] == 0, "%llu executions, %llu blocked", ex[0],
		      blk[0]);
	ck_assert_msg(ex[1] >= ex[0] && blk[1] > 0, "coarse: %llu executions, %llu blocked",
		      ex[1], blk[1]);
}
END_TEST

/* --stats splits the walk's CPU time (exec_verify_split) without changing
 * what is explored: the same verdict, counts and counterexample as without
 * it, parts that add up to no more than the walk, and replayed prefixes
 * that are a part of the runs' steps. */
START_TEST(verify_stats_split_the_walk_and_change_nothing)
{
	static const char *const worlds[][2] = {
		{ "corpus/scenarios/verify-mcount.scn", NULL },
		{ "corpus/scenarios/verify-callops-make-call.scn", "bl-before-literal" },
	};
	static const char *const same[] = { "verdict", "complete", "executions", "pruned",
					    "blocked", "steps", "kinds", "counterexample_steps",
					    "schedule" };
	static const char *const parts[] = { "cpu_restore", "cpu_run", "cpu_check",
					     "cpu_bookkeeping" };
	enum { NSAME = sizeof(same) / sizeof(same[0]) };

	for (size_t i = 0; i < sizeof(worlds) / sizeof(worlds[0]); i++) {
		char path[4096], dir[4096], cmd[4200], v[2][NSAME][400], f[64];
		char *out[2];
		double walk, sum = 0;

		scn(path, sizeof(path), worlds[i][0]);
		ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "verify-cli/stats");
		snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
		ck_assert_int_eq(system(cmd), 0);
		for (int c = 0; c < 2; c++) {
			int rc = FTV_RUN(&out[c], "verify", "--json", "--out", dir, "--build",
					 (char *)ftv_test_env("FTV_BUILD"), "--mutate",
					 worlds[i][1] ? (char *)worlds[i][1] : "none",
					 c ? "--stats" : "--json", path);

			ck_assert_msg(rc == (worlds[i][1] ? 1 : 0), "%s: exit %d: %s",
				      worlds[i][0], rc, out[c]);
			for (size_t k = 0; k < NSAME; k++)
				ftv_test_json_field(out[c], same[k], v[c][k], sizeof(v[c][k]));
		}
		for (size_t k = 0; k < NSAME; k++)
			ck_assert_msg(!strcmp(v[0][k], v[1][k]), "%s: %s %s, with --stats %s",
				      worlds[i][0], same[k], v[0][k], v[1][k]);
		ck_assert_msg(!strstr(out[0], "cpu_walk"), "%s", out[0]);
		ftv_test_json_field(out[1], "cpu_walk", f, sizeof(f));
		walk = strtod(f, NULL);
		ck_assert_msg(walk > 0, "%s", out[1]);
		for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++) {
			ftv_test_json_field(out[1], parts[k], f, sizeof(f));
			ck_assert_msg(f[0] && strtod(f, NULL) >= 0, "%s: %s", parts[k], out[1]);
			sum += strtod(f, NULL);
		}
		ck_assert_msg(sum <= walk + 1e-6 && sum > walk / 2, "parts %g, walk %g: %s", sum,
			      walk, out[1]);
		ftv_test_json_field(out[1], "run_steps", f, sizeof(f));
		{
			unsigned long long all = strtoull(f, NULL, 10), rep;

			ftv_test_json_field(out[1], "replayed_steps", f, sizeof(f));
			rep = strtoull(f, NULL, 10);
			ck_assert_msg(all > 0 && rep > 0 && rep < all, "%llu of %llu: %s", rep, all,
				      out[1]);
		}
		free(out[0]);
		free(out[1]);
	}
	{
		char path[4096], *o;

		scn(path, sizeof(path), "corpus/scenarios/verify-mcount.scn");
		ck_assert_int_eq(FTV_RUN(&o, "verify", "--stats", "--build",
					 (char *)ftv_test_env("FTV_BUILD"), path), 0);
		ck_assert_msg(strstr(o, "verified: 36 executions, complete") &&
			      strstr(o, "executions/s of the walk's CPU") &&
			      strstr(o, "stats: walk: restore ") &&
			      strstr(o, "repeating the prefix of the run before"), "%s", o);
		free(o);
	}
}
END_TEST

static Suite *verify_cli_suite(void)
{
	Suite *s = suite_create("verify_cli");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, verify_proves_stops_at_its_budget_and_rejects_bad_usage);
	tcase_add_test(tc, verify_counterexample_is_a_replay_file);
	tcase_add_test(tc, verify_combines_shards);
	tcase_add_test(tc, verify_starts_from_a_settled_prefix);
	tcase_add_test(tc, verify_time_ends_the_walk_incomplete);
	tcase_add_test(tc, verify_sigint_prints_the_verdict_so_far);
	tcase_add_test(tc, verify_keeps_an_existing_counterexample);
	tcase_add_test(tc, verify_of_nothing_is_vacuous);
	tcase_add_test(tc, verify_finer_dependencies_keep_verdicts);
	tcase_add_test(tc, verify_store_buffer_waits_are_no_races);
	tcase_add_test(tc, verify_stats_split_the_walk_and_change_nothing);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_cli, verify_cli_suite)
