/* Read-only access to an arm64 ELF file for `ftv capture`: a linked vmlinux
 * (ET_DYN/ET_EXEC, mmap'd: Debian's is 346 MB) or a kernel module (.ko, or
 * .ko.xz decompressed in memory). Every offset and index taken from the file
 * is bounds-checked; the relocatable loader proper lives in sim/elf*. */
#ifndef FTV_LAYOUT_CAPTURE_ELF_H
#define FTV_LAYOUT_CAPTURE_ELF_H

#include <elf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

struct cap_elf {
	const char *path;
	const uint8_t *data;
	size_t size;
	void *map;  /* mmap'd (size bytes), or NULL */
	void *heap; /* decompressed copy, or NULL */
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	size_t shnum;
	const Elf64_Sym *syms; /* .symtab, or NULL */
	size_t nsyms;
	const Elf64_Shdr *strtab;
};

/* Opens and validates an ELF64 little-endian AArch64 file. */
int cap_elf_open(struct cap_elf *e, const char *path, struct ftv_err *err);
void cap_elf_close(struct cap_elf *e);

/* The name of section i ("" if unnamed); NULL if i is out of range. */
const char *cap_elf_secname(const struct cap_elf *e, size_t i);
/* The first section called name, or -1. */
long cap_elf_find(const struct cap_elf *e, const char *name);
/* The contents of [off, off+len) of section i, or NULL (NOBITS or out of
 * bounds). */
const uint8_t *cap_elf_bytes(const struct cap_elf *e, size_t i, uint64_t off,
			     uint64_t len);
/* The symbol's name ("" when unnamed or out of range). */
const char *cap_elf_symname(const struct cap_elf *e, const Elf64_Sym *s);
/* The first symbol called name, or NULL. */
const Elf64_Sym *cap_elf_sym(const struct cap_elf *e, const char *name);
/* The allocated section holding virtual address [addr, addr+len), or -1. */
long cap_elf_sec_at(const struct cap_elf *e, uint64_t addr, uint64_t len);

/* The captures proper, on a file already open (layout/capture.h has the
 * path-taking versions). */
struct sim_layout;
int cap_capture_vmlinux(struct sim_layout *l, const struct cap_elf *e,
			struct ftv_err *err);
int cap_capture_kmod(struct sim_layout *l, const struct cap_elf *e,
		     struct ftv_err *err);

static inline uint32_t cap_le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t cap_le64(const uint8_t *p)
{
	return cap_le32(p) | (uint64_t)cap_le32(p + 4) << 32;
}

#endif
