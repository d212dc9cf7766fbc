/* No verdict on nothing: a run that verified nothing (an ops that reached
 * no site, tracers never called, a replay of no site) says "vacuous" and
 * exits 2, unless the scenario says it means that (`vacuous`); a module
 * given by path is enabled as the kernel enables it at load, so the
 * own-module recipe verifies something and catches a mutant. */
#include "tests/suite.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)
#define BUILD (char *)ftv_test_env("FTV_BUILD")

/* Runs `ftv scenario` on text: its exit status, its output in *out. */
static int scenario(const char *text, char **out)
{
	char path[64];
	int rc;

	ftv_test_tmpfile(path, sizeof(path), text);
	rc = FTV_RUN(out, "scenario", "--build", BUILD, path);
	unlink(path);
	return rc;
}

#define NOT_ENABLED                                                            \
	"name notenabled\nscheme callops\nobjects rand1\nmodules rand3\nexpect ok\n" \
	"ops t1 tracer_a\nfilter t1 r3_f35\nregister t1\nrun 100\nunregister t1\n"

START_TEST(an_ops_on_sites_not_enabled_is_vacuous)
{
	char *out;
	int rc = scenario(NOT_ENABLED, &out);

	ck_assert_msg(rc == 2 && strstr(out, "notenabled: vacuous (0 violations)\n") &&
			      strstr(out, "notenabled: vacuous: t1 reached no site (its sites are "
					  "in modules whose sites are not enabled: add "
					  "enable-modules)\n"),
		      "exit %d: %s", rc, out);
	free(out);
}
END_TEST

START_TEST(a_scenario_that_says_vacuous_means_it)
{
	char *out;
	int rc = scenario(NOT_ENABLED "vacuous\n", &out);

	ck_assert_msg(rc == 0 && strstr(out, "notenabled: no violation (0 violations)\n") &&
			      !strstr(out, "vacuous:"),
		      "exit %d: %s", rc, out);
	free(out);
}
END_TEST

START_TEST(tracers_never_called_are_vacuous)
{
	char *out;
	/* the workload calls r1_f3 only, the tracer is on r1_f5 */
	int rc = scenario("name nocall\nscheme callops\nobjects rand1\nexpect ok\n"
			  "workload r1_f3\nops t1 tracer_a\nfilter t1 r1_f5\nregister t1\n"
			  "run 100\nunregister t1\n",
			  &out);

	ck_assert_msg(rc == 2 && strstr(out, "nocall: vacuous: no tracer was called in "),
		      "exit %d: %s", rc, out);
	free(out);
}
END_TEST

/* cordic.ko.xz of the unpacked Debian kernel (make corpus-kernel). */
static void cordic(char *buf, size_t n)
{
	char pat[4200];
	glob_t g;

	ftv_test_path(pat, sizeof(pat), "FTV_TOP",
		      "build/kmods/usr/lib/modules/*/kernel/lib/math/cordic.ko.xz");
	ck_assert_msg(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc >= 1,
		      "%s: not found (make corpus-kernel)", pat);
	snprintf(buf, n, "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
}

#define RECIPE "name mine\nscheme callops\nexpect ok\nops t1 tracer_a\nregister t1\n" \
	       "run 100\nunregister t1\n"

START_TEST(an_own_module_is_enabled_and_its_mutant_found)
{
	char mod[4200], path[64], *out;
	int rc;

	cordic(mod, sizeof(mod));
	ftv_test_tmpfile(path, sizeof(path), RECIPE);
	rc = FTV_RUN(&out, "scenario", "--build", BUILD, "--object", mod, path);
	ck_assert_msg(rc == 0 && strstr(out, " 2 transitions,") &&
			      strstr(out, "mine: no violation (0 violations)\n"),
		      "exit %d: %s", rc, out);
	free(out);
	rc = FTV_RUN(&out, "scenario", "--build", BUILD, "--object", mod, "--mutate",
		     "bl-before-literal", path);
	ck_assert_msg(rc == 1 && strstr(out, "mine: VIOLATION ("), "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

/* ftv verify takes --object as ftv scenario does: the module enabled, its
 * function called, the walk bounded by --time. */
START_TEST(verify_takes_an_own_module)
{
	char mod[4200], path[64], *out;
	int rc;

	cordic(mod, sizeof(mod));
	ftv_test_tmpfile(path, sizeof(path), "name minev\nscheme callops\ncpus 2\nrounds 2\n"
					     "expect ok\nops t1 tracer_a\nregister t1\n");
	rc = FTV_RUN(&out, "verify", "--build", BUILD, "--time", "1", "--object", mod, path);
	ck_assert_msg(rc == 3 && strstr(out, "note: the workload calls 1 function: cordic_calc_iq") &&
			      strstr(out, "(budget: stopped by --time 1 s)"),
		      "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

START_TEST(a_replay_of_no_site_is_vacuous)
{
	char mod[4200], layout[64], *out;
	int rc;

	cordic(mod, sizeof(mod));
	ftv_test_tmpfile(layout, sizeof(layout), "");
	rc = FTV_RUN(&out, "capture", "-o", layout, mod);
	ck_assert_msg(rc == 0, "capture: exit %d: %s", rc, out);
	free(out);
	/* the module cannot be placed: the layout has no kernel image */
	rc = FTV_RUN(&out, "replay", "--build", BUILD, layout);
	ck_assert_msg(rc == 2 && strstr(out, "ftv replay: vacuous: 0 of the layout's 1 sites "
					     "replayed (1 modules not placed"),
		      "exit %d: %s", rc, out);
	free(out);
	unlink(layout);
}
END_TEST

static Suite *vacuous_suite(void)
{
	Suite *s = suite_create("vacuous");
	TCase *tc = tcase_create("vacuous");

	tcase_add_test(tc, an_ops_on_sites_not_enabled_is_vacuous);
	tcase_add_test(tc, a_scenario_that_says_vacuous_means_it);
	tcase_add_test(tc, tracers_never_called_are_vacuous);
	tcase_add_test(tc, an_own_module_is_enabled_and_its_mutant_found);
	tcase_add_test(tc, a_replay_of_no_site_is_vacuous);
	tcase_add_test(tc, verify_takes_an_own_module);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(vacuous, vacuous_suite)
