/* The kernel scheme: arm64 CALL_OPS worlds whose backend is Linux's own
 * compiled one (kernel/kback.h), built by `make kernel` (docs/kernel.md).
 * Everything else is the callops scheme's: the corpus objects, ftv's
 * trampolines and tracers, and ftv's core model (records, ops, filters,
 * RCU/tasks quiescence), which asks the kernel's ftrace_make_call & co.
 * for each site transition. */
#include "verify/world_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kback.h"

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

static int listed(const char *const *v, unsigned n, const char *path)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v[i], path))
			return 1;
	return 0;
}

static int backend_ctx(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;
	const char *objs[2 * WORLD_MAX_OBJECTS];
	struct kback_site *sites;
	size_t n = 0, nobjs = 0;
	char dir[4200];

	if (c->backend_mutant)
		return ftv_errf(err, "scheme kernel: mutate the kernel's source instead (make kernel KERNEL_SRC=...)");
	/* The kernel's copy loads every object as kernel text: a far
	 * module's out-of-range call needs the module PLT the kernel finds
	 * with __module_text_address (arch/arm64/kernel/ftrace.c
	 * ftrace_find_callable_addr): not done yet. */
	if (c->far_modules)
		return ftv_errf(err, "scheme kernel: no far modules yet (the kernel's module PLT is not loaded)");
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
	w->arch_ctx = kback_new(c->kernel_dir ? c->kernel_dir :
				world_kernel_dir(c->tramp_dir, dir, sizeof(dir)), objs, nobjs, sites, n,
				w->caller, err);
	free(sites);
	return w->arch_ctx ? 0 : -1;
}

static void backend_free(void *ctx)
{
	kback_free(ctx);
}

const struct world_schemedesc world_scheme_kernel = {
	WORLD_ARM64_CALLOPS_WORLD,
	.name = "kernel",
	.backend = &kback_ftrace,
	.backend_ctx = backend_ctx,
	.backend_free = backend_free,
	.patcher_track = "patcher CPU (the kernel's code)",
	.fuzz = FTV_SCHEME_FUZZ_GRAPH | FTV_SCHEME_FUZZ_DIRECT,
};
