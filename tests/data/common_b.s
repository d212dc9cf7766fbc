	.comm	shared_buf, 64, 32
	.data
	.globl	ref_b
ref_b:	.quad	shared_buf
