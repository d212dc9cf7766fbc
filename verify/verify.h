/* Bounded exhaustive verification of a world (`ftv verify`,
 * verify/world_verify.c): every execution of the world's queued updates
 * against its CPUs' workload, up to the equivalence of steps that commute
 * (executor/exec_dpor.h), each checked as a scenario run is; the verdict is
 * "verified" (every execution explored, none violates a check),
 * "incomplete" (a bound was hit first) or the shortest counterexample: of
 * all executions explored, the violation reached in the fewest visible
 * steps, as the schedule of those steps (the violating step's causal past,
 * which every interleaving equivalent to it shares).
 *
 *   world_new(&cfg, &w, &err)    cfg.exec.policy EXEC_EXHAUSTIVE,
 *                                cfg.exec.verify 1
 *   world_register(w, ...) ...   queue the updates (no world_run)
 *   world_verify(w, &vc, &res, &err)
 */
#ifndef FTV_VERIFY_VERIFY_H
#define FTV_VERIFY_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"
#include "util/err.h"

struct world;
struct verify_result;

struct verify_config {
	uint64_t max_executions;  /* 0: no limit */
	uint64_t max_steps;       /* per execution */
	int reduce;               /* 1: source sets and sleep sets */
	int coarse;               /* exec_verify_config.coarse */
	unsigned shard, nshards;  /* 0 and 1: the whole tree */
	int first;                /* stop at the first counterexample */
	int split;                /* exec_verify_config.split */
	int exact_reset;          /* exec_verify_config.exact_reset */
	/* 1: stateful DPOR (exec_verify_config.stateful; world_state.c
	 * hashes the world's part), when reduced and unsharded; 0: the
	 * stateless walk (the reference) */
	int stateful;
	/* the stateful walk merges states that differ by a permutation of
	 * interchangeable CPUs (world_sym.c, executor/exec_sym.h) unless 1
	 * (--no-symmetry) */
	int no_symmetry;
	size_t state_bytes;       /* exec_verify_config.state_bytes */
	/* exec_verify_config.prefix_restore and prefix_check: runs start
	 * from states saved at the walk's branch points (the world's run
	 * state and its core's with the executor's) */
	int prefix_restore, prefix_check;
	/* The restore test's (tests/test_world_run.c): when non-zero, every
	 * byte of the world's run state is overwritten with it before each
	 * restore, so that a field the restore missed shows. */
	unsigned char scribble;
	/* The same test's: verify_result.runs_hash is computed. */
	int hash_runs;
	/* Asked after each run (may be NULL): a reason ("--time 600 s",
	 * "SIGINT") stops the walk there, incomplete (verify_result.stopped);
	 * progress (may be NULL) sees the result so far. */
	const char *(*stop)(void *ctx);
	void (*progress)(void *ctx, const struct verify_result *r);
	void *ctx;
};

struct verify_result {
	struct exec_verify_stats x;
	int violated;
	char kinds[256];          /* the counterexample's violations */
	size_t cx_steps;          /* its visible steps */
	/* the stateful walk's symmetry (world_sym.c): why there was none
	 * ("" when x.sym_cpus says there was) */
	char sym_why[160];
	uint64_t cx_found;        /* executions explored when it was found */
	struct exec_choice *cx;   /* its schedule */
	size_t ncx;
	struct exec_choice *full; /* the whole execution it was found in */
	size_t nfull;
	uint64_t *points;         /* the loads that became scheduling points */
	size_t npoints;
	size_t nwords, ndata;     /* watched words and data locations */
	double secs;
	/* verify_config.hash_runs: every counted execution's trace hash,
	 * steps, ending and violations, and the run state it left
	 * (world_run_hash), chained in walk order */
	uint64_t runs_hash;
	char stopped[64];         /* why verify_config.stop ended it, or "" */
};

int world_verify(struct world *w, const struct verify_config *cfg,
		 struct verify_result *res, struct ftv_err *err);
void verify_result_free(struct verify_result *r);

/* "verified", "incomplete" or "violation". */
const char *verify_verdict(const struct verify_result *r);
/* Exit status: 0 verified, 1 violation, 3 (FTV_EXIT_INCOMPLETE)
 * incomplete. */
int verify_exit(const struct verify_result *r);
/* The bound that stopped an incomplete walk, in words
 * ("--max-executions 1000", "--max-steps 500 per execution", ...). */
void verify_bound(const struct verify_result *r, const struct verify_config *cfg,
		  char *buf, size_t n);

/* Schedules as scenario files write them: "cpu0 cpu1:2 patcher sbuf:1". */
void verify_schedule_format(const struct exec_choice *c, size_t n, char *buf,
			    size_t len);
/* Parses one token; 0, or -1 if it is no step. */
int verify_step_parse(const char *tok, unsigned ncpus, struct exec_choice *out);

#endif
