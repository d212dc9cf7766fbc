/* Engines kept for the next executor over the same memory (exec_pool.h). */
#include "executor/exec_pool.h"

#include <stdlib.h>
#include <string.h>

#include "executor/exec_pages.h"

/* At most this many engines wait (a world has up to 4 CPUs, and a fuzz
 * iteration may have two executors: the late modules' calibration's and
 * the world's). */
#define XE_POOL_MAX 16
/* Executors an engine serves: each leaves a few hundred KiB of
 * translations in a code buffer Unicorn 2.0.1 never reuses. */
#define XE_POOL_USES 32

struct xpool_region {
	uint64_t base, size;
	unsigned perms;
	int kind;
	const uint8_t *host; /* shared: the memory mapped; private: NULL */
};

struct xpool_ent {
	struct uc_struct *uc;
	struct xhook *hk;
	void *fresh;
	uint8_t **copy;
	uint64_t all_hook, until;
	uint64_t loads, *load_hook;
	int slow_access;
	unsigned uses;
	const struct xarch *arch;
	int private_data, ro_data;
	size_t nregions;
	struct xpool_region *reg;
};

static struct xpool_ent pool[XE_POOL_MAX];
static size_t npool;
static int pool_on;
static size_t ntaken;

static int is_private(const struct xengine *e, const struct sim_region *r)
{
	return (r->perms & SIM_X) || e->private_data;
}

static void ent_close(struct xpool_ent *p)
{
	struct xecpu c = { .uc = p->uc, .hk = p->hk, .fresh = p->fresh,
			   .load_hook = p->load_hook };

	xe_engine_close(&c);
	for (size_t i = 0; i < p->nregions; i++)
		xpg_free(p->copy[i], p->reg[i].size);
	free(p->copy);
	free(p->reg);
}

static void drain(void)
{
	for (size_t i = 0; i < npool; i++)
		ent_close(&pool[i]);
	npool = 0;
}


size_t xe_pool_taken(void)
{
	return ntaken;
}

/* An executor whose engines can be kept and taken: under the hook over
 * every address for good, with a private span, not exact-load-pc. */
static int reusable(const struct xengine *e)
{
	/* (a world run once maps its CPUs' text copy-on-write from one
	 * shared copy, exec_config.once: those copies are not kept) */
	return pool_on && e->all_for_good &&
	       !e->exact_load_pc && !e->loads_everywhere && e->xspan &&
	       !e->shared_copies;
}

static int matches(const struct xpool_ent *p, struct xengine *e)
{
	if (p->arch != e->arch || p->private_data != e->private_data ||
	    p->ro_data != e->ro_data || p->nregions != e->nregions)
		return 0;
	for (size_t i = 0; i < e->nregions; i++) {
		const struct sim_region *r = sim_region_get(e->as, i);
		const struct xpool_region *q = &p->reg[i];

		if (q->base != r->base || q->size != r->size || q->perms != r->perms ||
		    q->kind != (int)r->kind ||
		    q->host != (is_private(e, r) ? NULL : r->host))
			return 0;
	}
	return 1;
}

/* Makes copy the region's memory: the pages that differ are copied and
 * their translations dropped (from the first to the last word that
 * differs). */
static int sync_copy(struct xecpu *c, const struct sim_region *r, uint8_t *copy)
{
	uint64_t n = r->size / XPG_SIZE;
	uint8_t *nzs = malloc(n), *nzc = malloc(n);

	if (!nzs || !nzc) {
		free(nzs);
		free(nzc);
		return -1;
	}
	xpg_nonzero(r->host, r->size, nzs);
	xpg_nonzero(copy, r->size, nzc);
	for (uint64_t p = xpg_next(nzs, nzc, 0, n); p < n; p = xpg_next(nzs, nzc, p + 1, n)) {
		uint64_t off = p * XPG_SIZE;

		if (!memcmp(copy + off, r->host + off, XPG_SIZE))
			continue;
		/* each run of differing words at once (a world's patched
		 * sites are a word here and there) */
		for (uint64_t o = 0; o < XPG_SIZE; o += 4) {
			uint64_t end = o;

			while (end < XPG_SIZE && memcmp(copy + off + end, r->host + off + end, 4))
				end += 4;
			if (end == o)
				continue;
			memcpy(copy + off + o, r->host + off + o, end - o);
			xe_engine_invalidate(c, r->base + off + o, end - o);
			o = end;
		}
	}
	free(nzs);
	free(nzc);
	return 0;
}

static int take(struct xengine *e, struct xecpu *c)
{
	struct xpool_ent p;
	size_t k;

	if (!reusable(e))
		return 0;
	for (k = 0; k < npool && !matches(&pool[k], e); k++)
		;
	if (k == npool)
		return 0;
	p = pool[k];
	memmove(&pool[k], &pool[k + 1], (npool - k - 1) * sizeof(pool[0]));
	npool--;
	c->uc = p.uc;
	c->rval_ok = 0;
	c->hk = p.hk;
	c->hk->c = c;
	c->fresh = p.fresh;
	c->all_hook = p.all_hook;
	c->loads = p.loads;
	c->load_hook = p.load_hook;
	c->slow_access = p.slow_access;
	c->until = p.until;
	c->uses = p.uses + 1;
	c->strayed = 0;
	c->ran = 1;
	free(c->copy);
	c->copy = p.copy;
	free(p.reg);
	/* the CPU as it came (registers, system registers, exclusive
	 * monitor); the executor sets what it runs with */
	if (xe_engine_restart(c))
		goto fail;
	for (size_t i = 0; i < e->nregions; i++)
		if (c->copy[i] && sync_copy(c, sim_region_get(e->as, i), c->copy[i]))
			goto fail;
	ntaken++;
	return 1;
fail:
	/* (an engine that cannot be brought up to date is not used: a
	 * fresh one is opened instead) */
	xe_engine_close(c);
	for (size_t i = 0; i < e->nregions; i++)
		xpg_free(c->copy[i], e->rsize[i]);
	memset(c->copy, 0, e->nregions * sizeof(*c->copy));
	return 0;
}

static int put(struct xengine *e, struct xecpu *c)
{
	struct xpool_ent *p;
	struct xpool_region *reg;

	if (!reusable(e) || !c->all_hook || c->strayed || !c->fresh ||
	    c->uses + 1 >= XE_POOL_USES)
		return 0;
	reg = calloc(e->nregions ? e->nregions : 1, sizeof(*reg));
	if (!reg)
		return 0;
	for (size_t i = 0; i < e->nregions; i++) {
		const struct sim_region *r = sim_region_get(e->as, i);

		reg[i] = (struct xpool_region){ r->base, r->size, r->perms, (int)r->kind,
						is_private(e, r) ? NULL : r->host };
	}
	if (npool == XE_POOL_MAX) {
		ent_close(&pool[0]);
		memmove(&pool[0], &pool[1], (npool - 1) * sizeof(pool[0]));
		npool--;
	}
	p = &pool[npool++];
	*p = (struct xpool_ent){
		.uc = c->uc, .hk = c->hk, .fresh = c->fresh, .copy = c->copy,
		.all_hook = c->all_hook, .until = c->until,
		.loads = c->loads, .slow_access = c->slow_access,
		.uses = c->uses, .arch = e->arch, .private_data = e->private_data,
		.ro_data = e->ro_data, .nregions = e->nregions, .reg = reg,
	};
	p->load_hook = c->load_hook;
	p->hk->c = NULL;
	c->uc = NULL;
	c->hk = NULL;
	c->fresh = NULL;
	c->copy = NULL;
	c->load_hook = NULL;
	return 1;
}

static const struct xe_keeper keeper = { take, put };

void xe_pool_enable(void)
{
	if (!pool_on)
		atexit(drain);
	pool_on = 1;
	xe_keeper = &keeper;
}
