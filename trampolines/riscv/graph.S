/*
 * return_to_handler: a traced function whose return address the graph
 * tracer replaced (ftv_prepare_return rewrote fregs->ra, which
 * ftrace_caller restored into ra) returns here. Keep the return values
 * (a0, a1), let ftv_return_to_handler log the exit and give back the real
 * return address, and go there with the values intact.
 */
	.option	norelax
	.text
	.balign	8
	.globl	return_to_handler
	.type	return_to_handler, @function
return_to_handler:
	addi	sp, sp, -32
	sd	a0, 0(sp)
	sd	a1, 8(sp)
	sd	s0, 16(sp)
	mv	a1, s0				/* the caller's frame, for checks */
	call	ftv_return_to_handler		/* a0 = return value in, address out */
	mv	ra, a0
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	ld	s0, 16(sp)
	addi	sp, sp, 32
	ret
	.size	return_to_handler, . - return_to_handler
