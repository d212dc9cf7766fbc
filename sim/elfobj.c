#include "sim/elfobj.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Largest sh_addralign accepted: a 64 KiB page is the most any arm64
 * kernel section asks for; more means a corrupt header. */
#define MAX_ALIGN 0x10000ull

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };

int sim_xz_decompress(const char *path, const uint8_t *in, size_t inlen,
		      uint8_t **out, size_t *outlen, struct ftv_err *err)
{
	lzma_stream s = LZMA_STREAM_INIT;
	size_t cap = inlen * 4 + 4096;
	uint8_t *buf;
	lzma_ret r;

	*out = NULL;
	*outlen = 0;
	if (lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return ftv_errf(err, "%s: cannot start the xz decoder", path);
	buf = malloc(cap);
	if (!buf) {
		lzma_end(&s);
		return ftv_errf(err, "%s: out of memory", path);
	}
	s.next_in = in;
	s.avail_in = inlen;
	s.next_out = buf;
	s.avail_out = cap;
	for (;;) {
		r = lzma_code(&s, LZMA_FINISH);
		if (r == LZMA_STREAM_END)
			break;
		if (r == LZMA_OK && s.avail_out == 0) {
			size_t used = cap;
			uint8_t *nb;

			if (cap >= SIM_ELF_MAX_SIZE) {
				lzma_end(&s);
				free(buf);
				return ftv_errf(err, "%s: xz data expands beyond %llu bytes",
						path, SIM_ELF_MAX_SIZE);
			}
			cap *= 2;
			nb = realloc(buf, cap);
			if (!nb) {
				lzma_end(&s);
				free(buf);
				return ftv_errf(err, "%s: out of memory", path);
			}
			buf = nb;
			s.next_out = buf + used;
			s.avail_out = cap - used;
			continue;
		}
		/* LZMA_BUF_ERROR here means the input ended early. */
		{
			size_t at = inlen - s.avail_in;

			lzma_end(&s);
			free(buf);
			return ftv_errf(err, "%s: corrupt xz data at input offset 0x%zx (%s)",
					path, at,
					r == LZMA_BUF_ERROR ? "truncated" :
					r == LZMA_DATA_ERROR ? "data error" :
					r == LZMA_FORMAT_ERROR ? "bad format" :
					r == LZMA_OPTIONS_ERROR ? "unsupported options" :
					r == LZMA_MEM_ERROR ? "out of memory" :
					"decoder error");
		}
	}
	*outlen = cap - s.avail_out;
	lzma_end(&s);
	*out = buf;
	return 0;
}

void sim_elf_free(struct sim_elf *e)
{
	free(e->path);
	free(e->data);
	free(e->sh);
	free(e->syms);
	memset(e, 0, sizeof(*e));
}

int sim_elf_load(struct sim_elf *e, const char *path, struct ftv_err *err)
{
	FILE *f;
	struct stat st;
	uint8_t *data;
	size_t n;

	memset(e, 0, sizeof(*e));
	f = fopen(path, "rb");
	if (!f)
		return ftv_errf(err, "%s: %s", path, strerror(errno));
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		return ftv_errf(err, "%s: not a regular file", path);
	}
	if ((unsigned long long)st.st_size > SIM_ELF_MAX_SIZE) {
		fclose(f);
		return ftv_errf(err, "%s: file too large (%lld bytes)", path,
				(long long)st.st_size);
	}
	n = st.st_size;
	data = malloc(n ? n : 1);
	if (!data) {
		fclose(f);
		return ftv_errf(err, "%s: out of memory", path);
	}
	if (fread(data, 1, n, f) != n) {
		fclose(f);
		free(data);
		return ftv_errf(err, "%s: read error", path);
	}
	fclose(f);
	return sim_elf_parse(e, path, data, n, err);
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
static int check_strtab(const struct sim_elf *e, unsigned idx, const char *what,
			struct ftv_err *err)
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

	if (e->size < sizeof(Elf64_Ehdr))
		return ftv_errf(err, "%s: truncated ELF header (%zu bytes)",
				e->path, e->size);
	memcpy(&e->eh, e->data, sizeof(e->eh));
	if (memcmp(id, ELFMAG, SELFMAG))
		return ftv_errf(err, "%s: not an ELF file (bad magic at offset 0)",
				e->path);
	if (id[EI_CLASS] != ELFCLASS64)
		return ftv_errf(err, "%s: not ELF64 (EI_CLASS %u at offset 0x4)",
				e->path, id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB)
		return ftv_errf(err, "%s: not little-endian (EI_DATA %u at offset 0x5)",
				e->path, id[EI_DATA]);
	/* ELFCLASS64 + little endian were checked above: EM_RISCV is then
	 * RV64 (the psABI's ELFCLASS64 = RV64, EF_RISCV_* float ABI flags
	 * are not ours to check: the corpus is lp64d, the trampolines lp64). */
	if (e->eh.e_machine == EM_AARCH64)
		e->arch = FTV_ARCH_ARM64;
	else if (e->eh.e_machine == EM_RISCV)
		e->arch = FTV_ARCH_RISCV64;
	else
		return ftv_errf(err, "%s: e_machine %u is neither EM_AARCH64 nor EM_RISCV (offset 0x12)",
				e->path, e->eh.e_machine);
	if (e->eh.e_type != ET_REL)
		return ftv_errf(err, "%s: e_type %u is not ET_REL (offset 0x10)",
				e->path, e->eh.e_type);
	if (e->eh.e_shentsize != sizeof(Elf64_Shdr))
		return ftv_errf(err, "%s: e_shentsize %u is not %zu (offset 0x3a)",
				e->path, e->eh.e_shentsize, sizeof(Elf64_Shdr));
	if (e->eh.e_shnum == 0)
		return ftv_errf(err, "%s: e_shnum is 0 (no sections, or extended numbering, which ftv does not support)",
				e->path);
	if (!in_file(e->eh.e_shoff,
		     (uint64_t)e->eh.e_shnum * sizeof(Elf64_Shdr), e->size))
		return ftv_errf(err, "%s: section headers at e_shoff 0x%llx (%u entries) run past the end of the file (0x%zx bytes)",
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

		if (s->sh_type != SHT_NOBITS &&
		    !in_file(s->sh_offset, s->sh_size, e->size))
			return ftv_errf(err, "%s: section %u (header at 0x%llx): sh_offset 0x%llx + sh_size 0x%llx past end of file (0x%zx bytes)",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_offset,
					(unsigned long long)s->sh_size, e->size);
		if (s->sh_addralign & (s->sh_addralign - 1) ||
		    s->sh_addralign > MAX_ALIGN)
			return ftv_errf(err, "%s: section %u (header at 0x%llx): bad sh_addralign 0x%llx",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_addralign);
		if ((s->sh_flags & SHF_ALLOC) && s->sh_size > SIM_ELF_MAX_SIZE)
			return ftv_errf(err, "%s: section %u (header at 0x%llx): sh_size 0x%llx too large",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_size);
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
		if (y->st_shndx >= e->nsec && y->st_shndx != SHN_ABS &&
		    y->st_shndx != SHN_COMMON)
			return ftv_errf(err, "%s: symbol %zu '%s' (offset 0x%llx): section index %u out of range",
					e->path, i, sim_elf_symname(e, i),
					(unsigned long long)at, y->st_shndx);
		if (y->st_shndx == SHN_COMMON &&
		    (y->st_value & (y->st_value - 1) || y->st_value > MAX_ALIGN ||
		     y->st_size > SIM_ELF_MAX_SIZE))
			return ftv_errf(err, "%s: COMMON symbol '%s' (offset 0x%llx): bad alignment 0x%llx or size 0x%llx",
					e->path, sim_elf_symname(e, i),
					(unsigned long long)at,
					(unsigned long long)y->st_value,
					(unsigned long long)y->st_size);
	}
	return 0;
}

/* Relocation sections that apply to loaded (SHF_ALLOC) sections are
 * checked entry by entry; others (debug info) are only counted later. */
static int check_relas(struct sim_elf *e, struct ftv_err *err)
{
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		const Elf64_Shdr *t;

		if (s->sh_type != SHT_RELA && s->sh_type != SHT_REL)
			continue;
		if (s->sh_info == 0 || s->sh_info >= e->nsec)
			return ftv_errf(err, "%s: relocation section %u %s: sh_info %u is not a section",
					e->path, i, sim_elf_secname(e, i),
					s->sh_info);
		t = &e->sh[s->sh_info];
		if (!(t->sh_flags & SHF_ALLOC))
			continue;
		if (s->sh_type == SHT_REL)
			return ftv_errf(err, "%s: %s: SHT_REL relocations are not used on AArch64 or RISC-V",
					e->path, sim_elf_secname(e, i));
		if (s->sh_entsize != sizeof(Elf64_Rela) ||
		    s->sh_size % sizeof(Elf64_Rela))
			return ftv_errf(err, "%s: %s: bad sh_entsize %llu / sh_size 0x%llx",
					e->path, sim_elf_secname(e, i),
					(unsigned long long)s->sh_entsize,
					(unsigned long long)s->sh_size);
		if (!e->symtab || s->sh_link != e->symtab)
			return ftv_errf(err, "%s: %s: sh_link %u is not the symbol table",
					e->path, sim_elf_secname(e, i), s->sh_link);
		if (t->sh_type == SHT_NOBITS && s->sh_size)
			return ftv_errf(err, "%s: %s: relocations against NOBITS section %s",
					e->path, sim_elf_secname(e, i),
					sim_elf_secname(e, s->sh_info));
		for (size_t k = 0; k < sim_elf_nrela(e, i); k++) {
			Elf64_Rela r;

			sim_elf_rela(e, i, k, &r);
			if (ELF64_R_SYM(r.r_info) >= e->nsyms)
				return ftv_errf(err, "%s: %s entry %zu (offset 0x%llx): symbol index %llu out of range (%zu symbols)",
						e->path, sim_elf_secname(e, i), k,
						(unsigned long long)(s->sh_offset + k * sizeof(r)),
						(unsigned long long)ELF64_R_SYM(r.r_info),
						e->nsyms);
			if (r.r_offset >= t->sh_size)
				return ftv_errf(err, "%s: %s entry %zu: r_offset 0x%llx outside %s (size 0x%llx)",
						e->path, sim_elf_secname(e, i), k,
						(unsigned long long)r.r_offset,
						sim_elf_secname(e, s->sh_info),
						(unsigned long long)t->sh_size);
		}
	}
	return 0;
}

int sim_elf_parse(struct sim_elf *e, const char *path, uint8_t *data,
		  size_t size, struct ftv_err *err)
{
	memset(e, 0, sizeof(*e));
	if (size >= sizeof(xz_magic) && !memcmp(data, xz_magic, sizeof(xz_magic))) {
		uint8_t *raw;
		size_t rawlen;

		if (sim_xz_decompress(path, data, size, &raw, &rawlen, err)) {
			free(data);
			return -1;
		}
		free(data);
		data = raw;
		size = rawlen;
	}
	e->path = strdup(path);
	e->data = data;
	e->size = size;
	if (!e->path) {
		sim_elf_free(e);
		return ftv_errf(err, "%s: out of memory", path);
	}
	if (check_header(e, err) || check_sections(e, err) ||
	    check_symtab(e, err) || check_relas(e, err)) {
		sim_elf_free(e);
		return -1;
	}
	return 0;
}
