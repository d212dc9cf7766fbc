/*
 * The 2014 arm64 dynamic ftrace scheme (Linux 3.16): GCC's -pg puts
 *
 *       mov x0, x30
 *       bl  _mcount          <- nop after ftrace_init_nop; bl ftrace_caller when traced
 *
 * after the function's frame record is set up. ftrace_caller calls the one
 * global tracer through the patched `ftrace_call` site (nop <-> bl <func>,
 * ftrace_update_ftrace_func) and enters the graph tracer through the patched
 * `ftrace_graph_call` site (nop <-> b ftrace_graph_caller). bl _mcount is an
 * ordinary call for GCC, so caller-saved registers need not be preserved.
 *
 * The tracer gets function_trace_op as its ops, loaded before ftrace_call:
 * the ops-passing ftrace_caller of the arches without CALL_OPS (x86, arm64
 * DYNAMIC_FTRACE_WITH_ARGS). The ops and the func are two separate loads;
 * a task preempted between them (ftrace_caller_trace_op_loaded) may call
 * the func of a later update with the ops of an earlier one. The 2014
 * scheme (`mcount`) ran its updates under stop_machine with a
 * non-preemptible kernel, where no task sits there; `mcount-ops` models
 * the same code patched live (FTRACE_MAY_SLEEP) with full preemption, and
 * its scheme makes this label a scheduling point.
 */
#include "patcher/ftrace_abi.h"

	.text
	.balign	8
/* Every bl _mcount is turned into a nop before any CPU runs the code; a CPU
 * that still gets here met a site ftrace never converted (Will Deacon's
 * review of "arm64: ftrace: Add dynamic ftrace support" asked for a BUG
 * here rather than a silent ret). */
	.globl	_mcount
	.type	_mcount, %function
_mcount:
	brk	#0xf7c0
	.size	_mcount, . - _mcount

	.globl	ftrace_caller
	.type	ftrace_caller, %function
ftrace_caller:
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	sub	x0, x30, #4			/* ip: the bl _mcount */
	ldr	x1, [x29]			/* the traced function's frame */
	ldr	x1, [x1, #8]			/* its saved lr: parent_ip */
	adrp	x2, function_trace_op
	ldr	x2, [x2, #:lo12:function_trace_op]
	.globl	ftrace_caller_trace_op_loaded
ftrace_caller_trace_op_loaded:			/* x2: the ops ftrace_call gets */
	mov	x3, xzr				/* no ftrace_regs in this scheme */
	.globl	ftrace_call
ftrace_call:					/* patched: bl <tracer func> */
	nop
	.globl	ftrace_graph_call
ftrace_graph_call:				/* patched: b ftrace_graph_caller */
	nop
ftrace_caller_return:
	ldp	x29, x30, [sp], #16
	ret

	.globl	ftrace_graph_caller
ftrace_graph_caller:
	ldr	x0, [x29]			/* the traced function's frame */
	add	x0, x0, #8			/* &its saved lr */
	ldr	x1, [x29, #8]
	sub	x1, x1, #4			/* ip */
	bl	ftv_graph_caller_entry		/* prepare_ftrace_return */
	b	ftrace_caller_return
	.size	ftrace_caller, . - ftrace_caller

	.globl	ftrace_stub
	.type	ftrace_stub, %function
ftrace_stub:
	ret
	.size	ftrace_stub, . - ftrace_stub

	.data
	.balign	8
	.globl	function_trace_op
function_trace_op:
	.quad	0
	.size	function_trace_op, 8
