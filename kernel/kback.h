/* Linux's own arm64 ftrace backend as the backend of a world (issue 26,
 * docs/kernel.md "--scheme kernel").
 *
 * Each verb the core asks (ftrace_init_nop, ftrace_make_call,
 * ftrace_make_nop, ftrace_modify_call) runs the kernel's compiled code on
 * the patcher CPU of a struct kern (kernel/kern.h): the real
 * arch/arm64/kernel/ftrace.c, patching.c (aarch64_insn_patch_text_nosync,
 * aarch64_insn_write_literal_u64), lib/insn.c and mm/cache.c. Its visible
 * events (kernel/kevent.h: stores to the site, barriers, cache
 * maintenance) become the plan's steps, one step per event, in the order
 * the code made them; everything else it executes (encoding, range
 * checks, the fixmap and lock bookkeeping) is private to the patcher CPU
 * and is not a scheduling point. The executor then applies those steps
 * between the other CPUs' instructions through the same store buffer and
 * fetch model as the model's plans: it never decides what to patch.
 *
 * The patcher CPU is live where the world reaches it (docs/kernel.md). The
 * backend reads its arguments, the record, its own data and the site's
 * words; only the site's words can be written by another agent. So a run
 * is a function of what its reads of the site return: the first run's are
 * answered by the kernel's copy (what ftrace's own updates left), and each
 * read is made again by the executor at the step that follows it
 * (plan_step.rsize: the code between two visible events runs at the
 * second's scheduling point). A different value reruns the verb with the
 * values read so far (plan_live.rerun: the copy's window as the core left
 * it, the reads answered through kern.answer) and its steps replace the
 * rest of the run; an error the code returns after the read
 * (ftrace_modify_code's -EINVAL) is the plan's PLAN_FAIL, ftrace_bug at the
 * kernel's line. FTV_KERNEL_RECORDED=1 folds the read into the store's
 * validate instead, as the recorded plans before did (for comparison).
 *
 * Addresses. The kernel objects and a copy of the world's objects are
 * loaded by kern_open in the kernel's own address space, so a world site
 * at ip_w is a kernel site at ip_k with the same words around it. A target
 * t_w is passed as ip_k + (t_w - ip_w), so that every range decision
 * (ftrace_find_callable_addr's +/-128 MiB) and every BL offset is the
 * world's; the kernel's own ftrace_caller (chosen for an out-of-range
 * target) is the world's ftrace_caller, and the kernel's ftrace_nop_ops /
 * ftrace_list_ops literal values are the ops literal the core passed.
 * Events are mapped back by the same offsets. The world's modules are
 * modules of the copy too, far from its kernel text when the world's are,
 * so an out-of-range call takes the kernel's own path: __module_text_address
 * answers a struct module laid out from the DWARF whose
 * arch.ftrace_trampolines is the world's module PLT, and get_ftrace_plt's
 * choice maps back to the world's PLT. Each step's text names the
 * kernel function and source line the patcher CPU was at:
 * "ftrace_make_call+0x3c (arch/arm64/kernel/ftrace.c:342): str32 ...". */
#ifndef FTV_KERNEL_KBACK_H
#define FTV_KERNEL_KBACK_H

#include <stddef.h>
#include <stdint.h>

#include "patcher/ftrace_arch.h"
#include "util/err.h"

struct kback;

/* The world's site ip_w and function name, in load order. */
struct kback_site {
	uint64_t ip;
	const char *name;
};

/* Opens the build in dir with the world's kernel objects (objs, in the
 * world's order, its last nmods its modules, placed far as the world's
 * when far); sites: the world's sites of those objects, in the same
 * order; caller: the world's ftrace_caller. NULL with err set. */
struct kback *kback_new(const char *dir, const char *const *objs, size_t nobjs,
			const struct kback_site *sites, size_t nsites,
			uint64_t caller, size_t nmods, int far, struct ftv_err *err);
void kback_free(struct kback *b);
/* Kernel instructions run so far (the patcher CPU's cost). */
uint64_t kback_insns(const struct kback *b);

/* The verbs, ctx = struct kback. */
extern const struct ftrace_arch kback_ftrace;

#endif
