/* A CPU as the run loop and the plans see it: whether it runs, where it
 * stops, its quiescent point. Its engine is in exec_engine.h, its fetch
 * model state in exec_model.h. */
#ifndef FTV_EXECUTOR_EXEC_CPU_H
#define FTV_EXECUTOR_EXEC_CPU_H

#include <stdint.h>

#define EXEC_NO_EXIT 1ULL /* an "until" address no instruction can have */

enum xcpu_state { XCPU_RUN, XCPU_DONE, XCPU_PARKED, XCPU_FAULT };

struct xcpu {
	enum xcpu_state st;
	uint64_t held_until;     /* exec_config.cpu_hold: not before this step */
	uint64_t exit_pc;
	uint64_t qs_pc;
	int has_qs;
	/* exec_cpu_sleep_point: a voluntary context switch inside the
	 * workload's calls (schedule() in a traced function), a quiescent
	 * point as qs_pc is; 0: none */
	uint64_t sleep_pc;
	int asleep;              /* stopped at sleep_pc, not resumed yet */
	uint64_t qs_count;       /* quiescent points passed this run */
	uint64_t qs_step;        /* exec_steps() + 1 when it last passed one */
	/* exec_config.tail_rounds: passes of qs_pc left before the CPU is
	 * done (0: not counting) */
	unsigned tail_left;
	int parked_qs;           /* stop_machine() parked it at its quiescent
				    point (not anywhere) */
	int armed;               /* pass the hooks at armed_pc once */
	uint64_t armed_pc;
	int stopped_in_hook;
	/* exec_config.window_hold: the last special pc passed was an
	 * EXEC_BREAK_WINDOW one; this turn stopped at the watched fetch right
	 * after it while a plan was in flight */
	int in_window, window_stop;
	unsigned quiet_left;     /* quiet fetches left in this turn */
	/* exec_config.verify: the quiescent point where the CPU parked was
	 * passed already (not again when it resumes there) */
	int qs_counted;
	/* exec_cpu_on_undef: an undefined instruction is taken as an
	 * exception (to handler, or ending the CPU when 0), not a fault */
	int undef;
	uint64_t handler;
	uint64_t *faults;        /* pcs of the exceptions taken this run */
	size_t nfaults, capfaults;
};

/* Whether the CPU passes a quiescent point at pc: its loop's top or a
 * voluntary sleep (RCU Tasks counts both: kernel/rcu/tasks.h). */
static inline int xcpu_qs_at(const struct xcpu *c, uint64_t pc)
{
	return c->has_qs && (c->qs_pc == pc || (c->sleep_pc && c->sleep_pc == pc));
}

#endif
