/* exec_verify's prefix restore (exec_verify_prefix.c): the stack of the
 * states saved at the walk's branch points. */
#ifndef FTV_EXECUTOR_EXEC_VERIFY_PREFIX_H
#define FTV_EXECUTOR_EXEC_VERIFY_PREFIX_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"
#include "executor/exec_save.h"
#include "util/err.h"

struct xpslot {
	size_t depth;            /* the step it was saved before */
	struct xsave sv;
	void *world;             /* the caller's (exec_verify_hooks.save) */
};

struct xprefix {
	struct ftv_exec *ex;
	const struct exec_verify_hooks *h;
	int on, check;
	struct xpslot *slot;     /* by depth, the deepest last */
	size_t n, cap;
	/* prefix_check: the run from a save stops at the branch point
	 * (probe) with its fingerprint (fp); the replay's is compared */
	int probe, fp_ok, mismatch;
	uint64_t fp[4];
	struct xsave tmp;
};

/* on: exec_verify_config.prefix_restore (off when the hooks cannot save
 * or the executor's state cannot be: exec_save.h); check: prefix_check. */
void xpr_init(struct xprefix *p, struct ftv_exec *ex,
	      const struct exec_verify_hooks *h, int on, int check);
void xpr_free(struct xprefix *p);
/* Every save dropped (the engines recycled, the walk started over). */
void xpr_clear(struct xprefix *p);
/* Before a run whose branch point is step `depth`, after the walk's
 * xd_next: the run saves there (exec_int.h, save_fn). 1: the deepest
 * save at or above depth was restored, the run resumes at step *s0
 * (exec_run_at); under prefix_check that run is the probe (it stops at
 * the branch point) and the run proper is made from the reset after it.
 * 0: the run is to be made from the reset. */
int xpr_start(struct xprefix *p, size_t depth, uint64_t *s0,
	      struct exec_verify_split *sp);
/* After a run under prefix_check: an error when the run's state at its
 * branch point differed from the probe's. */
int xpr_checked(struct xprefix *p, size_t run, struct ftv_err *err);

#endif
