/* The executor's engines, hooks and run loop. The fetch model and the plan
 * semantics live in exec_model.c, the policies in exec_sched.c.
 *
 * Facts about Unicorn 2.0.1 this file relies on (checked with small
 * experiments on this machine):
 *  - uc_emu_stop() called from a UC_HOOK_CODE callback stops *before* the
 *    hooked instruction executes (pc is left at it), and restarting there
 *    calls the hook again: hence the "armed" pass-through below.
 *  - a UC_HOOK_MEM_READ callback runs before the load, so the value in
 *    memory when it returns is the value loaded.
 *  - translated code is not invalidated when memory is changed behind the
 *    engine's back; uc_ctl_remove_cache(begin, end) on that engine is needed,
 *    and hooks added after translation only reach code translated later.
 *  - engines start at EL1 (PSTATE 0x3c5). */
#include "executor/exec_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

void *xc_grow(void *p, size_t *cap, size_t need, size_t elem, int *oom)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return p;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	np = realloc(p, ncap * elem);
	if (!np) {
		*oom = 1;
		return p;
	}
	memset((char *)np + *cap * elem, 0, (ncap - *cap) * elem);
	*cap = ncap;
	return np;
}

#define GROW(ex, arr, n, cap) \
	((arr) = xc_grow((arr), &(cap), (n) + 1, sizeof(*(arr)), &(ex)->oom), \
	 !(ex)->oom)

int exec_policy_parse(const char *s, enum exec_policy *out)
{
	static const char *const n[] = { "random", "quantum", "pct",
					 "exhaustive" };

	for (int i = 0; i < 4; i++)
		if (!strcmp(s, n[i])) {
			*out = (enum exec_policy)i;
			return 0;
		}
	return -1;
}

const char *exec_policy_name(enum exec_policy p)
{
	static const char *const n[] = { "random", "quantum", "pct",
					 "exhaustive" };

	return (unsigned)p < 4 ? n[p] : "?";
}

const char *exec_viol_name(enum exec_viol_kind k)
{
	static const char *const n[] = { "torn", "cmodx", "stale-data",
					 "fault", "stuck", "pair" };

	return (unsigned)k < 6 ? n[k] : "?";
}

uint64_t xc_record_max(struct ftv_exec *ex)
{
	return ex->cfg.record_max ? ex->cfg.record_max : 1ULL << 20;
}

void xc_event(struct ftv_exec *ex, int agent, enum exec_ev_kind kind,
	      uint64_t a, uint64_t b)
{
	if (ex->nev >= xc_record_max(ex)) {
		ex->stats.dropped++;
		return;
	}
	if (!GROW(ex, ex->ev, ex->nev, ex->capev))
		return;
	ex->ev[ex->nev++] = (struct exec_event){ ex->step, agent, kind, a, b };
}

void xc_violation(struct ftv_exec *ex, enum exec_viol_kind kind, int cpu,
		  uint64_t addr, const char *fmt, ...)
{
	struct exec_violation *v;
	va_list ap;

	/* One report per kind, CPU and address per run is enough to act on. */
	for (size_t i = 0; i < ex->nviol; i++)
		if (ex->viol[i].kind == kind && ex->viol[i].cpu == cpu &&
		    ex->viol[i].addr == addr && ex->viol[i].run == ex->run)
			return;
	if (!GROW(ex, ex->viol, ex->nviol, ex->capviol))
		return;
	v = &ex->viol[ex->nviol++];
	v->kind = kind;
	v->cpu = cpu;
	v->step = ex->step;
	v->addr = addr;
	v->run = ex->run;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

/* --- memory ------------------------------------------------------------ */

static int region_index(struct ftv_exec *ex, uint64_t addr)
{
	for (size_t i = 0; i < ex->nregions; i++) {
		struct sim_region *r = sim_region_get(ex->as, i);

		if (addr >= r->base && addr - r->base < r->size)
			return (int)i;
	}
	return -1;
}

uint8_t *xc_copy_ptr(struct xcpu *c, uint64_t addr)
{
	int ri = region_index(c->ex, addr);
	struct sim_region *r;

	if (ri < 0)
		return NULL;
	r = sim_region_get(c->ex->as, (size_t)ri);
	return (c->copy[ri] ? c->copy[ri] : r->host) + (addr - r->base);
}

void xc_remove_cache(struct xcpu *c, uint64_t addr, uint64_t len)
{
	uc_ctl_remove_cache(c->uc, addr, addr + len);
}

void xc_remove_cache_all(struct ftv_exec *ex, uint64_t addr, uint64_t len)
{
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		xc_remove_cache(&ex->cpu[i], addr, len);
}

/* --- hooks --------------------------------------------------------------- */

/* A filter in front of special_at, which code_hook calls before every
 * instruction: a clear bit means no special pc hashes there. */
static size_t spbit(uint64_t pc)
{
	return (size_t)(pc >> 1) % XSP_BITS;
}

static struct xspecial *special_at(struct ftv_exec *ex, uint64_t pc)
{
	size_t lo = 0, hi = ex->nsp;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ex->sp[mid].pc == pc)
			return &ex->sp[mid];
		if (ex->sp[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static void sysop_effect(struct ftv_exec *ex, struct xcpu *c, uint64_t pc)
{
	uint8_t *p = xc_copy_ptr(c, pc);
	uint32_t w;
	unsigned rt;
	uint64_t va = 0;
	enum xsysop op;

	if (!p)
		return;
	memcpy(&w, p, 4);
	op = ex->arch->sysop(w, &rt);
	switch (op) {
	case XS_ISB:
		xm_context_sync(ex, c);
		break;
	case XS_FENCE_I:
		xm_fence_i(ex, c);
		break;
	case XS_DSB:
		xm_dsb(ex, c->pend, &c->npend);
		break;
	case XS_DC_CVAU:
	case XS_IC_IVAU:
		if (rt != 31)
			uc_reg_read(c->uc, ex->arch->regs[rt], &va);
		xm_cache_op(ex, &c->pend, &c->npend, &c->cappend,
			    op == XS_IC_IVAU, va, 4);
		break;
	default:
		break;
	}
}

/* Called before every instruction (one hook over the whole address space:
 * Unicorn 2.0.1's helper_uc_tracecode walks every UC_HOOK_CODE hook of the
 * engine on each hooked instruction, so one hook per special pc made each
 * instruction cost as many bound checks as there are specials under the
 * instruction-count hook of a quantum). Only special pcs act. */
static void code_hook(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct xcpu *c = user;
	struct ftv_exec *ex = c->ex;
	size_t b = spbit(pc);
	struct xspecial *s;
	int qs;

	(void)size;
	if (!(ex->spbits[b / 64] >> (b % 64) & 1))
		return;
	s = special_at(ex, pc);
	if (!s)
		return;
	qs = c->has_qs && c->qs_pc == pc;
	if (c->armed && c->armed_pc == pc) {
		/* Restarted at the instruction a hook stopped before: it
		 * executes now; stopping actions were done already. */
		c->armed = 0;
	} else {
		if (qs)
			c->qs_count++;
		if (qs && ex->stop_machine) {
			/* stop_machine(): park at the quiescent point. */
			c->st = XCPU_PARKED;
			c->stopped_in_hook = 1;
			uc_emu_stop(uc);
			return;
		}
		if (s && (s->flags & SP_WATCH)) {
			struct winsn *w = s->w;

			if (!ex->cfg.fine && c->quiet_left &&
			    ex->cur_plan >= ex->nplans && !ex->nsb && w &&
			    xm_fetch_is_quiet(ex, c, w)) {
				/* Nothing is changing: run on (the sparse
				 * patching fast path). */
				c->quiet_left--;
				xm_fetch(ex, c, w, 1);
				goto effects;
			}
			/* The fetch is a scheduling point; the model picks
			 * the value when this CPU next gets its turn. */
			c->stopped_in_hook = 1;
			uc_emu_stop(uc);
			return;
		}
	}
effects:
	if (!s)
		return;
	for (size_t i = 0; i < s->nbrk; i++)
		s->brk[i].fn(ex, (int)c->idx, pc, s->brk[i].arg);
	if (s->flags & SP_SYSOP)
		sysop_effect(ex, c, pc);
}

/* A load by a CPU whose translated code calls read hooks. Each engine has
 * one such hook over the whole address space, added with the first watched
 * literal (when the engine had one hook per literal, Unicorn 2.0.1 walked
 * all of them on every load). Unicorn decides when translating a load
 * whether it calls read hooks at all (only if the engine has one then), so
 * the hook is added at the moment the first per-literal hook used to be,
 * and code translated before keeps not calling it. Each literal whose
 * bytes [addr, addr+7] hold the access's address gets the load, in the
 * order the literals were watched: what the per-literal hooks' bound checks
 * (on the start address only) and list order gave. */
static void lit_hook(uc_engine *uc, uc_mem_type type, uint64_t addr, int size,
		     int64_t value, void *user)
{
	struct xcpu *c = user;
	struct ftv_exec *ex = c->ex;
	struct wlit *hit[8];
	unsigned n = 0;

	(void)uc;
	(void)type;
	(void)value;
	/* Distinct addresses: at most 8 literals start in [addr-7, addr]. */
	for (size_t i = xm_lit_lower(ex, addr >= 7 ? addr - 7 : 0);
	     i < ex->nwl && ex->wls[i]->addr <= addr && n < 8; i++) {
		struct wlit *l = ex->wls[i];
		unsigned k = n++;

		while (k > 0 && hit[k - 1]->order > l->order) {
			hit[k] = hit[k - 1];
			k--;
		}
		hit[k] = l;
	}
	for (unsigned k = 0; k < n; k++)
		xm_lit_load(ex, c, hit[k], addr, size);
}

/* A CPU's store into private (text) memory: route it into the model so that
 * every CPU's view follows the rules (the store itself lands in the writer's
 * copy right after this hook). */
static void text_write_hook(uc_engine *uc, uc_mem_type type, uint64_t addr,
			    int size, int64_t value, void *user)
{
	struct xcpu *c = user;
	struct ftv_exec *ex = c->ex;
	int wid;

	(void)uc;
	(void)type;
	if (size <= 0 || size > 8)
		return;
	wid = xm_new_write(ex, addr, (uint64_t)value, (unsigned)size, -1, -1,
			   (int)c->idx, "cpu store");
	if (wid < 0)
		return;
	xm_store_visible(ex, addr, (unsigned)size, (uint64_t)value, wid,
			 (int)c->idx);
	/* The writer's own view of a watched word is the model's business:
	 * make its next fetch re-install the value. */
	for (uint64_t a = addr & ~3ULL; a < addr + (uint64_t)size; a += 4) {
		struct winsn *w = xm_insn(ex, a);

		if (w)
			w->view_ok[c->idx] = 0;
	}
}

/* riscv: remember where a data access faulted (see exec_fault_rv.c); the
 * access still faults. */
static bool fault_hook(uc_engine *uc, uc_mem_type type, uint64_t addr,
		       int size, int64_t value, void *user)
{
	struct xcpu *c = user;

	(void)uc;
	(void)size;
	(void)value;
	if (type != UC_MEM_FETCH_UNMAPPED && type != UC_MEM_FETCH_PROT) {
		c->fault_ok = 1;
		c->fault_addr = addr;
	}
	return false;
}

/* A new special pc: every engine's one code hook (cpu_open) covers it
 * already, but code translated while pc was not special may hold bytes
 * the fetch model has since changed in the copy: retranslate it, as when
 * each special had a hook of its own (hooks reach only code translated
 * after they were added). */
static void add_code_hook(struct ftv_exec *ex, uint64_t pc)
{
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		xc_remove_cache(&ex->cpu[i], pc, 4);
}

static struct xspecial *special_get(struct ftv_exec *ex, uint64_t pc,
				    struct ftv_err *err)
{
	struct xspecial *s = special_at(ex, pc);
	size_t i;

	if (s)
		return s;
	if (!GROW(ex, ex->sp, ex->nsp, ex->capsp)) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	for (i = ex->nsp; i > 0 && ex->sp[i - 1].pc > pc; i--)
		ex->sp[i] = ex->sp[i - 1];
	memset(&ex->sp[i], 0, sizeof(ex->sp[i]));
	ex->sp[i].pc = pc;
	ex->nsp++;
	ex->spbits[spbit(pc) / 64] |= 1ULL << (spbit(pc) % 64);
	add_code_hook(ex, pc);
	return &ex->sp[i];
}

int exec_watch_insn(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err)
{
	struct xspecial *s;
	struct winsn *w;
	uint32_t v;
	int ri = region_index(ex, addr), wid;
	size_t i;

	if ((addr & 3) && ex->arch->arch == FTV_ARCH_RISCV64)
		return ftv_errf(err, "watch 0x%llx: instruction word not 4-byte aligned: "
				"Ziccif makes only naturally aligned 4-byte fetches atomic, "
				"a 2-aligned word may be fetched in two halves",
				(unsigned long long)addr);
	if (addr & 3)
		return ftv_errf(err, "watch 0x%llx: instruction not 4-byte aligned",
				(unsigned long long)addr);
	if (ri < 0 || !(sim_region_get(ex->as, (size_t)ri)->perms & SIM_X))
		return ftv_errf(err, "watch 0x%llx: not in an executable region",
				(unsigned long long)addr);
	if (xm_insn(ex, addr))
		return 0;
	if (!GROW(ex, ex->wi, ex->nwi, ex->capwi))
		return ftv_errf(err, "out of memory");
	sim_read32(ex->as, addr, &v);
	wid = xm_new_write(ex, addr, v, 4, -1, -1, -1, "initial");
	if (wid < 0)
		return ftv_errf(err, "out of memory");
	ex->nwr_init = ex->nwr;
	w = calloc(1, sizeof(*w));
	if (!w)
		return ftv_errf(err, "out of memory");
	for (i = ex->nwi; i > 0 && ex->wi[i - 1]->addr > addr; i--)
		ex->wi[i] = ex->wi[i - 1];
	ex->wi[i] = w;
	w->addr = addr;
	ex->nwi++;
	if (!GROW(ex, w->coh, 0, w->capcoh) ||
	    !(w->icfloor = calloc(w->capcoh, sizeof(*w->icfloor))))
		return ftv_errf(err, "out of memory");
	w->coh[0] = wid;
	w->ncoh = 1;
	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		w->last[c] = -1;
	w->pair_wid = -1;
	s = special_get(ex, addr, err);
	if (!s)
		return -1;
	s->flags |= SP_WATCH;
	s->w = w;
	return 0;
}

int exec_watch_data64(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err)
{
	struct wlit *l;
	uint64_t v;
	int wid;

	if (sim_read64(ex->as, addr, &v))
		return ftv_errf(err, "watch literal 0x%llx: not mapped",
				(unsigned long long)addr);
	if (xm_lit(ex, addr))
		return 0;
	if (!GROW(ex, ex->wl, ex->nwl, ex->capwl) ||
	    !GROW(ex, ex->wls, ex->nwl, ex->capwls))
		return ftv_errf(err, "out of memory");
	wid = xm_new_write(ex, addr, v, 8, -1, -1, -1, "initial");
	if (wid < 0)
		return ftv_errf(err, "out of memory");
	ex->nwr_init = ex->nwr;
	l = calloc(1, sizeof(*l));
	if (!l)
		return ftv_errf(err, "out of memory");
	l->order = ex->nwl;
	l->addr = addr;
	l->wid[0] = l->wid[1] = l->init_wid = wid;
	ex->wl[ex->nwl] = l;
	{
		size_t at = xm_lit_lower(ex, addr);

		memmove(&ex->wls[at + 1], &ex->wls[at],
			(ex->nwl - at) * sizeof(*ex->wls));
		ex->wls[at] = l;
	}
	ex->nwl++;
	for (unsigned i = 0; i < ex->cfg.ncpus; i++) {
		struct xcpu *c = &ex->cpu[i];

		if (!c->lit_hooked) {
			uc_hook h;
			uc_err e = uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ,
					       (void *)lit_hook, c, 1, 0);

			if (e != UC_ERR_OK)
				return ftv_errf(err, "cpu%u: hook at 0x%llx: %s",
						i, (unsigned long long)addr,
						uc_strerror(e));
			c->lit_hooked = 1;
		}
		xc_remove_cache(c, addr & ~(SIM_PAGE - 1), SIM_PAGE);
	}
	return 0;
}

int exec_break(struct ftv_exec *ex, uint64_t pc, exec_break_fn fn, void *arg,
	       struct ftv_err *err)
{
	struct xspecial *s = special_get(ex, pc, err);

	if (!s)
		return -1;
	s->brk = xc_grow(s->brk, &s->capbrk, s->nbrk + 1, sizeof(*s->brk),
			 &ex->oom);
	if (ex->oom)
		return ftv_errf(err, "out of memory");
	s->brk[s->nbrk++] = (struct xbreak){ fn, arg };
	s->flags |= SP_BREAK;
	return 0;
}

/* Hooks every system instruction the model acts on, found by scanning the
 * executable regions once. */
static int hook_sysops(struct ftv_exec *ex, struct ftv_err *err)
{
	for (size_t ri = 0; ri < ex->nregions; ri++) {
		struct sim_region *r = sim_region_get(ex->as, ri);
		uint8_t *nz;

		if (!(r->perms & SIM_X))
			continue;
		nz = malloc(r->size / XPG_SIZE);
		if (!nz)
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, nz);
		/* Every possible instruction start: a hook at a parcel that
		 * is never executed as one is never called. */
		for (uint64_t off = 0; off + 4 <= r->size;
		     off += ex->arch->insn_align) {
			uint32_t w;
			unsigned rt;
			struct xspecial *s;

			/* Every word wholly inside an all-zero page is 0:
			 * go on with the last one, whose successors (riscv:
			 * 2-aligned) may reach into the next page. */
			if (off % XPG_SIZE == 0 && !nz[off / XPG_SIZE]) {
				off += XPG_SIZE - 4;
				continue;
			}
			memcpy(&w, r->host + off, 4);
			if (w == 0 || ex->arch->sysop(w, &rt) == XS_NONE)
				continue;
			s = special_get(ex, r->base + off, err);
			if (!s) {
				free(nz);
				return -1;
			}
			s->flags |= SP_SYSOP;
		}
		free(nz);
	}
	return 0;
}

/* --- lifecycle ----------------------------------------------------------- */

static int cpu_open(struct ftv_exec *ex, struct xcpu *c, struct ftv_err *err)
{
	uc_err e = uc_open(ex->arch->uarch, ex->arch->umode, &c->uc);

	if (e != UC_ERR_OK)
		return ftv_errf(err, "cpu%u: uc_open: %s", c->idx,
				uc_strerror(e));
	c->copy = calloc(ex->nregions ? ex->nregions : 1, sizeof(*c->copy));
	if (!c->copy)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < ex->nregions; i++) {
		struct sim_region *r = sim_region_get(ex->as, i);
		uint8_t *host = r->host;
		uc_hook h;

		if (r->perms & SIM_X) {
			/* Text is private: each CPU fetches from its own copy,
			 * which the fetch model keeps per CPU. Only the pages
			 * that hold something are copied: the rest of a
			 * fresh mapping reads as zeros already. */
			uint8_t *nz = malloc(r->size / XPG_SIZE);

			c->copy[i] = xpg_alloc(r->size);
			if (!c->copy[i] || !nz) {
				free(nz);
				return ftv_errf(err, "out of memory");
			}
			xpg_nonzero(r->host, r->size, nz);
			xpg_copy_nonzero(c->copy[i], r->host, r->size, nz);
			free(nz);
			host = c->copy[i];
		}
		e = uc_mem_map_ptr(c->uc, r->base, r->size, UC_PROT_ALL, host);
		if (e != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: map %s at 0x%llx: %s",
					c->idx, r->name,
					(unsigned long long)r->base,
					uc_strerror(e));
		if ((r->perms & SIM_X) &&
		    uc_hook_add(c->uc, &h, UC_HOOK_MEM_WRITE,
				(void *)text_write_hook, c, r->base,
				r->base + r->size - 1) != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: write hook on %s", c->idx,
					r->name);
	}
	{
		uc_hook h;

		/* Begin > end: every address (see code_hook). */
		if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)code_hook, c,
				1, 0) != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: code hook", c->idx);
	}
	if (ex->arch->arch == FTV_ARCH_RISCV64) {
		uc_hook h;

		if (uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
				(void *)fault_hook, c, 1, 0) != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: fault hook", c->idx);
	}
	c->st = XCPU_DONE; /* until exec_cpu_setup */
	c->last_fetch_wid = -1;
	return 0;
}

struct ftv_exec *exec_new(struct sim_aspace *as, const struct exec_config *cfg,
			  struct ftv_err *err)
{
	struct ftv_exec *ex;
	struct ftv_rng root;

	if (cfg->ncpus < 1 || cfg->ncpus > EXEC_MAX_CPUS) {
		ftv_errf(err, "%u CPUs: between 1 and %d supported", cfg->ncpus,
			 EXEC_MAX_CPUS);
		return NULL;
	}
	if (!xarch_get(cfg->arch)) {
		ftv_errf(err, "architecture %d not supported by the executor",
			 (int)cfg->arch);
		return NULL;
	}
	ex = calloc(1, sizeof(*ex));
	if (!ex) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	ex->as = as;
	ex->arch = xarch_get(cfg->arch);
	ex->cfg = *cfg;
	ex->nregions = sim_region_count(as);
	ex->rsize = calloc(ex->nregions ? ex->nregions : 1, sizeof(*ex->rsize));
	if (!ex->rsize) {
		free(ex);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	for (size_t i = 0; i < ex->nregions; i++)
		ex->rsize[i] = sim_region_get(as, i)->size;
	ftv_rng_seed(&root, cfg->seed);
	ftv_rng_fork(&root, &ex->rng_sched, 1);
	ftv_rng_fork(&root, &ex->rng_fetch, 2);
	for (unsigned i = 0; i < cfg->ncpus; i++) {
		ex->cpu[i].ex = ex;
		ex->cpu[i].idx = i;
		if (cpu_open(ex, &ex->cpu[i], err)) {
			exec_free(ex);
			return NULL;
		}
	}
	if (hook_sysops(ex, err)) {
		exec_free(ex);
		return NULL;
	}
	return ex;
}

void exec_free(struct ftv_exec *ex)
{
	if (!ex)
		return;
	xw_free(ex); /* before the engines it may stop */
	for (unsigned i = 0; i < ex->cfg.ncpus; i++) {
		struct xcpu *c = &ex->cpu[i];

		if (c->uc)
			uc_close(c->uc);
		for (size_t r = 0; c->copy && r < ex->nregions; r++)
			xpg_free(c->copy[r], ex->rsize[r]);
		free(c->copy);
		free(c->pend);
	}
	for (size_t i = 0; i < ex->nwi; i++) {
		free(ex->wi[i]->coh);
		free(ex->wi[i]->icfloor);
		free(ex->wi[i]);
	}
	for (size_t i = 0; i < ex->nwl; i++) {
		free(ex->wl[i]->wids);
		free(ex->wl[i]);
	}
	for (size_t i = 0; i < ex->nplans; i++)
		plan_free(&ex->plans[i].p);
	for (size_t i = 0; i < ex->nsp; i++)
		free(ex->sp[i].brk);
	for (size_t i = 0; ex->snap && i < ex->nregions; i++)
		xpg_free(ex->snap[i], ex->rsize[i]);
	for (size_t i = 0; ex->snap_nz && i < ex->nregions; i++)
		free(ex->snap_nz[i]);
	free(ex->snap);
	free(ex->snap_nz);
	free(ex->rsize);
	free(ex->wi);
	free(ex->wl);
	free(ex->wls);
	free(ex->wr);
	free(ex->sb);
	free(ex->ppend);
	free(ex->plans);
	free(ex->sp);
	free(ex->viol);
	free(ex->obs);
	free(ex->ev);
	free(ex->prio);
	free(ex->pct_change);
	free(ex->dfs);
	free(ex);
}

int exec_cpu_set_reg(struct ftv_exec *ex, unsigned cpu, int reg, uint64_t v)
{
	if (cpu >= ex->cfg.ncpus || reg < 0 || reg >= ex->arch->nregs)
		return -1;
	if (reg == ex->arch->zero_reg)
		return 0;
	if (!ex->snap)
		ex->cpu[cpu].init[reg] = v;
	return uc_reg_write(ex->cpu[cpu].uc, ex->arch->regs[reg], &v) ==
			       UC_ERR_OK ? 0 : -1;
}

uint64_t exec_cpu_reg(struct ftv_exec *ex, unsigned cpu, int reg)
{
	uint64_t v = 0;

	if (cpu < ex->cfg.ncpus && reg >= 0 && reg < ex->arch->nregs &&
	    reg != ex->arch->zero_reg)
		uc_reg_read(ex->cpu[cpu].uc, ex->arch->regs[reg], &v);
	return v;
}

int exec_cpu_done(struct ftv_exec *ex, unsigned cpu)
{
	return cpu < ex->cfg.ncpus && ex->cpu[cpu].st == XCPU_DONE;
}

int exec_cpu_setup(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		   uint64_t sp, const uint64_t *args, unsigned nargs,
		   uint64_t exit_pc, struct ftv_err *err)
{
	struct xcpu *c;

	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	if (nargs > 8)
		return ftv_errf(err, "cpu%u: %u arguments, at most 8", cpu,
				nargs);
	c = &ex->cpu[cpu];
	exec_cpu_set_reg(ex, cpu, ex->arch->pc_reg, pc);
	exec_cpu_set_reg(ex, cpu, ex->arch->sp_reg, sp);
	for (unsigned i = 0; i < nargs; i++)
		exec_cpu_set_reg(ex, cpu, ex->arch->arg0_reg + (int)i, args[i]);
	c->exit_pc = exit_pc ? exit_pc : EXEC_NO_EXIT;
	c->st = XCPU_RUN;
	return 0;
}

int exec_cpu_quiescent(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		       struct ftv_err *err)
{
	struct xspecial *s;

	if (cpu >= ex->cfg.ncpus)
		return ftv_errf(err, "cpu%u: only %u CPUs", cpu, ex->cfg.ncpus);
	s = special_get(ex, pc, err);
	if (!s)
		return -1;
	s->flags |= SP_QS;
	ex->cpu[cpu].qs_pc = pc;
	ex->cpu[cpu].has_qs = 1;
	return 0;
}

int exec_submit(struct ftv_exec *ex, const struct plan *p, exec_plan_fn done,
		void *arg, struct ftv_err *err)
{
	struct xplan *xp;

	for (size_t i = 0; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];

		if (s->op == PLAN_WRITE_INSN && exec_watch_insn(ex, s->addr, err))
			return ftv_err_prefix(err, "plan step %zu (%s)", i,
					      s->what ? s->what : "");
		if (s->op == PLAN_WRITE_DATA64 &&
		    exec_watch_data64(ex, s->addr, err))
			return ftv_err_prefix(err, "plan step %zu (%s)", i,
					      s->what ? s->what : "");
	}
	if (!GROW(ex, ex->plans, ex->nplans, ex->capplans))
		return ftv_errf(err, "out of memory");
	xp = &ex->plans[ex->nplans];
	memset(xp, 0, sizeof(*xp));
	plan_init(&xp->p);
	if (plan_append(&xp->p, p))
		return ftv_errf(err, "out of memory");
	xp->fn = done;
	xp->arg = arg;
	xp->res.status = EXEC_PLAN_QUEUED;
	return (int)ex->nplans++;
}

const struct exec_plan_result *exec_plan_result(struct ftv_exec *ex, int plan)
{
	if (plan < 0 || (size_t)plan >= ex->nplans)
		return NULL;
	return &ex->plans[plan].res;
}

/* --- running ------------------------------------------------------------- */

/* The snapshot keeps only the pages that hold something (see
 * exec_pages.c): copying whole regions, most of them never written, cost
 * seconds and hundreds of MiB per world. */
static int take_snapshot(struct ftv_exec *ex, struct ftv_err *err)
{
	size_t n = ex->nregions ? ex->nregions : 1;

	ex->snap = calloc(n, sizeof(*ex->snap));
	ex->snap_nz = calloc(n, sizeof(*ex->snap_nz));
	if (!ex->snap || !ex->snap_nz)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < ex->nregions; i++) {
		struct sim_region *r = sim_region_get(ex->as, i);

		ex->snap[i] = xpg_alloc(r->size);
		ex->snap_nz[i] = malloc(r->size / XPG_SIZE);
		if (!ex->snap[i] || !ex->snap_nz[i])
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, ex->snap_nz[i]);
		xpg_copy_nonzero(ex->snap[i], r->host, r->size,
				 ex->snap_nz[i]);
	}
	return 0;
}

/* Puts back the pages of buf that may differ from the snapshot: those that
 * held something then (snap_nz) or hold something now (nz). */
static void restore_pages(uint8_t *buf, const uint8_t *snap,
			  const uint8_t *snap_nz, const uint8_t *nz,
			  uint64_t size)
{
	for (uint64_t p = 0; p < size / XPG_SIZE; p++) {
		uint64_t off = p * XPG_SIZE;

		if (snap_nz[p])
			memcpy(buf + off, snap + off, XPG_SIZE);
		else if (nz[p])
			memset(buf + off, 0, XPG_SIZE);
	}
}

int exec_reset(struct ftv_exec *ex, struct ftv_err *err)
{
	static const uint8_t zero[XPG_SIZE];
	uint8_t *nz = NULL;

	if (!ex->snap)
		return 0;
	for (size_t i = 0; i < ex->nregions; i++) {
		struct sim_region *r = sim_region_get(ex->as, i);
		const uint8_t *snz = ex->snap_nz[i];

		free(nz);
		nz = malloc(r->size / XPG_SIZE);
		if (!nz)
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, nz);
		restore_pages(r->host, ex->snap[i], snz, nz, r->size);
		for (unsigned c = 0; c < ex->cfg.ncpus; c++) {
			uint8_t *cp = ex->cpu[c].copy[i];

			if (!cp)
				continue;
			/* Put back only the words that changed, and drop
			 * only their translations (never a whole cache).
			 * Pages all zero in both the copy and the snapshot
			 * have nothing to put back. */
			xpg_nonzero(cp, r->size, nz);
			for (uint64_t off = 0; off < r->size; off += 4) {
				uint64_t pg = off / XPG_SIZE;
				const uint8_t *s;

				if (!snz[pg] && !nz[pg]) {
					off += XPG_SIZE - 4;
					continue;
				}
				s = snz[pg] ? ex->snap[i] + off
					    : zero + off % XPG_SIZE;
				if (!memcmp(cp + off, s, 4))
					continue;
				memcpy(cp + off, s, 4);
				xc_remove_cache(&ex->cpu[c], r->base + off, 4);
			}
		}
	}
	free(nz);
	for (unsigned i = 0; i < ex->cfg.ncpus; i++) {
		struct xcpu *c = &ex->cpu[i];

		for (int r = 0; r < ex->arch->nregs; r++)
			if (r != ex->arch->zero_reg)
				uc_reg_write(c->uc, ex->arch->regs[r],
					     &c->init[r]);
		if (ex->arch->reset_flags)
			ex->arch->reset_flags(c->uc);
		c->st = c->exit_pc ? XCPU_RUN : XCPU_DONE;
		c->qs_count = 0;
		c->armed = 0;
		c->stopped_in_hook = 0;
		c->npend = 0;
		c->last_fetch_wid = -1;
		c->prev_ok = 0;
		c->fault_ok = 0;
	}
	for (size_t i = 0; i < ex->nplans; i++) {
		ex->plans[i].res = (struct exec_plan_result){ EXEC_PLAN_QUEUED,
							      0, 0 };
		ex->plans[i].next = 0;
		ex->plans[i].waiting = 0;
	}
	ex->cur_plan = 0;
	ex->nev = 0;
	ex->nobs = 0;
	ex->step = 0;
	xm_reset(ex);
	(void)err;
	return 0;
}

static uint64_t cpu_pc(struct xcpu *c)
{
	uint64_t pc = 0;

	uc_reg_read(c->uc, c->ex->arch->regs[c->ex->arch->pc_reg], &pc);
	return pc;
}

static int next_is_visible(struct ftv_exec *ex, struct xcpu *c, uint64_t pc)
{
	uint8_t *p = xc_copy_ptr(c, pc);
	uint32_t w;

	if (!p || xm_insn(ex, pc))
		return 1;
	if (c->has_qs && c->qs_pc == pc)
		return 1;
	memcpy(&w, p, 4);
	return ex->arch->is_memory(w);
}

static void cpu_fault(struct ftv_exec *ex, struct xcpu *c, uint64_t pc,
		      uc_err e)
{
	char where[128], insn[128];
	const char *why = uc_strerror(e);
	uint8_t *p;
	uint32_t w = 0;

	if (e == UC_ERR_EXCEPTION && ex->arch->fault_pc_skew) {
		pc -= ex->arch->fault_pc_skew;
		uc_reg_write(c->uc, ex->arch->regs[ex->arch->pc_reg], &pc);
	}
	if (ex->arch->arch == FTV_ARCH_RISCV64 && c->fault_ok &&
	    e != UC_ERR_FETCH_UNMAPPED && e != UC_ERR_FETCH_PROT) {
		pc = xf_rv_fault_pc(ex, c, pc, c->fault_addr);
		uc_reg_write(c->uc, ex->arch->regs[ex->arch->pc_reg], &pc);
	}
	c->fault_ok = 0;
	p = xc_copy_ptr(c, pc);
	if (p)
		memcpy(&w, p, 4);
	if (e == UC_ERR_EXCEPTION && ex->arch->arch == FTV_ARCH_RISCV64)
		/* The all-zero 16-bit parcel is defined illegal (Unprivileged
		 * ISA, "Base Instruction-Length Encoding"): poisoned text
		 * traps as on arm64 (UDF #0). */
		why = (w & 0xffffu) == 0
			      ? "illegal instruction (the all-zero parcel)"
			      : "trap (illegal instruction, ecall or ebreak)";
	sim_symbolize(ex->as, pc, where, sizeof(where), 0);
	xr_insn(ex, w, pc, insn, sizeof(insn));
	c->st = XCPU_FAULT;
	xc_violation(ex, EXEC_V_FAULT, (int)c->idx, pc,
		     "cpu%u step %llu: fault at %s executing %s: %s", c->idx,
		     (unsigned long long)ex->step, where, insn, why);
}

/* One turn of a CPU: perform the pending fetch of a watched word, then run up
 * to the next scheduling point. */
static void cpu_turn(struct ftv_exec *ex, struct xcpu *c)
{
	uint64_t pc = cpu_pc(c), start = pc;
	struct winsn *w = xm_insn(ex, pc);
	unsigned n = 0;
	uc_err e;

	if (w)
		xm_fetch(ex, c, w, 0);
	c->quiet_left = ex->cfg.fetch_quantum ? ex->cfg.fetch_quantum : 1024;
	if (w || c->stopped_in_hook) {
		c->armed = 1;
		c->armed_pc = pc;
	}
	c->stopped_in_hook = 0;
	ex->stats.cpu_turns++;
	for (;;) {
		size_t count = ex->cfg.fine ? 1 : ex->cfg.quantum;
		/* Free-running turns have no instruction count; a CPU sent
		 * astray by a bad patch could run forever without reaching a
		 * scheduling point. The wall-clock limit only ever ends a run
		 * that has already gone wrong. */
		uint64_t timeout = count ? 0 : ex->cfg.turn_timeout_us;
		size_t timed_out = 0;
		int own = timeout && !xw_arm(ex, c->uc, timeout);

		e = uc_emu_start(c->uc, pc, c->exit_pc, own ? 0 : timeout,
				 count);
		if (own)
			timed_out = (size_t)xw_disarm(ex);
		pc = cpu_pc(c);
		if (e != UC_ERR_OK) {
			cpu_fault(ex, c, pc, e);
			break;
		}
		if (timeout && !own &&
		    uc_query(c->uc, UC_QUERY_TIMEOUT, &timed_out) != UC_ERR_OK)
			timed_out = 0;
		if (timed_out) {
			char where[128];

			c->st = XCPU_FAULT;
			xc_violation(ex, EXEC_V_STUCK, (int)c->idx, pc,
				     "cpu%u step %llu: ran %llu ms without reaching a watched "
				     "word, a quiescent point or its exit; now at %s (a branch "
				     "or return sent it astray)", c->idx,
				     (unsigned long long)ex->step,
				     (unsigned long long)(timeout / 1000),
				     sim_symbolize(ex->as, pc, where, sizeof(where), 0));
			break;
		}
		if (pc == c->exit_pc) {
			c->st = XCPU_DONE;
			break;
		}
		if (!ex->cfg.fine || c->stopped_in_hook || c->st != XCPU_RUN)
			break;
		/* Fine mode: go on through instructions only this CPU sees. */
		if (next_is_visible(ex, c, pc) || ++n >= 4096)
			break;
	}
	xc_event(ex, (int)c->idx, EXEC_EV_CPU, start, pc);
}

static int all_settled(struct ftv_exec *ex)
{
	for (unsigned i = 0; i < ex->cfg.ncpus; i++)
		if (ex->cpu[i].st == XCPU_RUN || ex->cpu[i].st == XCPU_PARKED)
			return 0;
	return ex->cur_plan >= ex->nplans && ex->nsb == 0;
}

int exec_run(struct ftv_exec *ex, uint64_t max_steps, struct ftv_err *err)
{
	unsigned ready[EXEC_MAX_CPUS + 2];
	unsigned n = ex->cfg.ncpus;

	if (!ex->snap && take_snapshot(ex, err))
		return -1;
	xs_start_run(ex);
	uint64_t s;

	for (s = 0; s < max_steps; s++) {
		unsigned nr = 0;
		int pick;

		int pready = xm_patcher_ready(ex);

		/* Under stop_machine() a CPU without a quiescent point is
		 * parked wherever it is (multi_cpu_stop runs on it). */
		for (unsigned i = 0; i < n; i++)
			if (ex->cpu[i].st == XCPU_RUN &&
			    !(ex->stop_machine && !ex->cpu[i].has_qs))
				ready[nr++] = i;
		if (pready)
			ready[nr++] = n;
		if (ex->nsb)
			ready[nr++] = n + 1;
		if (!nr) {
			if (!all_settled(ex))
				xc_violation(ex, EXEC_V_STUCK, -1, 0,
					     "step %llu: no CPU can run and the patcher waits at plan %zu step %zu",
					     (unsigned long long)ex->step,
					     ex->cur_plan,
					     ex->cur_plan < ex->nplans
						     ? ex->plans[ex->cur_plan].next
						     : 0);
			break;
		}
		pick = xs_pick(ex, ready, nr);
		if (ready[pick] < n)
			cpu_turn(ex, &ex->cpu[ready[pick]]);
		else if (ready[pick] == n)
			xm_patcher_step(ex);
		else
			xm_drain(ex);
		ex->step++;
		ex->stats.steps++;
	}
	if (s == max_steps && !all_settled(ex))
		ex->truncated = 1;
	if (ex->oom)
		return ftv_errf(err, "out of memory while running");
	return 0;
}

int exec_explore(struct ftv_exec *ex, uint64_t max_runs,
		 uint64_t steps_per_run, exec_outcome_fn fn, void *arg,
		 struct ftv_err *err)
{
	if (ex->cfg.policy != EXEC_EXHAUSTIVE)
		return ftv_errf(err, "exploration needs the exhaustive policy");
	ex->dfs_len = 0;
	ex->stats.complete = 0;
	ex->truncated = 0;
	for (uint64_t r = 0; r < max_runs; r++) {
		if (exec_reset(ex, err))
			return -1;
		ex->run = r;
		if (exec_run(ex, steps_per_run, err))
			return -1;
		ex->stats.runs++;
		if (fn)
			fn(ex, arg);
		if (xs_dfs_next(ex)) {
			/* Every choice explored, each run to its end. */
			ex->stats.complete = !ex->truncated;
			break;
		}
	}
	return 0;
}

const struct exec_violation *exec_violations(struct ftv_exec *ex, size_t *n)
{
	*n = ex->nviol;
	return ex->viol;
}

const struct exec_obs *exec_observations(struct ftv_exec *ex, size_t *n)
{
	*n = ex->nobs;
	return ex->obs;
}

const struct exec_event *exec_trace(struct ftv_exec *ex, size_t *n)
{
	*n = ex->nev;
	return ex->ev;
}

const struct exec_write *exec_write_get(struct ftv_exec *ex, int wid)
{
	if (wid < 0 || (size_t)wid >= ex->nwr)
		return NULL;
	return &ex->wr[wid];
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t exec_trace_hash(struct ftv_exec *ex)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < ex->nev; i++) {
		h = fnv(h, ex->ev[i].step);
		h = fnv(h, (uint64_t)(int64_t)ex->ev[i].agent);
		h = fnv(h, ex->ev[i].kind);
		h = fnv(h, ex->ev[i].a);
		h = fnv(h, ex->ev[i].b);
	}
	for (size_t i = 0; i < ex->nobs; i++) {
		h = fnv(h, ex->obs[i].addr);
		h = fnv(h, ex->obs[i].val);
		h = fnv(h, (uint64_t)ex->obs[i].wid[0] << 32 |
				   (uint32_t)ex->obs[i].wid[1]);
	}
	return h;
}

uint64_t exec_steps(struct ftv_exec *ex)
{
	return ex->stats.steps;
}

void exec_get_stats(struct ftv_exec *ex, struct exec_stats *st)
{
	struct rusage ru;

	*st = ex->stats;
	if (!getrusage(RUSAGE_SELF, &ru))
		st->peak_rss_kb = ru.ru_maxrss;
}

int exec_last_fetch(struct ftv_exec *ex, unsigned cpu, uint64_t addr,
		    uint32_t *val)
{
	struct winsn *w = xm_insn(ex, addr);

	if (!w || cpu >= ex->cfg.ncpus || w->last[cpu] < 0)
		return -1;
	*val = (uint32_t)ex->wr[w->coh[w->last[cpu]]].val;
	return 0;
}

struct sim_aspace *exec_aspace(struct ftv_exec *ex)
{
	return ex->as;
}
