#include "layout/capture_funcs.h"

#include <stdlib.h>
#include <string.h>

static int func_cmp(const void *pa, const void *pb)
{
	const struct cap_func *a = pa, *b = pb;

	if (a->shndx != b->shndx)
		return a->shndx < b->shndx ? -1 : 1;
	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	if (a->global != b->global)
		return a->global ? -1 : 1;
	return strcmp(a->name, b->name);
}

int cap_funcs_build(struct cap_funcs *f, const struct sim_elf *e,
		    bool by_section, struct ftv_err *err)
{
	size_t n = 0;

	memset(f, 0, sizeof(*f));
	if (!e->syms)
		return ftv_errf(err, "%s: no .symtab (a stripped file? the "
				"kernel's -dbg package has it)", e->path);
	f->v = calloc(e->nsyms ? e->nsyms : 1, sizeof(*f->v));
	if (!f->v)
		return ftv_errf(err, "%s: out of memory", e->path);
	for (size_t i = 1; i < e->nsyms; i++) {
		const Elf64_Sym *s = &e->syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_FUNC ||
		    s->st_shndx == SHN_UNDEF || s->st_shndx >= e->nsec)
			continue;
		f->v[n].addr = s->st_value;
		f->v[n].size = s->st_size;
		f->v[n].name = sim_elf_symname(e, i);
		f->v[n].shndx = by_section ? s->st_shndx : 0;
		f->v[n].global = ELF64_ST_BIND(s->st_info) != STB_LOCAL;
		if (!*f->v[n].name)
			continue;
		n++;
	}
	f->n = n;
	qsort(f->v, n, sizeof(*f->v), func_cmp);
	return 0;
}

void cap_funcs_free(struct cap_funcs *f)
{
	free(f->v);
	memset(f, 0, sizeof(*f));
}

/* Index of the first function >= (shndx, addr). */
static size_t lower_bound(const struct cap_funcs *f, uint32_t shndx,
			  uint64_t addr)
{
	size_t lo = 0, hi = f->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct cap_func *m = &f->v[mid];

		if (m->shndx < shndx || (m->shndx == shndx && m->addr < addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct cap_func *exact(const struct cap_funcs *f, uint32_t shndx,
				    uint64_t addr)
{
	size_t i = lower_bound(f, shndx, addr);

	if (i < f->n && f->v[i].shndx == shndx && f->v[i].addr == addr)
		return &f->v[i];
	return NULL;
}

const struct cap_func *cap_funcs_resolve(const struct cap_funcs *f,
					 uint32_t shndx, uint64_t entry)
{
	const struct cap_func *c;
	size_t i;

	if ((c = exact(f, shndx, entry + 8)) || (c = exact(f, shndx, entry)))
		return c;
	/* Covering: the nearest functions starting below the entry. */
	i = lower_bound(f, shndx, entry);
	while (i > 0) {
		c = &f->v[--i];
		if (c->shndx != shndx)
			break;
		if (entry - c->addr < c->size)
			return c;
		/* Sizes are contiguous in practice: stop at the first
		 * function that ends before the entry and has a size. */
		if (c->size)
			break;
	}
	return NULL;
}
