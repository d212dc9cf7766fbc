/* A captured layout turned into memory, bodies and records for a world
 * (see verify/replay.h for the rules). */
#include "verify/replay_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* The replay part of the world's arch table for a layout's arch. */
const struct world_replaydesc *replay_arch(const char *arch, const char *path,
					   struct ftv_err *err)
{
	enum ftv_arch a;
	char names[64] = "";
	size_t k = 0;
	const struct world_archdesc *ad;

	if (arch && !ftv_arch_parse(arch, &a) && world_archdesc(a)->arch == a &&
	    world_archdesc(a)->replay)
		return world_archdesc(a)->replay;
	for (size_t i = 0; (ad = world_arch_at(i)); i++)
		if (ad->replay && k < sizeof(names))
			k += (size_t)snprintf(names + k, sizeof(names) - k, "%s%s",
					      k ? ", " : "", ftv_arch_name(ad->arch));
	ftv_errf(err, "%s: arch %s: replay models %s kernels", path, arch ? arch : "-", names);
	return NULL;
}

static int has_body(const struct replay_map *m, size_t i)
{
	const struct sim_layout_site *s = &m->l->sites[i];

	return sim_layout_kind_is_callops(s->kind) && s->has_ip && s->func &&
	       m->status[i] != RS_NOROOM && m->status[i] != RS_UNPLACED;
}

static enum replay_status classify(const struct replay_map *m,
				   const struct sim_layout_site *s)
{
	if (!sim_layout_kind_is_callops(s->kind)) {
		/* An unknown site whose literal slot would be func-8: the
		 * kernel's own alignment rule decides (ftrace_call_adjust). */
		if (s->kind == SIM_LAYOUT_UNKNOWN && s->func && m->rd->misaligned(s))
			return RS_MISALIGNED;
		return RS_OTHER;
	}
	if (!s->has_ip || !s->func)
		return RS_OTHER;
	if (s->has_fsize) {
		uint64_t b0, b1;

		m->rd->body_range(s, &b0, &b1);
		if (b1 > s->faddr + s->fsize)
			return RS_NOROOM;
	}
	return RS_OK;
}

/* Spans outside the kernel.text window closer than this share one region:
 * a module's text memories and the next module's sit a few pages apart,
 * and a region per piece would make thousands of them. The pages between
 * stay 0 (UDF #0), as between functions. */
#define REPLAY_SPAN_GAP (1ull << 20)

static int cmp_span(const void *a, const void *b)
{
	const struct replay_span *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int add_span(struct replay_map *m, size_t *cap, uint64_t start,
		    uint64_t end, struct ftv_err *err)
{
	if (VEC_RESERVE(m->spans, *cap, m->nspans + 1))
		return ftv_errf(err, "out of memory");
	m->spans[m->nspans].start = start & ~(SIM_PAGE - 1);
	m->spans[m->nspans].end = (end + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	m->nspans++;
	return 0;
}

static int in_ktext(uint64_t a)
{
	return a >= SIM_KERNEL_TEXT_BASE && a - SIM_KERNEL_TEXT_BASE < SIM_KTEXT_SIZE;
}

/* The text ranges of the header, every site's extent (words, body) and
 * the modules' PLTs, page-rounded and merged. */
static int build_spans(struct replay_map *m, struct ftv_err *err)
{
	const struct sim_layout *l = m->l;
	size_t cap = 0, k = 0;

	for (size_t i = 0; i < l->ntexts; i++)
		if (add_span(m, &cap, l->texts[i].start, l->texts[i].end, err))
			return -1;
	for (size_t i = 0; i < l->nsites; i++) {
		uint64_t lo, hi, b0, b1;

		if (m->status[i] == RS_UNPLACED)
			continue;
		sim_layout_site_span(&l->sites[i], &lo, &hi);
		if (has_body(m, i)) {
			m->rd->body_range(&l->sites[i], &b0, &b1);
			if (b1 > hi)
				hi = b1;
		}
		if (add_span(m, &cap, lo, hi, err))
			return -1;
	}
	for (size_t i = 0; i < m->place.nmods; i++) {
		const struct sim_placed_module *pm = &m->place.mods[i];

		if (pm->plt && pm->how != SIM_PLACE_NONE &&
		    add_span(m, &cap, pm->plt, pm->plt + m->rd->layout->ftrace_plt_size,
			     err))
			return -1;
	}
	if (m->nspans)
		qsort(m->spans, m->nspans, sizeof(*m->spans), cmp_span);
	for (size_t i = 0; i < m->nspans; i++) {
		struct replay_span *p = k ? &m->spans[k - 1] : NULL;
		uint64_t gap = in_ktext(m->spans[i].start) ? 0 : REPLAY_SPAN_GAP;

		/* never across the kernel.text window's edges */
		if (p && in_ktext(p->start) == in_ktext(m->spans[i].start) &&
		    m->spans[i].start <= p->end + gap) {
			if (m->spans[i].end > p->end)
				p->end = m->spans[i].end;
			continue;
		}
		m->spans[k++] = m->spans[i];
	}
	m->nspans = k;
	return 0;
}

/* A captured module whose ftrace PLT the capture did not record (a live
 * system's files do not say where .text.ftrace_trampoline is): ftv puts
 * it right after the module's captured text, in the same text memory. */
static void plts_after_text(struct replay_map *m)
{
	for (size_t i = 0; i < m->place.nmods; i++) {
		struct sim_placed_module *pm = &m->place.mods[i];

		if (pm->how == SIM_PLACE_CAPTURED && !pm->plt && pm->text_end)
			pm->plt = (pm->text_end + 15) & ~15ull;
	}
}

struct ipkey {
	uint64_t ip;
	size_t site;
	long rank; /* -1 vmlinux, else the module's load order */
};

static int cmp_ip(const void *a, const void *b)
{
	const struct ipkey *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct ipkey *x = a, *y = b;

	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* The loader's record of a CALL_OPS layout site: the arch's fields, then
 * where it comes from. */
static void make_record(struct replay_map *m, size_t li, struct sim_site *r)
{
	const struct sim_layout_site *s = &m->l->sites[li];

	memset(r, 0, sizeof(*r));
	m->rd->record(s, r);
	r->funcname = s->func;
	r->object = m->object;
	r->module = m->mod_of[li] >= 0 ? s->module : NULL;
	r->section = s->section;
	r->plt = m->mod_of[li] >= 0 ? m->place.mods[m->mod_of[li]].plt : 0;
}

static int build_records(struct replay_map *m, struct ftv_err *err)
{
	size_t n = m->l->nsites, k = 0;
	struct ipkey *v = calloc(n ? n : 1, sizeof(*v));

	if (!v)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (m->status[i] == RS_OK)
			v[k++] = (struct ipkey){ m->l->sites[i].ip, i, m->mod_of[i] };
	if (k)
		qsort(v, k, sizeof(*v), cmp_ip);
	for (size_t i = 0; i < k; i++) {
		if (i && v[i].ip == v[i - 1].ip) {
			const struct sim_layout_site *a = &m->l->sites[v[i - 1].site];
			const struct sim_layout_site *b = &m->l->sites[v[i].site];

			free(v);
			return ftv_errf(err, "%s: %s [%s] and %s [%s] both patch "
					"0x%016" PRIx64 " once placed", m->object, a->func,
					a->module, b->func, b->module, a->ip);
		}
		m->site_of[i] = v[i].site;
		make_record(m, v[i].site, &m->sites[i]);
		v[i].site = i; /* from here on: the record */
	}
	m->nsites = k;
	if (k)
		qsort(v, k, sizeof(*v), cmp_rank);
	for (size_t i = 0; i < k; i++)
		m->order[i] = v[i].site;
	free(v);
	return 0;
}

int replay_map_build(struct replay_map *m, const struct sim_layout *in,
		     const char *path, bool far, struct ftv_err *err)
{
	size_t n = in->nsites;
	const struct sim_layout *l;
	long last = -1;

	memset(m, 0, sizeof(*m));
	m->object = path;
	m->rd = replay_arch(in->arch, path, err);
	if (!m->rd || sim_layout_place(in, m->rd->layout, far, &m->place, err))
		return -1;
	l = m->l = sim_layout_placed(in, &m->place);
	/* the modules' names as the placed copy has them: the layout as
	 * read may go before the map does */
	for (size_t i = 0; i < m->place.nmods; i++)
		m->place.mods[i].name = sim_layout_str(m->l, m->place.mods[i].name);
	plts_after_text(m);
	m->status = calloc(n ? n : 1, sizeof(*m->status));
	m->sites = calloc(n ? n : 1, sizeof(*m->sites));
	m->site_of = calloc(n ? n : 1, sizeof(*m->site_of));
	m->order = calloc(n ? n : 1, sizeof(*m->order));
	m->mod_of = calloc(n ? n : 1, sizeof(*m->mod_of));
	if (!m->status || !m->sites || !m->site_of || !m->order || !m->mod_of)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const struct sim_layout_site *s = &l->sites[i];

		m->mod_of[i] = -1;
		if (strcmp(s->module, "vmlinux")) {
			if (last < 0 || strcmp(m->place.mods[last].name, s->module))
				last = (long)(sim_layout_placed_module(&m->place, s->module) -
					      m->place.mods);
			m->mod_of[i] = (int)last;
		}
		m->status[i] = s->section ? RS_UNPLACED : classify(m, s);
	}
	if (build_records(m, err))
		return -1;
	return build_spans(m, err);
}

void replay_map_free(struct replay_map *m)
{
	free(m->status);
	free(m->spans);
	free(m->sites);
	free(m->site_of);
	free(m->order);
	free(m->mod_of);
	sim_layout_placement_free(&m->place);
	sim_layout_free(m->l);
	memset(m, 0, sizeof(*m));
}

/* Memory for the spans: inside the image's kernel.text window, the bottom
 * of that region (its allocator then places the trampolines after it);
 * elsewhere, a region of its own. */
static int back_spans(struct world *w, const struct replay_map *m,
		      struct ftv_err *err)
{
	struct sim_region *kt = sim_region_named(w->as, "kernel.text");
	uint64_t kend = 0;

	if (!kt)
		return ftv_errf(err, "the image has no kernel.text region");
	for (size_t i = 0; i < m->nspans; i++) {
		const struct replay_span *sp = &m->spans[i];
		struct ftv_err e;

		if (sp->start >= kt->base && sp->end <= kt->base + kt->size) {
			if (sp->end > kend)
				kend = sp->end;
			continue;
		}
		if (!sim_map(w->as, "replay.text", sp->start, sp->end - sp->start,
			     SIM_R | SIM_X, SIM_REGION_TEXT, &e))
			return ftv_errf(err, "%s: captured text [0x%llx, 0x%llx) cannot be "
					"mapped beside ftv's own regions: %s", m->object,
					(unsigned long long)sp->start,
					(unsigned long long)sp->end, e.msg);
	}
	if (kend && !sim_region_alloc(kt, kend - kt->base, 1, err))
		return -1;
	return 0;
}

/* Whether site i is in this world: the kernel's, or a loaded module's. */
static int in_world(const struct replay_map *m, const unsigned char *loaded,
		    size_t i)
{
	return m->status[i] != RS_UNPLACED &&
	       (m->mod_of[i] < 0 || !loaded || loaded[m->mod_of[i]]);
}

static void write_site(struct world *w, const struct replay_map *m, size_t i)
{
	const struct sim_layout_site *s = &m->l->sites[i];
	uint64_t b0 = UINT64_MAX, b1 = 0;

	if (has_body(m, i)) {
		m->rd->body_range(s, &b0, &b1);
		m->rd->write_body(w->as, s);
	}
	/* The captured words, up to the synthetic body. */
	if (s->has_entry)
		for (unsigned k = 0; k < s->nwords; k++) {
			uint64_t a = s->entry + 4 * (uint64_t)k;

			if (a >= b0)
				continue;
			sim_write32(w->as, a, s->words[k]);
		}
}

/* module_init_ftrace_plt(): each loaded module's ftrace PLT entry, written
 * at module load, before ftrace_module_init() init_nop's the module's
 * sites; its words are the arch's (world_replaydesc.plt_words). */
static int write_plts(struct world *w, const struct replay_map *m,
		      const unsigned char *loaded, struct ftv_err *err)
{
	uint64_t caller = sim_image_lookup(w->img, "ftrace_caller");
	uint64_t size = m->rd->layout->ftrace_plt_size;

	if (!caller)
		return ftv_errf(err, "trampolines: symbol ftrace_caller not found");
	for (size_t i = 0; i < m->place.nmods; i++) {
		const struct sim_placed_module *pm = &m->place.mods[i];
		uint32_t words[REPLAY_PLT_MAX_WORDS];

		if (!pm->plt || pm->how == SIM_PLACE_NONE || (loaded && !loaded[i]))
			continue;
		if (size / 4 > REPLAY_PLT_MAX_WORDS || m->rd->plt_words(pm->plt, caller, words, err))
			return ftv_err_prefix(err, "%s: ftrace PLT at 0x%016" PRIx64,
					      pm->name, pm->plt);
		for (uint64_t k = 0; k < size / 4; k++)
			sim_write32(w->as, pm->plt + 4 * k, words[k]);
		if (!sim_sym_add(w->as, "ftrace_plt", pm->plt, size, SIM_SYM_OTHER, pm->name))
			return ftv_errf(err, "out of memory");
	}
	return 0;
}

int replay_load(struct world *w, const struct replay_map *m,
		const unsigned char *loaded, struct ftv_err *err)
{
	const struct sim_layout *l = m->l;
	struct sim_load_opts lo = { .stub_undefined = 1, .no_modules = 1 };
	uint64_t last = 0;

	w->as = sim_aspace_new();
	if (!w->as)
		return ftv_errf(err, "out of memory");
	w->img = sim_image_new(w->as, &lo);
	if (!w->img)
		return ftv_errf(err, "cannot map the image's regions");
	if (back_spans(w, m, err))
		return -1;
	for (size_t i = 0; i < l->nsites; i++)
		if (in_world(m, loaded, i))
			write_site(w, m, i);
	/* One symbol per function, for reports ("func+0x4/0x84 [module]"). */
	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];
		uint64_t size = s->has_fsize ? s->fsize : 16;

		if (!s->func || s->faddr == last || !in_world(m, loaded, i))
			continue;
		last = s->faddr;
		if (!sim_sym_add(w->as, s->func, s->faddr, size, SIM_SYM_FUNC,
				 m->mod_of[i] >= 0 ? s->module : NULL))
			return ftv_errf(err, "out of memory");
	}
	if (world_add_trampolines(w, err) || sim_image_link(w->img, err))
		return -1;
	return write_plts(w, m, loaded, err);
}
