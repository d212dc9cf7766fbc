/* The instruction set architectures ftv models. Each part (sim loader,
 * executor CPUs, patcher backends, worlds) takes one of these; the sim image
 * learns it from the objects' e_machine. */
#ifndef FTV_UTIL_ARCH_H
#define FTV_UTIL_ARCH_H

enum ftv_arch {
	FTV_ARCH_ARM64,   /* AArch64, EM_AARCH64 */
	FTV_ARCH_RISCV64, /* RV64GC, EM_RISCV with ELFCLASS64 */
};

/* What commands assume without --arch or an object to say otherwise. */
#define FTV_ARCH_DEFAULT FTV_ARCH_ARM64

/* "arm64" (also "aarch64") or "riscv64"; -1 if unknown. */
int ftv_arch_parse(const char *s, enum ftv_arch *out);
const char *ftv_arch_name(enum ftv_arch a);
/* The architecture of an ELF64 little-endian file's e_machine (EM_AARCH64,
 * EM_RISCV); -1 for any other machine. */
int ftv_arch_from_elf_machine(unsigned machine, enum ftv_arch *out);

#endif
