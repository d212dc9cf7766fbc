/* The riscv64 ftrace backend's plans, step by step, decoded with rv_decode:
 * the pair scheme (Linux < 6.16) and the atomic scheme (Linux 6.16). */
#include "tests/suite.h"
#include "encoders/riscv.h"
#include "patcher/ftrace_core.h"
#include "patcher/riscv64.h"

#include <string.h>

#define TEXT   0xffffffff80100000ULL /* a traced function */
#define CALLER 0xffffffff80000000ULL /* ftrace_caller, 1 MiB below */
#define OPS    0xffffffff90000040ULL
#define NOPOPS 0xffffffff90000000ULL

static struct riscv64_ftrace_ctx C = { .ftrace_caller = CALLER, .rvc = 1 };

static struct ftrace_site site_at(uint64_t func)
{
	struct ftrace_site s = { .func = func, .init_addr = func, .ip = func + 4,
				 .literal = func - 8, .name = "f",
				 .kind = FTV_SITE_RISCV_CALL_OPS };
	return s;
}

static struct riscv64_ftrace_ctx ctx(enum riscv64_mutant m)
{
	struct riscv64_ftrace_ctx c = C;

	c.mutant = m;
	return c;
}

static struct rv_insn dec(uint32_t w, uint64_t pc)
{
	struct rv_insn in;

	ck_assert_msg(rv_decode(w, pc, &in) == 0, "cannot decode 0x%08x", w);
	return in;
}

/* Where `auipc t0, hi` at pc followed by `jalr t0, lo(t0)` goes. */
static uint64_t pair_target(uint32_t auipc, uint32_t jalr, uint64_t pc)
{
	struct rv_insn a = dec(auipc, pc), j = dec(jalr, pc + 4);

	ck_assert_int_eq(a.op, RV_OP_AUIPC);
	ck_assert_int_eq(j.op, RV_OP_JALR);
	ck_assert_uint_eq(a.rd, RV_REG_T0);
	ck_assert_uint_eq(j.rd, RV_REG_T0); /* link in t0: ra stays the caller's */
	ck_assert_uint_eq(j.rs1, RV_REG_T0);
	return pc + (uint64_t)(a.imm * 4096) + (uint64_t)j.imm;
}

static int count(const struct plan *p, enum plan_op op)
{
	int n = 0;

	for (size_t i = 0; i < p->n; i++)
		n += p->steps[i].op == op;
	return n;
}

static int find(const struct plan *p, enum plan_op op, size_t from)
{
	for (size_t i = from; i < p->n; i++)
		if (p->steps[i].op == op)
			return (int)i;
	return -1;
}

static uint32_t init_auipc(void)
{
	struct ftrace_site s = site_at(TEXT);
	uint32_t a;

	ck_assert_int_eq(riscv64_init_auipc(&C, &s, &a, NULL), 0);
	return a;
}

START_TEST(pair_make_call_writes_literal_then_auipc_then_jalr_then_flushes)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	uint64_t tramp = CALLER + 0x5000; /* far from ftrace_caller: called directly */

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.make_call(&C, &s, tramp, OPS, &p, NULL), 0);
	ck_assert_int_eq(p.n, 5);
	ck_assert_int_eq(p.steps[0].op, PLAN_WRITE_DATA64);
	ck_assert_uint_eq(p.steps[0].addr, TEXT - 8);
	ck_assert_uint_eq(p.steps[0].new, OPS);
	ck_assert_int_eq(p.steps[1].op, PLAN_DMB);
	ck_assert_int_eq(p.steps[2].op, PLAN_WRITE_INSN);
	ck_assert_uint_eq(p.steps[2].addr, TEXT);
	ck_assert_int_eq(p.steps[3].op, PLAN_WRITE_INSN);
	ck_assert_uint_eq(p.steps[3].addr, TEXT + 4);
	for (int i = 2; i <= 3; i++) {
		ck_assert(p.steps[i].validate);
		ck_assert_uint_eq(p.steps[i].old, rv_gen_nop());
	}
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[2].new,
				      (uint32_t)p.steps[3].new, TEXT), tramp);
	ck_assert_int_eq(p.steps[4].op, PLAN_SYNC_ALL);
	plan_free(&p);
}
END_TEST

START_TEST(pair_make_nop_and_modify_call_validate_both_old_words)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	uint64_t t1 = CALLER + 0x5000;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.make_nop(&C, &s, CALLER, NOPOPS, &p, NULL), 0);
	ck_assert_int_eq(p.steps[0].op, PLAN_WRITE_DATA64);
	ck_assert_uint_eq(p.steps[0].new, NOPOPS);
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[2].old,
				      (uint32_t)p.steps[3].old, TEXT), CALLER);
	ck_assert_uint_eq(p.steps[2].new, rv_gen_nop());
	ck_assert_uint_eq(p.steps[3].new, rv_gen_nop());
	ck_assert(p.steps[2].validate && p.steps[3].validate);
	ck_assert_int_eq(p.steps[4].op, PLAN_SYNC_ALL);

	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.modify_call(&C, &s, CALLER, t1, OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 2);
	ck_assert_int_lt(find(&p, PLAN_WRITE_DATA64, 0), find(&p, PLAN_WRITE_INSN, 0));
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[2].old,
				      (uint32_t)p.steps[3].old, TEXT), CALLER);
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[2].new,
				      (uint32_t)p.steps[3].new, TEXT), t1);
	/* the AUIPC really changes: the window in which a hart can mix the
	 * old AUIPC with the new JALR */
	ck_assert_uint_ne(p.steps[2].old, p.steps[2].new);
	ck_assert_int_eq(p.steps[p.n - 1].op, PLAN_SYNC_ALL);
	plan_free(&p);
}
END_TEST

START_TEST(pair_init_nop_writes_two_nops_over_the_compiler_entry)
{
	struct ftrace_site s = site_at(TEXT);
	struct riscv64_ftrace_ctx norvc = C;
	struct plan p;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.init_nop(&C, &s, NOPOPS, &p, NULL), 0);
	ck_assert_int_eq(p.steps[0].op, PLAN_WRITE_DATA64);
	ck_assert_uint_eq(p.steps[0].old, 0x0001000100010001ULL); /* 4 c.nop */
	ck_assert_uint_eq(p.steps[0].new, NOPOPS);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 2);
	for (size_t i = 0; i < p.n; i++) {
		if (p.steps[i].op != PLAN_WRITE_INSN)
			continue;
		ck_assert_uint_eq(p.steps[i].old, 0x00010001); /* c.nop; c.nop */
		ck_assert_uint_eq(p.steps[i].new, rv_gen_nop());
		ck_assert(!p.steps[i].validate); /* ftrace_init_nop does not */
	}
	plan_reset(&p);
	norvc.rvc = 0;
	ck_assert_int_eq(riscv64_ftrace_pair.init_nop(&norvc, &s, NOPOPS, &p, NULL), 0);
	ck_assert_uint_eq(p.steps[0].old, 0x0000001300000013ULL);
	ck_assert_uint_eq(p.steps[find(&p, PLAN_WRITE_INSN, 0)].old, rv_gen_nop());
	plan_free(&p);
}
END_TEST

START_TEST(pair_target_beyond_2gib_goes_through_ftrace_caller)
{
	struct ftrace_site s = site_at(TEXT);
	struct ftrace_site far = site_at(CALLER + 0x100000000ULL);
	struct plan p;
	struct ftv_err e = { { 0 } };

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.make_call(&C, &s, TEXT + 0x90000000ULL,
						     OPS, &p, NULL), 0);
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[2].new,
				      (uint32_t)p.steps[3].new, TEXT), CALLER);
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.make_call(&C, &far, CALLER + 0x40, OPS, &p, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "beyond auipc+jalr reach"));
	plan_free(&p);
}
END_TEST

START_TEST(atomic_init_nop_writes_auipc_to_ftrace_caller_and_a_nop)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	struct rv_insn a;
	int w0, w1;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.init_nop(&C, &s, NOPOPS, &p, NULL), 0);
	/* under text_mutex, everything through the patch window */
	ck_assert_int_eq(p.steps[0].op, PLAN_LOCK);
	ck_assert_int_eq(p.steps[1].op, PLAN_MAP_WINDOW);
	ck_assert_int_eq(p.steps[2].op, PLAN_WRITE_DATA64);
	ck_assert_uint_eq(p.steps[2].new, NOPOPS);
	ck_assert(p.steps[2].window);
	ck_assert_int_eq(p.steps[3].op, PLAN_UNMAP_WINDOW);
	ck_assert_int_eq(p.steps[p.n - 1].op, PLAN_UNLOCK);
	ck_assert_uint_eq(p.steps[p.n - 1].addr, p.steps[0].addr);
	w0 = find(&p, PLAN_WRITE_INSN, 0);
	w1 = find(&p, PLAN_WRITE_INSN, (size_t)w0 + 1);
	ck_assert_uint_eq(p.steps[w0].addr, TEXT);
	ck_assert_uint_eq(p.steps[w1].addr, TEXT + 4);
	a = dec((uint32_t)p.steps[w0].new, TEXT);
	ck_assert_int_eq(a.op, RV_OP_AUIPC);
	ck_assert_uint_eq(a.rd, RV_REG_T0);
	/* ftrace_caller is 1 MiB below: hi = -0x100 pages */
	ck_assert_int_eq(a.imm, -0x100);
	ck_assert_uint_eq(p.steps[w1].new, rv_gen_nop());
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 2);
	ck_assert(p.steps[w0].window && p.steps[w1].window);
	/* the AUIPC and the NOP in one patch_insn_write: one mapping */
	ck_assert_int_eq(p.steps[w0 - 1].op, PLAN_MAP_WINDOW);
	ck_assert_int_eq(w1, w0 + 1);
	plan_free(&p);
	/* Linux 6.16-rc: the literal before text_mutex */
	C.mutant = RISCV64_MUT_UNLOCKED_INIT_LITERAL;
	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.init_nop(&C, &s, NOPOPS, &p, NULL), 0);
	ck_assert_int_eq(p.steps[0].op, PLAN_MAP_WINDOW);
	ck_assert_int_gt(find(&p, PLAN_LOCK, 0), find(&p, PLAN_WRITE_DATA64, 0));
	C.mutant = RISCV64_MUT_NONE;
	plan_free(&p);
}
END_TEST

START_TEST(atomic_make_call_writes_only_the_jalr_after_the_literal)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	uint64_t near = CALLER + 0x400;
	int lit, w;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.make_call(&C, &s, near, OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 1);
	lit = find(&p, PLAN_WRITE_DATA64, 0);
	w = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_int_ge(lit, 0);
	ck_assert_int_gt(w, lit);
	/* literal through the window, then the fence, then the JALR */
	ck_assert_int_eq(find(&p, PLAN_UNMAP_WINDOW, (size_t)lit), lit + 1);
	ck_assert_int_eq(find(&p, PLAN_DMB, (size_t)lit), lit + 2);
	ck_assert_uint_eq(p.steps[w].addr, TEXT + 4);
	ck_assert(p.steps[w].validate);
	ck_assert_uint_eq(p.steps[w].old, rv_gen_nop());
	ck_assert_uint_eq(pair_target(init_auipc(), (uint32_t)p.steps[w].new, TEXT), near);
	ck_assert(rv_patchable_word_safe(rv_gen_nop(), (uint32_t)p.steps[w].new));
	/* no stop_machine, no flush per site: arch_ftrace_update_code
	 * flushes once, in update_post */
	ck_assert_int_eq(count(&p, PLAN_STOP_MACHINE), 0);
	ck_assert_int_eq(count(&p, PLAN_SYNC_ALL), 0);
	plan_free(&p);
}
END_TEST

START_TEST(atomic_jalr_reach_is_2kib_around_the_auipc_base)
{
	/* TEXT - CALLER = 1 MiB exactly, so the base is ftrace_caller */
	ck_assert(riscv64_jalr_reaches(TEXT, CALLER, CALLER - 2048));
	ck_assert(riscv64_jalr_reaches(TEXT, CALLER, CALLER + 2047 - 1));
	ck_assert(!riscv64_jalr_reaches(TEXT, CALLER, CALLER + 2048));
	ck_assert(!riscv64_jalr_reaches(TEXT, CALLER, CALLER - 2050));
	/* ftrace_caller 0x800 into a page: hi rounds up, the base is the
	 * next page and ftrace_caller sits at its lowest reachable byte */
	ck_assert(riscv64_jalr_reaches(TEXT, CALLER + 0x800, CALLER + 0x800));
	ck_assert(!riscv64_jalr_reaches(TEXT, CALLER + 0x800, CALLER + 0x7fe));
	ck_assert(riscv64_jalr_reaches(TEXT, CALLER + 0x800, CALLER + 0x17fe));
	/* 0x7fe: hi rounds down, the reach ends 2 bytes above ftrace_caller */
	ck_assert(riscv64_jalr_reaches(TEXT, CALLER + 0x7fe, CALLER + 0x7fe));
	ck_assert(!riscv64_jalr_reaches(TEXT, CALLER + 0x7fe, CALLER + 0x800));
}
END_TEST

START_TEST(atomic_out_of_reach_targets_resolve_to_ftrace_caller)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	uint64_t far = CALLER + 0x3000;
	int w;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.make_call(&C, &s, far, OPS, &p, NULL), 0);
	w = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(pair_target(init_auipc(), (uint32_t)p.steps[w].new, TEXT), CALLER);
	/* the ops in the literal is what reaches the far target */
	ck_assert_uint_eq(p.steps[find(&p, PLAN_WRITE_DATA64, 0)].new, OPS);
	plan_reset(&p);
	/* make_nop resolves the old target the same way, so it validates the
	 * word really there */
	ck_assert_int_eq(riscv64_ftrace_atomic.make_nop(&C, &s, far, NOPOPS, &p, NULL), 0);
	w = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(pair_target(init_auipc(), (uint32_t)p.steps[w].old, TEXT), CALLER);
	ck_assert_uint_eq(p.steps[w].new, rv_gen_nop());
	plan_free(&p);
}
END_TEST

START_TEST(atomic_modify_call_rewrites_the_jalr_only_if_it_changes)
{
	struct ftrace_site s = site_at(TEXT);
	struct plan p;
	uint64_t near = CALLER + 0x100;
	int w;

	plan_init(&p);
	/* only the ops changes (and a far target resolves to the same
	 * ftrace_caller JALR): the literal alone */
	ck_assert_int_eq(riscv64_ftrace_atomic.modify_call(&C, &s, CALLER, CALLER + 0x9000,
							 OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_DATA64), 1);
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.modify_call(&C, &s, CALLER, near, OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 1);
	w = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_int_gt(w, find(&p, PLAN_WRITE_DATA64, 0));
	ck_assert_uint_eq(p.steps[w].addr, TEXT + 4);
	ck_assert_uint_eq(pair_target(init_auipc(), (uint32_t)p.steps[w].old, TEXT), CALLER);
	ck_assert_uint_eq(pair_target(init_auipc(), (uint32_t)p.steps[w].new, TEXT), near);
	ck_assert(rv_patchable_word_safe((uint32_t)p.steps[w].old, (uint32_t)p.steps[w].new));
	plan_free(&p);
}
END_TEST

START_TEST(stop_machine_only_for_the_pair_scheme)
{
	struct plan p;

	ck_assert(riscv64_ftrace_pair.flags & FTRACE_ARCH_STOP_MACHINE);
	ck_assert(!(riscv64_ftrace_atomic.flags & FTRACE_ARCH_STOP_MACHINE));
	ck_assert(riscv64_ftrace_pair.flags & FTRACE_ARCH_CALL_OPS);
	ck_assert(riscv64_ftrace_atomic.flags & FTRACE_ARCH_CALL_OPS);
	ck_assert_ptr_null(riscv64_ftrace_pair.update_post);
	ck_assert_ptr_nonnull(riscv64_ftrace_atomic.update_post);
	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.update_post(&C, &p, NULL), 0);
	ck_assert_int_eq(p.n, 2);
	ck_assert_int_eq(p.steps[0].op, PLAN_SYNC_ALL);
	ck_assert_int_eq(p.steps[1].op, PLAN_UNLOCK);
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.update_prepare(&C, &p, NULL), 0);
	ck_assert_int_eq(p.steps[0].op, PLAN_LOCK);
	plan_free(&p);
}
END_TEST

/* Bump allocator over fake emulated data for the core. */
static uint64_t bump(void *ctx, uint64_t size, uint64_t align, struct ftv_err *err)
{
	uint64_t *next = ctx, at = (*next + align - 1) & ~(align - 1);

	(void)err;
	*next = at + size;
	return at;
}

/* Through the real ftrace core: registering a tracer on one site. Returns
 * the plan of the registration (the boot plan is dropped). */
static void register_through_core(const struct ftrace_arch *a, struct plan *p)
{
	uint64_t next = 0xffffffff90100000ULL;
	struct ftrace_core_config cc = {
		.arch = a, .arch_ctx = &C, .caller = CALLER,
		.list_func = CALLER + 0x200, .nop_func = CALLER + 0x240,
		.stub_func = CALLER + 0x280, .direct_func = CALLER + 0x2c0,
		.alloc = bump, .alloc_ctx = &next,
	};
	struct ftrace_ops_desc d = { .name = "t", .func = CALLER + 0x300 };
	struct ftrace_site s = site_at(TEXT);
	struct ftv_err e = { { 0 } };
	struct ftrace_core *c;
	struct ftrace_ops *o;

	c = ftrace_core_new(&cc, p, &e);
	ck_assert_msg(c != NULL, "%s", e.msg);
	ck_assert_msg(ftrace_core_add_site(c, &s, p, &e) == 0, "%s", e.msg);
	o = ftrace_ops_new(c, &d, &e);
	ck_assert_ptr_nonnull(o);
	plan_reset(p);
	ck_assert_msg(ftrace_register_ops(c, o, p, &e) == 0, "%s", e.msg);
	ftrace_core_free(c);
}

START_TEST(core_wraps_only_the_pair_scheme_in_stop_machine)
{
	struct plan p;
	int stop, resume, jalr, sync;

	plan_init(&p);
	register_through_core(&riscv64_ftrace_pair, &p);
	stop = find(&p, PLAN_STOP_MACHINE, 0);
	resume = find(&p, PLAN_RESUME_MACHINE, 0);
	ck_assert_int_ge(stop, 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 2);
	ck_assert_int_gt(find(&p, PLAN_WRITE_INSN, 0), stop);
	ck_assert_int_gt(resume, find(&p, PLAN_SYNC_ALL, 0));

	plan_reset(&p);
	register_through_core(&riscv64_ftrace_atomic, &p);
	ck_assert_int_eq(count(&p, PLAN_STOP_MACHINE), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 1);
	jalr = find(&p, PLAN_WRITE_INSN, 0);
	ck_assert_uint_eq(p.steps[jalr].addr, TEXT + 4);
	sync = find(&p, PLAN_SYNC_ALL, (size_t)jalr);
	ck_assert_int_gt(sync, jalr); /* flush_icache_all after the writes */
	plan_free(&p);
}
END_TEST

START_TEST(misaligned_sites_are_refused)
{
	struct ftrace_site s = site_at(TEXT + 4); /* literal at 4 mod 8 */
	struct ftrace_site odd = site_at(TEXT + 2);
	struct plan p;
	struct ftv_err e = { { 0 } };

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.init_nop(&C, &s, NOPOPS, &p, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "Misaligned patch-site"));
	ck_assert_int_eq(riscv64_ftrace_pair.make_call(&C, &s, CALLER, OPS, &p, &e), -1);
	odd.literal = TEXT - 8;
	ck_assert_int_eq(riscv64_site_usable(&C, &odd, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "4-byte aligned"));
	ck_assert_int_eq(p.n, 0);
	s = site_at(TEXT);
	ck_assert_int_eq(riscv64_site_usable(&C, &s, &e), 0);
	plan_free(&p);
}
END_TEST

START_TEST(jalr_before_literal_mutant_writes_the_call_first)
{
	struct riscv64_ftrace_ctx m = ctx(RISCV64_MUT_JALR_BEFORE_LITERAL);
	struct ftrace_site s = site_at(TEXT);
	const struct ftrace_arch *arch[] = { &riscv64_ftrace_pair, &riscv64_ftrace_atomic };
	struct plan p;

	plan_init(&p);
	for (int i = 0; i < 2; i++) {
		plan_reset(&p);
		ck_assert_int_eq(arch[i]->make_call(&C, &s, CALLER, OPS, &p, NULL), 0);
		ck_assert_int_lt(find(&p, PLAN_WRITE_DATA64, 0), find(&p, PLAN_WRITE_INSN, 0));
		plan_reset(&p);
		ck_assert_int_eq(arch[i]->make_call(&m, &s, CALLER, OPS, &p, NULL), 0);
		ck_assert_int_gt(find(&p, PLAN_WRITE_DATA64, 0), find(&p, PLAN_WRITE_INSN, 0));
		ck_assert_uint_eq(p.steps[find(&p, PLAN_WRITE_DATA64, 0)].new, OPS);
	}
	plan_free(&p);
}
END_TEST

START_TEST(rewrite_auipc_mutant_patches_the_auipc_live)
{
	struct riscv64_ftrace_ctx m = ctx(RISCV64_MUT_ATOMIC_REWRITE_AUIPC);
	struct ftrace_site s = site_at(TEXT);
	uint64_t far = CALLER + 0x3010; /* a different AUIPC and JALR */
	struct plan p;
	int a, j;

	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.modify_call(&m, &s, CALLER, far, OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 2);
	ck_assert_int_eq(count(&p, PLAN_STOP_MACHINE), 0);
	a = find(&p, PLAN_WRITE_INSN, 0);
	j = find(&p, PLAN_WRITE_INSN, (size_t)a + 1);
	ck_assert_uint_eq(p.steps[a].addr, TEXT);
	ck_assert_uint_eq(p.steps[a].old, init_auipc());
	ck_assert_uint_ne(p.steps[a].new, init_auipc());
	ck_assert(!rv_patchable_word_safe((uint32_t)p.steps[a].old, (uint32_t)p.steps[a].new));
	ck_assert_uint_eq(p.steps[j].addr, TEXT + 4);
	ck_assert_uint_eq(pair_target((uint32_t)p.steps[a].new, (uint32_t)p.steps[j].new,
				      TEXT), far);
	/* back to NOP puts the ftrace_caller AUIPC back, after the JALR */
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.make_nop(&m, &s, far, NOPOPS, &p, NULL), 0);
	j = find(&p, PLAN_WRITE_INSN, 0);
	a = find(&p, PLAN_WRITE_INSN, (size_t)j + 1);
	ck_assert_uint_eq(p.steps[j].addr, TEXT + 4);
	ck_assert_uint_eq(p.steps[a].addr, TEXT);
	ck_assert_uint_eq(p.steps[a].new, init_auipc());
	/* targets within the JALR's reach are unaffected */
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.make_call(&m, &s, CALLER + 0x10, OPS, &p, NULL), 0);
	ck_assert_int_eq(count(&p, PLAN_WRITE_INSN), 1);
	plan_free(&p);
}
END_TEST

START_TEST(mutant_and_scheme_names_round_trip)
{
	int n = 0;

	ck_assert_str_eq(riscv64_mutants[0].name, "none");
	for (const struct ftrace_arch_mutant *i = riscv64_mutants; i->name; i++, n++) {
		ck_assert_ptr_eq(ftrace_arch_mutant_find(riscv64_mutants, i->name), i);
		ck_assert_ptr_nonnull(i->what);
	}
	ck_assert_int_eq(n, RISCV64_MUT_COUNT);
	ck_assert_int_eq(ftrace_arch_mutant_find(riscv64_mutants, "atomic-rewrite-auipc")->code,
			 RISCV64_MUT_ATOMIC_REWRITE_AUIPC);
	ck_assert_int_eq(ftrace_arch_mutant_find(riscv64_mutants, "jalr-before-literal")->code,
			 RISCV64_MUT_JALR_BEFORE_LITERAL);
	ck_assert_ptr_null(ftrace_arch_mutant_find(riscv64_mutants, "bl-before-literal"));
	ck_assert_ptr_eq(riscv64_ftrace_pair.mutants, riscv64_mutants);
	ck_assert_ptr_eq(riscv64_ftrace_scheme("pair"), &riscv64_ftrace_pair);
	ck_assert_ptr_eq(riscv64_ftrace_scheme("riscv64-atomic"), &riscv64_ftrace_atomic);
	ck_assert_ptr_null(riscv64_ftrace_scheme("callops"));
}
END_TEST

static Suite *riscv64_backend_suite(void)
{
	Suite *s = suite_create("riscv64_backend");
	TCase *tc = tcase_create("verbs");

	tcase_add_test(tc, pair_make_call_writes_literal_then_auipc_then_jalr_then_flushes);
	tcase_add_test(tc, pair_make_nop_and_modify_call_validate_both_old_words);
	tcase_add_test(tc, pair_init_nop_writes_two_nops_over_the_compiler_entry);
	tcase_add_test(tc, pair_target_beyond_2gib_goes_through_ftrace_caller);
	tcase_add_test(tc, atomic_init_nop_writes_auipc_to_ftrace_caller_and_a_nop);
	tcase_add_test(tc, atomic_make_call_writes_only_the_jalr_after_the_literal);
	tcase_add_test(tc, atomic_jalr_reach_is_2kib_around_the_auipc_base);
	tcase_add_test(tc, atomic_out_of_reach_targets_resolve_to_ftrace_caller);
	tcase_add_test(tc, atomic_modify_call_rewrites_the_jalr_only_if_it_changes);
	tcase_add_test(tc, stop_machine_only_for_the_pair_scheme);
	tcase_add_test(tc, core_wraps_only_the_pair_scheme_in_stop_machine);
	tcase_add_test(tc, misaligned_sites_are_refused);
	tcase_add_test(tc, jalr_before_literal_mutant_writes_the_call_first);
	tcase_add_test(tc, rewrite_auipc_mutant_patches_the_auipc_live);
	tcase_add_test(tc, mutant_and_scheme_names_round_trip);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(riscv64_backend, riscv64_backend_suite)
