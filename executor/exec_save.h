/* A saved mid-run state of the executor (exec_save.c, exec_save_mem.c):
 * what exec_verify's walk restores instead of re-executing a run's prefix
 * from the reset (issue 31, docs/bench-scale.md "Prefix restore for the
 * stateful walk").
 *
 * What a save holds is the run state exec_reset puts back, at any step:
 *  - each CPU's registers and flags (the ones xe_reset writes) and the
 *    pages of memory and of every CPU's private copy on the dirty lists
 *    (exec_dirty.h: every page written since the last reset);
 *  - each CPU's run state (struct xcpu, its exceptions taken);
 *  - the log (writes, trace, observations, violations, the step);
 *  - the model's per-run parts: each watched word's coherence order,
 *    point of unification, IC, returned write, floors, last fetch, data
 *    reads and views (view_ok, view where it is ok), each data location's
 *    writers, each CPU's pending maintenance and marks, the IC
 *    completions, vseq;
 *  - both kinds of store buffer (stores, epoch, gates, the reduction's
 *    names: cpush, need);
 *  - the plans' progress (each plan's result, next step, grace period,
 *    live read and a live plan's steps; each agent's current plan and
 *    pending maintenance, stop_machine, locks, the patch window);
 *  - the scheduler's run fields, the executor's run flags and its step
 *    count.
 * Not saved, as a reset does not put them back either: what the engines
 * have translated (a restore drops the translations of every word of a
 * copy it changes, as restore_copy_page does, and a word whose saved view
 * is ok but whose translation went stale, xm_text_load_word, is dropped
 * too), the store buffer's channels and the model's freed ranges and read
 * granules (they only grow over a walk), the watched locations themselves
 * and everything built before the run.
 *
 * Everything but the pages goes through one description (xsv_walk in
 * exec_save.c) used both to save and to restore, so a field cannot be
 * saved and not restored; the bytes it saves, with xst_hash (registers,
 * memory, model) and the caller's own fingerprint, make the check
 * exec_verify_config.prefix_check compares at every restore against a
 * replay from the reset (tests/test_verify_prefix.c).
 *
 * Not saveable (xsv_saveable 0: the walk replays from the reset as
 * before): an arch fetch-check context (riscv64's pair check has no copy
 * operation), held-back drains or CPUs (their streams are seeded per
 * run), an executor without a snapshot or without dirty-page tracking. */
#ifndef FTV_EXECUTOR_EXEC_SAVE_H
#define FTV_EXECUTOR_EXEC_SAVE_H

#include <stddef.h>
#include <stdint.h>

struct ftv_exec;

struct xsave {
	/* the description's bytes (xsv_walk) */
	uint8_t *b;
	size_t n, cap;
	/* the pages: buffer (region i: i; CPU c's copy: (c + 1) * nregions
	 * + i) and page number, then XPG_SIZE bytes each */
	uint64_t *pg;
	size_t npg, cappg;
	uint8_t *data;
	size_t capdata;
	/* what the description's shape depends on, when it was saved: the
	 * plans queued, the watched words and data locations */
	size_t nplans, nwi, nwd;
};

/* Whether ex's state can be saved (see above). */
int xsv_saveable(const struct ftv_exec *ex);
/* ex's state now into s (its memory reused): 0, or -1 out of memory. */
int xsv_save(struct ftv_exec *ex, struct xsave *s);
/* ex's state back to s: 0, or -1 (out of memory, or the executor changed
 * in a way s cannot describe: then reset it). */
int xsv_restore(struct ftv_exec *ex, const struct xsave *s);
void xsv_free(struct xsave *s);
/* The fingerprint of ex's state for the check: a hash of what a save
 * would describe, and of all of memory (xsv_memory_hash). */
void xsv_fingerprint(struct ftv_exec *ex, struct xsave *tmp, uint64_t h[3]);

/* exec_save_mem.c: the engines' part. The pages on the dirty lists,
 * saved; put back (the pages written since, back to the snapshot's), the
 * translations of every word of a CPU's copy that changes dropped, the
 * dirty lists made what a replay would have made: 0, or -1 when a list
 * could not be rearmed (tracking is off then: reset). */
int xsv_save_mem(struct ftv_exec *ex, struct xsave *s);
int xsv_restore_mem(struct ftv_exec *ex, const struct xsave *s);
/* A hash of every word of memory and of the CPUs' copies that differs
 * from the snapshot, wherever it is (not only on the dirty lists). */
uint64_t xsv_memory_hash(struct ftv_exec *ex);
/* cpu's registers and flags (xe_regs' words) written back, as xe_reset
 * writes the snapshot's. */
struct xengine;
void xe_put_regs(struct xengine *e, unsigned cpu, const uint64_t *rv);

#endif
