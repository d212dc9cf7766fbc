/* The engines (exec_engine.h): opening them over the aspace, the per-CPU
 * text copies, the hooks, translation invalidation, registers, running a
 * turn (the snapshot that exec_reset puts back: exec_snap.c).
 *
 * Facts about Unicorn 2.0.1 this file relies on (checked with small
 * experiments on this machine):
 *  - uc_emu_stop() called from a UC_HOOK_CODE callback stops *before* the
 *    hooked instruction executes (pc is left at it), and restarting there
 *    calls the hook again (exec_run.c passes through it once: "armed").
 *  - a UC_HOOK_MEM_READ callback runs before the load, so the value in
 *    memory when it returns is the value loaded.
 *  - translated code is not invalidated when memory is changed behind the
 *    engine's back; uc_ctl_remove_cache(begin, end) on that engine is needed,
 *    and hooks added after translation only reach code translated later.
 *  - engines start at EL1 (PSTATE 0x3c5). */
#define _GNU_SOURCE /* memfd_create */
#include "executor/exec_engine.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#include "executor/exec_pages.h"
#include "executor/exec_watchdog.h"

const struct xe_keeper *xe_keeper;

/* --- hooks --------------------------------------------------------------- */

/* Called before an instruction at a marked pc, by a hook over that pc
 * alone, or, once many pcs are marked, before every instruction by one
 * hook over every address, with a filter of hashed pcs letting only the
 * marked ones through (see xe_mark_pc). */
static void code_hook(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct xecpu *c = ((struct xhook *)user)->c;
	struct xengine *e = c->e;

	(void)size;
	/* (outside the private text, whose bounds are checked in one
	 * compare: see xe_pool_put) */
	if (pc - e->xlo >= e->xspan)
		c->strayed = 1;
	/* The turn's instruction count, as Unicorn's own counting hook
	 * would do it from the head of the hook list: the instruction past
	 * the count stops the turn before it, and no other hook sees it. */
	if ((c->count && ++c->counted > c->count) || pc == c->stop_at) {
		uc_emu_stop(uc);
		return;
	}
	c->pc_now = pc;
	if (e->load_gate && *e->load_gate && e->ops->pre_insn(e->ctx, c->idx, pc))
		return;
	if (!xe_pc_marked(e, pc))
		return;
	e->ops->pc(e->ctx, c->idx, pc);
}

/* The block past a turn's instruction budget (block_hook), or a count
 * down that ran out with no budget to count. */
static void __attribute__((noinline, cold)) over_budget(uc_engine *uc, struct xhook *hk)
{
	struct xecpu *c = hk->c;

	/* (no budget, or one too large to count down: none) */
	if (!c->budget || c->budget >= INT64_MAX) {
		hk->left = INT64_MAX;
		return;
	}
	if (!c->over_budget) {
		c->over_budget = 1;
		uc_emu_stop(uc);
	}
}

/* Before every block of translated code, on every engine from its opening
 * (a hook added later would reach only code translated later, and an
 * engine from the pool must count as a fresh one): the instruction budget
 * of a free-running turn (xe_run's insns). A block counts its bytes / 4
 * (riscv64's compressed instructions count half), at least one, so what
 * a turn has spent depends only on the blocks it executed, never on the
 * clock; the block past the budget is stopped (uc_emu_stop: at the latest
 * before the next block), at the same place on every run.
 * What it costs: the engine's only block hook, so Unicorn 2.0.1 compiles
 * a direct call to this function at the head of every block
 * (tcg-op.h gen_uc_tracecode: hooks_count == 1, uc_add_inline_hook; no
 * walk of the hook list) and keeps the blocks chained; the call itself,
 * not what it does, is most of the price (docs/bench-scale.md, "The
 * instruction budget's price"). Hence the count down in xhook, read
 * without a load of the CPU first. */
static void block_hook(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct xhook *hk = user;

	(void)pc;
	hk->left -= size >= 4 ? size / 4 : 1;
	if (hk->left < 0)
		over_budget(uc, hk);
}

/* A load by a CPU whose translated code calls read hooks. Each engine has
 * one such hook over the whole address space, added by the first
 * xe_watch_loads (when the engine had one hook per watched location,
 * Unicorn 2.0.1 walked all of them on every load). */
static void load_hook(uc_engine *uc, uc_mem_type type, uint64_t addr,
		      int size, int64_t value, void *user)
{
	struct xecpu *c = ((struct xhook *)user)->c;

	(void)uc;
	(void)type;
	(void)value;
	c->e->ops->load(c->e->ctx, c->idx, c->pc_now, addr, size);
}

/* A CPU's store into private memory (text, or any with private_data):
 * the model routes it so that every CPU's view follows the rules (the
 * store itself lands in the writer's copy right after this hook). */
static void text_write_hook(uc_engine *uc, uc_mem_type type, uint64_t addr,
			    int size, int64_t value, void *user)
{
	struct xecpu *c = ((struct xhook *)user)->c;

	(void)uc;
	(void)type;
	if (size <= 0 || size > 8)
		return;
	c->e->ops->text_store(c->e->ctx, c->idx, addr, (unsigned)size,
			      (uint64_t)value);
}

/* Remember where a data access faulted (for xarch.fault_pc); the access
 * still faults. */
static bool fault_hook(uc_engine *uc, uc_mem_type type, uint64_t addr,
		       int size, int64_t value, void *user)
{
	struct xecpu *c = ((struct xhook *)user)->c;

	(void)uc;
	(void)size;
	(void)value;
	if (type != UC_MEM_FETCH_UNMAPPED && type != UC_MEM_FETCH_PROT) {
		c->fault_ok = 1;
		c->fault_addr = addr;
	}
	return false;
}

/* --- lifecycle ----------------------------------------------------------- */

/* A code hook over pc alone, the k-th of the CPU's (xe_mark_pc). */
static int add_range_hook(struct xecpu *c, size_t k, uint64_t pc)
{
	uc_hook h;

	if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)code_hook, c->hk, pc,
			pc) != UC_ERR_OK)
		return -1;
	c->hooks[k] = (uint64_t)h;
	return 0;
}

/* A new engine's code hooks, as the marked pcs so far have them
 * (xe_mark_pc): a range hook each, or, for good, one over every address
 * (the load gate's is added by the CPU's first turn under it). */
static int code_hooks_open(struct xengine *e, struct xecpu *c)
{
	uc_hook h;

	memset(c->hooks, 0, XE_RANGE_HOOKS * sizeof(*c->hooks));
	c->ran = 0;
	c->all_hook = 0;
	c->exit_hook = 0;
	c->exit_hook_pc = 0;
	if (e->all_for_good) {
		/* Begin > end: every address. */
		if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)code_hook,
				c->hk, 1, 0) != UC_ERR_OK)
			return -1;
		c->all_hook = (uint64_t)h;
		return 0;
	}
	for (size_t k = 0; k < e->nmarked; k++)
		if (add_range_hook(c, k, e->range_pc[k]))
			return -1;
	return 0;
}

/* A load hook over the region of bit (xecpu.loads), or over every
 * address. */
static int add_load_hook(struct xengine *e, struct xecpu *c, uint64_t bit)
{
	uint64_t lo = 1, hi = 0;
	unsigned ri = 0;
	uc_hook h;

	if (bit != XE_LOADS_ALL) {
		struct sim_region *r;

		if (!c->load_hook &&
		    !(c->load_hook = calloc(XE_LOAD_HOOKS, sizeof(*c->load_hook))))
			return -1;
		while (!(bit >> ri & 1))
			ri++;
		r = sim_region_get(e->as, ri);
		lo = r->base;
		hi = r->base + r->size - 1;
	}
	if (uc_hook_add(c->uc, &h, UC_HOOK_MEM_READ, (void *)load_hook, c->hk, lo, hi) !=
	    UC_ERR_OK)
		return -1;
	if (bit != XE_LOADS_ALL)
		c->load_hook[ri] = (uint64_t)h;
	c->loads |= bit;
	c->slow_access = 1;
	return 0;
}

/* Opens cpu's Unicorn engine over the regions (its text copies already
 * made) with the executor's hooks. */
static int engine_open(struct xengine *e, struct xecpu *c, struct ftv_err *err)
{
	uc_err ue = uc_open((uc_arch)e->arch->uarch, (uc_mode)e->arch->umode,
			    &c->uc);

	if (ue != UC_ERR_OK)
		return ftv_errf(err, "cpu%u: uc_open: %s", c->idx,
				uc_strerror(ue));
	c->hk = malloc(sizeof(*c->hk));
	if (!c->hk)
		return ftv_errf(err, "out of memory");
	c->hk->c = c;
	c->slow_access = 0;
	c->strayed = 0;
	c->uses = 0;
	c->until = 0;
	/* the CPU as it comes, for the next executor that takes the engine
	 * from the pool (exec_pool.c) */
	c->fresh = NULL;
	if (xe_keeper && (uc_context_alloc(c->uc, (uc_context **)&c->fresh) != UC_ERR_OK ||
			     uc_context_save(c->uc, c->fresh) != UC_ERR_OK))
		return ftv_errf(err, "cpu%u: out of memory", c->idx);
	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);
		uc_hook h;

		/* a store to read-only data faults, as it would in the
		 * kernel (rodata, the call probe's buffer), and with
		 * ro_data every store but to a stack; a CPU sent there
		 * still executes what it finds */
		ue = uc_mem_map_ptr(c->uc, r->base, r->size,
				    (r->perms & SIM_X) || r->kind == SIM_REGION_STACK ||
				    ((r->perms & SIM_W) && !e->ro_data) ? UC_PROT_ALL
				    : UC_PROT_READ | UC_PROT_EXEC,
				    c->copy[i] ? c->copy[i] : r->host);
		if (ue != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: map %s at 0x%llx: %s",
					c->idx, r->name,
					(unsigned long long)r->base,
					uc_strerror(ue));
		if (c->copy[i] &&
		    uc_hook_add(c->uc, &h, UC_HOOK_MEM_WRITE,
				(void *)text_write_hook, c->hk, r->base,
				r->base + r->size - 1) != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: write hook on %s", c->idx,
					r->name);
		c->slow_access |= c->copy[i] != NULL;
	}
	if (code_hooks_open(e, c))
		return ftv_errf(err, "cpu%u: code hook", c->idx);
	{
		uc_hook h;

		/* Begin > end: every address. */
		if (uc_hook_add(c->uc, &h, UC_HOOK_BLOCK, (void *)block_hook, c->hk, 1, 0) !=
		    UC_ERR_OK)
			return ftv_errf(err, "cpu%u: block hook", c->idx);
	}
	if (e->arch->fault_pc) {
		uc_hook h;

		if (uc_hook_add(c->uc, &h, UC_HOOK_MEM_UNMAPPED | UC_HOOK_MEM_PROT,
				(void *)fault_hook, c->hk, 1, 0) != UC_ERR_OK)
			return ftv_errf(err, "cpu%u: fault hook", c->idx);
	}
	if (c->loads) {
		uint64_t had = c->loads;

		c->loads = 0;
		for (unsigned b = 0; b < 64; b++)
			if ((had >> b & 1) && add_load_hook(e, c, 1ULL << b))
				return ftv_errf(err, "cpu%u: load hook", c->idx);
	}
	return 0;
}

/* Region i's contents as one shared copy (exec_config.once), made for
 * the first CPU that needs it: a memfd holding the pages that hold
 * something (written with pwrite: nothing is mapped, so the copy costs
 * no resident pages of the process until a CPU reads one). -1 when it
 * cannot be made (no memfd_create, no room): each CPU then gets a copy of
 * its own, as without once. */
static int shared_fd(struct xengine *e, size_t i)
{
	struct sim_region *r = sim_region_get(e->as, i);
	uint64_t n = r->size / XPG_SIZE;
	uint8_t *nz;
	int fd;

	if (e->shfd[i] != -1)
		return e->shfd[i];
	e->shfd[i] = -2; /* tried */
	nz = malloc(n ? n : 1);
	fd = memfd_create("ftv-text", MFD_CLOEXEC);
	if (!nz || fd < 0 || ftruncate(fd, (off_t)r->size))
		goto fail;
	xpg_nonzero(r->host, r->size, nz);
	for (uint64_t p = xpg_next(nz, NULL, 0, n); p < n;
	     p = xpg_next(nz, NULL, p + 1, n)) {
		uint64_t end = p + 1;

		while (end < n && nz[end])
			end++;
		for (uint64_t off = p * XPG_SIZE; off < end * XPG_SIZE;) {
			ssize_t w = pwrite(fd, r->host + off,
					   end * XPG_SIZE - off, (off_t)off);

			if (w <= 0)
				goto fail;
			off += (uint64_t)w;
		}
		p = end - 1;
	}
	free(nz);
	e->shfd[i] = fd;
	return fd;
fail:
	free(nz);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* cpu's private view of region i: a copy-on-write mapping of the shared
 * copy (shared_copies), else a copy of its own. Either way the pages that
 * hold nothing cost nothing. */
static uint8_t *private_copy(struct xengine *e, size_t i, struct ftv_err *err)
{
	struct sim_region *r = sim_region_get(e->as, i);
	uint8_t *nz, *cp;
	int fd = e->shared_copies ? shared_fd(e, i) : -1;

	if (fd >= 0) {
		void *p = mmap(NULL, r->size, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_NORESERVE, fd, 0);

		if (p != MAP_FAILED)
			return p;
	}
	nz = malloc(r->size / XPG_SIZE);
	cp = xpg_alloc(r->size);
	if (!cp || !nz) {
		free(nz);
		xpg_free(cp, r->size);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	xpg_nonzero(r->host, r->size, nz);
	xpg_copy_nonzero(cp, r->host, r->size, nz);
	free(nz);
	return cp;
}

int xe_engine_restart(struct xecpu *c)
{
	c->rval_ok = 0;
	return c->fresh && uc_context_restore(c->uc, c->fresh) == UC_ERR_OK ? 0 : -1;
}

void xe_engine_invalidate(struct xecpu *c, uint64_t addr, uint64_t len)
{
	uc_ctl_remove_cache(c->uc, addr, addr + len);
}

void xe_engine_close(struct xecpu *c)
{
	if (c->uc)
		uc_close(c->uc);
	if (c->fresh)
		uc_context_free(c->fresh);
	free(c->hk);
	free(c->load_hook);
	c->uc = NULL;
	c->fresh = NULL;
	c->hk = NULL;
	c->load_hook = NULL;
}

static int cpu_open(struct xengine *e, struct xecpu *c, struct ftv_err *err)
{
	c->copy = calloc(e->nregions ? e->nregions : 1, sizeof(*c->copy));
	c->hooks = calloc(XE_RANGE_HOOKS, sizeof(*c->hooks));
	if (!c->copy || !c->hooks)
		return ftv_errf(err, "out of memory");
	if (xe_keeper && xe_keeper->take(e, c))
		return 0;
	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);

		if (!(r->perms & SIM_X) && !e->private_data)
			continue;
		/* Text is private: each CPU fetches from its own copy, which
		 * the fetch model keeps per CPU (and, with private_data, data
		 * too: a CPU sees its own buffered stores). */
		c->copy[i] = private_copy(e, i, err);
		if (!c->copy[i])
			return -1;
	}
	return engine_open(e, c, err);
}

/* The shared copies' descriptors, once every CPU maps them (the mappings
 * keep the memory). */
static void shared_close(struct xengine *e)
{
	for (size_t i = 0; e->shfd && i < e->nregions; i++)
		if (e->shfd[i] >= 0)
			close(e->shfd[i]);
	free(e->shfd);
	e->shfd = NULL;
}

/* Unicorn 2.0.1 translates into a code buffer of 1 GiB per engine that it
 * never reuses before it is full (and then crashes flushing it, or leaks
 * when asked to flush), and every run of an exploration retranslates the
 * words the fetch model changed: an engine grows by a few KiB per run. A
 * new engine over the same memory starts empty. Between runs only: the
 * registers and memory come back from the snapshot at the next reset. */
int xe_recycle(struct xengine *e, struct ftv_err *err)
{
	xw_free(&e->wd); /* it may hold an engine we close */
	for (unsigned i = 0; i < e->ncpus; i++) {
		struct xecpu *c = &e->cpu[i];

		xe_engine_close(c);
		if (engine_open(e, c, err))
			return -1;
	}
	return 0;
}

/* The span of the private regions, for code_hook's one compare: a pc
 * outside the private text (a CPU sent into data) means the engine holds
 * translations of memory a later world changes without telling it
 * (xe_pool_put keeps no such engine). No span when a shared region lies
 * inside it. */
static void private_span(struct xengine *e)
{
	uint64_t lo = UINT64_MAX, hi = 0;

	e->xlo = 0;
	e->xspan = 0;
	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);

		if (!(r->perms & SIM_X) && !e->private_data)
			continue;
		if (r->base < lo)
			lo = r->base;
		if (r->base + r->size > hi)
			hi = r->base + r->size;
	}
	if (hi <= lo)
		return;
	for (size_t i = 0; i < e->nregions; i++) {
		struct sim_region *r = sim_region_get(e->as, i);

		if (!(r->perms & SIM_X) && !e->private_data &&
		    r->base < hi && lo < r->base + r->size)
			return;
	}
	e->xlo = lo;
	e->xspan = hi - lo;
}

int xe_init(struct xengine *e, struct sim_aspace *as, const struct xarch *arch,
	    unsigned ncpus, int private_data, const struct xe_ops *ops,
	    void *ctx, struct ftv_err *err)
{
	e->as = as;
	e->private_data = private_data;
	e->arch = arch;
	e->ops = ops;
	e->ctx = ctx;
	e->ncpus = ncpus;
	e->nregions = sim_region_count(as);
	e->rsize = calloc(e->nregions ? e->nregions : 1, sizeof(*e->rsize));
	e->rbase = calloc(e->nregions ? e->nregions : 1, sizeof(*e->rbase));
	if (!e->rsize || !e->rbase)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < e->nregions; i++) {
		e->rsize[i] = sim_region_get(as, i)->size;
		e->rbase[i] = sim_region_get(as, i)->base;
	}
	e->rlast = 0;
	if (e->shared_copies) {
		e->shfd = malloc((e->nregions ? e->nregions : 1) * sizeof(int));
		if (!e->shfd)
			return ftv_errf(err, "out of memory");
		for (size_t i = 0; i < e->nregions; i++)
			e->shfd[i] = -1;
	}
	private_span(e);
	for (unsigned i = 0; i < ncpus; i++) {
		e->cpu[i].e = e;
		e->cpu[i].idx = i;
		if (cpu_open(e, &e->cpu[i], err)) {
			shared_close(e);
			return -1;
		}
	}
	shared_close(e);
	return 0;
}

void xe_free(struct xengine *e)
{
	xw_free(&e->wd); /* before the engines it may stop */
	for (unsigned i = 0; i < e->ncpus; i++) {
		struct xecpu *c = &e->cpu[i];

		free(c->hooks);
		if (c->uc && xe_keeper && xe_keeper->put(e, c))
			continue; /* (the pool has the engine and its copies) */
		xe_engine_close(c);
		for (size_t r = 0; c->copy && r < e->nregions; r++)
			xpg_free(c->copy[r], e->rsize[r]);
		free(c->copy);
	}
	free(e->rsize);
	free(e->rbase);
}

/* --- memory -------------------------------------------------------------- */

int xe_region(const struct xengine *e, uint64_t addr)
{
	size_t k = e->rlast;

	/* most lookups fall in the region of the one before (the text a
	 * CPU runs) */
	if (k < e->nregions && addr - e->rbase[k] < e->rsize[k])
		return (int)k;
	for (size_t i = 0; i < e->nregions; i++)
		if (addr - e->rbase[i] < e->rsize[i]) {
			((struct xengine *)e)->rlast = i;
			return (int)i;
		}
	return -1;
}

int xe_private(const struct xengine *e, uint64_t addr)
{
	int ri = xe_region(e, addr);

	return ri >= 0 && e->cpu[0].copy && e->cpu[0].copy[ri];
}

uint8_t *xe_copy_ptr(struct xengine *e, unsigned cpu, uint64_t addr)
{
	int ri = xe_region(e, addr);
	uint8_t *copy;

	if (ri < 0)
		return NULL;
	copy = e->cpu[cpu].copy[ri];
	return (copy ? copy : sim_region_get(e->as, (size_t)ri)->host) +
	       (addr - e->rbase[ri]);
}

void xe_invalidate(struct xengine *e, unsigned cpu, uint64_t addr,
		   uint64_t len)
{
	/* An engine that never ran has translated nothing (a world's
	 * hundreds of marked pcs and watched words, before its first
	 * turn). */
	if (e->cpu[cpu].ran)
		uc_ctl_remove_cache(e->cpu[cpu].uc, addr, addr + len);
}

void xe_invalidate_all(struct xengine *e, uint64_t addr, uint64_t len)
{
	for (unsigned i = 0; i < e->ncpus; i++)
		xe_invalidate(e, i, addr, len);
}

/* A newly marked pc. Unicorn 2.0.1 decides when it translates an
 * instruction whether it calls out (a UC_HOOK_CODE hook whose range holds
 * the pc): with one hook over every address, every instruction calls out
 * and the pc filter turns nearly all of them away, which held the
 * executor to a fifth of a bare engine's speed (make bench). One hook per
 * marked pc keeps the code in between as fast as a bare engine's, but
 * each call out then costs a walk of all the engine's code hooks: with
 * hundreds of marked pcs (a world's breakpoints at every traced function,
 * a replay batch's 1,024 sites) that walk costs more than calling out at
 * every instruction of the 7 to 30 executed between marked pcs there (the
 * first batches of the Debian replay ran 3.6 times slower with a hook per
 * pc). So: a hook per pc up to XE_RANGE_HOOKS, then one hook over every
 * address with the hashed filter (switched to before the next turn).
 *
 * Code translated before pc was marked does not call out, and may hold
 * bytes the fetch model has since changed in the copy: retranslate it. */
void xe_mark_pc(struct xengine *e, uint64_t pc)
{
	size_t b = (size_t)(pc >> 1) % XE_PC_BITS;

	e->pcbits[b / 64] |= 1ULL << (b % 64);
	if (!e->all_for_good) {
		if (e->nmarked < XE_RANGE_HOOKS)
			e->range_pc[e->nmarked] = pc;
		/* A CPU under the load gate's hook over every address only
		 * remembers the pc: its range hook comes with the others
		 * when the CPU goes back to them (hook_ranges). */
		for (unsigned i = 0; i < e->ncpus; i++)
			if (e->nmarked >= e->arch->range_hooks ||
			    (!e->cpu[i].all_hook &&
			     add_range_hook(&e->cpu[i], e->nmarked, pc))) {
				/* (a hook that could not be added: the same
				 * switch, each CPU's before its next turn,
				 * with nothing missed meanwhile) */
				e->all_for_good = 1;
				break;
			}
		e->nmarked++;
	}
	/* Under the hook over every address all cached code calls out
	 * already (hook_all dropped what was translated before it), and
	 * code_hook's filter lets pc through from now on: nothing to
	 * retranslate (a world's breakpoints, installed after its
	 * calibration run, each cost one drop per CPU). A CPU still under
	 * the range hooks has code translated without a call out at pc,
	 * and keeps it across a later switch (hook_all drops only the
	 * range hooks' pcs without a load gate). */
	for (unsigned i = 0; i < e->ncpus; i++)
		if (!e->cpu[i].all_hook)
			xe_invalidate(e, i, pc, 4);
}

/* Before a turn of CPU c: one hook over every address instead of the
 * range hooks. Without a load gate, only the code translated at the range
 * hooks' pcs is dropped (it calls them, and they go): every other marked
 * pc was marked before its code was translated, which then calls the new
 * hook, or after, which dropped that code (xe_mark_pc); the rest of the
 * cached code holds no marked pc and runs on without calling out.
 *
 * The switch and the one back (hook_ranges) are made per CPU, before its
 * own turn: each drops what the CPU translated, so a CPU that does not
 * run while the gate is open keeps its code (with 8 CPUs and a patch
 * event every 120 steps, switching every CPU at every opening and closing
 * retranslated the hot code of all eight twice per event). */
static int hook_all(struct xengine *e, struct xecpu *c)
{
	size_t n = e->nmarked < XE_RANGE_HOOKS ? e->nmarked : XE_RANGE_HOOKS;
	uc_hook h;

	for (size_t k = 0; k < n; k++)
		if (c->hooks[k]) {
			uc_hook_del(c->uc, (uc_hook)c->hooks[k]);
			c->hooks[k] = 0;
		}
	/* (a second hook would make every call out walk the list) */
	if (c->exit_hook)
		uc_hook_del(c->uc, (uc_hook)c->exit_hook);
	c->exit_hook = 0;
	c->exit_hook_pc = 0;
	/* Begin > end: every address. */
	if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)code_hook, c->hk, 1,
			0) != UC_ERR_OK)
		return -1;
	c->all_hook = (uint64_t)h;
	for (size_t k = 0; c->ran && k < n; k++)
		xe_invalidate(e, c->idx, e->range_pc[k], 4);
	/* With a load gate every instruction may have to call out: drop
	 * everything translated without the hook, region by region (not
	 * UC_CTL_TB_FLUSH: Unicorn 2.0.1's tb_flush clears its whole code
	 * buffer, faulting in hundreds of MiB of zeroed pages each time). */
	for (size_t r = 0; c->ran && e->load_gate && r < e->nregions; r++)
		uc_ctl_remove_cache(c->uc, e->rbase[r], e->rbase[r] + e->rsize[r]);
	return 0;
}

/* Before a turn of CPU c after the load gate closed: the range hooks again
 * instead of the hook over every address (xengine.all_for_good is not
 * set), and everything translated under that hook is dropped, as hook_all
 * drops what was translated without it: that code would call out at every
 * instruction until retranslated. Keeping the hook over every address once
 * the gate had opened held the executor to a fifth of a bare engine. */
/* The range hook at the turn's stop under the range hooks (xe_run): code
 * translated before it does not call out there. */
static int exit_hook(struct xengine *e, struct xecpu *c, uint64_t pc)
{
	uc_hook h;

	if (c->exit_hook)
		uc_hook_del(c->uc, (uc_hook)c->exit_hook);
	c->exit_hook = 0;
	c->exit_hook_pc = 0;
	if (uc_hook_add(c->uc, &h, UC_HOOK_CODE, (void *)code_hook, c->hk, pc, pc) !=
	    UC_ERR_OK)
		return -1;
	c->exit_hook = (uint64_t)h;
	c->exit_hook_pc = pc;
	xe_invalidate(e, c->idx, pc, 4);
	return 0;
}

static int hook_ranges(struct xengine *e, struct xecpu *c)
{
	uc_hook_del(c->uc, (uc_hook)c->all_hook);
	c->all_hook = 0;
	for (size_t k = 0; k < e->nmarked; k++)
		if (add_range_hook(c, k, e->range_pc[k]))
			return -1;
	for (size_t r = 0; c->ran && r < e->nregions; r++)
		uc_ctl_remove_cache(c->uc, e->rbase[r], e->rbase[r] + e->rsize[r]);
	return 0;
}

int xe_watch_loads(struct xengine *e, uint64_t addr, struct ftv_err *err)
{
	int ri = xe_region(e, addr);
	uint64_t bit = e->loads_everywhere || ri < 0 || ri >= XE_LOAD_HOOKS ? XE_LOADS_ALL
									    : 1ULL << ri;

	for (unsigned i = 0; i < e->ncpus; i++) {
		struct xecpu *c = &e->cpu[i];

		if (bit == XE_LOADS_ALL && c->loads && !(c->loads & XE_LOADS_ALL)) {
			/* (the region hooks go: a load must call once) */
			for (unsigned b = 0; b < XE_LOAD_HOOKS; b++)
				if (c->loads >> b & 1)
					uc_hook_del(c->uc, (uc_hook)c->load_hook[b]);
			c->loads = 0;
		}
		if (!(c->loads & (bit | XE_LOADS_ALL)) && add_load_hook(e, c, bit))
			return ftv_errf(err, "cpu%u: hook at 0x%llx: out of memory", i,
					(unsigned long long)addr);
		/* Code translated while the engine had no memory hook loads
		 * without calling out; with one (a write hook on its text
		 * copy, from its opening), Unicorn 2.0.1 compiles every load
		 * and store into its slow path, which walks the hooks as they
		 * are when it runs (tcg/i386/tcg-target.inc.c, cputlb.c
		 * load_helper). */
		if (!c->slow_access)
			xe_invalidate(e, i, addr & ~(SIM_PAGE - 1), SIM_PAGE);
	}
	return 0;
}

void xe_stop(struct xengine *e, unsigned cpu)
{
	uc_emu_stop(e->cpu[cpu].uc);
}

/* --- registers ----------------------------------------------------------- */

int xe_set_reg(struct xengine *e, unsigned cpu, int reg, uint64_t v)
{
	if (reg < 0 || reg >= e->arch->nregs)
		return -1;
	if (reg == e->arch->zero_reg)
		return 0;
	if (!e->snap)
		e->cpu[cpu].init[reg] = v;
	e->cpu[cpu].rval_ok = 0;
	return uc_reg_write(e->cpu[cpu].uc, e->arch->regs[reg], &v) ==
			       UC_ERR_OK ? 0 : -1;
}

uint64_t xe_reg(struct xengine *e, unsigned cpu, int reg)
{
	uint64_t v = 0;

	if (reg >= 0 && reg < e->arch->nregs && reg != e->arch->zero_reg)
		uc_reg_read(e->cpu[cpu].uc, e->arch->regs[reg], &v);
	return v;
}

const uint64_t *xe_regs(struct xengine *e, unsigned cpu)
{
	struct xecpu *c = &e->cpu[cpu];
	int n = e->arch->nregs;

	if (!c->rval_ok) {
		for (int r = 0; r < n; r++)
			c->rval[r] = xe_reg(e, cpu, r);
		c->rval[n] = 0;
		if (e->arch->flags_reg >= 0)
			uc_reg_read(c->uc, e->arch->flags_reg, &c->rval[n]);
		c->rval_ok = 1;
	}
	return c->rval;
}

uint64_t xe_pc(struct xengine *e, unsigned cpu)
{
	uint64_t pc = 0;

	uc_reg_read(e->cpu[cpu].uc, e->arch->regs[e->arch->pc_reg], &pc);
	return pc;
}

int xe_uc_reg(struct xengine *e, unsigned cpu, int uc_reg, void *val,
	      int write)
{
	uc_engine *uc = e->cpu[cpu].uc;

	if (write)
		e->cpu[cpu].rval_ok = 0;
	return (write ? uc_reg_write(uc, uc_reg, val)
		      : uc_reg_read(uc, uc_reg, val)) == UC_ERR_OK ? 0 : -1;
}

static void set_pc(struct xengine *e, unsigned cpu, uint64_t pc)
{
	e->cpu[cpu].rval_ok = 0;
	uc_reg_write(e->cpu[cpu].uc, e->arch->regs[e->arch->pc_reg], &pc);
}

/* --- running ------------------------------------------------------------- */

static void stop_engine(void *uc)
{
	uc_emu_stop(uc);
}

static void invalidate_stop(struct xengine *e, unsigned cpu, uint64_t at)
{
	uint64_t pg = at & ~(SIM_PAGE - 1);

	if (pg >= SIM_PAGE && pg + 2 * SIM_PAGE > pg)
		xe_invalidate(e, cpu, pg - SIM_PAGE, 2 * SIM_PAGE);
}

/* A turn that could not start: a code hook could not be added. */
static uint64_t hook_failed(struct xengine *e, int own, uint64_t pc,
			    struct xe_stop *st)
{
	st->fault = 1;
	st->why = "out of memory (code hook)";
	st->fault_pc = pc;
	if (own)
		xw_disarm(e->wd);
	return pc;
}

uint64_t xe_run(struct xengine *e, unsigned cpu, uint64_t pc, uint64_t until,
		uint64_t insns, uint64_t timeout_us, size_t count, struct xe_stop *st)
{
	struct xecpu *c = &e->cpu[cpu];
	size_t timed_out = 0;
	int gate = e->load_gate && *e->load_gate;
	/* Unicorn's own timeout costs a thread per call: use the
	 * executor's one watchdog thread when it can be started. */
	int own = timeout_us && !xw_arm(&e->wd, stop_engine, c->uc,
					timeout_us);
	uc_err ue;

	memset(st, 0, sizeof(*st));
	/* A turn with an instruction count: every instruction must call out.
	 * code_hook counts them (Unicorn 2.0.1's count is a second code hook
	 * over every address, called before ours at every instruction). */
	if (count)
		e->all_for_good = 1;
	c->count = count;
	c->counted = 0;
	c->budget = insns;
	c->hk->left = insns && insns < INT64_MAX ? (int64_t)insns : INT64_MAX;
	c->over_budget = 0;
	/* The load gate open: every instruction must reach ops->pre_insn
	 * (its count only changes between turns). When a load's pc matters,
	 * the hook stays: only it keeps xecpu.pc_now exact. */
	if (gate && e->exact_load_pc)
		e->all_for_good = 1;
	if ((!gate && !e->all_for_good && c->all_hook && hook_ranges(e, c)) ||
	    ((gate || e->all_for_good) && !c->all_hook && hook_all(e, c)))
		return hook_failed(e, own, pc, st);
	/* Unicorn 2.0.1 compiles the stop at `until` into the code it
	 * translates, and after every run drops the block that ends there
	 * (softmmu/cpus.c resume_all_vcpus): a page lookup and a block
	 * translated again per turn (with 8 CPUs in exec_bench, most of
	 * the blocks it translated). code_hook stops there instead, as
	 * Unicorn would (before the instruction, no hook seeing it), and
	 * Unicorn is given an address no instruction has: the hook over
	 * every address sees the stop, and under the range hooks a range
	 * hook of its own does (exit_hook). */
	if (!e->arch->exit_hook && !(c->all_hook && e->all_for_good)) {
		/* (riscv64 under the range hooks, or the load gate's hook
		 * that comes and goes: Unicorn's stop) */
		c->stop_at = XE_NO_STOP;
	} else {
		if (!c->all_hook && until != XE_NO_STOP && c->exit_hook_pc != until &&
		    exit_hook(e, c, until))
			return hook_failed(e, own, pc, st);
		c->stop_at = until;
		until = XE_NO_STOP;
	}
	if (until != c->until) {
		/* Code translated for another stop (range hooks before, or
		 * an engine from the pool) ends at the wrong place: the
		 * blocks ending at a stop end on its page or the one
		 * before. */
		if (c->ran) {
			invalidate_stop(e, cpu, c->until);
			invalidate_stop(e, cpu, until);
		}
		c->until = until;
	}
	c->ran = 1;
	c->rval_ok = 0;
	ue = uc_emu_start(c->uc, pc, until, own ? 0 : timeout_us, 0);
	if (own)
		timed_out = (size_t)xw_disarm(e->wd);
	c->budget = 0;
	st->out_of_insns = c->over_budget;
	pc = xe_pc(e, cpu);
	if (ue != UC_ERR_OK) {
		uint64_t at = pc;

		if (ue == UC_ERR_EXCEPTION && e->arch->fault_pc_skew) {
			at -= e->arch->fault_pc_skew;
			set_pc(e, cpu, at);
		}
		if (e->arch->fault_pc && c->fault_ok &&
		    ue != UC_ERR_FETCH_UNMAPPED && ue != UC_ERR_FETCH_PROT) {
			at = e->arch->fault_pc(e, cpu, at, c->fault_addr);
			set_pc(e, cpu, at);
		}
		c->fault_ok = 0;
		st->fault = 1;
		st->exception = ue == UC_ERR_EXCEPTION;
		st->why = uc_strerror(ue);
		st->fault_pc = at;
		return pc;
	}
	if (timeout_us && !own &&
	    uc_query(c->uc, UC_QUERY_TIMEOUT, &timed_out) != UC_ERR_OK)
		timed_out = 0;
	/* (the budget reached first decides: the clock only guards) */
	st->timed_out = timed_out != 0 && !st->out_of_insns;
	return pc;
}
