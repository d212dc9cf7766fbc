#include "sim/elf.h"

#include "util/decompress.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

void sim_elf_free(struct sim_elf *e)
{
	free(e->path);
	if (e->mapped)
		munmap(e->data, e->size);
	else
		free(e->data);
	free(e->sh);
	free(e->syms);
	memset(e, 0, sizeof(*e));
}

/* [off, off+len) inside a buffer of size n, without overflow. */
static int in_file(uint64_t off, uint64_t len, uint64_t n)
{
	return off <= n && len <= n - off;
}

const char *sim_elf_secname(const struct sim_elf *e, unsigned idx)
{
	const Elf64_Shdr *ss = &e->sh[e->eh.e_shstrndx];

	if (idx >= e->nsec)
		return "?";
	return (const char *)e->data + ss->sh_offset + e->sh[idx].sh_name;
}

const char *sim_elf_symname(const struct sim_elf *e, size_t sym)
{
	const Elf64_Shdr *st;

	if (!e->symtab || sym >= e->nsyms)
		return "?";
	st = &e->sh[e->sh[e->symtab].sh_link];
	return (const char *)e->data + st->sh_offset + e->syms[sym].st_name;
}

unsigned sim_elf_find(const struct sim_elf *e, const char *name)
{
	for (unsigned i = 1; i < e->nsec; i++)
		if (!strcmp(sim_elf_secname(e, i), name))
			return i;
	return 0;
}

size_t sim_elf_sym_named(const struct sim_elf *e, const char *name)
{
	for (size_t i = 1; i < e->nsyms; i++)
		if (!strcmp(sim_elf_symname(e, i), name))
			return i;
	return 0;
}

const uint8_t *sim_elf_bytes(const struct sim_elf *e, unsigned idx,
			     uint64_t off, uint64_t len)
{
	const Elf64_Shdr *s;

	if (idx == 0 || idx >= e->nsec)
		return NULL;
	s = &e->sh[idx];
	if (s->sh_type == SHT_NOBITS || !in_file(off, len, s->sh_size))
		return NULL;
	return e->data + s->sh_offset + off;
}

unsigned sim_elf_sec_at(const struct sim_elf *e, uint64_t addr, uint64_t len)
{
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if ((s->sh_flags & SHF_ALLOC) && s->sh_type != SHT_NOBITS &&
		    addr >= s->sh_addr &&
		    in_file(addr - s->sh_addr, len, s->sh_size))
			return i;
	}
	return 0;
}

size_t sim_elf_nrela(const struct sim_elf *e, unsigned idx)
{
	return e->sh[idx].sh_size / sizeof(Elf64_Rela);
}

void sim_elf_rela(const struct sim_elf *e, unsigned idx, size_t i,
		  Elf64_Rela *out)
{
	memcpy(out, e->data + e->sh[idx].sh_offset + i * sizeof(Elf64_Rela),
	       sizeof(*out));
}

/* A string table must lie in the file and end with NUL, so that any index
 * below its size names a terminated string. */
static int check_strtab(const struct sim_elf *e, unsigned idx,
			const char *what, struct ftv_err *err)
{
	const Elf64_Shdr *s = &e->sh[idx];

	if (s->sh_type != SHT_STRTAB)
		return ftv_errf(err, "%s: %s (section %u) is not SHT_STRTAB",
				e->path, what, idx);
	if (!s->sh_size || e->data[s->sh_offset + s->sh_size - 1])
		return ftv_errf(err, "%s: %s (section %u, offset 0x%llx) is not NUL-terminated",
				e->path, what, idx,
				(unsigned long long)s->sh_offset);
	return 0;
}

static int check_header(struct sim_elf *e, struct ftv_err *err)
{
	const unsigned char *id = e->eh.e_ident;

	if (memcmp(e->data, ELFMAG, e->size < SELFMAG ? e->size : SELFMAG))
		return ftv_errf(err, "%s: not an ELF file (bad magic at offset 0)",
				e->path);
	if (e->size < sizeof(Elf64_Ehdr))
		return ftv_errf(err, "%s: truncated ELF header (%zu bytes)",
				e->path, e->size);
	memcpy(&e->eh, e->data, sizeof(e->eh));
	if (id[EI_CLASS] != ELFCLASS64)
		return ftv_errf(err, "%s: not ELF64 (EI_CLASS %u at offset 0x4)",
				e->path, id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB)
		return ftv_errf(err, "%s: not little-endian (EI_DATA %u at offset 0x5)",
				e->path, id[EI_DATA]);
	if (ftv_arch_from_elf_machine(e->eh.e_machine, &e->arch))
		return ftv_errf(err, "%s: e_machine %u is neither EM_AARCH64 nor EM_RISCV (offset 0x12)",
				e->path, e->eh.e_machine);
	if (e->eh.e_shentsize != sizeof(Elf64_Shdr))
		return ftv_errf(err, "%s: e_shentsize %u is not %zu (offset 0x3a)",
				e->path, e->eh.e_shentsize, sizeof(Elf64_Shdr));
	if (e->eh.e_shnum == 0)
		return ftv_errf(err, "%s: e_shnum is 0 (no sections, or extended numbering, which ftv does not support)",
				e->path);
	if (!in_file(e->eh.e_shoff,
		     (uint64_t)e->eh.e_shnum * sizeof(Elf64_Shdr), e->size))
		return ftv_errf(err, "%s: section header table at e_shoff 0x%llx (%u entries) runs past the end of the file (0x%zx bytes)",
				e->path, (unsigned long long)e->eh.e_shoff,
				e->eh.e_shnum, e->size);
	if (e->eh.e_shstrndx == SHN_UNDEF || e->eh.e_shstrndx >= e->eh.e_shnum)
		return ftv_errf(err, "%s: e_shstrndx %u out of range (%u sections)",
				e->path, e->eh.e_shstrndx, e->eh.e_shnum);
	return 0;
}

static int check_sections(struct sim_elf *e, struct ftv_err *err)
{
	e->nsec = e->eh.e_shnum;
	e->sh = malloc(e->nsec * sizeof(Elf64_Shdr));
	if (!e->sh)
		return ftv_errf(err, "%s: out of memory", e->path);
	memcpy(e->sh, e->data + e->eh.e_shoff, e->nsec * sizeof(Elf64_Shdr));
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		uint64_t hdr = e->eh.e_shoff + (uint64_t)i * sizeof(Elf64_Shdr);

		/* SHT_NULL too: a real one has neither offset nor size */
		if (s->sh_type != SHT_NOBITS &&
		    !in_file(s->sh_offset, s->sh_size, e->size))
			return ftv_errf(err, "%s: section %u (header at 0x%llx): sh_offset 0x%llx + sh_size 0x%llx past end of file (0x%zx bytes)",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_offset,
					(unsigned long long)s->sh_size, e->size);
		if (s->sh_type == SHT_SYMTAB) {
			if (e->symtab)
				return ftv_errf(err, "%s: second SHT_SYMTAB (section %u)",
						e->path, i);
			e->symtab = i;
		}
	}
	if (check_strtab(e, e->eh.e_shstrndx, "section name table", err))
		return -1;
	for (unsigned i = 0; i < e->nsec; i++)
		if (e->sh[i].sh_name >= e->sh[e->eh.e_shstrndx].sh_size)
			return ftv_errf(err, "%s: section %u: sh_name 0x%x outside the section name table",
					e->path, i, e->sh[i].sh_name);
	return 0;
}

static int check_symtab(struct sim_elf *e, struct ftv_err *err)
{
	const Elf64_Shdr *s;
	uint64_t strsz;

	if (!e->symtab)
		return 0;
	s = &e->sh[e->symtab];
	if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym))
		return ftv_errf(err, "%s: symbol table (section %u): bad sh_entsize %llu / sh_size 0x%llx",
				e->path, e->symtab,
				(unsigned long long)s->sh_entsize,
				(unsigned long long)s->sh_size);
	if (s->sh_link == 0 || s->sh_link >= e->nsec)
		return ftv_errf(err, "%s: symbol table (section %u): sh_link %u is not a section",
				e->path, e->symtab, s->sh_link);
	if (check_strtab(e, s->sh_link, "symbol string table", err))
		return -1;
	strsz = e->sh[s->sh_link].sh_size;
	e->nsyms = s->sh_size / sizeof(Elf64_Sym);
	e->syms = malloc((e->nsyms ? e->nsyms : 1) * sizeof(Elf64_Sym));
	if (!e->syms)
		return ftv_errf(err, "%s: out of memory", e->path);
	memcpy(e->syms, e->data + s->sh_offset, e->nsyms * sizeof(Elf64_Sym));
	for (size_t i = 0; i < e->nsyms; i++) {
		const Elf64_Sym *y = &e->syms[i];
		uint64_t at = s->sh_offset + i * sizeof(Elf64_Sym);

		if (y->st_name >= strsz)
			return ftv_errf(err, "%s: symbol %zu (offset 0x%llx): st_name 0x%x outside the string table",
					e->path, i, (unsigned long long)at,
					y->st_name);
		if (y->st_shndx == SHN_XINDEX)
			return ftv_errf(err, "%s: symbol %zu (offset 0x%llx): SHN_XINDEX is not supported",
					e->path, i, (unsigned long long)at);
	}
	return 0;
}

/* Decodes a compressed image in place of the raw one; data is freed or
 * unmapped either way. */
static int decompress(struct sim_elf *e, struct ftv_err *err)
{
	enum ftv_zfmt f;
	uint8_t *raw;
	size_t rawlen;
	int rc;

	if (ftv_z_identify(e->path, e->data, e->size, &f, err))
		return -1;
	if (f == FTV_Z_NONE)
		return 0;
	rc = ftv_decompress(e->path, f, e->data, e->size, SIM_ELF_MAX_SIZE,
			    &raw, &rawlen, err);
	if (e->mapped)
		munmap(e->data, e->size);
	else
		free(e->data);
	e->mapped = 0;
	e->data = rc ? NULL : raw;
	e->size = rc ? 0 : rawlen;
	return rc;
}

static int parse(struct sim_elf *e, struct ftv_err *err)
{
	if (decompress(e, err) || check_header(e, err) ||
	    check_sections(e, err) || check_symtab(e, err)) {
		sim_elf_free(e);
		return -1;
	}
	return 0;
}

int sim_elf_open_mem(struct sim_elf *e, const char *path, uint8_t *data,
		     size_t size, struct ftv_err *err)
{
	memset(e, 0, sizeof(*e));
	e->path = strdup(path);
	e->data = data;
	e->size = size;
	if (!e->path) {
		sim_elf_free(e);
		return ftv_errf(err, "%s: out of memory", path);
	}
	return parse(e, err);
}

int sim_elf_open(struct sim_elf *e, const char *path, struct ftv_err *err)
{
	struct stat st;
	int fd;

	memset(e, 0, sizeof(*e));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ftv_errf(err, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return ftv_errf(err, "%s: not a regular file", path);
	}
	if ((unsigned long long)st.st_size > SIM_ELF_MAX_SIZE) {
		close(fd);
		return ftv_errf(err, "%s: file too large (%lld bytes)", path,
				(long long)st.st_size);
	}
	e->path = strdup(path);
	e->size = st.st_size;
	if (e->size) {
		/* A private, writable mapping: the loader edits sections in
		 * place (RISC-V ALIGN padding), never the file. */
		e->data = mmap(NULL, e->size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_NORESERVE, fd, 0);
		if (e->data == MAP_FAILED) {
			int en = errno;

			close(fd);
			e->data = NULL;
			sim_elf_free(e);
			return ftv_errf(err, "%s: cannot map: %s", path,
					strerror(en));
		}
		e->mapped = 1;
	} else {
		e->data = malloc(1);
	}
	close(fd);
	if (!e->path || !e->data) {
		sim_elf_free(e);
		return ftv_errf(err, "%s: out of memory", path);
	}
	return parse(e, err);
}
