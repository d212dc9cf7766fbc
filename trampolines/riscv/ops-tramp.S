/*
 * The template of a per-ops trampoline (FTRACE_FL_TRAMP), RISC-V
 * flavour: ftrace copies [ftrace_ops_tramp_template,
 * ftrace_ops_tramp_template_end) into fresh executable memory, fills the
 * two literals, and points the sites whose only ops is this one at the
 * copy. Entered like ftrace_caller (t0 = func+8, ra = parent), it loads its
 * ops into t1 and goes on at ftrace_caller_ops_known. Position
 * independent: it finds its literals with AUIPC and reaches the shared
 * body through one, never a relative branch.
 */
	.option	norelax
	.option	norvc
	.text
	.balign	8
	.globl	ftrace_ops_tramp_template
	.type	ftrace_ops_tramp_template, @function
ftrace_ops_tramp_template:
	auipc	t2, 0
	ld	t1, 16(t2)			/* ftrace_ops_tramp_template_ops */
	ld	t2, 24(t2)			/* ftrace_ops_tramp_template_body */
	jr	t2
	.globl	ftrace_ops_tramp_template_ops
ftrace_ops_tramp_template_ops:			/* this trampoline's ops */
	.quad	0
	.globl	ftrace_ops_tramp_template_body
ftrace_ops_tramp_template_body:			/* ftrace_caller_ops_known */
	.quad	0
	.globl	ftrace_ops_tramp_template_end
ftrace_ops_tramp_template_end:
	.size	ftrace_ops_tramp_template, . - ftrace_ops_tramp_template
	/* the literals' offsets above are fixed: 4 uncompressed words */
	.if	ftrace_ops_tramp_template_ops - ftrace_ops_tramp_template - 16
	.error	"ops literal not at template + 16"
	.endif
