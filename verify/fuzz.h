/* ftv fuzz: random ftrace workloads as scenarios.
 *
 * Every iteration is a scenario (verify/scenario.h) generated from one
 * 64-bit iteration seed: the CPUs, the scheduler policy and its seed, the
 * rounds, and a sequence of ops/filter/notrace/register/unregister/direct
 * operations over random subsets of the traced functions, with `run` steps
 * between them so the CPUs are still running when each update lands. The
 * generator only emits sequences the ftrace API accepts (a dynamic ops is
 * freed by its unregistration and never used again, a direct ops' filter is
 * set before it is attached), so a violation is the patching's fault, never
 * the fuzzer's. A failing scenario is shrunk (fewer operations, fewer sites
 * per filter, fewer CPUs, fewer rounds, shorter runs) while the same
 * violation kind is still reported, and written back as a scenario file:
 * the replay file is just a scenario, run by `ftv fuzz --replay` or
 * `ftv scenario`.
 *
 *   fuzz_targets(&g, corpus, tramp, &err)        the traced functions
 *   fuzz_iter_seed(seed, i)                      iteration i's seed
 *   fuzz_generate(&g, iter_seed, &s)             the scenario
 *   scenario_run(&s, ...)                        run it (verify/scenario.h)
 *   fuzz_shrink(&s, kind, &sh, &err)             minimise a failure
 *   scenario_write(f, &s, header)                the replay file
 */
#ifndef FTV_VERIFY_FUZZ_H
#define FTV_VERIFY_FUZZ_H

#include <stdint.h>
#include <stdio.h>

#include "verify/mutant.h"
#include "verify/scenario.h"

#define FUZZ_MAX_FUNCS 1024

#define FUZZ_MAX_MODULES 4
#define FUZZ_MAX_KEYS 8

/* What every generated scenario shares. */
struct fuzz_gen {
	enum ftv_scheme scheme;
	char objects[WORLD_MAX_OBJECTS][64];
	unsigned nobjects;
	/* Objects an iteration may load as modules: at boot (enabled by its
	 * first operation) or late (module-load and module-unload while the
	 * CPUs run), near the kernel or, where the scheme has module PLTs,
	 * beyond call range of ftrace_caller. */
	char modules[FUZZ_MAX_MODULES][64];
	unsigned nmodules;
	/* Objects given by path (`ftv fuzz --object`): every iteration loads
	 * them (the .ko ones as modules at boot, enabled by its first
	 * operation) and calls their functions the call probe accepts, or
	 * those call_list names (verify/world_probe.c). */
	char user[SCN_MAX_USER][1024];
	unsigned nuser;
	char call_list[SCN_CALLS_MAX];
	unsigned cpus;                   /* 0: drawn per iteration (2..4) */
	const struct ftv_mutant *mutant; /* NULL: none */
	/* The traced functions operations may name (fuzz_targets), and the
	 * module of each: 0 for kernel text, m + 1 for modules[m]. */
	char funcs[FUZZ_MAX_FUNCS][48];
	unsigned char func_mod[FUZZ_MAX_FUNCS];
	unsigned nfuncs;
	/* The static keys of the objects' jump labels (fuzz_targets; e.g.
	 * corpus/src/jumplabel.c's): when there are some (or poke sites), the other task
	 * flips them (`static-key on|off KEY`, static_key_enable/disable)
	 * instead of the workload's own static branch, and more often. */
	char keys[FUZZ_MAX_KEYS][48];
	unsigned nkeys;
	/* The objects' text poke sites (patch_text under stop_machine()),
	 * rewritten by the same task and stream as the keys. */
	char pokes[FUZZ_MAX_KEYS][48];
	unsigned npokes;
	/* the corpus objects' BPF trampoline images (corpus object bpf):
	 * direct ops attach through bpf-update, one image each time */
	unsigned bpf_images;
};

/* Loads the objects and modules once (a world with one CPU) and collects
 * the traced functions the workload calls (the random units' r<N>_f<M>
 * whose site the kernel accepts, and the functions of the objects given by
 * path that the call probe accepts), in record order. */
int fuzz_targets(struct fuzz_gen *g, const char *corpus_dir,
		 const char *tramp_dir, struct ftv_err *err);

/* Iteration i's seed: a function of (seed, i) only, so shards and workers
 * can take any iteration in any order. */
uint64_t fuzz_iter_seed(uint64_t seed, uint64_t i);

/* The scenario of one iteration; the same seed gives the same scenario. */
void fuzz_generate(const struct fuzz_gen *g, uint64_t iter_seed,
		   struct scenario *s);

/* Runs s without printing, stopping at the first violation (stop_early):
 * 1 if it reports a violation of kind (any kind if kind is NULL or empty),
 * 0 if not, -1 if the scenario is rejected (an
 * operation the ftrace API refuses: err says which). */
int fuzz_fails(struct scenario *s, const char *kind, const char *corpus_dir,
	       const char *tramp_dir, struct scn_result *res,
	       struct ftv_err *err);

/* Why a shrink ended. */
enum fuzz_shrink_end {
	FUZZ_SHRINK_DONE,    /* a full round of passes kept nothing */
	FUZZ_SHRINK_BUDGET,  /* the budget of runs was spent */
	FUZZ_SHRINK_STOPPED, /* stop() said so (a deadline, a signal) */
};

struct fuzz_shrink {
	const char *corpus_dir, *tramp_dir;
	unsigned budget;     /* at most this many candidate runs (0: 100) */
	unsigned tried;      /* out: candidates run */
	unsigned accepted;   /* out: candidates that still failed */
	enum fuzz_shrink_end end; /* out */
	/* Called after each candidate (may be NULL), for progress. */
	void (*progress)(void *ctx, const struct fuzz_shrink *sh);
	/* Called before each candidate (may be NULL): nonzero ends the
	 * shrink there, with the smallest failing case found so far. */
	int (*stop)(void *ctx);
	void *ctx;
};

/* Shrinks the failing scenario s in place, greedily and deterministically:
 * each pass tries smaller variants and keeps one that still reports a
 * violation of kind, until a full round of passes keeps nothing, the
 * budget is spent or stop() says so; s is always the smallest failing
 * case found. */
int fuzz_shrink(struct scenario *s, const char *kind, struct fuzz_shrink *sh,
		struct ftv_err *err);

/* The kind a finding is shrunk for, from the kinds found (space
 * separated): the first that names a cause (pair-hazard, nop-ops, ...),
 * not a symptom (fault, unfinished, stuck), unless only symptoms were
 * found. */
void fuzz_pick_kind(const char *kinds, char *out, size_t n);

#endif
