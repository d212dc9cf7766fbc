/* A saved mid-run state of the executor (exec_save.h): one description of
 * the run state, xsv_walk, used to save it (bytes appended to the save)
 * and to restore it (the same bytes read back in the same order).
 *
 * Structs are copied whole (a field added to one is saved and restored
 * without anyone listing it), but for the members that are no run state:
 * their pointers and capacities, the configuration they were built with,
 * and what the engines translated (exec_save.h). Those are zeroed in the
 * saved bytes (so the check's fingerprint does not see them) and kept
 * from the live struct at a restore. Arrays go with their counts. */
#include "executor/exec_save.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "executor/exec_dirty.h"
#include "executor/exec_int.h"
#include "executor/exec_snap.h"
#include "util/vec.h"

struct xio {
	struct xsave *s;
	int restore;
	size_t pos;
	int bad;
};

static void io_bytes(struct xio *io, void *p, size_t len)
{
	struct xsave *s = io->s;

	if (io->bad || !len)
		return;
	if (!io->restore) {
		if (s->n + len > s->cap &&
		    vec_reserve((void **)&s->b, &s->cap, s->n + len, 1)) {
			io->bad = 1;
			return;
		}
		memcpy(s->b + s->n, p, len);
		s->n += len;
		return;
	}
	if (io->pos + len > s->n) {
		io->bad = 1;
		return;
	}
	memcpy(p, s->b + io->pos, len);
	io->pos += len;
}

#define IO(io, x) io_bytes((io), &(x), sizeof(x))

/* An array of *n elements of elt bytes, with its count. */
static void io_arr(struct xio *io, void **arr, size_t *n, size_t *cap, size_t elt)
{
	size_t nn = *n;

	IO(io, nn);
	if (io->bad)
		return;
	if (io->restore && vec_reserve(arr, cap, nn ? nn : 1, elt)) {
		io->bad = 1;
		return;
	}
	*n = nn;
	io_bytes(io, *arr, nn * elt);
}

#define IO_ARR(io, arr, n, cap)                                                \
	io_arr((io), (void **)&(arr), &(n), &(cap), sizeof(*(arr)))

/* Members of a struct that are no run state: [off, off + len). */
struct keep {
	size_t off, len;
};
#define KEEP(type, m) { offsetof(type, m), sizeof(((type *)0)->m) }
#define NKEEP(k) (sizeof(k) / sizeof((k)[0]))

/* A whole struct of size bytes at live, but its kept members (k sorted
 * by offset): zeroed in the save, left as they are by a restore. */
static void io_struct(struct xio *io, void *live, size_t size,
		      const struct keep *k, size_t nk)
{
	struct xsave *s = io->s;
	uint8_t *l = live;
	size_t at = 0;

	if (io->bad)
		return;
	if (!io->restore) {
		if (s->n + size > s->cap &&
		    vec_reserve((void **)&s->b, &s->cap, s->n + size, 1)) {
			io->bad = 1;
			return;
		}
		memcpy(s->b + s->n, l, size);
		for (size_t i = 0; i < nk; i++)
			memset(s->b + s->n + k[i].off, 0, k[i].len);
		s->n += size;
		return;
	}
	if (io->pos + size > s->n) {
		io->bad = 1;
		return;
	}
	for (size_t i = 0; i <= nk; i++) {
		size_t end = i < nk ? k[i].off : size;

		if (end < at) {
			io->bad = 1; /* (a list out of order) */
			return;
		}
		memcpy(l + at, s->b + io->pos + at, end - at);
		at = i < nk ? k[i].off + k[i].len : size;
	}
	io->pos += size;
}

/* --- the parts --------------------------------------------------------- */

static const struct keep cpu_keep[] = {
	KEEP(struct xcpu, faults), KEEP(struct xcpu, capfaults),
};

static void io_cpus(struct xio *io, struct ftv_exec *ex)
{
	for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
		struct xcpu *p = &ex->cpu[c];
		uint64_t rv[EXEC_NREGS + 1];
		int n = ex->arch->nregs + 1;

		io_struct(io, p, sizeof(*p), cpu_keep, NKEEP(cpu_keep));
		IO_ARR(io, p->faults, p->nfaults, p->capfaults);
		/* the registers and flags, as xe_reset writes them */
		if (!io->restore)
			memcpy(rv, xe_regs(&ex->eng, c), n * sizeof(*rv));
		io_bytes(io, rv, n * sizeof(*rv));
		if (io->restore && !io->bad)
			xe_put_regs(&ex->eng, c, rv);
	}
}

static const struct keep log_keep[] = {
	KEEP(struct xlog, run), KEEP(struct xlog, record_max), KEEP(struct xlog, oom),
	KEEP(struct xlog, wr), KEEP(struct xlog, capwr), KEEP(struct xlog, nwr_init),
	KEEP(struct xlog, ev), KEEP(struct xlog, capev),
	KEEP(struct xlog, obs), KEEP(struct xlog, capobs),
	KEEP(struct xlog, viol), KEEP(struct xlog, capviol),
};

static void io_log(struct xio *io, struct xlog *l)
{
	io_struct(io, l, sizeof(*l), log_keep, NKEEP(log_keep));
	IO_ARR(io, l->wr, l->nwr, l->capwr);
	IO_ARR(io, l->ev, l->nev, l->capev);
	IO_ARR(io, l->obs, l->nobs, l->capobs);
	IO_ARR(io, l->viol, l->nviol, l->capviol);
}

/* A watched word: its coherence order and per-CPU state; the views only
 * where they are ok (the rest is the engine's, exec_save.h); and where
 * the resets leave the word in the CPUs' copies (xe_lazy_words), what a
 * CPU's copy holds once the run has written it (winsn.written): the
 * words it has not written keep what the reset before this run left, as
 * a replay from that reset would see them. */
static const struct keep winsn_keep[] = {
	KEEP(struct winsn, id), KEEP(struct winsn, addr), KEEP(struct winsn, coh),
	KEEP(struct winsn, capcoh), KEEP(struct winsn, view), KEEP(struct winsn, stale),
};
static const struct keep wdata_keep[] = {
	KEEP(struct wdata, id), KEEP(struct wdata, addr), KEEP(struct wdata, size),
	KEEP(struct wdata, init_wid), KEEP(struct wdata, wids), KEEP(struct wdata, capw),
};
static const struct keep xmcpu_keep[] = {
	KEEP(struct xmcpu, pend.v), KEEP(struct xmcpu, pend.cap),
};

static void io_model(struct xio *io, struct xmodel *m)
{
	for (size_t i = 0; i < m->nwi; i++) {
		struct winsn *w = m->wi[i];

		io_struct(io, w, sizeof(*w), winsn_keep, NKEEP(winsn_keep));
		IO_ARR(io, w->coh, w->ncoh, w->capcoh);
		for (unsigned c = 0; c < m->ncpus; c++) {
			uint32_t v = w->view_ok[c] ? w->view[c] : 0, cw = 0;
			uint8_t *p = xe_lazy_word(m->eng, w->addr)
					     ? xe_copy_ptr(m->eng, c, w->addr) : NULL;

			IO(io, v);
			if (p && w->written[c] && !io->restore)
				memcpy(&cw, p, 4);
			IO(io, cw);
			if (!io->restore || io->bad)
				continue;
			w->view[c] = v;
			if (p && w->written[c] && memcmp(p, &cw, 4)) {
				memcpy(p, &cw, 4);
				xe_invalidate(m->eng, c, w->addr, 4);
			}
		}
	}
	for (size_t i = 0; i < m->nwd; i++) {
		struct wdata *d = m->wd[i];

		io_struct(io, d, sizeof(*d), wdata_keep, NKEEP(wdata_keep));
		IO_ARR(io, d->wids, d->nw, d->capw);
	}
	for (unsigned c = 0; c < m->ncpus; c++) {
		struct xmcpu *p = &m->cpu[c];

		io_struct(io, p, sizeof(*p), xmcpu_keep, NKEEP(xmcpu_keep));
		IO_ARR(io, p->pend.v, p->pend.n, p->pend.cap);
	}
	IO_ARR(io, m->icev, m->nicev, m->capicev);
	IO(io, m->vseq);
}

/* A store buffer: its stores, epoch, gates and the reduction's names; not
 * its channels (they only grow over a walk) nor its configuration. */
static const struct keep sbuf_keep[] = {
	KEEP(struct xsbuf, m), KEEP(struct xsbuf, agent), KEEP(struct xsbuf, owner),
	KEEP(struct xsbuf, v), KEEP(struct xsbuf, cap), KEEP(struct xsbuf, chan),
	KEEP(struct xsbuf, nchan), KEEP(struct xsbuf, chan_full),
	KEEP(struct xsbuf, chans), KEEP(struct xsbuf, insn_exempt),
	KEEP(struct xsbuf, need), KEEP(struct xsbuf, capneed), KEEP(struct xsbuf, shared),
};

static void io_sbuf(struct xio *io, struct xsbuf *b)
{
	io_struct(io, b, sizeof(*b), sbuf_keep, NKEEP(sbuf_keep));
	IO_ARR(io, b->v, b->n, b->cap);
	IO_ARR(io, b->need, b->nneed, b->capneed);
}

/* The plans: each one's progress (a live plan's steps with it), and the
 * queue's. The plans themselves are the world's (their number is checked
 * by xsv_restore). */
static const struct keep xplan_keep[] = {
	KEEP(struct xplan, p), KEEP(struct xplan, fn), KEEP(struct xplan, arg),
	KEEP(struct xplan, orig), KEEP(struct xplan, live),
};
static const struct keep xplans_keep[] = {
	KEEP(struct xplans, ex), KEEP(struct xplans, m), KEEP(struct xplans, sb),
	KEEP(struct xplans, cpu), KEEP(struct xplans, ncpus),
	KEEP(struct xplans, stop_anywhere), KEEP(struct xplans, v),
	KEEP(struct xplans, n), KEEP(struct xplans, cap), KEEP(struct xplans, pend),
};

static void io_plans(struct xio *io, struct xplans *ps)
{
	io_struct(io, ps, sizeof(*ps), xplans_keep, NKEEP(xplans_keep));
	for (size_t i = 0; i < ps->n; i++) {
		struct xplan *p = &ps->v[i];

		io_struct(io, p, sizeof(*p), xplan_keep, NKEEP(xplan_keep));
		if (p->live)
			IO_ARR(io, p->p.steps, p->p.n, p->p.cap);
	}
	for (int a = 0; a < PLAN_AGENTS; a++)
		IO_ARR(io, ps->pend[a].v, ps->pend[a].n, ps->pend[a].cap);
}

/* The scheduler's fields a run changes between its picks (the reduced
 * walk's record is exec_dpor.c's, resumed by xd_resume). */
static void io_sched(struct xio *io, struct xsched *s)
{
	IO(io, s->dfs_depth);
	IO(io, s->force_pos);
	IO(io, s->force_step);
	IO(io, s->drain_chans);
	IO(io, s->drain_cand);
	IO(io, s->drain_pick);
	IO(io, s->vis);
	IO(io, s->drain_now);
}

static void xsv_walk(struct xio *io, struct ftv_exec *ex)
{
	IO(io, ex->truncated);
	IO(io, ex->guarded);
	IO(io, ex->cut);
	IO(io, ex->tail_armed);
	IO(io, ex->tail_set);
	IO(io, ex->stats.steps);
	IO(io, ex->run_step0);
	io_cpus(io, ex);
	io_log(io, &ex->log);
	io_model(io, &ex->model);
	io_sbuf(io, &ex->sb);
	for (unsigned c = 0; c < ex->cfg.ncpus; c++)
		io_sbuf(io, &ex->csb[c]);
	io_plans(io, &ex->plans);
	io_sched(io, &ex->sched);
}

/* --- save and restore -------------------------------------------------- */

int xsv_saveable(const struct ftv_exec *ex)
{
	const struct xengine *e = &ex->eng;
	size_t nb = (size_t)(e->ncpus + 1) * e->nregions;

	if (ex->model.arch_ctx || ex->cfg.drain_hold || ex->cfg.cpu_hold ||
	    ex->cfg.window_hold || ex->cfg.cpu_sbuf || !e->snap || !e->dirty)
		return 0;
	for (size_t k = 0; k < nb; k++) {
		size_t i = k % e->nregions;
		unsigned c = (unsigned)(k / e->nregions);
		const uint8_t *buf = c ? e->cpu[c - 1].copy[i] : (const uint8_t *)1;

		if (buf && !e->dirty[k].on)
			return 0;
	}
	return 1;
}

int xsv_save(struct ftv_exec *ex, struct xsave *s)
{
	struct xio io = { s, 0, 0, 0 };

	s->n = 0;
	s->nplans = ex->plans.n;
	s->nwi = ex->model.nwi;
	s->nwd = ex->model.nwd;
	xsv_walk(&io, ex);
	if (io.bad || xsv_save_mem(ex, s))
		return -1;
	return 0;
}

int xsv_restore(struct ftv_exec *ex, const struct xsave *s)
{
	struct xio io = { (struct xsave *)s, 1, 0, 0 };
	struct xmodel *m = &ex->model;

	if (s->nplans != ex->plans.n || s->nwi != ex->model.nwi ||
	    s->nwd != ex->model.nwd)
		return -1;
	/* the model first: the memory's restore reads what the saved run
	 * had written (winsn.written) */
	xsv_walk(&io, ex);
	if (io.bad || io.pos != s->n || xsv_restore_mem(ex, s))
		return -1;
	/* A view restored as ok must be what the engine runs: a word whose
	 * copy changed without its translations dropped (stale) is dropped
	 * now, as its next fetch would have (xm_fetch skips a word whose
	 * view is the value fetched). */
	for (size_t i = 0; i < m->nwi; i++) {
		struct winsn *w = m->wi[i];

		for (unsigned c = 0; c < m->ncpus; c++)
			if (w->view_ok[c] && w->stale[c]) {
				xe_invalidate(&ex->eng, c, w->addr, 4);
				w->stale[c] = 0;
			}
	}
	return 0;
}

void xsv_free(struct xsave *s)
{
	free(s->b);
	free(s->pg);
	free(s->data);
	memset(s, 0, sizeof(*s));
}

void xsv_fingerprint(struct ftv_exec *ex, struct xsave *tmp, uint64_t h[3])
{
	struct xio io = { tmp, 0, 0, 0 };
	uint64_t f = 0xcbf29ce484222325ULL;

	tmp->n = 0;
	xsv_walk(&io, ex);
	for (size_t i = 0; i < tmp->n; i++)
		f = (f ^ tmp->b[i]) * 0x100000001b3ULL;
	h[0] = io.bad ? 0 : f;
	h[1] = xsv_memory_hash(ex);
	h[2] = 0;
}
