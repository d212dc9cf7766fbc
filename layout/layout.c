/* The in-memory layout: interned strings, sites, text ranges, the header
 * merges of captures. Parsing is in layout_parse.c, writing in
 * layout_write.c, the architectures' rules in layout_<arch>.c (their
 * table in layout_arch.c). */
#define _GNU_SOURCE /* asprintf */
#include "layout/layout.h"

#include "util/vec.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[SIM_LAYOUT_NKINDS] = {
	[SIM_LAYOUT_CALLOPS] = "callops",
	[SIM_LAYOUT_CALLOPS_BTI] = "callops-bti",
	[SIM_LAYOUT_CALLOPS_PAC] = "callops-pac",
	[SIM_LAYOUT_ARGS] = "args",
	[SIM_LAYOUT_MCOUNT] = "mcount",
	[SIM_LAYOUT_UNKNOWN] = "unknown",
};

const char *sim_layout_kind_name(enum sim_layout_kind k)
{
	return (unsigned)k < SIM_LAYOUT_NKINDS ? kind_names[k] : "?";
}

int sim_layout_kind_parse(const char *s, size_t len)
{
	for (int k = 0; k < SIM_LAYOUT_NKINDS; k++)
		if (strlen(kind_names[k]) == len && !memcmp(kind_names[k], s, len))
			return k;
	return -1;
}

bool sim_layout_kind_is_callops(enum sim_layout_kind k)
{
	return k == SIM_LAYOUT_CALLOPS || k == SIM_LAYOUT_CALLOPS_BTI ||
	       k == SIM_LAYOUT_CALLOPS_PAC;
}

/* Interned strings: an open-addressing set; a layout of 50,000 sites names
 * a few modules and sections many times. */
struct sim_layout_strings {
	char **slot;
	size_t cap, used;
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static void xalloc_fail(void)
{
	abort(); /* out of host memory: nothing sensible left to do */
}

static void strings_grow(struct sim_layout_strings *t)
{
	size_t ncap = t->cap ? t->cap * 2 : 1024;
	char **ns = calloc(ncap, sizeof(*ns));

	if (!ns)
		xalloc_fail();
	for (size_t i = 0; i < t->cap; i++) {
		char *s = t->slot[i];
		size_t j;

		if (!s)
			continue;
		for (j = hash_str(s) & (ncap - 1); ns[j]; j = (j + 1) & (ncap - 1))
			;
		ns[j] = s;
	}
	free(t->slot);
	t->slot = ns;
	t->cap = ncap;
}

const char *sim_layout_str(struct sim_layout *l, const char *s)
{
	struct sim_layout_strings *t = l->strings;
	size_t j;

	if (!s)
		return NULL;
	if ((t->used + 1) * 2 > t->cap)
		strings_grow(t);
	for (j = hash_str(s) & (t->cap - 1); t->slot[j]; j = (j + 1) & (t->cap - 1))
		if (!strcmp(t->slot[j], s))
			return t->slot[j];
	t->slot[j] = strdup(s);
	if (!t->slot[j])
		xalloc_fail();
	t->used++;
	return t->slot[j];
}

int sim_layout_set(struct sim_layout *l, const char **field, const char *s)
{
	*field = sim_layout_str(l, s);
	return 0;
}

int sim_layout_merge_kernel(struct sim_layout *l, const char *release,
			    const char *path, struct ftv_err *err)
{
	if (!release || !strcmp(release, "-"))
		return 0;
	if (l->kernel && strcmp(l->kernel, "-") && strcmp(l->kernel, release))
		return ftv_errf(err, "%s: kernel %s, but the other inputs are "
				"from kernel %s", path, release, l->kernel);
	sim_layout_set(l, &l->kernel, release);
	return 0;
}

void sim_layout_add_source(struct sim_layout *l, const char *what)
{
	char *s;

	if (asprintf(&s, "%s%s%s", l->source ? l->source : "",
		     l->source ? "; " : "", what) < 0)
		abort();
	/* One header line of printable ASCII whatever the file names hold. */
	for (char *p = s; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
	sim_layout_set(l, &l->source, s);
	free(s);
}

struct sim_layout *sim_layout_new(void)
{
	struct sim_layout *l = calloc(1, sizeof(*l));

	if (!l || !(l->strings = calloc(1, sizeof(*l->strings))))
		xalloc_fail();
	return l;
}

void sim_layout_free(struct sim_layout *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->strings->cap; i++)
		free(l->strings->slot[i]);
	free(l->strings->slot);
	free(l->strings);
	free(l->sites);
	free(l->texts);
	free(l->modules);
	free(l);
}

struct sim_layout_site *sim_layout_add_site(struct sim_layout *l,
					     const struct sim_layout_site *s)
{
	struct sim_layout_site *d;

	if (VEC_RESERVE(l->sites, l->sites_cap, l->nsites + 1))
		xalloc_fail();
	d = &l->sites[l->nsites++];
	*d = *s;
	d->func = sim_layout_str(l, s->func);
	d->module = sim_layout_str(l, s->module);
	d->section = sim_layout_str(l, s->section);
	return d;
}

struct sim_layout_text *sim_layout_add_text(struct sim_layout *l,
					    uint64_t start, uint64_t end,
					    const char *module,
					    const char *section)
{
	struct sim_layout_text *t;

	if (VEC_RESERVE(l->texts, l->texts_cap, l->ntexts + 1))
		xalloc_fail();
	t = &l->texts[l->ntexts++];
	t->start = start;
	t->end = end;
	t->module = sim_layout_str(l, module);
	t->section = sim_layout_str(l, section);
	t->mem = -1;
	t->mem_off = 0;
	return t;
}

struct sim_layout_module *sim_layout_add_module(struct sim_layout *l,
						 const struct sim_layout_module *m)
{
	struct sim_layout_module *d;

	if (VEC_RESERVE(l->modules, l->modules_cap, l->nmodules + 1))
		xalloc_fail();
	d = &l->modules[l->nmodules++];
	*d = *m;
	d->name = sim_layout_str(l, m->name);
	return d;
}

const struct sim_layout_module *sim_layout_module_named(const struct sim_layout *l,
							 const char *name)
{
	/* Interned: equal names are the same pointer once in the layout. */
	for (size_t i = 0; i < l->nmodules; i++)
		if (l->modules[i].name == name || !strcmp(l->modules[i].name, name))
			return &l->modules[i];
	return NULL;
}

static const char *const mem_names[SIM_MOD_NMEM] = {
	[SIM_MOD_TEXT] = "text",
	[SIM_MOD_DATA] = "data",
	[SIM_MOD_RODATA] = "rodata",
	[SIM_MOD_RO_AFTER_INIT] = "ro_after_init",
	[SIM_MOD_INIT_TEXT] = "init_text",
	[SIM_MOD_INIT_DATA] = "init_data",
	[SIM_MOD_INIT_RODATA] = "init_rodata",
};

const char *sim_mod_mem_name(enum sim_mod_mem m)
{
	return (unsigned)m < SIM_MOD_NMEM ? mem_names[m] : "?";
}

int sim_mod_mem_parse(const char *s, size_t len)
{
	for (int m = 0; m < SIM_MOD_NMEM; m++)
		if (strlen(mem_names[m]) == len && !memcmp(mem_names[m], s, len))
			return m;
	return -1;
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

static uint64_t site_key(const struct sim_layout_site *s)
{
	return s->has_entry ? s->entry : s->ip;
}

static int site_cmp(const void *pa, const void *pb)
{
	const struct sim_layout_site *a = pa, *b = pb;
	int c = strcmp_null(a->module, b->module);

	if (!c)
		c = strcmp_null(a->section, b->section);
	if (!c)
		c = (site_key(a) > site_key(b)) - (site_key(a) < site_key(b));
	return c;
}

void sim_layout_sort(struct sim_layout *l)
{
	if (l->nsites) /* qsort's base must not be NULL, even for 0 items */
		qsort(l->sites, l->nsites, sizeof(*l->sites), site_cmp);
}

const struct sim_layout_text *sim_layout_text_at(const struct sim_layout *l,
						 const char *module,
						 const char *section,
						 uint64_t addr)
{
	for (size_t i = 0; i < l->ntexts; i++) {
		const struct sim_layout_text *t = &l->texts[i];

		if (addr >= t->start && addr < t->end &&
		    !strcmp_null(t->module, module) &&
		    (!section || !strcmp_null(t->section, section)))
			return t;
	}
	return NULL;
}

void sim_layout_site_span(const struct sim_layout_site *s, uint64_t *start,
			  uint64_t *end)
{
	uint64_t lo = UINT64_MAX, hi = 0;

#define SPAN(a, b) do { if ((a) < lo) lo = (a); if ((b) > hi) hi = (b); } while (0)
	if (s->has_entry)
		SPAN(s->entry, s->entry + 4 * (s->nwords ? s->nwords : 1));
	if (s->has_ip)
		SPAN(s->ip, s->ip + 4);
	if (s->func)
		SPAN(s->faddr, s->faddr + (s->has_fsize ? s->fsize : 4));
#undef SPAN
	*start = lo;
	*end = hi;
}

void sim_layout_site_words(const struct sim_layout_site *s, uint64_t *lo,
			   uint64_t *hi)
{
	uint64_t a = s->has_entry ? s->entry : s->ip;
	uint64_t b = s->has_ip ? s->ip : s->entry;
	uint64_t top = a < b ? b : a;

	*lo = a < b ? a : b;
	*hi = top + 4 < top ? UINT64_MAX : top + 4;
}

/* A site's words in its address space: absolute addresses are one space,
 * each module/section of section-relative sites another. */
struct span {
	const char *module, *section; /* both NULL: absolute */
	uint64_t lo, hi;
	size_t site;
};

static bool same_space(const struct span *a, const struct span *b)
{
	return !strcmp_null(a->module, b->module) &&
	       !strcmp_null(a->section, b->section);
}

static int span_cmp(const void *pa, const void *pb)
{
	const struct span *a = pa, *b = pb;
	int c = strcmp_null(a->module, b->module);

	if (!c)
		c = strcmp_null(a->section, b->section);
	if (!c)
		c = (a->lo > b->lo) - (a->lo < b->lo);
	if (!c)
		c = (a->hi > b->hi) - (a->hi < b->hi);
	if (!c)
		c = (a->site > b->site) - (a->site < b->site);
	return c;
}

bool sim_layout_overlap(const struct sim_layout *l, size_t from, size_t to,
			size_t *first, size_t *second)
{
	size_t n = to - from, best = 0;
	struct span *v = calloc(n ? n : 1, sizeof(*v));
	bool found = false;

	if (!v)
		xalloc_fail();
	for (size_t i = 0; i < n; i++) {
		const struct sim_layout_site *s = &l->sites[from + i];

		v[i].module = s->section ? s->module : NULL;
		v[i].section = s->section;
		sim_layout_site_words(s, &v[i].lo, &v[i].hi);
		v[i].site = from + i;
	}
	if (n)
		qsort(v, n, sizeof(*v), span_cmp);
	/* Sorted by space and start: a span overlaps an earlier one exactly
	 * when it starts below the highest end seen so far in its space. */
	for (size_t i = 1; i < n; i++) {
		if (!same_space(&v[best], &v[i])) {
			best = i;
			continue;
		}
		if (v[i].lo < v[best].hi) {
			size_t a = v[best].site < v[i].site ? v[best].site : v[i].site;
			size_t b = v[best].site ^ v[i].site ^ a;

			if (!found || b < *second || (b == *second && a < *first)) {
				*first = a;
				*second = b;
				found = true;
			}
		}
		if (v[i].hi > v[best].hi)
			best = i;
	}
	free(v);
	return found;
}

static void site_where(const struct sim_layout_site *s, char *buf, size_t n)
{
	uint64_t at = s->has_entry ? s->entry : s->ip;

	if (s->section)
		snprintf(buf, n, "%s (%s/%s+0x%" PRIx64 ")", s->func ? s->func : "?",
			 s->module, s->section, at);
	else
		snprintf(buf, n, "%s (%016" PRIx64 ")", s->func ? s->func : "?", at);
}

int sim_layout_check_overlap(const struct sim_layout *l, size_t from,
			     const char *path, struct ftv_err *err)
{
	char a[320], b[320];
	size_t i, j;

	if (!sim_layout_overlap(l, from, l->nsites, &i, &j))
		return 0;
	site_where(&l->sites[i], a, sizeof(a));
	site_where(&l->sites[j], b, sizeof(b));
	return ftv_errf(err, "%s: the sites of %s and %s patch the same words",
			path, a, b);
}
