/* How the kernel's module loader lays a module out in memory, read from its
 * .ko without loading it (kernel/module/main.c, v6.12: the arch's
 * module_frob_arch_sections(), then layout_sections() and layout_symtab()):
 * the size of each of its memories (enum sim_mod_mem) and where each
 * section goes. A capture records it so that ftv replay can place the
 * module as the loader would. */
#ifndef FTV_LAYOUT_CAPTURE_MODMEM_H
#define FTV_LAYOUT_CAPTURE_MODMEM_H

#include "layout/layout.h"
#include "sim/elf.h"
#include "util/err.h"

struct cap_modmem {
	uint64_t size[SIM_MOD_NMEM]; /* mod->mem[type].size */
	int *mem;                    /* per section: its memory, or -1 */
	uint64_t *off;               /* per section: its offset in it */
	unsigned ftrace_plt;         /* the section of the ftrace PLT, or 0 */
};

/* Lays e out. Returns -1 with err set when the arch's loader would refuse
 * the module (arm64: no .plt sections). */
int cap_modmem_build(struct cap_modmem *m, const struct sim_elf *e,
		     const struct sim_layout_arch *arch, struct ftv_err *err);
void cap_modmem_free(struct cap_modmem *m);

#endif
