/* A world: everything ftv needs to verify one patching scheme end to end.
 * The corpus objects and the scheme's trampolines loaded and linked into one
 * address space (sim), the ftrace core with the scheme's backend (patcher/
 * arm64.c or riscv64.c, chosen by the arch tables of verify/world_arch.c), N
 * emulated CPUs running the workload over the traced functions (executor),
 * and the checks that watch every tracer call (registered with WORLD_CHECK:
 * verify/check.c, verify/explain.c).
 *
 *   world_new(&cfg, &w, &err);            load, link, init_nop every site,
 *                                         calibrate the workload
 *   world_ops(w, "t1", "tracer_a", ...)   create ops, then operate on them
 *   world_register(w, ops, &err) ...      each builds a plan and queues it
 *   world_run(w, steps, &err)             CPUs run while plans apply
 *   world_finish(w, &err)                 drain plans, finish rounds, check
 *   world_report(w, stdout)               violations, speaking kernel
 */
#ifndef FTV_VERIFY_WORLD_H
#define FTV_VERIFY_WORLD_H

#include <stdint.h>
#include <stdio.h>

#include "executor/exec.h"
#include "patcher/ftrace_core.h"
#include "sim/image.h"
#include "util/arch.h"
#include "util/err.h"

/* A scheme belongs to one architecture (verify/world_arch.c). */
enum ftv_scheme {
	FTV_SCHEME_CALLOPS, /* arm64 CALL_OPS + direct calls (Linux 6.3+) */
	FTV_SCHEME_TRAMP,   /* arm64 WITH_ARGS + per-ops trampolines */
	FTV_SCHEME_MCOUNT,  /* arm64, the 2014 -pg scheme (Linux 3.16) */
	FTV_SCHEME_MCOUNT_OPS, /* arm64 -pg sites patched live, a preemptible
				  ops-passing ftrace_caller (the func/ops
				  mismatch race, March 2024) */
	FTV_SCHEME_MCOUNT_TASKS, /* the same with synchronize_rcu_tasks before
				    ftrace_call expects a new function_trace_op */
	FTV_SCHEME_TRAMP_TASKS, /* the per-ops trampolines with that
				   synchronize_rcu_tasks */
	FTV_SCHEME_PAIR,    /* riscv64 CALL_OPS, AUIPC+JALR both patched under
			       stop_machine (Linux < 6.16) */
	FTV_SCHEME_ATOMIC,  /* riscv64 CALL_OPS, only the JALR <-> NOP word
			       patched, live (Linux 6.16) */
	FTV_SCHEME_KERNEL,  /* arm64 CALL_OPS patched by Linux's own compiled
			       backend (make kernel; verify/world_kernel.c) */
	FTV_SCHEME_COUNT
};
int ftv_scheme_parse(const char *s, enum ftv_scheme *out);
const char *ftv_scheme_name(enum ftv_scheme s);
/* The corpus flag set whose objects a scheme patches ("callops", "args",
 * "mcount", "rv64": build/corpus/<set>/). */
const char *ftv_scheme_corpus_set(enum ftv_scheme s);
enum ftv_arch ftv_scheme_arch(enum ftv_scheme s);
/* The scheme used when only an arch is named: what Linux does today
 * (arm64 callops, riscv64 atomic). */
enum ftv_scheme ftv_arch_default_scheme(enum ftv_arch a);
/* "callops, tramp, mcount, ..." or "pair, atomic", for messages. */
const char *ftv_arch_schemes(enum ftv_arch a);
/* Every architecture's scheme names, "; " between architectures. */
const char *ftv_all_schemes(char *buf, size_t n);
/* 0 if scheme s runs on arch a, else -1 with err saying which arch it
 * belongs to ("scheme pair is riscv64's, not arm64's ..."). */
int ftv_scheme_check_arch(enum ftv_scheme s, enum ftv_arch a, struct ftv_err *err);
/* What the fuzzer may generate in a scheme beyond the logging tracers and
 * modules near the kernel: the function-graph tracer, direct calls, and
 * modules beyond call range of ftrace_caller (the arch reaches it through
 * the module's ftrace PLT). */
enum {
	FTV_SCHEME_FUZZ_GRAPH = 1u << 0,
	FTV_SCHEME_FUZZ_DIRECT = 1u << 1,
	FTV_SCHEME_FUZZ_FAR_MODULES = 1u << 2,
};
unsigned ftv_scheme_fuzz_flags(enum ftv_scheme s);

#define WORLD_MAX_OBJECTS 64
#define WORLD_MAX_CALLS 16

struct trace_json;

struct world_config {
	enum ftv_scheme scheme;
	const char *objects[WORLD_MAX_OBJECTS];  /* kernel objects */
	unsigned nobjects;
	const char *modules[WORLD_MAX_OBJECTS];  /* loaded as modules */
	unsigned nmodules;
	/* 1: modules[i] is loaded late, by world_load_module while the CPUs
	 * run (and may be unloaded), not at boot */
	unsigned char module_late[WORLD_MAX_OBJECTS];
	int far_modules;          /* modules > 128 MiB from kernel text */
	/* `symmetric`: every CPU's call list and arguments drawn once, the
	 * same for all, its per-CPU block page-aligned (world_cpus.c): the
	 * CPUs may be interchangeable (world_sym.c) */
	int symmetric;
	const char *tramp_dir;    /* the assembled trampolines */
	/* scheme kernel: a make kernel build (KERNEL_OUT); NULL: the build
	 * tree's kernel/6.12 beside tramp_dir */
	const char *kernel_dir;
	struct exec_config exec;  /* CPUs, policy, seed, quantum */
	/* A bug of the scheme's backend to inject: a code of its mutants
	 * table (struct ftrace_arch.mutants; 0: none). verify/mutant.h. */
	int backend_mutant;
	unsigned core_mutants;    /* FTRACE_MUT_* bugs to inject */
	const char *mutant_name;  /* for reports ("none") */
	unsigned rounds;          /* workload rounds per CPU (0: 20) */
	unsigned calls;           /* calls per round per CPU (0: 16) */
	/* Only functions whose name starts with this prefix are called by the
	 * workload (they must take and return integers); NULL: the random
	 * units' "r" prefix. */
	const char *callable_prefix;
	/* When ncall > 0: each CPU's round calls exactly these traced
	 * functions, in this order (calls is then ncall), instead of `calls`
	 * drawn from the callable ones: the tiny workloads of exhaustive
	 * verification. */
	const char *call[WORLD_MAX_CALLS];
	unsigned ncall;
	/* The functions the workload calls besides those, each first run by
	 * the call probe (verify/world_probe.c) to find it safe to call and
	 * the arguments it takes:
	 *  - call_list: these, comma separated; each must be a traced function
	 *    the probe accepts, else world_new fails naming it and why;
	 *  - else every function of objects[i] with probe_object[i] set and of
	 *    modules[i] with probe_module[i] (a user's objects, given by path)
	 *    that the probe accepts; world_new fails, naming what they call
	 *    that is not loaded, when nothing at all is callable.
	 * world_callables lists what the workload calls. */
	const char *call_list;
	unsigned char probe_object[WORLD_MAX_OBJECTS];
	unsigned char probe_module[WORLD_MAX_OBJECTS];
	/* Fuzzing: world_finish stops as soon as a violation is known
	 * (checked every WORLD_FINISH_SLICE steps), and skips the checks
	 * that need a completed run (unfinished CPUs, stuck plans). The kinds
	 * found are then a subset of a full run's: the executor's schedule
	 * does not depend on how its steps are sliced. */
	int stop_early;
	FILE *plans_out;          /* print every update's plan here, or NULL */
	FILE *trace_out;          /* after the report, the executor's step
				     trace (exec_trace_print), or NULL */
	/* A replay's state hashes (exec_set_state_trace), as ftv verify
	 * --stateful hashes them: with the symmetry the world offers unless
	 * state_trace_nosym (tools/cmd_scenario.c: FTV_STATE_TRACE=1 prints
	 * them to stderr, FTV_VERIFY_NO_SYMMETRY=1; world_trace_states). NULL: none. */
	FILE *state_trace;
	int state_trace_nosym;
	/* Record the run's timeline (the functions each CPU entered and
	 * left, its tracer calls) for a Chrome trace-event writer
	 * (verify/trace_json.h): timeline set, or trace_json, the writer
	 * scenario_run adds the world to. Neither: nothing recorded. */
	int timeline;
	struct trace_json *trace_json;
	/* --litmus FILE, --litmus-fixed FILE: a violating run is written as a
	 * herd7 litmus test, and the corrected backend's plans on the same
	 * observer (verify/litmus_export.h); NULL: not */
	const char *litmus_out, *litmus_fixed_out;
	FILE *notes_out;          /* the kernel's warnings (Misaligned
				     patch-site: the site is skipped), or NULL */
	/* Sites from elsewhere than the loaded objects (a captured layout,
	 * verify/replay.h); NULL: the image's. site_active (per site, NULL:
	 * all) says which are called by the workload and watched by the
	 * checks; the others are only init_nop'ed. */
	const struct sim_site *sites;
	size_t nsites;
	const unsigned char *site_active;
	/* 1: an init_nop validate failure is kept (world_boot_failures) and
	 * its record never enabled; 0: it fails world_new. */
	int keep_boot_failures;
};

/* "ftrace failed to modify": init_nop found `actual` at addr where it
 * expected `expected` (the record's ip names the site). */
struct world_boot_failure {
	uint64_t addr, ip;
	uint32_t actual, expected;
};

/* A check that failed: what the kernel developer reads. */
struct world_violation {
	char kind[24];
	int cpu;
	uint64_t step;
	/* the executor's step count when a check found it (step: where it
	 * happened, e.g. the call a count is about, may be earlier) */
	uint64_t found;
	char msg[1024];
};

struct world;

#define WORLD_FINISH_SLICE 500

/* The make kernel build scheme kernel worlds use when their config names
 * none (--kernel DIR; NULL: the build tree's kernel/6.12). */
void world_kernel_dir_set(const char *dir);
/* Whether --kernel was given; the build a kernel world of a build tree
 * whose trampolines are in tramp_dir uses when its config names none
 * (the one set, else the tree's kernel/6.12; in buf). */
int world_kernel_dir_given(void);
const char *world_kernel_dir(const char *tramp_dir, char *buf, size_t n);

int world_new(const struct world_config *cfg, struct world **out,
	      struct ftv_err *err);
/* The time guard of a world's free-running turns (exec_config.
 * turn_timeout_us, when the config gives none): WORLD_TURN_GUARD_US times
 * the environment's FTV_TURN_TIME_SCALE (a positive number; default 1).
 * The instruction budget decides a turn; the guard only makes a run
 * unjudged on a machine too slow to spend it (docs/determinism.md), so
 * any scale gives the same trace or "budget exhausted", never another
 * verdict. */
#define WORLD_TURN_GUARD_US 10000000ULL
uint64_t world_turn_guard_us(void);
void world_free(struct world *w);

/* Ops: name is how scenarios and reports refer to it; tracer is
 * "tracer_a", "tracer_b" (logging tracers), "graph" (the function-graph
 * tracer) or "direct" (a direct-call ops, see world_direct). */
struct ftrace_ops *world_ops(struct world *w, const char *name,
			     const char *tracer, struct ftv_err *err);
struct ftrace_ops *world_find_ops(struct world *w, const char *name);
/* The operations; each builds one update's plan and queues it. spec: as
 * ftrace_set_filter ("f1,f2", names or 0x addresses). */
int world_set_filter(struct world *w, struct ftrace_ops *ops, const char *spec,
		     struct ftv_err *err);
int world_set_notrace(struct world *w, struct ftrace_ops *ops,
		      const char *spec, struct ftv_err *err);
/* Either of them (notrace 1: the notrace set), replacing the set, or
 * adding to it when reset is 0. */
int world_filter(struct world *w, struct ftrace_ops *ops, const char *spec, int reset,
		 int notrace, struct ftv_err *err);
int world_register(struct world *w, struct ftrace_ops *ops, struct ftv_err *err);
int world_unregister(struct world *w, struct ftrace_ops *ops,
		     struct ftv_err *err);
/* Direct calls: tramp is a symbol ("ftv_direct_tramp",
 * "ftrace_stub_direct_tramp") or a 0x address. */
int world_direct(struct world *w, struct ftrace_ops *ops, const char *tramp,
		 struct ftv_err *err);
int world_direct_modify(struct world *w, struct ftrace_ops *ops,
			const char *tramp, struct ftv_err *err);
/* bpf_trampoline_update() (patcher/bpf_tramp.h): the direct ops' BPF
 * trampoline image becomes image (a symbol of corpus object bpf,
 * ftv_bpf_image0..3), or "-": none (the last program detached); the image
 * it replaces is released (bpf_tramp_image_put). */
int world_bpf_update(struct world *w, struct ftrace_ops *ops, const char *image,
		     struct ftv_err *err);
/* How many BPF trampoline images the objects have (ftv_bpf_image0..). */
unsigned world_bpf_images(const struct world *w);
int world_direct_remove(struct world *w, struct ftrace_ops *ops,
			struct ftv_err *err);
/* update_ftrace_direct_add (TRAMP given) / _del (TRAMP NULL) of the
 * functions in spec on the shared direct ops: see world_direct_batch. */
int world_direct_batch(struct world *w, struct ftrace_ops *ops, const char *spec,
		       const char *tramp, struct ftv_err *err);
/* ftrace_module_enable of the module named (NULL: of every module loaded),
 * as one update. */
int world_enable_modules(struct world *w, const char *name, struct ftv_err *err);
/* A late module (world_config.module_late) loaded while the CPUs run: its
 * sites are init_nop'ed (ftrace_module_init) and enabled
 * (ftrace_module_enable), two updates queued like any other; once they
 * have landed the workload calls its functions. Unloaded: the workload
 * stops calling it, ftrace_release_mod drops its records, and after every
 * CPU has passed a quiescent point its text is freed (poisoned). A module
 * is loaded at most once. */
int world_load_module(struct world *w, const char *name, struct ftv_err *err);
int world_unload_module(struct world *w, const char *name, struct ftv_err *err);
/* Another task (PLAN_AGENT_TEXT) flips the static branch ftv_static_key,
 * which every CPU runs once a round: kernel text patched by someone other
 * than ftrace, concurrently with ftrace's updates, through the same
 * primitives (the arch's static_branch verb). */
int world_static_key(struct world *w, int on, struct ftv_err *err);
/* static_key_enable(key) (on 1) or static_key_disable(key): every jump
 * label of the loaded objects' __jump_table that uses the static key
 * named key (its symbol), patched by the arch's jump_label verbs as one
 * plan of the text patcher agent, with the kernel's contract that the
 * change is visible to every CPU when it returns (checked as
 * "not-visible"; verify/world_text.c). */
int world_jump_label_key(struct world *w, const char *key, int on, struct ftv_err *err);
/* patch_text: the word at the symbol site swapped with the one at
 * site_alt (the objects define both) by the arch's stop_machine() text
 * patcher, as one plan of the text patcher agent that promises every CPU
 * executes the new word once it returns (verify/world_text.c). */
int world_text_poke(struct world *w, const char *site, struct ftv_err *err);
/* `text-write SYM+OFF WORD`: another task writes the instruction WORD over
 * the patched word of an ftrace site at SYM+OFF, without ftrace_lock
 * (arm64: aarch64_insn_patch_text_nosync's store and cache maintenance). */
int world_text_write(struct world *w, const char *at, const char *word,
		     struct ftv_err *err);
/* The poke sites the loaded objects define and the backend can patch
 * (up to max names written); how many there are. */
size_t world_text_poke_sites(struct world *w, const char **names, size_t max);
/* The static keys the loaded objects' jump labels use (up to max names
 * written); how many there are. */
size_t world_jump_label_keys(struct world *w, const char **names, size_t max);

/* Runs the CPUs and the queued plans for up to steps scheduler steps. */
int world_run(struct world *w, uint64_t steps, struct ftv_err *err);
/* world_settle(w, 1): the updates that follow are applied at once, each
 * to completion, before any CPU runs (a scenario's `settle` prefix: the
 * exhaustive walk starts from the world they leave); world_settle(w, 0):
 * back to queuing them, every CPU having synchronised since (a task
 * switch: it fetches the new text and calls the modules loaded). Only
 * before any CPU has run (the caller's to ensure). */
int world_settle(struct world *w, int on, struct ftv_err *err);
/* Applies every queued plan, lets every CPU finish its rounds, then runs
 * the end-of-run checks. */
int world_finish(struct world *w, uint64_t max_steps, struct ftv_err *err);
/* Around a replay's world_finish (on 1, then 0): its state hashes to
 * cfg.state_trace (world.h; nothing when that is NULL), after a line
 * "state symmetry: cpu0..cpuN" or "state symmetry: none (why)". */
void world_trace_states(struct world *w, int on);
/* After world_finish: whether the step budget ran out while a CPU was
 * still short of its rounds or a plan was still applying. That is "budget
 * exhausted", not a violation: the budget, not the patcher, ended the run,
 * so the end-of-run checks that need a finished run ("unfinished",
 * "stuck", unreturned graph entries) are not made. why (may be NULL) gets
 * what was left, e.g. "cpu19 completed 518 of its 580 rounds (and 3 more
 * CPUs short)". */
int world_budget_exhausted(const struct world *w, char *why, size_t n);
/* (A run a turn's time guard ended, exec_run_guarded, is budget exhausted
 * too: why says so.) */

/* Whether the run verified nothing (a vacuous verdict): an ops that was
 * registered but never had a site ftrace patches (its filter matched only
 * records of modules whose sites are not enabled, or none), or tracers
 * registered on patched sites that were never called in the whole run.
 * Returns how many such findings; why (may be NULL) gets the first, e.g.
 * "t1 reached no site (its 3 sites are in a module whose sites are not
 * enabled: add enable-modules)". */
int world_vacuous(const struct world *w, char *why, size_t n);

/* Whether an executor violation is reported as it is (1), or only through
 * the world violation that explains it (0: EXEC_V_PAIR, reported as
 * "pair-hazard"). */
int world_exec_violation_shown(const struct exec_violation *v);
size_t world_nviolations(const struct world *w);
const struct world_violation *world_violation(const struct world *w, size_t i);
/* Prints every violation (executor's and world's) with the sites involved,
 * and a summary. Returns the number of violations. */
size_t world_report(struct world *w, FILE *out);
/* Counters for summaries. */
struct world_stats {
	uint64_t sites, records, tracer_calls, func_calls, transitions, plans;
	uint64_t steps;
	long peak_rss_kb;
};
void world_stats(struct world *w, struct world_stats *st);
size_t world_boot_failures(const struct world *w,
			   const struct world_boot_failure **out);
/* ftrace_set_filter_ips on ops, queued like world_set_filter. */
int world_set_filter_ips(struct world *w, struct ftrace_ops *ops,
			 const uint64_t *ips, size_t n, struct ftv_err *err);
/* The names of the functions the workload calls, in record order, each
 * once: how many, the first max of them into names. */
size_t world_callables(const struct world *w, const char **names, size_t max);
/* What the call probe refused and why, in a line: "45 of the 57 functions
 * probed cannot be called: 31 call functions that are not loaded (printk,
 * ...), 9 fault, 3 write memory, 2 run too long; e.g. foo: calls printk,
 * which is not loaded" (a count of 1 in the singular: "1 faults"); "" when
 * nothing was refused. */
void world_probe_summary(const struct world *w, char *buf, size_t n);
struct ftv_exec *world_exec(struct world *w);
/* A scheduling point for exhaustive verification (exec_preempt_point): a
 * CPU's turn ends before the instruction at spec ("sym+0xoff", "sym" or
 * "0xaddr"). world_preempt_name: how one is written back. */
int world_preempt(struct world *w, const char *spec, struct ftv_err *err);
void world_preempt_name(struct world *w, uint64_t pc, char *buf, size_t n);
struct ftrace_core *world_core(struct world *w);
struct sim_aspace *world_aspace(struct world *w);

#endif
