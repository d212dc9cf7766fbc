#include "patcher/arm64.h"

#include <string.h>

#include "encoders/a64.h"

#define A64_MOV_X9_LR_DESC "mov x9, x30"

const struct ftrace_arch_mutant arm64_mutants[] = {
	{ "none", ARM64_MUT_NONE, "the correct backend" },
	{ "bl-before-literal", ARM64_MUT_BL_BEFORE_LITERAL,
	  "make_call writes the BL before the ops literal" },
	{ "skip-literal-on-modify", ARM64_MUT_SKIP_LITERAL_ON_MODIFY,
	  "modify_call leaves the old ops in the literal" },
	{ "misaligned-literal", ARM64_MUT_MISALIGNED_LITERAL,
	  "sites whose literal is not 8-byte aligned are patched (torn ops)" },
	{ "live-mov-patch", ARM64_MUT_LIVE_MOV_PATCH,
	  "MOV X9, LR is written at make_call, while CPUs run the site" },
	{ "no-range-check", ARM64_MUT_NO_RANGE_CHECK,
	  "out-of-range BL targets are truncated instead of using a PLT" },
	{ "jump-label-no-sync", ARM64_MUT_JUMP_LABEL_NO_SYNC,
	  "static_key_enable() returns before other CPUs context-synchronise: no "
	  "kick_all_cpus_sync() after patching (f6cc0c501649, fixed by cfb00a357864)" },
	{ "patch-text-first-master", ARM64_MUT_PATCH_TEXT_FIRST_MASTER,
	  "aarch64_insn_patch_text_cb(): the first CPU to arrive patches while the others "
	  "still run (ae16480785de, fixed by 31a099dbd91e)" },
	{ NULL, ARM64_MUT_NONE, NULL },
};

int arm64_bl_in_range(uint64_t pc, uint64_t target)
{
	int64_t off = (int64_t)(target - pc);

	return !(off & 3) && off >= -(128LL << 20) && off < (128LL << 20);
}

int arm64_site_usable(const struct arm64_ftrace *a, const struct ftrace_site *s,
		      struct ftv_err *err)
{
	if (s->kind == FTV_SITE_CALL_OPS && (s->literal & 7) &&
	    a->mutant != ARM64_MUT_MISALIGNED_LITERAL)
		return ftv_errf(err, "Misaligned patch-site");
	return 0;
}

/* ftrace_find_callable_addr(): the address a BL at the site really
 * targets. Out of BL range, a CALL_OPS site calls ftrace_caller, which
 * branches through ops->direct_call (the core passes the direct ops as the
 * literal); otherwise the module's ftrace PLT, which leads to
 * ftrace_caller. */
static int callable_addr(const struct arm64_ftrace *a,
			 const struct ftrace_site *s, uint64_t target,
			 uint64_t *out, struct ftv_err *err)
{
	if (arm64_bl_in_range(s->ip, target) ||
	    a->mutant == ARM64_MUT_NO_RANGE_CHECK) {
		*out = target;
		return 0;
	}
	if (s->literal && target != a->ftrace_caller &&
	    arm64_bl_in_range(s->ip, a->ftrace_caller)) {
		*out = a->ftrace_caller;
		return 0;
	}
	if (s->plt && arm64_bl_in_range(s->ip, s->plt)) {
		*out = s->plt;
		return 0;
	}
	return ftv_errf(err, "no module PLT in BL range for target 0x%llx "
			"(site 0x%llx)", (unsigned long long)target,
			(unsigned long long)s->ip);
}

/* The BL word at the site for target. The no-range-check mutant keeps the
 * low 26 bits of an out-of-range offset: the truncated branch that the real
 * encoder refuses to produce. */
static int call_word(const struct arm64_ftrace *a, const struct ftrace_site *s,
		     uint64_t target, uint32_t *word, struct ftv_err *err)
{
	uint64_t addr = 0;

	if (callable_addr(a, s, target, &addr, err))
		return -1;
	if (a->mutant == ARM64_MUT_NO_RANGE_CHECK &&
	    !arm64_bl_in_range(s->ip, addr)) {
		*word = 0x94000000u | (uint32_t)(((addr - s->ip) >> 2) & 0x03ffffffu);
		return 0;
	}
	return a64_gen_branch(s->ip, addr, 1, word, err);
}

/* aarch64_insn_patch_text_nosync(): the word is stored through the text
 * fixmap (__aarch64_insn_write() -> patch_map(), arch/arm64/kernel/
 * patching.c, since v4.0), and installing that mapping (__set_fixmap ->
 * __set_pte, asm/pgtable.h) ends in dsb(ishst); isb for a valid kernel PTE:
 * every store made before (an ops linked into the list, function_trace_op,
 * the core's new filter pointer) is visible before the new instruction can
 * be fetched, so a CPU that takes the new branch never reads older ftrace
 * data than the update wrote first. Then one validated word, then
 * caches_clean_inval_pou (DC CVAU; DSB ISH; IC IVAU; DSB ISH) and ISB on
 * the patching CPU. Other CPUs are not interrupted: with CALL_OPS arm64
 * patches live (FTRACE_MAY_SLEEP), relying on every old and new word being
 * a NOP or a BL, which the Arm ARM allows to change under execution. */
static int patch_word(struct plan *p, uint64_t addr, uint32_t old,
		      uint32_t new, const char *what, struct ftv_err *err)
{
	if (plan_simple(p, PLAN_DSB, -1, "dsb ishst (patch_map)") ||
	    plan_write_insn(p, addr, old, new, 1, -1, what) ||
	    plan_cache_sync(p, addr, 4, -1) ||
	    plan_simple(p, PLAN_ISB, -1, "isb"))
		return ftv_errf(err, "out of memory building a plan");
	return 0;
}

/* aarch64_insn_write_literal_u64(): a single 64-bit store through the
 * fixmap; unmapping it again flushes the TLB entry, which ends in DSB ISH,
 * so the literal is visible before the branch that follows it is written. */
static int write_literal(const struct arm64_ftrace *a,
			 const struct ftrace_site *s, uint64_t ops,
			 const char *what, struct plan *p, struct ftv_err *err)
{
	(void)a;
	if (!s->literal && !(s->zeroed && s->kind == FTV_SITE_CALL_OPS))
		return 0;
	if (plan_write_data64(p, s->literal, 0, ops, 0, -1, what) ||
	    plan_simple(p, PLAN_DSB, -1, "dsb ish (fixmap unmap)"))
		return ftv_errf(err, "out of memory building a plan");
	return 0;
}

/* The word that becomes MOV X9, LR: the loader's mov_addr, which is the
 * word before the patched one in every layout GCC emits. */
static uint64_t mov_addr(const struct ftrace_site *s)
{
	return s->init_addr ? s->init_addr : s->ip - 4;
}

static uint32_t mov_x9_lr(void)
{
	uint32_t w = 0;

	a64_gen_mov_reg(9, 30, &w, NULL);
	return w;
}

/* ftrace_init_nop(): runs at boot or module load, before any CPU can run
 * the site. CALL_OPS: literal = ftrace_nop_ops, then NOP -> MOV X9, LR at
 * the word before the patched one (MOV is not on the Arm ARM's list of
 * instructions that may change under execution: it is written only here). */
static int init_nop(void *ctx, const struct ftrace_site *s, uint64_t ops,
		    struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;

	if (s->kind == FTV_SITE_MCOUNT) {
		uint32_t bl;

		if (a64_gen_branch(s->ip, a->mcount, 1, &bl, e))
			return -1;
		return patch_word(p, s->ip, bl, a64_gen_nop(),
				  "init_nop: bl _mcount -> nop", e);
	}
	if (write_literal(a, s, ops, "init_nop: ops literal = ftrace_nop_ops", p, e))
		return -1;
	if (a->mutant == ARM64_MUT_LIVE_MOV_PATCH)
		return 0; /* deferred to make_call: the bug */
	return patch_word(p, mov_addr(s), a64_gen_nop(), mov_x9_lr(),
			  "init_nop: nop -> " A64_MOV_X9_LR_DESC, e);
}

/* ftrace_make_call(): the ops first, so a CPU that takes the new BL finds
 * the right ops; then NOP -> BL. */
static int make_call(void *ctx, const struct ftrace_site *s, uint64_t target,
		     uint64_t ops, struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	uint32_t bl;

	if (call_word(a, s, target, &bl, e))
		return -1;
	if (a->mutant == ARM64_MUT_LIVE_MOV_PATCH && s->kind != FTV_SITE_MCOUNT &&
	    patch_word(p, mov_addr(s), a64_gen_nop(), mov_x9_lr(),
		       "make_call: nop -> " A64_MOV_X9_LR_DESC " (live)", e))
		return -1;
	if (a->mutant == ARM64_MUT_BL_BEFORE_LITERAL) {
		if (patch_word(p, s->ip, a64_gen_nop(), bl, "make_call: nop -> bl", e))
			return -1;
		return write_literal(a, s, ops, "make_call: ops literal", p, e);
	}
	if (write_literal(a, s, ops, "make_call: ops literal", p, e))
		return -1;
	return patch_word(p, s->ip, a64_gen_nop(), bl, "make_call: nop -> bl", e);
}

/* ftrace_make_nop(): the literal goes back to ftrace_nop_ops first, so a CPU
 * still taking the old BL calls a harmless ops rather than one about to be
 * freed; then BL -> NOP. */
static int make_nop(void *ctx, const struct ftrace_site *s, uint64_t old_target,
		    uint64_t ops, struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	uint32_t bl;

	if (call_word(a, s, old_target, &bl, e))
		return -1;
	if (write_literal(a, s, ops, "make_nop: ops literal = ftrace_nop_ops", p, e))
		return -1;
	return patch_word(p, s->ip, bl, a64_gen_nop(), "make_nop: bl -> nop", e);
}

/* ftrace_modify_call(): literal, then BL -> BL', rewritten even when the
 * target is unchanged (only the ops changed). */
static int modify_call(void *ctx, const struct ftrace_site *s,
		       uint64_t old_target, uint64_t new_target, uint64_t ops,
		       struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	uint32_t old_bl, new_bl;

	if (call_word(a, s, old_target, &old_bl, e) ||
	    call_word(a, s, new_target, &new_bl, e))
		return -1;
	if (a->mutant != ARM64_MUT_SKIP_LITERAL_ON_MODIFY &&
	    write_literal(a, s, ops, "modify_call: ops literal", p, e))
		return -1;
	return patch_word(p, s->ip, old_bl, new_bl, "modify_call: bl -> bl", e);
}

/* ftrace_update_ftrace_func(): the global tracer call inside ftrace_caller
 * (written without validation, as the 2014 arm64 dynamic ftrace did: the
 * old word is whatever the previous update left). */
static int update_ftrace_func(void *ctx, uint64_t func, struct plan *p,
			      struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	uint32_t bl;

	if (a64_gen_branch(a->ftrace_call, func, 1, &bl, e))
		return ftv_err_prefix(e, "ftrace_call");
	/* through the fixmap, as patch_word() */
	if (plan_simple(p, PLAN_DSB, -1, "dsb ishst (patch_map)") ||
	    plan_write_insn(p, a->ftrace_call, 0, bl, 0, -1,
			    "update_ftrace_func: ftrace_call -> bl func") ||
	    plan_cache_sync(p, a->ftrace_call, 4, -1) ||
	    plan_simple(p, PLAN_ISB, -1, "isb"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* The per-ops trampoline scheme's ftrace_call update, made live with no
 * stop_machine() to context-synchronise every CPU on its way out:
 * ftrace_modify_all_code() (kernel/trace/ftrace.c) switches ftrace_call to
 * ftrace_ops_list_func before any site changes and relies on no CPU calling
 * the old tracer directly once that returns, or a site the update enables
 * would call a single ops' func for a function outside its filter. The
 * scheme is x86's, whose every text change goes through the breakpoint
 * method and syncs all cores after it (ftrace_update_ftrace_func ->
 * text_poke_bp(), text_poke_sync(): on_each_cpu(do_sync_core), "ftrace/x86:
 * Have arch x86_64 use breakpoints instead of stop machine", v3.5); without
 * it a CPU that has not context-synchronised may still fetch the old BL
 * (Arm ARM B2.2.5). arm64 sends no such IPI
 * (aarch64_insn_patch_text_nosync); the -pg scheme patched live
 * (mcount-ops) keeps that and shows what it allows. */
static int update_ftrace_func_sync(void *ctx, uint64_t func, struct plan *p,
				   struct ftv_err *e)
{
	if (update_ftrace_func(ctx, func, p, e))
		return -1;
	if (plan_simple(p, PLAN_SYNC_ALL, -1, "text_poke_sync (every CPU serialises)"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* ftrace_modify_graph_caller(): ftrace_graph_call NOP <-> B
 * ftrace_graph_caller, validated. */
static int modify_graph_caller(void *ctx, int enable, struct plan *p,
			       struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	uint32_t b, nop = a64_gen_nop();

	if (a64_gen_branch(a->ftrace_graph_call, a->ftrace_graph_caller, 0, &b, e))
		return ftv_err_prefix(e, "ftrace_graph_call");
	if (enable)
		return patch_word(p, a->ftrace_graph_call, nop, b,
				  "graph: ftrace_graph_call nop -> b", e);
	return patch_word(p, a->ftrace_graph_call, b, nop,
			  "graph: ftrace_graph_call b -> nop", e);
}

/* aarch64_insn_patch_text_nosync() (arch/arm64/kernel/patching.c): the
 * word written through the fixmap under patch_lock (a raw spinlock that
 * serialises it with every other text write: one indivisible step here;
 * patch_map's set_fixmap ends with a DSB ISHST), without validation, then
 * caches_clean_inval_pou() over it. Nothing makes other CPUs execute it. */
static int patch_nosync(struct plan *p, uint64_t addr, uint32_t old, uint32_t new,
			const char *what)
{
	return plan_simple(p, PLAN_DSB, -1, "dsb ishst (patch_map)") ||
	       plan_write_insn(p, addr, old, new, 0, -1, what) ||
	       plan_cache_sync(p, addr, 4, -1);
}

/* The workload's own static branch NOP <-> B .+4 (ftv_static_key), a second
 * patcher of kernel text beside ftrace: patch_nosync and an ISB of the
 * patching CPU. */
static int static_branch(void *ctx, uint64_t addr, int enable, struct plan *p,
			 struct ftv_err *e)
{
	uint32_t nop = a64_gen_nop(), b;

	(void)ctx;
	if (a64_gen_branch(addr, addr + 4, 0, &b, e))
		return -1;
	if (patch_nosync(p, addr, enable ? nop : b, enable ? b : nop,
			 enable ? "static_branch: nop -> b" : "static_branch: b -> nop") ||
	    plan_simple(p, PLAN_ISB, -1, "isb"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* arch_jump_label_transform_queue() (arch/arm64/kernel/jump_label.c):
 * JUMP_LABEL_JMP is aarch64_insn_gen_branch_imm(code, target, NOLINK),
 * JUMP_LABEL_NOP aarch64_insn_gen_nop(), each written with
 * aarch64_insn_patch_text_nosync(). */
static int jump_label_transform(void *ctx, uint64_t code, uint64_t target, int jump,
				struct plan *p, struct ftv_err *e)
{
	uint32_t nop = a64_gen_nop(), b;

	(void)ctx;
	if (a64_gen_branch(code, target, 0, &b, e))
		return ftv_err_prefix(e, "jump label at 0x%llx", (unsigned long long)code);
	if (patch_nosync(p, code, jump ? nop : b, jump ? b : nop,
			 jump ? "arch_jump_label_transform_queue: nop -> b"
				 : "arch_jump_label_transform_queue: b -> nop"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* bpf_arch_text_poke(ip, BPF_MOD_JUMP, NULL, target) (arch/arm64/net/
 * bpf_jit_comp.c): gen_branch_or_nop() gives the NOP and the B, written
 * under text_mutex with aarch64_insn_patch_text_nosync() (the trampoline
 * image is no BPF program: no PLT target to set). */
static int bpf_text_poke(void *ctx, uint64_t ip, uint64_t target, struct plan *p,
			 struct ftv_err *e)
{
	uint32_t nop = a64_gen_nop(), b;

	(void)ctx;
	if (a64_gen_branch(ip, target, 0, &b, e))
		return ftv_err_prefix(e, "bpf_arch_text_poke at 0x%llx", (unsigned long long)ip);
	if (patch_nosync(p, ip, nop, b, "bpf_arch_text_poke: ip_after_call nop -> b ip_epilogue"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* arch_jump_label_transform_apply(): kick_all_cpus_sync(), an IPI every
 * CPU takes (an exception: a context synchronisation event), waited for,
 * so that no CPU executes the old instruction once static_key_enable()
 * returns (cfb00a357864, "arm64: jump_label: Ensure patched jump_labels
 * are visible to all CPUs"). The mutant is the code before it
 * (f6cc0c501649, "arm64: Avoid calling stop_machine() when patching jump
 * labels"), which relied on the CMODX guarantee alone. */
static int jump_label_apply(void *ctx, struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;

	if (a->mutant == ARM64_MUT_JUMP_LABEL_NO_SYNC)
		return 0;
	if (plan_simple(p, PLAN_SYNC_ALL, -1, "kick_all_cpus_sync"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* aarch64_insn_patch_text() (arch/arm64/kernel/patching.c) for one word:
 * stop_machine_cpuslocked(aarch64_insn_patch_text_cb) on every online CPU.
 * In the callback each CPU increments cpu_count; the last to arrive
 * (atomic_inc_return() == num_online_cpus()) patches with
 * aarch64_insn_patch_text_nosync() and increments once more; the others
 * spin until then and execute isb(). The patcher agent is that master:
 * PLAN_STOP_REQUEST asks, PLAN_STOP_MACHINE waits until every other CPU is
 * parked, and
 * PLAN_RESUME_MACHINE is the release, with each CPU's isb() (and its
 * exception return) as the context synchronisation. Any instruction may
 * be written so, CMODX-safe or not: no CPU executes it meanwhile. The
 * mutant is the callback before 31a099dbd91e ("arm64: patch_text: Fixup
 * last cpu should be master", 2022; ae16480785de had made the first CPU
 * the master), which patched while the others were still on their way. */
static int patch_text(void *ctx, uint64_t addr, uint32_t old, uint32_t new,
		      struct plan *p, struct ftv_err *e)
{
	const struct arm64_ftrace *a = ctx;
	int first = a->mutant == ARM64_MUT_PATCH_TEXT_FIRST_MASTER;

	if (plan_simple(p, PLAN_STOP_REQUEST, -1, "stop_machine_cpuslocked()") ||
	    (!first && plan_simple(p, PLAN_STOP_MACHINE, -1,
				   "aarch64_insn_patch_text_cb: the last CPU to arrive patches")) ||
	    patch_nosync(p, addr, old, new, "aarch64_insn_patch_text_cb: patch_text_nosync") ||
	    plan_simple(p, PLAN_RESUME_MACHINE, -1,
			"cpu_count released: every other CPU isb()"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

/* The 2014 scheme and the ARGS scheme before CALL_OPS ran code updates
 * under stop_machine() (the default arch_ftrace_update_code). */
static int stop_machine_prepare(void *ctx, struct plan *p, struct ftv_err *e)
{
	(void)ctx;
	if (plan_simple(p, PLAN_STOP_MACHINE, -1, "stop_machine"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

static int stop_machine_post(void *ctx, struct plan *p, struct ftv_err *e)
{
	(void)ctx;
	if (plan_simple(p, PLAN_RESUME_MACHINE, -1, "stop_machine done"))
		return ftv_errf(e, "out of memory building a plan");
	return 0;
}

static int site_usable(void *ctx, const struct ftrace_site *s, struct ftv_err *e)
{
	return arm64_site_usable(ctx, s, e);
}

/* What every arm64 scheme shares: the sites, the mutants and the
 * per-site transitions; the schemes differ in flags and in how
 * ftrace_call, the graph caller and code updates are handled. */
#define ARM64_SITE_OPS                               \
	.mutants = arm64_mutants,                    \
	.site_usable = site_usable,                  \
	.init_nop = init_nop,                        \
	.make_call = make_call,                      \
	.make_nop = make_nop,                        \
	.modify_call = modify_call,                  \
	.jump_label_transform = jump_label_transform, \
	.jump_label_apply = jump_label_apply,         \
	.bpf_text_poke = bpf_text_poke,              \
	.patch_text = patch_text

const struct ftrace_arch arm64_ftrace_callops = {
	ARM64_SITE_OPS,
	.name = "arm64-callops",
	.flags = FTRACE_ARCH_CALL_OPS,
	.static_branch = static_branch,
};

const struct ftrace_arch arm64_ftrace_args = {
	ARM64_SITE_OPS,
	.name = "arm64-args",
	.flags = 0,
	.update_ftrace_func = update_ftrace_func_sync,
};

/* The per-ops trampoline scheme (x86's FTRACE_FL_TRAMP over arm64's
 * WITH_ARGS sites): ftrace_call updates serialise every CPU, as x86's. */
#define ARM64_TRAMP_OPS                                 \
	ARM64_SITE_OPS,                                 \
	.update_ftrace_func = update_ftrace_func_sync,  \
	.static_branch = static_branch

const struct ftrace_arch arm64_ftrace_tramp = {
	ARM64_TRAMP_OPS,
	.name = "arm64-tramp",
	.flags = 0,
};

/* The same with the core's candidate fix of the func/ops race its shared,
 * ops-passing ftrace_caller has (FTRACE_ARCH_TRACE_OP_TASKS_RCU). */
const struct ftrace_arch arm64_ftrace_tramp_tasks = {
	ARM64_TRAMP_OPS,
	.name = "arm64-tramp-tasks",
	.flags = FTRACE_ARCH_TRACE_OP_TASKS_RCU,
};

const struct ftrace_arch arm64_ftrace_mcount = {
	ARM64_SITE_OPS,
	.name = "arm64-mcount",
	.flags = FTRACE_ARCH_STOP_MACHINE,
	.update_ftrace_func = update_ftrace_func,
	.modify_graph_caller = modify_graph_caller,
	.static_branch = static_branch,
	.update_prepare = stop_machine_prepare,
	.update_post = stop_machine_post,
};

/* The -pg sites and ftrace_caller patched live (FTRACE_MAY_SLEEP): CPUs run
 * while ftrace_call changes, and a task may be preempted inside
 * ftrace_caller holding the function_trace_op it loaded. */
const struct ftrace_arch arm64_ftrace_mcount_live = {
	ARM64_SITE_OPS,
	.name = "arm64-mcount-live",
	.flags = 0,
	.update_ftrace_func = update_ftrace_func,
	.modify_graph_caller = modify_graph_caller,
	.static_branch = static_branch,
};

const struct ftrace_arch arm64_ftrace_mcount_tasks = {
	ARM64_SITE_OPS,
	.name = "arm64-mcount-tasks",
	.flags = FTRACE_ARCH_TRACE_OP_TASKS_RCU,
	.update_ftrace_func = update_ftrace_func,
	.modify_graph_caller = modify_graph_caller,
	.static_branch = static_branch,
};
