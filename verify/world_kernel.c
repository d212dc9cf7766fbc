/* The kernel scheme: arm64 CALL_OPS worlds run by Linux's own compiled
 * code, built by `make kernel` (docs/kernel.md): the backend
 * (kernel/kback.h) and the trampoline every CPU enters, the kernel's
 * ftrace_caller (arch/arm64/kernel/entry-ftrace.S, with its
 * ftrace_stub, ftrace_stub_direct_tramp and return_to_handler) linked
 * into the world from the build. The world's ops are laid out as the
 * build's struct ftrace_ops (func and direct_call where that
 * ftrace_caller loads them), the tracers read its ftrace_regs
 * (tracers-kernel.o); ftv's core model (records, ops, filters, RCU/tasks
 * quiescence), list function and tracers stay ftv's. */
#include "verify/world_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/kback.h"
#include "kernel/kern.h"
#include "patcher/ftrace_abi.h"

static const char *kernel_dir_set;

void world_kernel_dir_set(const char *dir)
{
	kernel_dir_set = dir;
}

int world_kernel_dir_given(void)
{
	return kernel_dir_set != NULL;
}

/* what --kernel defaults to: the build tree's kernel/6.12, beside its
 * trampolines (make kernel's KERNEL_OUT default) */
const char *world_kernel_dir(const char *tramp_dir, char *buf, size_t n)
{
	const char *slash = tramp_dir ? strrchr(tramp_dir, '/') : NULL;

	if (kernel_dir_set)
		return kernel_dir_set;
	snprintf(buf, n, "%.*skernel/6.12", slash ? (int)(slash - tramp_dir + 1) : 0,
		 slash ? tramp_dir : "");
	return buf;
}

/* this world's build: its config's, else --kernel's or the default */
static const char *kdir(const struct world *w, char *buf, size_t n)
{
	return w->cfg.kernel_dir ? w->cfg.kernel_dir : world_kernel_dir(w->cfg.tramp_dir, buf, n);
}

/* The kernel's entry-ftrace.o as the world's ftrace_caller (with
 * ftrace_stub, ftrace_stub_direct_tramp, return_to_handler), and its
 * ftrace.o for ftrace_graph_func / prepare_ftrace_return, the graph ops'
 * func (the backend's verbs in it are never called by the world's CPUs:
 * the patcher CPU runs its own copy, kernel/kback.c). */
static int add_tramps(struct world *w, struct ftv_err *err)
{
	static const char *const objs[] = { "arch/arm64/kernel/entry-ftrace.o",
					    "arch/arm64/kernel/ftrace.o" };
	char buf[4200], path[4400];
	const char *dir = kdir(w, buf, sizeof(buf));
	struct stat st;

	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, objs[i]);
		if (stat(path, &st))
			return ftv_errf(err, "%s: missing (build it with: make kernel KERNEL_OUT=%s)",
					path, dir);
		if (sim_image_add_file(w->img, path, 0, err))
			return -1;
	}
	return 0;
}

static int fact(const struct kern_layout *l, const char *name, uint64_t *v, const char *dir,
		struct ftv_err *err)
{
	if (kern_fact(l, name, v, err))
		return ftv_err_prefix(err, "%s", dir);
	return 0;
}

/* Each CPU's `current` (prepare_ftrace_return reads
 * current->tracing_graph_pause): a zeroed task_struct of the build's size
 * per CPU, none paused. */
static int tasks(struct world *w, const struct kern_layout *l, const char *path,
		 struct ftv_err *err)
{
	uint64_t size, pause;

	if (fact(l, "sizeof.task_struct", &size, path, err) ||
	    fact(l, "task_struct.tracing_graph_pause", &pause, path, err))
		return -1;
	w->kcurrent_size = (size + 63) & ~63ull;
	w->kcurrent = sim_region_alloc(w->data, w->kcurrent_size * w->cfg.exec.ncpus, 64, err);
	if (!w->kcurrent)
		return -1;
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		if (sim_write32(w->as, w->kcurrent + c * w->kcurrent_size + pause, 0))
			return ftv_errf(err, "task_struct: unwritable");
	return 0;
}

static void start_cpu(struct world *w, struct ftv_exec *ex, unsigned cpu)
{
	if (w->kcurrent)
		exec_cpu_set_reg(ex, cpu, w->ad->reg_current,
				 w->kcurrent + cpu * w->kcurrent_size);
}

static int listed(const char *const *v, unsigned n, const char *path)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v[i], path))
			return 1;
	return 0;
}

/* The struct ftrace_ops and ftrace_regs offsets of the build: the world's
 * ops layout, and what tracers-kernel.o reads (ftv_klayout). The
 * assembler's FTRACE_OPS_FUNC / FTRACE_OPS_DIRECT_CALL (asm-offsets.h,
 * what ftrace_caller loads) must be the DWARF's: a build that disagrees
 * with itself is refused. */
static int layouts(struct world *w, const char *dir, struct ftv_err *err)
{
	static const struct { const char *name; unsigned kl; } kl[] = {
		{ "ftrace_ops.func", FTV_KL_OPS_FUNC },
		{ "ftrace_ops.next", FTV_KL_OPS_NEXT },
		{ "ftrace_ops.flags", FTV_KL_OPS_FLAGS },
		{ "ftrace_ops.direct_call", FTV_KL_OPS_DIRECT_CALL },
		{ "FREGS_X0", FTV_KL_FREGS_X0 },
		{ "FREGS_FP", FTV_KL_FREGS_FP },
		{ "FREGS_LR", FTV_KL_FREGS_LR },
		{ "FREGS_DIRECT_TRAMP", FTV_KL_FREGS_DIRECT_TRAMP },
	};
	struct kern_layout l = { 0 };
	uint64_t v[FTV_KL_N], priv, size, asm_func, asm_direct;
	uint64_t at = sim_image_lookup(w->img, "ftv_klayout");
	char path[4400];
	int rc = -1;

	snprintf(path, sizeof(path), "%s/ftv-layout.txt", dir);
	if (kern_layout_read(&l, path, err))
		goto out;
	for (size_t i = 0; i < sizeof(kl) / sizeof(kl[0]); i++)
		if (fact(&l, kl[i].name, &v[kl[i].kl], path, err))
			goto out;
	if (tasks(w, &l, path, err) ||
	    fact(&l, "ftrace_ops.private", &priv, path, err) ||
	    fact(&l, "sizeof.ftrace_ops", &size, path, err) ||
	    fact(&l, "FTRACE_OPS_FUNC", &asm_func, path, err) ||
	    fact(&l, "FTRACE_OPS_DIRECT_CALL", &asm_direct, path, err))
		goto out;
	if (asm_func != v[FTV_KL_OPS_FUNC] || asm_direct != v[FTV_KL_OPS_DIRECT_CALL]) {
		ftv_errf(err, "%s: asm-offsets.h's FTRACE_OPS_FUNC/DIRECT_CALL (%llu, %llu) are not the DWARF's (%llu, %llu)",
			 path, (unsigned long long)asm_func, (unsigned long long)asm_direct,
			 (unsigned long long)v[FTV_KL_OPS_FUNC],
			 (unsigned long long)v[FTV_KL_OPS_DIRECT_CALL]);
		goto out;
	}
	if (ftrace_ops_layout_kernel(&w->ops_layout, size, v[FTV_KL_OPS_FUNC],
				     v[FTV_KL_OPS_NEXT], v[FTV_KL_OPS_FLAGS], priv,
				     v[FTV_KL_OPS_DIRECT_CALL], err)) {
		ftv_err_prefix(err, "%s", path);
		goto out;
	}
	if (!at) {
		ftv_errf(err, "trampolines: symbol ftv_klayout not found (tracers-kernel.o)");
		goto out;
	}
	for (unsigned i = 0; i < FTV_KL_N; i++)
		if (sim_write64(w->as, at + 8 * i, v[i])) {
			ftv_errf(err, "ftv_klayout: unwritable");
			goto out;
		}
	rc = 0;
out:
	kern_layout_free(&l);
	return rc;
}

/* Where the kernel's ftrace_caller holds the ops it read from the site's
 * literal: after its `ldr x11, [x11, #-16]` (LDUR, or LDR with an
 * unsigned offset: Arm ARM C6.2.202 / C6.2.166, 64-bit forms, Rt = Rn =
 * x11, the register world_archdesc.reg_ops names). The preemption point
 * ftv's own caller marks with ftrace_caller_op_loaded. */
static int find_op_loaded(struct world *w, struct ftv_err *err)
{
	const unsigned r = (unsigned)w->ad->reg_ops;

	for (uint64_t pc = w->caller; pc < w->caller + 64 * 4; pc += 4) {
		uint32_t insn;

		if (sim_read32(w->as, pc, &insn))
			break;
		if (((insn & 0xffe00c00u) == 0xf8400000u || (insn & 0xffc00000u) == 0xf9400000u) &&
		    (insn & 31) == r && ((insn >> 5) & 31) == r) {
			w->op_loaded = pc + 4;
			return 0;
		}
	}
	return ftv_errf(err, "ftrace_caller: no load of the ops literal into x%u (not a CALL_OPS build?)",
			r);
}

static int backend_ctx(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;
	const char *objs[2 * WORLD_MAX_OBJECTS];
	struct kback_site *sites;
	size_t n = 0, nobjs = 0;
	char buf[4200];
	const char *dir = kdir(w, buf, sizeof(buf));

	if (c->backend_mutant)
		return ftv_errf(err, "scheme kernel: mutate the kernel's source instead (make kernel KERNEL_SRC=...)");
	if (layouts(w, dir, err) || find_op_loaded(w, err))
		return -1;
	for (unsigned i = 0; i < c->nobjects; i++)
		objs[nobjs++] = c->objects[i];
	for (unsigned i = 0; i < c->nmodules; i++)
		objs[nobjs++] = c->modules[i];
	if (!(sites = calloc(sim_image_nsites(w->img) + 1, sizeof(*sites))))
		return ftv_errf(err, "out of memory");
	/* the world loads its objects, the trampolines, then its modules;
	 * the kernel's copy its objects then the modules: the same order
	 * without the trampolines */
	for (size_t i = 0; i < sim_image_nsites(w->img); i++) {
		const struct sim_site *s = sim_image_site(w->img, i);

		if (listed(objs, (unsigned)nobjs, s->object)) {
			sites[n].ip = s->addr;
			sites[n++].name = s->funcname;
		}
	}
	w->arch_ctx = kback_new(dir, objs, nobjs, sites, n, w->caller, c->nmodules,
				c->far_modules, err);
	free(sites);
	return w->arch_ctx ? 0 : -1;
}

static void backend_free(void *ctx)
{
	kback_free(ctx);
}

const struct world_schemedesc world_scheme_kernel = {
	.arch = FTV_ARCH_ARM64, .corpus_set = "callops",
	.kind = FTV_SITE_CALL_OPS,
	/* ftrace_caller, ftrace_stub, ftrace_stub_direct_tramp and
	 * return_to_handler are the build's (add_tramps); graph.o's
	 * return_to_handler and ops-tramp.o (no per-ops trampolines with
	 * CALL_OPS) are not loaded */
	.tramps = { "direct.o", "tracers-kernel.o", "workload.o" },
	.add_tramps = add_tramps,
	.start_cpu = start_cpu,
	.name = "kernel",
	.backend = &kback_ftrace,
	.backend_ctx = backend_ctx,
	.backend_free = backend_free,
	.patcher_track = "patcher CPU (the kernel's code)",
	.fuzz = FTV_SCHEME_FUZZ_GRAPH | FTV_SCHEME_FUZZ_DIRECT | FTV_SCHEME_FUZZ_FAR_MODULES,
};
