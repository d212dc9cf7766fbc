/* The patchers as agents (exec_plan.c): the submitted plans
 * (patcher/plan.h), each performed by the patcher agent it names
 * (plan.agent: ftrace's updates, another task patching text), one step
 * per turn, each agent its own plans in submission order, concurrently with
 * the other; their stores go through one store buffer (a DSB waits for it
 * to be empty, the other agent's stores included: stronger than a real
 * DSB, never weaker) and each agent's cache maintenance is pending until
 * its own DSB. Readiness encodes what each step waits for (DSB: an empty
 * store buffer; QUIESCE: every CPU passed a quiescent point; STOP_MACHINE:
 * every CPU parked; LOCK: no other agent holds the lock). The agents share
 * the locks and the patch window (PLAN_MAP_WINDOW): a store through the
 * window lands where the window maps when it is made. */
#ifndef FTV_EXECUTOR_EXEC_PLAN_H
#define FTV_EXECUTOR_EXEC_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec_cpu.h"
#include "executor/exec_sbuf.h"
#include "patcher/plan.h"

struct xplan {
	struct plan p;
	exec_plan_fn fn;
	void *arg;
	struct exec_plan_result res;
	size_t next;             /* next step to perform */
	int waiting;             /* QUIESCE requested */
	uint64_t qs_snap[EXEC_MAX_CPUS];
	uint64_t qs_block;       /* the CPUs the grace period waited for
				    when it began (XLOC_QSWAIT) */
	/* Live plans (patcher/plan.h): p as submitted, which p is put back
	 * to at a reset after a rerun changed it; the read of the next
	 * step made (it waits for its turn) */
	struct plan orig;
	int live, read_done;
	uint64_t found;          /* the last value a live read returned */
};

#define XP_LOCKS 4

struct xplans {
	struct ftv_exec *ex;     /* for the plans' callbacks */
	struct xmodel *m;
	struct xsbuf *sb;
	struct xcpu *cpu;
	unsigned ncpus;
	int stop_anywhere;       /* exec_config.stop_anywhere */

	struct xplan *v;
	size_t n, cap;
	/* Each agent's plan in progress; n: none left. cur is the lowest:
	 * every plan below it is done. */
	size_t acur[PLAN_AGENTS];
	size_t cur;
	struct xpendv pend[PLAN_AGENTS]; /* each agent's pending cache
					    maintenance */
	int stop_machine;        /* a STOP_MACHINE is in force or requested */
	/* Locks held (PLAN_LOCK): the lock's token and its agent, -1 free. */
	uint64_t lock_id[XP_LOCKS];
	int lock_owner[XP_LOCKS];
	/* The patch window: mapped (to win_page, by plan win_plan step
	 * win_step of agent win_agent) or not. */
	int win_mapped, win_agent, win_plan, win_step;
	uint64_t win_page;
};

void xp_init(struct xplans *ps, struct ftv_exec *ex, struct xmodel *m,
	     struct xsbuf *sb, struct xcpu *cpu, unsigned ncpus,
	     int stop_anywhere);
void xp_free(struct xplans *ps);
/* Every plan queued again, nothing in force. */
void xp_reset(struct xplans *ps);

/* Queues a copy of p; its id, or -1 out of memory. */
int xp_submit(struct xplans *ps, const struct plan *p, exec_plan_fn fn,
	      void *arg);
/* 1 while a plan is left to perform. */
static inline int xp_busy(const struct xplans *ps)
{
	return ps->cur < ps->n;
}
/* Patcher agent a can take a step now (finishing plans on the way). */
int xp_ready(struct xplans *ps, int a);
/* 1 if a patcher's next step waits for stores in the buffer (a DSB, an
 * IPI, cache maintenance of a range it holds). */
int xp_waits_for_sbuf(struct xplans *ps);
/* A turn of the CPU begins (exec_verify): it names each grace period it
 * holds up (XLOC_QSWAIT, exec_dpor.h). */
void xp_cpu_turn(struct xplans *ps, unsigned cpu);
/* Agent a performs its next step (after xp_ready said 1). */
void xp_step(struct xplans *ps, int a);
/* A step's "what", or NULL. */
const char *xp_step_what(const struct xplans *ps, size_t plan, size_t step);
/* Step `step` of a plan as this execution performs it (a live plan's
 * steps are the ones its reads led to), or NULL. */
const struct plan_step *xp_step_at(const struct xplans *ps, size_t plan, size_t step);

#endif
