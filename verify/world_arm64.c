/* A world on arm64: its registers, ftrace_caller's literal, what a call
 * instruction is, the backend's context and the module PLT, and the three
 * arm64 schemes (struct world_archdesc, verify/world_int.h). */
#include "verify/world_int.h"

#include <stdlib.h>

#include "encoders/a64.h"
#include "patcher/arm64.h"

/* ftrace_caller recovers the ops from LR: bic x11, x30, #7; ldur x11,
 * [x11, #-16] (arch/arm64/kernel/entry-ftrace.S, CALL_OPS). */
static uint64_t literal_slot(uint64_t link)
{
	return (link & ~7ULL) - 16;
}

/* A return address follows a BL or BLR (Arm ARM C6.2.35, C6.2.36). */
static int follows_call(struct sim_aspace *as, uint64_t ret)
{
	uint32_t w;

	return !sim_read32(as, ret - 4, &w) && (a64_is_bl(w) || a64_is_blr(w));
}

/* RET (Arm ARM C6.2.254), to LR or any register. */
static int is_return(struct sim_aspace *as, uint64_t pc, unsigned *len)
{
	uint32_t w;

	*len = 0;
	if (sim_read32(as, pc, &w))
		return 0;
	*len = 4;
	return a64_is_ret(w);
}

/* struct arm64_ftrace: ftrace_caller, and the patched call sites inside it
 * that the schemes without CALL_OPS use (ftrace_call: the global tracer
 * call; ftrace_graph_call and _mcount: the -pg scheme). */
static int backend_ctx(struct world *w, struct ftv_err *err)
{
	struct arm64_ftrace *a = calloc(1, sizeof(*a));
	int global = w->backend->update_ftrace_func != NULL;
	int graph = w->backend->modify_graph_caller != NULL;
	struct {
		const char *name;
		uint64_t *out;
		int required;
	} t[] = {
		{ "ftrace_call", &a->ftrace_call, global },
		{ "ftrace_graph_call", &a->ftrace_graph_call, graph },
		{ "ftrace_graph_caller", &a->ftrace_graph_caller, graph },
		{ "_mcount", &a->mcount, w->sd->kind == FTV_SITE_MCOUNT },
	};

	if (!a)
		return ftv_errf(err, "out of memory");
	w->arch_ctx = a;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		*t[i].out = sim_image_lookup(w->img, t[i].name);
		if (!*t[i].out && t[i].required)
			return ftv_errf(err, "trampolines: symbol %s not found", t[i].name);
	}
	a->ftrace_caller = w->caller;
	a->mutant = (enum arm64_mutant)w->cfg.backend_mutant;
	return 0;
}

/* The module's ftrace PLT (module_init_ftrace_plt): a veneer near the
 * module that reaches ftrace_caller from anywhere. */
static uint64_t module_plt(struct world *w, const char *module, struct ftv_err *err)
{
	struct sim_region *r = sim_region_named(w->as, "module.text");
	char text[64];
	uint32_t words[3];
	uint64_t at;

	(void)module;
	if (!r)
		return 0;
	at = sim_region_alloc(r, 16, 16, err);
	if (!at)
		return 0;
	if (a64_gen_adrp(at, w->caller, 16, &words[0], err))
		return 0;
	snprintf(text, sizeof(text), "add x16, x16, #0x%llx",
		 (unsigned long long)(w->caller & 0xfff));
	if (a64_assemble(text, at + 4, &words[1], err) ||
	    a64_assemble("br x16", at + 8, &words[2], err))
		return 0;
	for (int i = 0; i < 3; i++)
		sim_write32(w->as, at + 4 * i, words[i]);
	return at;
}

/* ftrace_call_adjust() of a table entry: CALL_OPS entries name the
 * literal (func - 8; no BTI assumed), the ARGS ones the function, -pg
 * ones the BL to _mcount. */
static int entry_site(uint64_t entry, struct ftrace_site *s)
{
	switch (s->kind) {
	case FTV_SITE_CALL_OPS:
		s->literal = entry;
		s->func = s->init_addr = entry + 8;
		s->ip = entry + 12;
		return 0;
	case FTV_SITE_ARGS:
		s->func = s->init_addr = entry;
		s->ip = entry + 4;
		return 0;
	case FTV_SITE_MCOUNT:
		s->func = s->ip = entry;
		return 0;
	default:
		return -1;
	}
}

const struct world_archdesc world_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.scheme_names = "callops, tramp, mcount, mcount-ops, mcount-ops-tasks, tramp-tasks, kernel",
	.default_scheme = FTV_SCHEME_CALLOPS,
	.tramp_subdir = "",
	.graph_tracer = 1,
	.reg_pcpu = 33,     /* TPIDR_EL1, as the kernel's per-CPU offset */
	.reg_current = 34,  /* SP_EL0 (arch/arm64/include/asm/current.h) */
	.reg_arg0 = 0,      /* x0..x7 (AAPCS64) */
	.reg_ra = 30,       /* LR */
	.reg_sp = 31,       /* SP, as exec_cpu_reg numbers it */
	.reg_link = 30,     /* BL at the site: LR = site + 4 */
	.reg_ops = 11,      /* x11 at ftrace_caller_op_loaded */
	.literal_slot = literal_slot,
	.literal_slot_what = "the doubleword below LR aligned down to 8",
	.stop_anywhere = 0, /* arm64 patches live: no stop_machine */
	.call_insn = "BL",
	.disasm = a64_disasm,
	.follows_call = follows_call,
	.is_return = is_return,
	.mutants = arm64_mutants,
	.backend_ctx = backend_ctx,
	.module_plt = module_plt,
	.entry_site = entry_site,
	.replay = &world_replay_arm64,
	.explain_fault = arm64_explain_fault,
};

/* DYNAMIC_FTRACE_WITH_CALL_OPS + direct calls, Linux 6.3+: the ops literal
 * at func-8, sites patched live. */
const struct world_schemedesc world_scheme_callops = {
	WORLD_ARM64_CALLOPS_WORLD,
	.name = "callops",
	.backend = &arm64_ftrace_callops,
	.fuzz = FTV_SCHEME_FUZZ_GRAPH | FTV_SCHEME_FUZZ_DIRECT | FTV_SCHEME_FUZZ_FAR_MODULES,
};

/* DYNAMIC_FTRACE_WITH_ARGS without CALL_OPS: every tracer ops has its own
 * trampoline, which the sites it alone traces call (the kernel's
 * ftrace_ops.trampoline); the graph ops goes through ftrace_caller. No
 * direct calls: arm64 has them only with CALL_OPS. No far modules: the
 * per-ops trampolines are x86's, whose modules sit within call range of
 * them; a far module's site would reach ftrace_caller through its PLT
 * while the core accounts it to the ops' trampoline. */
#define ARM64_OPS_TRAMPOLINES                                           \
	.arch = FTV_ARCH_ARM64, .corpus_set = "args",                   \
	.kind = FTV_SITE_ARGS,              \
	.tramps = { "entry-args.o", "graph.o", "direct.o", "tracers.o", \
		    "workload.o", "ops-tramp.o" },                      \
	.ops_trampolines = 1, .fuzz = FTV_SCHEME_FUZZ_GRAPH,           \
	.window = { "ftrace_call" }

const struct world_schemedesc world_scheme_tramp = {
	ARM64_OPS_TRAMPOLINES,
	.name = "tramp",
	.backend = &arm64_ftrace_tramp,
};

/* The 2014 -pg scheme: `bl _mcount` <-> NOP, the tracer called through
 * the patched ftrace_call and the graph tracer through ftrace_graph_call,
 * under stop_machine. */
const struct world_schemedesc world_scheme_mcount = {
	.name = "mcount", .arch = FTV_ARCH_ARM64, .corpus_set = "mcount",
	.kind = FTV_SITE_MCOUNT,
	.tramps = { "entry-mcount.o", "graph.o", "direct.o", "tracers.o",
		    "workload.o", "ops-tramp.o" },
	.backend = &arm64_ftrace_mcount,
	/* 2014: arm64 modules sat within BL range (no module PLTs before
	 * Linux 4.6), and `bl _mcount` in a far module would need a veneer
	 * ftrace_make_nop does not expect */
	.fuzz = FTV_SCHEME_FUZZ_GRAPH,
};

/* The -pg scheme with a preemptible, ops-passing ftrace_caller, patched
 * live as arm64 has since FTRACE_MAY_SLEEP (no stop_machine): a task
 * preempted between its load of function_trace_op and ftrace_call may call
 * the func of a later update with the old ops. Mark Rutland's ftrace
 * stress test (lib/fstress.c, linux-arm-kernel, March 2024) found this
 * func/ops mismatch on arm64 without CALL_OPS; CALL_OPS avoids it by
 * construction (the site's literal names both). A real kernel race, so
 * its conformance scenario expects the violation (wrong-func). */
const struct world_schemedesc world_scheme_mcount_ops = {
	.name = "mcount-ops", .arch = FTV_ARCH_ARM64, .corpus_set = "mcount",
	.kind = FTV_SITE_MCOUNT,
	.tramps = { "entry-mcount.o", "graph.o", "direct.o", "tracers.o",
		    "workload.o", "ops-tramp.o" },
	.backend = &arm64_ftrace_mcount_live,
	.preempt = { "ftrace_caller_trace_op_loaded" },
	.fuzz = FTV_SCHEME_FUZZ_GRAPH,
};

/* The same with the candidate fix: the core waits for every task
 * (synchronize_rcu_tasks) between publishing function_trace_op and pointing
 * ftrace_call at the func that expects it. No Linux release does this (the
 * core still sends ftrace_sync_ipi in Linux 6.18); the corrected twin of
 * mcount-ops. */
const struct world_schemedesc world_scheme_mcount_tasks = {
	.name = "mcount-ops-tasks", .arch = FTV_ARCH_ARM64, .corpus_set = "mcount",
	.kind = FTV_SITE_MCOUNT,
	.tramps = { "entry-mcount.o", "graph.o", "direct.o", "tracers.o",
		    "workload.o", "ops-tramp.o" },
	.backend = &arm64_ftrace_mcount_tasks,
	.preempt = { "ftrace_caller_trace_op_loaded" },
	.fuzz = FTV_SCHEME_FUZZ_GRAPH,
};

/* The per-ops trampolines with mcount-ops-tasks' candidate fix: their
 * shared ftrace_caller is the same ops-passing one (x86's loads
 * function_trace_op, then calls through ftrace_call), so it has the same
 * func/ops race (tramp-func-ops); the core waits for every task
 * (synchronize_rcu_tasks) between publishing function_trace_op and pointing
 * ftrace_call at the func that expects it. The corrected twin of tramp on
 * that race (tramp-func-ops-tasks); no Linux release does this. */
const struct world_schemedesc world_scheme_tramp_tasks = {
	ARM64_OPS_TRAMPOLINES,
	.name = "tramp-tasks",
	.backend = &arm64_ftrace_tramp_tasks,
};
