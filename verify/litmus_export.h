/* A violation as a herd7 litmus test (--litmus FILE of ftv scenario,
 * ftv fuzz --replay and ftv verify): the events of the recorded
 * execution that make it, abstracted into an AArch64 test that herd7
 * (herd7 -variant ifetch) and `ftv litmus` can judge.
 *
 *   P0   the patcher: each update's stores to the locations the
 *        violating CPU observed (STR W of an instruction word, STR X of
 *        a 64-bit literal or pointer; two STR W when the literal is
 *        misaligned: not single-copy atomic, Arm ARM B2.2.1), its DC CVAU
 *        and IC IVAU over those words and its DSB ISH, DMB ISH and ISB,
 *        in plan order; a free of an observed location is a store of the
 *        poison (xm_poison's). The rest of a plan (locks, stores
 *        elsewhere) has no event in the test; its waits have one when
 *        they order something of it: synchronize_rcu_tasks() and
 *        percpu_ref_kill() when a sequence frees an observed location,
 *        stop_machine() when only one of the two sequences makes it,
 *        each a flag P0 reads with acquire (a handshake with P1).
 *   P1   the violating CPU: its last fetch of each watched word and its
 *        last load of each watched location before the violation, in the
 *        order it made them. A fetched word is a code label mK whose
 *        instruction is the word's first value (NOP) and whose later
 *        values are branches (B .+N) to a block that records which one
 *        ran (MOV WrK,#value+1). A load of a field of what another load
 *        returned is an address dependency on it (EOR Wt,Wp,Wp;
 *        LDR Xr,[Xa,Wt,SXTW]: herd's locations have no offsets). A CPU
 *        that ran an old word after its update returned (not-visible)
 *        first reads the flag `done` P0 sets at the return, and takes
 *        the ISB of the update's IPI when the plan holds one. A CPU
 *        that went wrong through a location only the twin writes during
 *        the run (its load has no event: the run's plans never write
 *        it) gets that load reconstructed with memory's value, after
 *        reading `done` with acquire (litmus_export.c, twin_loads).
 *        P1 sets the handshakes' flags around its accesses: `cs` set
 *        before (its read-side critical section), cleared with release
 *        after; `ref` and `stop` held from the start, cleared after.
 *   exists  the values the CPU saw: the violating outcome (and each
 *        handshake read 0). For a word rewritten live (cmodx, which
 *        herd7 cannot judge), the new word: the nearest outcome it can.
 *
 * Values are abstracted to their rank among the values a location takes
 * (its first, then each an update writes: 0, 1, 2...), so the same
 * locations, observer and condition serve the corrected backend's plans
 * (the "fixed" twin: the same scenario built without the mutant). */
#ifndef FTV_VERIFY_LITMUS_EXPORT_H
#define FTV_VERIFY_LITMUS_EXPORT_H

#include "util/err.h"

struct world;

struct litmus_export_opts {
	const char *path;        /* the counterexample's test */
	const char *fixed_path;  /* the twin's test, or NULL */
	const char *name;        /* the test's name (the scenario's) */
	const char *cmd;         /* where it comes from (a comment), or NULL:
				    the name */
};

/* Writes w's violation as opts->path and, when opts->fixed_path and twin
 * (the world of the same operations without the mutant, built, not run)
 * are given, the same locations and observer with twin's plans as
 * opts->fixed_path. 0 if written; 1 with err saying why when the
 * violation has no memory-model outcome (nothing written); -1 with err
 * when a file cannot be written or memory runs out. */
int litmus_export(struct world *w, struct world *twin,
		  const struct litmus_export_opts *opts, struct ftv_err *err);

/* When the world without the mutant does not build because the corrected
 * backend skips a site w patches (misaligned-literal: "Misaligned
 * patch-site"), the twin is w's plans without that site's steps
 * (litmus_export_twin.c): a world holding only those plans, for
 * litmus_export, freed with litmus_export_twin_free. NULL when no site of
 * w's plans is one the corrected backend skips (or memory runs out). */
struct world *litmus_export_skipped_twin(const struct world *w);
void litmus_export_twin_free(struct world *t);

#endif
