/* The executor's riscv64 CPUs on hand-assembled code: running, registers,
 * breakpoints, the Ziccif/Zifencei fetch model, stop_anywhere and the call
 * pair hazard (EXEC_V_PAIR): AUIPC and JALR fetched from two generations. */
#include "tests/suite.h"
#include "encoders/riscv.h"
#include "executor/exec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define D SIM_DATA_BASE
#define W_NOP 0x00000013u
#define W_FENCE_I 0x0000100fu

/* The call-pair program: CPUs run `loop` s0 times; func's first two words
 * are the site (auipc t0 at PAIR, jalr t0 at SITE, Linux's ftrace call
 * convention), the trampolines count their calls and return with jr t0. */
#define LOOP (T + 0x00)
#define EXIT (T + 0x10)
#define FUNC (T + 0x40)
#define PAIR FUNC
#define SITE (FUNC + 4)
#define TRAMP1 (T + 0x100)  /* auipc t0, 0 reaches it */
#define TRAMP1B (T + 0x108) /* the same AUIPC, another JALR offset */
#define TRAMP2 (T + 0x2180) /* auipc t0, 2: another generation */

static uint32_t as1(const char *fmt, uint64_t pc, ...)
{
	char text[128];
	struct ftv_err err;
	uint32_t w;
	int nb;
	va_list ap;

	va_start(ap, pc);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	ck_assert_msg(rv_assemble(text, pc, &w, &nb, &err) == 0, "%s: %s",
		      text, err.msg);
	ck_assert_int_eq(nb, 4);
	return w;
}

/* B-type: imm[12|10:5] rs2 rs1 funct3 imm[4:1|11] 1100011 (Unprivileged
 * ISA, "Conditional Branches"); BNE is funct3 001. Not in the encoders'
 * subset, so built here. */
static uint32_t bne(unsigned rs1, unsigned rs2, uint64_t pc, uint64_t to)
{
	uint32_t i = (uint32_t)(to - pc);

	return ((i >> 12) & 1) << 31 | ((i >> 5) & 0x3f) << 25 | rs2 << 20 |
	       rs1 << 15 | 1u << 12 | ((i >> 1) & 0xf) << 8 |
	       ((i >> 11) & 1) << 7 | 0x63;
}

static void pair_words(uint64_t to, uint32_t *auipc, uint32_t *jalr)
{
	struct ftv_err err;

	ck_assert_msg(rv_gen_call_pair(PAIR, to, 5, auipc, jalr, &err) == 0,
		      "%s", err.msg);
}

static struct sim_aspace *new_space(void)
{
	struct sim_aspace *as = sim_aspace_new();

	ck_assert_ptr_nonnull(sim_map(as, "text", T, 0x4000, SIM_R | SIM_X,
				      SIM_REGION_TEXT, NULL));
	ck_assert_ptr_nonnull(sim_map(as, "data", D, 0x1000, SIM_R | SIM_W,
				      SIM_REGION_DATA, NULL));
	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	return as;
}

/* loop: jal ra, func; addi s0, s0, -1; bne s0, zero, loop; nop; (exit)
 * func: <site pair>; addi a0, a0, 1; jalr zero, 0(ra)
 * tramp1: addi a1, a1, 1; jalr zero, 0(t0); tramp1b: addi a3, a3, 1; jr t0
 * tramp2: addi a2, a2, 1; jalr zero, 0(t0) */
static struct sim_aspace *pair_program(uint32_t w_pair, uint32_t w_site)
{
	struct sim_aspace *as = new_space();

	sim_write32(as, LOOP, as1("jal ra, 0x%llx", LOOP,
				  (unsigned long long)FUNC));
	sim_write32(as, LOOP + 4, as1("addi s0, s0, -1", LOOP + 4));
	sim_write32(as, LOOP + 8, bne(8, 0, LOOP + 8, LOOP));
	sim_write32(as, LOOP + 12, W_NOP);
	sim_write32(as, EXIT, W_NOP);
	sim_write32(as, PAIR, w_pair);
	sim_write32(as, SITE, w_site);
	sim_write32(as, FUNC + 8, as1("addi a0, a0, 1", FUNC + 8));
	sim_write32(as, FUNC + 12, as1("jalr zero, 0(ra)", FUNC + 12));
	sim_write32(as, TRAMP1, as1("addi a1, a1, 1", TRAMP1));
	sim_write32(as, TRAMP1 + 4, as1("jalr zero, 0(t0)", TRAMP1 + 4));
	sim_write32(as, TRAMP1B, as1("addi a3, a3, 1", TRAMP1B));
	sim_write32(as, TRAMP1B + 4, as1("jalr zero, 0(t0)", TRAMP1B + 4));
	sim_write32(as, TRAMP2, as1("addi a2, a2, 1", TRAMP2));
	sim_write32(as, TRAMP2 + 4, as1("jalr zero, 0(t0)", TRAMP2 + 4));
	sim_sym_add(as, "loop", LOOP, 0x10, SIM_SYM_FUNC, NULL);
	sim_sym_add(as, "func", FUNC, 0x10, SIM_SYM_FUNC, NULL);
	sim_sym_add(as, "tramp1", TRAMP1, 8, SIM_SYM_FUNC, NULL);
	sim_sym_add(as, "tramp1b", TRAMP1B, 8, SIM_SYM_FUNC, NULL);
	sim_sym_add(as, "tramp2", TRAMP2, 8, SIM_SYM_FUNC, NULL);
	return as;
}

static struct ftv_exec *rv_exec(struct sim_aspace *as, unsigned ncpus,
				enum exec_policy pol, uint64_t seed,
				unsigned quantum, uint64_t iters)
{
	struct exec_config cfg = { .arch = FTV_ARCH_RISCV64, .ncpus = ncpus,
				   .policy = pol, .seed = seed,
				   .quantum = quantum, .stop_anywhere = 1 };
	struct ftv_err err;
	struct ftv_exec *ex = exec_new(as, &cfg, &err);

	ck_assert_msg(ex != NULL, "%s", err.msg);
	for (unsigned i = 0; i < ncpus; i++) {
		ck_assert_int_eq(exec_cpu_setup(ex, i, LOOP,
						SIM_STACK_BASE + 0x1000 * (i + 1),
						NULL, 0, EXIT, &err), 0);
		ck_assert_int_eq(exec_cpu_set_reg(ex, i, 8, iters), 0);
	}
	ck_assert_int_eq(exec_watch_insn(ex, PAIR, &err), 0);
	ck_assert_int_eq(exec_watch_insn(ex, SITE, &err), 0);
	return ex;
}

static size_t count_kind(struct ftv_exec *ex, enum exec_viol_kind k)
{
	size_t n, c = 0;
	const struct exec_violation *v = exec_violations(ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].kind == k)
			c++;
	return c;
}

static const struct exec_violation *first_kind(struct ftv_exec *ex,
					       enum exec_viol_kind k)
{
	size_t n;
	const struct exec_violation *v = exec_violations(ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].kind == k)
			return &v[i];
	return NULL;
}

static void run(struct ftv_exec *ex, uint64_t steps)
{
	struct ftv_err err;

	ck_assert_msg(exec_run(ex, steps, &err) == 0, "%s", err.msg);
}

static int submit(struct ftv_exec *ex, struct plan *p)
{
	struct ftv_err err;
	int id = exec_submit(ex, p, NULL, NULL, &err);

	ck_assert_msg(id >= 0, "%s", err.msg);
	plan_free(p);
	return id;
}

/* The pre-6.16 scheme: both words rewritten under stop_machine(), then
 * flush_icache_all() on every hart. */
static void pair_plan(struct plan *p, uint32_t o1, uint32_t o2, uint32_t n1,
		      uint32_t n2, const char *w1, const char *w2)
{
	plan_init(p);
	plan_simple(p, PLAN_STOP_MACHINE, 0, "stop_machine");
	plan_write_insn(p, PAIR, o1, n1, 1, 0, w1);
	plan_write_insn(p, SITE, o2, n2, 1, 0, w2);
	plan_simple(p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	plan_simple(p, PLAN_RESUME_MACHINE, 0, "resume");
}

START_TEST(riscv_cpus_run_to_their_exit_with_args_and_sp)
{
	for (unsigned ncpus = 1; ncpus <= 4; ncpus++) {
		struct sim_aspace *as = new_space();
		struct exec_config cfg = { .arch = FTV_ARCH_RISCV64,
					   .ncpus = ncpus, .seed = ncpus };
		struct ftv_err err;
		struct ftv_exec *ex;

		/* a0 += 5; a0 += a1; sd a0, -8(sp); ld a2, -8(sp) */
		sim_write32(as, T, as1("addi a0, a0, 5", T));
		sim_write32(as, T + 4, 0x00b50533u); /* add a0, a0, a1 */
		sim_write32(as, T + 8, as1("sd a0, -8(sp)", T + 8));
		sim_write32(as, T + 12, as1("ld a2, -8(sp)", T + 12));
		ex = exec_new(as, &cfg, &err);
		ck_assert_msg(ex != NULL, "%s", err.msg);
		for (unsigned i = 0; i < ncpus; i++) {
			uint64_t args[2] = { 100 * i, 7 };

			ck_assert_int_eq(exec_cpu_setup(ex, i, T,
							SIM_STACK_BASE + 0x1000 * (i + 1),
							args, 2, T + 16, &err), 0);
		}
		run(ex, 1000);
		for (unsigned i = 0; i < ncpus; i++) {
			uint64_t v = 0;

			ck_assert(exec_cpu_done(ex, i));
			ck_assert_uint_eq(exec_cpu_reg(ex, i, 10), 100 * i + 12);
			ck_assert_uint_eq(exec_cpu_reg(ex, i, 12), 100 * i + 12);
			ck_assert_uint_eq(exec_cpu_reg(ex, i, 32), T + 16);
			ck_assert_uint_eq(exec_cpu_reg(ex, i, 2),
					  SIM_STACK_BASE + 0x1000 * (i + 1));
			sim_read64(as, SIM_STACK_BASE + 0x1000 * (i + 1) - 8, &v);
			ck_assert_uint_eq(v, 100 * i + 12);
		}
		/* x0 stays zero whatever is written. */
		ck_assert_int_eq(exec_cpu_set_reg(ex, 0, 0, 99), 0);
		ck_assert_uint_eq(exec_cpu_reg(ex, 0, 0), 0);
		ck_assert_int_eq(exec_cpu_set_reg(ex, 0, 33, 1), -1);
		exec_free(ex);
		sim_aspace_free(as);
	}
}
END_TEST

START_TEST(riscv_tp_is_each_cpus_per_cpu_pointer)
{
	struct sim_aspace *as = new_space();
	struct exec_config cfg = { .arch = FTV_ARCH_RISCV64, .ncpus = 4,
				   .seed = 3 };
	struct ftv_err err;
	struct ftv_exec *ex;

	/* ld a1, 0(tp); addi a1, a1, 1; sd a1, 0(tp): this_cpu_inc(). */
	sim_write32(as, T, as1("ld a1, 0(tp)", T));
	sim_write32(as, T + 4, as1("addi a1, a1, 1", T + 4));
	sim_write32(as, T + 8, as1("sd a1, 0(tp)", T + 8));
	for (unsigned i = 0; i < 4; i++)
		sim_write64(as, D + 0x40 * i, 10 * i);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	for (unsigned i = 0; i < 4; i++) {
		ck_assert_int_eq(exec_cpu_setup(ex, i, T, SIM_STACK_BASE + 0x1000,
						NULL, 0, T + 12, &err), 0);
		ck_assert_int_eq(exec_cpu_set_reg(ex, i, 4, D + 0x40 * i), 0);
	}
	run(ex, 1000);
	for (unsigned i = 0; i < 4; i++) {
		uint64_t v = 0;

		ck_assert_uint_eq(exec_cpu_reg(ex, i, 4), D + 0x40 * i);
		ck_assert_uint_eq(exec_cpu_reg(ex, i, 11), 10 * i + 1);
		sim_read64(as, D + 0x40 * i, &v);
		ck_assert_uint_eq(v, 10 * i + 1);
	}
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

struct hits {
	int n[4];
	uint64_t a0[4], pc;
};

static void on_break(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	struct hits *h = arg;

	h->n[cpu]++;
	h->a0[cpu] = exec_cpu_reg(ex, (unsigned)cpu, 10);
	h->pc = pc;
}

START_TEST(riscv_breakpoints_fire_before_the_instruction_on_every_cpu)
{
	struct sim_aspace *as = pair_program(W_NOP, W_NOP);
	struct ftv_exec *ex = rv_exec(as, 3, EXEC_RANDOM, 5, 0, 4);
	struct hits h = { 0 };
	struct ftv_err err;

	/* func+8 is "addi a0, a0, 1": the callback sees a0 before it. */
	ck_assert_int_eq(exec_break(ex, FUNC + 8, on_break, &h, &err), 0);
	run(ex, 10000);
	for (unsigned i = 0; i < 3; i++) {
		ck_assert(exec_cpu_done(ex, i));
		ck_assert_int_eq(h.n[i], 4);
		ck_assert_uint_eq(h.a0[i], 3);
		ck_assert_uint_eq(exec_cpu_reg(ex, i, 10), 4);
	}
	ck_assert_uint_eq(h.pc, FUNC + 8);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_fetch_of_a_patched_aligned_word_is_old_or_new_only)
{
	/* The site toggles NOP -> "addi a2, a2, 1" with no synchronisation:
	 * every fetch is one whole word (Ziccif), never a mix, and neither
	 * pair is a cmodx violation on riscv. */
	uint32_t nw = as1("addi a2, a2, 1", SITE);
	int seen_old = 0, seen_new = 0;

	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct sim_aspace *as = pair_program(W_NOP, W_NOP);
		struct ftv_exec *ex = rv_exec(as, 2, EXEC_RANDOM, seed, 0, 20);
		const struct exec_obs *o;
		struct plan p;
		size_t n;

		plan_init(&p);
		plan_simple(&p, PLAN_DMB, 0, "start");
		plan_simple(&p, PLAN_DMB, 0, "start");
		plan_write_insn(&p, SITE, W_NOP, nw, 1, 0, "enable");
		submit(ex, &p);
		run(ex, 3000);
		o = exec_observations(ex, &n);
		for (size_t i = 0; i < n; i++) {
			if (o[i].kind != EXEC_OBS_FETCH || o[i].addr != SITE)
				continue;
			ck_assert_msg(o[i].val == W_NOP || o[i].val == nw,
				      "fetched %llx", (unsigned long long)o[i].val);
			seen_old |= o[i].val == W_NOP;
			seen_new |= o[i].val == nw;
		}
		ck_assert_uint_eq(count_kind(ex, EXEC_V_CMODX), 0);
		ck_assert_uint_eq(count_kind(ex, EXEC_V_PAIR), 0);
		exec_free(ex);
		sim_aspace_free(as);
	}
	ck_assert(seen_old && seen_new);
}
END_TEST

/* The step of the first plan event of op `op`, or UINT64_MAX. */
static uint64_t plan_event_step(struct ftv_exec *ex, enum plan_op op)
{
	size_t n;
	const struct exec_event *e = exec_trace(ex, &n);

	for (size_t i = 0; i < n; i++)
		if (e[i].kind == EXEC_EV_PLAN && e[i].b == (uint64_t)op)
			return e[i].step;
	return UINT64_MAX;
}

START_TEST(riscv_after_flush_icache_all_every_fetch_sees_the_new_word)
{
	uint32_t nw = as1("addi a2, a2, 1", SITE);
	int old_before = 0;

	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct sim_aspace *as = pair_program(W_NOP, W_NOP);
		struct ftv_exec *ex = rv_exec(as, 3, EXEC_RANDOM, seed, 0, 30);
		const struct exec_event *e;
		uint64_t sync;
		struct plan p;
		size_t n;

		plan_init(&p);
		plan_write_insn(&p, SITE, W_NOP, nw, 1, 0, "enable");
		plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
		submit(ex, &p);
		run(ex, 5000);
		sync = plan_event_step(ex, PLAN_SYNC_ALL);
		ck_assert_uint_ne(sync, UINT64_MAX);
		e = exec_trace(ex, &n);
		for (size_t i = 0; i < n; i++) {
			if (e[i].kind != EXEC_EV_FETCH || e[i].a != SITE)
				continue;
			if (e[i].step > sync)
				ck_assert_uint_eq(e[i].b, nw);
			else if (e[i].b == W_NOP && i > 0)
				old_before++;
		}
		for (unsigned c = 0; c < 3; c++)
			ck_assert(exec_cpu_done(ex, c));
		exec_free(ex);
		sim_aspace_free(as);
	}
	ck_assert_int_gt(old_before, 0);
}
END_TEST

/* One CPU loops: site; fence.i (or a nop); 40 times. The plan writes the
 * site and never synchronises. Returns how many fetches of the old word
 * followed the first fetch of the new one or a fence.i after the drain. */
static int stale_after_drain(int fence, uint64_t seed)
{
	struct sim_aspace *as = new_space();
	struct exec_config cfg = { .arch = FTV_ARCH_RISCV64, .ncpus = 1,
				   .seed = seed };
	uint32_t nw = as1("addi a2, a2, 1", T);
	struct ftv_err err;
	struct ftv_exec *ex;
	const struct exec_event *e;
	struct plan p;
	uint64_t drain = UINT64_MAX;
	int fetches_after = 0, bad = 0;
	size_t n;

	sim_write32(as, T, W_NOP);
	sim_write32(as, T + 4, fence ? W_FENCE_I : W_NOP);
	sim_write32(as, T + 8, as1("addi s0, s0, -1", T + 8));
	sim_write32(as, T + 12, bne(8, 0, T + 12, T));
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000,
					NULL, 0, T + 16, &err), 0);
	exec_cpu_set_reg(ex, 0, 8, 40);
	plan_init(&p);
	plan_write_insn(&p, T, W_NOP, nw, 1, 0, "patch");
	submit(ex, &p);
	run(ex, 2000);
	ck_assert(exec_cpu_done(ex, 0));
	e = exec_trace(ex, &n);
	for (size_t i = 0; i < n; i++) {
		if (e[i].kind == EXEC_EV_DRAIN)
			drain = e[i].step;
		if (e[i].kind != EXEC_EV_FETCH || drain == UINT64_MAX)
			continue;
		/* The first fetch after the drain may still be old (no
		 * fence.i since); with a fence.i every later one is new. */
		if (fetches_after++ && e[i].b == W_NOP)
			bad++;
	}
	ck_assert_int_gt(fetches_after, 1);
	exec_free(ex);
	sim_aspace_free(as);
	return bad;
}

START_TEST(riscv_local_fence_i_makes_drained_writes_fetchable_for_that_cpu)
{
	int with = 0, without = 0;

	for (uint64_t seed = 1; seed <= 6; seed++) {
		with += stale_after_drain(1, seed);
		without += stale_after_drain(0, seed);
	}
	ck_assert_int_eq(with, 0);
	/* Without FENCE.I nothing makes the store fetchable: old words keep
	 * coming back (Zifencei). */
	ck_assert_int_gt(without, 0);
}
END_TEST

/* A breakpoint at an instruction the engine refuses (an illegal word, the
 * zeros past the code) is reached before the fault, with another marked pc
 * in the world: Unicorn 2.0.1's riscv64 engine with two range code hooks
 * did not call the one at an illegal instruction. */
static unsigned illegal_hits;

static void count_hit(struct ftv_exec *ex, int cpu, uint64_t pc, void *arg)
{
	(void)ex;
	(void)cpu;
	(void)pc;
	(void)arg;
	illegal_hits++;
}

START_TEST(riscv_breakpoint_at_an_illegal_word_is_reached)
{
	struct sim_aspace *as = new_space();
	struct exec_config cfg = { .arch = FTV_ARCH_RISCV64, .ncpus = 1, .seed = 1 };
	struct ftv_err err;
	struct ftv_exec *ex;

	sim_write32(as, T, W_NOP);
	sim_write32(as, T + 4, W_NOP);
	/* T + 8: zeros, an illegal instruction; the exit is past it */
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000, NULL, 0,
					T + 64, &err), 0);
	illegal_hits = 0;
	ck_assert_int_eq(exec_break(ex, T + 4, count_hit, NULL, &err), 0);
	ck_assert_int_eq(exec_break(ex, T + 8, count_hit, NULL, &err), 0);
	run(ex, 100);
	ck_assert_uint_eq(illegal_hits, 2);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_watch_refuses_a_word_that_is_only_2_aligned)
{
	struct sim_aspace *as = pair_program(W_NOP, W_NOP);
	struct ftv_exec *ex = rv_exec(as, 1, EXEC_RANDOM, 1, 0, 1);
	struct ftv_err err;

	ck_assert_int_eq(exec_watch_insn(ex, FUNC + 2, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "not 4-byte aligned"));
	ck_assert_ptr_nonnull(strstr(err.msg, "Ziccif"));
	ck_assert_ptr_nonnull(strstr(err.msg, "0xffff800080000042"));
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

/* Steps one CPU (quantum 1: a turn is one instruction) until its pc is
 * `pc` and it has executed the AUIPC before it. */
static void step_to(struct ftv_exec *ex, uint64_t pc)
{
	for (int i = 0; i < 200; i++) {
		if (exec_cpu_reg(ex, 0, 32) == pc)
			return;
		run(ex, 1);
	}
	ck_abort_msg("cpu0 never reached 0x%llx", (unsigned long long)pc);
}

/* The events of cpu0's turns and of the patcher, and where cpu0 was. */
static void assert_parked_between(struct ftv_exec *ex)
{
	size_t n;
	const struct exec_event *e = exec_trace(ex, &n);
	uint64_t stop = UINT64_MAX, resume = UINT64_MAX;
	int at_site = 0, next_from_site = 0;

	for (size_t i = 0; i < n; i++) {
		if (e[i].kind == EXEC_EV_PLAN &&
		    e[i].b == PLAN_STOP_MACHINE && stop == UINT64_MAX &&
		    at_site)
			stop = e[i].step;
		if (e[i].kind == EXEC_EV_PLAN && e[i].b == PLAN_RESUME_MACHINE &&
		    stop != UINT64_MAX)
			resume = e[i].step;
		if (e[i].kind != EXEC_EV_CPU || e[i].agent != 0)
			continue;
		if (stop == UINT64_MAX) {
			/* Its last turn before the stop ended at the JALR. */
			at_site = e[i].b == SITE;
			continue;
		}
		/* No turn while stopped; the next one starts at the JALR. */
		ck_assert_uint_ne(resume, UINT64_MAX);
		ck_assert_uint_gt(e[i].step, resume);
		next_from_site = e[i].a == SITE;
		break;
	}
	ck_assert_msg(stop != UINT64_MAX, "cpu0 was not between the words at the stop");
	ck_assert(next_from_site);
}

START_TEST(riscv_stop_anywhere_parks_a_cpu_between_auipc_and_jalr)
{
	uint32_t a1, j1, j1b;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;

	pair_words(TRAMP1, &a1, &j1);
	pair_words(TRAMP1B, &a1, &j1b);
	as = pair_program(a1, j1);
	ex = rv_exec(as, 1, EXEC_QUANTUM, 1, 1, 1);
	step_to(ex, SITE);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 5), PAIR); /* auipc t0, 0 ran */
	/* The atomic scheme's modify: only the JALR word changes. */
	plan_init(&p);
	plan_simple(&p, PLAN_STOP_MACHINE, 0, "stop_machine");
	plan_write_insn(&p, SITE, j1, j1b, 1, 0, "modify: jalr");
	plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	plan_simple(&p, PLAN_RESUME_MACHINE, 0, "resume");
	submit(ex, &p);
	run(ex, 500);
	assert_parked_between(ex);
	ck_assert(exec_cpu_done(ex, 0));
	/* It resumed at the JALR, fetched the new one and went to tramp1b. */
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 13), 1);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 11), 0);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 10), 1);
	ck_assert_uint_eq(count_kind(ex, EXEC_V_PAIR), 0);
	ck_assert_uint_eq(count_kind(ex, EXEC_V_FAULT), 0);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_pair_hazard_reported_for_both_words_rewritten_under_stop_machine)
{
	uint32_t a1, j1, a2, j2;
	const struct exec_violation *v;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;
	char want[768];

	pair_words(TRAMP1, &a1, &j1);
	pair_words(TRAMP2, &a2, &j2);
	ck_assert_uint_eq(a1, 0x00000297u); /* auipc t0, 0x0 */
	ck_assert_uint_eq(a2, 0x00002297u); /* auipc t0, 0x2 */
	as = pair_program(W_NOP, W_NOP);
	ex = rv_exec(as, 1, EXEC_QUANTUM, 1, 1, 3);
	/* Plan 0 enables tramp1: NOP;NOP -> AUIPC;JALR. */
	pair_plan(&p, W_NOP, W_NOP, a1, j1, "make_call: auipc",
		  "make_call: jalr");
	ck_assert_int_eq(submit(ex, &p), 0);
	for (int i = 0; i < 50 && exec_plan_result(ex, 0)->status != EXEC_PLAN_DONE; i++)
		run(ex, 1);
	ck_assert_int_eq(exec_plan_result(ex, 0)->status, EXEC_PLAN_DONE);
	/* The CPU executes the new AUIPC and is stopped before the JALR
	 * while the site is disabled and enabled for tramp2. */
	step_to(ex, SITE);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 5), PAIR);
	pair_plan(&p, a1, j1, W_NOP, W_NOP, "make_nop: auipc",
		  "make_nop: jalr");
	ck_assert_int_eq(submit(ex, &p), 1);
	pair_plan(&p, W_NOP, W_NOP, a2, j2, "make_call: auipc",
		  "make_call: jalr");
	ck_assert_int_eq(submit(ex, &p), 2);
	run(ex, 500);
	assert_parked_between(ex);
	ck_assert_uint_eq(count_kind(ex, EXEC_V_PAIR), 1);
	v = first_kind(ex, EXEC_V_PAIR);
	ck_assert_int_eq(v->cpu, 0);
	ck_assert_uint_eq(v->addr, SITE);
	/* Writes: #0, #1 initial (watched PAIR, SITE); plan 0 wrote #2, #3,
	 * plan 1 #4, #5, plan 2 #6 (auipc) and #7 (jalr). The wild target:
	 * func + 0 (the old AUIPC) + 0x140 (the new JALR's offset). */
	snprintf(want, sizeof(want),
		 "pair: cpu0 step %llu executed 00000297 (auipc t0, 0x0) from write #2 "
		 "(plan 0 step 1 \"make_call: auipc\"), then fetched 140282e7 (jalr t0, 320(t0)) "
		 "at func+0x4/0x10 from write #7 (plan 2 step 2 \"make_call: jalr\"), which was "
		 "written to pair with 00002297 (auipc t0, 0x2) from write #6 (plan 2 step 1 "
		 "\"make_call: auipc\"): the call mixes two generations of the site and jumps to "
		 "0x%llx instead of 0x%llx",
		 (unsigned long long)v->step, (unsigned long long)(PAIR + 0x140),
		 (unsigned long long)TRAMP2);
	ck_assert_str_eq(v->msg, want);
	ck_assert_str_eq(exec_viol_name(EXEC_V_PAIR), "pair");
	/* ... and the wild jump lands in zeros: an illegal instruction. */
	v = first_kind(ex, EXEC_V_FAULT);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->addr, PAIR + 0x140);
	ck_assert_ptr_nonnull(strstr(v->msg, "illegal instruction (the all-zero parcel)"));
	ck_assert_ptr_nonnull(strstr(v->msg, "0000 (.insn 0x0000)"));
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_pair_hazard_reported_for_a_cpu_between_the_nops_of_an_enable)
{
	/* NOP;NOP -> AUIPC;JALR under stop_machine while the CPU has run the
	 * first NOP: it falls into a JALR whose t0 no AUIPC computed. */
	uint32_t a2, j2;
	const struct exec_violation *v;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;
	char want[768];

	pair_words(TRAMP2, &a2, &j2);
	as = pair_program(W_NOP, W_NOP);
	ex = rv_exec(as, 1, EXEC_QUANTUM, 1, 1, 1);
	step_to(ex, SITE);
	pair_plan(&p, W_NOP, W_NOP, a2, j2, "make_call: auipc",
		  "make_call: jalr");
	submit(ex, &p);
	run(ex, 100);
	assert_parked_between(ex);
	v = first_kind(ex, EXEC_V_PAIR);
	ck_assert_ptr_nonnull(v);
	snprintf(want, sizeof(want),
		 "pair: cpu0 step %llu executed 00000013 (nop) from write #0 (initial), then "
		 "fetched 140282e7 (jalr t0, 320(t0)) at func+0x4/0x10 from write #3 (plan 0 "
		 "step 2 \"make_call: jalr\"), which was written to pair with 00002297 (auipc t0, "
		 "0x2) from write #2 (plan 0 step 1 \"make_call: auipc\"): the call mixes two "
		 "generations of the site and jumps to 0x140 instead of 0x%llx",
		 (unsigned long long)v->step, (unsigned long long)TRAMP2);
	ck_assert_str_eq(v->msg, want);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_pair_hazard_not_reported_when_only_the_jalr_word_changes)
{
	/* The 6.16 scheme: AUIPC written once, the JALR word toggles
	 * JALR -> NOP -> JALR' with the CPU stopped between the words. */
	uint32_t a1, j1, j1b;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;

	pair_words(TRAMP1, &a1, &j1);
	pair_words(TRAMP1B, &a1, &j1b);
	as = pair_program(a1, j1);
	ex = rv_exec(as, 1, EXEC_QUANTUM, 1, 1, 2);
	step_to(ex, SITE);
	plan_init(&p);
	plan_simple(&p, PLAN_STOP_MACHINE, 0, "stop_machine");
	plan_write_insn(&p, SITE, j1, W_NOP, 1, 0, "make_nop: jalr");
	plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	plan_simple(&p, PLAN_RESUME_MACHINE, 0, "resume");
	plan_simple(&p, PLAN_STOP_MACHINE, 0, "stop_machine");
	plan_write_insn(&p, SITE, W_NOP, j1b, 1, 0, "make_call: jalr");
	plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	plan_simple(&p, PLAN_RESUME_MACHINE, 0, "resume");
	submit(ex, &p);
	run(ex, 500);
	assert_parked_between(ex);
	ck_assert(exec_cpu_done(ex, 0));
	ck_assert_uint_eq(count_kind(ex, EXEC_V_PAIR), 0);
	ck_assert_uint_eq(count_kind(ex, EXEC_V_FAULT), 0);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 13), 2); /* both calls: tramp1b */
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

struct tally {
	uint64_t runs_with_pair, runs;
	size_t seen;
};

static void on_outcome(struct ftv_exec *ex, void *arg)
{
	struct tally *t = arg;
	size_t n;

	exec_violations(ex, &n);
	t->runs++;
	if (count_kind(ex, EXEC_V_PAIR) > t->seen)
		t->runs_with_pair++;
	t->seen = count_kind(ex, EXEC_V_PAIR);
}

/* Two CPUs, one call each, one plan that starts while they run (a DMB marks
 * the start of the update), every interleaving and fetch choice. */
static struct tally explore(int atomic)
{
	uint32_t a1, j1, a2, j2, j1b;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct exec_stats st;
	struct ftv_err err;
	struct tally t = { 0 };
	struct plan p;

	pair_words(TRAMP1, &a1, &j1);
	pair_words(TRAMP2, &a2, &j2);
	pair_words(TRAMP1B, &a1, &j1b);
	as = pair_program(a1, j1);
	ex = rv_exec(as, 2, EXEC_EXHAUSTIVE, 0, 0, 1);
	plan_init(&p);
	plan_simple(&p, PLAN_DMB, 0, "update starts");
	if (atomic) {
		plan_write_insn(&p, SITE, j1, j1b, 1, 0, "modify: jalr");
		plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	} else {
		plan_simple(&p, PLAN_STOP_MACHINE, 0, "stop_machine");
		plan_write_insn(&p, PAIR, a1, a2, 1, 0, "modify: auipc");
		plan_write_insn(&p, SITE, j1, j2, 1, 0, "modify: jalr");
		plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
		plan_simple(&p, PLAN_RESUME_MACHINE, 0, "resume");
	}
	submit(ex, &p);
	ck_assert_msg(exec_explore(ex, 50000, 200, on_outcome, &t, &err) == 0,
		      "%s", err.msg);
	exec_get_stats(ex, &st);
	ck_assert_msg(st.complete, "%llu runs, not complete",
		      (unsigned long long)st.runs);
	ck_assert_uint_eq(count_kind(ex, EXEC_V_CMODX), 0);
	exec_free(ex);
	sim_aspace_free(as);
	return t;
}

START_TEST(riscv_exhaustive_finds_the_pair_hazard_and_never_for_atomic)
{
	struct tally pair = explore(0), atomic = explore(1);

	ck_assert_uint_gt(pair.runs, 1);
	ck_assert_uint_gt(pair.runs_with_pair, 0);
	ck_assert_uint_lt(pair.runs_with_pair, pair.runs);
	ck_assert_uint_gt(atomic.runs, 1);
	ck_assert_uint_eq(atomic.runs_with_pair, 0);
}
END_TEST

static uint64_t random_run_hash(uint64_t seed, size_t *nviol)
{
	uint32_t a1, j1, a2, j2;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;
	uint64_t h;

	pair_words(TRAMP1, &a1, &j1);
	pair_words(TRAMP2, &a2, &j2);
	as = pair_program(a1, j1);
	ex = rv_exec(as, 4, EXEC_RANDOM, seed, 0, 50);
	plan_init(&p);
	plan_simple(&p, PLAN_DMB, 0, "start");
	plan_simple(&p, PLAN_DMB, 0, "start");
	plan_simple(&p, PLAN_STOP_MACHINE, 0, "stop_machine");
	plan_write_insn(&p, PAIR, a1, a2, 1, 0, "modify: auipc");
	plan_write_insn(&p, SITE, j1, j2, 1, 0, "modify: jalr");
	plan_simple(&p, PLAN_SYNC_ALL, 0, "flush_icache_all");
	plan_simple(&p, PLAN_RESUME_MACHINE, 0, "resume");
	submit(ex, &p);
	run(ex, 3000);
	h = exec_trace_hash(ex);
	exec_violations(ex, nviol);
	exec_free(ex);
	sim_aspace_free(as);
	return h;
}

START_TEST(riscv_same_seed_same_trace_hash)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		size_t n1, n2;

		ck_assert_uint_eq(random_run_hash(seed, &n1),
				  random_run_hash(seed, &n2));
		ck_assert_uint_eq(n1, n2);
	}
}
END_TEST

START_TEST(riscv_trace_prints_riscv_disassembly)
{
	uint32_t a1, j1;
	struct sim_aspace *as;
	struct ftv_exec *ex;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	pair_words(TRAMP1, &a1, &j1);
	as = pair_program(a1, j1);
	ex = rv_exec(as, 1, EXEC_RANDOM, 1, 0, 1);
	run(ex, 100);
	f = open_memstream(&buf, &len);
	exec_trace_print(ex, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "fetch  func+0x0/0x10: 00000297 (auipc t0, 0x0)"));
	ck_assert_ptr_nonnull(strstr(buf, "fetch  func+0x4/0x10: 0c0282e7 (jalr t0, 192(t0))"));
	free(buf);
	exec_free(ex);
	sim_aspace_free(as);
	/* The compiler's entry (-fpatchable-function-entry with RVC): a
	 * watched word holding two c.nop prints as both. */
	as = pair_program(0x00010001u, 0x00010001u);
	ex = rv_exec(as, 1, EXEC_RANDOM, 1, 0, 1);
	run(ex, 100);
	ck_assert(exec_cpu_done(ex, 0));
	f = open_memstream(&buf, &len);
	exec_trace_print(ex, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "fetch  func+0x0/0x10: 00010001 (c.nop; c.nop)"));
	ck_assert_ptr_nonnull(strstr(buf, "fetch  func+0x4/0x10: 00010001 (c.nop; c.nop)"));
	free(buf);
	exec_free(ex);
	sim_aspace_free(as);
}
END_TEST

START_TEST(riscv_access_fault_names_the_riscv_instruction)
{
	struct sim_aspace *as = new_space();
	struct exec_config cfg = { .arch = FTV_ARCH_RISCV64, .ncpus = 1 };
	const struct exec_violation *v;
	struct ftv_err err;
	struct ftv_exec *ex;

	sim_write32(as, T, as1("addi a0, a0, 1", T));
	sim_write32(as, T + 4, as1("ld a1, 8(a0)", T + 4));
	sim_sym_add(as, "probe", T, 8, SIM_SYM_FUNC, NULL);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T, SIM_STACK_BASE + 0x1000,
					(uint64_t[]){ 0x1000 }, 1, T + 8, &err), 0);
	run(ex, 10);
	v = first_kind(ex, EXEC_V_FAULT);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->addr, T + 4);
	ck_assert_str_eq(v->msg, "cpu0 step 0: fault at probe+0x4/0x8 executing "
			 "00853583 (ld a1, 8(a0)): Invalid memory read (UC_ERR_READ_UNMAPPED)");
	ck_assert(!exec_cpu_done(ex, 0));
	exec_free(ex);
	/* A compressed store at a 2-aligned pc after a c.nop: c.sd a1, 8(a0)
	 * (0xe50c, outside the encoders' subset). */
	sim_write32(as, T + 0x20, 0xe50c0001u); /* c.nop; c.sd */
	sim_write32(as, T + 0x24, W_NOP);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T + 0x20, SIM_STACK_BASE + 0x1000,
					(uint64_t[]){ 0x2000 }, 1, T + 0x28, &err), 0);
	run(ex, 10);
	v = first_kind(ex, EXEC_V_FAULT);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->addr, T + 0x22);
	ck_assert_ptr_nonnull(strstr(v->msg, "executing e50c (.insn 0xe50c): "
				     "Invalid memory write (UC_ERR_WRITE_UNMAPPED)"));
	exec_free(ex);
	/* An illegal instruction in the middle of a block, after a hooked
	 * instruction: c.nop; nop (breakpoint); .insn 0xffffffff. */
	sim_write32(as, T + 0x40, 0x00130001u);
	sim_write32(as, T + 0x44, 0xffff0000u);
	sim_write32(as, T + 0x48, 0x0000ffffu);
	ex = exec_new(as, &cfg, &err);
	ck_assert_msg(ex != NULL, "%s", err.msg);
	ck_assert_int_eq(exec_cpu_setup(ex, 0, T + 0x40, SIM_STACK_BASE + 0x1000,
					NULL, 0, T + 0x50, &err), 0);
	{
		struct hits h = { 0 };

		ck_assert_int_eq(exec_break(ex, T + 0x42, on_break, &h, &err), 0);
		run(ex, 10);
		ck_assert_int_eq(h.n[0], 1);
	}
	v = first_kind(ex, EXEC_V_FAULT);
	ck_assert_ptr_nonnull(v);
	ck_assert_uint_eq(v->addr, T + 0x46);
	ck_assert_uint_eq(exec_cpu_reg(ex, 0, 32), T + 0x46);
	ck_assert_ptr_nonnull(strstr(v->msg, "executing ffffffff (.insn 0xffffffff): trap"));
	exec_free(ex);
	/* An architecture the executor does not know is refused. */
	cfg.arch = (enum ftv_arch)7;
	ck_assert_ptr_null(exec_new(as, &cfg, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "architecture 7"));
	sim_aspace_free(as);
}
END_TEST

static Suite *exec_riscv64_suite(void)
{
	Suite *s = suite_create("exec_riscv64");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, riscv_cpus_run_to_their_exit_with_args_and_sp);
	tcase_add_test(tc, riscv_tp_is_each_cpus_per_cpu_pointer);
	tcase_add_test(tc, riscv_breakpoints_fire_before_the_instruction_on_every_cpu);
	tcase_add_test(tc, riscv_fetch_of_a_patched_aligned_word_is_old_or_new_only);
	tcase_add_test(tc, riscv_after_flush_icache_all_every_fetch_sees_the_new_word);
	tcase_add_test(tc, riscv_local_fence_i_makes_drained_writes_fetchable_for_that_cpu);
	tcase_add_test(tc, riscv_watch_refuses_a_word_that_is_only_2_aligned);
	tcase_add_test(tc, riscv_stop_anywhere_parks_a_cpu_between_auipc_and_jalr);
	tcase_add_test(tc, riscv_pair_hazard_reported_for_both_words_rewritten_under_stop_machine);
	tcase_add_test(tc, riscv_pair_hazard_reported_for_a_cpu_between_the_nops_of_an_enable);
	tcase_add_test(tc, riscv_pair_hazard_not_reported_when_only_the_jalr_word_changes);
	tcase_add_test(tc, riscv_exhaustive_finds_the_pair_hazard_and_never_for_atomic);
	tcase_add_test(tc, riscv_same_seed_same_trace_hash);
	tcase_add_test(tc, riscv_breakpoint_at_an_illegal_word_is_reached);
	tcase_add_test(tc, riscv_trace_prints_riscv_disassembly);
	tcase_add_test(tc, riscv_access_fault_names_the_riscv_instruction);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(exec_riscv64, exec_riscv64_suite)
