/*
 * The template of a per-ops trampoline (FTRACE_FL_TRAMP): ftrace
 * copies [ftrace_ops_tramp_template, ftrace_ops_tramp_template_end) into
 * fresh executable memory, fills the two literals, and points the sites
 * whose only ops is this one at the copy. The copy calls its ops' func
 * directly instead of going through the list func. Position independent:
 * it reaches the shared body through a literal, never a relative branch.
 */
	.text
	.balign	8
	.globl	ftrace_ops_tramp_template
	.type	ftrace_ops_tramp_template, %function
ftrace_ops_tramp_template:
	bti	c
	ldr	x11, ftrace_ops_tramp_template_ops
	ldr	x16, ftrace_ops_tramp_template_body
	br	x16
	.balign	8
	.globl	ftrace_ops_tramp_template_ops
ftrace_ops_tramp_template_ops:			/* this trampoline's ops */
	.quad	0
	.globl	ftrace_ops_tramp_template_body
ftrace_ops_tramp_template_body:			/* ftrace_caller_ops_known */
	.quad	0
	.globl	ftrace_ops_tramp_template_end
ftrace_ops_tramp_template_end:
	.size	ftrace_ops_tramp_template, . - ftrace_ops_tramp_template
