// A COMMON symbol (as with -fcommon) shared with common_b.s, which asks
// for more size and alignment: the linker merges them (largest wins).
	.comm	shared_buf, 24, 8
	.data
	.globl	ref_a
ref_a:	.quad	shared_buf
