/* RISC-V worlds (issue #8): a scheme belongs to one architecture, and
 * naming another one's scheme or mutant is one line and exit 2, from the
 * command line and from a scenario file. */
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
	usage_fails(out, FTV_RUN(&out, "fuzz", "--arch", "sparc"), "unknown arch 'sparc'");
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
		    "unknown arch 'mips'");
}
END_TEST

static Suite *rvworld_suite(void)
{
	Suite *s = suite_create("rvworld");
	TCase *tc = tcase_create("usage");

	tcase_add_test(tc, schemes_belong_to_one_arch);
	tcase_add_test(tc, fuzz_arch_and_scheme_of_another_arch_is_a_usage_error);
	tcase_add_test(tc, scenario_arch_line_must_agree_with_the_scheme);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(rvworld, rvworld_suite)
