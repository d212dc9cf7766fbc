/* Internals shared by the verify/ files. */
#ifndef FTV_VERIFY_WORLD_INT_H
#define FTV_VERIFY_WORLD_INT_H

#include "verify/world.h"
#include "verify/world_run.h"
#include "patcher/ftrace_core.h"
#include "util/rng.h"

struct world;

/* What differs between the architectures a world can model: one of these
 * per arch, each in its own file (verify/world_<arch>.c), listed in
 * verify/world_arch.c. The world code asks it instead of testing for an
 * architecture. */
struct world_archdesc {
	enum ftv_arch arch;
	const char *scheme_names;     /* "callops, tramp, mcount, ...", for messages */
	enum ftv_scheme default_scheme; /* what Linux does today */
	const char *tramp_subdir; /* under world_config.tramp_dir, "" for none */
	/* The trampolines have the function-graph tracer and the per-ops
	 * trampoline template (their symbols are required). */
	int graph_tracer;
	int reg_current;          /* exec register the kernel's code finds
				     `current` in (arm64: SP_EL0); only the
				     kernel scheme sets it */
	int reg_pcpu;             /* exec register the tracers find their per-CPU
				     block in */
	int reg_arg0;             /* first C argument register; the next ones
				     follow (x0.., a0..) */
	int reg_ra;               /* the return address register */
	int reg_sp;               /* the stack pointer */
	/* ftrace_caller's entry: the register the site's call linked
	 * (site + 4 in it), the one holding the ops it loaded at
	 * ftrace_caller_op_loaded, and where it read that ops from. */
	int reg_link, reg_ops;
	uint64_t (*literal_slot)(uint64_t link);
	const char *literal_slot_what; /* how that slot is found, for reports */
	int stop_anywhere;        /* exec_config.stop_anywhere */
	const char *call_insn;    /* the patched call, for reports: "BL" */
	ftrace_disasm_fn disasm;  /* one instruction word, for reports */
	/* Whether ret is a return address: follows a call instruction. */
	int (*follows_call)(struct sim_aspace *as, uint64_t ret);
	/* The instruction at pc: 1 if it returns to the caller, else 0; its
	 * length in bytes into *len (0: unreadable). For the timeline
	 * (verify/timeline.c), which ends a function's slice there. */
	int (*is_return)(struct sim_aspace *as, uint64_t pc, unsigned *len);
	/* The backends' deliberate bugs (patcher: struct ftrace_arch). */
	const struct ftrace_arch_mutant *mutants;

	/* Creates w->arch_ctx, the backend's context (struct
	 * ftrace_core_config.arch_ctx), once the trampolines' symbols and the
	 * sites (w->recs, sorted) are known; world_free frees it. */
	int (*backend_ctx)(struct world *w, struct ftv_err *err);
	/* The module's ftrace PLT for a site of module (module_init_ftrace_plt),
	 * or NULL when the arch's call reaches ftrace_caller from anywhere. */
	uint64_t (*module_plt)(struct world *w, const char *module, struct ftv_err *err);
	/* Explains an executor fault the generic explanations did not (e.g.
	 * a call whose offset was truncated); may be NULL. */
	void (*explain_fault)(struct world *w, const struct exec_violation *v);
	/* ftrace_call_adjust(): the site a table entry names (entry's value,
	 * s->kind set); 0, or -1 when the arch has no such table. */
	int (*entry_site)(uint64_t entry, struct ftrace_site *s);
	/* Explains the executor violations new since w->xv_explained that only
	 * this arch produces (e.g. a call pair executed across two
	 * generations); may be NULL. Called during and after the run. */
	void (*explain)(struct world *w);
	/* Replaying a captured kernel of this arch (verify/replay_int.h), or
	 * NULL when replay has no model of its kernels. */
	const struct world_replaydesc *replay;
};
extern const struct world_replaydesc world_replay_arm64;

#define WORLD_SCHEME_TRAMPS 8

/* What a world needs to know about a scheme; each is defined beside its
 * arch's world_archdesc. */
struct world_schemedesc {
	const char *name;
	enum ftv_arch arch;
	const char *corpus_set;          /* build/corpus/<set>/ */
	enum ftv_site_kind kind;         /* the sites it patches */
	const char *tramps[WORLD_SCHEME_TRAMPS]; /* objects in the arch's
						    trampoline dir */
	const struct ftrace_arch *backend;
	/* Every tracer ops gets its own trampoline (FTRACE_FL_TRAMP). */
	int ops_trampolines;
	/* Labels in its trampolines where a fully preemptible kernel may
	 * preempt a task holding a value it loaded (function_trace_op):
	 * scheduling points of the executor. */
	const char *preempt[4];
	/* More such places, only for fuzz's window-hold
	 * (exec_config.window_hold; the preempt labels are some too): a
	 * label whose instruction is the next after the load, so no label
	 * can sit between them (the per-ops trampolines' ftrace_caller:
	 * ftrace_call right after its load of function_trace_op). */
	const char *window[2];
	unsigned fuzz;                   /* FTV_SCHEME_FUZZ_* */
	/* The backend's context when it is not the arch's
	 * (world_archdesc.backend_ctx), and how to free it (NULL: free()):
	 * the kernel scheme's, verify/world_kernel.c. */
	int (*backend_ctx)(struct world *w, struct ftv_err *err);
	void (*backend_free)(void *ctx);
	/* Adds trampolines that are not in the arch's trampoline dir (the
	 * kernel scheme's ftrace_caller, from the kernel build), after
	 * tramps; NULL: none. */
	int (*add_tramps)(struct world *w, struct ftv_err *err);
	/* What a CPU needs beyond its per-CPU base when (re)started on ex
	 * (the kernel scheme's `current` in SP_EL0); NULL: nothing. */
	void (*start_cpu)(struct world *w, struct ftv_exec *ex, unsigned cpu);
	/* the Perfetto track of ftrace's updates (NULL: "patcher") */
	const char *patcher_track;
};

/* The callops world (arm64 CALL_OPS sites, ftv's CALL_OPS trampolines):
 * scheme callops with ftv's backend, scheme kernel with Linux's own. */
#define WORLD_ARM64_CALLOPS_WORLD                                             \
	.arch = FTV_ARCH_ARM64, .corpus_set = "callops",                      \
	.kind = FTV_SITE_CALL_OPS,                                            \
	.tramps = { "entry-callops.o", "graph.o", "direct.o", "tracers.o",    \
		    "workload.o", "ops-tramp.o" }

/* The arch hooks that live in their own files (verify/explain_<arch>.c). */
void arm64_explain_fault(struct world *w, const struct exec_violation *v);
void riscv64_explain_pairs(struct world *w);

const struct world_archdesc *world_archdesc(enum ftv_arch a);
/* The i-th arch of the table, NULL past the end. */
const struct world_archdesc *world_arch_at(size_t i);
const struct world_schemedesc *world_schemedesc(enum ftv_scheme s);

/* A check or an explanation, run at fixed points of a world's life. Each
 * file of checks registers its own with WORLD_CHECK (verify/world_check.c
 * keeps the list): the world code calls the list, never a check by name. */
struct world_check {
	const char *name;
	int order; /* the hooks run in increasing order */
	/* The world is built and calibrated, before the measured run:
	 * breakpoints, watchpoints. */
	int (*install)(struct world *w, struct ftv_err *err);
	/* During a stop_early run, to know whether a violation is known yet:
	 * add what is new since the last call. */
	void (*poll)(struct world *w);
	/* The run is over; complete is 0 when it was cut short at the first
	 * violation (stop_early), so that what only a completed run shows
	 * (unfinished CPUs) must not be reported. */
	void (*finish)(struct world *w, int complete);
	struct world_check *next;
};

void world_check_register(struct world_check *c);
int world_checks_install(struct world *w, struct ftv_err *err);
void world_checks_poll(struct world *w);
void world_checks_finish(struct world *w, int complete);

#define WORLD_CHECK(NAME, ...)                                                 \
	static struct world_check world_check_##NAME = { #NAME, __VA_ARGS__ }; \
	__attribute__((constructor)) static void world_check_reg_##NAME(void)  \
	{                                                                      \
		world_check_register(&world_check_##NAME);                     \
	}

#define WORLD_STACK_SIZE  0x10000ULL
/* `symmetric` worlds: each CPU's per-CPU block starts on a page of its
 * own (the executor's page size, executor/exec_pages.h), so that
 * interchanging two CPUs moves whole pages (executor/exec_sym.h) */
#define WORLD_SYM_ALIGN   4096ULL
#define WORLD_LOG_CAP     4096
/* A module of the world (its state: world_run.mod_state). */
struct wmod {
	const char *name;   /* the sim object's module name */
	int late;
	uint64_t plt;       /* its ftrace PLT (one per module), or 0 */
	/* executor plan whose completion makes it callable, or -1 */
	int ready_plan;
	const struct sim_object_info *obj;
};

/* An entry of the kernel's table that scripts/sorttable zeroed (a weak
 * function another object overrides), verify/world_table.c. */
struct world_zeroed {
	const char *object;  /* the object whose table holds it */
	uint64_t index;      /* its index in that table */
	uint64_t was;        /* what it named before sorttable zeroed it */
	char where[96];      /* that address as "weak.o .text+0x28" */
	int rec;             /* core record ftrace_process_locs made of it, or -1 */
};

/* A record as the checks see it. */
struct wrec {
	int rec;            /* core record index */
	int mod;            /* index in world.mods, or -1 (kernel text) */
	uint64_t ip, func, literal, mov;
	const char *name;
	const struct sim_site *site;
	int active;         /* called by the workload and checked (the
			       world_config's site_active) */
	/* plans touching this record: the newest queued one and whether an
	 * enable (make_call/modify_call) or a disable (make_nop) */
	int last_plan;
	int last_enable;
	/* 1 + the index (world.plans) of the newest plan writing its site or
	 * its literal; 0: none */
	size_t touch_plan;
};

/* The one conversion from the loader's site (sim/image.h) to the core's
 * (patcher/ftrace_arch.h): the record ftrace_process_locs() makes of a
 * __patchable_function_entries entry (kernel/trace/ftrace.c), ip being the
 * word ftrace_call_adjust() names. The world may then give it its own
 * module PLT. */
static inline struct ftrace_site world_ftrace_site(const struct sim_site *s)
{
	return (struct ftrace_site){
		.ip = s->addr, .init_addr = s->mov_addr, .func = s->func,
		.literal = s->literal, .plt = s->plt, .name = s->funcname,
		.module = s->module, .kind = s->kind,
	};
}

struct wops {
	struct ftrace_ops *ops;
	char name[32];
	char tracer[16];
	uint64_t addr;       /* emulated struct ftv_ops */
	uint64_t func;       /* the tracer that must run for it */
	int direct;
	unsigned char *ever; /* per wrec: ever had the record in its filter */
	int free_plan;       /* plan that frees it, or -1 (its completion:
				world_run.ops_freed) */
	/* 1 + the index of the newest plan made by an operation on it
	 * (register, unregister, filter, direct); 0: none */
	size_t touch_plan;
	/* the BPF trampoline image attached through it (bpf-update): its
	 * symbol, or "" (verify/world_bpf.c) */
	char bpf_image[40];
};

/* A function of a user's object probed for the workload (verify/
 * world_probe.c): callable with the argument vectors that passed, or
 * refused, and why. */
#define PROBE_VECTORS 6
/* the call probe's zeroed read-only buffer, an argument it tries */
#define WORLD_PROBE_ZERO (SIM_DATA_BASE + (128ULL << 20))
#define WORLD_PROBE_ZERO_SIZE (64ULL << 10)
enum { WPROBE_UNTESTED, WPROBE_OK, WPROBE_REFUSED };
struct wprobe {
	int state;
	unsigned nvec;
	uint64_t args[PROBE_VECTORS][3];
	char why[200];
};

/* A plan the world queued: the records it touches. */
struct wplan {
	int id;            /* executor plan id (its completion:
			      world_run.plan) */
	int *recs;         /* wrec indices, with enable flags */
	unsigned char *enable;
	size_t nrecs;
	const char *what;  /* the operation, for reports */
	const char *ops;   /* the name of the ops it is for, or NULL */
	int agent;         /* PLAN_AGENT_*: who applies it */
	struct plan plan;  /* a copy, for failure reports */
};

/* Step k of plan id (wp: its wplan, or NULL) as the executor performed
 * it: a live plan's steps follow its reads (patcher/plan.h), wp's copy
 * is the plan as made. NULL if none. */
const struct plan_step *world_plan_step(struct world *w, int id, const struct wplan *wp,
					size_t k);

/* A CPU as built: its per-CPU data and call table (what its run changes:
 * world_run.cpu). */
struct wcpu {
	uint64_t pcpu, log, graph, work, calls, stack;
	int *call_rec;       /* per entry of its call table: the wrec called */
	unsigned ncalls;
};

/* The world as built: world_new (and the operations that queue updates)
 * write it; while the CPUs run only its run state changes (run, and the
 * core's own state: what exhaustive verification restores). */
struct world {
	struct world_config cfg;
	const struct world_archdesc *ad;
	const struct world_schemedesc *sd;
	struct sim_aspace *as;
	struct sim_image *img;
	struct ftv_exec *ex;
	struct ftrace_core *core;
	void *arch_ctx;               /* the backend's context (backend_ctx) */
	const struct ftrace_arch *backend;
	struct sim_region *data, *percpu;
	uint64_t sym_end;             /* `symmetric`: the last CPU's block's end */
	struct ftv_rng rng;

	/* symbols */
	uint64_t caller, tracer_a, tracer_b, list_func, nop_func, stub,
		direct_func, direct_tramp, stub_direct_tramp, graph_func,
		prepare_return, return_handler, quiescent, workload,
		workload_done, direct_log, ops_known, tramp_template,
		tramp_template_end, tramp_ops_slot, tramp_body_slot, static_key;
	/* where ftrace_caller holds the ops it loaded from the site's literal
	 * and has not yet loaded its func or direct_call: ftv's
	 * ftrace_caller_op_loaded label, or found in the kernel's code
	 * (verify/world_kernel.c); 0: none */
	uint64_t op_loaded;
	/* the ops' layout when it is not ftv's (size 0: ftv's), the kernel
	 * scheme's: patcher/ftrace_layout.h */
	struct ftrace_ops_layout ops_layout;
	/* the kernel scheme's per-CPU task_struct (SP_EL0: `current`), cpu c's
	 * at kcurrent + c * kcurrent_size; 0: none */
	uint64_t kcurrent, kcurrent_size;
	int static_key_on;
	/* the BPF trampoline images handed out so far (never twice) */
#define WORLD_BPF_IMAGES 4
	uint64_t bpf_used[WORLD_BPF_IMAGES];
	/* each one's return address from the original function (the
	 * instruction after its adr lr; ret x10) */
	uint64_t bpf_ret[WORLD_BPF_IMAGES];
	size_t nbpf_used;
	/* the objects' static keys, jump labels and text poke sites, read
	 * when first used (verify/world_text.c) */
	struct world_text *text;

	struct wrec *recs;
	size_t nrecs;
	int *rec_of_core; /* core record index -> wrec */
	size_t ncore, caprec_of_core;

	struct wops ops[WORLD_MAX_OPS];
	size_t nops;

	struct wmod mods[WORLD_MAX_OBJECTS];
	size_t nmods;

	struct world_zeroed *zeroed;
	size_t nzeroed;

	struct wplan *plans;
	size_t nplans, capplans;

	struct wcpu cpu[EXEC_MAX_CPUS];

	/* everything an execution changes (verify/world_run.h) */
	struct world_run run;

	struct plan scratch;
	/* the ops the operation being submitted acts on (wops index + 1; 0:
	 * none), for the plan's touch marks (world_submit) */
	size_t cur_ops;
	/* world_settle: updates are applied at once (exec_apply), not
	 * queued; nsettled of them so far (their plan ids -2, -3, ...) */
	int settling;
	int nsettled;
	/* verify/world_verify.c: the run state and the core's, saved
	 * before the first execution and put back before each */
	struct wsaved *saved;
	int func_sorted;    /* recs are sorted by func too */
	struct world_boot_failure *bootfail;
	size_t nbootfail, capbootfail;
	/* per wrec: the workload calls it */
	unsigned char *called;
	/* per wrec, the probe of a user's function (NULL: none probed) */
	struct wprobe *probe;
	void *probe_ctx;    /* the probe's executor while it runs */
	struct sim_region *probe_zero; /* WORLD_PROBE_ZERO, when probing */
};

/* world_new in two halves, for worlds loaded another way (verify/replay*.c
 * maps a captured kernel layout): world_alloc, then the caller sets w->as
 * and w->img (the trampolines linked), then world_setup finds the
 * trampolines' symbols, builds the core over the sites, init_nops them,
 * creates the CPUs, calibrates and installs the checks. */
struct world *world_alloc(const struct world_config *cfg, struct ftv_err *err);
int world_setup(struct world *w, struct ftv_err *err);
/* Adds the scheme's trampoline objects (cfg.tramp_dir) to w->img. */
int world_add_trampolines(struct world *w, struct ftv_err *err);
/* verify/world_core.c: the core over the sites (w->recs), the modules,
 * every site init_nop'ed. */
int world_make_core(struct world *w, struct ftv_err *err);
/* verify/world_cpus.c: the workload's functions and each CPU's data and
 * call table; the CPUs (re)started on ex for rounds rounds (calibrate: the
 * untraced round); that round run on ex; and the late modules' functions
 * calibrated on a machine of their own. */
int world_setup_cpus(struct world *w, struct ftv_err *err);
int world_start_cpus(struct world *w, struct ftv_exec *ex, unsigned rounds, int calibrate,
		     struct ftv_err *err);
int world_calibrate(struct world *w, struct ftv_exec *ex, struct ftv_err *err);
int world_calibrate_late(struct world *w, const struct exec_config *ec, struct ftv_err *err);

/* verify/world_verify.c: frees w->saved */
void world_verify_forget(struct world *w);
/* verify/world_state.c: the world's part of the stateful walk's state
 * (an exec_state_fn, arg = the world) */
void world_state_words(struct ftv_exec *ex, struct exec_state_sink *s, void *arg);
/* world_sym.c: the CPUs made interchangeable for the stateful walk
 * (executor/exec_sym.h) when the world allows it: 1, else 0 and why. */
int world_set_symmetry(struct world *w, char *why, size_t nwhy);

/* verify/violation.c */
int world_add_violation(struct world *w, const char *kind, int cpu,
			uint64_t step, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* verify/world_table.c: the entries of the core kernel's table that
 * sorttable zeroed; the site ftrace_call_adjust makes of one; and whether
 * a boot-time write lands outside text (then reported, and not made). */
int world_zeroed_entries(struct world *w, struct world_zeroed **out, size_t *n,
			 struct ftv_err *err);
int world_zeroed_site(struct world *w, const struct world_zeroed *z, struct ftrace_site *s);
int world_boot_write_outside_text(struct world *w, const struct plan_step *st);
/* 1 (and reported) when the backend cannot even encode the init_nop of
 * the zeroed entry's site (riscv: AUIPC out of range from address 0),
 * which the kernel would write at that address all the same. */
int world_zeroed_unencodable(struct world *w, const struct world_zeroed *z,
			     const struct ftrace_site *s);
/* verify/world_find.c: the index of the wrec whose patched word (or
 * function entry) is ip, or -1. */
int world_rec_at_ip(const struct world *w, uint64_t ip);
int world_rec_at_func(const struct world *w, uint64_t func);
struct wops *world_ops_at(struct world *w, uint64_t addr);
/* Whether ops o's free plan completed (it is freed memory now). */
static inline int world_ops_freed(const struct world *w, const struct wops *o)
{
	return w->run.ops_freed[o - w->ops];
}
uint64_t world_step(struct world *w);
/* verify/timeline.c (the events: world_run.h). */
const struct tl_event *world_timeline(const struct world *w, size_t *n);
/* Where the recorded run begins (after the calibration round): its first
 * step, and the observations and executor events recorded before it. */
uint64_t world_timeline_start(const struct world *w, size_t *nobs, size_t *nev);
/* The events of cpu not kept after its TL_CUT. */
uint64_t world_timeline_dropped(const struct world *w, int cpu);

/* verify/world_probe.c: probes the function of wrec ri (once): 0 callable
 * (w->probe[ri] has its argument vectors), 1 refused (w->probe[ri].why),
 * -1 error. world_probe_free ends the probing (world_free does too). */
int world_probe(struct world *w, size_t ri, struct ftv_err *err);
/* Maps the probe's buffer when the configuration asks for probing (before
 * any executor exists). */
int world_probe_map(struct world *w, struct ftv_err *err);
/* -1 with err naming the object when one whose functions are probed has
 * no patch site the scheme patches (none at all, or another layout's). */
int world_probe_check(struct world *w, struct ftv_err *err);
void world_probe_free(struct world *w);

/* verify/world_ops.c: queues w->scratch as a plan named what; resets
 * scratch. Nothing is queued when scratch is empty. */
int world_submit(struct world *w, const char *what, struct ftv_err *err);
/* verify/world_module.c: makes the functions of module m callable by the
 * workload (1) or not (0): their entries in every CPU's call table. */
void world_module_calls(struct world *w, size_t m, int on);
/* cpu took a task switch at step: a context synchronisation and a
 * quiescent point, after which it calls the modules loaded (their load
 * plans landed). */
void world_cpu_synced(struct world *w, unsigned cpu, uint64_t step);

/* verify/world_text.c: the static-key unit's jump labels and poke site
 * watched (after exec_new), and the whole freed */
int world_text_watch(struct world *w, struct ftv_err *err);
void world_text_free(struct world *w);

/* verify/world_ops.c's ops lookup and its submit after an operation on
 * ops o (for the operations in other files: world_bpf.c). */
struct wops *world_wops_of(struct world *w, struct ftrace_ops *ops);
int world_after_op(struct world *w, struct wops *o, int ret, const char *what,
		   struct ftv_err *err);
/* verify/world_bpf.c: each CPU's voluntary context switch (ftv_schedule)
 * and the percpu_ref points of the BPF images, when the objects have them. */
int world_bpf_start(struct world *w, struct ftv_exec *ex, unsigned cpu,
		    struct ftv_err *err);
/* Whether addr is a BPF image handed out (its fentry program logs as
 * ftv_direct_tramp does). */
int world_bpf_image_at(const struct world *w, uint64_t addr);
/* Whether addr is where a BPF image's call of the original function
 * returns (a parent_ip that follows no BL: the JIT calls with ret x10). */
int world_bpf_orig_return(const struct world *w, uint64_t addr);
/* A fault in a BPF image a completed plan freed, explained as a
 * use-after-free (verify/explain.c); 1 if it was one. */
int world_bpf_explain_fault(struct world *w, const struct exec_violation *v);

#endif
