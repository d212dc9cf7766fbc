#include "sim/aspace.h"

#include "util/vec.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <stdio.h>

struct sim_aspace {
	struct sim_region **regions;
	size_t nregions, capregions;
	size_t rlast;            /* the region sim_region_at found last */

	struct sim_symbol *syms;
	size_t nsyms, capsyms;
	/* name hash: open addressing over indices+1 into syms */
	uint32_t *hash;
	size_t hashcap;
	/* indices of syms sorted by address, rebuilt when stale */
	uint32_t *byaddr;
	size_t nbyaddr, capbyaddr;
};

/* Region memory kept from freed aspaces (sim_keep_buffers), emptied
 * (MADV_DONTNEED: it reads as zeros again, and costs nothing until
 * written), for the next sim_map of the same base and size. */
#define SIM_KEPT_MAX 64
static struct {
	uint64_t base, size;
	uint8_t *host;
} kept[SIM_KEPT_MAX];
static size_t nkept;
static int keeping;

static void drop_kept(void)
{
	for (size_t i = 0; i < nkept; i++)
		munmap(kept[i].host, kept[i].size);
	nkept = 0;
}

void sim_keep_buffers(void)
{
	if (!keeping)
		atexit(drop_kept);
	keeping = 1;
}

static void region_memory_free(struct sim_region *r)
{
	if (keeping && nkept < SIM_KEPT_MAX &&
	    !madvise(r->host, r->size, MADV_DONTNEED)) {
		kept[nkept].base = r->base;
		kept[nkept].size = r->size;
		kept[nkept++].host = r->host;
		return;
	}
	munmap(r->host, r->size);
}

static uint8_t *region_memory(uint64_t base, uint64_t size)
{
	void *p;

	for (size_t i = 0; keeping && i < nkept; i++)
		if (kept[i].base == base && kept[i].size == size) {
			uint8_t *h = kept[i].host;

			kept[i] = kept[--nkept];
			return h;
		}
	p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

struct sim_aspace *sim_aspace_new(void)
{
	return calloc(1, sizeof(struct sim_aspace));
}

void sim_aspace_free(struct sim_aspace *as)
{
	if (!as)
		return;
	for (size_t i = 0; i < as->nregions; i++) {
		region_memory_free(as->regions[i]);
		free(as->regions[i]);
	}
	free(as->regions);
	for (size_t i = 0; i < as->nsyms; i++) {
		free(as->syms[i].name);
		free(as->syms[i].module);
	}
	free(as->syms);
	free(as->hash);
	free(as->byaddr);
	free(as);
}

struct sim_region *sim_map(struct sim_aspace *as, const char *name,
			   uint64_t base, uint64_t size, unsigned perms,
			   enum sim_region_kind kind, struct ftv_err *err)
{
	struct sim_region *r;

	if (!size || (base | size) & (SIM_PAGE - 1) || base + size < base) {
		ftv_errf(err, "region %s: base 0x%llx size 0x%llx not page aligned",
			 name, (unsigned long long)base, (unsigned long long)size);
		return NULL;
	}
	for (size_t i = 0; i < as->nregions; i++) {
		struct sim_region *o = as->regions[i];

		if (base < o->base + o->size && o->base < base + size) {
			ftv_errf(err, "region %s [0x%llx, 0x%llx) overlaps %s",
				 name, (unsigned long long)base,
				 (unsigned long long)(base + size), o->name);
			return NULL;
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r || VEC_RESERVE(as->regions, as->capregions, as->nregions + 1)) {
		free(r);
		ftv_errf(err, "region %s: out of memory", name);
		return NULL;
	}
	r->host = region_memory(base, size);
	if (!r->host) {
		free(r);
		ftv_errf(err, "region %s: cannot allocate 0x%llx bytes", name,
			 (unsigned long long)size);
		return NULL;
	}
	snprintf(r->name, sizeof(r->name), "%s", name);
	r->base = base;
	r->size = size;
	r->perms = perms;
	r->kind = kind;
	as->regions[as->nregions++] = r;
	return r;
}

size_t sim_region_count(const struct sim_aspace *as)
{
	return as->nregions;
}

struct sim_region *sim_region_get(struct sim_aspace *as, size_t i)
{
	return i < as->nregions ? as->regions[i] : NULL;
}

struct sim_region *sim_region_at(struct sim_aspace *as, uint64_t addr)
{
	struct sim_region *r;

	/* the region found last first: the executor's model asks at every
	 * store and poisoned byte, mostly of one region (issue 31: the walk
	 * over every region was 4% of a 3-CPU verify) */
	if (as->rlast < as->nregions) {
		r = as->regions[as->rlast];
		if (addr >= r->base && addr - r->base < r->size)
			return r;
	}
	for (size_t i = 0; i < as->nregions; i++) {
		r = as->regions[i];
		if (addr >= r->base && addr - r->base < r->size) {
			as->rlast = i;
			return r;
		}
	}
	return NULL;
}

struct sim_region *sim_region_named(struct sim_aspace *as, const char *name)
{
	for (size_t i = 0; i < as->nregions; i++)
		if (!strcmp(as->regions[i]->name, name))
			return as->regions[i];
	return NULL;
}

uint64_t sim_region_alloc(struct sim_region *r, uint64_t size, uint64_t align,
			  struct ftv_err *err)
{
	uint64_t off;

	if (!align)
		align = 1;
	if (align & (align - 1)) {
		ftv_errf(err, "region %s: alignment 0x%llx is not a power of two",
			 r->name, (unsigned long long)align);
		return 0;
	}
	off = (r->used + align - 1) & ~(align - 1);
	if (off < r->used || off > r->size || size > r->size - off) {
		ftv_errf(err, "region %s is full (0x%llx bytes wanted)", r->name,
			 (unsigned long long)size);
		return 0;
	}
	r->used = off + size;
	return r->base + off;
}

uint8_t *sim_ptr(struct sim_aspace *as, uint64_t addr, uint64_t len)
{
	struct sim_region *r = sim_region_at(as, addr);

	if (!r || len > r->size - (addr - r->base))
		return NULL;
	return r->host + (addr - r->base);
}

int sim_read(struct sim_aspace *as, uint64_t addr, void *buf, uint64_t len,
	     struct ftv_err *err)
{
	uint8_t *p = sim_ptr(as, addr, len);

	if (!p)
		return ftv_errf(err, "read of %llu bytes at 0x%llx is unmapped",
				(unsigned long long)len,
				(unsigned long long)addr);
	memcpy(buf, p, len);
	return 0;
}

int sim_write(struct sim_aspace *as, uint64_t addr, const void *buf,
	      uint64_t len, struct ftv_err *err)
{
	uint8_t *p = sim_ptr(as, addr, len);

	if (!p)
		return ftv_errf(err, "write of %llu bytes at 0x%llx is unmapped",
				(unsigned long long)len,
				(unsigned long long)addr);
	memcpy(p, buf, len);
	return 0;
}

/* The host is little-endian x86_64 or arm64, like the emulated CPUs. */
int sim_read32(struct sim_aspace *as, uint64_t addr, uint32_t *v)
{
	return sim_read(as, addr, v, 4, NULL);
}

int sim_read64(struct sim_aspace *as, uint64_t addr, uint64_t *v)
{
	return sim_read(as, addr, v, 8, NULL);
}

int sim_write32(struct sim_aspace *as, uint64_t addr, uint32_t v)
{
	return sim_write(as, addr, &v, 4, NULL);
}

int sim_write64(struct sim_aspace *as, uint64_t addr, uint64_t v)
{
	return sim_write(as, addr, &v, 8, NULL);
}

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int hash_insert(struct sim_aspace *as, uint32_t idx)
{
	if ((as->nsyms + 1) * 2 > as->hashcap) {
		size_t ncap = as->hashcap ? as->hashcap * 2 : 1024;
		uint32_t *nh = calloc(ncap, sizeof(*nh));

		if (!nh)
			return -1;
		free(as->hash);
		as->hash = nh;
		as->hashcap = ncap;
		for (size_t i = 0; i < as->nsyms; i++) {
			if (i == idx)
				continue;
			size_t h = name_hash(as->syms[i].name) & (ncap - 1);

			while (nh[h])
				h = (h + 1) & (ncap - 1);
			nh[h] = i + 1;
		}
	}
	size_t h = name_hash(as->syms[idx].name) & (as->hashcap - 1);

	while (as->hash[h])
		h = (h + 1) & (as->hashcap - 1);
	as->hash[h] = idx + 1;
	return 0;
}

const struct sim_symbol *sim_sym_add(struct sim_aspace *as, const char *name,
				     uint64_t addr, uint64_t size,
				     enum sim_sym_type type,
				     const char *module)
{
	struct sim_symbol *s;

	if (VEC_RESERVE(as->syms, as->capsyms, as->nsyms + 1))
		return NULL;
	s = &as->syms[as->nsyms];
	s->name = strdup(name);
	s->module = module ? strdup(module) : NULL;
	if (!s->name || (module && !s->module)) {
		free(s->name);
		free(s->module);
		return NULL;
	}
	s->addr = addr;
	s->size = size;
	s->type = type;
	as->nsyms++;
	if (hash_insert(as, as->nsyms - 1)) {
		as->nsyms--;
		free(s->name);
		free(s->module);
		return NULL;
	}
	as->nbyaddr = 0; /* stale */
	return s;
}

const struct sim_symbol *sim_sym_lookup(struct sim_aspace *as,
					const char *name)
{
	const struct sim_symbol *best = NULL;

	if (!as->hashcap)
		return NULL;
	for (size_t h = name_hash(name) & (as->hashcap - 1); as->hash[h];
	     h = (h + 1) & (as->hashcap - 1)) {
		const struct sim_symbol *s = &as->syms[as->hash[h] - 1];

		if (!strcmp(s->name, name) && (!best || s < best))
			best = s;
	}
	return best;
}

static const struct sim_aspace *sort_as;

static int cmp_addr(const void *a, const void *b)
{
	const struct sim_symbol *x = &sort_as->syms[*(const uint32_t *)a];
	const struct sim_symbol *y = &sort_as->syms[*(const uint32_t *)b];

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	/* functions first, then larger sizes, then insertion order */
	if (x->type != y->type)
		return x->type == SIM_SYM_FUNC ? -1 : (y->type == SIM_SYM_FUNC);
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static int build_byaddr(struct sim_aspace *as)
{
	uint32_t *idx;

	if (as->nbyaddr == as->nsyms)
		return 0;
	if (VEC_RESERVE(as->byaddr, as->capbyaddr, as->nsyms))
		return -1;
	idx = as->byaddr;
	for (size_t i = 0; i < as->nsyms; i++)
		idx[i] = i;
	sort_as = as;
	qsort(idx, as->nsyms, sizeof(*idx), cmp_addr);
	sort_as = NULL;
	as->nbyaddr = as->nsyms;
	return 0;
}

const struct sim_symbol *sim_sym_at(struct sim_aspace *as, uint64_t addr)
{
	size_t lo = 0, hi;
	const struct sim_symbol *other = NULL;

	if (build_byaddr(as) || !as->nsyms)
		return NULL;
	/* last index whose address <= addr */
	hi = as->nsyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (as->syms[as->byaddr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Walk back over symbols at or below addr: the nearest function that
	 * covers addr wins; a covering object is the fallback. */
	for (size_t i = lo; i-- > 0;) {
		const struct sim_symbol *s = &as->syms[as->byaddr[i]];

		if (addr - s->addr > (1u << 24)) /* no symbol is this large */
			break;
		if (addr - s->addr >= (s->size ? s->size : 1))
			continue;
		if (s->type == SIM_SYM_FUNC)
			return s;
		if (!other)
			other = s;
	}
	return other;
}

size_t sim_sym_count(const struct sim_aspace *as)
{
	return as->nsyms;
}

const struct sim_symbol *sim_sym_get(const struct sim_aspace *as, size_t i)
{
	return i < as->nsyms ? &as->syms[i] : NULL;
}

char *sim_symbolize(struct sim_aspace *as, uint64_t addr, char *buf, size_t n,
		    int with_module)
{
	const struct sim_symbol *s = sim_sym_at(as, addr);

	if (!s)
		snprintf(buf, n, "0x%016llx", (unsigned long long)addr);
	else if (with_module && s->module)
		snprintf(buf, n, "%s+0x%llx/0x%llx [%s]", s->name,
			 (unsigned long long)(addr - s->addr),
			 (unsigned long long)s->size, s->module);
	else
		snprintf(buf, n, "%s+0x%llx/0x%llx", s->name,
			 (unsigned long long)(addr - s->addr),
			 (unsigned long long)s->size);
	return buf;
}
