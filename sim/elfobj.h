/* The loader's input: one relocatable object (.o, .ko, or a compressed
 * .ko.xz/.ko.zst/.ko.gz) read by sim/elf.h, plus what linking relies on
 * being checked once: ET_REL, each section's alignment and size, each
 * symbol's section index, and its value and size inside its section
 * (local labels without size excepted: img_label_unbounded),
 * COMMON symbols, and every relocation of a loaded section (symbol index,
 * place inside the target). The linker (sim/image.c) then indexes the
 * tables without re-checking; a violation is a one-line error naming the
 * file, the field and the offset or symbol. */
#ifndef FTV_SIM_ELFOBJ_H
#define FTV_SIM_ELFOBJ_H

#include "sim/elf.h"

/* Reads path and checks it. On failure e is left empty. */
int sim_elfobj_load(struct sim_elf *e, const char *path, struct ftv_err *err);
/* The same on an in-memory file image; takes ownership of data (malloc'd)
 * on success and on failure. */
int sim_elfobj_parse(struct sim_elf *e, const char *path, uint8_t *data,
		     size_t size, struct ftv_err *err);

/* A local, untyped, sizeless symbol (an assembler label such as GCC's
 * `.set .LANCHORn, . + 4096`): its value may lie past the end of its
 * section, so it is checked where it is used, symbol + addend, when a
 * relocation refers to it (img_reloc_target_ok, sim/image_priv.h). */
static inline int img_label_unbounded(const Elf64_Sym *y)
{
	return ELF64_ST_BIND(y->st_info) == STB_LOCAL &&
	       ELF64_ST_TYPE(y->st_info) == STT_NOTYPE && !y->st_size;
}

#endif
