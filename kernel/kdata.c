/* The data and linker-script names the loaded kernel objects use but do
 * not define, bound to data with the values a booted arm64 kernel has (or
 * to what the linker script says): ONE table. A name not here and not a
 * shim (kernel/kshim.c) is a plain trap stub. */
#include "kernel/kshim.h"

#include <string.h>

enum kd_kind {
	KD_VALUE, /* size bytes holding value */
	KD_OPS,   /* a struct ftrace_ops (zeroed, sizeof from the DWARF) */
	KD_MARK,  /* a linker-script boundary: every KD_MARK is one address */
	KD_ALIAS, /* the address of another global (linker-script alias) */
};

struct kdata {
	const char *name;
	enum kd_kind kind;
	unsigned size;
	uint64_t value;
	const char *alias;
	const char *why;
};

/* The physical address ftv's kernel text stands at (any RAM base works if
 * __pa_symbol, phys_to_page and page_to_phys round-trip: patch_map). */
#define KDATA_PHYS_TEXT 0x40000000ull

static const struct kdata kdata[] = {
	{ "system_state", KD_VALUE, 4, 3,
	  NULL, "SYSTEM_RUNNING (include/linux/kernel.h): boot is over, "
		"exit text is gone (patching.c is_exit_text)" },
	{ "kimage_voffset", KD_VALUE, 8, SIM_KERNEL_TEXT_BASE - KDATA_PHYS_TEXT,
	  NULL, "kernel VA - PA (arch/arm64/include/asm/memory.h "
		"__kimg_to_phys): ftv's text at PA 0x40000000" },
	{ "memstart_addr", KD_VALUE, 8, KDATA_PHYS_TEXT,
	  NULL, "PHYS_OFFSET, the start of RAM (memory.h): RAM begins at the "
		"kernel image" },
	{ "arm64_use_ng_mappings", KD_VALUE, 1, 0,
	  NULL, "false: no KPTI/E0PD (cpufeature.h), PTE_MAYBE_NG = 0" },
	{ "__cpu_online_mask", KD_VALUE, 8, 1,
	  NULL, "CPU 0 online (the one CPU that runs)" },
	{ "__num_online_cpus", KD_VALUE, 4, 1, NULL, "one CPU" },
	{ "arm64_ftr_reg_ctrel0", KD_VALUE, 64, 0,
	  NULL, "read only by cache.o's MISMATCHED_CACHE_TYPE alternative, "
		"which stays unapplied (default: MRS CTR_EL0)" },
	{ "__exittext_begin", KD_MARK, 0, 0,
	  NULL, "an empty exit-text section (vmlinux.lds.S)" },
	{ "__exittext_end", KD_MARK, 0, 0, NULL, "(the same)" },
	{ "ftrace_nop_ops", KD_OPS, 0, 0,
	  NULL, "kernel/trace/ftrace.c: the ops of a disabled CALL_OPS site" },
	{ "ftrace_list_ops", KD_OPS, 0, 0,
	  NULL, "kernel/trace/ftrace.c: the ops of a site with several ops" },
	{ "ftrace_ops_list_func", KD_ALIAS, 0, 0, "arch_ftrace_ops_list_func",
	  "include/asm-generic/vmlinux.lds.h MCOUNT_REC()" },
	{ "ftrace_stub_graph", KD_ALIAS, 0, 0, "ftrace_stub",
	  "include/asm-generic/vmlinux.lds.h FTRACE_STUB_HACK" },
};

static uint64_t kd_alloc(struct sim_image *img, uint64_t size,
			 struct ftv_err *err)
{
	struct sim_region *r = sim_region_named(sim_image_aspace(img),
						"kernel.data");

	if (!r) {
		ftv_errf(err, "no kernel.data region");
		return 0;
	}
	return sim_region_alloc(r, size ? size : 8, 64, err);
}

/* sim_load_opts.bind for a struct kern */
int kdata_bind(void *ctx, struct sim_image *img, const char *name,
	       uint64_t *value, struct ftv_err *err)
{
	struct kern *k = ctx;
	static const size_t n = sizeof(kdata) / sizeof(kdata[0]);
	struct sim_aspace *as = sim_image_aspace(img);

	for (size_t i = 0; i < n; i++) {
		const struct kdata *d = &kdata[i];
		uint64_t a;

		if (strcmp(d->name, name))
			continue;
		switch (d->kind) {
		case KD_ALIAS:
			*value = sim_image_lookup(img, d->alias);
			return *value ? 1 : 0;
		case KD_MARK:
			if (sim_sym_lookup(as, "__ftv_marks")) {
				*value = sim_sym_lookup(as, "__ftv_marks")->addr;
				return 1;
			}
			break;
		case KD_OPS:
			a = kd_alloc(img, k->lay.ops_size, err);
			if (!a)
				return -1;
			sim_sym_add(as, name, a, k->lay.ops_size, SIM_SYM_OBJECT,
				    "ftv");
			*value = a;
			return 1;
		case KD_VALUE:
			a = kd_alloc(img, d->size, err);
			if (!a || sim_write(as, a, &d->value, d->size, err))
				return -1;
			sim_sym_add(as, name, a, d->size, SIM_SYM_OBJECT, "ftv");
			*value = a;
			return 1;
		}
		/* the first KD_MARK: one address for all */
		a = kd_alloc(img, 8, err);
		if (!a)
			return -1;
		sim_sym_add(as, "__ftv_marks", a, 0, SIM_SYM_OBJECT, "ftv");
		*value = a;
		return 1;
	}
	return 0;
}

uint64_t kdata_value(const char *name)
{
	for (size_t i = 0; i < sizeof(kdata) / sizeof(kdata[0]); i++)
		if (kdata[i].kind == KD_VALUE && !strcmp(kdata[i].name, name))
			return kdata[i].value;
	return 0;
}
