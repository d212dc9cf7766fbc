/*
 * ftrace_caller for RISC-V CALL_OPS sites (-fpatchable-function-entry=8,4
 * with RVC, 4,2 without), shared by the pair scheme (Linux < 6.16) and the
 * atomic scheme (Linux 6.16, arch/riscv/kernel/mcount-dyn.S). A site looks
 * like
 *
 *     func-8: .quad ops                (8-byte aligned)
 *     func:   auipc t0, hi             (atomic: written once at init)
 *     func+4: jalr  t0, lo(t0)         <- nop when disabled
 *
 * so on entry t0 = func+8 (the JALR's link: where the function goes on),
 * ra = the traced function's own return address (the call site did not
 * touch it), and the literal is at t0-16.
 *
 * Direct calls (DYNAMIC_FTRACE_WITH_DIRECT_CALLS): when the ops in the
 * literal has a direct_call, jump straight to it with every register
 * untouched ("early", as 6.16 does before saving the ABI registers); when a
 * tracer such as the list func asks for one through fregs->direct_tramp, go
 * there after restoring the registers instead of returning into the
 * function ("late"). A direct trampoline is entered with t0 = func+8 and ra
 * = the traced function's return address, and resumes the function with
 * `jr t0`.
 *
 * t0-t2 are free here: the call sits at the function's entry, before the
 * body uses any temporary register (psABI: t0-t6 are caller-saved).
 * 6.16 reads the literal twice (once for direct_call, once for func); this
 * reads it once and keeps the ops in t1, which per-ops trampolines also
 * use to enter at ftrace_caller_ops_known.
 */
#include "patcher/ftrace_abi.h"

/* fregs, then one frame record (fp, ra) above it for unwinders; 16-byte
 * aligned (psABI 2.1: sp is 16-byte aligned at calls). */
#define FRAME_SIZE (FTV_FREGS_SIZE + 16)

	.option	norelax
	.text
	.balign	8
	.globl	ftrace_caller
	.type	ftrace_caller, @function
ftrace_caller:
	ld	t1, -16(t0)			/* the site's ops literal */
	/* From here until ops->func is loaded the hart holds a pointer to
	 * the ops: the window in which freeing it without a quiescent point
	 * bites. */
	.globl	ftrace_caller_op_loaded
ftrace_caller_op_loaded:
	ld	t2, FTV_OPS_DIRECT_CALL(t1)
	bnez	t2, ftrace_caller_direct	/* one direct ops: no regs */

	.globl	ftrace_caller_ops_known
ftrace_caller_ops_known:			/* t1 = ops */
	addi	sp, sp, -FRAME_SIZE
	sd	a0, FTV_RV_FREGS_A0 + 0x00(sp)
	sd	a1, FTV_RV_FREGS_A0 + 0x08(sp)
	sd	a2, FTV_RV_FREGS_A0 + 0x10(sp)
	sd	a3, FTV_RV_FREGS_A0 + 0x18(sp)
	sd	a4, FTV_RV_FREGS_A0 + 0x20(sp)
	sd	a5, FTV_RV_FREGS_A0 + 0x28(sp)
	sd	a6, FTV_RV_FREGS_A0 + 0x30(sp)
	sd	a7, FTV_RV_FREGS_A0 + 0x38(sp)
	sd	zero, FTV_FREGS_DIRECT_TRAMP(sp)
	sd	s0, FTV_RV_FREGS_S0(sp)
	sd	ra, FTV_RV_FREGS_RA(sp)
	addi	t2, sp, FRAME_SIZE
	sd	t2, FTV_FREGS_SP(sp)		/* the traced function's sp */
	sd	t0, FTV_RV_FREGS_T0(sp)
	/* frame record: (caller's fp, the traced function) below our CFA */
	sd	s0, FTV_FREGS_SIZE(sp)
	sd	t0, FTV_FREGS_SIZE + 8(sp)
	addi	s0, sp, FRAME_SIZE

	addi	a0, t0, -4			/* ip: the site's JALR (rec->ip) */
	mv	a1, ra				/* parent_ip */
	mv	a2, t1				/* op */
	mv	a3, sp				/* fregs */
	ld	t2, FTV_OPS_FUNC(t1)
	jalr	t2				/* op->func(ip, parent_ip, op, fregs) */

	ld	a0, FTV_RV_FREGS_A0 + 0x00(sp)
	ld	a1, FTV_RV_FREGS_A0 + 0x08(sp)
	ld	a2, FTV_RV_FREGS_A0 + 0x10(sp)
	ld	a3, FTV_RV_FREGS_A0 + 0x18(sp)
	ld	a4, FTV_RV_FREGS_A0 + 0x20(sp)
	ld	a5, FTV_RV_FREGS_A0 + 0x28(sp)
	ld	a6, FTV_RV_FREGS_A0 + 0x30(sp)
	ld	a7, FTV_RV_FREGS_A0 + 0x38(sp)
	ld	s0, FTV_RV_FREGS_S0(sp)
	ld	ra, FTV_RV_FREGS_RA(sp)		/* may now be return_to_handler */
	ld	t0, FTV_RV_FREGS_T0(sp)
	ld	t2, FTV_FREGS_DIRECT_TRAMP(sp)
	addi	sp, sp, FRAME_SIZE
	bnez	t2, ftrace_caller_direct	/* late: asked for by a tracer */
	jr	t0

	.globl	ftrace_caller_direct
ftrace_caller_direct:
	jr	t2
	.size	ftrace_caller, . - ftrace_caller

/* The func of ftrace_nop_ops' neighbours and the default tracer. */
	.globl	ftrace_stub
	.type	ftrace_stub, @function
ftrace_stub:
	ret
	.size	ftrace_stub, . - ftrace_stub

/* The direct trampoline that does nothing: back into the traced function.
 * Kept next to ftrace_caller, within the atomic scheme's JALR reach. */
	.globl	ftrace_stub_direct_tramp
	.type	ftrace_stub_direct_tramp, @function
ftrace_stub_direct_tramp:
	jr	t0
	.size	ftrace_stub_direct_tramp, . - ftrace_stub_direct_tramp

	.data
	.balign	8
	.globl	function_trace_op
function_trace_op:
	.quad	0
	.size	function_trace_op, 8
