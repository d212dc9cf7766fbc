/* `make install` into a temporary DESTDIR, then the installed ftv used as a
 * kernel developer would, from another directory and with no build tree in
 * its environment: conform, a short fuzz on both arches and on a Debian
 * module given by path (fuzz --object), a scenario and a
 * litmus test by name, FTV_DATADIR for a binary moved elsewhere, the man
 * pages (ftv(1), ftv-scenario(5)) through man(1) without a warning, the bash
 * completion; then `make
 * uninstall` leaves no file behind (issue #16). */
#include "tests/suite.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A shell command with the build tree's variables (and make's, from the
 * `make check` that runs us) out of its environment. */
static int sh(char **out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int sh(char **out, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	char *argv[] = { "/usr/bin/env", "-u", "FTV_BUILD", "-u", "FTV_TOP", "-u", "FTV_DATADIR",
			 "-u", "MAKEFLAGS", "-u", "MFLAGS", "-u", "MAKELEVEL", "/bin/sh", "-c",
			 cmd, NULL };

	return ftv_test_run(argv, out);
}

/* `man SECTION PAGE` of the install at d (MANPATH), which must render
 * without a warning (stderr alone first); its text. */
static char *man_page(const char *d, const char *section, const char *page)
{
	char *out;
	int rc = sh(&out, "MANPATH='%s/usr/share/man' MANWIDTH=80 MANPAGER=cat PAGER=cat "
		    "man --warnings %s %s 2>&1 >/dev/null", d, section, page);

	ck_assert_msg(rc == 0 && !out[0], "man %s %s: %d\n%s", section, page, rc, out);
	free(out);
	rc = sh(&out, "MANPATH='%s/usr/share/man' MANWIDTH=80 MANPAGER=cat PAGER=cat "
		"man %s %s 2>/dev/null", d, section, page);
	ck_assert_msg(rc == 0, "man %s %s: %d\n%s", section, page, rc, out);
	return out;
}

#define HAS(out, s) ck_assert_msg(strstr(out, s), "no '%s' in:\n%s", s, out)

START_TEST(installed_ftv_runs_from_anywhere)
{
	const char *top = ftv_test_env("FTV_TOP"), *build = ftv_test_env("FTV_BUILD");
	char d[4200], bin[4300], *out;
	int rc;

	snprintf(d, sizeof(d), "%s/install-test", build);
	snprintf(bin, sizeof(bin), "%s/usr/bin/ftv", d);
	ck_assert_int_eq(sh(&out, "rm -rf '%s' && mkdir -p '%s/elsewhere'", d, d), 0);
	free(out);
	rc = sh(&out, "make -s -C '%s' install DESTDIR='%s' PREFIX=/usr BUILD='%s'", top, d, build);
	ck_assert_msg(rc == 0, "make install: %d\n%s", rc, out);
	free(out);

	/* from another directory, nothing but the installed tree */
	rc = sh(&out, "cd '%s/elsewhere' && '%s' conform", d, bin);
	ck_assert_msg(rc == 0, "conform: %d\n%s", rc, out);
	HAS(out, "ok        callops-basic");
	HAS(out, "ok        riscv-atomic");
	/* no make kernel build beside an installed tree: the kernel
	 * scheme's scenarios are skipped, not failed */
	HAS(out, " passed, 0 failed, 16 skipped\n");
	HAS(out, "skip      kernel-make-call ");
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && '%s' fuzz --seed 1 --iterations 2 --jobs 2", d, bin);
	ck_assert_msg(rc == 0, "fuzz: %d\n%s", rc, out);
	HAS(out, "fuzz: seed 1: 2 iterations in");
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && '%s' fuzz --arch riscv64 --seed 1 --iterations 1", d,
		bin);
	ck_assert_msg(rc == 0, "fuzz riscv64: %d\n%s", rc, out);
	HAS(out, "scheme atomic (riscv64)");
	free(out);
	/* your own module: one of Debian's, by path */
	rc = sh(&out, "cd '%s/elsewhere' && '%s' fuzz --seed 1 --iterations 2 --object "
		"'%s'/build/kmods/usr/lib/modules/*/kernel/lib/math/cordic.ko.xz", d, bin, top);
	ck_assert_msg(rc == 0, "fuzz --object: %d\n%s", rc, out);
	HAS(out, "cordic.ko.xz (1 traced functions)");
	HAS(out, "fuzz: seed 1: 2 iterations in");
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && '%s' scenario callops-basic", d, bin);
	ck_assert_msg(rc == 0, "scenario: %d\n%s", rc, out);
	HAS(out, "callops-basic: no violation (0 violations)\n");
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && '%s' scenario --mutate bl-before-literal "
		"'%s/usr/share/ftv/scenarios/callops-basic.scn'", d, bin, d);
	ck_assert_msg(rc == 1, "scenario --mutate: %d\n%s", rc, out);
	HAS(out, "VIOLATION nop-ops");
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && '%s' litmus SM.B+isb coFF", d, bin);
	ck_assert_msg(rc == 0, "litmus: %d\n%s", rc, out);
	HAS(out, "SM.B+isb ");
	free(out);

	/* a binary away from its tree finds nothing, unless FTV_DATADIR says */
	ck_assert_int_eq(sh(&out, "cp '%s' '%s/elsewhere/ftv'", bin, d), 0);
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && ./ftv scenario tramp-ops", d);
	ck_assert_msg(rc == 2, "moved binary: %d\n%s", rc, out);
	free(out);
	rc = sh(&out, "cd '%s/elsewhere' && FTV_DATADIR='%s/usr/share/ftv' ./ftv scenario tramp-ops",
		d, d);
	ck_assert_msg(rc == 0, "FTV_DATADIR: %d\n%s", rc, out);
	HAS(out, "tramp-ops: no violation");
	free(out);

	/* the man page renders without a warning */
	out = man_page(d, "1", "ftv");
	HAS(out, "COMMANDS");
	HAS(out, "ftv fuzz [OPTION]...");
	HAS(out, "--shrink-budget N");
	HAS(out, "EXIT STATUS");
	HAS(out, "FTV_DATADIR");
	HAS(out, "EXAMPLES");
	free(out);

	/* ftv-scenario(5), generated from the keyword table: `man 5
	 * ftv-scenario` finds it where it was installed, without a warning */
	out = man_page(d, "5", "ftv-scenario");
	HAS(out, "FTV-SCENARIO(5)");
	HAS(out, "KEYWORDS");
	HAS(out, "late-modules NAME...");
	HAS(out, "OPERATIONS");
	HAS(out, "module-load MODULE");
	HAS(out, "EXAMPLE");
	free(out);

	/* the completion parses and completes */
	rc = sh(&out, "bash -c 'source \"$0\"; COMP_WORDS=(ftv sce); COMP_CWORD=1; _ftv; "
		"echo \"${COMPREPLY[*]}\"' '%s/usr/share/bash-completion/completions/ftv'", d);
	ck_assert_msg(rc == 0 && !strcmp(out, "scenario\n"), "completion: %d\n%s", rc, out);
	free(out);

	rc = sh(&out, "make -s -C '%s' uninstall DESTDIR='%s' PREFIX=/usr BUILD='%s' && "
		"find '%s/usr' -type f", top, d, build, d);
	ck_assert_msg(rc == 0 && !out[0], "uninstall left: %d\n%s", rc, out);
	free(out);
}
END_TEST

static Suite *install_suite(void)
{
	Suite *s = suite_create("install");
	TCase *tc = tcase_create("install");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, installed_ftv_runs_from_anywhere);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(install, install_suite)
