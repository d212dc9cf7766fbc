/*
 * The caller for tests/test_riscv64_tramp.c: entered with a0-a2 = the
 * arguments and a3 = the function to call; calls it like compiled code
 * does (jalr ra), keeps the result in a0 and stops at ftv_test_done. The
 * traced function's parent_ip is therefore ftv_test_after_call.
 */
	.option	norelax
	.text
	.globl	ftv_test_caller
	.type	ftv_test_caller, @function
ftv_test_caller:
	addi	sp, sp, -16
	sd	ra, 8(sp)
	jalr	a3
	.globl	ftv_test_after_call
ftv_test_after_call:
	ld	ra, 8(sp)
	addi	sp, sp, 16
	.globl	ftv_test_done
ftv_test_done:
	j	ftv_test_done
	.size	ftv_test_caller, . - ftv_test_caller
