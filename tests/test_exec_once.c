/* exec_config.once (ftv replay's worlds): the CPUs' private text views are
 * copy-on-write mappings of one shared copy instead of copies of their
 * own, and no snapshot is taken. A run must be the same step for step as
 * with copies of their own, and a reset must be refused. */
#include "tests/suite.h"
#include "executor/exec.h"

#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define D SIM_DATA_BASE
#define SZ (2ULL << 20)
#define W_LDR_W3_X1 0xb9400023u /* ldr w3, [x1] */
#define W_STR_W2_X1 0xb9000022u /* str w2, [x1] */
#define W_STR_X2_X0 0xf9000002u /* str x2, [x0] */
#define W_RET 0xd65f03c0u

struct outcome {
	uint64_t hash, x3[2], data, steps;
	uint32_t text;
};

/* Two CPUs, each: ldr w3, [x1]; str w2, [x1]; str x2, [x0]; ret, with x1
 * a text word (a word each CPU loads, then overwrites) far from the code,
 * in a page nothing wrote before, and x0 a data word. */
static void run(int once, struct outcome *o)
{
	struct sim_aspace *as = sim_aspace_new();
	struct exec_config cfg = { .ncpus = 2, .policy = EXEC_RANDOM, .seed = 11,
				   .quantum = 1, .once = once };
	const uint32_t code[4] = { W_LDR_W3_X1, W_STR_W2_X1, W_STR_X2_X0, W_RET };
	struct exec_stats st;
	struct ftv_err err;
	struct ftv_exec *ex;

	ck_assert_ptr_nonnull(sim_map(as, "text", T, SZ, SIM_R | SIM_X,
				      SIM_REGION_TEXT, &err));
	ck_assert_ptr_nonnull(sim_map(as, "data", D, SZ, SIM_R | SIM_W,
				      SIM_REGION_DATA, &err));
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, &err));
	for (unsigned i = 0; i < 4; i++)
		sim_write32(as, T + 4 * i, code[i]);
	sim_write32(as, T + SZ / 2, 0x12345678);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	for (unsigned c = 0; c < 2; c++) {
		uint64_t args[3] = { D + 8 * c, T + SZ / 2, W_RET - c };

		ck_assert_int_eq(exec_cpu_setup(ex, c, T, SIM_STACK_BASE + 0x1000 +
						0x1000 * c, args, 3, T + 12, &err), 0);
	}
	ck_assert_msg(exec_run(ex, 1000, &err) == 0, "%s", err.msg);
	for (unsigned c = 0; c < 2; c++) {
		ck_assert_int_eq(exec_cpu_done(ex, c), 1);
		o->x3[c] = exec_cpu_reg(ex, c, 3);
	}
	o->hash = exec_trace_hash(ex);
	exec_get_stats(ex, &st);
	o->steps = st.steps;
	ck_assert_int_eq(sim_read32(as, T + SZ / 2, &o->text), 0);
	ck_assert_int_eq(sim_read64(as, D + 8, &o->data), 0);
	if (once) {
		ck_assert_int_eq(exec_reset(ex, &err), -1);
		ck_assert_msg(strstr(err.msg, "cannot be reset"), "%s", err.msg);
	}
	exec_free(ex);
	sim_aspace_free(as);
}

START_TEST(shared_copies_run_as_private_copies_and_refuse_a_reset)
{
	struct outcome a, b;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	run(0, &a);
	run(1, &b);
	ck_assert_uint_eq(b.hash, a.hash);
	ck_assert_uint_eq(b.steps, a.steps);
	ck_assert_uint_eq(b.x3[0], a.x3[0]);
	ck_assert_uint_eq(b.x3[1], a.x3[1]);
	ck_assert_uint_eq(b.text, a.text);
	ck_assert_uint_eq(b.data, a.data);
	/* each CPU loaded the word as the shared copy had it, or as the
	 * other CPU's store left it */
	for (unsigned c = 0; c < 2; c++)
		ck_assert_msg(b.x3[c] == 0x12345678 || b.x3[c] == W_RET ||
			      b.x3[c] == W_RET - 1, "cpu%u loaded 0x%llx", c,
			      (unsigned long long)b.x3[c]);
	ck_assert_msg(b.text == W_RET || b.text == W_RET - 1, "0x%x", b.text);
}
END_TEST

static Suite *exec_once_suite(void)
{
	Suite *s = suite_create("exec_once");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, shared_copies_run_as_private_copies_and_refuse_a_reset);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_once, exec_once_suite)
