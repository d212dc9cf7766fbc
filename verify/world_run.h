/* A world's run state: everything an execution changes, apart from what
 * was built once (the image, symbols, records, ops identities, plans,
 * arch and scheme in struct world, read-only while the CPUs run).
 *
 * Exhaustive verification (verify/world_verify.c) saves this struct, with
 * the core's own state (ftrace_core_state_save) and the executor's
 * (exec_snapshot, exec_reset), once the updates are queued, and puts it
 * back before every execution as one copy, world_run_copy: a field added
 * here is restored without anyone listing it, the way a stateless model
 * checker restores one execution state. A field an execution writes
 * anywhere else leaks from one execution into the next; the
 * restore test (tests/test_world_run.c) scribbles every byte of this
 * struct after an execution and checks the next one is unchanged.
 *
 * The fixed part is a plain value; the arrays that grow (one element per
 * plan, per record, per violation, per timeline event or open frame) are
 * listed once in WORLD_RUN_ARRAYS, which gives each its pointer, count
 * n<name> and capacity cap<name>, and which the copy, the scribble and
 * the free walk. */
#ifndef FTV_VERIFY_WORLD_RUN_H
#define FTV_VERIFY_WORLD_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"
#include "util/vec.h"
#include "verify/world.h"

#define WORLD_GRAPH_DEPTH 64
#define WORLD_MAX_OPS     256

/* One traced-function call in progress on a CPU. */
struct wcall {
	int active;
	int rec;            /* wrec index */
	uint64_t step;
	unsigned nexpect;
	int expect[16];     /* wops indices expected exactly once */
	unsigned char seen[WORLD_MAX_OPS];
	unsigned direct_seen;
	int expect_direct;  /* a direct trampoline must run once */
	size_t nplans;      /* plans queued when the call began */
	/* wops indices that must be called: registered, tracing the
	 * function and untouched by any plan, the site settled for this CPU
	 * (struct world.cur_ops and check.c's stable_ops) */
	unsigned char stable[WORLD_MAX_OPS];
};

/* What a CPU's run changes (its memory is the executor's). */
struct wcpu_run {
	uint64_t last_sync;  /* step of its last context synchronisation */
	uint64_t last_qs;    /* step of its last quiescent point */
	struct wcall call;
	uint64_t gstack[WORLD_GRAPH_DEPTH]; /* host mirror of the graph stack */
	unsigned gdepth;
	uint64_t mods_on;    /* late modules whose entries it calls (bit m) */
	/* At a scheme's preemption point (world_schemedesc.preempt): the
	 * function_trace_op it holds, and when it loaded it. */
	int held;
	uint64_t held_op, held_step;
};

/* A queued plan's completion (struct wplan is what it is). */
struct wplan_run {
	int done;
	uint64_t done_step;
};

/* A record's: the step when the last plan touching it ended. */
struct wrec_run {
	uint64_t settled_step;
};

/* A module of the world (struct wmod): loaded at boot (its sites
 * init_nop'ed before any CPU runs, enabled by enable-modules), or late:
 * linked into the image at creation but loaded (module-load) and unloaded
 * (module-unload) while the CPUs run. Its state moves on when its load
 * plans land, during the run. */
enum wmod_state {
	WMOD_NOT_LOADED,  /* late, not loaded yet: nothing calls it */
	WMOD_LOADING,     /* its load plans are queued or running */
	WMOD_LOADED,      /* the CPUs call its functions */
	WMOD_UNLOADED,    /* released and freed: nothing may touch it */
};

/* verify/timeline.c: the functions entered and left, tracer calls and
 * quiescent points of each CPU, in the order they happened. Each event
 * keeps how many observations (exec_observations) the executor had
 * recorded when it happened, so the two merge in time order. */
enum tl_kind {
	TL_ENTER,   /* a = function entered, b = sp */
	TL_RETURN,  /* a = function left */
	TL_TRACER,  /* a = tracer (pc), b = ip, c = ops, d = parent_ip */
	TL_DIRECT,  /* the direct trampoline's log: b = ip */
	TL_QS,      /* the CPU passed its quiescent point (context sync) */
	TL_CUT,     /* the CPU's events from here on were not kept */
};
struct tl_event {
	uint64_t step;
	uint64_t nobs;  /* observations recorded before it */
	int cpu;
	enum tl_kind kind;
	uint64_t a, b, c, d;
};
/* A function a CPU is in: the frames of all CPUs share one array, each
 * CPU's a stack linked through prev (1 + index; 0: the bottom), the
 * frames closed on a free list for the next. */
struct tl_frame {
	uint64_t func, sp;
	size_t prev;
};
struct wtimeline {
	int on;              /* recorded (world_config.timeline, trace_json) */
	uint64_t start_step; /* the run recorded begins here */
	size_t start_nobs, start_nev;
	size_t top[EXEC_MAX_CPUS];  /* each CPU's innermost frame + 1 */
	size_t free_frame;          /* a closed frame + 1, or 0 */
	uint64_t count[EXEC_MAX_CPUS];   /* events of each CPU, kept or not */
	int oom;
};

/* The growable arrays of the run state: element type and name. */
#define WORLD_RUN_ARRAYS(X)                                                    \
	X(struct wplan_run, plan)     /* per world.plans */                    \
	X(struct wrec_run, rec)       /* per world.recs */                     \
	X(struct world_violation, viol) /* the world's checks found */         \
	X(struct tl_event, tl_ev)     /* the timeline's events */              \
	X(struct tl_frame, tl_frame)  /* its frames, open and closed */

/* A field added here is either hashed by the stateful walk
 * (verify/world_state.c, world_state_words) or said there not to change
 * what a later step or check reads: a field it misses would merge states
 * that differ, and `ftv verify --stateful` would cut runs it must not. */
struct world_run {
	struct wcpu_run cpu[EXEC_MAX_CPUS];
	unsigned char ops_freed[WORLD_MAX_OPS]; /* per wops: its free plan
						   completed */
	enum wmod_state mod_state[WORLD_MAX_OBJECTS]; /* per wmod */
	struct world_stats st;
	/* the arch's explain hook's progress through the executor's
	 * violations */
	size_t xv_explained;
	int finished;
	/* world_finish ran out of steps with work left: no "unfinished" or
	 * "stuck" then (world_budget_exhausted); budget_why says what was
	 * left */
	int budget_out;
	char budget_why[160];
	/* per wops, what it reached while registered (world_vacuous): a
	 * record ftrace patches, or only records of modules not enabled */
	unsigned char ops_registered[WORLD_MAX_OPS], ops_reached[WORLD_MAX_OPS],
		ops_disabled_only[WORLD_MAX_OPS];
	struct wtimeline tl;
	/* the first update whose validate-before-write found another word
	 * (ftrace_bug, world_ops.c's plan_done): its plan id, the step and
	 * the word found, for --litmus (litmus_export_race.c) */
	int bug_seen, bug_plan;
	size_t bug_step;
	uint64_t bug_found;
#define WORLD_RUN_ARRAY_FIELDS(T, name) T *name; size_t n##name, cap##name;
	WORLD_RUN_ARRAYS(WORLD_RUN_ARRAY_FIELDS)
#undef WORLD_RUN_ARRAY_FIELDS
};

/* Makes dst a copy of src, keeping dst's own arrays (grown as needed):
 * 0, or -1 out of memory (dst then unchanged but for its capacity). */
int world_run_copy(struct world_run *dst, const struct world_run *src);
/* Frees r's arrays (r itself is the caller's). */
void world_run_free(struct world_run *r);
/* Overwrites every byte of r's state with byte: the fixed part, the
 * counts, and each array's elements up to its capacity; only the arrays'
 * memory (pointers, capacities) is kept. For the restore test. */
void world_run_scribble(struct world_run *r, unsigned char byte);

/* An FNV-1a hash of r's state (as world_run_scribble sees it: every
 * byte but the arrays' memory, and the arrays' elements in use), chained
 * from h (0: a fresh hash). For the restore test. */
uint64_t world_run_hash(const struct world_run *r, uint64_t h);
/* FNV-1a over n bytes at p, chained from h (0: a fresh hash). */
uint64_t world_run_fnv(uint64_t h, const void *p, size_t n);

/* Grows r's array `name` to hold need elements (zeroed): 0 or -1. */
#define WORLD_RUN_RESERVE(r, name, need)                                       \
	vec_reserve((void **)&(r)->name, &(r)->cap##name, (need),              \
		    sizeof(*(r)->name))

#endif
