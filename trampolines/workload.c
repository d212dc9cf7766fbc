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
		__asm__ volatile("wfi" ::: "memory");
}

static void log_badret(u64 fn, u64 expect, u64 got)
{
	u64 pcpu, head, cap, rec;

	__asm__ volatile("mrs %0, tpidr_el1" : "=r"(pcpu));
	head = FIELD(pcpu, FTV_PCPU_LOG_HEAD);
	cap = FIELD(pcpu, FTV_PCPU_LOG_CAP);
	if (!cap)
		return;
	rec = FIELD(pcpu, FTV_PCPU_LOG) + (head % cap) * FTV_LOG_SIZE;
	FIELD(rec, FTV_LOG_IP) = fn;
	FIELD(rec, FTV_LOG_PARENT_IP) = expect;
	FIELD(rec, FTV_LOG_OPS) = 0;
	FIELD(rec, FTV_LOG_FUNC) = 0;
	FIELD(rec, FTV_LOG_RETVAL) = got;
	FIELD(rec, FTV_LOG_KIND) = FTV_LOG_BADRET;
	__asm__ volatile("" ::: "memory");
	FIELD(pcpu, FTV_PCPU_LOG_HEAD) = head + 1;
}

void ftv_workload(u64 work)
{
	u64 calls = FIELD(work, FTV_WORK_CALLS);
	u64 n = FIELD(work, FTV_WORK_NCALLS);
	u64 rounds = FIELD(work, FTV_WORK_ROUNDS);

	for (u64 r = 0; !rounds || r < rounds; r++) {
		ftv_quiescent();
		for (u64 i = 0; i < n; i++) {
			u64 c = calls + i * FTV_CALL_SIZE;
			u64 got = ((call3_t)FIELD(c, FTV_CALL_FN))(
				FIELD(c, FTV_CALL_ARG0), FIELD(c, FTV_CALL_ARG0 + 8),
				FIELD(c, FTV_CALL_ARG0 + 16));

			if (FIELD(work, FTV_WORK_CALIBRATE)) {
				FIELD(c, FTV_CALL_EXPECT) = got;
			} else if (got != FIELD(c, FTV_CALL_EXPECT)) {
				FIELD(work, FTV_WORK_BADRET) += 1;
				log_badret(FIELD(c, FTV_CALL_FN),
					   FIELD(c, FTV_CALL_EXPECT), got);
			}
		}
		FIELD(work, FTV_WORK_DONE) = r + 1;
	}
	ftv_workload_done();
}
