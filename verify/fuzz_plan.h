/* A fuzz iteration's choices from streams of their own (fuzz_plan.c): its
 * modules and the executor's holds. Private to verify/fuzz_gen.c. */
#ifndef FTV_VERIFY_FUZZ_PLAN_H
#define FTV_VERIFY_FUZZ_PLAN_H

#include <stdint.h>

#include "verify/fuzz.h"

/* A module as the generator tracks it. */
enum gmod_state { GM_ABSENT, GM_BOOT, GM_LATE, GM_LOADED, GM_UNLOADED };

/* How an iteration uses its modules, from a stream of its own (mrng), so
 * that an iteration without modules is drawn as it was before modules
 * existed: none, loaded at boot (enabled by the first operation) or late
 * (loaded by one of the first actions, perhaps unloaded later); near the
 * kernel, or beyond call range where the scheme has module PLTs. */
struct modplan {
	enum gmod_state mode;
	int far;
	unsigned load_at, unload_at; /* action indices; unload_at > nact: never */
	/* another task flips the static key right after the load (its
	 * patches then overlap ftrace_module_init's), and before actions */
	int key_after_load;
	unsigned key_at[2];
	unsigned nkeys;
};

void fuzz_plan_modules(const struct fuzz_gen *g, uint64_t iter_seed, unsigned nact,
		       struct modplan *mp);

/* How long the patcher's buffered stores may be held back
 * (exec_config.drain_hold), from a stream of its own so the rest of the
 * iteration is drawn as without it: a quarter of the iterations drain
 * uniformly (the stores the barriers leave unordered become visible a
 * few steps apart), the others hold half the stores for up to 16 to 1024
 * steps, so that a CPU has time to walk the list, call a site or read a
 * filter table between two stores the barriers leave unordered (the list
 * head and the new ops' fields, a table's pointer and its entries). */
unsigned fuzz_drain_hold(uint64_t iter_seed);

/* How long a CPU may be held back after a turn (exec_config.cpu_hold) in
 * a PCT iteration, from a stream of its own: half of them hold none, the
 * others up to 64 to 4096 steps, long enough for one or two whole updates
 * to land while a CPU is stopped between two of its instructions (a task
 * preempted inside ftrace_caller with function_trace_op in a register
 * while other updates patch ftrace_call: tramp-func-ops). PCT's own
 * demotions stop a CPU for good, until the higher ones are done; a hold
 * lets it go on while the rest of the run is still to come. Only PCT
 * iterations: the random and quantum ones are drawn as before, and with
 * them the findings of every other mutant (docs/fuzzing.md). */
unsigned fuzz_cpu_hold(uint64_t iter_seed);

/* The hold of a CPU stopped in a window (exec_config.window_hold: at the
 * scheme's preemption point, mcount-ops's function_trace_op loaded and
 * ftrace_call next, while an update is in flight), every iteration, from a
 * stream of its own: 64 to 4096 steps. Without it the random and quantum
 * iterations preempt a CPU only for the few steps the uniform draw or the
 * round robin leaves it out, and the race (the patcher stores the op,
 * syncs every CPU and rewrites ftrace_call meanwhile: some twenty steps)
 * took mcount-ops 17 to over 165 iterations, tramp over 100 on four seeds
 * of five. A hold after every turn of the random and quantum iterations
 * (as PCT's cpu-hold) found mcount-ops's in 6 to 12, but took the CPUs
 * out of the other races' windows (publish-table-early on callops: 48 to
 * 199 iterations, from 8 to 115); aimed at the preemption point, it
 * leaves the schemes without one as they were. docs/bench-scale.md. */
unsigned fuzz_window_hold(uint64_t iter_seed);

/* An iteration's rounds after its last update (exec_config.tail_rounds). */
#define FUZZ_TAIL_ROUNDS 2

#endif
