/* The one-CPU runner (kernel/kern.h): the one file of kernel/ that calls
 * Unicorn. The CPU starts at EL1 (Unicorn 2.0.1's arm64 default, as the
 * executor relies on: executor/exec_engine.c). */
#include "kernel/kern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "encoders/a64.h"
#include "kernel/kshim.h"

/* where a call returns to: never mapped, uc_emu_start stops there */
#define KRUN_RET 0xffff0000dead0000ull
#define KRUN_BUDGET 100000000ull /* instructions per call: a hang guard */
/* IC IALLUIS = SYS #0, C7, C1, #0 (Arm ARM C5.3.13): not in ftv's
 * encoder table, which holds what the model patches */
#define KRUN_IC_IALLUIS 0xd508711fu
/* BRK #0x800: WARN/BUG (arch/arm64/include/asm/brk-imm.h BUG_BRK_IMM) */
#define KRUN_BUG_BRK 0xd4210000u

struct krun {
	struct kern *k;
	uc_engine *uc;
	uc_hook hcode, hwrite;
	uint64_t text_lo, text_hi;
	uc_context *fresh; /* the registers as opened (krun_reset) */
	/* each text word the code hook decoded, by (pc - text_lo) / 4,
	 * until the text changes (krun_text_changed) */
	struct kdecoded {
		uint32_t w;
		uint16_t id;   /* enum a64_id */
		uint8_t known;
	} *dec;
	size_t ndec;
};

static uint64_t reg(uc_engine *uc, int r)
{
	uint64_t v = 0;

	uc_reg_read(uc, r, &v);
	return v;
}

/* Xn by number (Unicorn numbers X0..X28 in a row, X29 and X30 apart) */
static int xreg(unsigned n)
{
	return n < 29 ? UC_ARM64_REG_X0 + (int)n :
	       n == 29 ? UC_ARM64_REG_X29 : UC_ARM64_REG_X30;
}

static void setreg(uc_engine *uc, int r, uint64_t v)
{
	uc_reg_write(uc, r, &v);
}

/* The pc in the outermost function of the running call: the call
 * instruction of the frame record chain (x29, AAPCS64 6.2.3) whose return
 * address is the runner's, or pc itself when pc is in that function. */
static uint64_t outer(struct krun *r, uint64_t pc)
{
	uint64_t fp = reg(r->uc, UC_ARM64_REG_X29), ret, last = pc;

	/* every frame record {fp, lr} the code pushed (the kernel builds
	 * with frame pointers: arm64 selects ARCH_WANT_FRAME_POINTERS) */
	for (int i = 0; i < 32 && fp; i++) {
		if (sim_read64(r->k->as, fp + 8, &ret) || ret == KRUN_RET)
			break;
		last = ret - 4;
		if (sim_read64(r->k->as, fp, &fp))
			break;
	}
	return last;
}

/* Every barrier and cache maintenance instruction the loaded code
 * executes, in order (Arm ARM C6.2.90 DSB, C6.2.88 DMB, C6.2.134 ISB,
 * C6.2.80 DC, C6.2.135 IC: encoders/a64_table.h). */
static void code_hook(uc_engine *uc, uint64_t pc, uint32_t size, void *user)
{
	struct krun *r = user;
	struct kern *k = r->k;
	struct kdecoded *d = (pc - k->text_lo) / 4 < r->ndec ? &r->dec[(pc - k->text_lo) / 4] : NULL;
	uint32_t w;
	enum a64_id id;

	(void)size;
	if (d && d->known) {
		w = d->w;
		id = (enum a64_id)d->id;
	} else {
		if (sim_read32(k->as, pc, &w))
			return;
		id = a64_lookup(w);
		if (d)
			*d = (struct kdecoded){ w, (uint16_t)id, 1 };
	}
	k->pc = pc;
	k->insns++;
	if (pc == k->watch_pc) {
		k->watch_hits++;
		k->watch_locked += k->locks > 0;
	}
	k->outer = 0;
	switch (id) {
	case A64_DSB:
	case A64_DMB:
	case A64_ISB:
	case A64_DC_CVAU:
	case A64_IC_IVAU:
		k->outer = outer(r, pc);
		break;
	default:
		if (w == KRUN_IC_IALLUIS)
			k->outer = outer(r, pc);
		break;
	}
	switch (id) {
	case A64_DSB:
		kern_event(k, KEV_DSB, 0, 0, (w >> 8) & 0xf, NULL);
		break;
	case A64_DMB:
		kern_event(k, KEV_DMB, 0, 0, (w >> 8) & 0xf, NULL);
		break;
	case A64_ISB:
		kern_event(k, KEV_ISB, 0, 0, 0, NULL);
		break;
	case A64_DC_CVAU:
	case A64_IC_IVAU:
		kern_event(k, id == A64_DC_CVAU ? KEV_DC_CVAU : KEV_IC_IVAU,
			   (w & 31) == 31 ? 0 : reg(uc, xreg(w & 31)),
			   0, 0, NULL);
		break;
	default:
		if (w == KRUN_IC_IALLUIS)
			kern_event(k, KEV_IC_IALLUIS, 0, 0, 0, NULL);
		break;
	}
}

/* Stores of the loaded code to kernel data (not its stack or current):
 * logged as they happen. */
static void write_hook(uc_engine *uc, uc_mem_type t, uint64_t a, int size,
		       int64_t value, void *user)
{
	struct krun *r = user;

	(void)t;
	r->k->pc = reg(uc, UC_ARM64_REG_PC);
	r->k->outer = outer(r, r->k->pc);
	kern_event(r->k, KEV_STORE, a, (uint64_t)value, (unsigned)size, NULL);
}

struct krun *krun_new(struct kern *k, struct ftv_err *err)
{
	struct krun *r = calloc(1, sizeof(*r));
	uc_err e;

	if (!r) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	r->k = k;
	if ((e = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &r->uc)) != UC_ERR_OK) {
		ftv_errf(err, "uc_open: %s", uc_strerror(e));
		free(r);
		return NULL;
	}
	for (size_t i = 0; i < sim_region_count(k->as); i++) {
		struct sim_region *g = sim_region_get(k->as, i);
		uint32_t p = (g->perms & SIM_R ? UC_PROT_READ : 0) |
			     (g->perms & SIM_W ? UC_PROT_WRITE : 0) |
			     (g->perms & SIM_X ? UC_PROT_EXEC : 0);

		if ((e = uc_mem_map_ptr(r->uc, g->base, g->size, p, g->host))) {
			ftv_errf(err, "mapping %s: %s", g->name, uc_strerror(e));
			krun_free(r);
			return NULL;
		}
		if (!strcmp(g->name, "kernel.data") || !strcmp(g->name, "kernel.bss"))
			uc_hook_add(r->uc, &r->hwrite, UC_HOOK_MEM_WRITE, (void *)write_hook,
				    r, g->base, g->base + g->size - 1);
	}
	uc_hook_add(r->uc, &r->hcode, UC_HOOK_CODE, (void *)code_hook, r,
		    k->text_lo, k->text_hi - 1);
	r->ndec = k->text_hi > k->text_lo ? (k->text_hi - k->text_lo) / 4 : 0;
	if (r->ndec && !(r->dec = calloc(r->ndec, sizeof(*r->dec)))) {
		ftv_errf(err, "out of memory");
		krun_free(r);
		return NULL;
	}
	setreg(r->uc, UC_ARM64_REG_SP_EL0, k->task);
	if ((e = uc_context_alloc(r->uc, &r->fresh)) != UC_ERR_OK ||
	    (e = uc_context_save(r->uc, r->fresh)) != UC_ERR_OK) {
		ftv_errf(err, "uc_context_save: %s", uc_strerror(e));
		krun_free(r);
		return NULL;
	}
	return r;
}

void krun_reset(struct krun *r)
{
	if (r && r->fresh)
		uc_context_restore(r->uc, r->fresh);
}

void krun_free(struct krun *r)
{
	if (!r)
		return;
	if (r->fresh)
		uc_context_free(r->fresh);
	free(r->dec);
	if (r->uc)
		uc_close(r->uc);
	free(r);
}

void krun_text_changed(struct krun *r, uint64_t addr, uint64_t len)
{
	if (!r)
		return;
	uc_ctl_remove_cache(r->uc, addr, addr + len);
	for (uint64_t a = addr & ~3ull; a < addr + len; a += 4)
		if (a >= r->k->text_lo && (a - r->k->text_lo) / 4 < r->ndec)
			r->dec[(a - r->k->text_lo) / 4].known = 0;
}

/* A trap the run stopped at: a shim's stub (run it and return to the
 * caller), WARN (log, go on after it), BUG or anything else (stop). */
static int trap(struct krun *r, uint64_t pc, struct ftv_err *err)
{
	struct kern *k = r->k;
	uint64_t lr = reg(r->uc, UC_ARM64_REG_LR), x[8], ret;
	const char *name = sim_image_stub_name(k->img, pc);
	const struct kshim *s = name ? kshim_find(name) : NULL;
	const struct kern_bug *b;
	uint32_t w = 0;
	char msg[300];

	if (s) {
		int ids[8];
		void *vals[8];

		for (int i = 0; i < 8; i++) {
			ids[i] = xreg((unsigned)i);
			vals[i] = &x[i];
		}
		uc_reg_read_batch(r->uc, ids, vals, 8);
		ret = x[0];
		size_t from = k->log.n;

		k->pc = lr - 4;
		k->outer = outer(r, k->pc);
		if (s->fn(k, x, &ret, err))
			return -1;
		/* text the shim stored to: translated code is stale */
		for (size_t i = from; i < k->log.n; i++)
			if (k->log.v[i].kind == KEV_STORE)
				krun_text_changed(r, k->log.v[i].addr, k->log.v[i].size);
		setreg(r->uc, UC_ARM64_REG_X0, ret);
		setreg(r->uc, UC_ARM64_REG_PC, lr);
		return 0;
	}
	if (sim_image_undefined_call(k->img, pc, lr, msg, sizeof(msg)))
		return ftv_errf(err, "%s (no shim: kernel/kshim.c)", msg);
	sim_read32(k->as, pc, &w);
	if (w == KRUN_BUG_BRK && (b = kern_bug_at(k, pc))) {
		k->pc = pc;
		k->outer = outer(r, pc);
		kern_event(k, KEV_BUG, pc, 0, 0, b->where);
		if (!b->warn) {
			sim_symbolize(k->as, pc, msg, sizeof(msg), 0);
			return ftv_errf(err, "BUG at %s (%s)", b->where, msg);
		}
		/* WARN: report_bug() returns, the handler skips the BRK
		 * (arch/arm64/kernel/traps.c bug_brk_handler) */
		setreg(r->uc, UC_ARM64_REG_PC, pc + 4);
		return 0;
	}
	sim_symbolize(k->as, pc, msg, sizeof(msg), 0);
	return ftv_errf(err, "exception at %s (word 0x%08x)", msg, w);
}

int krun_call(struct krun *r, uint64_t fn, const uint64_t *args, int nargs,
	      uint64_t *ret, struct ftv_err *err)
{
	uint64_t sp = SIM_STACK_BASE + 0x10000 - 16, pc = fn, done = 0;
	struct kern *k = r->k;

	/* x0..x29 (x0..x7 the arguments, the rest 0), sp, lr, sp_el0: one
	 * batch (a register write each was a call-out each) */
	{
		enum { N = 33 };
		int ids[N];
		uint64_t v[N];
		void *vals[N];

		for (unsigned i = 0; i < 30; i++) {
			ids[i] = xreg(i);
			v[i] = (int)i < nargs && i < 8 ? args[i] : 0;
		}
		ids[30] = UC_ARM64_REG_SP;
		v[30] = sp;
		ids[31] = UC_ARM64_REG_LR;
		v[31] = KRUN_RET;
		ids[32] = UC_ARM64_REG_SP_EL0;
		v[32] = k->task;
		for (int i = 0; i < N; i++)
			vals[i] = &v[i];
		uc_reg_write_batch(r->uc, ids, vals, N);
	}
	k->locks = 0;
	while (pc != KRUN_RET) {
		uc_err e = uc_emu_start(r->uc, pc, KRUN_RET, 0, KRUN_BUDGET);

		pc = reg(r->uc, UC_ARM64_REG_PC);
		if (e == UC_ERR_EXCEPTION) {
			if (trap(r, pc, err))
				return -1;
			pc = reg(r->uc, UC_ARM64_REG_PC);
			if (++done > 100000)
				return ftv_errf(err, "more than 100000 traps in one call");
			continue;
		}
		if (e != UC_ERR_OK) {
			char at[160];

			sim_symbolize(k->as, pc, at, sizeof(at), 0);
			return ftv_errf(err, "at %s: %s", at, uc_strerror(e));
		}
		if (pc != KRUN_RET) {
			char at[160];

			sim_symbolize(k->as, pc, at, sizeof(at), 0);
			return ftv_errf(err, "no return within %llu instructions (at %s)",
					(unsigned long long)KRUN_BUDGET, at);
		}
	}
	if (k->locks)
		return ftv_errf(err, "returned holding %d raw spinlock(s)", k->locks);
	*ret = reg(r->uc, UC_ARM64_REG_X0);
	return 0;
}
