/* The limits of a free-running turn: a CPU looping for ever without a
 * scheduling point is stopped by its instruction budget (exec_config.
 * turn_insns) and reported, at the same instruction whatever the clock
 * says, and the other CPUs run to their exits; the time guard
 * (exec_config.turn_timeout_us, executor/exec_watchdog.c) only ends a run
 * unjudged when the budget is not spent in time. */
#include "tests/suite.h"
#include "executor/exec.h"

#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define W_B_SELF 0x14000000u /* b . */
#define W_NOP 0xd503201fu
#define W_ADD_X1_1 0x91000421u /* add x1, x1, #1 */
#define W_B_BACK8 0x17fffffeu  /* b .-8 */

/* Two CPUs: cpu0 loops for ever on the n words of loop (at T, the last
 * a branch back to T), cpu1 runs four NOPs to its exit; a run of the
 * executor under cfg. */
static struct ftv_exec *looping_on(struct sim_aspace *as, struct exec_config *cfg,
				   const uint32_t *loop, unsigned n)
{
	struct ftv_err err;
	struct ftv_exec *ex;

	ck_assert_ptr_nonnull(sim_map(as, "text", T, 0x4000, SIM_R | SIM_X,
				      SIM_REGION_TEXT, NULL));
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	for (unsigned i = 0; i < n; i++)
		sim_write32(as, T + 4 * i, loop[i]);
	for (unsigned i = 0; i < 4; i++)
		sim_write32(as, T + 0x100 + 4 * i, W_NOP);
	ex = exec_new(as, cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000,
					NULL, 0, T + 4 * n, &err), 0);
	ck_assert_int_eq(exec_cpu_setup(ex, 1, T + 0x100,
					SIM_STACK_BASE + 0x2000, NULL, 0,
					T + 0x110, &err), 0);
	ck_assert_int_eq(exec_run(ex, 100, &err), 0);
	return ex;
}

/* cpu0 on `b .` */
static struct ftv_exec *looping(struct sim_aspace *as, struct exec_config *cfg)
{
	static const uint32_t self[] = { W_B_SELF };

	return looping_on(as, cfg, self, 1);
}

/* The instruction budget decides, whatever the time guard: a huge one
 * and none at all give the same violation, at the same step, and the
 * same trace. */
START_TEST(a_turn_looping_past_its_instruction_budget_is_stuck_and_stopped)
{
	static const uint64_t guard_us[] = { 0, 60000000 };
	char first[sizeof(((struct exec_violation *)0)->msg)] = "";
	uint64_t hash0 = 0;

	for (unsigned k = 0; k < 2; k++) {
		struct sim_aspace *as = sim_aspace_new();
		struct exec_config cfg = { .ncpus = 2, .policy = EXEC_QUANTUM, .seed = 1,
					   .turn_insns = 100000,
					   .turn_timeout_us = guard_us[k] };
		struct ftv_exec *ex = looping(as, &cfg);
		size_t n;
		const struct exec_violation *v = exec_violations(ex, &n);

		ck_assert_uint_eq(n, 1);
		ck_assert_int_eq(v[0].kind, EXEC_V_STUCK);
		ck_assert_int_eq(v[0].cpu, 0);
		ck_assert_msg(strstr(v[0].msg, "ran 100000 instructions without reaching"), "%s",
			      v[0].msg);
		ck_assert_int_eq(exec_run_guarded(ex, NULL, 0), 0);
		ck_assert_int_eq(exec_cpu_done(ex, 0), 0);
		ck_assert_int_eq(exec_cpu_done(ex, 1), 1);
		if (!k) {
			snprintf(first, sizeof(first), "%s", v[0].msg);
			hash0 = exec_trace_hash(ex);
		} else {
			ck_assert_str_eq(v[0].msg, first);
			ck_assert_uint_eq(exec_trace_hash(ex), hash0);
		}
		exec_free(ex);
		sim_aspace_free(as);
	}
}
END_TEST

/* With no budget to reach, the time guard ends the loop: the run is cut,
 * unjudged (no violation), and says why. */
START_TEST(a_turn_past_its_time_guard_ends_the_run_unjudged)
{
	struct sim_aspace *as = sim_aspace_new();
	struct exec_config cfg = { .ncpus = 2, .policy = EXEC_QUANTUM, .seed = 1,
				   .turn_insns = UINT64_MAX, .turn_timeout_us = 20000 };
	struct ftv_exec *ex = looping(as, &cfg);
	char why[256];
	size_t n;

	exec_violations(ex, &n);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(exec_run_guarded(ex, why, sizeof(why)), 1);
	ck_assert_msg(strstr(why, "cpu0's turn ran past its time guard (20 ms)"), "%s", why);
	ck_assert_int_eq(exec_cpu_done(ex, 0), 0);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST
/* Where the budget stops a turn, exactly: cpu0's loop is one block of
 * three instructions (add x1; nop; b back), counted 3 at its head
 * (exec_engine.c block_hook), so the block that takes the count past
 * 100000 is the 33334th and is stopped before it runs: x1 holds the
 * iterations done, 33333, on every run and whatever the guard. (Unicorn
 * 2.0.1 calls the hook ahead of the block's exit check, gen_tb_start, so
 * the uc_emu_stop it makes is seen by that very block.) */
START_TEST(the_budget_stops_the_turn_at_the_block_past_it)
{
	static const uint32_t loop[] = { W_ADD_X1_1, W_NOP, W_B_BACK8 };

	for (unsigned k = 0; k < 2; k++) {
		struct sim_aspace *as = sim_aspace_new();
		struct exec_config cfg = { .ncpus = 2, .policy = EXEC_QUANTUM, .seed = 1,
					   .turn_insns = 100000,
					   .turn_timeout_us = k ? 60000000 : 0 };
		struct ftv_exec *ex = looping_on(as, &cfg, loop, 3);
		size_t n;
		const struct exec_violation *v = exec_violations(ex, &n);

		ck_assert_uint_eq(n, 1);
		ck_assert_int_eq(v[0].kind, EXEC_V_STUCK);
		ck_assert_uint_eq(exec_cpu_reg(ex, 0, 1), 33333);
		exec_free(ex);
		sim_aspace_free(as);
	}
}
END_TEST

static Suite *exec_timeout_suite(void)
{
	Suite *s = suite_create("exec_timeout");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_turn_looping_past_its_instruction_budget_is_stuck_and_stopped);
	tcase_add_test(tc, a_turn_past_its_time_guard_ends_the_run_unjudged);
	tcase_add_test(tc, the_budget_stops_the_turn_at_the_block_past_it);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_timeout, exec_timeout_suite)
