/* The patcher as an agent (exec_plan.c): the submitted plans
 * (patcher/plan.h), performed one step per turn in submission order, with
 * their stores in a store buffer and their cache maintenance pending until
 * their DSB. Readiness encodes what each step waits for (DSB: an empty
 * store buffer; QUIESCE: every CPU passed a quiescent point; STOP_MACHINE:
 * every CPU parked). */
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
};

struct xplans {
	struct ftv_exec *ex;     /* for the plans' callbacks */
	struct xmodel *m;
	struct xsbuf *sb;
	struct xcpu *cpu;
	unsigned ncpus;
	int stop_anywhere;       /* exec_config.stop_anywhere */

	struct xplan *v;
	size_t n, cap;
	size_t cur;              /* the plan in progress; n: none left */
	struct xpendv pend;      /* the patcher's pending cache maintenance */
	int stop_machine;        /* a STOP_MACHINE is in force or requested */
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
/* The patcher can take a step now (finishing plans on the way). */
int xp_ready(struct xplans *ps);
/* Performs the next step (after xp_ready said 1). */
void xp_step(struct xplans *ps);
/* A step's "what", or NULL. */
const char *xp_step_what(const struct xplans *ps, size_t plan, size_t step);

#endif
