/* Bounds-checked reading of arm64 ELF files for `ftv capture`. */
#include "layout/capture_elf.h"

#include "layout/layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static bool in_file(const struct cap_elf *e, uint64_t off, uint64_t len)
{
	return off <= e->size && len <= e->size - off;
}

static int validate(struct cap_elf *e, struct ftv_err *err)
{
	const Elf64_Ehdr *eh = (const void *)e->data;
	const char *p = e->path;

	if (e->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG))
		return ftv_errf(err, "%s: not an ELF file", p);
	if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return ftv_errf(err, "%s: not a 64-bit little-endian ELF file", p);
	if (eh->e_machine != EM_AARCH64)
		return ftv_errf(err, "%s: e_machine %u is not AArch64 (%u)", p,
				eh->e_machine, EM_AARCH64);
	if (eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
	    !in_file(e, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)))
		return ftv_errf(err, "%s: section header table (offset 0x%llx, "
				"%u entries) is not inside the file", p,
				(unsigned long long)eh->e_shoff, eh->e_shnum);
	if ((uintptr_t)e->data % 8 || eh->e_shoff % 8)
		return ftv_errf(err, "%s: misaligned section header table", p);
	e->eh = eh;
	e->sh = (const void *)(e->data + eh->e_shoff);
	e->shnum = eh->e_shnum;
	if (eh->e_shstrndx >= e->shnum ||
	    e->sh[eh->e_shstrndx].sh_type != SHT_STRTAB)
		return ftv_errf(err, "%s: e_shstrndx %u is not a string table", p,
				eh->e_shstrndx);
	for (size_t i = 0; i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL &&
		    !in_file(e, s->sh_offset, s->sh_size))
			return ftv_errf(err, "%s: section [%zu] (offset 0x%llx, size "
					"0x%llx) extends beyond the file", p, i,
					(unsigned long long)s->sh_offset,
					(unsigned long long)s->sh_size);
	}
	for (size_t i = 0; i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if (s->sh_type != SHT_SYMTAB)
			continue;
		if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_offset % 8 ||
		    s->sh_link >= e->shnum ||
		    e->sh[s->sh_link].sh_type != SHT_STRTAB)
			return ftv_errf(err, "%s: malformed .symtab (section [%zu])",
					p, i);
		e->syms = (const void *)(e->data + s->sh_offset);
		e->nsyms = s->sh_size / sizeof(Elf64_Sym);
		e->strtab = &e->sh[s->sh_link];
		break;
	}
	return 0;
}

int cap_elf_open(struct cap_elf *e, const char *path, struct ftv_err *err)
{
	struct stat st;
	size_t pl = strlen(path);
	int fd;

	memset(e, 0, sizeof(*e));
	e->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ftv_errf(err, "%s: cannot open: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		return ftv_errf(err, "%s: not a regular, non-empty file", path);
	}
	e->size = st.st_size;
	e->map = mmap(NULL, e->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return ftv_errf(err, "%s: mmap failed: %s", path, strerror(errno));
	}
	e->data = e->map;
	if (pl > 3 && !strcmp(path + pl - 3, ".xz")) {
		uint8_t *out;
		size_t outlen;

		if (sim_xz_decode(e->data, e->size, &out, &outlen, path, err)) {
			cap_elf_close(e);
			return -1;
		}
		munmap(e->map, e->size);
		e->map = NULL;
		e->heap = out;
		e->data = out;
		e->size = outlen;
	}
	if (validate(e, err)) {
		cap_elf_close(e);
		return -1;
	}
	return 0;
}

void cap_elf_close(struct cap_elf *e)
{
	if (e->map)
		munmap(e->map, e->size);
	free(e->heap);
	e->map = e->heap = NULL;
	e->data = NULL;
}

static const char *str_at(const struct cap_elf *e, const Elf64_Shdr *tab,
			  uint64_t off)
{
	const char *s;

	if (!tab || off >= tab->sh_size)
		return NULL;
	s = (const char *)e->data + tab->sh_offset + off;
	/* The string must end inside its table. */
	if (!memchr(s, 0, tab->sh_size - off))
		return NULL;
	return s;
}

const char *cap_elf_secname(const struct cap_elf *e, size_t i)
{
	const char *s;

	if (i >= e->shnum)
		return NULL;
	s = str_at(e, &e->sh[e->eh->e_shstrndx], e->sh[i].sh_name);
	return s ? s : "";
}

long cap_elf_find(const struct cap_elf *e, const char *name)
{
	for (size_t i = 1; i < e->shnum; i++)
		if (!strcmp(cap_elf_secname(e, i), name))
			return (long)i;
	return -1;
}

const uint8_t *cap_elf_bytes(const struct cap_elf *e, size_t i, uint64_t off,
			     uint64_t len)
{
	const Elf64_Shdr *s;

	if (i >= e->shnum)
		return NULL;
	s = &e->sh[i];
	if (s->sh_type == SHT_NOBITS || s->sh_type == SHT_NULL ||
	    off > s->sh_size || len > s->sh_size - off)
		return NULL;
	return e->data + s->sh_offset + off;
}

const char *cap_elf_symname(const struct cap_elf *e, const Elf64_Sym *s)
{
	const char *n = str_at(e, e->strtab, s->st_name);

	return n ? n : "";
}

const Elf64_Sym *cap_elf_sym(const struct cap_elf *e, const char *name)
{
	for (size_t i = 1; i < e->nsyms; i++)
		if (!strcmp(cap_elf_symname(e, &e->syms[i]), name))
			return &e->syms[i];
	return NULL;
}

long cap_elf_sec_at(const struct cap_elf *e, uint64_t addr, uint64_t len)
{
	for (size_t i = 1; i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if ((s->sh_flags & SHF_ALLOC) && s->sh_type != SHT_NOBITS &&
		    s->sh_type != SHT_NULL && addr >= s->sh_addr && addr - s->sh_addr <= s->sh_size &&
		    len <= s->sh_size - (addr - s->sh_addr))
			return (long)i;
	}
	return -1;
}
