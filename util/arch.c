#include <elf.h>
#include <stddef.h>
#include <string.h>

#include "util/arch.h"

/* One row per architecture: its name, another name users write for it,
 * and the ELF machine its objects carry (ELF64 little-endian was checked by
 * the caller: EM_RISCV is then RV64, the psABI's ELFCLASS64). */
static const struct {
	const char *name, *alias;
	unsigned machine;
} arches[] = {
	[FTV_ARCH_ARM64] = { "arm64", "aarch64", EM_AARCH64 },
	[FTV_ARCH_RISCV64] = { "riscv64", NULL, EM_RISCV },
};

#define NARCH (sizeof(arches) / sizeof(arches[0]))

int ftv_arch_parse(const char *s, enum ftv_arch *out)
{
	for (size_t i = 0; i < NARCH; i++)
		if (!strcmp(s, arches[i].name) ||
		    (arches[i].alias && !strcmp(s, arches[i].alias))) {
			*out = (enum ftv_arch)i;
			return 0;
		}
	return -1;
}

const char *ftv_arch_name(enum ftv_arch a)
{
	return (size_t)a < NARCH ? arches[a].name : "?";
}

int ftv_arch_from_elf_machine(unsigned machine, enum ftv_arch *out)
{
	for (size_t i = 0; i < NARCH; i++)
		if (arches[i].machine == machine) {
			*out = (enum ftv_arch)i;
			return 0;
		}
	return -1;
}
