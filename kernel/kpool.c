/* Kernels kept from one world to the next (kernel/kern.h kern_take,
 * kern_give).
 *
 * A fuzz campaign builds a world per iteration, and a kernel-scheme world
 * opened its own kernel: the five objects and a copy of the world's loaded
 * and linked again, a Unicorn engine opened and the kernel's code
 * translated again, and the objects' line tables read again by a
 * cross addr2line per text section. A kernel given back is kept, with what
 * it translated and the lines it read, for the next world of the same
 * build and objects (the key: the build's directory, the objects in order,
 * how many are modules, far or near).
 *
 * Taking one puts it back as kern_open_modules left it: its memory (every
 * region: the loaded objects, the copy's text, kernel data and bss, the
 * fake current, the stack, the scratch of records and modules) from a
 * snapshot made at open, page by page where a page differs (a text page
 * put back drops its translations: krun_text_changed), the CPU's registers
 * from a context saved at open (krun_reset), and the kernel's own state
 * (fixmap slot, locks, what the shims answer) as opened. So a taken kernel
 * runs every verb as a fresh one would: only the cost differs
 * (FTV_KERNEL_FRESH=1 opens one per world instead, to compare with).
 *
 * One process's worlds share the pool without a lock: ftv builds worlds
 * in one thread (fuzz --jobs forks its workers). */
#include "kernel/kern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kline.h"

/* kernels kept idle at once (a campaign's worlds differ in their modules
 * and far placement: a few keys) */
#define KPOOL_MAX 8

/* a region's bytes as opened: [0, len) of its host memory */
struct ksnap_region {
	uint8_t *bytes;
	uint64_t len, used;
};

struct kpool_entry {
	char *key;
	struct kern *k;
	struct ksnap_region *snap;
	size_t nsnap;
	struct kern_fixmap fix; /* as opened */
	uint64_t watch_pc;
	int busy;
	unsigned long long age; /* when last given back */
};

static struct kpool_entry pool[KPOOL_MAX];
static unsigned long long clock_;
static size_t taken;

size_t kern_pool_taken(void)
{
	return taken;
}

static char *make_key(const char *dir, char *const *extra, size_t nextra, size_t nmods,
		      int far)
{
	size_t n = strlen(dir) + 32;
	char *s, *p;

	for (size_t i = 0; i < nextra; i++)
		n += strlen(extra[i]) + 1;
	if (!(s = malloc(n)))
		return NULL;
	p = s + sprintf(s, "%s|%zu|%d", dir, nmods, far);
	for (size_t i = 0; i < nextra; i++)
		p += sprintf(p, "|%s", extra[i]);
	return s;
}

/* A region's extent worth keeping: what its bump allocator handed out, or
 * the whole of a region mapped for direct use (task, stack, scratch). */
static uint64_t extent(const struct sim_region *g)
{
	return g->used ? g->used : g->size;
}

static void entry_free(struct kpool_entry *e)
{
	for (size_t i = 0; i < e->nsnap; i++)
		free(e->snap[i].bytes);
	free(e->snap);
	free(e->key);
	kern_close(e->k);
	memset(e, 0, sizeof(*e));
}

static int snapshot(struct kpool_entry *e)
{
	struct kern *k = e->k;

	e->nsnap = sim_region_count(k->as);
	if (!(e->snap = calloc(e->nsnap ? e->nsnap : 1, sizeof(*e->snap))))
		return -1;
	for (size_t i = 0; i < e->nsnap; i++) {
		struct sim_region *g = sim_region_get(k->as, i);

		e->snap[i].len = extent(g);
		e->snap[i].used = g->used;
		if (!(e->snap[i].bytes = malloc(e->snap[i].len)))
			return -1;
		memcpy(e->snap[i].bytes, g->host, e->snap[i].len);
	}
	e->fix = k->fix;
	e->watch_pc = k->watch_pc;
	return 0;
}

/* Memory back as opened, a page where it differs; text pages put back
 * drop their translations. */
static void restore(struct kpool_entry *e)
{
	struct kern *k = e->k;

	for (size_t i = 0; i < e->nsnap; i++) {
		struct sim_region *g = sim_region_get(k->as, i);
		const struct ksnap_region *s = &e->snap[i];

		for (uint64_t o = 0; o < s->len; o += SIM_PAGE) {
			uint64_t n = s->len - o < SIM_PAGE ? s->len - o : SIM_PAGE;

			if (!memcmp(g->host + o, s->bytes + o, n))
				continue;
			memcpy(g->host + o, s->bytes + o, n);
			if (g->perms & SIM_X)
				krun_text_changed(k->run, g->base + o, n);
		}
		g->used = s->used;
	}
	kev_clear(&k->log);
	k->fix = e->fix;
	k->locks = 0;
	k->watch_pc = e->watch_pc;
	k->watch_hits = k->watch_locked = 0;
	k->unique_ops = k->module = 0;
	k->answer = NULL;
	k->answer_ctx = NULL;
	k->pc = k->outer = 0;
	krun_reset(k->run);
	/* the step names the last world's plans held: kept unless many */
	kline_trim(k->lines);
}

struct kern *kern_take(const char *dir, char *const *extra, size_t nextra, size_t nmods,
		       int far, struct ftv_err *err)
{
	char *key;
	struct kpool_entry *e = NULL;
	const char *fresh = getenv("FTV_KERNEL_FRESH");

	/* FTV_KERNEL_FRESH=1: a kernel of its own for every world (closed at
	 * kern_give), to compare with */
	if (fresh && !strcmp(fresh, "1"))
		return kern_open_modules(dir, extra, nextra, nmods, far, err);
	if (!(key = make_key(dir, extra, nextra, nmods, far))) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < KPOOL_MAX; i++)
		if (pool[i].k && !pool[i].busy && !strcmp(pool[i].key, key)) {
			free(key);
			e = &pool[i];
			restore(e);
			e->busy = 1;
			taken++;
			return e->k;
		}
	/* a free slot, else the idle one given back longest ago */
	for (size_t i = 0; i < KPOOL_MAX; i++)
		if (!pool[i].k) {
			e = &pool[i];
			break;
		}
	for (size_t i = 0; !e && i < KPOOL_MAX; i++)
		if (!pool[i].busy && (!e || pool[i].age < e->age))
			e = &pool[i];
	if (e && e->k)
		entry_free(e);
	{
		struct kern *k = kern_open_modules(dir, extra, nextra, nmods, far, err);

		if (!k || !e) {
			/* every slot busy: a kernel of its own, closed at give */
			free(key);
			return k;
		}
		e->k = k;
		e->key = key;
		if (snapshot(e)) {
			entry_free(e);
			ftv_errf(err, "out of memory");
			return NULL;
		}
		e->busy = 1;
		return k;
	}
}

void kern_give(struct kern *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < KPOOL_MAX; i++)
		if (pool[i].k == k) {
			pool[i].busy = 0;
			pool[i].age = ++clock_;
			return;
		}
	kern_close(k);
}
