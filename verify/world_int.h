/* Internals shared by the verify/ files. */
#ifndef FTV_VERIFY_WORLD_INT_H
#define FTV_VERIFY_WORLD_INT_H

#include "verify/world.h"
#include "patcher/ftrace_core.h"
#include "patcher/riscv.h"
#include "util/rng.h"

/* What a world needs to know about an architecture (verify/world_arch.c). */
struct world_archdesc {
	enum ftv_arch arch;
	const char *tramp_subdir; /* under world_config.tramp_dir, "" for none */
	int reg_pcpu;             /* exec register the tracers find their per-CPU
				     block in */
	int reg_arg0;             /* first C argument register; the next ones
				     follow (x0.., a0..) */
	int reg_ra;               /* the return address register */
	/* ftrace_caller's entry: the register the site's call linked
	 * (site + 4 in it), the one holding the ops it loaded at
	 * ftrace_caller_op_loaded, and where it read that ops from. */
	int reg_link, reg_ops;
	uint64_t (*literal_slot)(uint64_t link);
	int stop_anywhere;        /* exec_config.stop_anywhere */
	const char *call_insn;    /* the patched call, for reports: "BL" */
	ftrace_disasm_fn disasm;  /* one instruction word, for reports */
	/* Whether ret is a return address: follows a call instruction. */
	int (*follows_call)(struct sim_aspace *as, uint64_t ret);
};

#define WORLD_SCHEME_TRAMPS 8

/* What a world needs to know about a scheme. */
struct world_schemedesc {
	const char *name;
	enum ftv_arch arch;
	const char *corpus_set;          /* build/corpus/<set>/ */
	enum sim_site_layout layout;     /* the sites it patches */
	enum ftrace_site_kind kind;
	const char *tramps[WORLD_SCHEME_TRAMPS]; /* objects in the arch's
						    trampoline dir */
	const struct ftrace_arch *backend;
};

const struct world_archdesc *world_archdesc(enum ftv_arch a);
const struct world_schemedesc *world_schemedesc(enum ftv_scheme s);

#define WORLD_STACK_SIZE  0x10000ULL
#define WORLD_LOG_CAP     4096
#define WORLD_GRAPH_DEPTH 64
#define WORLD_MAX_OPS     256

/* A record as the checks see it. */
struct wrec {
	int rec;            /* core record index */
	uint64_t ip, func, literal, mov;
	const char *name;
	const struct sim_site *site;
	int active;         /* called by the workload and checked (the
			       world_config's site_active) */
	/* plans touching this record: the newest queued one and whether an
	 * enable (make_call/modify_call) or a disable (make_nop) */
	int last_plan;
	int last_enable;
	uint64_t settled_step; /* step when the last plan touching it ended */
};

struct wops {
	struct ftrace_ops *ops;
	char name[32];
	char tracer[16];
	uint64_t addr;       /* emulated struct ftv_ops */
	uint64_t func;       /* the tracer that must run for it */
	int direct;
	unsigned char *ever; /* per wrec: ever had the record in its filter */
	int free_plan;       /* plan that frees it, or -1 */
	int freed;           /* that plan completed */
};

/* A plan the world queued: the records it touches. */
struct wplan {
	int id;            /* executor plan id */
	int done;
	uint64_t done_step;
	int *recs;         /* wrec indices, with enable flags */
	unsigned char *enable;
	size_t nrecs;
	const char *what;  /* the operation, for reports */
	struct plan plan;  /* a copy, for failure reports */
};

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
};

struct wcpu {
	uint64_t pcpu, log, graph, work, calls, stack;
	uint64_t last_sync;  /* step of its last context synchronisation */
	uint64_t last_qs;    /* step of its last quiescent point */
	struct wcall call;
	uint64_t gstack[WORLD_GRAPH_DEPTH]; /* host mirror of the graph stack */
	unsigned gdepth;
};

struct world {
	struct world_config cfg;
	const struct world_archdesc *ad;
	const struct world_schemedesc *sd;
	struct sim_aspace *as;
	struct sim_image *img;
	struct ftv_exec *ex;
	struct ftrace_core *core;
	struct arm64_ftrace arch;     /* the backend's context: arm64 */
	struct riscv_ftrace_ctx rv;   /* or riscv64 */
	const struct ftrace_arch *backend;
	struct sim_region *data, *percpu;
	struct ftv_rng rng;

	/* symbols */
	uint64_t caller, tracer_a, tracer_b, list_func, nop_func, stub,
		direct_func, direct_tramp, stub_direct_tramp, graph_func,
		prepare_return, return_handler, quiescent, workload,
		workload_done, direct_log, ops_known, tramp_template,
		tramp_template_end, tramp_ops_slot, tramp_body_slot;

	struct wrec *recs;
	size_t nrecs;
	int *rec_of_core; /* core record index -> wrec */
	size_t ncore;

	struct wops ops[WORLD_MAX_OPS];
	size_t nops;

	struct wplan *plans;
	size_t nplans, capplans;

	struct wcpu cpu[EXEC_MAX_CPUS];

	struct world_violation *viol;
	size_t nviol, capviol;

	struct plan scratch;
	struct world_stats st;
	int finished;
	int func_sorted;    /* recs are sorted by func too */
	struct world_boot_failure *bootfail;
	size_t nbootfail;
	/* explain_riscv.c's progress through the executor's violations */
	size_t rv_xv_explained;
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

int world_add_violation(struct world *w, const char *kind, int cpu,
			uint64_t step, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Index of the wrec whose patched word (or function entry) is ip, or -1. */
int world_rec_at_ip(const struct world *w, uint64_t ip);
int world_rec_at_func(const struct world *w, uint64_t func);
struct wops *world_ops_at(struct world *w, uint64_t addr);
/* Queues w->scratch as a plan named what; resets scratch. */
int world_submit(struct world *w, const char *what, struct ftv_err *err);
/* Installs the breakpoints of the checks (check.c). */
int world_checks_install(struct world *w, struct ftv_err *err);
void world_checks_finish(struct world *w);
/* Adds violations that explain the executor's faults (explain.c). */
void world_explain_faults(struct world *w);
/* Adds a pair-hazard violation per mixed call pair a riscv CPU executed
 * (explain_riscv.c); looks only at what is new since its last call. */
void world_explain_riscv(struct world *w);
uint64_t world_step(struct world *w);

#endif
