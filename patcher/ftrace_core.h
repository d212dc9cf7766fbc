/* The ftrace core model: ops, records and the accounting of Linux's
 * kernel/trace/ftrace.c, producing plans (patcher/plan.h) through an arch
 * backend (patcher/ftrace_arch.h). It knows no instruction encodings.
 *
 * Life of a model:
 *
 *   struct ftrace_core_config cfg = { .arch = &arm64, .arch_ctx = a,
 *       .caller = ftrace_caller, .regs_caller = ftrace_caller,
 *       .list_func = list, .nop_func = nop, .stub_func = stub,
 *       .direct_func = call_direct_funcs,
 *       .alloc = ftrace_alloc_from_region, .alloc_ctx = data_region };
 *   core = ftrace_core_new(&cfg, &plan, &err);      boot-time writes
 *   ftrace_core_add_site(core, &site, &plan, &err);  ftrace_init_nop each
 *   ops = ftrace_ops_new(core, &(struct ftrace_ops_desc){ .name = "t1",
 *       .func = tracer1 }, &err);
 *   ftrace_set_filter(core, ops, "foo,bar", 1, &plan, &err);
 *   ftrace_register_ops(core, ops, &plan, &err);    one batched update
 *   ftrace_unregister_ops(core, ops, &plan, &err);  ... QUIESCE, FREE
 *
 * Every update appends to the caller's plan; the executor applies it while
 * emulated CPUs run. Host-side state (flags, counts) changes at once, as in
 * the kernel, where it changes under ftrace_lock before the code is patched.
 *
 * Emulated memory. Each ops is a struct ftv_ops (patcher/ftrace_abi.h) at an
 * address from the allocator callback; the core also allocates
 * ftrace_list_ops, ftrace_nop_ops, the ops list head (ftrace_ops_list) and
 * function_trace_op. All their fields are written by PLAN_WRITE_DATA64 steps,
 * because trampolines on emulated CPUs read them concurrently. Filter and
 * notrace tables are sorted u64 ip arrays preceded by their count (at
 * table-8, see FTV_OPS_FILTER): a new table is written completely before its
 * pointer is published, and an old one is freed only after a PLAN_QUIESCE.
 *
 * The update (ftrace_modify_all_code): for every record, in ip order, the
 * core computes the new state from the registered ops (count, REGS, TRAMP,
 * DIRECT, CALL_OPS), compares it with the enabled state (the *_EN flags and
 * the installed ops literal) and calls exactly one verb for each record that
 * changes: make_call, make_nop or modify_call. The steps of one call are,
 * in order:
 *   ops image and list link (register; DMB before the head store) or unlink
 *   [STOP_MACHINE]                       arches with FTRACE_ARCH_STOP_MACHINE
 *   [ftrace_call -> list function]       global scheme, when the func changes
 *   one verb per changed record, ip order (steps stamped with the record)
 *   [function_trace_op, DMB, SYNC_ALL, ftrace_call -> final func]
 *   [ftrace_graph_call NOP <-> B]        graph register/unregister
 *   [RESUME_MACHINE]
 *   [QUIESCE, FREE...]                   when something is released
 *
 * Failures. A verb error is ftrace_bug(): the record gets FAILED|DISABLED,
 * the update stops at that record (ftrace_replace_code: "Stop processing";
 * later records keep their old state), and the whole model is killed like
 * ftrace_kill() after FTRACE_WARN_ON_ONCE: every later call returns -1 with
 * "ftrace is disabled". The update function itself still returns 0 (the
 * kernel's register_ftrace_function does not report the bug either); read
 * ftrace_core_bug(). After a bug nothing is freed any more: a site may
 * still reference the memory. Bad input (unknown function, ops already registered,
 * direct call on a site that has one) returns -1 with err set and changes
 * nothing.
 */
#ifndef FTV_PATCHER_FTRACE_CORE_H
#define FTV_PATCHER_FTRACE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "patcher/ftrace_arch.h"
#include "patcher/ftrace_layout.h"
#include "patcher/plan.h"
#include "util/err.h"

struct sim_aspace;
struct ftrace_core;
struct ftrace_ops;

/* ops flags (host side; the FTV_OPS_FL_* subset is mirrored into the
 * emulated struct for trampolines). */
enum {
	FTRACE_OPS_FL_SAVE_REGS = 1u << 0,  /* needs ftrace_regs_caller */
	/* ftrace must protect func against recursion: it cannot be called
	 * directly, only through the assist/list function (Linux 5.11+
	 * meaning), so such an ops never gets a CALL_OPS literal. */
	FTRACE_OPS_FL_RECURSION = 1u << 1,
	FTRACE_OPS_FL_STUB = 1u << 2,       /* func need not be called */
	FTRACE_OPS_FL_DIRECT = 1u << 3,     /* a direct-call ops */
	FTRACE_OPS_FL_GRAPH = 1u << 4,      /* the function-graph ops */
	FTRACE_OPS_FL_RCU = 1u << 5,        /* func only when RCU is watching */
	/* The core frees the ops memory (PLAN_FREE after PLAN_QUIESCE) when
	 * it is unregistered (the kernel's FTRACE_OPS_FL_DYNAMIC). Set by
	 * ftrace_ops_new; cleared for ops whose memory outlives them. */
	FTRACE_OPS_FL_DYNAMIC = 1u << 6,
	/* The core frees the ops' own trampoline on unregister, after the
	 * quiescent point (FTRACE_OPS_FL_ALLOC_TRAMP). */
	FTRACE_OPS_FL_ALLOC_TRAMP = 1u << 7,
};

/* Record flags (struct dyn_ftrace.flags). X is "wanted now", X_EN is "what
 * the site does now". */
enum {
	FTRACE_FL_ENABLED = 1u << 0,
	FTRACE_FL_REGS = 1u << 1,
	FTRACE_FL_REGS_EN = 1u << 2,
	FTRACE_FL_TRAMP = 1u << 3,
	FTRACE_FL_TRAMP_EN = 1u << 4,
	FTRACE_FL_CALL_OPS = 1u << 5,
	FTRACE_FL_CALL_OPS_EN = 1u << 6,
	FTRACE_FL_DIRECT = 1u << 7,
	FTRACE_FL_DIRECT_EN = 1u << 8,
	FTRACE_FL_DISABLED = 1u << 9, /* never touched by updates */
	FTRACE_FL_FAILED = 1u << 10,  /* a verb failed here (ftrace_bug) */
	/* The record's module is not loaded: not yet (ftrace_module_init
	 * has not run) or no more (ftrace_release_mod). The kernel has no
	 * record then; the model keeps it so that indices stay stable, and
	 * no lookup, filter or update sees it (it is DISABLED too). */
	FTRACE_FL_UNLOADED = 1u << 11,
};

/* Mutants of the core (struct ftrace_core_config.mutants). */
enum {
	FTRACE_MUT_DROP_QUIESCE = 1u << 0,
	/* No DMB before publishing a new ops (list head, predecessor's next)
	 * or a new filter table pointer: rcu_assign_pointer without its
	 * release ordering. */
	FTRACE_MUT_NO_PUBLISH_BARRIER = 1u << 1,
	/* A registered ops' new filter/notrace pointer is stored before the
	 * table contents are written. */
	FTRACE_MUT_PUBLISH_TABLE_EARLY = 1u << 2,
	/* Unregister frees the ops (after a quiescent point, even) before
	 * the sites stop pointing at it. */
	FTRACE_MUT_FREE_BEFORE_UNPATCH = 1u << 3,
	/* ftrace_process_locs takes a zeroed entry of the kernel's table for
	 * a call site (ftrace_core_loc_wanted). */
	FTRACE_MUT_PATCH_ZEROED_ENTRY = 1u << 4,
	/* bpf_tramp_image_put() as before e21d2b92354b ("bpf: Fix fexit
	 * trampoline", 2021): the old image freed after one
	 * synchronize_rcu_tasks(), with no percpu_ref (patcher/bpf_tramp.c). */
	FTRACE_MUT_BPF_EARLY_FREE = 1u << 5,
	/* update_ftrace_direct_add/del run ftrace_update_ops under
	 * direct_mutex only, without ftrace_lock (before "ftrace: Add missing
	 * ftrace_lock to update_ftrace_direct_add/del", 2026): their plan is
	 * applied by another task than ftrace_lock's holder
	 * (ftrace_direct_batch.c). */
	FTRACE_MUT_DIRECT_BATCH_UNLOCKED = 1u << 6,
};

typedef uint64_t (*ftrace_alloc_fn)(void *ctx, uint64_t size, uint64_t align,
				    struct ftv_err *err);

struct ftrace_core_config {
	const struct ftrace_arch *arch;
	void *arch_ctx;
	/* Emulated addresses of the shared code. */
	uint64_t caller;      /* ftrace_caller (FTRACE_ADDR) */
	uint64_t regs_caller; /* ftrace_regs_caller; 0 = same as caller */
	uint64_t list_func;   /* ftrace_ops_list_func */
	uint64_t nop_func;    /* ftrace_ops_nop_func (func of ftrace_nop_ops) */
	uint64_t stub_func;   /* ftrace_stub (ftrace_call with no tracer) */
	uint64_t direct_func; /* call_direct_funcs (func of direct ops) */
	/* Where the list func finds the head of the ops list and where
	 * ftrace_caller loads function_trace_op; 0 = allocate them. */
	uint64_t list_head_addr;
	uint64_t trace_op_addr;
	/* The -pg scheme's ftrace_graph_entry: where ftrace_graph_caller
	 * finds the graph ops whose filter it tests (0 there: no graph
	 * entry); 0 = the trampolines have none. */
	uint64_t graph_ops_addr;
	/* ftrace_ops_assist_func: what ftrace_call calls for a single ops
	 * that needs recursion/RCU protection; 0 = the list function. */
	uint64_t assist_func;
	/* Emulated memory for ops, tables and the core's own words. */
	ftrace_alloc_fn alloc;
	void *alloc_ctx;
	/* Mutant knob: omit the PLAN_QUIESCE before freeing (a
	 * free-without-quiescence bug); the same as FTRACE_MUT_DROP_QUIESCE. */
	int drop_quiesce;
	/* Further deliberate bugs (FTRACE_MUT_*), so the verifier can show
	 * it catches them. 0 for the faithful model. */
	unsigned mutants;
	/* Optional: the core names what it allocates there ("ftrace_list_ops",
	 * "ops:t1", "ops:t1:filter", ...) so reports symbolize them. */
	struct sim_aspace *as;
	/* Where the ops' fields are (patcher/ftrace_layout.h); NULL: ftv's
	 * struct ftv_ops. The kernel scheme's: the build's struct
	 * ftrace_ops. */
	const struct ftrace_ops_layout *ops_layout;
};

/* A record, read-only for users (ftrace_core_rec). */
struct ftrace_rec {
	struct ftrace_site site;
	unsigned flags;     /* FTRACE_FL_* */
	unsigned refs;      /* number of registered ops tracing this ip */
	uint64_t ops_cur;   /* ops literal installed now (0 without CALL_OPS) */
	uint64_t direct;    /* direct trampoline attached to this ip, or 0 */
};

/* The description of a new ops. */
struct ftrace_ops_desc {
	const char *name;       /* for reports; copied */
	uint64_t func;          /* tracer function (emulated address) */
	unsigned flags;         /* FTRACE_OPS_FL_* (DYNAMIC is added
				 * unless static_ops) */
	uint64_t private_data;
	uint64_t trampoline;    /* own trampoline (FTRACE_FL_TRAMP), or 0 */
	uint64_t trampoline_size; /* for PLAN_FREE with ALLOC_TRAMP */
	/* The ops lives in kernel data rather than allocated memory (no
	 * FTRACE_OPS_FL_DYNAMIC): never freed, it may be registered again,
	 * and, as in ftrace_shutdown, its unregistration waits for no
	 * quiescent point unless something else is freed. */
	int static_ops;
};

/* Creation and boot. ftrace_core_new allocates and writes (into *p)
 * ftrace_list_ops, ftrace_nop_ops, the list head and function_trace_op. */
struct ftrace_core *ftrace_core_new(const struct ftrace_core_config *cfg,
				    struct plan *p, struct ftv_err *err);
void ftrace_core_free(struct ftrace_core *c); /* host memory only */

/* Adds a record and calls the arch's init_nop (ftrace_update_code). Sites
 * must be added in increasing ip order, each ip once. Returns the record
 * index, or -1 (bad input, or init_nop failed: then the record exists,
 * FAILED|DISABLED, and the model is killed). A site with a module starts
 * DISABLED (ftrace_module_init): no update touches it until
 * ftrace_module_enable(), which enables it for the ops registered then, as
 * the kernel does just before the module's init function runs (without
 * stop_machine: nobody runs that code yet); module NULL: every module that
 * has records, at once (no record of a module: nothing to do). */
int ftrace_core_add_site(struct ftrace_core *c, const struct ftrace_site *s,
			 struct plan *p, struct ftv_err *err);
int ftrace_module_enable(struct ftrace_core *c, const char *module,
			 struct plan *p, struct ftv_err *err);

/* ftrace_process_locs()'s filter of an entry of the core kernel's
 * __mcount_loc / __patchable_function_entries table (a module's table is
 * the module's own): 1 when the entry becomes a record, 0 when it is
 * skipped: zero (linker padding between objects; since Linux 6.14 the
 * weak functions another object overrides, which scripts/sorttable
 * zeroes), or not in kernel text (KASLR relocates a zeroed entry to
 * something other than zero: "ftrace: Check against is_kernel_text()
 * instead of kaslr_offset()", February 2025). in_text says whether addr
 * lies in kernel text (is_kernel_text || is_kernel_inittext). */
int ftrace_core_loc_wanted(const struct ftrace_core *c, uint64_t addr, int in_text);

/* Modules loaded and unloaded while CPUs run. ftrace_core_add_module_site
 * adds the record of a site of a module that is not loaded yet
 * (FTRACE_FL_UNLOADED; same ip order rule as ftrace_core_add_site, so a
 * world adds every site it may ever have at creation). Loading the module
 * is ftrace_module_init (init_nop of each of its sites, into p: the
 * module's text is written while other CPUs run, though none runs it yet),
 * then ftrace_module_enable as for a module loaded at boot. Unloading it is
 * ftrace_release_mod: its records go away (FTRACE_FL_UNLOADED again) and no
 * later update touches its text; nothing is written (delete_module has
 * already made sure nobody calls the module). The caller loads a module at
 * most once: its memory is freed after the unload, and a new load would be
 * new memory. */
int ftrace_core_add_module_site(struct ftrace_core *c, const struct ftrace_site *s,
				struct ftv_err *err);
int ftrace_module_init(struct ftrace_core *c, const char *module, struct plan *p,
		       struct ftv_err *err);
int ftrace_release_mod(struct ftrace_core *c, const char *module, struct ftv_err *err);

/* Ops. ftrace_ops_new allocates the emulated struct; nothing is written
 * until the ops is registered. An ops belongs to the core, which frees its
 * host memory in ftrace_core_free. */
struct ftrace_ops *ftrace_ops_new(struct ftrace_core *c,
				  const struct ftrace_ops_desc *d,
				  struct ftv_err *err);
/* Filters: spec is a comma-separated list of function names (every record
 * whose function has that name) and addresses (0x..., a record ip or
 * function entry). reset replaces the set, otherwise adds to it; an empty
 * spec with reset clears it (filter: trace everything). On a registered
 * ops the change is one update (ftrace_hash_move_and_update_ops). */
int ftrace_set_filter(struct ftrace_core *c, struct ftrace_ops *ops,
		      const char *spec, int reset, struct plan *p,
		      struct ftv_err *err);
int ftrace_set_notrace(struct ftrace_core *c, struct ftrace_ops *ops,
		       const char *spec, int reset, struct plan *p,
		       struct ftv_err *err);
/* The same with record ips. */
int ftrace_set_filter_ips(struct ftrace_core *c, struct ftrace_ops *ops,
			  const uint64_t *ips, size_t n, int reset,
			  struct plan *p, struct ftv_err *err);
int ftrace_set_notrace_ips(struct ftrace_core *c, struct ftrace_ops *ops,
			   const uint64_t *ips, size_t n, int reset,
			   struct plan *p, struct ftv_err *err);

/* register_ftrace_function / unregister_ftrace_function. Unregistering a
 * DYNAMIC ops ends the plan with PLAN_QUIESCE, then PLAN_FREE of its own
 * trampoline (ALLOC_TRAMP), its tables and its struct. The ops may not be
 * registered again after that (a static ops may; its tables are freed and
 * rewritten on the next registration). */
int ftrace_register_ops(struct ftrace_core *c, struct ftrace_ops *ops,
			struct plan *p, struct ftv_err *err);
int ftrace_unregister_ops(struct ftrace_core *c, struct ftrace_ops *ops,
			  struct plan *p, struct ftv_err *err);

/* Direct calls (register/modify/unregister_ftrace_direct). The ops needs a
 * non-empty filter; no ip in it may already have a direct call. The core
 * makes it a direct ops (func = direct_func, DIRECT|SAVE_REGS). Modify
 * follows the kernel: a temporary stub ops over the same ips sends every
 * site through the list function, ops->direct_call is rewritten, then the
 * stub goes and the sites call the new trampoline. */
int ftrace_register_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			   uint64_t addr, struct plan *p, struct ftv_err *err);
int ftrace_modify_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			 uint64_t addr, struct plan *p, struct ftv_err *err);
int ftrace_unregister_direct(struct ftrace_core *c, struct ftrace_ops *ops,
			     struct plan *p, struct ftv_err *err);

/* Direct-call batches (update_ftrace_direct_add/del, Linux 7.0): one shared
 * direct ops, many ip -> trampoline entries added or removed in one update
 * (ftrace_direct_batch.c). add: ips[0..n) get trampoline addr; the first
 * add registers the ops, later ones move its filter (ftrace_update_ops).
 * del: the ips leave the filter; the last one unregisters the ops, which
 * stays usable (the kernel's shared ops is static). */
int ftrace_direct_batch_add(struct ftrace_core *c, struct ftrace_ops *ops,
			    const uint64_t *ips, size_t n, uint64_t addr,
			    struct plan *p, struct ftv_err *err);
int ftrace_direct_batch_del(struct ftrace_core *c, struct ftrace_ops *ops,
			    const uint64_t *ips, size_t n, struct plan *p,
			    struct ftv_err *err);
/* Either, the ips as ftrace_set_filter's spec: add with addr, del with 0. */
int ftrace_direct_batch_spec(struct ftrace_core *c, struct ftrace_ops *ops,
			     const char *spec, uint64_t addr, struct plan *p,
			     struct ftv_err *err);

/* The function-graph tracer in the global-function scheme (the -pg one): ops
 * (GRAPH is added; STUB too, its func is not called) is registered and
 * ftrace_graph_call is patched to branch to ftrace_graph_caller after the
 * calls are updated; unregistering patches it back to NOP. Needs the arch's
 * modify_graph_caller; one graph ops at a time. */
int ftrace_register_graph(struct ftrace_core *c, struct ftrace_ops *ops,
			  struct plan *p, struct ftv_err *err);
int ftrace_unregister_graph(struct ftrace_core *c, struct ftrace_ops *ops,
			    struct plan *p, struct ftv_err *err);

/* Queries. */
size_t ftrace_core_nrecs(const struct ftrace_core *c);
const struct ftrace_rec *ftrace_core_rec(const struct ftrace_core *c,
					 size_t i);
int ftrace_core_find_rec(const struct ftrace_core *c, uint64_t ip);
/* ftrace_get_addr_new / ftrace_get_addr_curr for record i. */
uint64_t ftrace_get_addr_new(const struct ftrace_core *c, size_t i);
uint64_t ftrace_get_addr_curr(const struct ftrace_core *c, size_t i);
/* The only registered ops tracing record i, or NULL if none or several. */
struct ftrace_ops *ftrace_find_unique_ops(const struct ftrace_core *c,
					  size_t i);
/* Emulated addresses of the core's objects. */
uint64_t ftrace_core_list_ops(const struct ftrace_core *c);
uint64_t ftrace_core_nop_ops(const struct ftrace_core *c);
/* The ops layout in use (never NULL). */
const struct ftrace_ops_layout *ftrace_core_ops_layout(const struct ftrace_core *c);
uint64_t ftrace_core_list_head(const struct ftrace_core *c);
uint64_t ftrace_core_function_trace_op(const struct ftrace_core *c);
/* The function ftrace_call calls now (global scheme), and whether
 * ftrace_graph_call branches. */
uint64_t ftrace_core_trace_func(const struct ftrace_core *c);
int ftrace_core_graph_enabled(const struct ftrace_core *c);
/* The ftrace_bug text, or NULL while the model is alive. */
const char *ftrace_core_bug(const struct ftrace_core *c);
/* For the executor: a step of record rec failed when applied (a validated
 * write found another word: ftrace_modify_code's -EINVAL). The record
 * becomes FAILED|DISABLED and the model is killed, as ftrace_bug() does;
 * rec -1 names no record (ftrace_call, ftrace_graph_call). */
void ftrace_core_mark_failed(struct ftrace_core *c, int rec, const char *msg);
/* What applying updates can change in the core (ftrace_core_mark_failed:
 * the records' FAILED flags, the bug that killed ftrace), saved once the
 * updates are queued and put back before each execution a verification
 * explores (verify/world_verify.c). */
struct ftrace_core_state;
struct ftrace_core_state *ftrace_core_state_save(const struct ftrace_core *c);
void ftrace_core_state_restore(struct ftrace_core *c,
			       const struct ftrace_core_state *s);
void ftrace_core_state_free(struct ftrace_core_state *s);
/* s made c's state now, in place (no allocation but the bug's text): 0,
 * or -1 when c has another number of records (save it anew) or out of
 * memory. */
int ftrace_core_state_update(struct ftrace_core_state *s, const struct ftrace_core *c);
/* A hash of s (the per-record flags and the bug), chained from h. */
uint64_t ftrace_core_state_hash(const struct ftrace_core_state *s, uint64_t h);
/* Record rec could not be initialised (its init_nop wrote where nothing
 * can be patched, and the world did not make the write): FAILED|DISABLED,
 * left out of every update, without killing the model, so that the run
 * goes on and shows what else happens. */
void ftrace_core_rec_refused(struct ftrace_core *c, int rec);

/* For checkers decoding tracer logs (FTV_LOG_OPS holds an emulated ops
 * address): the ops at addr (registered or not, freed included), or NULL;
 * and whether an ops' filter/notrace select ip (ftrace_ops_test). */
struct ftrace_ops *ftrace_core_ops_at(const struct ftrace_core *c,
				      uint64_t addr);
int ftrace_ops_traces_ip(const struct ftrace_ops *ops, uint64_t ip);

uint64_t ftrace_ops_addr(const struct ftrace_ops *ops); /* struct ftv_ops */
int ftrace_ops_id(const struct ftrace_ops *ops);        /* FTV_OPS_ID */
const char *ftrace_ops_name(const struct ftrace_ops *ops);
unsigned ftrace_ops_flags(const struct ftrace_ops *ops);
int ftrace_ops_registered(const struct ftrace_ops *ops);
uint64_t ftrace_ops_direct_call(const struct ftrace_ops *ops);


/* An allocator callback over a sim region (alloc_ctx = struct sim_region*). */
uint64_t ftrace_alloc_from_region(void *region, uint64_t size, uint64_t align,
				  struct ftv_err *err);

/* Reports. ftrace_plan_format prints one line per step:
 *   "  3 write-insn   0xffff800080001004 foo+0x4/0x40  0xd503201f -> 0x94000400 validate  [rec 2] make_call: BL"
 * symbolizing addresses with `as` (may be NULL) and, when disasm is given,
 * appending its text for instruction words. ftrace_records_format prints the
 * records like /sys/kernel/tracing/enabled_functions. */
typedef int (*ftrace_disasm_fn)(uint32_t word, uint64_t pc, char *buf,
				size_t n);
void ftrace_plan_format(FILE *out, const struct plan *p, size_t from,
			struct sim_aspace *as, ftrace_disasm_fn disasm);
void ftrace_records_format(FILE *out, const struct ftrace_core *c,
			   struct sim_aspace *as);

#endif
