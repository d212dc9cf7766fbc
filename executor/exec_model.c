/* The memory model: coherence order of watched instruction words, what each
 * CPU may fetch, cache maintenance, the patcher's store buffer, the plan
 * steps, and the three checks (torn, cmodx, stale-data). See exec.h for the
 * rules and their sources. */
#include "executor/exec_int.h"

#include <stdio.h>
#include <string.h>

/* Cache maintenance by VA acts on whole lines; 64 bytes is the line size of
 * every arm64 core Linux supports today (CTR_EL0.{I,D}minLine = 4). */
#define XM_LINE 64ULL

#define GROW(ex, arr, n, cap) \
	((arr) = xc_grow((arr), &(cap), (n) + 1, sizeof(*(arr)), &(ex)->oom), \
	 !(ex)->oom)

struct winsn *xm_insn(struct ftv_exec *ex, uint64_t addr)
{
	size_t lo = 0, hi = ex->nwi;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ex->wi[mid]->addr == addr)
			return ex->wi[mid];
		if (ex->wi[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

struct wlit *xm_lit(struct ftv_exec *ex, uint64_t addr)
{
	size_t i = xm_lit_lower(ex, addr);

	return i < ex->nwl && ex->wls[i]->addr == addr ? ex->wls[i] : NULL;
}

size_t xm_lit_lower(struct ftv_exec *ex, uint64_t addr)
{
	size_t lo = 0, hi = ex->nwl;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ex->wls[mid]->addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int xm_new_write(struct ftv_exec *ex, uint64_t addr, uint64_t val,
		 unsigned size, int plan, int step, int cpu, const char *what)
{
	int wid;

	if (!GROW(ex, ex->wr, ex->nwr, ex->capwr))
		return -1;
	wid = (int)ex->nwr++;
	ex->wr[wid] = (struct exec_write){ addr, val, size, plan, step, cpu,
					   what };
	/* Literal writes are remembered in issue order for stale-data. */
	if (plan >= 0 || cpu >= 0)
		for (size_t i = 0; i < ex->nwl; i++) {
			struct wlit *l = ex->wl[i];

			if (addr < l->addr + 8 && addr + size > l->addr &&
			    GROW(ex, l->wids, l->nw, l->capw))
				l->wids[l->nw++] = wid;
		}
	return wid;
}

static void coh_append(struct ftv_exec *ex, struct winsn *w, int wid)
{
	size_t cap = w->capcoh;

	if (!GROW(ex, w->coh, w->ncoh, w->capcoh))
		return;
	if (w->capcoh != cap) {
		size_t *f = realloc(w->icfloor, w->capcoh * sizeof(*f));

		if (!f) {
			ex->oom = 1;
			return;
		}
		w->icfloor = f;
	}
	w->coh[w->ncoh] = wid;
	/* What IC IVAU had pushed to fetch when this write was made: a CPU
	 * that fetches this write can never again fetch anything older. */
	w->icfloor[w->ncoh] = w->ic;
	w->ncoh++;
}

static int is_private(struct ftv_exec *ex, uint64_t addr)
{
	struct sim_region *r = sim_region_at(ex->as, addr);

	return r && (r->perms & SIM_X);
}

void xm_store_visible(struct ftv_exec *ex, uint64_t addr, unsigned size,
		      uint64_t val, int wid, int skip_cpu)
{
	uint8_t bytes[8];

	memcpy(bytes, &val, 8);
	/* The coherent view (and, for shared regions, the memory itself). */
	sim_write(ex->as, addr, bytes, size, NULL);
	if (is_private(ex, addr)) {
		for (uint64_t a = addr & ~3ULL; a < addr + size; a += 4) {
			struct winsn *w = xm_insn(ex, a);
			uint32_t word;

			if (w) {
				/* A watched word: CPUs see it through the
				 * fetch model only. */
				sim_read32(ex->as, a, &word);
				ex->wr[wid].val = word;
				coh_append(ex, w, wid);
				continue;
			}
			for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
				uint64_t lo = a > addr ? a : addr;
				uint64_t hi = a + 4 < addr + size ? a + 4
								  : addr + size;
				uint8_t *p;

				if ((int)c == skip_cpu)
					continue;
				p = xc_copy_ptr(&ex->cpu[c], lo);
				if (p)
					memcpy(p, bytes + (lo - addr), hi - lo);
				if (!xm_lit(ex, a & ~7ULL))
					xc_remove_cache(&ex->cpu[c], a, 4);
			}
		}
	}
	for (size_t i = 0; i < ex->nwl; i++) {
		struct wlit *l = ex->wl[i];

		if (addr < l->addr + 4 && addr + size > l->addr)
			l->wid[0] = wid;
		if (addr < l->addr + 8 && addr + size > l->addr + 4)
			l->wid[1] = wid;
	}
}

static void record_obs(struct ftv_exec *ex, enum exec_obs_kind kind, int cpu,
		       uint64_t addr, uint64_t val, int w0, int w1)
{
	if (ex->nobs >= xc_record_max(ex)) {
		ex->stats.dropped++;
		return;
	}
	if (!GROW(ex, ex->obs, ex->nobs, ex->capobs))
		return;
	ex->obs[ex->nobs++] = (struct exec_obs){ kind, cpu, ex->step, addr,
						 val, { w0, w1 } };
}

static void check_cmodx(struct ftv_exec *ex, struct xcpu *c, struct winsn *w,
			size_t lo)
{
	for (size_t i = lo + 1; i < w->ncoh; i++) {
		uint32_t o = (uint32_t)ex->wr[w->coh[i - 1]].val;
		uint32_t n = (uint32_t)ex->wr[w->coh[i]].val;
		char where[128], so[128], sn[128], wd[160];

		if (o == n || ex->arch->cmodx_safe(o, n))
			continue;
		sim_symbolize(ex->as, w->addr, where, sizeof(where), 0);
		xr_word(ex, o, w->addr, so, sizeof(so));
		xr_word(ex, n, w->addr, sn, sizeof(sn));
		xr_write_desc(ex, w->coh[i], wd, sizeof(wd));
		xc_violation(ex, EXEC_V_CMODX, (int)c->idx, w->addr,
			     "cmodx: cpu%u step %llu fetched %s while it was being changed: %s -> %s %s; %s",
			     c->idx, (unsigned long long)ex->step, where, so,
			     sn,
			     "is not a concurrent-modification-safe pair (Arm ARM B2.2.5)",
			     wd);
		return;
	}
}

/* Only one value can be fetched and the engine already has it translated:
 * nothing to choose, nothing to check, no need to stop the engine. */
int xm_fetch_is_quiet(struct ftv_exec *ex, struct xcpu *c, struct winsn *w)
{
	unsigned ci = c->idx;

	return w->ncoh - 1 == w->floor[ci] && w->view_ok[ci] &&
	       w->view[ci] == (uint32_t)ex->wr[w->coh[w->ncoh - 1]].val;
}

void xm_fetch(struct ftv_exec *ex, struct xcpu *c, struct winsn *w, int quiet)
{
	unsigned ci = c->idx;
	size_t lo = w->floor[ci], k;
	uint32_t val;
	int wid;

	/* Any write from the CPU's floor to the newest may be fetched
	 * (SM.B+isb, coFF: allowed). */
	if (w->ncoh - 1 > lo)
		check_cmodx(ex, c, w, lo);
	k = lo + xs_choose(ex, (unsigned)(w->ncoh - lo));
	wid = w->coh[k];
	val = (uint32_t)ex->wr[wid].val;
	if (!w->view_ok[ci] || w->view[ci] != val) {
		uint8_t *p = xc_copy_ptr(c, w->addr);

		memcpy(p, &val, 4);
		xc_remove_cache(c, w->addr, 4);
		w->view[ci] = val;
		w->view_ok[ci] = 1;
	}
	if (w->icfloor[k] > w->floor[ci])
		w->floor[ci] = w->icfloor[k];
	w->last[ci] = (int)k;
	if ((ex->wr[wid].plan >= 0 || ex->wr[wid].cpu >= 0) &&
	    wid > c->last_fetch_wid)
		c->last_fetch_wid = wid;
	if (ex->arch->arch == FTV_ARCH_RISCV64) {
		xp_pair_check(ex, c, w, wid);
		c->prev_ok = 1;
		c->prev_addr = w->addr;
		c->prev_val = val;
		c->prev_wid = wid;
	}
	ex->stats.fetches++;
	if (quiet && ex->cfg.quiet_obs)
		return;
	record_obs(ex, EXEC_OBS_FETCH, (int)ci, w->addr, val, wid, wid);
	xc_event(ex, (int)ci, EXEC_EV_FETCH, w->addr, val);
}

void xm_context_sync(struct ftv_exec *ex, struct xcpu *c)
{
	/* A context synchronisation event discards what the CPU fetched
	 * before it: it now sees every write IC IVAU has completed for. */
	for (size_t i = 0; i < ex->nwi; i++)
		if (ex->wi[i]->floor[c->idx] < ex->wi[i]->ic)
			ex->wi[i]->floor[c->idx] = ex->wi[i]->ic;
}

void xm_fence_i(struct ftv_exec *ex, struct xcpu *c)
{
	/* FENCE.I (Zifencei): this hart's later fetches see every store
	 * visible before it, i.e. every write that left the store buffer. */
	for (size_t i = 0; i < ex->nwi; i++)
		if (ex->wi[i]->floor[c->idx] < ex->wi[i]->ncoh - 1)
			ex->wi[i]->floor[c->idx] = ex->wi[i]->ncoh - 1;
}

void xm_cache_op(struct ftv_exec *ex, struct xpend **pend, size_t *npend,
		 size_t *cap, int ic, uint64_t addr, uint64_t len)
{
	uint64_t lo = addr & ~(XM_LINE - 1);
	uint64_t hi = (addr + (len ? len : 1) + XM_LINE - 1) & ~(XM_LINE - 1);

	for (size_t i = 0; i < ex->nwi; i++) {
		struct winsn *w = ex->wi[i];

		if (w->addr < lo || w->addr >= hi)
			continue;
		*pend = xc_grow(*pend, cap, *npend + 1, sizeof(**pend),
				&ex->oom);
		if (ex->oom)
			return;
		/* DC CVAU cleans what is coherent now; IC IVAU can only
		 * expose to fetch what had reached the PoU when it ran (with
		 * IDC=0, DIC=0: no DSB between them, no ordering). */
		(*pend)[(*npend)++] = (struct xpend){
			ic, w->addr, ic ? w->pou : w->ncoh - 1 };
	}
}

void xm_dsb(struct ftv_exec *ex, struct xpend *pend, size_t *npend)
{
	/* DSB waits for the issuer's cache maintenance to complete. */
	for (size_t i = 0; i < *npend; i++) {
		struct winsn *w = xm_insn(ex, pend[i].addr);

		if (!w)
			continue;
		if (pend[i].ic && pend[i].idx > w->ic)
			w->ic = pend[i].idx;
		if (!pend[i].ic && pend[i].idx > w->pou)
			w->pou = pend[i].idx;
	}
	*npend = 0;
}

/* A CALL_OPS literal sits just before its function: name it "func-0x8". */
static void lit_where(struct ftv_exec *ex, uint64_t addr, char *buf, size_t n)
{
	const struct sim_symbol *s = sim_sym_at(ex->as, addr);

	if (!s) {
		s = sim_sym_at(ex->as, addr + 8);
		if (s && s->addr == addr + 8) {
			snprintf(buf, n, "%s-0x8", s->name);
			return;
		}
	}
	sim_symbolize(ex->as, addr, buf, n, 0);
}

void xm_lit_load(struct ftv_exec *ex, struct xcpu *c, struct wlit *l,
		 uint64_t addr, int size)
{
	uint8_t *p = xc_copy_ptr(c, l->addr);
	int lo = addr < l->addr + 4;
	int hi = addr + (uint64_t)size > l->addr + 4;
	char where[128], wd[2][160];
	uint64_t v;

	if (!p)
		return;
	memcpy(&v, p, 8);
	/* Quiet mode keeps loads made while nothing is in flight out of the
	 * record (the checks below still run on every load). */
	if (!ex->cfg.quiet_obs || ex->cur_plan < ex->nplans || ex->nsb)
		record_obs(ex, EXEC_OBS_LOAD, (int)c->idx, l->addr, v,
			   l->wid[0], l->wid[1]);
	if (lo && hi && l->wid[0] != l->wid[1] &&
	    ex->wr[l->wid[0]].val != v && ex->wr[l->wid[1]].val != v) {
		lit_where(ex, l->addr, where, sizeof(where));
		xr_write_desc(ex, l->wid[0], wd[0], sizeof(wd[0]));
		xr_write_desc(ex, l->wid[1], wd[1], sizeof(wd[1]));
		xc_violation(ex, EXEC_V_TORN, (int)c->idx, l->addr,
			     "torn: cpu%u step %llu read literal %s = 0x%016llx: low half from %s, high half from %s",
			     c->idx, (unsigned long long)ex->step, where,
			     (unsigned long long)v, wd[0], wd[1]);
	}
	if (c->last_fetch_wid >= 0) {
		/* The newest write to this literal issued before the newest
		 * instruction write this CPU has fetched. */
		int want = -1;

		for (size_t i = 0; i < l->nw; i++)
			if (l->wids[i] < c->last_fetch_wid)
				want = l->wids[i];
		for (int h = 0; h < 2 && want >= 0; h++) {
			/* The initial contents predate every write. */
			int got = l->wid[h] == l->init_wid ? -1 : l->wid[h];

			if (!(h ? hi : lo) || got >= want)
				continue;
			lit_where(ex, l->addr, where, sizeof(where));
			xr_write_desc(ex, c->last_fetch_wid, wd[0],
				      sizeof(wd[0]));
			xr_write_desc(ex, l->wid[h], wd[1], sizeof(wd[1]));
			xc_violation(ex, EXEC_V_STALE_DATA, (int)c->idx,
				     l->addr,
				     "stale-data: cpu%u step %llu fetched the instruction of %s, then read literal %s = 0x%016llx from %s, older than write #%d made before it",
				     c->idx, (unsigned long long)ex->step,
				     wd[0], where, (unsigned long long)v,
				     wd[1], want);
			break;
		}
	}
}

void xm_reset(struct ftv_exec *ex)
{
	ex->nwr = ex->nwr_init;
	for (size_t i = 0; i < ex->nwi; i++) {
		struct winsn *w = ex->wi[i];

		w->ncoh = 1;
		w->pou = w->ic = 0;
		w->pair_wid = -1;
		for (unsigned c = 0; c < EXEC_MAX_CPUS; c++) {
			w->floor[c] = 0;
			w->last[c] = -1;
			w->view_ok[c] = 0;
		}
	}
	for (size_t i = 0; i < ex->nwl; i++) {
		ex->wl[i]->wid[0] = ex->wl[i]->wid[1] = ex->wl[i]->init_wid;
		ex->wl[i]->nw = 0;
	}
	ex->nsb = 0;
	ex->epoch = 0;
	ex->nppend = 0;
	ex->stop_machine = 0;
}

/* --- the patcher's store buffer ------------------------------------------ */

uint64_t xm_read_coherent(struct ftv_exec *ex, uint64_t addr, unsigned size)
{
	uint8_t b[8] = { 0 };
	uint64_t v = 0;

	sim_read(ex->as, addr, b, size, NULL);
	/* The patcher reads its own buffered stores (store forwarding). */
	for (size_t i = 0; i < ex->nsb; i++) {
		struct xstore *s = &ex->sb[i];

		for (unsigned k = 0; k < s->size; k++)
			if (s->addr + k >= addr && s->addr + k < addr + size)
				b[s->addr + k - addr] = (uint8_t)(s->val >> (8 * k));
	}
	memcpy(&v, b, size);
	return v;
}

static void sb_push(struct ftv_exec *ex, uint64_t addr, unsigned size,
		    uint64_t val, int wid)
{
	if (!GROW(ex, ex->sb, ex->nsb, ex->capsb))
		return;
	ex->sb[ex->nsb++] = (struct xstore){ addr, size, val, wid, ex->epoch };
}

static int overlaps(uint64_t a, uint64_t al, uint64_t b, uint64_t bl)
{
	return a < b + bl && b < a + al;
}

void xm_drain(struct ftv_exec *ex)
{
	unsigned cand[64], nc = 0, k;
	uint64_t minep = UINT64_MAX;
	struct xstore s;

	for (size_t i = 0; i < ex->nsb; i++)
		if (ex->sb[i].epoch < minep)
			minep = ex->sb[i].epoch;
	/* Stores not separated by a DMB may become visible in any order,
	 * except that stores to the same location stay in program order
	 * (coherence). */
	for (size_t i = 0; i < ex->nsb && nc < 64; i++) {
		int blocked = ex->sb[i].epoch != minep;

		for (size_t j = 0; j < i && !blocked; j++)
			blocked = overlaps(ex->sb[j].addr, ex->sb[j].size,
					   ex->sb[i].addr, ex->sb[i].size);
		if (!blocked)
			cand[nc++] = (unsigned)i;
	}
	k = cand[xs_choose(ex, nc)];
	s = ex->sb[k];
	memmove(&ex->sb[k], &ex->sb[k + 1], (ex->nsb - k - 1) * sizeof(s));
	ex->nsb--;
	xm_store_visible(ex, s.addr, s.size, s.val, s.wid, -1);
	xc_event(ex, -2, EXEC_EV_DRAIN, s.addr, (uint64_t)s.wid);
}

/* --- plans ---------------------------------------------------------------- */

static struct xplan *cur_plan(struct ftv_exec *ex)
{
	while (ex->cur_plan < ex->nplans &&
	       (ex->plans[ex->cur_plan].res.status == EXEC_PLAN_DONE ||
		ex->plans[ex->cur_plan].res.status == EXEC_PLAN_MISMATCH ||
		ex->plans[ex->cur_plan].next >= ex->plans[ex->cur_plan].p.n)) {
		struct xplan *xp = &ex->plans[ex->cur_plan];

		if (xp->res.status != EXEC_PLAN_MISMATCH &&
		    xp->res.status != EXEC_PLAN_DONE) {
			xp->res.status = EXEC_PLAN_DONE;
			if (xp->fn)
				xp->fn(ex, (int)ex->cur_plan, &xp->res,
				       xp->arg);
		}
		ex->cur_plan++;
	}
	return ex->cur_plan < ex->nplans ? &ex->plans[ex->cur_plan] : NULL;
}

int xm_patcher_ready(struct ftv_exec *ex)
{
	struct xplan *xp = cur_plan(ex);
	const struct plan_step *s;

	if (!xp)
		return 0;
	s = &xp->p.steps[xp->next];
	switch (s->op) {
	case PLAN_DSB:
	case PLAN_SYNC_ALL:
		/* DSB completes only when every earlier store is visible;
		 * sending an IPI implies one (dsb(ishst) in the GIC driver). */
		return ex->nsb == 0;
	case PLAN_CACHE_CLEAN:
	case PLAN_ICACHE_INVAL:
		/* Maintenance by VA is ordered after earlier stores to the
		 * same location (Arm ARM D7.5.9). */
		for (size_t i = 0; i < ex->nsb; i++)
			if (overlaps(ex->sb[i].addr, ex->sb[i].size, s->addr,
				     s->len ? s->len : 1))
				return 0;
		return 1;
	case PLAN_QUIESCE:
		if (!xp->waiting) {
			xp->waiting = 1;
			for (unsigned c = 0; c < ex->cfg.ncpus; c++)
				xp->qs_snap[c] = ex->cpu[c].qs_count;
		}
		/* synchronize_rcu_tasks(): every CPU has passed a voluntary
		 * quiescent point since (CPUs without one never hold a
		 * reference across a turn). */
		for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
			struct xcpu *cp = &ex->cpu[c];

			if (cp->st == XCPU_RUN && cp->has_qs &&
			    cp->qs_count <= xp->qs_snap[c])
				return 0;
		}
		return 1;
	case PLAN_STOP_MACHINE:
		ex->stop_machine = 1;
		if (ex->cfg.stop_anywhere) {
			/* The stopper thread preempts each CPU where it is:
			 * between turns a CPU is at an instruction boundary
			 * (a turn ends before a watched fetch, at a quantum
			 * or at a hook), possibly between the two words of
			 * a call pair. */
			for (unsigned c = 0; c < ex->cfg.ncpus; c++)
				if (ex->cpu[c].st == XCPU_RUN)
					ex->cpu[c].st = XCPU_PARKED;
			return 1;
		}
		for (unsigned c = 0; c < ex->cfg.ncpus; c++)
			if (ex->cpu[c].st == XCPU_RUN && ex->cpu[c].has_qs)
				return 0;
		return 1;
	default:
		return 1;
	}
}

static void poison(struct ftv_exec *ex, uint64_t addr, uint64_t len)
{
	for (uint64_t a = addr; a < addr + len; a++) {
		/* Text: zero words are UDF #0, permanently undefined (Arm ARM
		 * C6.2.365), and on RISC-V the all-zero 16-bit parcel is
		 * defined illegal (Unprivileged ISA, "Base Instruction-Length
		 * Encoding"), so the same poison traps on both; data:
		 * POISON_FREE (include/linux/poison.h). */
		uint8_t b = is_private(ex, a) ? 0 : 0x6b;

		sim_write(ex->as, a, &b, 1, NULL);
		if (is_private(ex, a))
			for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
				uint8_t *p = xc_copy_ptr(&ex->cpu[c], a);

				if (p)
					*p = b;
			}
	}
	if (is_private(ex, addr))
		xc_remove_cache_all(ex, addr, len);
}

static void sync_all(struct ftv_exec *ex)
{
	for (unsigned c = 0; c < ex->cfg.ncpus; c++)
		xm_context_sync(ex, &ex->cpu[c]);
}

/* RISC-V flush_icache_all(): every hart executes FENCE.I (an IPI or SBI
 * remote fence.i), after every store has drained (PLAN_SYNC_ALL waits for
 * the store buffer): all writes so far become fetchable everywhere and stay
 * the floor of later context synchronisations. */
static void flush_icache_all(struct ftv_exec *ex)
{
	for (size_t i = 0; i < ex->nwi; i++)
		ex->wi[i]->ic = ex->wi[i]->ncoh - 1;
	for (unsigned c = 0; c < ex->cfg.ncpus; c++)
		xm_context_sync(ex, &ex->cpu[c]);
}

void xm_patcher_step(struct ftv_exec *ex)
{
	struct xplan *xp = cur_plan(ex);
	int id = (int)(xp - ex->plans);
	size_t idx = xp->next;
	const struct plan_step *s = &xp->p.steps[idx];
	unsigned size = s->op == PLAN_WRITE_INSN ? 4 : 8;
	int wid;

	xp->res.status = EXEC_PLAN_RUNNING;
	xc_event(ex, -1, EXEC_EV_PLAN, (uint64_t)id << 32 | idx, s->op);
	switch (s->op) {
	case PLAN_WRITE_INSN:
	case PLAN_WRITE_DATA64:
		if (s->validate) {
			uint64_t cur = xm_read_coherent(ex, s->addr, size);
			uint64_t old = size == 4 ? (uint32_t)s->old : s->old;

			if (cur != old) {
				/* ftrace_modify_code(): -EINVAL, nothing is
				 * written and the update stops (ftrace_bug). */
				xp->res = (struct exec_plan_result){
					EXEC_PLAN_MISMATCH, idx, cur };
				if (xp->fn)
					xp->fn(ex, id, &xp->res, xp->arg);
				ex->cur_plan++;
				return;
			}
		}
		wid = xm_new_write(ex, s->addr,
				   size == 4 ? (uint32_t)s->new : s->new, size,
				   id, (int)idx, -1, s->what);
		if (wid < 0)
			return;
		if (size == 8 && (s->addr & 7)) {
			/* Not single-copy atomic: two 32-bit stores that may
			 * become visible separately (Arm ARM B2.2.1). */
			sb_push(ex, s->addr, 4, s->new & 0xffffffffu, wid);
			sb_push(ex, s->addr + 4, 4, s->new >> 32, wid);
		} else {
			sb_push(ex, s->addr, size, s->new, wid);
		}
		break;
	case PLAN_CACHE_CLEAN:
	case PLAN_ICACHE_INVAL:
		xm_cache_op(ex, &ex->ppend, &ex->nppend, &ex->capppend,
			    s->op == PLAN_ICACHE_INVAL, s->addr, s->len);
		break;
	case PLAN_DSB:
		xm_dsb(ex, ex->ppend, &ex->nppend);
		break;
	case PLAN_DMB:
		ex->epoch++;
		break;
	case PLAN_ISB:
		/* The patching agent runs no patched code itself. */
		break;
	case PLAN_SYNC_ALL:
		if (ex->arch->arch == FTV_ARCH_RISCV64)
			flush_icache_all(ex);
		else
			sync_all(ex);
		break;
	case PLAN_QUIESCE:
		xp->waiting = 0;
		break;
	case PLAN_FREE:
		poison(ex, s->addr, s->len);
		break;
	case PLAN_STOP_MACHINE:
		break;
	case PLAN_RESUME_MACHINE:
		/* Leaving multi_cpu_stop() each CPU returns through an
		 * exception return: a context synchronisation event. */
		ex->stop_machine = 0;
		for (unsigned c = 0; c < ex->cfg.ncpus; c++)
			if (ex->cpu[c].st == XCPU_PARKED)
				ex->cpu[c].st = XCPU_RUN;
		sync_all(ex);
		break;
	}
	xp->next++;
	cur_plan(ex);
}
