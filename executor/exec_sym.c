/* Symmetry reduction (exec_sym.h): the checks that turn it on, and the
 * choice of a state's canonical permutation. */
#include "executor/exec_sym.h"

#include <stdio.h>
#include <string.h>

#include "executor/exec_int.h"
#include "executor/exec_pages.h"

/* --- the key a CPU is sorted by ------------------------------------------ */

struct kh {
	uint64_t a, b;
};

static inline void kmix(struct kh *h, uint64_t w)
{
	h->a = (h->a ^ w) * 0x9e3779b97f4a7c15ULL;
	h->a ^= h->a >> 29;
	h->b = (h->b + w) * 0xc2b2ae3d27d4eb4fULL;
	h->b ^= h->b >> 31;
}

/* v as CPU c sees it: in its own ranges, moved to CPU 0's (a key must not
 * depend on the CPU's number). */
static uint64_t rel(const struct xsym *y, unsigned c, uint64_t v)
{
	for (size_t k = 0; k < y->nr; k++) {
		const struct xsym_range *r = &y->r[k];
		uint64_t lo = r->base + c * r->stride;

		if (v - lo < r->stride)
			return v - c * r->stride;
	}
	return v;
}

/* CPU c's own part of the state, as CPU 0's would be (a cheap function
 * of what the full hash covers: it only orders the CPUs). Its registers
 * and run state, not its private memory: on the 3-CPU worlds adding the
 * pages of its stack and per-CPU block written merged no more states and
 * cost a fifth of the walk (issue 31). */
static uint64_t cpu_key(struct ftv_exec *ex, unsigned c)
{
	const struct xsym *y = &ex->sym;
	const struct xcpu *p = &ex->cpu[c];
	const struct xmcpu *m = &ex->model.cpu[c];
	const uint64_t *rv = xe_regs(&ex->eng, c);
	struct kh h = { 0x452821e638d01377ULL, 0xbe5466cf34e90c6cULL };

	kmix(&h, (uint64_t)p->st << 8 | (uint64_t)p->armed << 1 |
			 (uint64_t)p->stopped_in_hook);
	kmix(&h, (uint64_t)p->asleep | (uint64_t)p->parked_qs << 1 |
			 (uint64_t)p->qs_counted << 2 | (uint64_t)p->in_window << 3);
	kmix(&h, p->nfaults);
	for (int r = 0; r <= ex->arch->nregs; r++)
		kmix(&h, rel(y, c, rv[r]));
	kmix(&h, ex->csb[c].n);
	kmix(&h, m->pend.n);
	kmix(&h, m->ic_applied);
	kmix(&h, m->fetch_vseq);
	kmix(&h, m->barrier_vseq);
	for (size_t i = 0; i < ex->model.nwi; i++) {
		const struct winsn *w = ex->model.wi[i];

		kmix(&h, w->floor[c]);
		kmix(&h, (uint64_t)(uint32_t)w->last[c]);
	}
	return h.a ^ h.b * 0x2545f4914f6cdd1dULL;
}

void xsym_choose(struct ftv_exec *ex)
{
	struct xsym *y = &ex->sym;
	uint64_t key[XSYM_MAX_CPUS];
	unsigned n = y->n;

	for (unsigned c = 0; c < n; c++) {
		key[c] = cpu_key(ex, c);
		y->pinv[c] = (uint8_t)c;
	}
	/* sorted by key, ties by number */
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && key[y->pinv[j - 1]] > key[y->pinv[j]]; j--) {
			uint8_t t = y->pinv[j];

			y->pinv[j] = y->pinv[j - 1];
			y->pinv[j - 1] = t;
		}
	y->ident = 1;
	y->tie = 0;
	for (unsigned j = 0; j < n; j++) {
		y->pi[y->pinv[j]] = (uint8_t)j;
		y->ident &= y->pinv[j] == j;
		y->tie |= j && key[y->pinv[j - 1]] == key[y->pinv[j]];
	}
	y->hashed++;
	y->moved += !y->ident;
}

/* --- turning it on --------------------------------------------------------- */

/* The snapshot's word at addr (0: outside the regions). */
static uint64_t snap_word(const struct xengine *e, uint64_t addr)
{
	for (size_t i = 0; i < e->nregions; i++) {
		uint64_t off = addr - e->rbase[i], v = 0;

		if (off >= e->rsize[i])
			continue;
		if (e->snap_nz[i][off / XPG_SIZE])
			memcpy(&v, e->snap[i] + off, 8);
		return v;
	}
	return 0;
}

/* v moved by the transposition (0 c). */
static uint64_t swap0(const struct xsym *y, unsigned c, uint64_t v)
{
	for (size_t k = 0; k < y->nr; k++) {
		const struct xsym_range *r = &y->r[k];
		uint64_t off = v - r->base;

		if (off < r->stride)
			return v + c * r->stride;
		if (off - c * r->stride < r->stride)
			return v - c * r->stride;
	}
	return v;
}

static int in_ranges(const struct xsym *y, uint64_t a)
{
	for (size_t k = 0; k < y->nr; k++)
		if (a - y->r[k].base < y->r[k].stride * y->n)
			return 1;
	return 0;
}

static int ignored(const uint64_t *ign, size_t nign, uint64_t off)
{
	for (size_t i = 0; i < nign; i++)
		if (ign[i] == off)
			return 1;
	return 0;
}

#define REFUSE(...) (snprintf(why, nwhy, __VA_ARGS__), 0)

static int ranges_ok(struct ftv_exec *ex, const struct exec_sym_range *rg,
		     size_t nr, char *why, size_t nwhy)
{
	struct xsym *y = &ex->sym;
	const struct xengine *e = &ex->eng;

	y->lo = UINT64_MAX;
	y->hi = 0;
	for (size_t k = 0; k < nr; k++) {
		struct xsym_range *r = &y->r[k];
		uint64_t span = rg[k].stride * y->n;
		size_t i;

		r->base = rg[k].base;
		r->stride = rg[k].stride;
		if (r->base % XPG_SIZE || !r->stride || r->stride % XPG_SIZE)
			return REFUSE("range %zu is not made of whole pages", k);
		for (i = 0; i < e->nregions; i++)
			if (r->base - e->rbase[i] < e->rsize[i] &&
			    r->base + span - e->rbase[i] <= e->rsize[i])
				break;
		if (i == e->nregions)
			return REFUSE("range %zu is not inside one region", k);
		r->region = i;
		r->p0 = (r->base - e->rbase[i]) / XPG_SIZE;
		r->sp = r->stride / XPG_SIZE;
		for (size_t j = 0; j < k; j++)
			if (r->base < y->r[j].base + y->r[j].stride * y->n &&
			    y->r[j].base < r->base + span)
				return REFUSE("ranges %zu and %zu overlap", j, k);
		if (r->base < y->lo)
			y->lo = r->base;
		if (r->base + span > y->hi)
			y->hi = r->base + span;
	}
	y->nr = nr;
	return 1;
}

/* The snapshot: each CPU's ranges equal to CPU 0's once moved (but the
 * words ign names, offsets in a range), no word elsewhere pointing into
 * them. */
static int snapshot_ok(struct ftv_exec *ex, const struct exec_sym_range *rg,
		       char *why, size_t nwhy)
{
	const struct xsym *y = &ex->sym;
	const struct xengine *e = &ex->eng;

	for (size_t k = 0; k < y->nr; k++) {
		const struct xsym_range *r = &y->r[k];

		for (unsigned c = 1; c < y->n; c++)
			for (uint64_t o = 0; o < r->stride; o += 8) {
				uint64_t w0 = snap_word(e, r->base + o);
				uint64_t wc = snap_word(e, r->base + c * r->stride + o);

				if (wc != swap0(y, c, w0) && !ignored(rg[k].ign, rg[k].nign, o))
					return REFUSE("cpu%u's word at +%#llx of range %zu differs "
						      "from cpu0's", c, (unsigned long long)o, k);
			}
	}
	for (size_t i = 0; i < e->nregions; i++)
		for (uint64_t pg = 0; pg < e->rsize[i] / XPG_SIZE; pg++) {
			if (!e->snap_nz[i][pg])
				continue;
			for (uint64_t o = 0; o < XPG_SIZE; o += 8) {
				uint64_t a = e->rbase[i] + pg * XPG_SIZE + o, v;

				memcpy(&v, e->snap[i] + pg * XPG_SIZE + o, 8);
				if (in_ranges(y, v) && !in_ranges(y, a))
					return REFUSE("the shared word at %#llx points into a "
						      "CPU's range", (unsigned long long)a);
			}
		}
	return 1;
}

/* The CPUs alike: their configuration, their keys (registers, run state,
 * model), their text copies. */
static int cpus_ok(struct ftv_exec *ex, char *why, size_t nwhy)
{
	const struct xsym *y = &ex->sym;
	const struct xengine *e = &ex->eng;
	uint64_t k0 = cpu_key(ex, 0);

	for (unsigned c = 1; c < y->n; c++) {
		const struct xcpu *p = &ex->cpu[c], *q = &ex->cpu[0];

		if (p->exit_pc != q->exit_pc || p->qs_pc != q->qs_pc ||
		    p->has_qs != q->has_qs || p->sleep_pc != q->sleep_pc ||
		    p->undef != q->undef || p->handler != q->handler ||
		    p->tail_left != q->tail_left || p->quiet_left != q->quiet_left)
			return REFUSE("cpu%u is set up unlike cpu0", c);
		if (cpu_key(ex, c) != k0)
			return REFUSE("cpu%u's registers or run state differ from cpu0's", c);
		for (size_t i = 0; i < e->nregions; i++)
			if ((!e->cpu[c].copy) != (!e->cpu[0].copy) ||
			    (e->cpu[c].copy && (!e->cpu[c].copy[i] != !e->cpu[0].copy[i] ||
						(e->cpu[c].copy[i] &&
						 memcmp(e->cpu[c].copy[i], e->cpu[0].copy[i],
							e->rsize[i])))))
				return REFUSE("cpu%u's copy of region %zu differs from cpu0's",
					      c, i);
	}
	for (size_t i = 0; i < ex->model.nwi; i++)
		if (in_ranges(y, ex->model.wi[i]->addr))
			return REFUSE("a watched word lies in a CPU's range");
	for (size_t i = 0; i < ex->model.nwd; i++)
		if (in_ranges(y, ex->model.wd[i]->addr))
			return REFUSE("a watched data location lies in a CPU's range");
	return 1;
}

int exec_set_symmetry(struct ftv_exec *ex, const struct exec_sym_range *r, size_t nr,
		      char *why, size_t nwhy)
{
	struct xsym *y = &ex->sym;
	int ok;

	memset(y, 0, sizeof(*y));
	y->n = ex->cfg.ncpus;
	if (y->n < 2 || y->n > XSYM_MAX_CPUS)
		return REFUSE("symmetry among 2 to %d CPUs", XSYM_MAX_CPUS);
	if (!nr || nr > XSYM_MAX_RANGES)
		return REFUSE("1 to %d ranges", XSYM_MAX_RANGES);
	if (!ex->eng.snap)
		return REFUSE("no snapshot");
	if (ex->cfg.cpu_sbuf)
		return REFUSE("CPU store buffers");
	for (unsigned c = 0; c < y->n; c++)
		y->pi[c] = y->pinv[c] = (uint8_t)c;
	y->ident = 1;
	ok = ranges_ok(ex, r, nr, why, nwhy) && snapshot_ok(ex, r, why, nwhy) &&
	     cpus_ok(ex, why, nwhy);
	if (!ok) {
		memset(y, 0, sizeof(*y));
		return 0;
	}
	y->on = 1;
	return 1;
}

void exec_symmetry_off(struct ftv_exec *ex)
{
	memset(&ex->sym, 0, sizeof(ex->sym));
}

unsigned exec_symmetric_cpus(const struct ftv_exec *ex, uint64_t *moved,
			     uint64_t *hashed)
{
	if (moved)
		*moved = ex->sym.moved;
	if (hashed)
		*hashed = ex->sym.hashed;
	return ex->sym.on ? ex->sym.n : 0;
}
