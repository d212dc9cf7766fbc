/* The engines: one Unicorn engine per CPU over the regions of a sim_aspace,
 * and the only part of the executor that calls Unicorn (exec_engine.c).
 *
 * Memory. Regions with SIM_X are mapped privately per CPU (each engine gets
 * its own copy of the text, which the fetch model fills in); every other
 * region is shared (the sim_region host buffer itself), unless xe_init's
 * private_data makes them private too (CPUs with store buffers).
 *
 * Hooks. The engine reports to the executor through struct xe_ops: before
 * an instruction at a pc marked with xe_mark_pc, on loads (once
 * xe_watch_loads was called), and on a CPU's stores into its text copy.
 * While few pcs are marked, each has its own code hook, so the code in
 * between runs as it does in a bare engine.
 * Between turns the executor may change a copy behind the engine's back;
 * xe_invalidate drops the translations of what it changed. */
#ifndef FTV_EXECUTOR_EXEC_ENGINE_H
#define FTV_EXECUTOR_EXEC_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"
#include "executor/exec_arch.h"
#include "sim/aspace.h"
#include "util/err.h"

#define XE_PC_BITS 65536 /* the marked-pc filter's size, in bits */
#define XE_NO_STOP 1ULL  /* a stop address no instruction can have */
#define XE_LOADS_ALL (1ULL << 63)
#define XE_LOAD_HOOKS 63
/* Up to this many marked pcs, each has a code hook of its own (only the
 * translated code at those pcs calls out); beyond, one hook over every
 * address does (exec_engine.c, xe_mark_pc, says why). A CPU calling a
 * patched function marks two or three (its site, its quiescent point).
 * With 16, a replay batch's calibration round ran under range hooks and
 * the replay's peak RSS grew by 22 MiB (for as many translations). */
#define XE_RANGE_HOOKS 4

struct uc_struct;
struct xwatchdog;
struct xdirty;

/* The executor's side of the hooks; ctx is xe_init's. */
struct xe_ops {
	/* cpu is about to execute pc, a pc marked with xe_mark_pc (or one
	 * sharing its filter bit). */
	void (*pc)(void *ctx, unsigned cpu, uint64_t pc);
	/* While *xengine.load_gate is non-zero: cpu is about to execute pc,
	 * any pc; returns 1 after stopping the turn before it (xe_stop). */
	int (*pre_insn)(void *ctx, unsigned cpu, uint64_t pc);
	/* cpu loads size bytes at addr with the instruction at pc (on
	 * engines xe_watch_loads hooked). */
	void (*load)(void *ctx, unsigned cpu, uint64_t pc, uint64_t addr,
		     int size);
	/* cpu stores size bytes (1..8) into its private copy (text, or any
	 * region with xe_init's private_data); the store lands in the copy
	 * right after this returns. */
	void (*text_store)(void *ctx, unsigned cpu, uint64_t addr,
			   unsigned size, uint64_t val);
};

/* The hooks' user data: the CPU that owns the engine now (an engine from
 * the pool, exec_pool.h, is another executor's CPU's; its translated code
 * calls the hook with this pointer compiled in). */
struct xhook {
	struct xecpu *c;
	/* What the turn's instruction budget has left (xecpu.budget, set
	 * by xe_run; INT64_MAX with none): block_hook counts it down, the
	 * block that takes it below 0 is past the budget. */
	int64_t left;
};

struct xecpu {
	struct xengine *e;
	unsigned idx;
	struct uc_struct *uc;
	struct xhook *hk;
	void *fresh;             /* uc_context of the engine as opened, or NULL */
	uint64_t until;          /* the last turn's end address (xe_run) */
	int strayed;             /* ran code outside the private span */
	unsigned uses;           /* executors that had the engine before */
	uint64_t *hooks;         /* the range code hooks (uc_hook handles) */
	uint64_t all_hook;       /* the hook over every address, or 0 */
	uint64_t exit_hook;      /* under the range hooks, one at the stop */
	uint64_t exit_hook_pc;   /* (its pc, or 0) */
	int ran;                 /* has run: translations may be cached */
	uint8_t **copy;          /* per region: private copy, or NULL (shared) */
	/* Where its load hooks are: bit i, over region i (i < 63), or
	 * XE_LOADS_ALL, one over every address (xe_watch_loads). */
	uint64_t loads;
	uint64_t *load_hook;     /* the region hooks' handles (XE_LOAD_HOOKS) */
	/* A memory hook was there from the engine's opening: every load and
	 * store it translated goes through the slow path that calls the
	 * hooks (exec_engine.c, xe_watch_loads). */
	int slow_access;
	/* the last data access fault, for xarch.fault_pc */
	int fault_ok;
	uint64_t fault_addr;
	uint64_t init[EXEC_NREGS];  /* registers restored by xe_reset */
	/* The registers and flags as xe_regs read them last (rval[nregs]:
	 * the flags), valid while rval_ok: every write of a register
	 * through this file, every turn, reset and engine change clears
	 * it (Unicorn changes a CPU's registers nowhere else). */
	uint64_t rval[EXEC_NREGS + 1];
	int rval_ok;
	uint64_t pc_now;            /* the instruction executing (code hook) */
	/* A turn's instruction count (xe_run's count; 0: none) and the
	 * instructions that reached the code hook in it so far. */
	size_t count, counted;
	/* A free-running turn's instruction budget (xe_run's insns; 0:
	 * none; what is left of it: xhook.left) and whether its blocks
	 * went past it (block_hook in exec_engine.c). */
	uint64_t budget;
	int over_budget;
	/* Where the turn ends, when code_hook stops it there (xe_run), or
	 * XE_NO_STOP. */
	uint64_t stop_at;
};

struct xengine {
	struct sim_aspace *as;
	const struct xarch *arch;
	const struct xe_ops *ops;
	void *ctx;
	unsigned ncpus;
	int ro_data;             /* exec_config.ro_data, set before xe_init */
	int private_data;        /* every region private, not only text */
	/* exec_config.once, set before xe_init: the CPUs' private copies
	 * map one shared copy per region copy-on-write (shfd: its memfd
	 * while the engines are opened, else -1) */
	int shared_copies;
	int *shfd;
	size_t nregions;         /* the regions mapped at xe_init */
	uint64_t *rsize;         /* their sizes, for munmap */
	uint64_t *rbase;         /* and bases: xe_region's search, which runs
				  * before every instruction while a store is
				  * buffered (on_pre_insn), reads these two
				  * arrays instead of the aspace's regions */
	size_t rlast;            /* the region xe_region found last */
	/* [xlo, xlo + xspan): the private regions and nothing shared (see
	 * private_span in exec_engine.c); xspan 0: none */
	uint64_t xlo, xspan;
	struct xecpu cpu[EXEC_MAX_CPUS];
	/* Region contents before the first run: per region a sparse copy
	 * (xpg_alloc; only pages that held something are written) and its
	 * page map (1: the page held a non-zero byte). */
	uint8_t **snap;
	uint8_t **snap_nz;
	/* From the snapshot on, the pages written (exec_snap.h): region i's
	 * memory at [i], CPU c's copy of it at [(c + 1) * nregions + i];
	 * NULL: not tracked (resets scan every region). */
	struct xdirty *dirty;
	/* Words of the CPUs' copies a reset leaves as they are (sorted; set
	 * by xe_lazy_words, exec_snap.h): their owner puts each one's value
	 * back before the CPU runs it */
	uint64_t *lazy;
	size_t nlazy;
	struct xwatchdog *wd;    /* started by the first timed turn */
	uint64_t pcbits[XE_PC_BITS / 64]; /* marked pcs, hashed */
	size_t nmarked;          /* marked pcs, each with a range hook per
				  * CPU, or one hook over every address
				  * (xecpu.all_hook) */
	uint64_t range_pc[XE_RANGE_HOOKS]; /* (the first ones' pcs) */
	/* The hook over every address is there for good: a turn had an
	 * instruction count, more than XE_RANGE_HOOKS pcs are marked, or a
	 * range hook could not be added (each CPU switches before its next
	 * turn). Without it, a CPU has the hook over every address only
	 * for its turns while the load gate is open, and its range hooks
	 * come back at its first turn after the gate closed (xe_run). */
	int all_for_good;
	/* The pc of a load matters (ops->load's pc: exec_config.verify): the
	 * hook over every address, which keeps xecpu.pc_now exact, stays. */
	int exact_load_pc;
	/* Every load must reach ops->load (exec_config.verify, text_loads,
	 * exhaustive exploration: loads are recorded or read the model);
	 * otherwise only loads of the regions holding watched data do, and
	 * the stacks' and tables' loads call nothing. */
	int loads_everywhere;
	/* Non-zero while every instruction goes to ops->pre_insn (the
	 * executor points it at its store buffer's count); NULL: never.
	 * A turn that starts with it non-zero runs under the hook over every
	 * address; the first turn after it is zero again goes back to the
	 * range hooks, unless all_for_good or exact_load_pc says otherwise. */
	const size_t *load_gate;
};

/* How a turn ended (xe_run). */
struct xe_stop {
	int fault;               /* the CPU took an exception or a memory fault */
	int exception;           /* ... an exception (UDF, illegal instruction) */
	int out_of_insns;        /* it ran past its instruction budget */
	int timed_out;           /* the time guard stopped it first */
	const char *why;         /* the engine's words for a fault */
	/* The faulting instruction: the engine's pc corrected for the
	 * arch's skew (xarch.fault_pc_skew, xarch.fault_pc); the CPU's pc is
	 * set to it. */
	uint64_t fault_pc;
};

/* Opens one engine per CPU over every region mapped in as now. With
 * private_data every region (not only text) has a copy per CPU, whose
 * stores reach ops->text_store: the model keeps the copies (a CPU's store
 * buffer). On failure the caller still calls xe_free. */
int xe_init(struct xengine *e, struct sim_aspace *as, const struct xarch *arch,
	    unsigned ncpus, int private_data, const struct xe_ops *ops,
	    void *ctx, struct ftv_err *err);
/* 1 when addr's region is private to each CPU (text, or every region with
 * private_data). */
int xe_private(const struct xengine *e, uint64_t addr);
void xe_free(struct xengine *e);

/* What keeps engines for later executors (executor/exec_pool.h sets it;
 * NULL: none). take: cpu c of e, its copy array allocated and all NULL,
 * gets a kept engine (1) or not (0); put: c's engine and copies are kept
 * (1: c has neither now) or not (0). An engine is opened with its CPU
 * state saved (xecpu.fresh) while there is a keeper. */
struct xe_keeper {
	int (*take)(struct xengine *e, struct xecpu *c);
	int (*put)(struct xengine *e, struct xecpu *c);
};
extern const struct xe_keeper *xe_keeper;

/* Closes cpu c's engine (not its copies). */
void xe_engine_close(struct xecpu *c);
/* c's engine's CPU state as when it was opened (xecpu.fresh): 0, or -1. */
int xe_engine_restart(struct xecpu *c);
/* Drops c's engine's translations of [addr, addr + len). */
void xe_engine_invalidate(struct xecpu *c, uint64_t addr, uint64_t len);

/* The index of the region (of those mapped at xe_init) holding addr, or
 * -1. */
int xe_region(const struct xengine *e, uint64_t addr);
/* cpu's view of addr: its text copy or the shared memory; NULL if
 * unmapped. */
uint8_t *xe_copy_ptr(struct xengine *e, unsigned cpu, uint64_t addr);
/* Drops cpu's translations of [addr, addr+len) (all CPUs': _all). */
void xe_invalidate(struct xengine *e, unsigned cpu, uint64_t addr,
		   uint64_t len);
void xe_invalidate_all(struct xengine *e, uint64_t addr, uint64_t len);

/* Makes ops->pc run before every instruction at pc, on every CPU (pc is
 * not marked yet). */
void xe_mark_pc(struct xengine *e, uint64_t pc);
static inline int xe_pc_marked(const struct xengine *e, uint64_t pc)
{
	size_t b = (size_t)(pc >> 1) % XE_PC_BITS;

	return e->pcbits[b / 64] >> (b % 64) & 1;
}
/* Makes ops->load see the loads at addr on every CPU: code translated
 * before the first call does not call it (Unicorn decides at translation
 * whether a load calls read hooks), the page of addr is retranslated. */
int xe_watch_loads(struct xengine *e, uint64_t addr, struct ftv_err *err);
/* From a hook: stop cpu's turn before the hooked instruction. */
void xe_stop(struct xengine *e, unsigned cpu);

/* Registers by executor number (exec_cpu_set_reg). Before the snapshot a
 * write also sets the value xe_reset restores. */
int xe_set_reg(struct xengine *e, unsigned cpu, int reg, uint64_t v);
uint64_t xe_reg(struct xengine *e, unsigned cpu, int reg);
/* Every register of cpu (xe_reg's values, the zero register 0), then its
 * flags (0 when the arch has no flags register): arch->nregs + 1 words,
 * read again only when something may have changed them (the state hash,
 * exec_state.c, reads them at every node). */
const uint64_t *xe_regs(struct xengine *e, unsigned cpu);
uint64_t xe_pc(struct xengine *e, unsigned cpu);
/* A register by Unicorn's own number, for the arch files (exec_<arch>.c):
 * *val is what uc_reg_read/uc_reg_write take (a uint64_t, or the arch's
 * coprocessor register struct). */
int xe_uc_reg(struct xengine *e, unsigned cpu, int uc_reg, void *val,
	      int write);

/* Runs cpu from pc until it reaches until, count instructions ran (0: no
 * limit), its blocks spent more than insns instructions (0: no limit;
 * st->out_of_insns: deterministic, see block_hook) or a hook stops it,
 * and at most for timeout_us of time (0: no limit; st->timed_out, only
 * when the budget was not reached: exec_watchdog.c); returns the pc the
 * engine stopped at (after a fault, before the correction to
 * st->fault_pc). */
uint64_t xe_run(struct xengine *e, unsigned cpu, uint64_t pc, uint64_t until,
		uint64_t insns, uint64_t timeout_us, size_t count, struct xe_stop *st);

/* Closes and reopens every engine over the same memory and hooks, with no
 * translations (Unicorn's code buffer only grows); between runs, before a
 * reset. */
int xe_recycle(struct xengine *e, struct ftv_err *err);


#endif
