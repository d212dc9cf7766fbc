/*
 * return_to_handler: a traced function whose return address the graph
 * tracer replaced (ftv_prepare_return) returns here. Save the return value
 * registers, let ftv_return_to_handler log the exit and give back the real
 * return address, and go there with the values intact.
 */
	.text
	.balign	8
	.globl	return_to_handler
	.type	return_to_handler, %function
return_to_handler:
	sub	sp, sp, #80
	stp	x0, x1, [sp, #0]
	stp	x2, x3, [sp, #16]
	stp	x4, x5, [sp, #32]
	stp	x6, x7, [sp, #48]
	stp	x29, x8, [sp, #64]
	mov	x1, x29				/* the caller's frame, for checks */
	bl	ftv_return_to_handler		/* x0 = return value in, address out */
	mov	x30, x0
	ldp	x0, x1, [sp, #0]
	ldp	x2, x3, [sp, #16]
	ldp	x4, x5, [sp, #32]
	ldp	x6, x7, [sp, #48]
	ldp	x29, x8, [sp, #64]
	add	sp, sp, #80
	ret
	.size	return_to_handler, . - return_to_handler
