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
#include <unistd.h>

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

/* --- the CPU mapping itself ------------------------------------------------
 * The verdicts above are reached by many schedules, so a state hashed
 * in a wrong frame (a CPU-indexed part left in CPU order, pi taken for
 * its inverse, a CPU's part left out) kept them all (issue 31). Here the
 * hash itself: one schedule S of a symmetric 3-CPU world, replayed with
 * FTV_STATE_TRACE=1 (world.h: state_trace), gives the canonical hash of
 * the state at each scheduling point (executor/exec_sym.h: that of
 * T_pi(s)); S with its CPUs renamed by any permutation reaches, step by
 * step, the same states up to that permutation, so the same hashes; a
 * schedule that is no renaming of S reaches a state S does not; and
 * without symmetry the renamed schedule's hashes are not S's (the
 * permutation moves something). Each S runs every CPU to its end (the
 * replay's first-ready tail then has only the patcher and the store
 * buffer, which no renaming touches), with the CPUs at different points
 * while the plans wait for a grace period or fetch patched code. And no
 * two points of S hash alike: a hash that loses part of a CPU's state
 * at a canonical position is still invariant under renaming, but merges
 * distinct states (docs/bench-scale.md: the mistakes re-planted). */

struct mapping_case {
	const char *world;      /* tests/data/symmetry: a world with its
				   scheduling points and channels */
	const char *s;          /* S */
	const char *other;      /* no renaming of S (two steps swapped) */
};

static const struct mapping_case mapping[] = {
	{ "tests/data/symmetry/callops-call-nop-3cpus.scn",
	  "cpu0 cpu0 cpu1 patcher patcher patcher sbuf:2 sbuf:3 sbuf:14 patcher sbuf:15 "
	  "cpu0 cpu2 patcher patcher patcher patcher patcher patcher sbuf:14 patcher "
	  "sbuf:15 patcher patcher cpu1 patcher patcher patcher cpu0:1 cpu2 cpu1 cpu1 cpu0 "
	  "cpu2 cpu2 cpu1 cpu2 cpu1 cpu1 cpu1 cpu1",
	  "cpu0 cpu1 cpu0 patcher patcher patcher sbuf:2 sbuf:3 sbuf:14 patcher sbuf:15 "
	  "cpu0 cpu2 patcher patcher patcher patcher patcher patcher sbuf:14 patcher "
	  "sbuf:15 patcher patcher cpu1 patcher patcher patcher cpu0:1 cpu2 cpu1 cpu1 cpu0 "
	  "cpu2 cpu2 cpu1 cpu2 cpu1 cpu1 cpu1 cpu1" },
	{ "tests/data/symmetry/riscv-atomic-call-nop-3cpus.scn",
	  "cpu1 cpu1 cpu0 patcher patcher patcher patcher patcher sbuf:2 sbuf:3 sbuf:15 "
	  "cpu1:1 cpu2:1 cpu1 cpu0 cpu2 cpu1 cpu0 cpu0 cpu2 cpu2 cpu0 cpu2",
	  "cpu1 cpu0 cpu1 patcher patcher patcher patcher patcher sbuf:2 sbuf:3 sbuf:15 "
	  "cpu1:1 cpu2:1 cpu1 cpu0 cpu2 cpu1 cpu0 cpu0 cpu2 cpu2 cpu0 cpu2" },
};

/* The permutations of three CPUs: cpuN becomes cpu perms[k][N]. */
static const unsigned perms[6][3] = {
	{ 0, 1, 2 }, { 1, 0, 2 }, { 0, 2, 1 }, { 2, 1, 0 }, { 1, 2, 0 }, { 2, 0, 1 },
};

#define MAX_POINTS 128

/* sched with cpuN renamed cpu p[N] (a fetch's ":value" kept). */
static void rename_cpus(const char *sched, const unsigned *p, char *out, size_t n)
{
	size_t k = 0;

	for (const char *c = sched; *c && k + 1 < n; c++) {
		out[k++] = *c;
		if (c[0] == 'u' && c > sched && c[-1] == 'p' && c[1] >= '0' && c[1] <= '2') {
			out[k++] = (char)('0' + p[c[1] - '0']);
			c++;
		}
	}
	out[k] = 0;
}

/* The state hashes of world replayed along sched (nosym: without
 * symmetry), into h, each followed by " tie" when the canonical order
 * had two CPUs of equal keys; returns how many scheduling points the run
 * had. */
static size_t state_hashes(const char *world, const char *sched, int nosym,
			   char h[MAX_POINTS][48])
{
	char path[4096], tmp[64], *text, *all, *out;
	size_t n = 0, len;
	const char *line;
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", world);
	text = ftv_test_slurp(path);
	len = strlen(text) + strlen(sched) + 16;
	all = malloc(len);
	ck_assert(all);
	snprintf(all, len, "%sschedule %s\n", text, sched);
	ftv_test_scn(tmp, sizeof(tmp), all);
	setenv("FTV_STATE_TRACE", "1", 1);
	setenv("FTV_VERIFY_NO_SYMMETRY", nosym ? "1" : "0", 1);
	rc = FTV_RUN(&out, "scenario", tmp);
	unsetenv("FTV_STATE_TRACE");
	unsetenv("FTV_VERIFY_NO_SYMMETRY");
	unlink(tmp);
	/* (no tracer is called before the ops is unregistered: vacuous) */
	ck_assert_msg(rc == 0 || (rc == 2 && strstr(out, ": vacuous")), "%s: exit %d: %s",
		      world, rc, out);
	ck_assert_msg(!strstr(out, "diverged"), "%s: %s: %s", world, sched, out);
	ck_assert_msg(strstr(out, nosym ? "state symmetry: none (--no-symmetry)\n"
					: "state symmetry: cpu0..cpu2\n"), "%s", out);
	for (line = out; (line = strstr(line, "\nstate ")); line++) {
		unsigned long k;
		char one[128], agent[16], hash[40], tie[8] = "";
		size_t len = strcspn(line + 1, "\n");

		/* (one line: a missing " tie" must not read the next one) */
		snprintf(one, sizeof(one), "%.*s", (int)(len < 127 ? len : 127), line + 1);
		if (sscanf(one, "state %lu %15s %39s %7s", &k, agent, hash, tie) < 3)
			continue;
		ck_assert_msg(k == n && n < MAX_POINTS, "%s: %s", world, out);
		/* every state of these runs is hashable: no violation */
		ck_assert_msg(strcmp(hash, "-"), "%s: point %lu not hashed: %s", world, k, out);
		ck_assert_msg(!*tie || (!strcmp(tie, "tie") && !nosym), "%s", out);
		snprintf(h[n++], 48, "%s%s", hash, *tie ? " tie" : "");
	}
	ck_assert_msg(n > 20, "%s: %zu points: %s", world, n, out);
	free(out);
	free(all);
	free(text);
	return n;
}

/* The first point where a and b differ (n: none); ties: but where the
 * order had a tie in either (exec_sym.h: two CPUs of equal keys whose
 * parts differ elsewhere are ordered by their numbers, so renamed runs
 * may reach two representatives of one state there, a merge missed). */
static size_t first_diff(char a[][48], char b[][48], size_t n, int ties)
{
	size_t k = 0;

	while (k < n && (!strcmp(a[k], b[k]) ||
			 (ties && (strstr(a[k], " tie") || strstr(b[k], " tie")))))
		k++;
	return k;
}

/* The points where a had no tie. */
static size_t untied(char a[][48], size_t n)
{
	size_t u = 0;

	for (size_t k = 0; k < n; k++)
		u += !strstr(a[k], " tie");
	return u;
}

START_TEST(verify_symmetry_mapping)
{
	const struct mapping_case *mc = &mapping[_i];
	static char s[MAX_POINTS][48], t[MAX_POINTS][48], u[MAX_POINTS][48];
	char ren[1024];
	size_t n = state_hashes(mc->world, mc->s, 0, s), m, k;

	/* every step of S changes the state, so no two of its points hash
	 * alike: a hash that leaves out part of one CPU's state (its
	 * registers at some canonical position: invariant under renaming,
	 * but merging states that differ) hashes two alike on the callops S
	 * (its cpu0 fetches the patched call: the steps in ftrace_caller) */
	for (k = 0; k < n; k++)
		for (m = k + 1; m < n; m++)
			ck_assert_msg(strncmp(s[k], s[m], 32), "%s: points %zu and %zu of S hash "
				      "alike", mc->world, k, m);
	/* most points compared (the CPUs in distinct states) */
	ck_assert_msg(untied(s, n) * 2 >= n, "%s: %zu of %zu points tied", mc->world,
		      n - untied(s, n), n);
	/* every renaming of S: the same canonical hash at every point */
	for (unsigned p = 1; p < 6; p++) {
		rename_cpus(mc->s, perms[p], ren, sizeof(ren));
		m = state_hashes(mc->world, ren, 0, t);
		k = first_diff(s, t, n, 1);
		ck_assert_msg(m == n && k == n, "%s: S renamed cpu0,1,2 -> %u,%u,%u: %zu "
			      "points (S %zu), hashes differ at point %zu", mc->world,
			      perms[p][0], perms[p][1], perms[p][2], m, n, k);
	}
	/* no renaming of S: a state S does not reach */
	m = state_hashes(mc->world, mc->other, 0, t);
	ck_assert_msg(first_diff(s, t, m < n ? m : n, 0) < (m < n ? m : n),
		      "%s: a schedule that is no renaming of S hashed as S", mc->world);
	/* without symmetry, S and its renamings differ (the states differ
	 * by a permutation that moves something) */
	m = state_hashes(mc->world, mc->s, 1, t);
	ck_assert_msg(m == n, "%s", mc->world);
	for (unsigned p = 1; p < 6; p++) {
		rename_cpus(mc->s, perms[p], ren, sizeof(ren));
		ck_assert(state_hashes(mc->world, ren, 1, u) == n);
		ck_assert_msg(first_diff(t, u, n, 0) < n, "%s: without symmetry, S renamed "
			      "cpu0,1,2 -> %u,%u,%u hashed as S", mc->world, perms[p][0],
			      perms[p][1], perms[p][2]);
	}
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
	/* (a case of its own: CK_RUN_CASE=mapping runs it alone) */
	tc = tcase_create("mapping");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, verify_symmetry_mapping, 0,
			    (int)(sizeof(mapping) / sizeof(mapping[0])));
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_symmetry, verify_symmetry_suite)
