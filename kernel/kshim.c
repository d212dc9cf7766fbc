/* The shim table (kernel/kshim.h). Sources: Linux 6.12 unless said. */
#include "kernel/kshim.h"

#include <stdio.h>
#include <string.h>

#define KSHIM_EFAULT 14
#define KSHIM_EBUSY 16

/* arch/arm64/include/asm/pgtable-hwdef.h */
#define PTE_VALID (1ull << 0)
#define PTE_USER (1ull << 6)
/* Arm ARM C6.2.90: the CRm of DSB ISH and DSB ISHST */
#define OPT_ISH 0xb
#define OPT_ISHST 0xa

/* __set_fixmap(idx, phys, prot), arch/arm64/mm/fixmap.c: with a prot,
 * __set_pte (asm/pgtable.h) writes the PTE and, for a valid kernel PTE,
 * dsb(ishst); isb(): the mapping is usable, and every store made before it
 * is ordered before whatever is stored through it. With prot 0
 * (clear_fixmap): __pte_clear then flush_tlb_kernel_range
 * (asm/tlbflush.h): dsb(ishst); tlbi vaale1is; dsb(ish); isb(). */
static int fixmap(struct kern *k, const uint64_t *x, uint64_t *ret,
		  struct ftv_err *err)
{
	const char *f = "__set_fixmap";

	(void)ret;
	(void)err;
	if (x[2]) {
		k->fix.mapped = 1;
		k->fix.idx = x[0];
		k->fix.phys = x[1] & ~(SIM_PAGE - 1);
		k->fix.text_page = k->fix.phys + k->kimage_voffset;
		if (kern_event(k, KEV_MAP, k->fix.text_page, x[0], 0, f))
			return -1;
		if ((x[2] & PTE_VALID) && !(x[2] & PTE_USER))
			return kern_event(k, KEV_DSB, 0, 0, OPT_ISHST, f) ||
			       kern_event(k, KEV_ISB, 0, 0, 0, f);
		return 0;
	}
	k->fix.mapped = 0;
	return kern_event(k, KEV_UNMAP, k->fix.text_page, x[0], 0, f) ||
	       kern_event(k, KEV_DSB, 0, 0, OPT_ISHST, f) ||
	       kern_event(k, KEV_TLBI, 0, x[0], 0, f) ||
	       kern_event(k, KEV_DSB, 0, 0, OPT_ISH, f) ||
	       kern_event(k, KEV_ISB, 0, 0, 0, f);
}

static uint64_t le(const uint8_t *b, uint64_t n)
{
	uint64_t v = 0;

	for (uint64_t i = 0; i < n && i < 8; i++)
		v |= (uint64_t)b[i] << (8 * i);
	return v;
}

/* copy_to_kernel_nofault(dst, src, size), mm/maccess.c: the store itself,
 * sized as called (the runner drops translated code the store changed,
 * from the event). dst is the fixmap address patch_map returned; the
 * bytes land on the text page the slot maps. The slot's address is learnt
 * at its first use (fix_to_virt(FIX_TEXT_POKE0) is a constant of the
 * build) and must not change. Through no mapping: -EFAULT, as the
 * kernel's fault handling of the nofault copy. */
static int copy_to(struct kern *k, const uint64_t *x, uint64_t *ret,
		   struct ftv_err *err)
{
	uint8_t b[64];
	uint64_t dst = x[0], n = x[2], page = dst & ~(SIM_PAGE - 1), to;
	char msg[96];

	if (n > sizeof(b) || (dst & (SIM_PAGE - 1)) + n > SIM_PAGE)
		return ftv_errf(err, "copy_to_kernel_nofault: %llu bytes at 0x%llx: "
				"more than one page or 64 bytes",
				(unsigned long long)n, (unsigned long long)dst);
	if (!k->fix.va && k->fix.mapped && !sim_region_at(k->as, dst))
		k->fix.va = page;
	if (!k->fix.mapped || page != k->fix.va) {
		snprintf(msg, sizeof(msg), "copy_to_kernel_nofault to 0x%llx: no fixmap mapping there",
			 (unsigned long long)dst);
		*ret = (uint64_t)-KSHIM_EFAULT;
		return kern_event(k, KEV_FAULT, dst, 0, 0, msg) ? -1 : 0;
	}
	to = k->fix.text_page + (dst & (SIM_PAGE - 1));
	if (sim_read(k->as, x[1], b, n, err) || sim_write(k->as, to, b, n, err))
		return ftv_err_prefix(err, "copy_to_kernel_nofault");
	if (kern_event(k, KEV_STORE, to, le(b, n), (unsigned)n, "copy_to_kernel_nofault"))
		return -1;
	k->log.v[k->log.n - 1].alias = dst;
	*ret = 0;
	return 0;
}

/* copy_from_kernel_nofault(dst, src, size): the read itself
 * (aarch64_insn_read: the old word ftrace_modify_code validates). */
static int copy_from(struct kern *k, const uint64_t *x, uint64_t *ret,
		     struct ftv_err *err)
{
	uint8_t b[64];
	uint64_t n = x[2], v;

	if (n > sizeof(b))
		return ftv_errf(err, "copy_from_kernel_nofault: %llu bytes",
				(unsigned long long)n);
	if (sim_read(k->as, x[1], b, n, NULL)) {
		*ret = (uint64_t)-KSHIM_EFAULT;
		return kern_event(k, KEV_FAULT, x[1], 0, 0,
				  "copy_from_kernel_nofault: unmapped");
	}
	/* a word of the world, as the patcher CPU reads it now */
	if (k->answer && k->answer(k->answer_ctx, x[1], (unsigned)n, &v))
		for (uint64_t i = 0; i < n && i < 8; i++)
			b[i] = (uint8_t)(v >> (8 * i));
	if (sim_write(k->as, x[0], b, n, err))
		return ftv_err_prefix(err, "copy_from_kernel_nofault: destination");
	*ret = 0;
	return kern_event(k, KEV_READ, x[1], le(b, n), (unsigned)n,
			  "copy_from_kernel_nofault");
}

/* _raw_spin_lock_irqsave(lock) / _raw_spin_unlock_irqrestore(lock, flags):
 * patch_lock (patching.c). One CPU: taken at once; the events say where
 * another CPU's patching would wait. Interrupts off in between: no
 * scheduling point. */
static int lock(struct kern *k, const uint64_t *x, uint64_t *ret,
		struct ftv_err *err)
{
	(void)err;
	k->locks++;
	*ret = 0; /* flags */
	return kern_event(k, KEV_LOCK, x[0], 0, 0, "_raw_spin_lock_irqsave");
}

static int unlock(struct kern *k, const uint64_t *x, uint64_t *ret,
		  struct ftv_err *err)
{
	(void)ret;
	if (k->locks <= 0)
		return ftv_errf(err, "_raw_spin_unlock_irqrestore of 0x%llx: not locked",
				(unsigned long long)x[0]);
	k->locks--;
	return kern_event(k, KEV_UNLOCK, x[0], 0, 0, "_raw_spin_unlock_irqrestore");
}

/* core_kernel_text(addr), kernel/extable.c: the loaded objects' text.
 * Module text (kern_open_modules) is answered as text too: for patch_map
 * (arch/arm64/kernel/patching.c, is_image_text = core_kernel_text) the
 * only difference is how the page's physical address is found
 * (__pa_symbol instead of vmalloc_to_page + page_to_phys); the fixmap
 * mapping, its barriers and the store through it are the same. */
static int core_text(struct kern *k, const uint64_t *x, uint64_t *ret,
		     struct ftv_err *err)
{
	(void)err;
	*ret = (x[0] >= k->text_lo && x[0] < k->text_hi) ||
	       (x[0] >= k->mtext_lo && x[0] < k->mtext_hi);
	return 0;
}

/* Module text's page (vmalloc_to_page): every object is loaded as kernel
 * text, so there is none; patch_map's BUG_ON(!page) reports what would
 * follow. */
static int no_module(struct kern *k, const uint64_t *x, uint64_t *ret,
		     struct ftv_err *err)
{
	(void)k;
	(void)x;
	(void)err;
	*ret = 0;
	return 0;
}

/* __module_text_address(addr), kernel/module/main.c: the struct module
 * whoever drives the call built for a far module's site (its MOD_TEXT
 * and ftrace PLT, for ftrace_find_callable_addr / get_ftrace_plt in
 * arch/arm64/kernel/ftrace.c), else NULL (WARN_ON(!mod) follows). */
static int module_of(struct kern *k, const uint64_t *x, uint64_t *ret,
		     struct ftv_err *err)
{
	(void)x;
	(void)err;
	*ret = k->module;
	return 0;
}

/* ftrace_find_unique_ops(rec), kernel/trace/ftrace.c: the one ops a
 * CALL_OPS_EN record calls; answered by whoever drives the call with
 * what ftv's core model (patcher/ftrace_core.c) decided. */
static int unique_ops(struct kern *k, const uint64_t *x, uint64_t *ret,
		      struct ftv_err *err)
{
	(void)x;
	(void)err;
	*ret = k->unique_ops;
	return 0;
}

/* printk and WARN's message: the format string, to the report. */
static int print(struct kern *k, const uint64_t *x, uint64_t *ret,
		 struct ftv_err *err)
{
	char s[160];
	size_t i = 0;
	uint8_t c = 0;

	(void)err;
	for (; i + 1 < sizeof(s) && !sim_read(k->as, x[0] + i, &c, 1, NULL) && c; i++)
		s[i] = (char)c;
	s[i] = 0;
	/* KERN_<level> is SOH and a digit (include/linux/kern_levels.h) */
	*ret = 0;
	return kern_event(k, KEV_PRINT, x[0], 0, 0, s[0] == 1 && s[1] ? s + 2 : s);
}

/* ___ratelimit(rs, func), lib/ratelimit.c: always allowed (every
 * message reaches the report). */
static int ratelimit(struct kern *k, const uint64_t *x, uint64_t *ret,
		     struct ftv_err *err)
{
	(void)k;
	(void)x;
	(void)err;
	*ret = 1;
	return 0;
}

static int stack_chk_fail(struct kern *k, const uint64_t *x, uint64_t *ret,
			  struct ftv_err *err)
{
	char at[96];

	(void)x;
	(void)ret;
	sim_symbolize(k->as, k->pc, at, sizeof(at), 0);
	return ftv_errf(err, "stack protector: canary of current changed (%s)", at);
}

/* preempt_schedule(), kernel/sched/core.c: preempt_enable() found
 * TIF_NEED_RESCHED; the task may be switched out here. */
static int sched(struct kern *k, const uint64_t *x, uint64_t *ret,
		 struct ftv_err *err)
{
	(void)x;
	(void)ret;
	(void)err;
	return kern_event(k, KEV_SCHED, 0, 0, 0, "preempt_schedule");
}

/* rcu_is_watching(), kernel/rcu/tree.c: the CPU is not idle. */
static int rcu_watching(struct kern *k, const uint64_t *x, uint64_t *ret,
			struct ftv_err *err)
{
	(void)k;
	(void)x;
	(void)err;
	*ret = 1;
	return 0;
}

/* function_graph_enter(), kernel/trace/fgraph.c: declines (-EBUSY), so
 * prepare_ftrace_return leaves the return address alone. */
static int graph_enter(struct kern *k, const uint64_t *x, uint64_t *ret,
		       struct ftv_err *err)
{
	(void)k;
	(void)x;
	(void)err;
	*ret = (uint64_t)-KSHIM_EBUSY;
	return 0;
}

static const struct kshim shims[] = {
	{ "__set_fixmap", "map/clear a fixmap slot (arch/arm64/mm/fixmap.c)",
	  "map: alias of the text page + __set_pte's DSB ISHST; ISB. clear: "
	  "DSB ISHST; TLBI VAALE1IS; DSB ISH; ISB (flush_tlb_kernel_range)",
	  fixmap },
	{ "copy_to_kernel_nofault", "store through the text alias (mm/maccess.c)",
	  "one store of the size asked, at the text address the alias maps; "
	  "-EFAULT through no mapping", copy_to },
	{ "copy_from_kernel_nofault", "read kernel text (mm/maccess.c)",
	  "one read of the size asked (logged: the validating read)", copy_from },
	{ "_raw_spin_lock_irqsave", "take patch_lock, irqs off",
	  "lock event; no scheduling point until the unlock", lock },
	{ "_raw_spin_unlock_irqrestore", "release patch_lock", "unlock event",
	  unlock },
	{ "core_kernel_text", "is addr core kernel text (kernel/extable.c)",
	  "query: the loaded objects' text", core_text },
	{ "vmalloc_to_page", "the page of module text (mm/vmalloc.c)",
	  "query: NULL, no module text is loaded (BUG_ON follows)", no_module },
	{ "__module_text_address", "the module holding addr (kernel/module/main.c)",
	  "query: the far module's struct module its driver built, else NULL", module_of },
	{ "ftrace_find_unique_ops", "the one ops of a CALL_OPS_EN record "
	  "(kernel/trace/ftrace.c)", "query: ftv's core model's answer", unique_ops },
	{ "_printk", "printk", "message to the report", print },
	{ "__warn_printk", "WARN()'s message", "message to the report", print },
	{ "___ratelimit", "printk ratelimit (lib/ratelimit.c)", "query: allowed",
	  ratelimit },
	{ "__stack_chk_fail", "stack protector failure", "stops the run", stack_chk_fail },
	{ "preempt_schedule", "preemption point (kernel/sched/core.c)",
	  "scheduling point event", sched },
	{ "preempt_schedule_notrace", "preemption point, untraced",
	  "scheduling point event", sched },
	{ "rcu_is_watching", "is RCU watching this CPU (kernel/rcu/tree.c)",
	  "query: yes (the list function calls RCU ops)", rcu_watching },
	{ "function_graph_enter", "graph tracer entry (kernel/trace/fgraph.c)",
	  "declines (-EBUSY): the return address is left alone", graph_enter },
	{ NULL, NULL, NULL, NULL },
};

const struct kshim *kshim_find(const char *name)
{
	for (const struct kshim *s = shims; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

const struct kshim *kshim_get(unsigned i)
{
	return i < sizeof(shims) / sizeof(shims[0]) - 1 ? &shims[i] : NULL;
}
