/* ftv's one ELF reader: an ELF64 little-endian file of an architecture ftv
 * models (AArch64 or RISC-V), relocatable or linked, plain or compressed
 * (.ko.xz, .ko.zst, .ko.gz: util/decompress.h, told by the magic bytes).
 * The header, the section header table, the section name table and the
 * symbol table are checked once here, so that every index and string the
 * accessors below hand out is in bounds; any violation is a one-line error
 * naming the file, the field and its offset. Section headers and symbols
 * are copied out (the file gives no alignment guarantee for them).
 *
 * The loader adds the checks of relocatable objects (sim/elfobj.h); `ftv
 * capture` (layout/) reads linked vmlinux files and modules through the
 * same functions. Uncompressed files are mapped, not read: a vmlinux with
 * its symbols is some 350 MB, of which a capture touches a few. */
#ifndef FTV_SIM_ELF_H
#define FTV_SIM_ELF_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#include "util/arch.h"
#include "util/err.h"

struct sim_elf {
	char *path;          /* as given, for messages */
	uint8_t *data;       /* the whole (decompressed) file, writable */
	size_t size;
	int mapped;          /* data is a private mapping (else malloc'd) */
	Elf64_Ehdr eh;
	enum ftv_arch arch;  /* from e_machine: EM_AARCH64 or EM_RISCV */
	Elf64_Shdr *sh;      /* nsec entries */
	unsigned nsec;
	unsigned symtab;     /* index of the SHT_SYMTAB section, 0 if none */
	Elf64_Sym *syms;     /* nsyms entries (entry 0 is the null symbol) */
	size_t nsyms;
};

/* Largest input accepted, compressed or not (a 1 GiB guard against
 * decompression bombs; the biggest Debian arm64 module is ~30 MiB, the
 * Debian vmlinux with its symbols 346 MB). */
#define SIM_ELF_MAX_SIZE (1ull << 30)

/* Opens path (decompressing it when its magic says so). On failure e is
 * left empty (safe to sim_elf_free). */
int sim_elf_open(struct sim_elf *e, const char *path, struct ftv_err *err);
/* The same on an in-memory file image (compressed or not); takes
 * ownership of data, which must be malloc'd, on success and on failure. */
int sim_elf_open_mem(struct sim_elf *e, const char *path, uint8_t *data,
		     size_t size, struct ftv_err *err);
void sim_elf_free(struct sim_elf *e);

/* Validated names, never NULL: "?" for an index out of range. */
const char *sim_elf_secname(const struct sim_elf *e, unsigned idx);
const char *sim_elf_symname(const struct sim_elf *e, size_t sym);
/* The first section called name, or 0. */
unsigned sim_elf_find(const struct sim_elf *e, const char *name);
/* The first symbol called name (index >= 1), or 0. */
size_t sim_elf_sym_named(const struct sim_elf *e, const char *name);
/* The contents [off, off+len) of section idx, or NULL when the section
 * has no contents in the file (NOBITS) or the range leaves it. */
const uint8_t *sim_elf_bytes(const struct sim_elf *e, unsigned idx,
			     uint64_t off, uint64_t len);
/* The allocated section with contents holding virtual addresses
 * [addr, addr+len) of a linked file, or 0. */
unsigned sim_elf_sec_at(const struct sim_elf *e, uint64_t addr,
			uint64_t len);

/* Number of Elf64_Rela entries of section idx (its size / 24; its
 * sh_entsize is the caller's to check), and entry i copied out; nothing
 * in the entry is checked here. */
size_t sim_elf_nrela(const struct sim_elf *e, unsigned idx);
void sim_elf_rela(const struct sim_elf *e, unsigned idx, size_t i,
		  Elf64_Rela *out);

static inline uint32_t sim_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t sim_le64(const uint8_t *p)
{
	return sim_le32(p) | (uint64_t)sim_le32(p + 4) << 32;
}

#endif
