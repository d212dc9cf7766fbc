/* arm64 in the executor: the engine's registers, the handful of system
 * instructions the fetch model reacts to when a CPU executes them
 * (barriers, cache maintenance by VA, ISB), which words access memory, how
 * reports print a word, and which concurrent changes of a word are allowed.
 * The encodings come from the one table in encoders/a64_table.h (a64_is_<id>
 * tests its mask/value lines, a64_in_ldst its top-level group), not from
 * masks here. */
#include <stdio.h>
#include <unicorn/unicorn.h>

#include "encoders/a64.h"
#include "executor/exec_arch.h"
#include "executor/exec_engine.h"
#include "executor/exec_model.h"

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
	UC_ARM64_REG_SP_EL0,
};

_Static_assert(sizeof(a64_regs) / sizeof(a64_regs[0]) <= EXEC_NREGS,
	       "arm64 registers");

static enum xsysop a64_sysop(uint32_t w, int *reg)
{
	struct a64_insn in;

	*reg = -1;
	/* The whole barrier classes by CRm (Arm ARM C6.2.134/90/88): every
	 * ISB option is an ISB, and DSB's CRm 0000/0100 (SSBB/PSSBB, which
	 * a64_decode declines as not a DSB) are treated as a DSB here too,
	 * the conservative reading: they drain at least what a DSB drains. */
	if (a64_is_isb(w))
		return XS_ISB;
	if (a64_is_eret(w))
		return XS_ERET;
	if (a64_is_ic_iallu(w))
		return XS_IC_ALL;
	/* CRm's access types (C6.2.90): xx01 loads, xx10 stores, otherwise
	 * all accesses (herd's dsb.full, dmb.full) */
	if (a64_is_dsb(w))
		return ((w >> 8) & 3) == 1 ? XS_DSB_LD
		       : ((w >> 8) & 3) == 2 ? XS_DSB_ST : XS_DSB;
	if (a64_is_dmb(w))
		return ((w >> 8) & 3) == 1 ? XS_DMB_LD
		       : ((w >> 8) & 3) == 2 ? XS_DMB_ST : XS_DMB;
	/* STLR: a Store-Release is observed after every earlier load and
	 * store of its PE (Arm ARM B2.3.8, herd's aarch64.cat `po; [L]` in
	 * bob). Loads run in program order here (a litmus test's load of a
	 * watched word may be satisfied early: xm_text_load_early, which
	 * cannot move it before a point it may not pass, this STLR not
	 * being one), so what is left is DMB ST's: the earlier stores leave
	 * the store buffer first. */
	if (a64_is_stlr(w))
		return XS_DMB_ST;
	/* LDAR: a Load-Acquire is observed before every later load and
	 * store of its PE (Arm ARM B2.3.7, herd's `[A]; po` in bob): later
	 * loads are ordered after it, as after a DMB LD. */
	if (a64_is_ldar(w))
		return XS_DMB_LD;
	/* DC CVAU, DC CVAC and DC CIVAC all clean to at least the PoU (the
	 * PoC is at or beyond it); IC IVAU invalidates to the PoU (Arm ARM
	 * C5.3). Every Xt is canonical, so a64_decode names it; Xt = 31 is
	 * XZR, not sp (register 31 of exec_cpu_set_reg). */
	if (a64_is_ic_ivau(w) || a64_is_dc_cvau(w) || a64_is_dc_cvac(w) ||
	    a64_is_dc_civac(w)) {
		if (a64_decode(w, 0, &in))
			return XS_NONE;
		*reg = in.rd == 31 ? -1 : (int)in.rd;
		return in.id == A64_IC_IVAU ? XS_IC_IVAU : XS_DC_CVAU;
	}
	return XS_NONE;
}

static int a64_is_memory(uint32_t w)
{
	int reg;

	/* Loads and stores (C4.1 op0 = x1x0), and the barriers and cache
	 * maintenance the model acts on. */
	if (a64_in_ldst(w))
		return 1;
	return a64_sysop(w, &reg) != XS_NONE;
}

static int a64_is_cond_branch(uint32_t w)
{
	return a64_is_b_cond(w) || a64_is_cbz(w) || a64_is_cbnz(w) ||
	       a64_is_tbz(w) || a64_is_tbnz(w);
}

static void a64_insn_text(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[A64_TEXT_MAX];

	if (a64_disasm(w, pc, d, sizeof(d)) > 0)
		snprintf(buf, n, "%08x (%s)", w, d);
	else
		snprintf(buf, n, "%08x", w);
}

/* 1: both words are on the Arm ARM B2.2.5 list, 0: not. */
static int a64_cmodx(uint32_t old, uint32_t new)
{
	return a64_cmodx_safe(old, new) ? 1 : 0;
}

/* An undefined instruction (Arm ARM C6.2.387 UDF, or an unallocated
 * encoding): what Unicorn raises UC_ERR_EXCEPTION for, other than the
 * exception-generating instructions (SVC, HVC, SMC, BRK). */
static int a64_is_undef(uint32_t w)
{
	struct a64_insn in;

	if (a64_decode(w, 0, &in))
		return a64_lookup(w) == A64_UNKNOWN;
	return in.id == A64_UDF;
}

/* Taking the exception at EL1 (Arm ARM D1.10 "Exception entry"): the
 * preferred return address of an undefined instruction is the instruction
 * itself (ELR_EL1), the PSTATE at the time goes to SPSR_EL1 (so that ERET
 * comes back to EL1 as it was), and the CPU continues at the handler. */
static void a64_take_exception(struct xengine *e, unsigned cpu, uint64_t pc,
			       uint64_t handler)
{
	uc_arm64_cp_reg spsr = { .crn = 4, .crm = 0, .op0 = 3, .op1 = 0,
				 .op2 = 0 };
	uint64_t pstate = 0;

	xe_uc_reg(e, cpu, UC_ARM64_REG_PSTATE, &pstate, 0);
	spsr.val = pstate;
	xe_uc_reg(e, cpu, UC_ARM64_REG_CP_REG, &spsr, 1);
	xe_uc_reg(e, cpu, UC_ARM64_REG_ELR_EL1, &pc, 1);
	xe_uc_reg(e, cpu, UC_ARM64_REG_PC, &handler, 1);
}

const struct xarch xarch_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.uarch = UC_ARCH_ARM64,
	.umode = UC_MODE_ARM,
	.regs = a64_regs,
	.nregs = sizeof(a64_regs) / sizeof(a64_regs[0]),
	.pc_reg = 32,
	.sp_reg = 31,
	.arg0_reg = 0,
	.zero_reg = -1,
	.flags_reg = UC_ARM64_REG_NZCV,
	.insn_align = 4,
	.fault_pc_skew = 0,
	.exit_hook = 1,
	.range_hooks = XE_RANGE_HOOKS,
	.unaligned_watch = "instruction not 4-byte aligned",
	.sysop = a64_sysop,
	.is_memory = a64_is_memory,
	.is_cond_branch = a64_is_cond_branch,
	.memread = a64_memread,
	.index_zero_reg = 31,
	.insn = a64_insn_text,
	.word = a64_insn_text,
	.cmodx_safe = a64_cmodx,
	.exception_why = NULL,
	.fault_pc = NULL,
	.is_undef = a64_is_undef,
	.take_exception = a64_take_exception,
	/* The IPI's exception return is a context synchronisation event on
	 * every CPU: each sees what IC IVAU has completed for. */
	.sync_all = xm_context_sync_all,
};
