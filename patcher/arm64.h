/* The arm64 ftrace backend: the four verbs of patcher/ftrace_arch.h turned
 * into plans, for the three arm64 schemes ftv models:
 *
 *   arm64_ftrace_callops  DYNAMIC_FTRACE_WITH_CALL_OPS (+ DIRECT_CALLS),
 *                         Linux 6.3+: ops literal at func-8, live patching.
 *   arm64_ftrace_args     DYNAMIC_FTRACE_WITH_ARGS without CALL_OPS: the
 *                         shared caller calls through the patched
 *                         ftrace_call site.
 *   arm64_ftrace_tramp    the same sites with x86's per-ops trampolines
 *                         (FTRACE_FL_TRAMP): a change of ftrace_call
 *                         serialises every CPU, as x86's text_poke_bp.
 *   arm64_ftrace_mcount   the 2014 -pg scheme (Linux 3.16): NOP <-> BL
 *                         ftrace_caller at each `bl _mcount`, ftrace_call and
 *                         ftrace_graph_call patched inside ftrace_caller,
 *                         under stop_machine.
 *   arm64_ftrace_mcount_live  the same sites and verbs patched live, as
 *                         arm64's arch_ftrace_update_code has done since it
 *                         set FTRACE_MAY_SLEEP: no stop_machine, and the
 *                         tracer's ops comes from function_trace_op.
 *   arm64_ftrace_mcount_tasks  the same with the core waiting for every task
 *                         (synchronize_rcu_tasks) between publishing
 *                         function_trace_op and the ftrace_call that expects
 *                         it (FTRACE_ARCH_TRACE_OP_TASKS_RCU).
 *   arm64_ftrace_tramp_tasks  arm64_ftrace_tramp with that wait: its shared
 *                         ftrace_caller passes function_trace_op too.
 *
 * The backend knows encodings (encoders/a64.h), never ref counts or filters.
 * Every text write is validated against the word the backend expects to be
 * there (ftrace_modify_code with validate = true), then made visible with
 * the cache maintenance of aarch64_insn_patch_text_nosync.
 */
#ifndef FTV_PATCHER_ARM64_H
#define FTV_PATCHER_ARM64_H

#include <stdint.h>

#include "patcher/ftrace_arch.h"
#include "util/err.h"

/* Deliberate bugs (ftv --mutate NAME), each of which a correct verifier
 * must catch. */
enum arm64_mutant {
	ARM64_MUT_NONE = 0,
	ARM64_MUT_BL_BEFORE_LITERAL,    /* make_call writes BL, then the ops */
	ARM64_MUT_SKIP_LITERAL_ON_MODIFY, /* modify_call leaves the old ops */
	ARM64_MUT_MISALIGNED_LITERAL,   /* accepts sites whose literal is not
					   8-byte aligned (torn ops) */
	ARM64_MUT_LIVE_MOV_PATCH,       /* MOV X9, LR written at make_call,
					   while CPUs run the site */
	ARM64_MUT_NO_RANGE_CHECK,       /* BL to an out-of-range target,
					   truncated */
	ARM64_MUT_JUMP_LABEL_NO_SYNC,   /* jump labels patched without
					   kick_all_cpus_sync() (f6cc0c501649,
					   before cfb00a357864) */
	ARM64_MUT_PATCH_TEXT_FIRST_MASTER, /* aarch64_insn_patch_text_cb():
					   the first CPU to arrive patches
					   (ae16480785de, before 31a099dbd91e) */
	ARM64_MUT_COUNT
};

/* The table of them (struct ftrace_arch.mutants of every arm64 backend). */
extern const struct ftrace_arch_mutant arm64_mutants[];

struct arm64_ftrace {
	uint64_t ftrace_caller;       /* FTRACE_ADDR */
	uint64_t mcount;              /* _mcount, what -pg sites call */
	uint64_t ftrace_call;         /* patched call site in ftrace_caller */
	uint64_t ftrace_graph_call;   /* patched graph site (mcount) */
	uint64_t ftrace_graph_caller; /* its branch target */
	enum arm64_mutant mutant;
};

extern const struct ftrace_arch arm64_ftrace_callops;
extern const struct ftrace_arch arm64_ftrace_args;
extern const struct ftrace_arch arm64_ftrace_tramp;
extern const struct ftrace_arch arm64_ftrace_tramp_tasks;
extern const struct ftrace_arch arm64_ftrace_mcount;
extern const struct ftrace_arch arm64_ftrace_mcount_live;
extern const struct ftrace_arch arm64_ftrace_mcount_tasks;

/* ftrace_call_adjust() for CALL_OPS: a site whose literal is not 8-byte
 * aligned cannot have its ops swapped atomically; the kernel warns
 * "Misaligned patch-site func+0x0/0x40" and leaves it alone. Returns 0 when
 * the site may be used, -1 with err set otherwise (the caller symbolizes). */
int arm64_site_usable(const struct arm64_ftrace *a, const struct ftrace_site *s,
		      struct ftv_err *err);

/* BL reach, Arm ARM C6.2.35: imm26 * 4, -128 MiB <= offset < +128 MiB. */
int arm64_bl_in_range(uint64_t pc, uint64_t target);

#endif
