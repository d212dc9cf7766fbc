# Absolute symbols for relocs.s (HI20/LO12 need a value that is a
# sign-extended 32-bit quantity; nothing the sim places is).
	.globl	abs_val
	.set	abs_val, 0x12345678
	.globl	abs_neg
	.set	abs_neg, -0x7ffff9ab
