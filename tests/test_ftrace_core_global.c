/* The ftrace core model in the 2014 arm64 scheme (-pg, _mcount): no per-site
 * ops; the tracer function is patched into ftrace_call inside
 * ftrace_caller, ftrace_graph_call is toggled, all under stop_machine. */
#include "tests/test_ftrace_core_fake.h"
#include "tests/suite.h"
#include "patcher/ftrace_abi.h"

#include <string.h>

static struct fake_world w;
static struct ftv_err err;

static void setup(void)
{
	memset(&err, 0, sizeof(err));
	fw_init(&w, FW_GLOBAL, 0);
}

static void teardown(void)
{
	fw_fini(&w);
}

#define OK(x) ck_assert_msg((x) == 0, "%s: %s", #x, err.msg)

/* Targets of the FV_FUNC calls in log order. */
static int funcs(uint64_t *out, int max)
{
	int n = 0;

	for (int i = 0; i < w.fa.n && n < max; i++)
		if (w.fa.log[i].verb == FV_FUNC)
			out[n++] = w.fa.log[i].new_target;
	return n;
}

START_TEST(one_ops_is_called_directly_several_through_the_list)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);
	uint64_t f[4];
	int call0;

	OK(ftrace_set_filter(w.core, a, "f0", 1, &w.plan, &err));
	OK(ftrace_set_filter(w.core, b, "f1", 1, &w.plan, &err));
	ck_assert_uint_eq(ftrace_core_trace_func(w.core), FK_STUB);
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	/* stub -> list func before the sites change, then a's func. */
	ck_assert_int_eq(funcs(f, 4), 2);
	ck_assert_uint_eq(f[0], FK_LIST_FUNC);
	ck_assert_uint_eq(f[1], FK_TRACER1);
	call0 = fw_find(&w, 0, FV_CALL, w.ip[0]);
	ck_assert_int_gt(call0, 0);
	ck_assert_int_eq(w.fa.log[0].verb, FV_FUNC);
	ck_assert_int_eq(w.fa.log[w.fa.n - 1].verb, FV_FUNC);
	/* No per-site literal in this scheme. */
	ck_assert_uint_eq(w.fa.log[call0].lit, 0);
	ck_assert_uint_eq(w.fa.log[call0].new_target, FK_CALLER);
	ck_assert_uint_eq(ftrace_core_trace_func(w.core), FK_TRACER1);
	w.fa.n = 0;
	OK(ftrace_register_ops(w.core, b, &w.plan, &err));
	ck_assert_int_eq(funcs(f, 4), 1);
	ck_assert_uint_eq(f[0], FK_LIST_FUNC);
	ck_assert_int_eq(w.fa.log[0].verb, FV_FUNC);
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, a, &w.plan, &err));
	/* Already on the list func: only the final switch to b's func,
	 * after the sites. */
	ck_assert_int_eq(funcs(f, 4), 1);
	ck_assert_uint_eq(f[0], FK_TRACER2);
	ck_assert_int_eq(w.fa.log[w.fa.n - 1].verb, FV_FUNC);
	ck_assert_int_ge(fw_find(&w, 0, FV_NOP, w.ip[0]), 0);
	w.fa.n = 0;
	OK(ftrace_unregister_ops(w.core, b, &w.plan, &err));
	ck_assert_int_eq(funcs(f, 4), 2);
	ck_assert_uint_eq(f[0], FK_LIST_FUNC);
	ck_assert_uint_eq(f[1], FK_STUB);
}
END_TEST

START_TEST(function_trace_op_is_set_before_the_direct_func)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	long op = -1, fn = -1;

	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	for (size_t i = 0; i < w.plan.n; i++) {
		const struct plan_step *s = &w.plan.steps[i];

		if (s->op == PLAN_WRITE_DATA64 &&
		    s->addr == ftrace_core_function_trace_op(w.core))
			op = (long)i;
		if (s->op == PLAN_WRITE_INSN && s->addr == FK_CALLER + 0x40)
			fn = (long)i;
	}
	ck_assert_int_ge(op, 0);
	ck_assert_uint_eq(w.plan.steps[op].new, ftrace_ops_addr(a));
	ck_assert_int_gt(fn, op);
	ck_assert_int_eq(w.plan.steps[op + 1].op, PLAN_DMB);
}
END_TEST

/* Where the step writing function_trace_op and the one pointing
 * ftrace_call at FK_TRACER1 are in the plan. */
static void op_and_func(long *op, long *fn)
{
	*op = *fn = -1;
	for (size_t i = 0; i < w.plan.n; i++) {
		const struct plan_step *s = &w.plan.steps[i];

		if (s->op == PLAN_WRITE_DATA64 && s->addr == ftrace_core_function_trace_op(w.core))
			*op = (long)i;
		if (s->op == PLAN_WRITE_INSN && s->addr == FK_CALLER + 0x40 && *op >= 0)
			*fn = (long)i;
	}
}

/* Patched live (the -pg scheme since FTRACE_MAY_SLEEP): ftrace_sync_ipi
 * between function_trace_op and the func that expects it, which a task
 * preempted between its two loads does not notice. The candidate fix
 * (FTRACE_ARCH_TRACE_OP_TASKS_RCU) waits for every task instead, and
 * context-synchronises every CPU once ftrace_call is the list func. */
START_TEST(live_update_orders_function_trace_op_before_the_func)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	long op, fn, list_fn;

	w.arch.flags = 0;
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	op_and_func(&op, &fn);
	ck_assert_int_ge(op, 0);
	ck_assert_int_gt(fn, op);
	ck_assert_int_eq(w.plan.steps[op + 1].op, PLAN_DMB);
	ck_assert_int_eq(w.plan.steps[op + 2].op, PLAN_SYNC_ALL);
	ck_assert_int_lt(fw_step(&w, 0, PLAN_QUIESCE), 0);
	ck_assert_int_eq(fw_step(&w, 0, PLAN_SYNC_ALL), op + 2);

	fw_fini(&w);
	fw_init(&w, FW_GLOBAL, 0);
	w.arch.flags = FTRACE_ARCH_TRACE_OP_TASKS_RCU;
	a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	op_and_func(&op, &fn);
	ck_assert_int_eq(w.plan.steps[op + 2].op, PLAN_QUIESCE);
	ck_assert_int_gt(fn, op + 2);
	/* the list func first, then every CPU synchronised, before any site */
	list_fn = fw_step(&w, 0, PLAN_WRITE_INSN);
	ck_assert_uint_eq(w.plan.steps[list_fn].addr, FK_CALLER + 0x40);
	ck_assert_int_gt(fw_step(&w, 0, PLAN_SYNC_ALL), list_fn);
	ck_assert_int_lt(fw_step(&w, 0, PLAN_SYNC_ALL), op);
}
END_TEST

START_TEST(update_runs_under_stop_machine)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);

	long stop;

	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	/* The ops is linked before (__register_ftrace_function runs
	 * outside stop_machine); every code write is inside. */
	stop = fw_step(&w, 0, PLAN_STOP_MACHINE);
	ck_assert_int_ge(stop, 0);
	ck_assert_int_eq(w.plan.steps[w.plan.n - 1].op, PLAN_RESUME_MACHINE);
	for (long i = 0; i < stop; i++)
		ck_assert_int_ne(w.plan.steps[i].op, PLAN_WRITE_INSN);
	/* Nobody else runs: no IPI is needed for function_trace_op. */
	ck_assert_int_lt(fw_step(&w, 0, PLAN_SYNC_ALL), 0);
}
END_TEST

START_TEST(graph_caller_toggles_after_the_calls)
{
	struct ftrace_ops *g = fw_ops(&w, "graph", 0, 0, 0);
	struct ftrace_ops *g2 = fw_ops(&w, "graph2", 0, 0, 0);
	int gi;

	OK(ftrace_register_graph(w.core, g, &w.plan, &err));
	gi = -1;
	for (int i = 0; i < w.fa.n; i++)
		if (w.fa.log[i].verb == FV_GRAPH)
			gi = i;
	ck_assert_int_ge(gi, 0);
	ck_assert_int_eq(w.fa.log[gi].enable, 1);
	/* Every site was made to call ftrace_caller before. */
	for (int f = 0; f < FAKE_NFUNC; f++)
		ck_assert_int_lt(fw_find(&w, 0, FV_CALL, w.ip[f]), gi);
	ck_assert(ftrace_core_graph_enabled(w.core));
	ck_assert(ftrace_ops_flags(g) & FTRACE_OPS_FL_STUB);
	/* Its func is not called: ftrace_call stays on the stub. */
	ck_assert_uint_eq(ftrace_core_trace_func(w.core), FK_STUB);
	ck_assert_int_eq(ftrace_register_graph(w.core, g2, &w.plan, &err), -1);
	ck_assert_int_eq(ftrace_unregister_ops(w.core, g, &w.plan, &err), -1);
	w.fa.n = 0;
	OK(ftrace_unregister_graph(w.core, g, &w.plan, &err));
	ck_assert_int_eq(w.fa.log[w.fa.n - 1].verb, FV_GRAPH);
	ck_assert_int_eq(w.fa.log[w.fa.n - 1].enable, 0);
	ck_assert(!ftrace_core_graph_enabled(w.core));
	ck_assert_int_ge(fw_find(&w, 0, FV_NOP, w.ip[3]), 0);
}
END_TEST

/* The graph ops is the kernel's graph_ops (func ftrace_stub): whatever func
 * it was given, ftrace_call never calls it, and ftrace_graph_caller finds
 * it (ftrace_graph_entry) before ftrace_graph_call is patched in and no
 * more before it is patched out. */
START_TEST(graph_ops_is_entered_through_the_graph_caller_only)
{
	struct ftrace_ops *g = fw_ops(&w, "graph", FK_TRACER1, 0, 0);
	long set, toggle;
	uint64_t v;

	OK(ftrace_register_graph(w.core, g, &w.plan, &err));
	ck_assert_uint_eq(ftrace_core_trace_func(w.core), FK_STUB);
	for (int i = 0; i < w.fa.n; i++)
		if (w.fa.log[i].verb == FV_FUNC)
			ck_assert_uint_eq(w.fa.log[i].new_target, FK_STUB);
	fw_apply_data(&w, 0);
	sim_read64(w.as, ftrace_ops_addr(g) + FTV_OPS_FUNC, &v);
	ck_assert_uint_eq(v, FK_STUB);
	sim_read64(w.as, w.graph_ops_var, &v);
	ck_assert_uint_eq(v, ftrace_ops_addr(g));
	set = -1;
	for (size_t i = 0; i < w.plan.n; i++)
		if (w.plan.steps[i].op == PLAN_WRITE_DATA64 &&
		    w.plan.steps[i].addr == w.graph_ops_var)
			set = (long)i;
	toggle = fw_step(&w, 0, PLAN_STOP_MACHINE);
	ck_assert_int_ge(set, 0);
	ck_assert_int_lt(set, toggle);

	plan_reset(&w.plan);
	OK(ftrace_unregister_graph(w.core, g, &w.plan, &err));
	fw_apply_data(&w, 0);
	sim_read64(w.as, w.graph_ops_var, &v);
	ck_assert_uint_eq(v, 0);
	set = -1;
	for (size_t i = 0; i < w.plan.n && set < 0; i++)
		if (w.plan.steps[i].op == PLAN_WRITE_DATA64 &&
		    w.plan.steps[i].addr == w.graph_ops_var)
			set = (long)i;
	ck_assert_int_ge(set, 0);
	ck_assert_int_lt(set, fw_step(&w, 0, PLAN_STOP_MACHINE));
}
END_TEST

START_TEST(graph_needs_an_arch_graph_call)
{
	struct fake_world c;
	struct ftrace_ops *g;

	fw_init(&c, FW_CALL_OPS, 0);
	g = fw_ops(&c, "graph", 0, 0, 0);
	ck_assert_int_eq(ftrace_register_graph(c.core, g, &c.plan, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "no ftrace_graph_call"));
	fw_fini(&c);
}
END_TEST

START_TEST(failed_ftrace_call_update_kills_ftrace_before_any_site)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_ops *b = fw_ops(&w, "b", FK_TRACER2, 0, 0);

	w.fa.fail_global = 1;
	w.fa.fail_verb = FV_FUNC;
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	ck_assert_ptr_nonnull(strstr(ftrace_core_bug(w.core),
				     "ftrace_update_ftrace_func failed"));
	/* FTRACE_WARN_ON in ftrace_modify_all_code: stop before the sites. */
	ck_assert_int_eq(w.fa.n, 0);
	/* The stop_machine section is still closed. */
	ck_assert_int_eq(w.plan.steps[w.plan.n - 1].op, PLAN_RESUME_MACHINE);
	ck_assert_uint_eq(ftrace_core_trace_func(w.core), FK_STUB);
	ck_assert_int_eq(ftrace_register_ops(w.core, b, &w.plan, &err), -1);
}
END_TEST

START_TEST(module_enable_patches_without_stop_machine)
{
	struct ftrace_ops *a = fw_ops(&w, "a", FK_TRACER1, 0, 0);
	struct ftrace_site s = { .ip = w.ip[7] + 0x1000,
				 .func = w.func[7] + 0x1000,
				 .name = "m0", .module = "mod",
				 .kind = FTV_SITE_MCOUNT };
	size_t mark;

	ck_assert_int_eq(ftrace_core_add_site(w.core, &s, &w.plan, &err),
			 FAKE_NFUNC);
	OK(ftrace_register_ops(w.core, a, &w.plan, &err));
	mark = w.plan.n;
	w.fa.n = 0;
	OK(ftrace_module_enable(w.core, "mod", &w.plan, &err));
	ck_assert_int_eq(w.fa.n, 1);
	ck_assert_int_eq(w.fa.log[0].verb, FV_CALL);
	ck_assert_int_lt(fw_step(&w, mark, PLAN_STOP_MACHINE), 0);
}
END_TEST

START_TEST(single_ops_needing_protection_goes_through_the_assist_func)
{
	struct ftrace_ops *r = fw_ops(&w, "rec", FK_TRACER1,
				      FTRACE_OPS_FL_RECURSION, 0);
	uint64_t f[4];

	OK(ftrace_register_ops(w.core, r, &w.plan, &err));
	ck_assert_int_eq(funcs(f, 4), 2);
	ck_assert_uint_eq(f[1], FK_ASSIST);
	/* function_trace_op names the ops the assist func calls. */
	fw_apply_data(&w, 0);
	{
		uint64_t v;

		sim_read64(w.as, ftrace_core_function_trace_op(w.core), &v);
		ck_assert_uint_eq(v, ftrace_ops_addr(r));
	}
}
END_TEST

static Suite *ftrace_core_global_suite(void)
{
	Suite *s = suite_create("ftrace_core_global");
	TCase *tc = tcase_create("mcount");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, one_ops_is_called_directly_several_through_the_list);
	tcase_add_test(tc, function_trace_op_is_set_before_the_direct_func);
	tcase_add_test(tc, update_runs_under_stop_machine);
	tcase_add_test(tc, live_update_orders_function_trace_op_before_the_func);
	tcase_add_test(tc, graph_caller_toggles_after_the_calls);
	tcase_add_test(tc, graph_ops_is_entered_through_the_graph_caller_only);
	tcase_add_test(tc, graph_needs_an_arch_graph_call);
	tcase_add_test(tc, single_ops_needing_protection_goes_through_the_assist_func);
	tcase_add_test(tc, module_enable_patches_without_stop_machine);
	tcase_add_test(tc, failed_ftrace_call_update_kills_ftrace_before_any_site);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(ftrace_core_global, ftrace_core_global_suite)
