/* Linux's own arm64 ftrace objects loaded as a kernel (docs/kernel.md).
 *
 *   struct kern *k = kern_open("build/kernel/6.12", extra, n, &err);
 *   kern_call(k, kern_sym(k, "ftrace_make_call"), args, 2, &ret, &err);
 *   ... k->log: what the call did (kernel/kevent.h) ...
 *   kern_close(k);
 *
 * Loading (kernel/kimage.c): the objects of a `make kernel` build
 * (entry-ftrace.o, ftrace.o, patching.o, lib/insn.o, mm/cache.o) and any
 * extra objects are linked as kernel objects at ftv's kernel addresses
 * (sim/image.h), not as a module. Undefined names are bound, in this order:
 *   1. data the code reads (system_state, kimage_voffset, memstart_addr,
 *      ...) to data holding a booted kernel's values, and the
 *      linker-script aliases (ftrace_stub_graph = ftrace_stub, ...): one
 *      table, kernel/kdata.c;
 *   2. the kernel services the code calls to the trap stub of the shim
 *      that answers them on the host: one table, kernel/kshim.c;
 *   3. anything else to a plain trap stub: calling it stops the run
 *      ("called undefined symbol X from f+0x14").
 * .altinstructions are left as compiled: every alternative runs its
 * default code, which is right for a v8.0 CPU without IDC/DIC, LSE or VHE
 * (cache.o's caches_clean_inval_pou then does DC CVAU and IC IVAU).
 *
 * Running (kernel/krun.c): one emulated CPU at EL1 with SP_EL0 pointing at
 * a fake task_struct (the stack canary, preempt_count and cpu at the
 * offsets of the build's include/generated/asm-offsets.h), a stack, and
 * every store, barrier and cache maintenance instruction of the loaded
 * code logged; a call into a shim's stub runs the shim, which logs what
 * the service does; BRK #0x800 (WARN/BUG) is reported with the
 * __bug_table's file:line and the run continues after it (WARN) as the
 * kernel's handler does. */
#ifndef FTV_KERNEL_KERN_H
#define FTV_KERNEL_KERN_H

#include <stddef.h>
#include <stdint.h>

#include "kernel/kevent.h"
#include "sim/aspace.h"
#include "sim/image.h"
#include "util/err.h"

/* The objects `make kernel` builds that kern_open loads, relative to
 * KERNEL_OUT (kernel/trace/ftrace.o, the core, is not: its lookups are
 * answered from ftv's core model by shims). */
extern const char *const kern_objects[];

/* Facts of one build read by tools/kernel-layout.py into
 * KERNEL_OUT/ftv-layout.txt (DWARF and asm-offsets.h). */
struct kern_layout {
	uint64_t dyn_ftrace_size, dyn_ftrace_ip, dyn_ftrace_flags;
	uint64_t ops_size, ops_func, ops_direct_call; /* direct_call: ~0 if none */
	uint64_t fl_call_ops_en;  /* 0 before CALL_OPS (6.1) */
	uint64_t tsk_canary, tsk_preempt, tsk_cpu;
	/* every line of the file, for kern_fact */
	struct kern_fact { char *name; uint64_t value; } *facts;
	size_t nfacts, capfacts;
};

/* A fact of ftv-layout.txt by name ("ftrace_hash.buckets"); 0 with err
 * set when the build has none. */
int kern_fact(const struct kern_layout *l, const char *name, uint64_t *v,
	      struct ftv_err *err);

/* The fixmap slot state the shims keep (arch/arm64/mm/fixmap.c). */
struct kern_fixmap {
	int mapped;
	uint64_t idx, phys, text_page; /* the text page it aliases */
	uint64_t va;                   /* its address, learnt at first use */
};

struct krun;

struct kern {
	struct sim_aspace *as;
	struct sim_image *img;
	struct kern_layout lay;
	char *dir;
	struct kev_log log;
	/* the loaded kernel objects' text (what core_kernel_text answers),
	 * and the modules' (kern_open_modules) */
	uint64_t text_lo, text_hi, mtext_lo, mtext_hi;
	uint64_t task;            /* the fake current (SP_EL0) */
	uint64_t scratch;         /* 1 MiB of data for records and ops */
	uint64_t kimage_voffset;  /* the booted values, kernel/kdata.c */
	struct kern_fixmap fix;
	int locks;                /* raw spinlocks held */
	uint64_t insns;           /* instructions of the loaded code run */
	/* how often the code ran watch_pc, and how often with a raw
	 * spinlock held */
	uint64_t watch_pc, watch_hits, watch_locked;
	/* What the core's lookups answer (kernel/kshim.c): the ops
	 * ftrace_find_unique_ops returns, set by whoever drives the call. */
	uint64_t unique_ops;
	/* The struct module __module_text_address answers (a far module's,
	 * built by whoever drives the call: kernel/kback.c), 0: none. */
	uint64_t module;
	/* What the code's reads of memory others write return (the patcher
	 * CPU's reads of the world: kernel/kback.c), set by whoever drives
	 * the call: 1 with *v set to answer copy_from_kernel_nofault's read
	 * of n bytes at addr, 0 to read the kernel's memory. */
	int (*answer)(void *ctx, uint64_t addr, unsigned n, uint64_t *v);
	void *answer_ctx;
	uint64_t pc;              /* the call of the running shim */
	/* where the outermost function of the running call was when the
	 * runner logs an event at pc (kernel/kevent.h kev.outer), set by
	 * the runner beside pc; 0: pc */
	uint64_t outer;
	struct krun *run;
	/* its source lines (kernel/kline.h), made by the first user that
	 * names a pc, kept with it (kern_give), closed with it */
	struct kline *lines;
	/* __bug_table: (address, "file:line") of every BRK #0x800 */
	struct kern_bug { uint64_t addr; char *where; int warn; } *bugs;
	size_t nbugs, capbugs;
};

/* Loads KERNEL_OUT's objects (and extra objects, as kernel objects: their
 * patch sites are sim_image_site's); NULL with err naming a missing file
 * and suggesting `make kernel`. */
struct kern *kern_open(const char *dir, char *const *extra, size_t nextra,
		       struct ftv_err *err);
/* The same with the last nmods extra objects loaded as modules, in the
 * module regions (beyond BL range of the kernel text when far, as the
 * world places them: sim/image.h). */
struct kern *kern_open_modules(const char *dir, char *const *extra, size_t nextra,
			       size_t nmods, int far, struct ftv_err *err);
void kern_close(struct kern *k);
/* kpool.c: the same as kern_open_modules, or a kernel of the same build
 * and objects given back earlier (by a world before: a fuzz campaign's),
 * put back as opened: its memory, CPU and shim state. */
struct kern *kern_take(const char *dir, char *const *extra, size_t nextra,
		       size_t nmods, int far, struct ftv_err *err);
/* Keeps k for a later kern_take (at most a few; the oldest is closed). */
void kern_give(struct kern *k);
/* Kernels kern_take gave back again so far. */
size_t kern_pool_taken(void);
/* kcore.c: a linked global's address (0 when none). */
uint64_t kern_sym(struct kern *k, const char *name);
/* Calls fn(args...) on the kernel CPU and returns its x0 in *ret; what
 * the call did is appended to k->log. -1 with err set when the run
 * stops abnormally (an undefined symbol called, a fault, a BUG, no
 * return within the instruction budget). */
int kern_call(struct kern *k, uint64_t fn, const uint64_t *args, int nargs,
	      uint64_t *ret, struct ftv_err *err);
/* Logs e at the current pc (for shims and the runner). */
int kern_event(struct kern *k, enum kev_kind kind, uint64_t addr,
	       uint64_t value, unsigned size, const char *from);

/* kimage.c: the build's ftv-layout.txt */
int kern_layout_read(struct kern_layout *l, const char *path,
		     struct ftv_err *err);
void kern_layout_free(struct kern_layout *l);
/* kcore.c: the __bug_table entry of the BRK at pc, or NULL */
const struct kern_bug *kern_bug_at(const struct kern *k, uint64_t pc);

/* krun.c: the one file that calls Unicorn */
struct krun *krun_new(struct kern *k, struct ftv_err *err);
void krun_free(struct krun *r);
int krun_call(struct krun *r, uint64_t fn, const uint64_t *args, int nargs,
	      uint64_t *ret, struct ftv_err *err);
/* Drops translated code of [addr, addr+len) after a store to text. */
void krun_text_changed(struct krun *r, uint64_t addr, uint64_t len);
/* The CPU's registers as krun_new left them (kern_take). */
void krun_reset(struct krun *r);

#endif
