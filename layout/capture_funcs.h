/* Function symbols of an ELF file, sorted for address lookups: which
 * function a patchable entry belongs to. */
#ifndef FTV_LAYOUT_CAPTURE_FUNCS_H
#define FTV_LAYOUT_CAPTURE_FUNCS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/elf.h"

struct cap_func {
	uint64_t addr, size;
	const char *name;
	uint32_t shndx; /* 0 when looking up by virtual address (vmlinux) */
	bool global;
};

struct cap_funcs {
	struct cap_func *v;
	size_t n;
};

/* Collects the defined STT_FUNC symbols; by_section keys them by their
 * section (relocatable modules), else by address alone. */
int cap_funcs_build(struct cap_funcs *f, const struct sim_elf *e,
		    bool by_section, struct ftv_err *err);
void cap_funcs_free(struct cap_funcs *f);
/* The function a patchable entry belongs to: one starting 8 bytes after it
 * (CALL_OPS pre-function NOPs), one starting at it, or one covering it;
 * global symbols preferred among aliases. NULL when none. */
const struct cap_func *cap_funcs_resolve(const struct cap_funcs *f,
					 uint32_t shndx, uint64_t entry);

#endif
