/* The riscv64 trampolines really work: the objects in build/trampolines/riscv64/ linked
 * with a test caller and a traced function (compiled like the corpus) at
 * 0x80000000 (mk/trampolines-riscv.mk), run in a raw Unicorn riscv64 engine
 * (one hart, no executor). The traced site is patched by applying the
 * backend's own plans, each validated word checked against memory. */
#include "tests/suite.h"
#include "encoders/riscv.h"
#include "patcher/ftrace_abi.h"
#include "patcher/riscv64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define TEXT_BASE  0x80000000ULL /* RV_TRAMP_TEST_ORG */
#define TEXT_SIZE  0x10000ULL
#define DATA_BASE  0x90000000ULL
#define DATA_SIZE  0x10000ULL
#define STACK_BASE 0xa0000000ULL
#define STACK_SIZE 0x10000ULL

#define OPS_A      (DATA_BASE + 0x000) /* func = ftv_tracer_a */
#define OPS_DIRECT (DATA_BASE + 0x100) /* direct_call = ftv_direct_tramp */
#define OPS_LIST   (DATA_BASE + 0x200) /* ftrace_list_ops */
#define OPS_NOP    (DATA_BASE + 0x300) /* ftrace_nop_ops */
#define OPS_GRAPH  (DATA_BASE + 0x400) /* func = ftrace_graph_func */
#define OPS_LDIR   (DATA_BASE + 0x500) /* a direct ops on the list */
#define PCPU       (DATA_BASE + 0x1000)
#define LOG        (DATA_BASE + 0x2000)
#define LOG_CAP    32
#define GRAPH      (DATA_BASE + 0x3000)
#define TRAMP_COPY (TEXT_BASE + 0x8000) /* a per-ops trampoline */

static uc_engine *uc;
static char *syms;

static uint64_t sym(const char *name)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), " %s\n", name);
	p = strstr(syms, pat);
	ck_assert_msg(p != NULL, "symbol %s not in the test image", name);
	while (p > syms && p[-1] != '\n')
		p--;
	return strtoull(p, NULL, 16);
}

static void w64(uint64_t addr, uint64_t v)
{
	ck_assert_int_eq(uc_mem_write(uc, addr, &v, 8), UC_ERR_OK);
}

static uint64_t r64(uint64_t addr)
{
	uint64_t v = 0;

	ck_assert_int_eq(uc_mem_read(uc, addr, &v, 8), UC_ERR_OK);
	return v;
}

static uint32_t r32(uint64_t addr)
{
	uint32_t v = 0;

	ck_assert_int_eq(uc_mem_read(uc, addr, &v, 4), UC_ERR_OK);
	return v;
}

static void ops(uint64_t at, uint64_t func, uint64_t direct, uint64_t flags)
{
	w64(at + FTV_OPS_FUNC, func);
	w64(at + FTV_OPS_DIRECT_CALL, direct);
	w64(at + FTV_OPS_FLAGS, flags);
	w64(at + FTV_OPS_NEXT, 0);
	w64(at + FTV_OPS_NFILTER, 0);
	w64(at + FTV_OPS_NNOTRACE, 0);
}

static void setup(void)
{
	char path[4096];
	FILE *f;
	long n;
	void *bin;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "trampolines/riscv64/test/rvtramp-test.syms");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "%s missing (make trampolines-riscv)", path);
	syms = calloc(1, 1 << 16);
	ck_assert_ptr_nonnull(syms);
	syms[0] = '\n';
	n = (long)fread(syms + 1, 1, (1 << 16) - 2, f);
	ck_assert_int_gt(n, 0);
	fclose(f);

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "trampolines/riscv64/test/rvtramp-test.bin");
	f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "%s missing", path);
	bin = malloc(TEXT_SIZE);
	ck_assert_ptr_nonnull(bin);
	n = (long)fread(bin, 1, TEXT_SIZE, f);
	ck_assert(n > 0 && feof(f)); /* the whole image fits */
	fclose(f);

	ck_assert_int_eq(uc_open(UC_ARCH_RISCV, UC_MODE_RISCV64, &uc), UC_ERR_OK);
	ck_assert_int_eq(uc_mem_map(uc, TEXT_BASE, TEXT_SIZE, UC_PROT_ALL), UC_ERR_OK);
	ck_assert_int_eq(uc_mem_map(uc, DATA_BASE, DATA_SIZE, UC_PROT_READ | UC_PROT_WRITE), UC_ERR_OK);
	ck_assert_int_eq(uc_mem_map(uc, STACK_BASE, STACK_SIZE, UC_PROT_READ | UC_PROT_WRITE), UC_ERR_OK);
	ck_assert_int_eq(uc_mem_write(uc, TEXT_BASE, bin, (size_t)n), UC_ERR_OK);
	free(bin);

	ops(OPS_A, sym("ftv_tracer_a"), 0, 0);
	ops(OPS_DIRECT, sym("ftv_call_direct_funcs"), sym("ftv_direct_tramp"), FTV_OPS_FL_DIRECT);
	ops(OPS_LIST, sym("ftrace_ops_list_func"), 0, 0);
	ops(OPS_NOP, sym("ftv_nop_ops_func"), 0, FTV_OPS_FL_STUB);
	ops(OPS_GRAPH, sym("ftrace_graph_func"), 0, FTV_OPS_FL_GRAPH);
	ops(OPS_LDIR, sym("ftv_call_direct_funcs"), sym("ftv_direct_tramp"), FTV_OPS_FL_DIRECT);
	w64(PCPU + FTV_PCPU_LOG_CAP, LOG_CAP);
	w64(PCPU + FTV_PCPU_LOG, LOG);
	w64(PCPU + FTV_PCPU_GRAPH, GRAPH);
}

static void teardown(void)
{
	uc_close(uc);
	uc = NULL;
	free(syms);
	syms = NULL;
}

/* What the executor will do with a plan, minus the concurrency: every
 * write lands, a validated one only over the word it expects. Also checks
 * the unvalidated init writes against the compiler's words (ctx.rvc). */
static void apply(const struct plan *p)
{
	for (size_t i = 0; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->op == PLAN_WRITE_INSN) {
			uint32_t w = (uint32_t)s->new;

			ck_assert_msg(r32(s->addr) == (uint32_t)s->old,
				      "step %zu (%s): 0x%08x at 0x%llx, expected 0x%08x",
				      i, s->what, r32(s->addr),
				      (unsigned long long)s->addr, (uint32_t)s->old);
			ck_assert_int_eq(uc_mem_write(uc, s->addr, &w, 4), UC_ERR_OK);
			ck_assert_int_eq(uc_ctl_remove_cache(uc, s->addr, s->addr + 4), UC_ERR_OK);
		} else if (s->op == PLAN_WRITE_DATA64) {
			if (s->old)
				ck_assert_uint_eq(r64(s->addr), s->old);
			w64(s->addr, s->new);
		}
	}
}

/* Index of the plan's WRITE_INSN at addr, or -1. */
static int find_write(const struct plan *p, uint64_t addr)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->steps[i].op == PLAN_WRITE_INSN && p->steps[i].addr == addr)
			return (int)i;
	return -1;
}

static uint64_t expect(uint64_t a, uint64_t b, uint64_t c)
{
	return a * 7 + (b ^ 0x55) - (c << 3);
}

/* Runs ftv_test_caller(a, b, c, fn) to ftv_test_done; returns a0. */
static uint64_t call(uint64_t fn, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t sp = STACK_BASE + STACK_SIZE - 64, tp = PCPU, pc = 0, r = 0;
	uint64_t done = sym("ftv_test_done");

	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_SP, &sp), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_TP, &tp), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A0, &a), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A1, &b), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A2, &c), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A3, &fn), UC_ERR_OK);
	ck_assert_int_eq(uc_emu_start(uc, sym("ftv_test_caller"), done, 0, 100000), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_PC, &pc), UC_ERR_OK);
	ck_assert_msg(pc == done, "stopped at 0x%llx, not ftv_test_done", (unsigned long long)pc);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_A0, &r), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_SP, &sp), UC_ERR_OK);
	ck_assert_uint_eq(sp, STACK_BASE + STACK_SIZE - 64); /* balanced */
	return r;
}

static uint64_t nlog(void)
{
	return r64(PCPU + FTV_PCPU_LOG_HEAD);
}

static uint64_t logv(uint64_t i, uint64_t field)
{
	return r64(LOG + (i % LOG_CAP) * FTV_LOG_SIZE + field);
}

static struct riscv64_ftrace_ctx ctx(void)
{
	struct riscv64_ftrace_ctx c = { .ftrace_caller = sym("ftrace_caller"), .rvc = 1 };

	return c;
}

static struct ftrace_site traced_site(const char *name)
{
	uint64_t f = sym(name);
	struct ftrace_site s = { .func = f, .init_addr = f, .ip = f + 4,
				 .literal = f - 8, .name = name,
				 .kind = FTV_SITE_RISCV_CALL_OPS };
	return s;
}

/* init_nop then make_call(target, literal) with one scheme's verbs. */
static void enable(const struct ftrace_arch *a, struct riscv64_ftrace_ctx *c,
		   const struct ftrace_site *s, uint64_t target, uint64_t lit)
{
	struct plan p;
	struct ftv_err e = { { 0 } };

	plan_init(&p);
	ck_assert_msg(a->init_nop(c, s, OPS_NOP, &p, &e) == 0, "%s", e.msg);
	apply(&p);
	plan_reset(&p);
	ck_assert_msg(a->make_call(c, s, target, lit, &p, &e) == 0, "%s", e.msg);
	apply(&p);
	plan_free(&p);
}

static const struct ftrace_arch *const schemes[2] = {
	&riscv64_ftrace_pair, &riscv64_ftrace_atomic,
};

START_TEST(tracer_gets_ip_parent_and_ops_and_the_function_its_arguments)
{
	const struct ftrace_arch *a = schemes[_i];
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	struct plan p;
	uint64_t fn = s.func;

	ck_assert_uint_eq(call(fn, 3, 4, 5), expect(3, 4, 5));
	ck_assert_uint_eq(nlog(), 0);
	enable(a, &c, &s, c.ftrace_caller, OPS_A);
	ck_assert_uint_eq(call(fn, 11, 0x1234, 9), expect(11, 0x1234, 9));
	ck_assert_uint_eq(nlog(), 1);
	ck_assert_uint_eq(logv(0, FTV_LOG_KIND), FTV_LOG_ENTRY);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), fn + 4);
	ck_assert_uint_eq(logv(0, FTV_LOG_PARENT_IP), sym("ftv_test_after_call"));
	ck_assert_uint_eq(logv(0, FTV_LOG_OPS), OPS_A);
	ck_assert_uint_eq(logv(0, FTV_LOG_FUNC), sym("ftv_tracer_a"));
	/* disabled again: nop ops, NOP */
	plan_init(&p);
	ck_assert_int_eq(a->make_nop(&c, &s, c.ftrace_caller, OPS_NOP, &p, NULL), 0);
	apply(&p);
	plan_free(&p);
	ck_assert_uint_eq(call(fn, 1, 2, 3), expect(1, 2, 3));
	ck_assert_uint_eq(nlog(), 1);
}
END_TEST

START_TEST(direct_ops_returns_into_the_direct_trampoline)
{
	const struct ftrace_arch *a = schemes[_i];
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	uint64_t tramp = sym("ftv_direct_tramp");

	/* the atomic scheme cannot reach it with the JALR: ftrace_caller and
	 * ops->direct_call ("early"); the pair scheme calls it */
	ck_assert(!riscv64_jalr_reaches(s.func, c.ftrace_caller, tramp));
	enable(a, &c, &s, tramp, OPS_DIRECT);
	ck_assert_uint_eq(call(s.func, 21, 22, 23), expect(21, 22, 23));
	ck_assert_uint_eq(nlog(), 1);
	ck_assert_uint_eq(logv(0, FTV_LOG_KIND), FTV_LOG_DIRECT);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), s.func + 4);
	ck_assert_uint_eq(logv(0, FTV_LOG_PARENT_IP), sym("ftv_test_after_call"));
}
END_TEST

START_TEST(list_func_runs_every_ops_and_a_late_direct_call)
{
	const struct ftrace_arch *a = schemes[_i];
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");

	w64(sym("ftv_ops_list"), OPS_A);
	w64(OPS_A + FTV_OPS_NEXT, OPS_LDIR);
	enable(a, &c, &s, c.ftrace_caller, OPS_LIST);
	ck_assert_uint_eq(call(s.func, 7, 8, 9), expect(7, 8, 9));
	ck_assert_uint_eq(nlog(), 2);
	ck_assert_uint_eq(logv(0, FTV_LOG_KIND), FTV_LOG_ENTRY);
	ck_assert_uint_eq(logv(0, FTV_LOG_OPS), OPS_A);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), s.func + 4);
	/* ftv_call_direct_funcs set fregs->direct_tramp: ftrace_caller
	 * restored the registers and went to the trampoline, not the body */
	ck_assert_uint_eq(logv(1, FTV_LOG_KIND), FTV_LOG_DIRECT);
	ck_assert_uint_eq(logv(1, FTV_LOG_IP), s.func + 4);
	ck_assert_uint_eq(logv(1, FTV_LOG_PARENT_IP), sym("ftv_test_after_call"));
}
END_TEST

START_TEST(graph_tracer_sees_entry_and_return_value)
{
	const struct ftrace_arch *a = schemes[_i];
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	uint64_t want = expect(100, 200, 3);

	enable(a, &c, &s, c.ftrace_caller, OPS_GRAPH);
	ck_assert_uint_eq(call(s.func, 100, 200, 3), want);
	ck_assert_uint_eq(nlog(), 2);
	ck_assert_uint_eq(logv(0, FTV_LOG_KIND), FTV_LOG_GRAPH_ENTRY);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), s.func + 4);
	ck_assert_uint_eq(logv(0, FTV_LOG_PARENT_IP), sym("ftv_test_after_call"));
	ck_assert_uint_eq(logv(1, FTV_LOG_KIND), FTV_LOG_GRAPH_RET);
	ck_assert_uint_eq(logv(1, FTV_LOG_PARENT_IP), sym("ftv_test_after_call"));
	ck_assert_uint_eq(logv(1, FTV_LOG_RETVAL), want);
	ck_assert_uint_eq(r64(PCPU + FTV_PCPU_GRAPH_SP), 0);
}
END_TEST

START_TEST(per_ops_trampoline_copy_calls_its_ops)
{
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	uint64_t t0 = sym("ftrace_ops_tramp_template");
	uint64_t len = sym("ftrace_ops_tramp_template_end") - t0;
	uint8_t buf[64];

	ck_assert_uint_le(len, sizeof(buf));
	ck_assert_uint_lt(sym("_end"), TRAMP_COPY); /* free text for the copy */
	ck_assert_int_eq(uc_mem_read(uc, t0, buf, len), UC_ERR_OK);
	ck_assert_int_eq(uc_mem_write(uc, TRAMP_COPY, buf, len), UC_ERR_OK);
	w64(TRAMP_COPY + (sym("ftrace_ops_tramp_template_ops") - t0), OPS_A);
	w64(TRAMP_COPY + (sym("ftrace_ops_tramp_template_body") - t0),
	    sym("ftrace_caller_ops_known"));
	/* the literal holds the list ops: only the copy names OPS_A */
	enable(&riscv64_ftrace_pair, &c, &s, TRAMP_COPY, OPS_LIST);
	ck_assert_uint_eq(call(s.func, 5, 6, 7), expect(5, 6, 7));
	ck_assert_uint_eq(nlog(), 1);
	ck_assert_uint_eq(logv(0, FTV_LOG_OPS), OPS_A);
	ck_assert_uint_eq(logv(0, FTV_LOG_FUNC), sym("ftv_tracer_a"));
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), s.func + 4);
}
END_TEST

START_TEST(nested_traced_calls_report_their_own_parents)
{
	const struct ftrace_arch *a = schemes[_i];
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site outer = traced_site("ftv_test_traced2");
	struct ftrace_site inner = traced_site("ftv_test_traced");

	enable(a, &c, &outer, c.ftrace_caller, OPS_A);
	enable(a, &c, &inner, c.ftrace_caller, OPS_A);
	ck_assert_uint_eq(call(outer.func, 1, 2, 3), expect(3, 1, 2) + 1);
	ck_assert_uint_eq(nlog(), 2);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), outer.func + 4);
	ck_assert_uint_eq(logv(1, FTV_LOG_IP), inner.func + 4);
	/* the inner call returns into ftv_test_traced2's body */
	ck_assert_uint_gt(logv(1, FTV_LOG_PARENT_IP), outer.func + 8);
	ck_assert_uint_lt(logv(1, FTV_LOG_PARENT_IP), outer.func + 0x40);
}
END_TEST

/* Runs the caller until the hart is about to execute the site's second
 * word (it has executed the first), with t0 poisoned beforehand as a
 * caller's temporaries may be. */
static void stop_between_the_words(const struct ftrace_site *s, uint64_t a,
				   uint64_t b, uint64_t c)
{
	uint64_t sp = STACK_BASE + STACK_SIZE - 64, tp = PCPU, pc = 0;
	uint64_t poison = 0x40000000ULL, fn = s->func;

	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_SP, &sp), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_TP, &tp), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_T0, &poison), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A0, &a), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A1, &b), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A2, &c), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_write(uc, UC_RISCV_REG_A3, &fn), UC_ERR_OK);
	ck_assert_int_eq(uc_emu_start(uc, sym("ftv_test_caller"), s->ip, 0, 1000), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_PC, &pc), UC_ERR_OK);
	ck_assert_uint_eq(pc, s->ip);
}

/* The pair hazard's interleaving, run for real: a hart has executed the site's
 * first word when make_call lands (stop_machine parks it there: the
 * stopper preempts it at any instruction boundary). In the pair scheme
 * it executed the old NOP, so the new JALR jumps off t0's stale value; in
 * the atomic scheme it executed the init-time AUIPC, so the new JALR
 * lands in ftrace_caller and the function is traced correctly. */
START_TEST(hart_between_the_words_breaks_pair_but_not_atomic)
{
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	struct plan p;
	uint64_t pc = 0, r = 0;
	uc_err err;

	plan_init(&p);
	/* pair */
	ck_assert_int_eq(riscv64_ftrace_pair.init_nop(&c, &s, OPS_NOP, &p, NULL), 0);
	apply(&p);
	stop_between_the_words(&s, 1, 2, 3);
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_pair.make_call(&c, &s, c.ftrace_caller, OPS_A, &p, NULL), 0);
	apply(&p);
	err = uc_emu_start(uc, s.ip, sym("ftv_test_done"), 0, 1000);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_PC, &pc), UC_ERR_OK);
	ck_assert_msg(err == UC_ERR_FETCH_UNMAPPED, "pair: %s at 0x%llx",
		      uc_strerror(err), (unsigned long long)pc);
	ck_assert_uint_eq(nlog(), 0);

	/* atomic, same interleaving, on a fresh image */
	teardown();
	setup();
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.init_nop(&c, &s, OPS_NOP, &p, NULL), 0);
	apply(&p);
	stop_between_the_words(&s, 1, 2, 3);
	plan_reset(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.make_call(&c, &s, c.ftrace_caller, OPS_A, &p, NULL), 0);
	apply(&p);
	ck_assert_int_eq(uc_emu_start(uc, s.ip, sym("ftv_test_done"), 0, 1000), UC_ERR_OK);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_A0, &r), UC_ERR_OK);
	ck_assert_uint_eq(r, expect(1, 2, 3));
	ck_assert_uint_eq(nlog(), 1);
	ck_assert_uint_eq(logv(0, FTV_LOG_OPS), OPS_A);
	ck_assert_uint_eq(logv(0, FTV_LOG_IP), s.ip);
	plan_free(&p);
}
END_TEST

/* The atomic-rewrite-auipc mutant brings the hazard back: a hart that
 * executed the ftrace_caller AUIPC meets the JALR written for a far
 * target's own AUIPC, and lands neither in ftrace_caller nor there. */
START_TEST(rewrite_auipc_mutant_breaks_a_hart_between_the_words)
{
	struct riscv64_ftrace_ctx c = ctx();
	struct ftrace_site s = traced_site("ftv_test_traced");
	uint64_t tramp = sym("ftv_direct_tramp");
	struct plan p;
	uint64_t r = 0;
	uc_err err;

	c.mutant = RISCV64_MUT_ATOMIC_REWRITE_AUIPC;
	enable(&riscv64_ftrace_atomic, &c, &s, c.ftrace_caller, OPS_A);
	stop_between_the_words(&s, 4, 5, 6);
	plan_init(&p);
	ck_assert_int_eq(riscv64_ftrace_atomic.modify_call(&c, &s, c.ftrace_caller, tramp,
							 OPS_DIRECT, &p, NULL), 0);
	ck_assert_int_eq(find_write(&p, s.func) >= 0, 1); /* the AUIPC, live */
	apply(&p);
	plan_free(&p);
	err = uc_emu_start(uc, s.ip, sym("ftv_test_done"), 0, 2000);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_A0, &r), UC_ERR_OK);
	/* it landed between ftrace_caller and ftv_direct_tramp (in the gap
	 * before the latter) and faulted: neither traced nor run */
	ck_assert_msg(err == UC_ERR_EXCEPTION || err == UC_ERR_FETCH_UNMAPPED,
		      "mutant interleaving: %s", uc_strerror(err));
	ck_assert_uint_eq(nlog(), 0);
	ck_assert_uint_ne(r, expect(4, 5, 6));
}
END_TEST

static void count_insn(uc_engine *u, uint64_t addr, uint32_t size, void *data)
{
	(void)u;
	(void)addr;
	(void)size;
	++*(int *)data;
}

/* ftv_workload_done must keep the hart running in place (the executor
 * parks a CPU there by address): all 50 instructions asked for execute,
 * none of them leaves the loop. */
START_TEST(workload_done_loops_without_halting_the_engine)
{
	uint64_t at = sym("ftv_workload_done"), pc = 0;
	uc_hook h;
	int n = 0;

	ck_assert_int_eq(uc_hook_add(uc, &h, UC_HOOK_CODE, (void *)count_insn, &n,
				     1, 0), UC_ERR_OK);
	ck_assert_int_eq(uc_emu_start(uc, at, 0, 0, 50), UC_ERR_OK);
	ck_assert_int_eq(n, 50);
	ck_assert_int_eq(uc_reg_read(uc, UC_RISCV_REG_PC, &pc), UC_ERR_OK);
	ck_assert_uint_ge(pc, at);
	ck_assert_uint_lt(pc, at + 8);
}
END_TEST

static Suite *riscv64_tramp_suite(void)
{
	Suite *s = suite_create("riscv64_tramp");
	TCase *tc = tcase_create("run");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, tracer_gets_ip_parent_and_ops_and_the_function_its_arguments, 0, 2);
	tcase_add_loop_test(tc, direct_ops_returns_into_the_direct_trampoline, 0, 2);
	tcase_add_loop_test(tc, list_func_runs_every_ops_and_a_late_direct_call, 0, 2);
	tcase_add_loop_test(tc, graph_tracer_sees_entry_and_return_value, 0, 2);
	tcase_add_test(tc, per_ops_trampoline_copy_calls_its_ops);
	tcase_add_loop_test(tc, nested_traced_calls_report_their_own_parents, 0, 2);
	tcase_add_test(tc, hart_between_the_words_breaks_pair_but_not_atomic);
	tcase_add_test(tc, rewrite_auipc_mutant_breaks_a_hart_between_the_words);
	tcase_add_test(tc, workload_done_loops_without_halting_the_engine);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(riscv64_tramp, riscv64_tramp_suite)
