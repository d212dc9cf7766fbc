/* The module loader's layout of a module (see capture_modmem.h). The steps
 * and their order are load_module()'s in kernel/module/main.c (v6.12):
 * rewrite_section_headers() drops .modinfo and __versions from memory,
 * layout_and_allocate() lets the arch frob the sections, keeps the per-CPU
 * section for its own allocation, marks .data..ro_after_init and
 * __jump_table SHF_RO_AFTER_INIT, then layout_sections() and
 * layout_symtab() (kernel/module/kallsyms.c) size the memories. Config
 * assumed, as Debian's arm64 kernels have it: MODULE_UNLOAD=y (.exit
 * sections stay in the core), KALLSYMS_ALL=y, no memory allocation
 * profiling (no codetag sections). */
#include "layout/capture_modmem.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* include/linux/module.h: a flag only the loader sets. */
#define MOD_SHF_RO_AFTER_INIT 0x00200000ull
#define ELF_SYM_SIZE 24           /* sizeof(Elf64_Sym) */
#define MOD_KALLSYMS_SIZE 32      /* sizeof(struct mod_kallsyms) on 64-bit */
#define MOD_KALLSYMS_ALIGN 8

struct lay {
	const struct sim_elf *e;
	uint64_t *flags, *size, *align;
	int *mem;
	uint64_t *off;
	uint64_t *memsize;
};

/* find_sec(): the first allocated section of that name, or 0. */
static unsigned find_sec(const struct lay *y, const char *name)
{
	for (unsigned i = 1; i < y->e->nsec; i++)
		if ((y->flags[i] & SHF_ALLOC) &&
		    !strcmp(sim_elf_secname(y->e, i), name))
			return i;
	return 0;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	if (!a)
		a = 1;
	return (x + a - 1) / a * a;
}

/* module_get_offset_and_type(): the next offset in memory m that the
 * section's alignment allows. */
static void place(struct lay *y, unsigned i, int m)
{
	uint64_t off = align_up(y->memsize[m], y->align[i]);

	y->memsize[m] = off + y->size[i];
	y->mem[i] = m;
	y->off[i] = off;
}

static bool is_init_name(const char *name)
{
	/* module_init_layout_section() with MODULE_UNLOAD: .init* only */
	return !strncmp(name, ".init", 5);
}

/* __layout_sections(): code, read-only data, ro_after_init data, writable
 * data, in section order within each (ARCH_SHF_SMALL is 0 on arm64). */
static void layout_sections(struct lay *y, bool init)
{
	static const struct {
		uint64_t need, deny;
		int core, init;
	} masks[] = {
		{ SHF_EXECINSTR | SHF_ALLOC, 0, SIM_MOD_TEXT, SIM_MOD_INIT_TEXT },
		{ SHF_ALLOC, SHF_WRITE, SIM_MOD_RODATA, SIM_MOD_INIT_RODATA },
		{ MOD_SHF_RO_AFTER_INIT | SHF_ALLOC, 0, SIM_MOD_RO_AFTER_INIT, -1 },
		{ SHF_WRITE | SHF_ALLOC, 0, SIM_MOD_DATA, SIM_MOD_INIT_DATA },
		{ SHF_ALLOC, 0, SIM_MOD_DATA, SIM_MOD_INIT_DATA },
	};

	for (size_t k = 0; k < sizeof(masks) / sizeof(masks[0]); k++) {
		int m = init ? masks[k].init : masks[k].core;

		for (unsigned i = 0; i < y->e->nsec; i++) {
			if ((y->flags[i] & masks[k].need) != masks[k].need ||
			    (y->flags[i] & masks[k].deny) || y->mem[i] != -1 ||
			    init != is_init_name(sim_elf_secname(y->e, i)))
				continue;
			if (m < 0) /* the kernel WARNs and leaves it */
				continue;
			place(y, i, m);
		}
	}
}

/* is_core_symbol() with KALLSYMS_ALL: kallsyms keeps a symbol after init
 * when it is defined in the per-CPU section or a core memory. */
static bool core_symbol(const struct lay *y, const Elf64_Sym *s, unsigned pcpu)
{
	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= y->e->nsec || !s->st_name)
		return false;
	if (pcpu && s->st_shndx == pcpu)
		return true;
	return (y->flags[s->st_shndx] & SHF_ALLOC) && y->mem[s->st_shndx] >= 0 &&
	       y->mem[s->st_shndx] < SIM_MOD_INIT_TEXT;
}

/* layout_symtab(): the symbol and string tables go to init data; room for
 * the symbols kept after init (and their names and types) goes to the end
 * of the core data; the temporary mod_kallsyms and the init types to the
 * end of the init data. */
static void layout_symtab(struct lay *y, unsigned pcpu)
{
	const struct sim_elf *e = y->e;
	unsigned sym = e->symtab, str = sym ? e->sh[sym].sh_link : 0;
	uint64_t ndst = 0, strtab = 0, nsrc;

	if (!sym || str >= e->nsec)
		return;
	y->flags[sym] |= SHF_ALLOC;
	place(y, sym, SIM_MOD_INIT_DATA);
	nsrc = e->sh[sym].sh_size / ELF_SYM_SIZE;
	for (size_t i = 0; i < nsrc && i < e->nsyms; i++) {
		if (i && !core_symbol(y, &e->syms[i], pcpu))
			continue;
		strtab += strlen(sim_elf_symname(e, i)) + 1;
		ndst++;
	}
	y->memsize[SIM_MOD_DATA] = align_up(y->memsize[SIM_MOD_DATA], y->align[sym]) +
				   ndst * ELF_SYM_SIZE + strtab + ndst;
	y->flags[str] |= SHF_ALLOC;
	place(y, str, SIM_MOD_INIT_DATA);
	y->memsize[SIM_MOD_INIT_DATA] =
		align_up(y->memsize[SIM_MOD_INIT_DATA], MOD_KALLSYMS_ALIGN) +
		MOD_KALLSYMS_SIZE + nsrc;
}

int cap_modmem_build(struct cap_modmem *m, const struct sim_elf *e,
		     const struct sim_layout_arch *arch, struct ftv_err *err)
{
	unsigned n = e->nsec, idx, pcpu;
	struct lay y = { .e = e };
	int rc = -1;

	memset(m, 0, sizeof(*m));
	y.flags = calloc(n, sizeof(uint64_t));
	y.size = calloc(n, sizeof(uint64_t));
	y.align = calloc(n, sizeof(uint64_t));
	m->mem = y.mem = calloc(n, sizeof(int));
	m->off = y.off = calloc(n, sizeof(uint64_t));
	y.memsize = m->size;
	if (!y.flags || !y.size || !y.align || !y.mem || !y.off) {
		ftv_errf(err, "%s: out of memory", e->path);
		goto out;
	}
	for (unsigned i = 0; i < n; i++) {
		y.flags[i] = e->sh[i].sh_flags;
		y.size[i] = e->sh[i].sh_size;
		y.align[i] = e->sh[i].sh_addralign;
		y.mem[i] = -1;
	}
	/* rewrite_section_headers(): .modinfo (whatever its flags) and
	 * __versions are read, never kept */
	idx = sim_elf_find(e, ".modinfo");
	if (idx)
		y.flags[idx] &= ~(uint64_t)SHF_ALLOC;
	idx = find_sec(&y, "__versions");
	if (idx)
		y.flags[idx] &= ~(uint64_t)SHF_ALLOC;
	if (arch->frob_sections &&
	    arch->frob_sections(e, y.flags, y.size, y.align, &m->ftrace_plt, err))
		goto out;
	/* the per-CPU section gets its own allocation (percpu_modalloc) */
	pcpu = find_sec(&y, ".data..percpu");
	if (pcpu)
		y.flags[pcpu] &= ~(uint64_t)SHF_ALLOC;
	if ((idx = find_sec(&y, ".data..ro_after_init")))
		y.flags[idx] |= MOD_SHF_RO_AFTER_INIT;
	if ((idx = find_sec(&y, "__jump_table")))
		y.flags[idx] |= MOD_SHF_RO_AFTER_INIT;
	layout_sections(&y, false);
	layout_sections(&y, true);
	layout_symtab(&y, pcpu);
	rc = 0;
out:
	free(y.flags);
	free(y.size);
	free(y.align);
	if (rc)
		cap_modmem_free(m);
	return rc;
}

void cap_modmem_free(struct cap_modmem *m)
{
	free(m->mem);
	free(m->off);
	m->mem = NULL;
	m->off = NULL;
}
