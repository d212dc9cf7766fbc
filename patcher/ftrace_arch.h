/* The narrow interface between the ftrace core model (ftrace_core.h) and an
 * architecture backend, modelled on the split between Linux's
 * kernel/trace/ftrace.c and arch/<arch>/kernel/ftrace.c: the core owns every
 * piece of accounting (records, ref counts, filters, which ops a site needs,
 * list and nop ops); the arch owns only a handful of verbs that turn "this
 * site must now call X with ops literal L" into plan steps (patcher/plan.h).
 * The core never sees an instruction word; an arch never sees a ref count or
 * a filter.
 *
 * Every verb appends steps to `p` and returns 0, or returns -1 with `e` set
 * (the kernel's -EINVAL/-EFAULT/-EPERM from ftrace_make_call & co). A verb
 * that fails must be atomic from the core's point of view: the core cuts the
 * plan back to where it was before the call, marks the record FAILED and
 * stops the update (see ftrace_core.h, "Failures").
 *
 * Reachability (decided here, documented for backend writers). The core
 * always asks for the target it wants, exactly as the kernel's
 * ftrace_get_addr_new/curr compute it: a direct trampoline, an ops' own
 * trampoline, ftrace_regs_caller or ftrace_caller. The ARCH resolves a target
 * its call instruction cannot reach, like arm64's ftrace_find_callable_addr()
 * (Linux 6.5+):
 *   1. a custom target (direct or per-ops trampoline) out of call range is
 *      replaced by the arch's own ftrace_caller, which reaches it through
 *      the ops in the site's literal (ops->direct_call, or ops->func): the
 *      core always passes the unique ops as ops_literal in that case
 *      (CALL_OPS_EN), so this is only sound on CALL_OPS arches;
 *   2. a target within range of the call (arm64 BL: +/-128 MiB) is called;
 *   3. else site->plt when non-zero (the module's ftrace PLT, which
 *      branches to ftrace_caller: a module loaded far away);
 *   4. else fail ("no module PLT for <target>"): the record becomes FAILED.
 * The arch applies the same resolution to old_target (make_nop, modify_call)
 * so that a validated write compares against the word really there. The core
 * does not need a reachable() query because no accounting depends on it.
 */
#ifndef FTV_PATCHER_FTRACE_ARCH_H
#define FTV_PATCHER_FTRACE_ARCH_H

#include <stdint.h>

#include "patcher/plan.h"
#include "util/err.h"
#include "util/site_kind.h"

/* What the arch needs to patch one callsite, and nothing about ref counts.
 * From the loader's struct sim_site (sim/image.h): ip = addr, init_addr =
 * mov_addr, func, literal, plt, name = funcname, module, kind: the one
 * conversion is world_ftrace_site(), verify/world_int.h. */
struct ftrace_site {
	uint64_t ip;        /* the patched word (NOP <-> BL) */
	/* The word init_nop writes once and nobody patches afterwards
	 * (arm64: the NOP that becomes MOV X9, LR; RISC-V: AUIPC t0), or 0. */
	uint64_t init_addr;
	uint64_t func;      /* function entry */
	uint64_t literal;   /* CALL_OPS literal address, or 0 if none */
	uint64_t plt;       /* the module's ftrace PLT, or 0 */
	const char *name;   /* function name, for reports (may be NULL) */
	const char *module; /* owning module, or NULL for the core kernel */
	enum ftv_site_kind kind;
	/* Made from a zeroed table entry (ftrace_core_loc_wanted took it):
	 * its addresses are those of entry 0, the literal's included. */
	int zeroed;
};

/* Arch capabilities (struct ftrace_arch.flags). */
enum {
	/* Sites carry a per-callsite ops literal: make_call/make_nop/
	 * modify_call write ops_literal there (before the branch word, as
	 * arm64 does). Without it the core passes ops_literal = 0. */
	FTRACE_ARCH_CALL_OPS = 1u << 0,
	/* Code updates run under stop_machine() (the default
	 * arch_ftrace_update_code, and arm64 before CALL_OPS); without it the
	 * sites are patched live, as arm64 does today with FTRACE_MAY_SLEEP. */
	FTRACE_ARCH_STOP_MACHINE = 1u << 1,
	/* The arch's ftrace_caller loads function_trace_op and then calls
	 * through the patched ftrace_call, preemptibly: after publishing a new
	 * function_trace_op the core waits for every task to pass a quiescent
	 * point (synchronize_rcu_tasks) before ftrace_call calls the func that
	 * expects it, where Linux only sends an IPI (ftrace_sync_ipi), which a
	 * task preempted between the two loads does not notice; and it sends
	 * that IPI right after switching ftrace_call to the list function, so
	 * that no CPU still executing an older ftrace_call pairs its func with
	 * the new ops. A candidate fix of the func/ops mismatch: no Linux
	 * release does this. */
	FTRACE_ARCH_TRACE_OP_TASKS_RCU = 1u << 2,
};

/* A deliberate bug a backend can be built with (ftv --mutate NAME), which a
 * correct verifier must catch. Each backend's table starts with "none"
 * (code 0) and ends with a NULL name; code is the backend's own enum. */
struct ftrace_arch_mutant {
	const char *name;
	int code;
	const char *what; /* one line for help and reports */
};

/* The mutant of table named name, or NULL. */
const struct ftrace_arch_mutant *ftrace_arch_mutant_find(const struct ftrace_arch_mutant *table,
							 const char *name);

struct ftrace_arch {
	const char *name;
	unsigned flags; /* FTRACE_ARCH_* */
	/* The backend's deliberate bugs; ctx carries the one chosen. */
	const struct ftrace_arch_mutant *mutants;

	/* ftrace_call_adjust(): whether the kernel uses this site at all.
	 * A site it refuses ("Misaligned patch-site") gets no record: the
	 * kernel warns and leaves it alone. 0 when usable, else -1 with e
	 * saying why (the caller names the function). */
	int (*site_usable)(void *ctx, const struct ftrace_site *site,
			   struct ftv_err *e);

	/* Boot/module load: turn the compiler's sequence into the disabled
	 * state (ftrace_init_nop): e.g. write ops_literal (ftrace_nop_ops) and
	 * MOV X9, LR on arm64, or BL _mcount -> NOP for -pg sites. */
	int (*init_nop)(void *ctx, const struct ftrace_site *site,
			uint64_t ops_literal, struct plan *p, struct ftv_err *e);
	/* NOP -> call target (ftrace_make_call). */
	int (*make_call)(void *ctx, const struct ftrace_site *site,
			 uint64_t target, uint64_t ops_literal, struct plan *p,
			 struct ftv_err *e);
	/* call old_target -> NOP (ftrace_make_nop); ops_literal is
	 * ftrace_nop_ops for CALL_OPS arches. */
	int (*make_nop)(void *ctx, const struct ftrace_site *site,
			uint64_t old_target, uint64_t ops_literal,
			struct plan *p, struct ftv_err *e);
	/* call old_target -> call new_target (ftrace_modify_call). Also used
	 * when only the ops literal changes (old_target == new_target). */
	int (*modify_call)(void *ctx, const struct ftrace_site *site,
			   uint64_t old_target, uint64_t new_target,
			   uint64_t ops_literal, struct plan *p,
			   struct ftv_err *e);
	/* The patched `ftrace_call` site inside ftrace_caller now calls func
	 * (ftrace_update_ftrace_func). NULL when the arch has no global tracer
	 * call (arm64 with CALL_OPS reads the function from the ops). */
	int (*update_ftrace_func)(void *ctx, uint64_t func, struct plan *p,
				  struct ftv_err *e);
	/* Toggle `ftrace_graph_call` NOP <-> B ftrace_graph_caller
	 * (ftrace_enable/disable_ftrace_graph_caller). NULL when the graph
	 * tracer is an ordinary ops (arm64 with DYNAMIC_FTRACE_WITH_ARGS). */
	int (*modify_graph_caller)(void *ctx, int enable, struct plan *p,
				   struct ftv_err *e);
	/* Not ftrace: the static branch (jump label) at addr, NOP <-> a jump
	 * to the next instruction (arch_jump_label_transform), as another
	 * task patches kernel text with the same primitives; NULL when the
	 * world does not model it. */
	int (*static_branch)(void *ctx, uint64_t addr, int enable, struct plan *p,
			     struct ftv_err *e);
	/* Not ftrace: a jump label of a static key (kernel/jump_label.c,
	 * __jump_label_update): the entry's word at code becomes a jump to
	 * target (jump 1) or a NOP (jump 0), as the arch's
	 * arch_jump_label_transform_queue() writes it; after the key's last
	 * entry, jump_label_apply (arch_jump_label_transform_apply(), may be
	 * NULL) makes the batch visible to every CPU. NULL: the world has no
	 * jump labels (static-key KEY is refused). */
	int (*jump_label_transform)(void *ctx, uint64_t code, uint64_t target,
				    int jump, struct plan *p, struct ftv_err *e);
	int (*jump_label_apply)(void *ctx, struct plan *p, struct ftv_err *e);
	/* Not ftrace: one instruction word at addr, old -> new, rewritten
	 * under stop_machine() by the arch's text patcher for any
	 * instruction (aarch64_insn_patch_text(), riscv's patch_text(): the
	 * callback's rendezvous, one CPU patches, the others wait, then
	 * context-synchronise). NULL: text-poke is refused. */
	int (*patch_text)(void *ctx, uint64_t addr, uint32_t old, uint32_t new,
			  struct plan *p, struct ftv_err *e);
	/* Not ftrace: bpf_arch_text_poke(ip, BPF_MOD_JUMP, NULL, target), a
	 * NOP of a BPF trampoline image made a jump to target (what
	 * bpf_tramp_image_put() does to im->ip_after_call). NULL: the world
	 * has no BPF trampolines (bpf-update is refused). */
	int (*bpf_text_poke)(void *ctx, uint64_t ip, uint64_t target, struct plan *p,
			     struct ftv_err *e);
	/* Optional hooks around one code update
	 * (ftrace_arch_code_modify_prepare / _post_process); may be NULL. */
	int (*update_prepare)(void *ctx, struct plan *p, struct ftv_err *e);
	int (*update_post)(void *ctx, struct plan *p, struct ftv_err *e);
};

#endif
