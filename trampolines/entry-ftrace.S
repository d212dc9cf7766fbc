/*
 * ftrace_caller for patch sites made with -fpatchable-function-entry, in two
 * flavours chosen when assembling:
 *
 *   FTV_CALL_OPS (arm64 DYNAMIC_FTRACE_WITH_CALL_OPS, Linux 6.3): every
 *   site carries an 8-byte ops literal at func-8; the site looks like
 *
 *       func-8: .quad ops        (8-byte aligned)
 *       func:   [bti c]
 *               mov x9, x30      (written once by ftrace_init_nop)
 *               bl  ftrace_caller  <- nop when disabled
 *
 *   so on entry x30 = the BL's address + 4 (the function body), x9 = the
 *   traced function's own return address. Aligning x30 down to 8 lands on
 *   func or func+8 (with BTI), in both cases 16 bytes above the literal.
 *
 *   without FTV_CALL_OPS (DYNAMIC_FTRACE_WITH_ARGS): there is no literal; the
 *   shared caller calls whatever the patched `ftrace_call` site branches to,
 *   with function_trace_op as the ops (ftrace_update_ftrace_func). A
 *   per-ops trampoline (ops-tramp.S) enters at ftrace_caller_ops_known with
 *   its own ops in x11, so that ops' func is called directly (FTRACE_FL_TRAMP).
 *
 * Direct calls (DYNAMIC_FTRACE_WITH_DIRECT_CALLS): when the recovered ops
 * has a direct_call, branch straight to it with the registers untouched
 * ("early"); when a tracer such as the list func asks for one through
 * fregs->direct_tramp, go there after restoring the registers ("late").
 * A direct trampoline is entered with x9 = the traced function's return
 * address and x30 = the traced function's body, and returns to x30 with
 * x30 restored from x9.
 *
 * x9-x17 are free here: the patched BL is at the function's entry, before
 * the body uses any temporary register (AAPCS64 makes them caller-saved).
 */
#include "patcher/ftrace_abi.h"

#define FRAME_SIZE (FTV_FREGS_SIZE + 32) /* fregs + two frame records */

	.text
	.balign	8
	.globl	ftrace_caller
	.type	ftrace_caller, %function
ftrace_caller:
	bti	c
#ifdef FTV_CALL_OPS
	bic	x11, x30, #7
	ldur	x11, [x11, #-16]		/* the site's ops literal */
	/* From here until ops->func is loaded the CPU holds a pointer to the
	 * ops: the window in which freeing it without a quiescent point
	 * bites. ftv's executor may preempt the CPU at this label. */
	.globl	ftrace_caller_op_loaded
ftrace_caller_op_loaded:
	ldr	x17, [x11, #FTV_OPS_DIRECT_CALL]
	cbnz	x17, ftrace_caller_direct	/* one direct ops: no regs */
#else
	mov	x11, xzr			/* no per-site ops */
#endif

	.globl	ftrace_caller_ops_known
ftrace_caller_ops_known:
	mov	x10, sp				/* the traced function's sp */
	sub	sp, sp, #FRAME_SIZE
	stp	x0, x1, [sp, #FTV_FREGS_X0]
	stp	x2, x3, [sp, #FTV_FREGS_X0 + 0x10]
	stp	x4, x5, [sp, #FTV_FREGS_X0 + 0x20]
	stp	x6, x7, [sp, #FTV_FREGS_X0 + 0x30]
	str	x8, [sp, #FTV_FREGS_X0 + 0x40]
	str	xzr, [sp, #FTV_FREGS_DIRECT_TRAMP]
	str	x29, [sp, #FTV_FREGS_FP]
	str	x9, [sp, #FTV_FREGS_LR]
	str	x10, [sp, #FTV_FREGS_SP]
	str	x30, [sp, #FTV_FREGS_PC]
	/* frame records: the traced function's, then ours, for unwinders */
	stp	x29, x9, [sp, #FTV_FREGS_SIZE + 16]
	add	x29, sp, #FTV_FREGS_SIZE + 16
	stp	x29, x30, [sp, #FTV_FREGS_SIZE]
	add	x29, sp, #FTV_FREGS_SIZE

	sub	x0, x30, #4			/* ip: the patched BL */
	mov	x1, x9				/* parent_ip */
	mov	x3, sp				/* fregs */
	cbz	x11, 1f
	mov	x2, x11				/* op */
	ldr	x4, [x2, #FTV_OPS_FUNC]
	blr	x4				/* op->func(ip, parent_ip, op, fregs) */
	b	2f
1:	adrp	x2, function_trace_op
	ldr	x2, [x2, #:lo12:function_trace_op]
	.globl	ftrace_call
ftrace_call:					/* patched: bl <tracer func> */
	bl	ftrace_stub
2:
	ldp	x0, x1, [sp, #FTV_FREGS_X0]
	ldp	x2, x3, [sp, #FTV_FREGS_X0 + 0x10]
	ldp	x4, x5, [sp, #FTV_FREGS_X0 + 0x20]
	ldp	x6, x7, [sp, #FTV_FREGS_X0 + 0x30]
	ldr	x8, [sp, #FTV_FREGS_X0 + 0x40]
	ldr	x29, [sp, #FTV_FREGS_FP]
	ldr	x10, [sp, #FTV_FREGS_SP]
	ldr	x17, [sp, #FTV_FREGS_DIRECT_TRAMP]
	cbnz	x17, ftrace_caller_direct_late
	ldr	x30, [sp, #FTV_FREGS_LR]	/* may now be return_to_handler */
	ldr	x9, [sp, #FTV_FREGS_PC]
	mov	sp, x10
	ret	x9

ftrace_caller_direct_late:
	ldr	x9, [sp, #FTV_FREGS_LR]
	ldr	x30, [sp, #FTV_FREGS_PC]
	mov	sp, x10
	.globl	ftrace_caller_direct
ftrace_caller_direct:
	br	x17
	.size	ftrace_caller, . - ftrace_caller

/* The func of ftrace_nop_ops and the default ftrace_call target. */
	.globl	ftrace_stub
	.type	ftrace_stub, %function
ftrace_stub:
	bti	c
	ret
	.size	ftrace_stub, . - ftrace_stub

/* The direct trampoline that does nothing: back to the traced function. */
	.globl	ftrace_stub_direct_tramp
	.type	ftrace_stub_direct_tramp, %function
ftrace_stub_direct_tramp:
	bti	c
	mov	x10, x30
	mov	x30, x9
	ret	x10
	.size	ftrace_stub_direct_tramp, . - ftrace_stub_direct_tramp

	.data
	.balign	8
	.globl	function_trace_op
function_trace_op:
	.quad	0
	.size	function_trace_op, 8
