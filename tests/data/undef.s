// Calls two symbols nobody defines, and one weak undefined (value 0).
	.text
	.globl	undef_code
	.weak	maybe_there
	.type	undef_code, %function
undef_code:
	bl	missing_one
	bl	missing_two
	bl	missing_one
	ret
	.size	undef_code, . - undef_code
	.data
	.globl	undef_weak_ptr
undef_weak_ptr:
	.quad	maybe_there		// ELF: an unresolved weak symbol is 0
