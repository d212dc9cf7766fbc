/* The ftrace line language drives the same core as the C API. */
#include "tests/test_ftrace_core_fake.h"
#include "tests/suite.h"
#include "patcher/ftrace_script.h"
#include "patcher/ftrace_verbs.h"
#include "util/rng.h"

#include <string.h>

static struct fake_world w;
static struct ftrace_script *sc;
static struct ftv_err err;

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	fw_init(&w, FW_CALL_OPS, 0);
	sim_sym_add(w.as, "tracer1", FK_TRACER1, 0x100, SIM_SYM_FUNC, NULL);
	sim_sym_add(w.as, "my_tramp", FK_TRAMP, 0x80, SIM_SYM_FUNC, NULL);
	sim_sym_add(w.as, "direct_a", FK_DIRECT_A, 0x80, SIM_SYM_FUNC, NULL);
	sim_sym_add(w.as, "direct_b", FK_DIRECT_B, 0x80, SIM_SYM_FUNC, NULL);
	sc = ftrace_script_new(w.core, w.as);
	ck_assert_ptr_nonnull(sc);
}

static void teardown(void)
{
	ftrace_script_free(sc);
	fw_fini(&w);
}

START_TEST(script_lines_make_the_same_calls_as_the_api)
{
	const char *text =
		"# two tracers over f1\n"
		"ops t1 func=tracer1 flags=regs\n"
		"ops t2 func=0xffff800081002000 tramp=my_tramp tramp_size=0x80 alloc_tramp\n"
		"filter t1 f0,f1\n"
		"filter t2 f1\n"
		"notrace t1 f0\n"
		"register t1   # f1 only\n"
		"\n"
		"register t2\n";
	struct ftrace_ops *t1, *t2;

	ck_assert_msg(ftrace_script_run(sc, text, &w.plan, &err) == 0, "%s",
		      err.msg);
	t1 = ftrace_script_ops(sc, "t1");
	t2 = ftrace_script_ops(sc, "t2");
	ck_assert_ptr_nonnull(t1);
	ck_assert(ftrace_ops_flags(t1) & FTRACE_OPS_FL_SAVE_REGS);
	ck_assert(ftrace_ops_registered(t2));
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 0))->refs, 0);
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 1))->refs, 2);
	/* t1 alone on f1 first: regs caller, then shared with t2. */
	ck_assert_int_ge(fw_find(&w, 0, FV_CALL, w.ip[1]), 0);
	ck_assert_uint_eq(w.fa.log[fw_find(&w, 0, FV_CALL, w.ip[1])].new_target,
			  FK_REGS_CALLER);
	ck_assert_int_lt(fw_find(&w, 0, FV_CALL, w.ip[0]), 0);
	/* Unregistering t1 leaves t2 alone: its trampoline. */
	ck_assert_int_eq(ftrace_script_exec(sc, "unregister t1", 10, &w.plan,
					    &err), 0);
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, fw_rec(&w, 1)), FK_TRAMP);
}
END_TEST

START_TEST(script_direct_calls_by_symbol)
{
	ck_assert_msg(ftrace_script_run(sc,
					"ops d\n"
					"filter d f5\n"
					"direct d direct_a\n"
					"modify-direct d direct_b\n",
					&w.plan, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, fw_rec(&w, 5)),
			  FK_DIRECT_B);
	ck_assert_int_eq(ftrace_script_exec(sc, "undirect d", 5, &w.plan, &err), 0);
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 5))->refs, 0);
}
END_TEST

/* The scenario files' spelling of the verbs is the scripts' too: one
 * table (patcher/ftrace_verbs.h) serves both, the older names as aliases. */
START_TEST(script_and_scenario_share_one_verb_table)
{
	ck_assert_msg(ftrace_script_run(sc,
					"ops d\n"
					"filter d f5\n"
					"direct d direct_a\n"
					"direct-modify d direct_b\n",
					&w.plan, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(ftrace_get_addr_curr(w.core, fw_rec(&w, 5)), FK_DIRECT_B);
	ck_assert_int_eq(ftrace_script_exec(sc, "direct-remove d", 5, &w.plan, &err), 0);
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 5))->refs, 0);
	ck_assert_ptr_eq(ftrace_verb_find("modify-direct"), ftrace_verb_find("direct-modify"));
	ck_assert_ptr_eq(ftrace_verb_find("undirect"), ftrace_verb_find("direct-remove"));
	ck_assert_ptr_eq(ftrace_verb_find("module-enable"), ftrace_verb_find("enable-modules"));
	ck_assert_ptr_null(ftrace_verb_find("frobnicate"));
	/* a core model has no CPUs to run */
	ck_assert_int_eq(ftrace_script_exec(sc, "run 100", 6, &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 6: 'run' is no operation of a core script");
	ck_assert_int_eq(ftrace_script_exec(sc, "register", 7, &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 7: usage: register NAME");
}
END_TEST

START_TEST(script_errors_name_the_line)
{
	ck_assert_int_eq(ftrace_script_run(sc, "ops a\nregister b\n", &w.plan,
					   &err), -1);
	ck_assert_str_eq(err.msg, "line 2: unknown ops 'b'");
	ck_assert_int_eq(ftrace_script_exec(sc, "ops a", 3, &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 3: ops 'a' already exists");
	ck_assert_int_eq(ftrace_script_exec(sc, "ops c func=nosuch", 4,
					    &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 4: unknown symbol 'nosuch'");
	ck_assert_int_eq(ftrace_script_exec(sc, "ops c flags=regs,fast", 5,
					    &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 5: unknown ops flag 'fast'");
	ck_assert_int_eq(ftrace_script_exec(sc, "filter a f1 sometimes", 6,
					    &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 6: usage: filter NAME SPEC [add]");
	ck_assert_int_eq(ftrace_script_exec(sc, "frobnicate a", 7, &w.plan,
					    &err), -1);
	ck_assert_str_eq(err.msg, "line 7: unknown command 'frobnicate'");
	ck_assert_int_eq(ftrace_script_exec(sc, "filter a nosuch", 8, &w.plan,
					    &err), -1);
	ck_assert_str_eq(err.msg, "line 8: ftrace: no traceable function matches 'nosuch'");
	ck_assert_int_eq(ftrace_script_exec(sc, "ops z a b c d e f g h i j k", 9,
					    &w.plan, &err), -1);
	ck_assert_str_eq(err.msg, "line 9: more than 12 words");
	/* Nothing was patched by any of it. */
	ck_assert_int_eq(w.fa.n, 0);
}
END_TEST

START_TEST(script_filter_add_and_clear)
{
	ck_assert_int_eq(ftrace_script_run(sc,
					   "ops a\nfilter a f2\nregister a\n"
					   "filter a f3 add\n",
					   &w.plan, &err), 0);
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 2))->refs, 1);
	ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, 3))->refs, 1);
	ck_assert_int_eq(ftrace_script_exec(sc, "filter a -", 5, &w.plan, &err), 0);
	for (int f = 0; f < FAKE_NFUNC; f++)
		ck_assert_uint_eq(ftrace_core_rec(w.core, fw_rec(&w, f))->refs, 1);
}
END_TEST

START_TEST(random_lines_never_crash_and_errors_name_their_line)
{
	static const char *const words[] = {
		"ops", "filter", "notrace", "register", "unregister", "direct",
		"modify-direct", "undirect", "graph", "ungraph",
		"module-enable", "a", "b", "f0", "f1,f2", "-", "add",
		"func=tracer1", "flags=regs", "flags=", "tramp=my_tramp",
		"alloc_tramp", "static", "tramp_size=zz", "direct_a", "0x10",
		"#", "=", "", "private=7", "f9",
	};
	const int nw = (int)(sizeof(words) / sizeof(words[0]));
	struct ftv_rng r;

	ftv_rng_seed(&r, 7);
	for (int i = 1; i <= 3000; i++) {
		char line[256] = "", want[16];
		int n = (int)ftv_rng_below(&r, 6);

		for (int j = 0; j < n; j++) {
			strcat(line, words[ftv_rng_below(&r, nw)]);
			strcat(line, ftv_rng_chance(&r, 1, 8) ? "\t" : " ");
		}
		memset(&err, 0, sizeof(err));
		if (ftrace_script_exec(sc, line, i, &w.plan, &err)) {
			snprintf(want, sizeof(want), "line %d: ", i);
			ck_assert_msg(!strncmp(err.msg, want, strlen(want)),
				      "'%s' -> '%s'", line, err.msg);
		}
		/* A bug (none is expected from a fake arch) would stop it. */
		ck_assert_ptr_null(ftrace_core_bug(w.core));
	}
}
END_TEST

static Suite *ftrace_core_script_suite(void)
{
	Suite *s = suite_create("ftrace_core_script");
	TCase *tc = tcase_create("script");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, script_lines_make_the_same_calls_as_the_api);
	tcase_add_test(tc, script_direct_calls_by_symbol);
	tcase_add_test(tc, script_and_scenario_share_one_verb_table);
	tcase_add_test(tc, script_errors_name_the_line);
	tcase_add_test(tc, script_filter_add_and_clear);
	tcase_add_test(tc, random_lines_never_crash_and_errors_name_their_line);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(ftrace_core_script, ftrace_core_script_suite)
