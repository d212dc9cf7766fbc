#include "sim/elfobj.h"

#include <string.h>

/* Largest sh_addralign accepted: a 64 KiB page is the most any arm64
 * kernel section asks for; more means a corrupt header. */
#define MAX_ALIGN 0x10000ull

static int check_type(const struct sim_elf *e, struct ftv_err *err)
{
	if (e->eh.e_type != ET_REL)
		return ftv_errf(err, "%s: e_type %u is not ET_REL (offset 0x10)",
				e->path, e->eh.e_type);
	return 0;
}

static int check_sections(const struct sim_elf *e, struct ftv_err *err)
{
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		uint64_t hdr = e->eh.e_shoff + (uint64_t)i * sizeof(Elf64_Shdr);

		if (s->sh_addralign & (s->sh_addralign - 1) ||
		    s->sh_addralign > MAX_ALIGN)
			return ftv_errf(err, "%s: section %u (header at 0x%llx): bad sh_addralign 0x%llx",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_addralign);
		if ((s->sh_flags & SHF_ALLOC) && s->sh_size > SIM_ELF_MAX_SIZE)
			return ftv_errf(err, "%s: section %u (header at 0x%llx): sh_size 0x%llx too large",
					e->path, i, (unsigned long long)hdr,
					(unsigned long long)s->sh_size);
	}
	return 0;
}

static int check_symbols(const struct sim_elf *e, struct ftv_err *err)
{
	const Elf64_Shdr *s = &e->sh[e->symtab];

	for (size_t i = 0; e->symtab && i < e->nsyms; i++) {
		const Elf64_Sym *y = &e->syms[i];
		uint64_t at = s->sh_offset + i * sizeof(Elf64_Sym);
		const Elf64_Shdr *in;

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
		if (y->st_shndx == SHN_UNDEF || y->st_shndx >= e->nsec ||
		    ELF64_ST_TYPE(y->st_info) == STT_SECTION)
			continue;
		/* A local assembler label without size may lie past the
		 * end of its section: GCC emits `.set .LANCHOR6, . + 4096`
		 * after .rodata (riscv kernel/trace/ftrace.o) and uses it
		 * with negative addends. Its relocations are checked
		 * instead, symbol + addend (img_reloc_target_ok). */
		if (img_label_unbounded(y))
			continue;
		/* A defined symbol lies inside its section, [value,
		 * value + size) included: everything that prints
		 * "func+0x4/0x40" or looks a site up by it trusts both. */
		in = &e->sh[y->st_shndx];
		if (y->st_value > in->sh_size ||
		    y->st_size > in->sh_size - y->st_value)
			return ftv_errf(err, "%s: symbol '%s' (offset 0x%llx): value 0x%llx size 0x%llx leaves its section %s (size 0x%llx)",
					e->path, sim_elf_symname(e, i),
					(unsigned long long)at,
					(unsigned long long)y->st_value,
					(unsigned long long)y->st_size,
					sim_elf_secname(e, y->st_shndx),
					(unsigned long long)in->sh_size);
	}
	return 0;
}

/* Relocation sections that apply to loaded (SHF_ALLOC) sections are
 * checked entry by entry; others (debug info) are only counted later. */
static int check_relas(const struct sim_elf *e, struct ftv_err *err)
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

static int check(struct sim_elf *e, struct ftv_err *err)
{
	if (check_type(e, err) || check_sections(e, err) ||
	    check_symbols(e, err) || check_relas(e, err)) {
		sim_elf_free(e);
		return -1;
	}
	return 0;
}

int sim_elfobj_load(struct sim_elf *e, const char *path, struct ftv_err *err)
{
	if (sim_elf_open(e, path, err))
		return -1;
	return check(e, err);
}

int sim_elfobj_parse(struct sim_elf *e, const char *path, uint8_t *data,
		     size_t size, struct ftv_err *err)
{
	if (sim_elf_open_mem(e, path, data, size, err))
		return -1;
	return check(e, err);
}
