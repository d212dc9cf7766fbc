/* What a run of Linux's own code did to memory, in order: the effects
 * ftv's kernel runner records (kernel/krun.c from the instructions it
 * executes, kernel/kshim.c from the kernel services it answers). These are
 * the events a CPU of the executor will see when it runs the same code
 * (issue 26): nothing a shim does is hidden from this log.
 *
 *   KEV_STORE   size bytes of value at addr. A store through the text
 *               fixmap is logged at the text address it lands on, with
 *               the fixmap address in alias (arch/arm64/kernel/patching.c
 *               patch_map: FIX_TEXT_POKE0 maps the text page).
 *   KEV_READ    a read a shim made for the kernel (copy_from_kernel_nofault:
 *               aarch64_insn_read, the validating read).
 *   KEV_DSB/DMB/ISB  a barrier; opt is the CRm option (0xb ISH, 0xa ISHST,
 *               0xf SY, ...). from says whether an instruction of the loaded
 *               code executed it or a shim implies it (__set_pte's).
 *   KEV_DC_CVAU/IC_IVAU  cache maintenance of the line holding addr;
 *   KEV_IC_IALLUIS  of every instruction cache of the domain.
 *   KEV_TLBI    the TLB invalidation of a fixmap slot (clear_fixmap).
 *   KEV_MAP/UNMAP  fixmap slot value (FIX_TEXT_POKE0) mapped to the text
 *               page addr / cleared.
 *   KEV_LOCK/UNLOCK  a raw spinlock (addr) taken / released, irqs off.
 *   KEV_SCHED   a scheduling point (preempt_schedule).
 *   KEV_PRINT   a message (printk, WARN): text.
 *   KEV_BUG     BRK #0x800 (WARN/BUG): text is "file:line" from __bug_table.
 *   KEV_FAULT   a service refused (a store through no mapping): text. */
#ifndef FTV_KERNEL_KEVENT_H
#define FTV_KERNEL_KEVENT_H

#include <stddef.h>
#include <stdint.h>

enum kev_kind {
	KEV_STORE, KEV_READ,
	KEV_DSB, KEV_DMB, KEV_ISB,
	KEV_DC_CVAU, KEV_IC_IVAU, KEV_IC_IALLUIS, KEV_TLBI,
	KEV_MAP, KEV_UNMAP,
	KEV_LOCK, KEV_UNLOCK,
	KEV_SCHED, KEV_PRINT, KEV_BUG, KEV_FAULT,
};

struct kev {
	enum kev_kind kind;
	uint64_t addr, value;
	unsigned size;      /* STORE/READ bytes; barriers: the CRm option */
	uint64_t alias;     /* STORE: the fixmap address written, or 0 */
	uint64_t pc;        /* the instruction, or the call of the shim */
	/* where the function the runner called (ftrace_make_call, ...) was:
	 * the call it made that led to pc (from the frame records), or pc */
	uint64_t outer;
	int locked;         /* a raw spinlock was held */
	const char *from;   /* "insn" or the shim's kernel name (static) */
	char *text;         /* PRINT, BUG, FAULT (owned) */
};

struct kev_log {
	struct kev *v;
	size_t n, cap;
};

/* Appends a copy of e (text is copied); -1 when out of memory. */
int kev_push(struct kev_log *l, const struct kev *e);
void kev_clear(struct kev_log *l);   /* n = 0, frees the texts */
void kev_free(struct kev_log *l);
const char *kev_kind_name(enum kev_kind k);
/* One event in the kernel's terms: "str 8 @0x... = 0x..." */
char *kev_format(const struct kev *e, char *buf, size_t n);

#endif
