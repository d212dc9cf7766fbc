/*
 * What each emulated CPU runs: the calls of its workload table, round after
 * round, through function pointers (so traced functions are entered the way
 * indirect calls enter them; the functions themselves call each other).
 * Between rounds the CPU passes ftv_quiescent(), its quiescent point. A
 * calibration round, run before any patching, records every call's result;
 * later rounds compare, since a traced function must return exactly what it
 * returns untraced.
 */
#include "patcher/ftrace_abi.h"

typedef unsigned long u64;
typedef u64 (*call3_t)(u64, u64, u64);

#define FIELD(base, off) (*(volatile u64 *)((u64)(base) + (off)))

/* Kept out of line and empty: the executor recognises a CPU at this address
 * as being at a quiescent point. */
__attribute__((noinline)) void ftv_quiescent(void)
{
	__asm__ volatile("" ::: "memory");
}

/* Reached when the rounds are done; the executor parks a CPU here. */
__attribute__((noinline)) void ftv_workload_done(void)
{
	for (;;)
#if defined(__riscv)
		/* Unicorn 2.0.1 halts the whole emulation on a riscv WFI
		 * (helper_wfi: EXCP_HLT); a hart must keep running in place
		 * (tests/test_riscv64_tramp.c pins this). */
		__asm__ volatile("nop" ::: "memory");
#else
		__asm__ volatile("wfi" ::: "memory");
#endif
}

/* A static branch (jump label) another task patches NOP <-> jump to the
 * next instruction while the CPUs run it (world_static_key): the patcher
 * of kernel text that is not ftrace. */
__attribute__((noinline)) void ftv_static_branch(void)
{
#if defined(__riscv)
	/* as arch_static_branch: a 4-byte nop, 4-byte aligned */
	__asm__ volatile(".balign 4\n\t"
			 ".option push\n\t"
			 ".option norvc\n"
			 ".globl ftv_static_key\n"
			 "ftv_static_key:\n\t"
			 "nop\n\t"
			 ".option pop\n" ::: "memory");
#else
	__asm__ volatile(".globl ftv_static_key\n"
			 "ftv_static_key:\n\t"
			 "nop\n" ::: "memory");
#endif
}

/* In tracers.c: appends a record to this CPU's log. */
void ftv_log_record(u64 kind, u64 ip, u64 parent_ip, u64 op, u64 func,
		    u64 retval);

void ftv_workload(u64 work)
{
	u64 calls = FIELD(work, FTV_WORK_CALLS);
	u64 n = FIELD(work, FTV_WORK_NCALLS);
	u64 rounds = FIELD(work, FTV_WORK_ROUNDS);

	for (u64 r = 0; !rounds || r < rounds; r++) {
		ftv_quiescent();
		ftv_static_branch();
		for (u64 i = 0; i < n; i++) {
			u64 c = calls + i * FTV_CALL_SIZE;
			u64 fn = FIELD(c, FTV_CALL_FN);
			u64 got;

			/* an empty entry: a function of a module that is not
			 * loaded (yet, or any more) */
			if (!fn)
				continue;
			got = ((call3_t)fn)(FIELD(c, FTV_CALL_ARG0), FIELD(c, FTV_CALL_ARG0 + 8),
					    FIELD(c, FTV_CALL_ARG0 + 16));

			if (FIELD(work, FTV_WORK_CALIBRATE)) {
				FIELD(c, FTV_CALL_EXPECT) = got;
			} else if (got != FIELD(c, FTV_CALL_EXPECT)) {
				FIELD(work, FTV_WORK_BADRET) += 1;
				ftv_log_record(FTV_LOG_BADRET, FIELD(c, FTV_CALL_FN),
					       FIELD(c, FTV_CALL_EXPECT), 0, 0, got);
			}
		}
		FIELD(work, FTV_WORK_DONE) = r + 1;
	}
	ftv_workload_done();
}
