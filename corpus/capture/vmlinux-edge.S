/* Callsites the compiler does not produce for today's arm64 kernels, laid
 * out by hand for ftv capture's tests: each function's entry goes into
 * __patchable_function_entries exactly as the compiler would put it. */
#define NOP	hint #0
#define BTI_C	hint #34

	.macro	entry sym
	.pushsection __patchable_function_entries, "aw"
	.p2align 3
	.quad	\sym
	.popsection
	.endm

	.text
	.p2align 4
	/* CALL_OPS pre-function NOPs at 4 mod 8: the kernel's
	 * ftrace_call_adjust() warns "Misaligned patch-site" and skips it. */
	NOP
1:	NOP
	NOP
	.globl	ftv_misaligned
	.type	ftv_misaligned, %function
ftv_misaligned:
	NOP
	NOP
	ret
	.size	ftv_misaligned, . - ftv_misaligned
	entry	1b

	/* -fpatchable-function-entry=2 (WITH_ARGS only): NOP NOP at entry. */
	.p2align 3
	.globl	ftv_args
	.type	ftv_args, %function
ftv_args:
	NOP
	NOP
	ret
	.size	ftv_args, . - ftv_args
	entry	ftv_args

	/* The same after a BTI C landing pad: the entry is func+4. */
	.p2align 3
	.globl	ftv_args_bti
	.type	ftv_args_bti, %function
ftv_args_bti:
	BTI_C
2:	NOP
	NOP
	ret
	.size	ftv_args_bti, . - ftv_args_bti
	entry	2b

	/* -pg: BL _mcount after the frame record is set up. */
	.p2align 3
	.type	_mcount, %function
_mcount:
	ret
	.size	_mcount, . - _mcount
	.globl	ftv_pg
	.type	ftv_pg, %function
ftv_pg:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
3:	bl	_mcount
	ldp	x29, x30, [sp], #16
	ret
	.size	ftv_pg, . - ftv_pg
	entry	3b

	/* NOPs no function symbol covers. */
	.p2align 3
4:	NOP
	NOP
	NOP
	NOP
	entry	4b

	/* A null slot, as scripts/sorttable leaves for weak functions. */
	.pushsection __patchable_function_entries, "aw"
	.quad	0
	.popsection
