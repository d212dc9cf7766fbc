/* riscv64 in the executor: the engine's registers, the instructions the
 * fetch model reacts to and which ones touch shared state (fine mode), how
 * reports print a word, and the concurrent changes allowed. Which words
 * are fences, loads, stores and branches is read from the classes of the
 * one encoding table (rv_class(), encoders/riscv_table.c, which cites the
 * Unprivileged ISA for each group). */
#include <stdio.h>
#include <unicorn/unicorn.h>

#include "encoders/riscv.h"
#include "executor/exec_model.h"
#include "executor/exec_riscv64.h"

static const int rv_regs[] = {
	UC_RISCV_REG_X0, UC_RISCV_REG_X1, UC_RISCV_REG_X2, UC_RISCV_REG_X3,
	UC_RISCV_REG_X4, UC_RISCV_REG_X5, UC_RISCV_REG_X6, UC_RISCV_REG_X7,
	UC_RISCV_REG_X8, UC_RISCV_REG_X9, UC_RISCV_REG_X10, UC_RISCV_REG_X11,
	UC_RISCV_REG_X12, UC_RISCV_REG_X13, UC_RISCV_REG_X14, UC_RISCV_REG_X15,
	UC_RISCV_REG_X16, UC_RISCV_REG_X17, UC_RISCV_REG_X18, UC_RISCV_REG_X19,
	UC_RISCV_REG_X20, UC_RISCV_REG_X21, UC_RISCV_REG_X22, UC_RISCV_REG_X23,
	UC_RISCV_REG_X24, UC_RISCV_REG_X25, UC_RISCV_REG_X26, UC_RISCV_REG_X27,
	UC_RISCV_REG_X28, UC_RISCV_REG_X29, UC_RISCV_REG_X30, UC_RISCV_REG_X31,
	UC_RISCV_REG_PC,
};

_Static_assert(sizeof(rv_regs) / sizeof(rv_regs[0]) <= EXEC_NREGS,
	       "riscv64 registers");

static enum xsysop rv_sysop(uint32_t w, int *reg)
{
	unsigned cls = rv_class(w);

	*reg = -1;
	if (cls & RV_CL_FENCE_I)
		return XS_FENCE_I;
	/* FENCE pred, succ (bits i o r w of its pred:succ immediate): with
	 * the store buffers of exec_config.cpu_sbuf, ordering earlier stores
	 * before later loads waits for them (like DMB SY), before later
	 * stores only keeps their order (DMB ST); otherwise it orders loads,
	 * which are in order already. */
	if (cls & RV_CL_FENCE) {
		unsigned pred = rv_fence_sets(w) >> 4, succ = rv_fence_sets(w) & 15;

		if ((pred & 1) && (succ & 0xe))
			return XS_DMB;
		if ((pred & 1) && (succ & 1))
			return XS_DMB_ST;
		return XS_DMB_LD;
	}
	return XS_NONE;
}

static int rv_is_cond_branch(uint32_t w)
{
	return (rv_class(w) & RV_CL_COND) != 0;
}

/* Loads, stores, AMOs, fences and cache-block operations, 16- or 32-bit. */
static int rv_is_memory(uint32_t w)
{
	return (rv_class(w) & RV_CL_MEMORY) != 0;
}

/* A 16-bit encoding prints as its 4 hex digits (the parcel that follows it
 * is another instruction). */
static void rv_insn_text(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[96];
	int nb = 4;

	rv_disasm(w, pc, d, sizeof(d), &nb);
	if (nb == 2)
		snprintf(buf, n, "%04x (%s)", w & 0xffffu, d);
	else
		snprintf(buf, n, "%08x (%s)", w, d);
}

/* A watched word whose first half is a 16-bit instruction holds two: the
 * compiler's entry c.nop pairs, "00010001 (c.nop; c.nop)". */
static void rv_word_text(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d0[96], d1[96];
	int nb = 4;

	rv_disasm(w, pc, d0, sizeof(d0), &nb);
	if (nb == 4) {
		snprintf(buf, n, "%08x (%s)", w, d0);
		return;
	}
	rv_disasm(w >> 16, pc + 2, d1, sizeof(d1), &nb);
	if (nb == 2)
		snprintf(buf, n, "%08x (%s; %s)", w, d0, d1);
	else /* a 32-bit instruction starts in the second half */
		snprintf(buf, n, "%08x (%s; ...)", w, d0);
}

/* Ziccif: a naturally aligned 4-byte fetch is single-copy atomic, so a hart
 * fetching a watched word (exec_watch_insn refuses unaligned ones on riscv)
 * sees the whole old or the whole new word, whatever they are. Whether the
 * kernel's scheme only changes the JALR slot (rv_patchable_word_safe) is a
 * property of the sequence, not of the hardware: a mixed AUIPC + JALR is
 * what the pair check reports. */
static int rv_cmodx(uint32_t old, uint32_t new)
{
	(void)old;
	(void)new;
	return 1;
}

/* The all-zero 16-bit parcel is defined illegal (Unprivileged ISA, "Base
 * Instruction-Length Encoding"): poisoned text traps as on arm64 (UDF #0). */
static const char *rv_exception_why(uint32_t w)
{
	return rv_class(w) & RV_CL_ILLEGAL
		       ? "illegal instruction (the all-zero parcel)"
		       : "trap (illegal instruction, ecall or ebreak)";
}

const struct xarch xarch_riscv64 = {
	.arch = FTV_ARCH_RISCV64,
	.uarch = UC_ARCH_RISCV,
	.umode = UC_MODE_RISCV64,
	.regs = rv_regs,
	.nregs = sizeof(rv_regs) / sizeof(rv_regs[0]),
	.pc_reg = 32,
	.sp_reg = 2,     /* psABI: x2 = sp, arguments in x10..x17 = a0..a7 */
	.arg0_reg = 10,
	.zero_reg = 0,   /* x0 is hardwired to zero (Unprivileged ISA 2.1) */
	.flags_reg = -1, /* RISC-V has no condition flags */
	/* With the C extension instructions are 2-byte aligned. */
	.insn_align = 2,
	/* Checked on Unicorn 2.0.1: after an illegal instruction (16- or
	 * 32-bit), pc is left 4 bytes past it. */
	.fault_pc_skew = 4,
	.exit_hook = 0,
	.range_hooks = 1,
	.unaligned_watch = "instruction word not 4-byte aligned: "
			   "Ziccif makes only naturally aligned 4-byte fetches atomic, "
			   "a 2-aligned word may be fetched in two halves",
	.sysop = rv_sysop,
	.is_memory = rv_is_memory,
	.is_cond_branch = rv_is_cond_branch,
	.memread = rv_memread,
	.index_zero_reg = -1,
	.insn = rv_insn_text,
	.word = rv_word_text,
	.cmodx_safe = rv_cmodx,
	.exception_why = rv_exception_why,
	.fault_pc = xrv_fault_pc,
	/* flush_icache_all(): every hart executes FENCE.I. */
	.sync_all = xm_flush_icache_all,
	.ctx_new = xrv_pair_new,
	.ctx_free = xrv_pair_free,
	.ctx_reset = xrv_pair_reset,
	.ctx_words = xrv_pair_words,
	.fetched = xrv_pair_fetched,
};
