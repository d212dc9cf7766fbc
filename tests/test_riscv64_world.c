/* RISC-V worlds: a scheme belongs to one architecture, and
 * naming another one's scheme or mutant is one line and exit 2, from the
 * command line and from a scenario file; the pair scheme's hazard is
 * reported as a kernel developer reads it, and ftv fuzz finds it within a
 * fixed number of iterations of a fixed seed, shrinks it and replays it,
 * while the atomic scheme gives nothing. (The conformance verdicts of
 * corpus/scenarios/riscv-*.scn are pinned by the conform suite.) */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/mutant.h"
#include "verify/world.h"

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static unsigned lines(const char *s)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

#define usage_fails(out, rc, what)                                              \
	do {                                                                    \
		ck_assert_msg((rc) == 2, "exit %d: %s", (rc), out);             \
		ck_assert_msg(lines(out) == 1, "not one line: %s", out);        \
		ck_assert_msg(strstr(out, what), "no '%s' in: %s", what, out);  \
		free(out);                                                      \
	} while (0)

START_TEST(schemes_belong_to_one_arch)
{
	enum ftv_scheme s;

	ck_assert_int_eq(ftv_scheme_parse("pair", &s), 0);
	ck_assert_int_eq(ftv_scheme_arch(s), FTV_ARCH_RISCV64);
	ck_assert_int_eq(ftv_scheme_parse("atomic", &s), 0);
	ck_assert_int_eq(ftv_scheme_arch(s), FTV_ARCH_RISCV64);
	ck_assert_str_eq(ftv_scheme_corpus_set(s), "rv64");
	ck_assert_int_eq(ftv_scheme_parse("callops", &s), 0);
	ck_assert_int_eq(ftv_scheme_arch(s), FTV_ARCH_ARM64);
	ck_assert_int_eq(ftv_arch_default_scheme(FTV_ARCH_RISCV64), FTV_SCHEME_ATOMIC);
	ck_assert_int_eq(ftv_arch_default_scheme(FTV_ARCH_ARM64), FTV_SCHEME_CALLOPS);
	ck_assert_int_eq(ftv_scheme_check_arch(FTV_SCHEME_PAIR, FTV_ARCH_ARM64, NULL), -1);
	ck_assert_int_eq(ftv_scheme_check_arch(FTV_SCHEME_TRAMP, FTV_ARCH_RISCV64, NULL), -1);
	ck_assert_int_eq(ftv_scheme_check_arch(FTV_SCHEME_MCOUNT, FTV_ARCH_ARM64, NULL), 0);
	/* core mutants run on both; a backend's only on its own arch */
	ck_assert_int_eq(ftv_mutant_check(ftv_mutant_find("free-without-quiescence"),
					  FTV_SCHEME_PAIR, NULL), 0);
	ck_assert_int_eq(ftv_mutant_check(ftv_mutant_find("live-mov-patch"),
					  FTV_SCHEME_ATOMIC, NULL), -1);
}
END_TEST

START_TEST(fuzz_arch_and_scheme_of_another_arch_is_a_usage_error)
{
	char *out;

	usage_fails(out, FTV_RUN(&out, "fuzz", "--arch", "arm64", "--scheme", "pair"),
		    "ftv fuzz: scheme pair is riscv64's, not arm64's");
	usage_fails(out, FTV_RUN(&out, "fuzz", "--scheme", "atomic", "--arch", "arm64"),
		    "scheme atomic is riscv64's");
	usage_fails(out, FTV_RUN(&out, "fuzz", "--arch", "riscv64", "--scheme", "callops"),
		    "scheme callops is arm64's, not riscv64's");
	usage_fails(out, FTV_RUN(&out, "fuzz", "--arch", "sparc"),
		    "ftv fuzz: --arch: 'sparc' is not one of arm64, riscv64");
	usage_fails(out, FTV_RUN(&out, "fuzz", "--scheme", "pair", "--mutate",
				 "bl-before-literal"),
		    "mutant bl-before-literal is a bug of the arm64 backend");
}
END_TEST

START_TEST(scenario_arch_line_must_agree_with_the_scheme)
{
	char path[4200], *out;
	FILE *f;

	snprintf(path, sizeof(path), "%s/rv-arch-mismatch.scn", ftv_test_env("FTV_BUILD"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name x\narch arm64\nobjects rand1\nscheme atomic\nexpect ok\n");
	fclose(f);
	usage_fails(out, FTV_RUN(&out, "scenario", path),
		    "rv-arch-mismatch.scn:4: scheme atomic is riscv64's, not arm64's");
	usage_fails(out, FTV_RUN(&out, "conform", path),
		    "rv-arch-mismatch.scn:4: scheme atomic is riscv64's");
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name x\nscheme pair\nobjects rand1\nmutate skip-literal-on-modify\n"
		   "expect ok\n");
	fclose(f);
	usage_fails(out, FTV_RUN(&out, "scenario", path),
		    "rv-arch-mismatch.scn:4: mutant skip-literal-on-modify is a bug of the "
		    "arm64 backend; scheme pair is riscv64's");
	usage_fails(out, FTV_RUN(&out, "scenario", "--arch", "riscv64", "/dev/null"),
		    "no name");
	usage_fails(out, FTV_RUN(&out, "scenario", "--arch", "mips", "/dev/null"),
		    "ftv scenario: --arch: 'mips' is not one of arm64, riscv64");
}
END_TEST

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 65536);
	size_t n;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	n = fread(buf, 1, 65535, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The report names the site as func+off/size, both words executed with
 * their disassembly and where each came from, and where the call lands. */
START_TEST(pair_hazard_report_names_site_words_and_writes)
{
	char path[4096], *out;
	int rc;

	ftv_test_path(path, sizeof(path), "FTV_TOP", "corpus/scenarios/riscv-pair-hazard.scn");
	rc = FTV_RUN(&out, "scenario", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	const char *v = strstr(out, "VIOLATION pair-hazard cpu");

	ck_assert_msg(v, "%s", out);
	ck_assert_msg(strstr(v, "executed the call pair at r"), "%s", v);
	ck_assert_msg(strstr(v, "+0x4/0x"), "site not symbolized: %s", v);
	ck_assert_msg(strstr(v, "0x00000013 (nop) from boot (ftrace_init_nop)"), "%s", v);
	ck_assert_msg(strstr(v, "(jalr t0, "), "%s", v);
	ck_assert_msg(strstr(v, "from \"make_call: nop -> jalr\" of register (plan 0 step "),
		      "%s", v);
	ck_assert_msg(strstr(v, "whose own AUIPC is 0x"), "%s", v);
	ck_assert_msg(strstr(v, "(ftrace_caller+0x0/0x"), "%s", v);
	/* the executor's raw pair line is not repeated */
	ck_assert_msg(!strstr(out, "VIOLATION pair cpu"), "%s", out);
	ck_assert_msg(strstr(out, "riscv-pair-hazard: VIOLATION ("), "%s", out);
	free(out);
}
END_TEST

/* In iterations instead of time: the pair scheme's
 * hazard is found by seed 1's first iterations, shrunk to a smaller replay
 * file that reproduces it; the atomic scheme reports nothing on the same
 * seed. */
START_TEST(fuzz_finds_and_shrinks_the_pair_hazard_atomic_finds_nothing)
{
	char path[4200], *out, *rep, *again;
	int rc;
	unsigned ops = 0, rounds_before = 0, rounds_after = 0, ops_before = 0, ops_after = 0;

	snprintf(path, sizeof(path), "%s/rv-pair-replay.scn", ftv_test_env("FTV_BUILD"));
	remove(path);
	rc = FTV_RUN(&out, "fuzz", "--arch", "riscv64", "--scheme", "pair", "--seed", "1",
		     "--iterations", "3", "--cpus", "2", "--shrink-budget", "4", "--out", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "scheme pair (riscv64)"), "%s", out);
	const char *f = strstr(out, "found pair-hazard; shrunk from ");

	ck_assert_msg(f, "%s", out);
	ck_assert_int_eq(sscanf(f, "found pair-hazard; shrunk from %u to %u operations, "
				"%*u to %*u CPUs, %u to %u rounds", &ops_before, &ops_after,
				&rounds_before, &rounds_after), 4);
	ck_assert_msg(ops_after < ops_before || rounds_after < rounds_before, "%s", f);
	ck_assert_msg(strstr(out, "VIOLATION pair-hazard cpu"), "%s", out);
	free(out);

	rep = slurp(path);
	ck_assert_msg(strstr(rep, "scheme   pair\n"), "%s", rep);
	ck_assert_msg(strstr(rep, "expect   violation pair-hazard\n"), "%s", rep);
	/* every line but comments, settings and runs is an operation */
	for (const char *p = rep; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		static const char *const verbs[] = { "ops ", "filter ", "notrace ", "register ",
						     "unregister ", "direct" };

		for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
			ops += !strncmp(p, verbs[i], strlen(verbs[i]));
	}
	ck_assert_msg(ops >= 1 && ops <= ops_after, "%u updates in:\n%s", ops, rep);
	free(rep);

	/* the replay reproduces the finding, and --trace-text shows the fetches
	 * and the writes that made it */
	rc = FTV_RUN(&out, "fuzz", "--replay", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	const char *v = strstr(out, "VIOLATION pair-hazard cpu");

	ck_assert_msg(v, "%s", out);
	rc = FTV_RUN(&again, "fuzz", "--replay", path, "--trace-text");
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(again, "cpu0     fetch  r") || strstr(again, "cpu1     fetch  r"),
		      "%s", again);
	ck_assert_msg(strstr(again, "\"make_call: nop -> jalr\")"), "%s", again);
	/* the same violation, word for word */
	ck_assert_msg(!strncmp(strstr(again, "VIOLATION pair-hazard cpu"), v, strcspn(v, "\n")),
		      "%s\n---\n%s", out, again);
	free(out);
	free(again);

	rc = FTV_RUN(&out, "fuzz", "--arch", "riscv64", "--scheme", "atomic", "--seed", "1",
		     "--iterations", "1", "--cpus", "2");
	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, " 0 violating iterations\n"), "%s", out);
	ck_assert_int_eq(count(out, "VIOLATION"), 0);
	free(out);
}
END_TEST

static Suite *riscv64_world_suite(void)
{
	Suite *s = suite_create("riscv64_world");
	TCase *tc = tcase_create("usage");

	tcase_add_test(tc, schemes_belong_to_one_arch);
	tcase_add_test(tc, fuzz_arch_and_scheme_of_another_arch_is_a_usage_error);
	tcase_add_test(tc, scenario_arch_line_must_agree_with_the_scheme);
	suite_add_tcase(s, tc);
	tc = tcase_create("worlds");
	/* a guard against hangs only (ASan builds are slow) */
	tcase_set_timeout(tc, 900);
	tcase_add_test(tc, pair_hazard_report_names_site_words_and_writes);
	tcase_add_test(tc, fuzz_finds_and_shrinks_the_pair_hazard_atomic_finds_nothing);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(riscv64_world, riscv64_world_suite)
