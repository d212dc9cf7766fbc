/* The module loader's placement of a layout's modules (see
 * layout_place.h). */
#include "layout/layout_place.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* 4 KiB pages (ARM64_4K_PAGES, as Debian's kernels are built). */
#define MOD_PAGE 0x1000ull

struct range {
	uint64_t lo, hi;
};

/* The taken ranges of the windows, sorted and disjoint. */
struct vmap {
	struct range *v;
	size_t n, cap;
};

static int take(struct vmap *m, uint64_t lo, uint64_t hi)
{
	size_t i = 0;

	while (i < m->n && m->v[i].lo < lo)
		i++;
	if (VEC_RESERVE(m->v, m->cap, m->n + 1))
		return -1;
	memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof(*m->v));
	m->v[i].lo = lo;
	m->v[i].hi = hi;
	m->n++;
	return 0;
}

static uint64_t page_up(uint64_t x)
{
	return (x + MOD_PAGE - 1) & ~(MOD_PAGE - 1);
}

/* alloc_vmap_area(): the lowest page-aligned address of [lo, hi) where
 * size bytes fit between the taken ranges, or 0. */
static uint64_t lowest_fit(const struct vmap *m, uint64_t lo, uint64_t hi,
			   uint64_t size)
{
	uint64_t at = page_up(lo);

	for (size_t i = 0; i < m->n; i++) {
		if (m->v[i].hi <= at)
			continue;
		if (m->v[i].lo >= at && m->v[i].lo - at >= size)
			break;
		at = page_up(m->v[i].hi);
		if (at >= hi)
			return 0;
	}
	return at < hi && hi - at >= size ? at : 0;
}

static struct sim_placed_module *add_mod(struct sim_layout_placement *p,
					 size_t *cap, const char *name)
{
	struct sim_placed_module *m;

	if (VEC_RESERVE(p->mods, *cap, p->nmods + 1))
		return NULL;
	m = &p->mods[p->nmods++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	return m;
}

const struct sim_placed_module *sim_layout_placed_module(
	const struct sim_layout_placement *p, const char *name)
{
	for (size_t i = 0; i < p->nmods; i++)
		if (p->mods[i].name == name || !strcmp(p->mods[i].name, name))
			return &p->mods[i];
	return NULL;
}

/* A module read from its file: every memory in the direct window, or
 * failing that in the PLT window, as module_memory_alloc() asks for each
 * (arm64's execmem ranges: the direct window with the PLT window as the
 * fallback). */
static void place_one(struct sim_layout_placement *p, struct vmap *vm,
		      const struct sim_layout_module *rec, bool far,
		      struct sim_placed_module *m)
{
	bool plt = false;

	for (int k = 0; k < SIM_MOD_NMEM; k++) {
		uint64_t size, at = 0;

		if (!rec->mem[k])
			continue;
		size = page_up(rec->mem[k]) + MOD_PAGE; /* and its guard page */
		if (p->direct_hi && !far)
			at = lowest_fit(vm, p->direct_lo, p->direct_hi, size);
		if (!at && p->plt_hi) {
			at = lowest_fit(vm, p->plt_lo, p->plt_hi, size);
			plt = plt || at;
		}
		if (!at || take(vm, at, at + size)) {
			m->how = SIM_PLACE_NONE;
			snprintf(m->why, sizeof(m->why), "no room for its %s (%" PRIu64
				 " KiB) in the module windows",
				 sim_mod_mem_name(k), size >> 10);
			return;
		}
		m->base[k] = at;
	}
	m->how = plt ? SIM_PLACE_PLT : SIM_PLACE_DIRECT;
	if (rec->plt_kind == SIM_PLT_OFFSET) {
		m->plt = m->base[SIM_MOD_TEXT] + rec->plt;
		m->plt_captured = true;
	}
}

/* The captured text of loaded modules is taken too (page-rounded), and
 * gives where their text ends. */
static int take_captured(const struct sim_layout *l,
			 struct sim_layout_placement *p, struct vmap *vm)
{
	for (size_t i = 0; i < l->ntexts; i++) {
		const struct sim_layout_text *t = &l->texts[i];
		struct sim_placed_module *m;

		if (!strcmp(t->module, "vmlinux") || t->mem >= 0)
			continue;
		m = (struct sim_placed_module *)sim_layout_placed_module(p, t->module);
		if (!m || m->how != SIM_PLACE_CAPTURED)
			continue;
		if (t->end > m->text_end)
			m->text_end = t->end;
		if (take(vm, t->start & ~(MOD_PAGE - 1), page_up(t->end)))
			return -1;
	}
	for (size_t i = 0, last = SIZE_MAX; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];
		struct sim_placed_module *m;
		uint64_t lo, hi;

		if (s->section || !strcmp(s->module, "vmlinux"))
			continue;
		if (last == SIZE_MAX || strcmp(p->mods[last].name, s->module))
			last = (size_t)(sim_layout_placed_module(p, s->module) - p->mods);
		m = &p->mods[last];
		sim_layout_site_span(s, &lo, &hi);
		if (hi > m->text_end)
			m->text_end = hi;
	}
	return 0;
}

int sim_layout_place(const struct sim_layout *l,
		     const struct sim_layout_arch *arch, bool far,
		     struct sim_layout_placement *p, struct ftv_err *err)
{
	struct vmap vm = { 0 };
	size_t cap = 0;
	const char *last = NULL;
	int rc = -1;

	memset(p, 0, sizeof(*p));
	/* The modules: the records', then those only sites name (sites are
	 * sorted by module). */
	for (size_t i = 0; i < l->nmodules; i++) {
		struct sim_placed_module *m = add_mod(p, &cap, l->modules[i].name);

		if (!m)
			goto oom;
		m->how = l->modules[i].has_mem ? SIM_PLACE_NONE : SIM_PLACE_CAPTURED;
		if (l->modules[i].plt_kind == SIM_PLT_ADDR) {
			m->plt = l->modules[i].plt;
			m->plt_captured = true;
		}
	}
	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];
		struct sim_placed_module *m;

		if (s->module == last || !strcmp(s->module, "vmlinux"))
			continue;
		last = s->module;
		if (sim_layout_placed_module(p, s->module))
			continue;
		if (!(m = add_mod(p, &cap, s->module)))
			goto oom;
		m->how = s->section ? SIM_PLACE_NONE : SIM_PLACE_CAPTURED;
		if (s->section)
			snprintf(m->why, sizeof(m->why), "read from its file, but the "
				 "layout does not say how the loader lays it out "
				 "(no 'module:' line: recapture it)");
	}
	if (l->has_image) {
		uint64_t size = l->image_end - l->image_start;

		p->has_windows = true;
		if (arch->module_direct_size && size < arch->module_direct_size) {
			p->direct_lo = l->image_end - arch->module_direct_size;
			p->direct_hi = l->image_end;
		}
		if (arch->module_plt_size && size < arch->module_plt_size) {
			p->plt_lo = l->image_end - arch->module_plt_size;
			p->plt_hi = l->image_end;
		}
		if (take(&vm, l->image_start & ~(MOD_PAGE - 1), page_up(l->image_end)))
			goto oom;
	}
	if (take_captured(l, p, &vm))
		goto oom;
	for (size_t i = 0; i < l->nmodules; i++) {
		const struct sim_layout_module *rec = &l->modules[i];
		struct sim_placed_module *m = &p->mods[i];

		if (!rec->has_mem)
			continue;
		if (!l->has_image) {
			snprintf(m->why, sizeof(m->why), "the layout has no 'image:' "
				 "line (the kernel's _text and _end), which the "
				 "module region is placed around");
			continue;
		}
		place_one(p, &vm, rec, far, m);
	}
	for (size_t i = 0; i < p->nmods; i++) {
		p->direct += p->mods[i].how == SIM_PLACE_DIRECT;
		p->plt += p->mods[i].how == SIM_PLACE_PLT;
		p->captured += p->mods[i].how == SIM_PLACE_CAPTURED;
		p->none += p->mods[i].how == SIM_PLACE_NONE;
	}
	rc = 0;
	goto out;
oom:
	ftv_errf(err, "out of memory placing the modules");
	sim_layout_placement_free(p);
out:
	free(vm.v);
	return rc;
}

void sim_layout_placement_free(struct sim_layout_placement *p)
{
	free(p->mods);
	memset(p, 0, sizeof(*p));
}

/* The text range of module/section, placed. */
static const struct sim_layout_text *text_of(const struct sim_layout *l,
					     const char *module,
					     const char *section)
{
	for (size_t i = 0; i < l->ntexts; i++)
		if (l->texts[i].section && !strcmp(l->texts[i].section, section) &&
		    !strcmp(l->texts[i].module, module) && l->texts[i].mem >= 0)
			return &l->texts[i];
	return NULL;
}

struct sim_layout *sim_layout_placed(const struct sim_layout *l,
				     const struct sim_layout_placement *p)
{
	struct sim_layout *c = sim_layout_new();
	const struct sim_placed_module *m = NULL;
	const struct sim_layout_text *t = NULL;
	uint64_t delta = 0;

	c->source = sim_layout_str(c, l->source);
	c->kernel = sim_layout_str(c, l->kernel);
	c->arch = sim_layout_str(c, l->arch);
	c->has_table = l->has_table;
	c->table_entries = l->table_entries;
	c->table_null = l->table_null;
	c->has_image = l->has_image;
	c->image_start = l->image_start;
	c->image_end = l->image_end;
	for (size_t i = 0; i < l->nmodules; i++)
		sim_layout_add_module(c, &l->modules[i]);
	for (size_t i = 0; i < l->ntexts; i++) {
		const struct sim_layout_text *s = &l->texts[i];
		const struct sim_placed_module *pm = strcmp(s->module, "vmlinux") ?
			sim_layout_placed_module(p, s->module) : NULL;
		uint64_t d = 0;

		if (pm && pm->how == SIM_PLACE_NONE)
			continue; /* an unplaced module's offsets: no address */
		if (pm && pm->how != SIM_PLACE_CAPTURED && s->mem >= 0)
			d = pm->base[s->mem] + s->mem_off;
		sim_layout_add_text(c, s->start + d, s->end + d, s->module, s->section);
	}
	for (size_t i = 0; i < l->nsites; i++) {
		struct sim_layout_site s = l->sites[i];

		if (s.section) {
			if (!m || strcmp(m->name, s.module))
				m = sim_layout_placed_module(p, s.module);
			if (!t || strcmp(t->module, s.module) ||
			    strcmp(t->section, s.section))
				t = text_of(l, s.module, s.section);
			if (m && t && (m->how == SIM_PLACE_DIRECT ||
				       m->how == SIM_PLACE_PLT)) {
				delta = m->base[t->mem] + t->mem_off;
				s.entry += delta;
				s.ip += delta;
				s.faddr += delta;
				s.section = NULL;
			}
		}
		sim_layout_add_site(c, &s);
	}
	return c;
}
