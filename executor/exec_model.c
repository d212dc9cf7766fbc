/* The fetch model (exec_model.h): coherence order of watched instruction
 * words, what each CPU may fetch, cache maintenance, store visibility, and
 * the three generic checks (torn, cmodx, stale-data). See exec.h for the
 * rules and their sources. */
#include "executor/exec_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "executor/exec_report.h"
#include "util/vec.h"

/* Cache maintenance by VA acts on whole lines; 64 bytes is the line size of
 * every arm64 core Linux supports today (CTR_EL0.{I,D}minLine = 4). */
#define XM_LINE 64ULL

int xm_init(struct xmodel *m, struct sim_aspace *as, const struct xarch *arch,
	    struct xlog *log, struct xengine *eng, struct xsched *sched,
	    unsigned ncpus, int quiet_obs, int *oom, struct ftv_err *err)
{
	m->as = as;
	m->arch = arch;
	m->log = log;
	m->eng = eng;
	m->sched = sched;
	m->ncpus = ncpus;
	m->quiet_obs = quiet_obs;
	m->oom = oom;
	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		m->cpu[c].last_fetch_wid = -1;
	if (arch->ctx_new && !(m->arch_ctx = arch->ctx_new()))
		return ftv_errf(err, "out of memory");
	return 0;
}

void xm_cache_type(struct xmodel *m, int dic, int idc)
{
	m->dic = dic;
	m->idc = idc;
}

void xm_free(struct xmodel *m)
{
	for (size_t i = 0; i < m->nwi; i++) {
		free(m->wi[i]->coh);
		free(m->wi[i]);
	}
	for (size_t i = 0; i < m->nwd; i++) {
		free(m->wd[i]->wids);
		free(m->wd[i]);
	}
	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		free(m->cpu[c].pend.v);
	xg_free(&m->rd);
	xg_free(&m->stw);
	free(m->wi);
	free(m->wd);
	free(m->wds);
	free(m->fr);
	free(m->icev);
	if (m->arch_ctx)
		m->arch->ctx_free(m->arch_ctx);
}

void xm_reset(struct xmodel *m)
{
	for (size_t i = 0; i < m->nwi; i++) {
		struct winsn *w = m->wi[i];

		w->ncoh = 1;
		w->pou = w->ic = 0;
		w->returned = 0;
		for (unsigned c = 0; c < EXEC_MAX_CPUS; c++) {
			w->floor[c] = 0;
			w->last[c] = -1;
			w->view_ok[c] = 0;
			w->dread[c] = 0;
			w->written[c] = 0;
		}
	}
	for (size_t i = 0; i < m->nwd; i++) {
		m->wd[i]->wid[0] = m->wd[i]->wid[1] = m->wd[i]->init_wid;
		m->wd[i]->nw = 0;
	}
	for (unsigned c = 0; c < m->ncpus; c++) {
		m->cpu[c].pend.n = 0;
		m->cpu[c].last_fetch_wid = -1;
		m->cpu[c].ic_applied = 0;
		m->cpu[c].barrier_vseq = 0;
		m->cpu[c].dsb_vseq = 0;
		m->cpu[c].load_vseq = 0;
		m->cpu[c].dc_dep = 0;
		m->cpu[c].fetch_vseq = 0;
		m->cpu[c].ctrl_icev = 0;
		m->cpu[c].ic_vseq = 0;
		m->cpu[c].rd_vseq = 0;
	}
	m->nicev = 0;
	m->vseq = 0;
	if (m->arch_ctx)
		m->arch->ctx_reset(m->arch_ctx);
}

/* --- watched locations --------------------------------------------------- */

struct winsn *xm_insn(struct xmodel *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nwi;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->wi[mid]->addr == addr)
			return m->wi[mid];
		if (m->wi[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The first index of m->wds whose location starts at or above addr. */
static size_t data_lower(struct xmodel *m, uint64_t addr)
{
	size_t lo = 0, hi = m->nwd;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->wds[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

struct wdata *xm_data(struct xmodel *m, uint64_t addr)
{
	size_t i = data_lower(m, addr);

	return i < m->nwd && m->wds[i]->addr == addr ? m->wds[i] : NULL;
}

struct winsn *xm_watch_insn(struct xmodel *m, uint64_t addr)
{
	struct winsn *w;
	uint32_t v;
	int wid;
	size_t i;

	if (VEC_RESERVE(m->wi, m->capwi, m->nwi + 1))
		return NULL;
	sim_read32(m->as, addr, &v);
	wid = xl_write(m->log, addr, v, 4, -1, -1, -1, "initial");
	if (wid < 0)
		return NULL;
	xl_mark_initial(m->log);
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	for (i = m->nwi; i > 0 && m->wi[i - 1]->addr > addr; i--)
		m->wi[i] = m->wi[i - 1];
	m->wi[i] = w;
	w->id = m->nwi++;
	w->addr = addr;
	if (VEC_RESERVE(w->coh, w->capcoh, 1))
		return NULL;
	w->coh[0] = (struct xcoh){ wid, 0, 0 };
	w->ncoh = 1;
	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		w->last[c] = -1;
	return w;
}

struct wdata *xm_watch_data(struct xmodel *m, uint64_t addr, unsigned size,
			    uint64_t val)
{
	struct wdata *l;
	size_t at;
	int wid;

	if (VEC_RESERVE(m->wd, m->capwd, m->nwd + 1) ||
	    VEC_RESERVE(m->wds, m->capwds, m->nwd + 1))
		return NULL;
	wid = xl_write(m->log, addr, val, size, -1, -1, -1, "initial");
	if (wid < 0)
		return NULL;
	xl_mark_initial(m->log);
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->id = m->nwd;
	l->addr = addr;
	l->size = size;
	l->wid[0] = l->wid[1] = l->init_wid = wid;
	m->wd[m->nwd] = l;
	for (uint64_t g = addr >> 3; g <= (addr + size - 1) >> 3; g++)
		m->dbits[g % XM_DBITS / 64] |= 1ULL << (g % 64);
	at = data_lower(m, addr);
	memmove(&m->wds[at + 1], &m->wds[at],
		(m->nwd - at) * sizeof(*m->wds));
	m->wds[at] = l;
	m->nwd++;
	return l;
}

/* --- writes -------------------------------------------------------------- */

/* The data locations holding a byte of [addr, addr+size), size at most
 * XM_DATA_MAX, in the order they were watched, into hit (2 * XM_DATA_MAX
 * entries); their number. Every location is XM_DATA_MAX bytes at most at a
 * distinct address (exec_watch_data64), so they start in
 * [addr - (XM_DATA_MAX - 1), addr + size): a search of the sorted index
 * instead of a walk of every location (the replay's writes, with a
 * literal per traced site, spent an eighth of their time in that walk). */
static unsigned data_overlapping(struct xmodel *m, uint64_t addr,
				 unsigned size, struct wdata **hit)
{
	uint64_t from = addr >= XM_DATA_MAX - 1 ? addr - (XM_DATA_MAX - 1) : 0;
	unsigned n = 0;

	for (size_t i = data_lower(m, from);
	     i < m->nwd && m->wds[i]->addr < addr + size &&
	     n < 2 * XM_DATA_MAX; i++) {
		struct wdata *l = m->wds[i];
		unsigned k;

		if (addr >= l->addr + l->size)
			continue;
		k = n++;
		while (k > 0 && hit[k - 1]->id > l->id) {
			hit[k] = hit[k - 1];
			k--;
		}
		hit[k] = l;
	}
	return n;
}

int xm_write(struct xmodel *m, uint64_t addr, uint64_t val, unsigned size,
	     int plan, int step, int cpu, const char *what)
{
	int wid = xl_write(m->log, addr, val, size, plan, step, cpu, what);

	if (wid < 0)
		return -1;
	/* Writes to data locations are remembered in issue order for
	 * stale-data. */
	if ((plan >= 0 || cpu >= 0) && size <= XM_DATA_MAX) {
		struct wdata *hit[2 * XM_DATA_MAX];
		unsigned n = data_overlapping(m, addr, size, hit);

		for (unsigned k = 0; k < n; k++)
			if (VEC_PUSH(hit[k]->wids, hit[k]->nw, hit[k]->capw,
				     wid))
				*m->oom = 1;
	} else if (plan >= 0 || cpu >= 0) {
		for (size_t i = 0; i < m->nwd; i++) {
			struct wdata *l = m->wd[i];

			if (addr < l->addr + l->size && addr + size > l->addr) {
				if (VEC_PUSH(l->wids, l->nw, l->capw, wid))
					*m->oom = 1;
			}
		}
	}
	return wid;
}

/* Word w's `ic` (the newest write fetch must see after a context
 * synchronisation) becomes idx: remembered in order, so that each CPU can
 * catch up with the IC completions it must see (ic_apply). */
static void set_ic(struct xmodel *m, struct winsn *w, size_t idx)
{
	if (idx <= w->ic)
		return;
	w->ic = idx;
	/* What a context synchronisation applies changed (a DSB that
	 * completes no IC, or only DCs, changes nothing it reads). */
	xs_access(m->sched, XLOC(XLOC_IC, 0), XA_W);
	if (VEC_RESERVE(m->icev, m->capicev, m->nicev + 1)) {
		*m->oom = 1;
		return;
	}
	m->icev[m->nicev++] = (struct xicev){ w, idx };
}

static void set_pou(struct xmodel *m, struct winsn *w, size_t idx)
{
	if (idx > w->pou) {
		w->pou = idx;
		/* read by the IC IVAUs of w (ic_pou) */
		xs_access(m->sched, XLOC(XLOC_POU, w->id), XA_W);
	}
	/* DIC: instruction fetch is coherent with the PoU, no IC needed */
	if (m->dic)
		set_ic(m, w, w->pou);
}

/* cpu's floors take in the IC completions before the first `upto`. */
static void ic_apply(struct xmodel *m, unsigned cpu, size_t upto)
{
	for (size_t k = m->cpu[cpu].ic_applied; k < upto; k++) {
		struct winsn *w = m->icev[k].w;

		if (w->floor[cpu] < m->icev[k].idx)
			w->floor[cpu] = m->icev[k].idx;
	}
	if (upto > m->cpu[cpu].ic_applied)
		m->cpu[cpu].ic_applied = upto;
}

static void coh_append(struct xmodel *m, struct winsn *w, int wid)
{
	if (VEC_RESERVE(w->coh, w->capcoh, w->ncoh + 1)) {
		*m->oom = 1;
		return;
	}
	/* The IC completions before this write became visible: a CPU that
	 * fetches it can never again fetch anything they made old, at any
	 * watched word (herd: IC-ob, the instruction fetches of a CPU are
	 * ordered after what it has seen). */
	w->coh[w->ncoh++] = (struct xcoh){ wid, 0, ++m->vseq };
	/* IDC: data is coherent at the PoU, no DC needed */
	if (m->idc)
		set_pou(m, w, w->ncoh - 1);
	/* ... counting, with DIC, this write's own: a CPU that fetched it
	 * cannot fetch older at this word again (herd: with DIC the fetches
	 * of a CPU are ordered like its reads, coFF forbidden). */
	w->coh[w->ncoh - 1].icseq = m->nicev;
}

static int is_private(struct xmodel *m, uint64_t addr)
{
	struct sim_region *r = sim_region_at(m->as, addr);

	return r && (r->perms & SIM_X);
}

/* Every byte of [addr, addr+size) is in a watched word or data location. */
static int unwatched_free(struct xmodel *m, uint64_t addr, unsigned size)
{
	for (uint64_t a = addr; a < addr + size; a++) {
		struct wdata *hit[2 * XM_DATA_MAX];
		int in = xm_insn(m, a & ~3ULL) != NULL;

		if (!in)
			in = data_overlapping(m, a, 1, hit) > 0;
		if (!in)
			return 0;
	}
	return 1;
}

void xm_cpu_read(struct xmodel *m, uint64_t addr, int size)
{
	if (m->rd_frozen || size <= 0 || is_private(m, addr))
		return; /* (text is observed whatever reads it) */
	for (uint64_t a = addr & ~7ULL; a < addr + (uint64_t)size; a += 8) {
		int r = xg_add(&m->rd, a);

		if (r < 0)
			*m->oom = 1;
		else if (r > 0 && xg_has(&m->stw, a))
			m->rd_fresh = 1;
	}
}

int xm_observed(struct xmodel *m, uint64_t addr, unsigned size)
{
	if (!m->rd_known && !m->rd_frozen)
		return 1;
	if (is_private(m, addr) || xg_any(&m->rd, addr, size))
		return 1;
	for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4)
		if (xm_insn(m, a))
			return 1;
	/* (a watched data location only once a CPU has loaded it: the
	 * ftrace core's fields are watched whether or not the world's code
	 * reads them) */
	return 0;
}

/* A CPU may load watched data location l (xm_observed). */
static int data_observed(struct xmodel *m, const struct wdata *l)
{
	return (!m->rd_known && !m->rd_frozen) || is_private(m, l->addr) ||
	       xg_any(&m->rd, l->addr, l->size);
}

/* A write of [addr, addr+size) seen by data location l, if it holds any
 * of its bytes. */
static void data_written(struct xmodel *m, struct wdata *l, uint64_t addr,
			 unsigned size, int wid)
{
	if (addr < l->addr + l->size && addr + size > l->addr &&
	    data_observed(m, l))
		xs_access(m->sched, XLOC(XLOC_DATA, l->id), XA_W);
	if (addr < l->addr + 4 && addr + size > l->addr)
		l->wid[0] = wid;
	if (addr < l->addr + l->size && addr + size > l->addr + 4)
		l->wid[1] = wid;
}

/* A CPU's store to w became visible (write wid, the newest of w): its DCs
 * of the line that waited for it are performed now (struct xpend.own). */
static void dc_own_store(struct xmodel *m, struct winsn *w, int wid)
{
	int c = m->log->wr[wid].cpu;
	struct xpendv *pend;

	if (c < 0 || (unsigned)c >= m->ncpus)
		return;
	pend = &m->cpu[c].pend;
	for (size_t i = 0; i < pend->n; i++)
		if (pend->v[i].own && pend->v[i].addr == w->addr) {
			pend->v[i].idx = w->ncoh - 1;
			pend->v[i].own = m->held && m->held(m->held_ctx, (unsigned)c, w->addr);
		}
}

void xm_store_visible(struct xmodel *m, uint64_t addr, unsigned size,
		      uint64_t val, int wid, int skip_cpu)
{
	uint8_t bytes[8];

	memcpy(bytes, &val, 8);
	/* The coherent view (and, for shared regions, the memory itself). */
	sim_write(m->as, addr, bytes, size, NULL);
	if (!is_private(m, addr) && xe_private(m->eng, addr)) {
		/* Data private to each CPU (store buffers): every copy gets
		 * the bytes, but a CPU's own buffered store to a byte still
		 * shadows it there (store forwarding). */
		for (unsigned c = 0; c < m->ncpus; c++) {
			uint8_t *p = xe_copy_ptr(m->eng, c, addr);

			if ((int)c == skip_cpu || !p)
				continue;
			for (unsigned k = 0; k < size; k++)
				if (!m->held || !m->held(m->held_ctx, c, addr + k))
					p[k] = bytes[k];
		}
	}
	if (is_private(m, addr)) {
		for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4) {
			struct winsn *w = xm_insn(m, a);
			uint32_t word;

			if (w) {
				/* A watched word: CPUs see it through the
				 * fetch model only. */
				xs_access(m->sched, XLOC(XLOC_INSN, w->id), XA_W);
				xs_access(m->sched, XLOC(XLOC_IC, 0), XA_R);
				sim_read32(m->as, a, &word);
				m->log->wr[wid].val = word;
				coh_append(m, w, wid);
				dc_own_store(m, w, wid);
				continue;
			}
			for (unsigned c = 0; c < m->ncpus; c++) {
				uint64_t lo = a > addr ? a : addr;
				uint64_t hi = a + 4 < addr + size ? a + 4
								  : addr + size;
				uint8_t *p;

				if ((int)c == skip_cpu)
					continue;
				p = xe_copy_ptr(m->eng, c, lo);
				if (p)
					memcpy(p, bytes + (lo - addr), hi - lo);
				if (!xm_data(m, a & ~7ULL))
					xe_invalidate(m->eng, c, a, 4);
			}
		}
	}
	if (m->sched->verify && skip_cpu < 0 && !is_private(m, addr))
		for (uint64_t a = addr & ~7ULL; a < addr + size; a += 8)
			if (xg_add(&m->stw, a) < 0)
				*m->oom = 1;
	if (xs_recording(m->sched) && !unwatched_free(m, addr, size) &&
	    xm_observed(m, addr, size))
		/* Bytes no watched location covers (the body of a new
		 * trampoline, an ops field nothing watches) that CPUs read
		 * without any event saying so. Data no CPU reads (a hash
		 * entry, a counter) is no one's business. */
		xs_access(m->sched, XLOC(XLOC_MEM, 0), XA_W);
	if (size <= XM_DATA_MAX) {
		struct wdata *hit[2 * XM_DATA_MAX];
		unsigned n = data_overlapping(m, addr, size, hit);

		for (unsigned k = 0; k < n; k++)
			data_written(m, hit[k], addr, size, wid);
	} else {
		for (size_t i = 0; i < m->nwd; i++)
			data_written(m, m->wd[i], addr, size, wid);
	}
}

void xm_cpu_store(struct xmodel *m, unsigned cpu, uint64_t addr,
		  unsigned size, uint64_t val)
{
	int wid = xm_write(m, addr, val, size, -1, -1, (int)cpu, "cpu store");

	if (wid < 0)
		return;
	xm_store_visible(m, addr, size, val, wid, (int)cpu);
	/* The writer's own view of a watched word is the model's business:
	 * make its next fetch re-install the value. */
	for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4) {
		struct winsn *w = xm_insn(m, a);

		if (w) {
			w->view_ok[cpu] = 0;
			w->written[cpu] = 1;
		}
	}
}

void xm_touch(struct xmodel *m, uint64_t addr, uint64_t len, unsigned mode)
{
	if (!xs_recording(m->sched))
		return;
	for (size_t i = 0; i < m->nwi; i++)
		if (m->wi[i]->addr < addr + len && m->wi[i]->addr + 4 > addr)
			xs_access(m->sched, XLOC(XLOC_INSN, m->wi[i]->id), mode);
	for (size_t i = 0; i < m->nwd; i++)
		if (m->wd[i]->addr < addr + len &&
		    m->wd[i]->addr + m->wd[i]->size > addr &&
		    data_observed(m, m->wd[i]))
			xs_access(m->sched, XLOC(XLOC_DATA, m->wd[i]->id), mode);
}

static void touch_all_insns(struct xmodel *m, unsigned mode)
{
	if (!xs_recording(m->sched))
		return;
	for (size_t i = 0; i < m->nwi; i++)
		xs_access(m->sched, XLOC(XLOC_INSN, m->wi[i]->id), mode);
}

int xm_add_free_range(struct xmodel *m, uint64_t addr, uint64_t len)
{
	struct xfree f = { addr, addr + len, 0 };

	for (size_t i = 0; i < m->nfree; i++)
		if (m->fr[i].lo == f.lo && m->fr[i].hi == f.hi)
			return 0;
	/* Text that is not watched word by word: a CPU may run it without
	 * any event saying so. */
	if (is_private(m, addr))
		for (uint64_t a = addr & ~3ULL; a < f.hi && !f.text; a += 4)
			f.text = !xm_insn(m, a);
	return VEC_PUSH(m->fr, m->nfree, m->capfr, f);
}

void xm_cpu_store_buffered(struct xmodel *m, unsigned cpu, uint64_t addr,
			   unsigned size)
{
	for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4) {
		struct winsn *w = xm_insn(m, a);

		if (w) {
			w->view_ok[cpu] = 0;
			w->written[cpu] = 1;
		}
	}
}

void xm_poison(struct xmodel *m, uint64_t addr, uint64_t len)
{
	xm_touch(m, addr, len, XA_W);
	for (size_t i = 0; i < m->nfree; i++)
		if (m->fr[i].lo < addr + len && m->fr[i].hi > addr) {
			xs_access(m->sched, XLOC(XLOC_FREE, i), XA_W);
			if (m->fr[i].text)
				xs_access(m->sched, XLOC(XLOC_MEM, 0), XA_W);
		}
	/* a region's part of the range at a time (unmapped bytes are
	 * skipped) */
	for (uint64_t a = addr, n; a < addr + len; a += n) {
		struct sim_region *r = sim_region_at(m->as, a);
		/* Text: zero words are UDF #0, permanently undefined (Arm ARM
		 * C6.2.365), and on RISC-V the all-zero 16-bit parcel is
		 * defined illegal (Unprivileged ISA, "Base Instruction-Length
		 * Encoding"), so the same poison traps on both; data:
		 * POISON_FREE (include/linux/poison.h). */
		uint8_t b;

		n = 1;
		if (!r)
			continue;
		n = r->base + r->size - a < addr + len - a ? r->base + r->size - a
							   : addr + len - a;
		b = r->perms & SIM_X ? 0 : 0x6b;
		memset(r->host + (a - r->base), b, n);
		if (xe_private(m->eng, a))
			for (unsigned c = 0; c < m->ncpus; c++) {
				uint8_t *p = xe_copy_ptr(m->eng, c, a);

				if (p)
					memset(p, b, n);
			}
	}
	for (size_t i = 0; i < m->nwi; i++)
		if (m->wi[i]->addr < addr + len && m->wi[i]->addr + 4 > addr)
			memset(m->wi[i]->written, 1, sizeof(m->wi[i]->written));
	if (is_private(m, addr))
		xe_invalidate_all(m->eng, addr, len);
	/* the patcher has written it (exec_observed: a replay must see the
	 * loads of it the walk saw) */
	else if (m->sched->verify)
		for (uint64_t a = addr & ~7ULL; a < addr + len; a += 8)
			if (xg_add(&m->stw, a) < 0)
				*m->oom = 1;
}

/* --- fetches ------------------------------------------------------------- */

static void check_cmodx(struct xmodel *m, unsigned cpu, struct winsn *w,
			size_t lo)
{
	const struct exec_write *wr = m->log->wr;

	for (size_t i = lo + 1; i < w->ncoh; i++) {
		uint32_t o = (uint32_t)wr[w->coh[i - 1].wid].val;
		uint32_t n = (uint32_t)wr[w->coh[i].wid].val;
		char where[128], so[128], sn[128], wd[160];

		if (o == n || m->arch->cmodx_safe(o, n))
			continue;
		sim_symbolize(m->as, w->addr, where, sizeof(where), 0);
		m->arch->word(o, w->addr, so, sizeof(so));
		m->arch->word(n, w->addr, sn, sizeof(sn));
		xr_write_desc(m->log, w->coh[i].wid, wd, sizeof(wd));
		xl_violation(m->log, EXEC_V_CMODX, (int)cpu, w->addr,
			     "cmodx: cpu%u step %llu fetched %s while it was being changed: %s -> %s %s; %s",
			     cpu, (unsigned long long)m->log->step, where, so,
			     sn,
			     "is not a concurrent-modification-safe pair (Arm ARM B2.2.5)",
			     wd);
		return;
	}
}

void xm_returned(struct xmodel *m, int plan, uint64_t addr)
{
	struct winsn *w = xm_insn(m, addr);

	if (!w)
		return;
	/* the completion and every later fetch of the word are dependent:
	 * the walk explores a fetch on both sides of it */
	xs_access(m->sched, XLOC(XLOC_INSN, w->id), XA_W);
	for (size_t k = w->ncoh; k-- > 1;)
		if (m->log->wr[w->coh[k].wid].plan == plan) {
			if (k > w->returned) {
				w->returned = k;
				w->returned_step = m->log->step;
			}
			return;
		}
}

/* The contract of a plan that returned (plan.visible_on_return): cpu
 * fetched entry k of w, older than what that plan wrote. On arm64 a CPU
 * executes a new instruction only after a context synchronisation event
 * once the cache maintenance is done (Arm ARM B2.2.5, "Concurrent
 * modification and execution of instructions": the other PEs need an
 * ISB or an exception); kick_all_cpus_sync() gives every CPU one. On
 * riscv64 each hart needs its own FENCE.I (Zifencei). */
static void check_returned(struct xmodel *m, unsigned cpu, struct winsn *w,
			   size_t k)
{
	char where[128], sold[128], snew[128], wd[160];
	const struct exec_write *wr = m->log->wr;
	uint32_t nv = (uint32_t)wr[w->coh[w->returned].wid].val;

	sim_symbolize(m->as, w->addr, where, sizeof(where), 0);
	m->arch->word((uint32_t)wr[w->coh[k].wid].val, w->addr, sold, sizeof(sold));
	m->arch->word(nv, w->addr, snew, sizeof(snew));
	xr_write_desc(m->log, w->coh[w->returned].wid, wd, sizeof(wd));
	xl_violation(m->log, EXEC_V_NOT_VISIBLE, (int)cpu, w->addr,
		     "not-visible: cpu%u step %llu executed %s at %s, but the update that "
		     "wrote %s there, %s, had returned at step %llu: this CPU had not "
		     "synchronised its instruction fetch since the write (no ISB or "
		     "exception on arm64, no FENCE.I on riscv64), so the patched "
		     "instruction was not visible to all CPUs when the update returned",
		     cpu, (unsigned long long)m->log->step, sold, where, snew, wd,
		     (unsigned long long)w->returned_step);
}

/* Only one value can be fetched and the engine already has it translated:
 * nothing to choose, nothing to check, no need to stop the engine. */
int xm_fetch_is_quiet(struct xmodel *m, unsigned cpu, struct winsn *w)
{
	return w->ncoh - 1 == w->floor[cpu] && w->view_ok[cpu] &&
	       w->view[cpu] ==
		       (uint32_t)m->log->wr[w->coh[w->ncoh - 1].wid].val;
}

void xm_fetch(struct xmodel *m, unsigned cpu, struct winsn *w, int quiet)
{
	size_t lo = w->floor[cpu], k;
	const struct exec_write *wr;
	uint32_t val;
	int wid;

	xs_access(m->sched, XLOC(XLOC_INSN, w->id), XA_R);
	xs_access(m->sched, XLOC_FLOOR_OF(w->id, cpu), XA_R);
	/* Any write from the CPU's floor to the newest may be fetched
	 * (SM.B+isb, coFF: allowed). */
	if (w->ncoh - 1 > lo)
		check_cmodx(m, cpu, w, lo);
	k = lo + xs_choose(m->sched, XCH_FETCH, (unsigned)(w->ncoh - lo));
	if (k < w->returned)
		check_returned(m, cpu, w, k);
	wid = w->coh[k].wid;
	wr = &m->log->wr[wid];
	val = (uint32_t)wr->val;
	if (!w->view_ok[cpu] || w->view[cpu] != val) {
		uint8_t *p = xe_copy_ptr(m->eng, cpu, w->addr);

		/* A copy that holds val already, translated from it, is
		 * kept: after a reset (which drops no view: xm_reset) the
		 * first fetch of each word by each CPU mostly sees the
		 * contents the reset put back, and dropping the
		 * translation anyway cost a block translated again per CPU
		 * per execution (issue 31: translation was 60% of a 3-CPU
		 * verify). */
		if (w->stale[cpu] || memcmp(p, &val, 4)) {
			memcpy(p, &val, 4);
			xe_invalidate(m->eng, cpu, w->addr, 4);
			w->stale[cpu] = 0;
		}
		w->view[cpu] = val;
		w->view_ok[cpu] = 1;
	}
	w->written[cpu] = 1;
	ic_apply(m, cpu, w->coh[k].icseq);
	if (w->coh[k].vseq > m->cpu[cpu].fetch_vseq)
		m->cpu[cpu].fetch_vseq = w->coh[k].vseq;
	w->last[cpu] = (int)k;
	if ((wr->plan >= 0 || wr->cpu >= 0) &&
	    wid > m->cpu[cpu].last_fetch_wid)
		m->cpu[cpu].last_fetch_wid = wid;
	if (m->arch->fetched)
		m->arch->fetched(m, cpu, w, wid);
	m->fetches++;
	if (quiet && m->quiet_obs)
		return;
	xl_obs(m->log, EXEC_OBS_FETCH, (int)cpu, w->addr, val, wid, wid);
	xl_event(m->log, (int)cpu, EXEC_EV_FETCH, w->addr, val);
}

/* --- loads of watched data ----------------------------------------------- */

static void data_load(struct xmodel *m, unsigned cpu, struct wdata *l,
		      uint64_t addr, int size, int record)
{
	const struct exec_write *wr = m->log->wr;
	uint8_t *p = xe_copy_ptr(m->eng, cpu, l->addr);
	int lo = addr < l->addr + 4;
	int hi = addr + (uint64_t)size > l->addr + 4;
	int last_fetch = m->cpu[cpu].last_fetch_wid;
	char where[128], wd[2][160];
	uint64_t v = 0;

	if (!p)
		return;
	xs_access(m->sched, XLOC(XLOC_DATA, l->id), XA_R);
	memcpy(&v, p, l->size);
	if (record)
		xl_obs(m->log, EXEC_OBS_LOAD, (int)cpu, l->addr, v, l->wid[0],
		       l->wid[1]);
	if (lo && hi && l->wid[0] != l->wid[1] && wr[l->wid[0]].val != v &&
	    wr[l->wid[1]].val != v) {
		xr_data_where(m->as, l->addr, where, sizeof(where));
		xr_write_desc(m->log, l->wid[0], wd[0], sizeof(wd[0]));
		xr_write_desc(m->log, l->wid[1], wd[1], sizeof(wd[1]));
		xl_violation(m->log, EXEC_V_TORN, (int)cpu, l->addr,
			     "torn: cpu%u step %llu read literal %s = 0x%016llx: low half from %s, high half from %s",
			     cpu, (unsigned long long)m->log->step, where,
			     (unsigned long long)v, wd[0], wd[1]);
	}
	if (last_fetch >= 0) {
		/* The newest write to this location issued before the newest
		 * instruction write this CPU has fetched. */
		int want = -1;

		for (size_t i = 0; i < l->nw; i++)
			if (l->wids[i] < last_fetch)
				want = l->wids[i];
		for (int h = 0; h < 2 && want >= 0; h++) {
			/* The initial contents predate every write. */
			int got = l->wid[h] == l->init_wid ? -1 : l->wid[h];

			if (!(h ? hi : lo) || got >= want)
				continue;
			xr_data_where(m->as, l->addr, where, sizeof(where));
			xr_write_desc(m->log, last_fetch, wd[0], sizeof(wd[0]));
			xr_write_desc(m->log, l->wid[h], wd[1], sizeof(wd[1]));
			xl_violation(m->log, EXEC_V_STALE_DATA, (int)cpu,
				     l->addr,
				     "stale-data: cpu%u step %llu fetched the instruction of %s, then read literal %s = 0x%016llx from %s, older than write #%d made before it",
				     cpu, (unsigned long long)m->log->step,
				     wd[0], where, (unsigned long long)v,
				     wd[1], want);
			break;
		}
	}
}

/* Every data location whose bytes hold the access's address gets the load,
 * in the order the locations were watched (what per-location hooks, in the
 * order they were added, gave when each had its own). */
int xm_load(struct xmodel *m, unsigned cpu, uint64_t addr, int size,
	    int record)
{
	struct wdata *hit[2 * XM_DATA_MAX];
	uint64_t g = addr >> 3;
	/* (the locations holding the access's first byte: at most
	 * XM_DATA_MAX, all at distinct addresses) */
	unsigned n = m->dbits[g % XM_DBITS / 64] >> (g % 64) & 1
			     ? data_overlapping(m, addr, 1, hit) : 0;

	for (unsigned k = 0; k < n; k++)
		data_load(m, cpu, hit[k], addr, size, record);
	for (size_t i = 0; i < m->nfree; i++)
		if (addr < m->fr[i].hi && addr + (uint64_t)size > m->fr[i].lo)
			xs_access(m->sched, XLOC(XLOC_FREE, i), XA_R);
	return (int)n;
}

/* --- synchronisation and cache maintenance ------------------------------- */

void xm_context_sync(struct xmodel *m, unsigned cpu)
{
	/* A context synchronisation event discards what the CPU fetched
	 * before it: it now sees every write IC IVAU has completed for. */
	xs_access(m->sched, XLOC(XLOC_IC, 0), XA_R);
	ic_apply(m, cpu, m->nicev);
}

void xm_context_sync_early(struct xmodel *m, unsigned cpu)
{
	size_t lo = m->cpu[cpu].ctrl_icev;

	xs_access(m->sched, XLOC(XLOC_IC, 0), XA_R);
	if (lo < m->cpu[cpu].ic_applied)
		lo = m->cpu[cpu].ic_applied;
	if (lo >= m->nicev) {
		ic_apply(m, cpu, m->nicev);
		return;
	}
	ic_apply(m, cpu, lo + xs_choose(m->sched, XCH_FETCH,
					 (unsigned)(m->nicev - lo + 1)));
}

void xm_cpu_ctrl(struct xmodel *m, unsigned cpu)
{
	xs_access(m->sched, XLOC(XLOC_IC, 0), XA_R);
	m->cpu[cpu].ctrl_icev = m->nicev;
	m->cpu[cpu].ic_vseq = m->vseq;
}

/* A context synchronisation of cpu would raise its floor of w: an IC
 * completion of w it has not applied is newer than the floor. */
static int ic_would_raise(const struct xmodel *m, unsigned cpu,
			  const struct winsn *w)
{
	for (size_t k = m->cpu[cpu].ic_applied; k < m->nicev; k++)
		if (m->icev[k].w == w && m->icev[k].idx > w->floor[cpu])
			return 1;
	return 0;
}

void xm_context_sync_all(struct xmodel *m)
{
	/* Every CPU's floors: what each may fetch next. Only the floors this
	 * raises are written: a CPU's fetch of a word whose floor stays has
	 * the choices it had (a fetch applies the IC completions before the
	 * write it sees itself, ic_apply), so the step commutes with it. */
	if (m->coarse)
		touch_all_insns(m, XA_W);
	for (size_t i = 0; i < m->nwi && xs_recording(m->sched) && !m->coarse; i++)
		for (unsigned c = 0; c < m->ncpus; c++)
			if (ic_would_raise(m, c, m->wi[i]))
				xs_access(m->sched, XLOC_FLOOR_OF(m->wi[i]->id, c),
					  XA_W);
	for (unsigned c = 0; c < m->ncpus; c++)
		xm_context_sync(m, c);
}

void xm_fence_i(struct xmodel *m, unsigned cpu)
{
	/* FENCE.I (Zifencei): this hart's later fetches see every store
	 * visible before it, i.e. every write that left the store buffer. */
	touch_all_insns(m, XA_R);
	for (size_t i = 0; i < m->nwi; i++)
		if (m->wi[i]->floor[cpu] < m->wi[i]->ncoh - 1)
			m->wi[i]->floor[cpu] = m->wi[i]->ncoh - 1;
}

/* RISC-V flush_icache_all(): every hart executes FENCE.I (an IPI or SBI
 * remote fence.i), after every store has drained (PLAN_SYNC_ALL waits for
 * the store buffer): all writes so far become fetchable everywhere and stay
 * the floor of later context synchronisations. */
void xm_flush_icache_all(struct xmodel *m)
{
	xs_access(m->sched, XLOC(XLOC_IC, 0), XA_W);
	for (size_t i = 0; i < m->nwi; i++)
		set_ic(m, m->wi[i], m->wi[i]->ncoh - 1);
	xm_context_sync_all(m);
}

/* What an IC IVAU of the agent reads at the PoU for w: the PoU now, or
 * (a choice) the PoU without what only the agent's own DSB would order
 * before the IC: a DC of the line that a DMB completed since its last
 * DSB, and, with IDC (the PoU is memory), its own writes since then. A
 * DMB orders memory accesses, not cache maintenance: herd's aarch64.cat
 * orders [DC]; po; [IC] and [W]; po; [IC] (IC-after, IC-ca) through
 * dsb.full only, and the Arm ARM's sequence (B2.4.4, D7.5.9) has a DSB
 * between the store, DC CVAU and IC IVAU, IDC or not. Nor is a CPU's IC
 * ordered after its earlier loads but by a DSB or a control dependency
 * (aarch64.cat: DSB-ob, dob's ctrl; [IC]; bob, DMB and acquire, names no
 * IC), and after the fetches before it (f-ob): it may be performed before
 * the loads since, reading the PoU of then, no newer than the newest
 * write visible at that point (LDR; DMB ISH; IC IVAU: herd Allowed). */
static size_t ic_pou(struct xmodel *m, const struct xpendv *pend,
		     const struct winsn *w)
{
	size_t old = w->pou;

	for (size_t i = 0; i < pend->n; i++)
		if (pend->v[i].dmb_done && pend->v[i].addr == w->addr &&
		    pend->v[i].idx < old)
			old = pend->v[i].idx;
	for (unsigned c = 0; c < m->ncpus; c++) {
		uint64_t bound = m->cpu[c].ic_vseq;

		if (pend != &m->cpu[c].pend)
			continue;
		if (m->cpu[c].fetch_vseq > bound)
			bound = m->cpu[c].fetch_vseq;
		/* ... and after the load its address depends on (addr; [IC]) */
		if (m->cpu[c].dc_dep && m->cpu[c].load_vseq > bound)
			bound = m->cpu[c].load_vseq;
		while (old > 0 && w->coh[old].vseq > bound &&
		       m->log->wr[w->coh[old].wid].cpu != (int)c)
			old--;
		if (!m->idc)
			continue;
		while (old > 0 && m->log->wr[w->coh[old].wid].cpu == (int)c &&
		       w->coh[old].vseq > m->cpu[c].dsb_vseq)
			old--;
	}
	if (old == w->pou)
		return old;
	return xs_choose(m->sched, XCH_FETCH, 2) ? w->pou : old;
}

void xm_cache_op(struct xmodel *m, struct xpendv *pend, int ic,
		 uint64_t addr, uint64_t len)
{
	uint64_t lo = addr & ~(XM_LINE - 1);
	uint64_t hi = (addr + (len ? len : 1) + XM_LINE - 1) & ~(XM_LINE - 1);

	for (size_t i = 0; i < m->nwi; i++) {
		struct winsn *w = m->wi[i];

		if (w->addr < lo || w->addr >= hi)
			continue;
		xs_access(m->sched, XLOC(XLOC_INSN, w->id), XA_R);
		xs_access(m->sched, XLOC(XLOC_IC, 0), XA_R);
		xs_access(m->sched, XLOC(XLOC_POU, w->id), XA_R);
		if (VEC_RESERVE(pend->v, pend->cap, pend->n + 1)) {
			*m->oom = 1;
			return;
		}
		/* DC CVAU cleans what is coherent now; IC IVAU can only
		 * expose to fetch what had reached the PoU when it ran (with
		 * IDC=0, DIC=0: no DSB between them, no ordering). */
		pend->v[pend->n++] = (struct xpend){
			ic, w->addr, ic ? ic_pou(m, pend, w) : w->ncoh - 1, 0, 0 };
	}
}

void xm_cache_op_all(struct xmodel *m, struct xpendv *pend, int ic)
{
	for (size_t i = 0; i < m->nwi; i++)
		xm_cache_op(m, pend, ic, m->wi[i]->addr, 4);
}

void xm_dsb(struct xmodel *m, struct xpendv *pend)
{
	/* DSB waits for the issuer's cache maintenance to complete: what it
	 * changes for the other agents is the IC completions (set_ic) and
	 * the PoU (set_pou), each recorded where it changes. */
	if (m->coarse && pend->n)
		xs_access(m->sched, XLOC(XLOC_IC, 0), XA_W);
	for (size_t i = 0; i < pend->n; i++) {
		struct winsn *w = xm_insn(m, pend->v[i].addr);

		if (!w || pend->v[i].dmb_done)
			continue;
		if (pend->v[i].ic)
			set_ic(m, w, pend->v[i].idx);
		else
			set_pou(m, w, pend->v[i].idx);
	}
	pend->n = 0;
}

void xm_cpu_dc(struct xmodel *m, unsigned cpu, uint64_t addr)
{
	struct xpendv *pend = &m->cpu[cpu].pend;
	size_t first = pend->n;

	xm_cache_op(m, pend, 0, addr, 4);
	for (size_t i = first; i < pend->n; i++) {
		struct winsn *w = xm_insn(m, pend->v[i].addr);
		size_t k;

		if (!w)
			continue;
		/* The newest write visible at the CPU's last full barrier:
		 * a DC may be performed as early as that (before loads and
		 * stores since, which DMB LD/ST do not order with it). */
		uint64_t seen = m->cpu[cpu].barrier_vseq;

		if (m->cpu[cpu].fetch_vseq > seen)
			seen = m->cpu[cpu].fetch_vseq;
		/* ... and after the load its address depends on (herd's
		 * addr; [DC]: exec_order_point) */
		if (m->cpu[cpu].dc_dep && m->cpu[cpu].load_vseq > seen)
			seen = m->cpu[cpu].load_vseq;
		/* ... and after its loads of the same line (herd: po & scl) */
		for (size_t j = 0; j < m->nwi; j++)
			if ((m->wi[j]->addr & ~(XM_LINE - 1)) ==
				    (w->addr & ~(XM_LINE - 1)) &&
			    m->wi[j]->dread[cpu] > seen)
				seen = m->wi[j]->dread[cpu];
		for (k = w->ncoh - 1; k > 0; k--)
			if (w->coh[k].vseq <= seen)
				break;
		/* ... and after the CPU's own writes to the line */
		for (size_t j = w->ncoh - 1; j > k; j--)
			if (m->log->wr[w->coh[j].wid].cpu == (int)cpu) {
				k = j;
				break;
			}
		pend->v[i].idx = k;
		/* ... and after its store there still in its buffer: the DC is
		 * performed when that store is (herd: [W]; (po & scl); [DC]),
		 * while its later stores to other lines may pass both (no
		 * barrier orders them: the DC's line alone, po-scl-ob) */
		pend->v[i].own = m->held && m->held(m->held_ctx, cpu, w->addr);
	}
}

void xm_cpu_barrier(struct xmodel *m, unsigned cpu, enum xm_barrier kind)
{
	struct xpendv *pend = &m->cpu[cpu].pend;
	size_t n = 0;

	m->cpu[cpu].barrier_vseq = m->vseq;
	m->cpu[cpu].rd_vseq = m->vseq;
	if (kind == XM_ORDER)
		return;
	if (kind == XM_DSB) {
		xm_dsb(m, pend);
		m->cpu[cpu].dsb_vseq = m->vseq;
		m->cpu[cpu].ic_vseq = m->vseq;
		return;
	}
	/* DMB: the DCs complete for every later access; the ICs wait for a
	 * DSB (only DSB orders IC IVAU, Arm ARM D7.5.9). A completed DC is
	 * kept, marked, for the CPU's own later IC (ic_pou) until its DSB. */
	for (size_t i = 0; i < pend->n; i++) {
		struct winsn *w = xm_insn(m, pend->v[i].addr);

		if (!pend->v[i].ic && w && !pend->v[i].dmb_done) {
			size_t before = w->pou;

			set_pou(m, w, pend->v[i].idx);
			pend->v[i].dmb_done = 1;
			pend->v[i].idx = before;
		}
		if (pend->v[i].ic || pend->v[i].dmb_done)
			pend->v[n++] = pend->v[i];
	}
	pend->n = n;
}

void xm_text_load_word(struct xmodel *m, unsigned cpu, struct winsn *w,
		       uint32_t v)
{
	uint8_t *p = xe_copy_ptr(m->eng, cpu, w->addr);

	/* The copy holds what this CPU fetched; its next fetch puts that
	 * back. */
	if (p)
		memcpy(p, &v, 4);
	w->view_ok[cpu] = 0;
	w->stale[cpu] = 1;
	w->written[cpu] = 1;
	w->dread[cpu] = w->coh[w->ncoh - 1].vseq;
}

void xm_cpu_load_order(struct xmodel *m, unsigned cpu)
{
	m->cpu[cpu].rd_vseq = m->vseq;
}

void xm_text_load_early(struct xmodel *m, unsigned cpu, struct winsn *w)
{
	const struct xmcpu *c = &m->cpu[cpu];
	uint64_t bound = c->rd_vseq;
	size_t lo, k;

	/* coherence: not older than what this CPU read there last */
	if (w->dread[cpu] > bound)
		bound = w->dread[cpu];
	for (lo = w->ncoh - 1; lo > 0; lo--)
		if (w->coh[lo].vseq <= bound)
			break;
	/* ... nor than its own writes there */
	for (k = w->ncoh - 1; k > lo; k--)
		if (m->log->wr[w->coh[k].wid].cpu == (int)cpu) {
			lo = k;
			break;
		}
	k = lo + xs_choose(m->sched, XCH_FETCH, (unsigned)(w->ncoh - lo));
	xm_text_load_word(m, cpu, w, (uint32_t)m->log->wr[w->coh[k].wid].val);
	w->dread[cpu] = w->coh[k].vseq;
}

void xm_text_load(struct xmodel *m, unsigned cpu, uint64_t addr, int size)
{
	for (uint64_t a = addr & ~3ULL; a < addr + (uint64_t)size; a += 4) {
		struct winsn *w = xm_insn(m, a);

		/* A load reads memory, not the instruction stream: the
		 * newest visible write. */
		if (w)
			xm_text_load_word(m, cpu, w,
					  (uint32_t)m->log->wr[w->coh[w->ncoh - 1].wid].val);
	}
}
