/* The snapshot of memory and registers that exec_reset puts back, and
 * the tracking of the pages written since (exec_snap.c). Above the engine
 * (exec_engine.h): the engine knows nothing of snapshots but the fields it
 * keeps for them; whoever frees an engine with a snapshot frees the
 * snapshot first (exec_free). */
#ifndef FTV_EXECUTOR_EXEC_SNAP_H
#define FTV_EXECUTOR_EXEC_SNAP_H

#include "executor/exec_engine.h"

/* The snapshot of memory and registers that xe_reset puts back; taken
 * again, it replaces the one before (registers as the CPUs hold them
 * now). */
int xe_snapshot(struct xengine *e, struct ftv_err *err);
int xe_has_snapshot(const struct xengine *e);
int xe_reset(struct xengine *e, struct ftv_err *err);
/* The 4-byte words at addrs (n of them, sorted) in the CPUs' copies are
 * left by a reset as the run left them, and their translations kept: the
 * fetch model gives every CPU the value it fetches there before the CPU
 * runs it (xm_fetch writes the copy, and drops its translation, when the
 * copy holds another: exec_verify's watched words). Resetting them
 * dropped a block's translation per CPU and execution that the next
 * execution, fetching what the run before left, translated back (issue
 * 31). n 0: every word put back again; the words left before are put
 * back now. 0, or -1 out of memory (nothing left then). */
int xe_lazy_words(struct xengine *e, const uint64_t *addrs, size_t n);
/* Page pg of region i as the snapshot has it. */
const uint8_t *xe_snap_page(const struct xengine *e, size_t i, uint64_t pg);
/* addr is one of those words. */
int xe_lazy_word(const struct xengine *e, uint64_t addr);
/* The snapshot and the tracking of written pages freed: before xe_free
 * (which hands the CPUs' copies to the engine pool or unmaps them). */
void xe_snapshot_free(struct xengine *e);
/* Stops tracking written pages (every buffer writable again): before the
 * CPUs' copies are freed or handed to the engine pool. */
void xe_dirty_stop(struct xengine *e);

#endif
