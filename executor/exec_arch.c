/* The per-architecture table of the executor: how to open an engine, the
 * register numbering of exec_cpu_set_reg/exec_cpu_reg, which instructions
 * the fetch model acts on, how reports print a word and which concurrent
 * changes of a word are allowed. Everything else (the fetch model, the
 * scheduler, plans) is shared. */
#include "executor/exec_int.h"

static const int a64_regs[] = {
	UC_ARM64_REG_X0, UC_ARM64_REG_X1, UC_ARM64_REG_X2, UC_ARM64_REG_X3,
	UC_ARM64_REG_X4, UC_ARM64_REG_X5, UC_ARM64_REG_X6, UC_ARM64_REG_X7,
	UC_ARM64_REG_X8, UC_ARM64_REG_X9, UC_ARM64_REG_X10, UC_ARM64_REG_X11,
	UC_ARM64_REG_X12, UC_ARM64_REG_X13, UC_ARM64_REG_X14, UC_ARM64_REG_X15,
	UC_ARM64_REG_X16, UC_ARM64_REG_X17, UC_ARM64_REG_X18, UC_ARM64_REG_X19,
	UC_ARM64_REG_X20, UC_ARM64_REG_X21, UC_ARM64_REG_X22, UC_ARM64_REG_X23,
	UC_ARM64_REG_X24, UC_ARM64_REG_X25, UC_ARM64_REG_X26, UC_ARM64_REG_X27,
	UC_ARM64_REG_X28, UC_ARM64_REG_X29, UC_ARM64_REG_X30, UC_ARM64_REG_SP,
	UC_ARM64_REG_PC,
	UC_ARM64_REG_TPIDR_EL1,
};

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

_Static_assert(sizeof(a64_regs) / sizeof(a64_regs[0]) <= EXEC_NREGS,
	       "arm64 registers");
_Static_assert(sizeof(rv_regs) / sizeof(rv_regs[0]) <= EXEC_NREGS,
	       "riscv64 registers");

static void a64_reset_flags(uc_engine *uc)
{
	uint64_t z = 0;

	uc_reg_write(uc, UC_ARM64_REG_NZCV, &z);
}

static const struct xarch xarch_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.uarch = UC_ARCH_ARM64,
	.umode = UC_MODE_ARM,
	.regs = a64_regs,
	.nregs = sizeof(a64_regs) / sizeof(a64_regs[0]),
	.pc_reg = 32,
	.sp_reg = 31,
	.arg0_reg = 0,
	.zero_reg = -1,
	.insn_align = 4,
	.fault_pc_skew = 0,
	.sysop = xsysop_a64_decode,
	.is_memory = xsysop_a64_is_memory,
	.insn = xr_a64_insn,
	.word = xr_a64_insn,
	.cmodx_safe = xr_a64_cmodx_safe,
	.reset_flags = a64_reset_flags,
};

static const struct xarch xarch_riscv64 = {
	.arch = FTV_ARCH_RISCV64,
	.uarch = UC_ARCH_RISCV,
	.umode = UC_MODE_RISCV64,
	.regs = rv_regs,
	.nregs = sizeof(rv_regs) / sizeof(rv_regs[0]),
	.pc_reg = 32,
	.sp_reg = 2,     /* psABI: x2 = sp, arguments in x10..x17 = a0..a7 */
	.arg0_reg = 10,
	.zero_reg = 0,   /* x0 is hardwired to zero (Unprivileged ISA 2.1) */
	/* With the C extension instructions are 2-byte aligned. */
	.insn_align = 2,
	/* Checked on Unicorn 2.0.1: after an illegal instruction (16- or
	 * 32-bit), pc is left 4 bytes past it. */
	.fault_pc_skew = 4,
	.sysop = xsysop_rv_decode,
	.is_memory = xsysop_rv_is_memory,
	.insn = xr_rv_insn,
	.word = xr_rv_word,
	.cmodx_safe = xr_rv_cmodx_safe,
	.reset_flags = NULL, /* RISC-V has no condition flags */
};

const struct xarch *xarch_get(enum ftv_arch a)
{
	switch (a) {
	case FTV_ARCH_ARM64:
		return &xarch_arm64;
	case FTV_ARCH_RISCV64:
		return &xarch_riscv64;
	}
	return NULL;
}
