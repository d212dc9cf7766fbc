/* Litmus tests of the fetch model, read in two syntaxes and run
 * exhaustively on the executor.
 *
 * herd7's (AArch64 only; herdtools7's catalogue/aarch64-ifetch):
 *
 *   AArch64 MP.RF+dmb.st+ctrlisb
 *   CacheType=DIC                         (optional: IDC, DIC, both)
 *   { 0:X0=NOP; 0:X1=P1:l0; 0:X3=z; 1:X3=z; [x]=P1:l1; uint64_t y=2; }
 *    P0           | P1            ;
 *    STR W0,[X1]  | LDR W2,[X3]   ;
 *    ...          | l0: B l1      ;
 *   exists (1:X2=1 /\ 1:X9=0)            (or ~exists, forall; /\ \/ ~ ( ))
 *
 * with `Pn.F` columns for fault handlers, `locations [...]`, `fault(Pn:l)`
 * conditions and `instr:"B .+12"` values. A construct ftv does not model is
 * an error naming the file, line and construct (exit 2), never a verdict.
 *
 * ftv's own, one statement a line:
 *
 *   # comment
 *   litmus MP.FR+dmb.st+po
 *   arch riscv64                          (optional; default arm64)
 *   cachetype DIC IDC                     (optional)
 *   expect Forbidden                      (or Allowed, Required)
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
 * Each thread runs on its own emulated CPU; every code label used as a
 * value (and every label in a fetch() condition) is a watched instruction
 * word, so stores to it go through the fetch model. A thread that runs off
 * the end of any thread's code ends there. The runner enumerates every
 * interleaving and every fetch choice (exhaustive policy, fine mode) and
 * reports the final states, as herd does. */
#ifndef FTV_LITMUS_LITMUS_H
#define FTV_LITMUS_LITMUS_H

#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

struct litmus;

/* Expected verdicts (expect lines, kinds files). */
enum { LT_K_FORBIDDEN = 0, LT_K_ALLOWED = 1, LT_K_REQUIRED = 2 };

/* Parses a file in either syntax; errors name "file:line". A test that
 * uses a construct ftv cannot model (herd's arrays, filters, other
 * variants and page table entries, ...) loads, named, and says why in
 * litmus_unsupported; it is not run: its verdict is `unsupported`. */
struct litmus *litmus_load(const char *path, struct ftv_err *err);
/* "file:line: construct: not modelled by ftv", or NULL. */
const char *litmus_unsupported(const struct litmus *lt);
void litmus_free(struct litmus *lt);
const char *litmus_name(const struct litmus *lt);
/* LT_K_*, or -1 when the file gives no expectation. */
int litmus_expected(const struct litmus *lt);
void litmus_set_expected(struct litmus *lt, int kind);
/* "Allowed", "Forbidden", "Required"; -1 if none of them. */
int litmus_kind_parse(const char *s);
const char *litmus_kind_name(int kind);

/* Why an exploration stopped before every choice was explored. */
enum lt_budget { LT_BUDGET_NONE, LT_BUDGET_RUNS, LT_BUDGET_TIME,
		 LT_BUDGET_MEMORY };

struct litmus_opts {
	uint64_t max_runs;      /* 0: 1,000,000 */
	/* CPU time of the process per test (CLOCK_PROCESS_CPUTIME_ID), not
	 * wall clock: on a loaded machine a test gets as far as on an idle
	 * one (the catalogue's dcc3 and icc3 were cut under a load of 10);
	 * 0: no limit. The exploration itself is deterministic: with only
	 * --max-runs (time_ms 0) the verdict never depends on the machine. */
	uint64_t time_ms;
	uint64_t mem_mb;        /* peak RSS bound; 0: 1024 */
	int want_witness;       /* keep the trace of the first witness run */
	/* CTR_EL0 DIC/IDC for every test: -1 as the test says, else 0/1 */
	int dic, idc;
	/* The pruning of runs that reach a state an earlier run met
	 * (exec_config.prune_states, its set of states taking half of mem_mb
	 * at most): LT_REDUCE_AUTO for tests of three threads or more (whose
	 * plain walk takes 10^5 to 10^7 runs) and for smaller ones whose
	 * plain walk takes more than 20,000 runs (it starts over reduced,
	 * with the time left; the others keep the counts of every
	 * schedule), LT_REDUCE_ON, LT_REDUCE_OFF. */
	enum lt_reduce { LT_REDUCE_AUTO, LT_REDUCE_ON, LT_REDUCE_OFF } reduce;
	/* Called about every 100 ms of exploration (e.g. a progress line). */
	void (*progress)(const struct litmus *lt, uint64_t runs,
			 uint64_t elapsed_ms, void *arg);
	void *progress_arg;
};

struct litmus_state {
	uint64_t *val;          /* one per observed item */
	int sat;                /* satisfies the proposition */
	uint64_t count;         /* runs ending in it */
};

struct litmus_result {
	int allowed;        /* some complete run satisfied the proposition */
	int complete;       /* every choice was explored */
	enum lt_budget budget; /* what stopped it otherwise */
	uint64_t runs;      /* runs explored */
	uint64_t witnesses; /* finished runs satisfying the proposition */
	uint64_t finished;  /* runs where every thread finished */
	uint64_t elapsed_ms;    /* wall clock */
	uint64_t cpu_ms;        /* CPU time, what time_ms bounds */
	long peak_rss_mb;
	uint64_t budget_limit;  /* the limit that ran out: runs, ms or MiB */
	/* the reduction (exec_state.h): distinct states met at branching
	 * points, runs cut at a state met before */
	uint64_t states_met, runs_cut;
	char *witness;      /* with want_witness: the first witness run's
			     * trace (exec_trace_print), malloc'd, or NULL */
	struct litmus_state *states; /* distinct final states, sorted */
	size_t nstates;
};

int litmus_run(const struct litmus *lt, const struct litmus_opts *o,
	       struct litmus_result *res, struct ftv_err *err);
void litmus_result_free(struct litmus_result *res);

/* How a result compares with the expectation. */
enum { LT_NO_EXPECTATION = -1, LT_MISMATCH = 0, LT_OK = 1,
       /* Forbidden (or Required) expected, no run says otherwise, but not
	* every run was explored: not established either way */
       LT_UNPROVEN = 2 };
int litmus_verdict_ok(const struct litmus *lt, const struct litmus_result *r);
/* ftv's one line:
 *   "MP.FF+dmb.st+po   Allowed   expected Allowed   ok   (21 runs, ...)" */
void litmus_print_line(FILE *f, const struct litmus *lt,
		       const struct litmus_result *r);
/* One JSON object, the envelope of the other commands' --json ("type"
 * first): name, verdict, expected, result, runs, budget. */
void litmus_print_json(FILE *f, const struct litmus *lt, const struct litmus_result *r);
void litmus_print_json_unsupported(FILE *f, const struct litmus *lt);
/* herd7's block (Test, States, Ok/No, Witnesses, Condition, Observation,
 * Time), readable by herdtools' mcompare7 and friends. */
void litmus_print_herd(FILE *f, const struct litmus *lt,
		       const struct litmus_result *r);

/* A kinds file: "NAME Allowed|Forbidden|Required" lines, '#' comments.
 * The expectation of each named test loaded later comes from it. */
struct litmus_kinds;
struct litmus_kinds *litmus_kinds_load(const char *path, struct ftv_err *err);
/* LT_K_* for name, or -1 */
int litmus_kinds_get(const struct litmus_kinds *k, const char *name);
void litmus_kinds_free(struct litmus_kinds *k);

#endif
