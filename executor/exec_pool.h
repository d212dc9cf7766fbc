/* Engines kept from one executor for the next over the same memory
 * (exec_pool.c): a fuzz campaign builds a world per iteration, and a
 * fresh Unicorn engine per CPU spent a third of each iteration opening,
 * mapping and translating the same code again.
 *
 * An engine is kept at xe_free when its executor ran under the one code
 * hook over every address (so all its translated code calls out, and the
 * hook's pointer compiled into that code is its struct xhook, which moves
 * with it), its CPU never ran outside the private text (a translation of
 * shared memory would outlive what a later world puts there), it is not an
 * exact-load-pc engine (exec_config.verify) and it has served fewer than
 * XE_POOL_USES executors (Unicorn 2.0.1 never reuses its code buffer).
 * A new executor's CPU takes one whose regions are the same (bases, sizes,
 * permissions, kinds, and for shared regions the same host memory:
 * sim_keep_buffers gives a new aspace the buffers of the last one); its
 * CPU state is put back as the engine had it when opened (uc_context), and
 * its text copies are made the new memory's, dropping the translations of
 * every page that differs. Only the speed differs from a fresh engine. */
#ifndef FTV_EXECUTOR_EXEC_POOL_H
#define FTV_EXECUTOR_EXEC_POOL_H

#include "executor/exec_engine.h"

/* From now on engines are kept (for the process; dropped at exit): the
 * pool becomes the engines' xe_keeper. */
void xe_pool_enable(void);
/* Engines taken from the pool so far. */
size_t xe_pool_taken(void);

#endif
