/*
 * A direct trampoline standing for what BPF attaches with
 * register_ftrace_direct: entered with x9 = the traced function's return
 * address and x30 = its body (the BL's address + 4); it logs a
 * FTV_LOG_DIRECT record and goes back to the body with x30 = x9, keeping the
 * argument registers intact.
 */
	.text
	.balign	8
	.globl	ftv_direct_tramp
	.type	ftv_direct_tramp, %function
ftv_direct_tramp:
	bti	c
	sub	sp, sp, #96
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x8, x9, [sp, #64]
	stp	x29, x30, [sp, #80]
	sub	x0, x30, #4			/* ip */
	mov	x1, x9				/* parent_ip */
	bl	ftv_direct_log
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x8, x9, [sp, #64]
	ldp	x29, x30, [sp, #80]
	add	sp, sp, #96
	mov	x10, x30
	mov	x30, x9
	ret	x10
	.size	ftv_direct_tramp, . - ftv_direct_tramp
