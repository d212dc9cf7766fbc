/* exec_reset with the sparse snapshot (executor/exec_pages.c): pages that
 * were all zeros before the first run and written during it, in shared
 * memory and in a CPU's private text copy, come back as zeros, and a rerun
 * replays the first run exactly. */
#include "tests/suite.h"
#include "executor/exec.h"

#include <stdlib.h>
#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define D SIM_DATA_BASE
#define SZ (2ULL << 20)
#define W_LDR_W3_X1 0xb9400023u /* ldr w3, [x1] */
#define W_STR_W2_X1 0xb9000022u /* str w2, [x1] */
#define W_STR_X2_X0 0xf9000002u /* str x2, [x0] */
#define W_RET 0xd65f03c0u

/* Runs cpu0 over: ldr w3, [x1]; str w2, [x1]; str x2, [x0], with x1 a
 * text word and x0 a data word, both in pages never written before. */
static void run_once(struct ftv_exec *ex, uint64_t *hash, uint64_t *x3)
{
	struct ftv_err err;

	ck_assert_msg(exec_run(ex, 1000, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_done(ex, 0), 1);
	*hash = exec_trace_hash(ex);
	*x3 = exec_cpu_reg(ex, 0, 3);
}

START_TEST(reset_zeroes_pages_first_written_by_the_run_and_replays_it)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_region *text, *data;
	/* One CPU: the round-robin position is scheduler state that a reset
	 * keeps, so with more agents a rerun may start elsewhere. */
	struct exec_config cfg = { .ncpus = 1, .policy = EXEC_QUANTUM,
				   .seed = 7, .quantum = 2 };
	uint64_t args[3] = { D + SZ / 2, T + SZ / 2, W_RET };
	struct ftv_err err;
	struct ftv_exec *ex;
	uint8_t *text0 = calloc(1, SZ), *data0 = calloc(1, SZ);
	const uint32_t code[4] = { W_LDR_W3_X1, W_STR_W2_X1, W_STR_X2_X0,
				   W_RET };
	const uint64_t d0 = 0x1122334455667788ULL;
	uint64_t h1, h2, x3;
	uint32_t w;

	text = sim_map(as, "text", T, SZ, SIM_R | SIM_X, SIM_REGION_TEXT,
		       &err);
	data = sim_map(as, "data", D, SZ, SIM_R | SIM_W, SIM_REGION_DATA,
		       &err);
	ck_assert_ptr_nonnull(text);
	ck_assert_ptr_nonnull(data);
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	/* The expected images are built aside: reading the regions would
	 * populate their pages, and the point is that the snapshot and the
	 * reset handle pages never populated. */
	for (unsigned i = 0; i < 4; i++)
		sim_write32(as, T + 4 * i, code[i]);
	memcpy(text0, code, sizeof(code));
	sim_write64(as, D, d0);
	memcpy(data0, &d0, 8); /* little-endian host, as the guest */
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000,
					args, 3, T + 12, &err), 0);

	run_once(ex, &h1, &x3);
	ck_assert_uint_eq(x3, 0); /* the text word was zero */
	ck_assert_int_eq(sim_read32(as, T + SZ / 2, &w), 0);
	ck_assert_uint_eq(w, W_RET);
	ck_assert_int_eq(sim_read64(as, D + SZ / 2, &x3), 0);
	ck_assert_uint_eq(x3, W_RET);

	ck_assert_int_eq(exec_reset(ex, &err), 0);
	ck_assert_int_eq(memcmp(text->host, text0, SZ), 0);
	ck_assert_int_eq(memcmp(data->host, data0, SZ), 0);
	/* cpu0 reads its private text copy: zero again only if the reset put
	 * back the page that the store filled. */
	run_once(ex, &h2, &x3);
	ck_assert_uint_eq(x3, 0);
	ck_assert_uint_eq(h2, h1);

	exec_free(ex);
	sim_aspace_free(as);
	free(text0);
	free(data0);
}
END_TEST

/* The program above on a fresh address space, with never_reset as asked:
 * cpu0's x3 and the trace hash, and whether a reset is refused. */
static void run_fresh(int never_reset, uint64_t *hash, uint64_t *x3, int *reset_refused)
{
	struct sim_aspace *as = sim_aspace_new();
	struct exec_config cfg = { .ncpus = 1, .policy = EXEC_QUANTUM, .seed = 7,
				   .quantum = 2, .never_reset = never_reset };
	uint64_t args[3] = { D + SZ / 2, T + SZ / 2, W_RET };
	const uint32_t code[4] = { W_LDR_W3_X1, W_STR_W2_X1, W_STR_X2_X0, W_RET };
	struct ftv_err err;
	struct ftv_exec *ex;

	ck_assert_ptr_nonnull(sim_map(as, "text", T, SZ, SIM_R | SIM_X, SIM_REGION_TEXT, &err));
	ck_assert_ptr_nonnull(sim_map(as, "data", D, SZ, SIM_R | SIM_W, SIM_REGION_DATA, &err));
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000, SIM_R | SIM_W,
				      SIM_REGION_STACK, NULL));
	for (unsigned i = 0; i < 4; i++)
		sim_write32(as, T + 4 * i, code[i]);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000, args, 3, T + 12,
					&err), 0);
	run_once(ex, hash, x3);
	*reset_refused = exec_reset(ex, &err) != 0;
	exec_free(ex);
	sim_aspace_free(as);
}

/* An executor that is never reset (one scenario run, a fuzz iteration)
 * takes no snapshot: its run is the same run (the same loads, the same
 * trace hash) as one that took it, and a reset, which would have nothing
 * to put back, is refused rather than done as nothing. */
START_TEST(never_reset_runs_the_same_and_refuses_a_reset)
{
	uint64_t h0, h1, x0, x1;
	int refused0, refused1;

	run_fresh(0, &h0, &x0, &refused0);
	run_fresh(1, &h1, &x1, &refused1);
	ck_assert_uint_eq(x0, 0);
	ck_assert_uint_eq(x1, x0);
	ck_assert_uint_eq(h1, h0);
	ck_assert_int_eq(refused0, 0);
	ck_assert_int_eq(refused1, 1);
}
END_TEST

static Suite *exec_reset_suite(void)
{
	Suite *s = suite_create("exec_reset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reset_zeroes_pages_first_written_by_the_run_and_replays_it);
	tcase_add_test(tc, never_reset_runs_the_same_and_refuses_a_reset);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_reset, exec_reset_suite)
