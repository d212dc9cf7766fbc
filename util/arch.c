#include <elf.h>
#include <string.h>

#include "util/arch.h"

int ftv_arch_parse(const char *s, enum ftv_arch *out)
{
	if (!strcmp(s, "arm64") || !strcmp(s, "aarch64"))
		*out = FTV_ARCH_ARM64;
	else if (!strcmp(s, "riscv64"))
		*out = FTV_ARCH_RISCV64;
	else
		return -1;
	return 0;
}

const char *ftv_arch_name(enum ftv_arch a)
{
	return a == FTV_ARCH_RISCV64 ? "riscv64" : "arm64";
}

int ftv_arch_from_elf_machine(unsigned machine, enum ftv_arch *out)
{
	/* ELF64 little-endian was checked by the caller: EM_RISCV is then
	 * RV64 (the psABI's ELFCLASS64). */
	if (machine == EM_AARCH64)
		*out = FTV_ARCH_ARM64;
	else if (machine == EM_RISCV)
		*out = FTV_ARCH_RISCV64;
	else
		return -1;
	return 0;
}
