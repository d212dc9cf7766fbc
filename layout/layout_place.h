/* Where a layout's modules sit in memory: a loaded module (absolute
 * addresses) where it was captured; a module read from its file where
 * the kernel's module loader would put it, in the order of the layout's
 * module lines (the load order).
 *
 * The loader's model (arm64, v6.12, KASLR off: the addresses are the
 * vmlinux's link-time ones): module_init_limits() opens a window of
 * module_direct_size bytes ending at the image's _end, and one of
 * module_plt_size bytes, both ending at _end; the kernel image itself is
 * taken. move_module() allocates each non-empty memory of a module in
 * turn (text, data, rodata, ro_after_init, init_text, init_data,
 * init_rodata), each rounded up to pages (module_memory_alloc()), through
 * execmem/vmalloc: the lowest free range of the direct window that holds
 * it and a guard page (alloc_vmap_area() finds the lowest fit;
 * __get_vm_area_node() adds the guard), else of the PLT window. A
 * module's init memories are freed after its init, lazily: vmalloc does
 * not hand their addresses out again before a purge, which happens when
 * the lazily freed pages exceed lazy_max_pages() or an allocation fails;
 * this model never purges (so it never reuses init memory), which is
 * exact as long as neither happens. Nothing else is taken from the
 * windows (no BPF programs, no kprobe pages).
 *
 *   struct sim_layout_placement p;
 *   sim_layout_place(l, arch, 0, &p, &err);
 *   struct sim_layout *abs = sim_layout_placed(l, &p);   // absolute sites
 */
#ifndef FTV_LAYOUT_LAYOUT_PLACE_H
#define FTV_LAYOUT_LAYOUT_PLACE_H

#include "layout/layout.h"

enum sim_place_how {
	SIM_PLACE_CAPTURED, /* loaded: its sites have addresses */
	SIM_PLACE_DIRECT,   /* in the direct window: calls reach the kernel */
	SIM_PLACE_PLT,      /* in the PLT window */
	SIM_PLACE_NONE,     /* could not be placed: why says */
};

struct sim_placed_module {
	const char *name;   /* the layout's string */
	enum sim_place_how how;
	uint64_t base[SIM_MOD_NMEM]; /* loader-placed: each memory, 0 if empty */
	uint64_t plt;       /* its ftrace PLT, 0 if unknown */
	bool plt_captured;  /* plt is what the capture recorded */
	uint64_t text_end;  /* captured: the end of its highest text */
	char why[160];
};

struct sim_layout_placement {
	struct sim_placed_module *mods; /* every module of the layout: first
					   the module lines', in order, then
					   those only sites name */
	size_t nmods;
	bool has_windows;
	uint64_t direct_lo, direct_hi, plt_lo, plt_hi; /* 0 when absent */
	size_t direct, plt, captured, none; /* modules placed each way */
};

/* Places every module of l. far: skip the direct window, as if it were
 * full (every module then needs its PLT). Returns -1 with err only when
 * out of memory; a module that cannot be placed has how SIM_PLACE_NONE. */
int sim_layout_place(const struct sim_layout *l,
		     const struct sim_layout_arch *arch, bool far,
		     struct sim_layout_placement *p, struct ftv_err *err);
void sim_layout_placement_free(struct sim_layout_placement *p);
/* The module named name, or NULL. */
const struct sim_placed_module *sim_layout_placed_module(
	const struct sim_layout_placement *p, const char *name);
/* A copy of l whose placed modules' sites and text ranges are absolute
 * (section NULL for sites; the ranges keep their section names), site i of
 * the copy being site i of l; the sites of unplaced modules stay
 * section-relative. */
struct sim_layout *sim_layout_placed(const struct sim_layout *l,
				     const struct sim_layout_placement *p);

#endif
