// __patchable_function_entries entries the kernel would reject or skip:
// a zero entry, one pointing into data, one into the middle of a
// function, and CALL_OPS / =2 sites whose words are not the NOPs GCC
// emits. One good CALL_OPS site for contrast.
	.text
	.p2align 3
	nop
	nop
	.globl	good_fn
	.type	good_fn, %function
good_fn:
	nop
	nop
	ret
	.size	good_fn, . - good_fn

	.p2align 3
	nop
	nop
	.globl	bad_fn
	.type	bad_fn, %function
bad_fn:
	nop
	mov	x0, #1			// not the second NOP
	ret
	.size	bad_fn, . - bad_fn

	.globl	args_fn
	.type	args_fn, %function
args_fn:
	add	x0, x0, #1		// =2 site with no NOPs
	nop
	ret
	.size	args_fn, . - args_fn

	.data
	.globl	some_data
some_data:
	.quad	0

	.section __patchable_function_entries, "aw"
	.p2align 3
	.quad	good_fn - 8
	.quad	0
	.quad	some_data
	.quad	good_fn + 4
	.quad	bad_fn - 8
	.quad	args_fn
