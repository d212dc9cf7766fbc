/* Reading one ELF64 little-endian AArch64 or RISC-V relocatable object (.o, .ko, or
 * .ko.xz decompressed in-process with liblzma) into validated tables.
 * Every offset, index and string reference is checked here once, so the
 * linker (sim/image.c) can index the tables without re-checking; any
 * violation is a one-line error naming the file, the field and the offset.
 * Section headers, symbols and relocations are copied out of the file image
 * (the file gives no alignment guarantee for them). */
#ifndef FTV_SIM_ELFOBJ_H
#define FTV_SIM_ELFOBJ_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arch.h"
#include "util/err.h"

struct sim_elf {
	char *path;          /* as given, for messages */
	uint8_t *data;       /* the whole (decompressed) file, owned */
	size_t size;
	Elf64_Ehdr eh;
	enum ftv_arch arch;  /* from e_machine: EM_AARCH64 or EM_RISCV */
	Elf64_Shdr *sh;      /* nsec entries */
	unsigned nsec;
	unsigned symtab;     /* index of the SHT_SYMTAB section, 0 if none */
	Elf64_Sym *syms;     /* nsyms entries (entry 0 is the null symbol) */
	size_t nsyms;
};

/* Largest input accepted, compressed or not (a 1 GiB guard against
 * decompression bombs; the biggest Debian arm64 module is ~30 MiB). */
#define SIM_ELF_MAX_SIZE (1ull << 30)

/* Reads path (decompressing when it starts with the xz magic) and parses
 * it. On failure e is left empty (safe to sim_elf_free). */
int sim_elf_load(struct sim_elf *e, const char *path, struct ftv_err *err);
/* Parses an in-memory file image (xz-compressed or not); takes ownership
 * of data on success and on failure. */
int sim_elf_parse(struct sim_elf *e, const char *path, uint8_t *data,
		  size_t size, struct ftv_err *err);
void sim_elf_free(struct sim_elf *e);

/* Validated names: never NULL. */
const char *sim_elf_secname(const struct sim_elf *e, unsigned idx);
const char *sim_elf_symname(const struct sim_elf *e, size_t sym);

/* Number of relocation entries of SHT_RELA section idx, and entry i copied
 * out (r_offset and symbol index already checked against the target
 * section and the symbol table, except that the width check of r_offset is
 * the linker's, which knows the type). */
size_t sim_elf_nrela(const struct sim_elf *e, unsigned idx);
void sim_elf_rela(const struct sim_elf *e, unsigned idx, size_t i,
		  Elf64_Rela *out);

/* xz decompression (liblzma stream decoder), exposed for tests. */
int sim_xz_decompress(const char *path, const uint8_t *in, size_t inlen,
		      uint8_t **out, size_t *outlen, struct ftv_err *err);

#endif
