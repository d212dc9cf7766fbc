/* The layout of ftrace's structures in EMULATED memory, shared by the host
 * side (patcher/, checkers) and the aarch64 trampolines and tracers
 * (the .S and .c files under trampolines/, built for aarch64). #defines only, so
 * that assembly can include it.
 *
 * struct ftv_ops mirrors the fields of the kernel's struct ftrace_ops that a
 * trampoline reads: ftrace_caller recovers an ops pointer from the CALL_OPS
 * literal and calls ops->func(ip, parent_ip, ops, fregs), or branches to
 * ops->direct_call (arm64 entry-ftrace.S, DYNAMIC_FTRACE_WITH_DIRECT_CALLS).
 * The list func walks FTV_OPS_NEXT from the list head, testing each ops'
 * filter/notrace tables (sorted u64 arrays of record ips) like
 * ftrace_ops_test(). */
#ifndef FTV_PATCHER_FTRACE_ABI_H
#define FTV_PATCHER_FTRACE_ABI_H

/* struct ftv_ops */
#define FTV_OPS_FUNC        0x00 /* tracer: func(ip, parent_ip, ops, fregs) */
#define FTV_OPS_DIRECT_CALL 0x08 /* direct trampoline, or 0 */
#define FTV_OPS_FLAGS       0x10 /* FTV_OPS_FL_* */
#define FTV_OPS_PRIVATE     0x18
#define FTV_OPS_NEXT        0x20 /* next ops on the list, or 0 */
/* FILTER/NOTRACE point at sorted u64 ip arrays that are preceded by their
 * own count (a u64 at table + FTV_TABLE_COUNT, equal to NFILTER/NNOTRACE).
 * The pointer and the count field are two separate stores, so a concurrent
 * reader must load the pointer once and take the count from the table: a
 * table is written completely before its pointer is published, and is freed
 * only after every CPU has passed a quiescent point (patcher/ftrace_core.h). */
#define FTV_TABLE_COUNT     (-8)
#define FTV_OPS_FILTER      0x28 /* sorted u64 ips; 0 = trace everything */
#define FTV_OPS_NFILTER     0x30
#define FTV_OPS_NOTRACE     0x38 /* sorted u64 ips never traced */
#define FTV_OPS_NNOTRACE    0x40
#define FTV_OPS_TRAMP       0x48 /* own trampoline (FTRACE_FL_TRAMP), or 0 */
#define FTV_OPS_ID          0x50 /* small integer naming the ops in logs */
#define FTV_OPS_SIZE        0x60
#define FTV_OPS_ALIGN       0x40

/* Flags as the trampolines see them. */
#define FTV_OPS_FL_SAVE_REGS 0x1
#define FTV_OPS_FL_RECURSION 0x2
#define FTV_OPS_FL_STUB      0x4
#define FTV_OPS_FL_DIRECT    0x8
#define FTV_OPS_FL_GRAPH     0x10

/* struct ftv_fregs: what ftrace_caller saves on the stack and passes as the
 * fourth argument (the arm64 ftrace_regs: x0-x8, fp, lr, sp, pc). A direct
 * call is requested by storing a non-zero address at FTV_FREGS_DIRECT_TRAMP
 * (arm64: FREGS_DIRECT_TRAMP). */
#define FTV_FREGS_X0           0x00 /* x0..x8 at 8-byte steps */
#define FTV_FREGS_FP           0x48
#define FTV_FREGS_LR           0x50
#define FTV_FREGS_SP           0x58
#define FTV_FREGS_PC           0x60
#define FTV_FREGS_DIRECT_TRAMP 0x68
#define FTV_FREGS_SIZE         0x70

/* The tracers built for the kernel's own ftrace_caller (tracers-kernel.o,
 * scheme kernel: issue 26) read the kernel's struct ftrace_ops fields and
 * ftrace_regs where the build put them: u64 ftv_klayout[FTV_KL_N], indexed
 * by these, which the world fills from the build's ftv-layout.txt
 * (verify/world_kernel.c) before any CPU runs. */
#define FTV_KL_OPS_FUNC         0
#define FTV_KL_OPS_NEXT         1
#define FTV_KL_OPS_FLAGS        2
#define FTV_KL_OPS_DIRECT_CALL  3
#define FTV_KL_FREGS_X0         4
#define FTV_KL_FREGS_FP         5
#define FTV_KL_FREGS_LR         6
#define FTV_KL_FREGS_DIRECT_TRAMP 7
#define FTV_KL_N                8

/* The riscv64 ftrace_caller (trampolines/riscv/entry-ftrace.S) fills the
 * same layout, so tracers read fregs alike on both arches: a0-a7 in the
 * x0-x7 slots, s0 (fp) in FP, ra (the traced function's return address,
 * which the graph tracer replaces) in LR, and t0 (func+8: where the
 * function goes on) in PC. The x8 slot is unused. */
#define FTV_RV_FREGS_A0        FTV_FREGS_X0 /* a0..a7 at 8-byte steps */
#define FTV_RV_FREGS_S0        FTV_FREGS_FP
#define FTV_RV_FREGS_RA        FTV_FREGS_LR
#define FTV_RV_FREGS_T0        FTV_FREGS_PC

/* Per-CPU area, its base in TPIDR_EL1 on arm64 and in tp (x4) on riscv64
 * (set by the executor for each CPU, as the kernel keeps its per-CPU offset
 * / current task there). Tracers append records to a
 * ring in it. */
#define FTV_PCPU_CPU        0x00 /* this CPU's number */
#define FTV_PCPU_LOG_HEAD   0x08 /* records written so far (monotonic) */
#define FTV_PCPU_LOG_CAP    0x10 /* capacity in records */
#define FTV_PCPU_LOG        0x18 /* address of the record array */
#define FTV_PCPU_GRAPH_SP   0x20 /* function-graph return stack depth */
#define FTV_PCPU_GRAPH      0x28 /* address of the return stack array */
#define FTV_PCPU_SIZE       0x40

/* One tracer log record. */
#define FTV_LOG_KIND        0x00 /* FTV_LOG_* */
#define FTV_LOG_IP          0x08
#define FTV_LOG_PARENT_IP   0x10
#define FTV_LOG_OPS         0x18
#define FTV_LOG_FUNC        0x20 /* the tracer function that ran */
#define FTV_LOG_RETVAL      0x28 /* graph return events */
#define FTV_LOG_SIZE        0x30

#define FTV_LOG_ENTRY       1 /* a function tracer call */
#define FTV_LOG_GRAPH_ENTRY 2
#define FTV_LOG_GRAPH_RET   3
#define FTV_LOG_DIRECT      4 /* a direct trampoline ran */
#define FTV_LOG_BADRET      5 /* a workload call returned something else
				 than untraced: IP = function, PARENT_IP =
				 expected, RETVAL = actual */

/* Function-graph return stack entry (per CPU). */
#define FTV_GRAPH_RET       0x00 /* the original return address */
#define FTV_GRAPH_FUNC      0x08
#define FTV_GRAPH_SIZE      0x10

/* A CPU's workload (trampolines/workload.c): a table of calls it makes
 * over and over, passing through ftv_quiescent() (its quiescent point, the
 * model of a task switch for synchronize_rcu_tasks) between rounds. */
#define FTV_WORK_CALLS      0x00 /* address of the struct ftv_call array */
#define FTV_WORK_NCALLS     0x08
#define FTV_WORK_ROUNDS     0x10 /* rounds to run, 0 = until stopped */
#define FTV_WORK_DONE       0x18 /* rounds completed */
#define FTV_WORK_CALIBRATE  0x20 /* 1: record results as expectations */
#define FTV_WORK_BADRET     0x28 /* calls whose result differed */
#define FTV_WORK_SIZE       0x30

#define FTV_CALL_FN         0x00 /* 0: skipped (a module not loaded) */
#define FTV_CALL_ARG0       0x08 /* three arguments */
#define FTV_CALL_EXPECT     0x20
#define FTV_CALL_SIZE       0x28

#endif
