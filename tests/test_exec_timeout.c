/* The wall-clock limit of a free-running turn (exec_config.turn_timeout_us,
 * executor/exec_watchdog.c): a CPU looping for ever without a scheduling
 * point is stopped and reported, the other CPUs run to their exits, and the
 * executor goes on to further runs. The outcome does not depend on timing:
 * the loop never ends by itself, and the other CPU's turns are short. */
#include "tests/suite.h"
#include "executor/exec.h"

#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define W_B_SELF 0x14000000u /* b . */
#define W_NOP 0xd503201fu

START_TEST(a_turn_looping_past_its_time_limit_is_stuck_and_stopped)
{
	struct sim_aspace *as = sim_aspace_new();
	struct exec_config cfg = { .ncpus = 2, .policy = EXEC_QUANTUM,
				   .seed = 1, .turn_timeout_us = 20000 };
	struct ftv_err err;
	struct ftv_exec *ex;
	const struct exec_violation *v;
	size_t n;

	ck_assert_ptr_nonnull(sim_map(as, "text", T, 0x4000, SIM_R | SIM_X,
				      SIM_REGION_TEXT, NULL));
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	sim_write32(as, T, W_B_SELF);
	for (unsigned i = 0; i < 4; i++)
		sim_write32(as, T + 0x100 + 4 * i, W_NOP);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000,
					NULL, 0, T + 4, &err), 0);
	ck_assert_int_eq(exec_cpu_setup(ex, 1, T + 0x100,
					SIM_STACK_BASE + 0x2000, NULL, 0,
					T + 0x110, &err), 0);
	ck_assert_int_eq(exec_run(ex, 100, &err), 0);

	v = exec_violations(ex, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(v[0].kind, EXEC_V_STUCK);
	ck_assert_int_eq(v[0].cpu, 0);
	ck_assert_ptr_nonnull(strstr(v[0].msg, "ran 20 ms without reaching"));
	ck_assert_int_eq(exec_cpu_done(ex, 0), 0);
	ck_assert_int_eq(exec_cpu_done(ex, 1), 1);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

static Suite *exec_timeout_suite(void)
{
	Suite *s = suite_create("exec_timeout");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_turn_looping_past_its_time_limit_is_stuck_and_stopped);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_timeout, exec_timeout_suite)
