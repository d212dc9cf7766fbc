/*
 * Tracer functions and the C half of the trampolines, compiled for aarch64
 * and for riscv64 (freestanding, never instrumented) and loaded into the
 * emulated kernel text next to entry-*.S. Every tracer appends a record
 * (cpu, ip, parent_ip, ops, func) to its CPU's log, found through TPIDR_EL1
 * (arm64) or tp (riscv64) as the kernel finds its per-CPU data; the
 * host-side checkers read the logs.
 */
#include "patcher/ftrace_abi.h"

typedef unsigned long u64;

#define FTV_GRAPH_DEPTH 64

#define FIELD(base, off) (*(volatile u64 *)((u64)(base) + (off)))

#ifdef FTV_KERNEL_LAYOUT
/* tracers-kernel.o, for the kernel's own ftrace_caller (scheme kernel):
 * the kernel's struct ftrace_ops and ftrace_regs offsets, written by the
 * world from the build's ftv-layout.txt (patcher/ftrace_abi.h FTV_KL_*) */
u64 ftv_klayout[FTV_KL_N];
#define OPS_FUNC ftv_klayout[FTV_KL_OPS_FUNC]
#define OPS_NEXT ftv_klayout[FTV_KL_OPS_NEXT]
#define OPS_FLAGS ftv_klayout[FTV_KL_OPS_FLAGS]
#define OPS_DIRECT_CALL ftv_klayout[FTV_KL_OPS_DIRECT_CALL]
#define FREGS_X0 ftv_klayout[FTV_KL_FREGS_X0]
#define FREGS_FP ftv_klayout[FTV_KL_FREGS_FP]
#define FREGS_LR ftv_klayout[FTV_KL_FREGS_LR]
#define FREGS_DIRECT_TRAMP ftv_klayout[FTV_KL_FREGS_DIRECT_TRAMP]
#else
#define OPS_FUNC FTV_OPS_FUNC
#define OPS_NEXT FTV_OPS_NEXT
#define OPS_FLAGS FTV_OPS_FLAGS
#define OPS_DIRECT_CALL FTV_OPS_DIRECT_CALL
#define FREGS_LR FTV_FREGS_LR
#define FREGS_DIRECT_TRAMP FTV_FREGS_DIRECT_TRAMP
#endif

/* Head of the registered ops list that the list func walks (the kernel's
 * ftrace_ops_list); written by the patcher through plan steps. */
u64 ftv_ops_list;

/* The func of ftrace_nop_ops: runs when a CPU still takes a BL whose site
 * literal has already been reset (only ever transiently, around a disable). */
void ftv_nop_ops_func(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)ip;
	(void)parent_ip;
	(void)op;
	(void)fregs;
}

static inline u64 this_cpu_area(void)
{
	u64 p;

#if defined(__riscv)
	/* the executor sets tp (x4) to the CPU's block (contract 3) */
	__asm__ volatile("mv %0, tp" : "=r"(p));
#else
	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(p));
#endif
	return p;
}

/* Also used by workload.c for its FTV_LOG_BADRET records. */
void ftv_log_record(u64 kind, u64 ip, u64 parent_ip, u64 op, u64 func,
		    u64 retval)
{
	u64 pcpu = this_cpu_area();
	u64 head = FIELD(pcpu, FTV_PCPU_LOG_HEAD);
	u64 cap = FIELD(pcpu, FTV_PCPU_LOG_CAP);
	u64 rec;

	if (!cap)
		return;
	rec = FIELD(pcpu, FTV_PCPU_LOG) + (head % cap) * FTV_LOG_SIZE;
	FIELD(rec, FTV_LOG_IP) = ip;
	FIELD(rec, FTV_LOG_PARENT_IP) = parent_ip;
	FIELD(rec, FTV_LOG_OPS) = op;
	FIELD(rec, FTV_LOG_FUNC) = func;
	FIELD(rec, FTV_LOG_RETVAL) = retval;
	FIELD(rec, FTV_LOG_KIND) = kind;
	/* the record is complete before it is counted */
	__asm__ volatile("" ::: "memory");
	FIELD(pcpu, FTV_PCPU_LOG_HEAD) = head + 1;
}

/* Two distinct tracers, so that a check can tell which func ran for which
 * ops (the func called must belong to the ops recovered). */
void ftv_tracer_a(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)fregs;
	ftv_log_record(FTV_LOG_ENTRY, ip, parent_ip, op, (u64)&ftv_tracer_a, 0);
}

void ftv_tracer_b(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)fregs;
	ftv_log_record(FTV_LOG_ENTRY, ip, parent_ip, op, (u64)&ftv_tracer_b, 0);
}

/* ftrace_ops_test(): traced when the filter is empty or holds ip, and the
 * notrace table does not. Tables are sorted arrays of record ips. */
static int table_has(u64 table, u64 n, u64 ip)
{
	u64 lo = 0, hi = n;

	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;
		u64 v = FIELD(table, mid * 8);

		if (v == ip)
			return 1;
		if (v < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* The entries of the table an ops field points to, read through ONE load
 * of the pointer: the count comes from the table itself, which is never
 * changed after it is published (the kernel reads hash->count through one
 * rcu_dereference of the hash). Reading the ops' pointer and count fields
 * separately could pair a new, empty table (pointer 0) with the old count
 * while set_filter/set_notrace replaces it. */
static u64 table_of(u64 op, u64 field, u64 *n)
{
	u64 t = FIELD(op, field);

	__asm__ volatile("" ::: "memory");
	*n = t ? FIELD(t, FTV_TABLE_COUNT) : 0;
	return t;
}

static int ops_test(u64 op, u64 ip)
{
	u64 nf, nn;
	u64 f = table_of(op, FTV_OPS_FILTER, &nf);
	u64 t = table_of(op, FTV_OPS_NOTRACE, &nn);

	if (nf && !table_has(f, nf, ip))
		return 0;
	if (nn && table_has(t, nn, ip))
		return 0;
	return 1;
}

typedef void (*ftrace_func_t)(u64 ip, u64 parent_ip, u64 op, u64 fregs);

/* The func of ftrace_list_ops: every registered ops whose filters match. */
void ftrace_ops_list_func(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)op;
	for (u64 o = ftv_ops_list; o; o = FIELD(o, OPS_NEXT)) {
		if (FIELD(o, OPS_FLAGS) & FTV_OPS_FL_STUB)
			continue;
		if (!ops_test(o, ip))
			continue;
		((ftrace_func_t)FIELD(o, OPS_FUNC))(ip, parent_ip, o, fregs);
	}
}

/* The func of a direct ops reached through the list: ask ftrace_caller to
 * go to the direct trampoline once the registers are restored. */
void ftv_call_direct_funcs(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)ip;
	(void)parent_ip;
	if (fregs)
		FIELD(fregs, FREGS_DIRECT_TRAMP) = FIELD(op, OPS_DIRECT_CALL);
}

void ftv_direct_log(u64 ip, u64 parent_ip)
{
	ftv_log_record(FTV_LOG_DIRECT, ip, parent_ip, 0, 0, 0);
}

extern char return_to_handler[];

/* prepare_ftrace_return(): remember the real return address, log the entry
 * and make the traced function return through return_to_handler. op is the
 * graph ops this entry is for (for the checks). Kept out of line: the
 * checks break at its entry (ftrace_graph_func calls it). */
__attribute__((noinline)) void ftv_prepare_return(u64 parent_slot, u64 ip, u64 op)
{
	u64 pcpu = this_cpu_area();
	u64 depth = FIELD(pcpu, FTV_PCPU_GRAPH_SP);
	u64 stack = FIELD(pcpu, FTV_PCPU_GRAPH);
	u64 parent = FIELD(parent_slot, 0);

	if (!stack || depth >= FTV_GRAPH_DEPTH)
		return;
	FIELD(stack, depth * FTV_GRAPH_SIZE + FTV_GRAPH_RET) = parent;
	FIELD(stack, depth * FTV_GRAPH_SIZE + FTV_GRAPH_FUNC) = ip;
	FIELD(pcpu, FTV_PCPU_GRAPH_SP) = depth + 1;
	ftv_log_record(FTV_LOG_GRAPH_ENTRY, ip, parent, op, 0, 0);
	FIELD(parent_slot, 0) = (u64)return_to_handler;
}

#ifndef FTV_KERNEL_LAYOUT
/* The func of the function-graph ops in the CALL_OPS / ARGS schemes: the
 * traced function's return address is fregs->lr. */
void ftrace_graph_func(u64 ip, u64 parent_ip, u64 op, u64 fregs)
{
	(void)parent_ip;
	if (fregs)
		ftv_prepare_return(fregs + FREGS_LR, ip, op);
}
#else
/* With the kernel's own ftrace_graph_func (arch/arm64/kernel/ftrace.c,
 * loaded into the world): what its prepare_ftrace_return calls, fgraph's
 * function_graph_enter(ret, func, frame_pointer, retp)
 * (kernel/trace/fgraph.c): push the return address on ftv's graph stack
 * and log the entry; 0 when pushed (the caller then points fregs->lr at
 * return_to_handler), -EBUSY (-16) when the stack is full, as fgraph's
 * ftrace_push_return_trace refuses. The graph ops is not passed (fgraph
 * keeps its own list): the entry logs none. */
int function_graph_enter(u64 ret, u64 func, u64 frame_pointer, u64 retp)
{
	volatile u64 slot = ret;

	(void)frame_pointer;
	(void)retp;
	ftv_prepare_return((u64)&slot, func, 0);
	return slot == ret ? -16 : 0;
}
#endif

/* The 2014 arm64 -pg scheme: ftrace_graph_caller enters the graph tracer
 * for every call that reaches ftrace_caller, whichever ops enabled the
 * site, and prepare_ftrace_return() asks ftrace_graph_entry() first, which
 * tests the function against the graph's own filter
 * (ftrace_graph_entry_test(): ftrace_ops_test(&global_ops, ...), the hash
 * graph_ops shares; kernel/trace/ftrace.c since v3.17). The patcher keeps
 * here the graph ops whose filter that is: set before ftrace_graph_call is
 * patched in, cleared (ftrace_graph_entry_stub: no entry) before it is
 * patched out. */
u64 ftv_graph_ops;

void ftv_graph_caller_entry(u64 parent_slot, u64 ip)
{
	u64 op = ftv_graph_ops;

	if (!op || !ops_test(op, ip))
		return;
	ftv_prepare_return(parent_slot, ip, op);
}

/* ftrace_return_to_handler(): pop, log the exit with the return value, and
 * hand back the real return address. */
u64 ftv_return_to_handler(u64 retval, u64 fp)
{
	u64 pcpu = this_cpu_area();
	u64 depth = FIELD(pcpu, FTV_PCPU_GRAPH_SP) - 1;
	u64 stack = FIELD(pcpu, FTV_PCPU_GRAPH);
	u64 ret = FIELD(stack, depth * FTV_GRAPH_SIZE + FTV_GRAPH_RET);
	u64 func = FIELD(stack, depth * FTV_GRAPH_SIZE + FTV_GRAPH_FUNC);

	(void)fp;
	FIELD(pcpu, FTV_PCPU_GRAPH_SP) = depth;
	ftv_log_record(FTV_LOG_GRAPH_RET, func, ret, 0, 0, retval);
	return ret;
}

#ifdef FTV_KERNEL_LAYOUT
/* What the kernel's return_to_handler (arch/arm64/kernel/entry-ftrace.S)
 * calls with the ftrace_regs it saved: fgraph's
 * ftrace_return_to_handler(fregs) (kernel/trace/fgraph.c), here ftv's
 * graph stack: the return value is fregs->regs[0]. */
u64 ftrace_return_to_handler(u64 fregs)
{
	return ftv_return_to_handler(FIELD(fregs, FREGS_X0), FIELD(fregs, FREGS_FP));
}
#endif
