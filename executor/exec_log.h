/* The executor's record of a run: the leaf every other part of the executor
 * writes to. It holds the writes of the memory model (each store of the
 * patcher or of a CPU, and the initial contents of each watched location),
 * the step trace, the observations and the violations, and the clock they
 * are stamped with (step, run).
 *
 * Every visible event of a run is one trace entry (agent, kind, a, b): the
 * agent is a CPU number, XL_AGENT_PATCHER or XL_AGENT_SBUF, and `a` names
 * the location for fetches and drains (exec.h, enum exec_ev_kind). */
#ifndef FTV_EXECUTOR_EXEC_LOG_H
#define FTV_EXECUTOR_EXEC_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"

#define XL_AGENT_PATCHER (-1)
#define XL_AGENT_SBUF (-2)
#define XL_AGENT_PATCHER_TEXT (-3) /* PLAN_AGENT_TEXT's plans */

struct xlog {
	uint64_t step;           /* the current step of this run */
	uint64_t run;            /* the exploration run (exhaustive), else 0 */
	uint64_t record_max;     /* events and observations kept per run */
	uint64_t dropped;        /* events and observations beyond it */
	int *oom;                /* set when an array cannot grow */

	struct exec_write *wr;   /* write ids index it */
	size_t nwr, capwr;
	size_t nwr_init;         /* the initial contents, kept by a reset */
	/* Plans below this id issue no more writes (they are done or were
	 * dropped): answers derived from their writes are final. */
	size_t plans_closed;

	struct exec_event *ev;
	size_t nev, capev;
	struct exec_obs *obs;
	size_t nobs, capobs;
	struct exec_violation *viol;
	size_t nviol, capviol;
};

/* record_max 0: 1 << 20 of each. */
void xl_init(struct xlog *l, uint64_t record_max, int *oom);
void xl_free(struct xlog *l);
/* A new run: only the initial writes stay; violations are kept. */
void xl_reset(struct xlog *l);

/* A new write; its id, or -1 out of memory. */
int xl_write(struct xlog *l, uint64_t addr, uint64_t val, unsigned size,
	     int plan, int step, int cpu, const char *what);
const struct exec_write *xl_write_get(const struct xlog *l, int wid);
/* The initial contents of a watched location were just written. */
void xl_mark_initial(struct xlog *l);

void xl_event(struct xlog *l, int agent, enum exec_ev_kind kind, uint64_t a,
	      uint64_t b);
void xl_obs(struct xlog *l, enum exec_obs_kind kind, int cpu, uint64_t addr,
	    uint64_t val, int w0, int w1);
/* One report per kind, CPU and address per run. */
void xl_violation(struct xlog *l, enum exec_viol_kind kind, int cpu,
		  uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* FNV-1a over the trace and the observations. */
uint64_t xl_hash(const struct xlog *l);

#endif
