/* What differs between architectures in the loader and the site finder:
 * one table of functions per architecture, filled in sim/arch_<arch>.c and
 * looked up by the image's architecture (the objects' e_machine). The
 * generic code (image.c, sites_find.c) never asks which architecture it
 * links for, as Linux's module loader calls apply_relocate_add() and
 * ftrace's core ftrace_init_nop() without knowing the arch.
 *
 * Adding an architecture to the loader: sim/reloc_<arch>.{c,h} (the
 * relocation types' bit manipulation), sim/arch_<arch>.c (this table:
 * relocating a section, classifying a patch site, the trap stub), its line
 * in sim/arch.c, and its e_machine in util/arch.c. */
#ifndef FTV_SIM_ARCH_H
#define FTV_SIM_ARCH_H

#include "sim/image_priv.h"

struct sim_arch {
	enum ftv_arch arch;
	/* Edits a validated object before placement as the arch's linker
	 * must (RISC-V: deletes the excess R_RISCV_ALIGN padding); NULL when
	 * there is nothing to do. */
	int (*prepare)(struct sim_elf *e, struct ftv_err *err);
	/* Applies relocation section rs of a placed, resolved object. */
	int (*relocate)(struct sim_image *img, struct img_obj *ob, unsigned rs,
			struct ftv_err *err);
	/* A PLT veneer in text region r branching to target (shared per
	 * region and target), or 0 with err set; NULL when the arch's calls
	 * reach every region of the image without one. */
	uint64_t (*veneer)(struct sim_image *img, struct sim_region *r,
			   uint64_t target, struct ftv_err *err);
	/* The patch site whose __patchable_function_entries value is A, in
	 * executable section sec of ob: appends it (img_site_new) or a
	 * diagnostic; -1 only when out of memory. */
	int (*classify)(struct sim_image *img, const struct img_obj *ob,
			unsigned sec, uint64_t A, struct ftv_err *err);
	/* Writes the trap stub of undefined symbol number k
	 * (SIM_STUB_SIZE bytes) at a. */
	void (*write_stub)(struct sim_aspace *as, uint64_t a, size_t k);
};

/* The table of architecture a (every enum ftv_arch has one). */
const struct sim_arch *sim_arch_get(enum ftv_arch a);

extern const struct sim_arch sim_arch_arm64;
extern const struct sim_arch sim_arch_riscv64;

#endif
