/* Litmus tests for the fetch model, in a small syntax of ftv's own:
 *
 *   # comment
 *   litmus MP.FR+dmb.st+po
 *   expect Forbidden                      (or Allowed)
 *   init 0:x0 = insn "nop"                (an instruction's word)
 *   init 0:x2 = insn "b P1:j1" at P1:l1   (assembled at that label's pc)
 *   init 0:x1 = P1:Lself                  (address of a code label)
 *   init 0:x3 = x                         (address of data location x)
 *   init [x] = 0                          (a data location's 64-bit value)
 *   thread 0
 *       str w0, [x1]                      (GNU syntax, one per line;
 *   L0: b L1                               labels of the thread, or Pn:L,
 *   L1:                                    stand for their addresses)
 *   thread 1
 *       ...
 *   exists 1:x9=1 /\ 1:x2=0 /\ [x]=1 /\ 1:fetch(P1:Lself)=insn "nop"
 *
 * Each thread runs on its own emulated CPU; every code label given to a
 * register in `init` (and every label in a fetch() condition) is a watched
 * instruction word, so stores to it go through the fetch model. The runner
 * enumerates every interleaving and every fetch choice (exhaustive policy,
 * fine mode) and says whether some complete run satisfies `exists`. */
#ifndef FTV_LITMUS_LITMUS_H
#define FTV_LITMUS_LITMUS_H

#include <stdint.h>

#include "util/err.h"

struct litmus;

/* Parses a file; errors name "file:line". */
struct litmus *litmus_load(const char *path, struct ftv_err *err);
void litmus_free(struct litmus *lt);
const char *litmus_name(const struct litmus *lt);
/* 1 Allowed, 0 Forbidden, -1 no expectation given. */
int litmus_expected(const struct litmus *lt);

struct litmus_result {
	int allowed;        /* some complete run satisfied exists */
	int complete;       /* every choice was explored */
	uint64_t runs;      /* runs explored */
	uint64_t witnesses; /* runs satisfying exists */
	uint64_t finished;  /* runs where every thread finished */
	char *witness;      /* with want_witness: the first witness run's
			     * trace (exec_trace_print), malloc'd, or NULL */
};

/* want_witness: keep the trace of the first run satisfying exists. */
int litmus_run(const struct litmus *lt, uint64_t max_runs, int want_witness,
	       struct litmus_result *res, struct ftv_err *err);

#endif
