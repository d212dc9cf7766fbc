/* What differs between the architectures the executor models: one table per
 * architecture, filled in by its own files (exec_arm64.c; exec_riscv64.c
 * with exec_riscv64_fault.c and exec_riscv64_pair.c). The rest of the
 * executor never asks which architecture it runs: it reads the table.
 * Adding an architecture is one more table, its files, and a line in
 * xarch_get (exec_arch.c). */
#ifndef FTV_EXECUTOR_EXEC_ARCH_H
#define FTV_EXECUTOR_EXEC_ARCH_H

#include <stddef.h>
#include <stdint.h>

#include "encoders/memread.h"
#include "util/arch.h"

struct xlog;
struct exec_state_sink;

/* The most registers of any arch: arm64's x0..x30, sp, pc, tpidr_el1,
 * sp_el0. */
#define EXEC_NREGS 35

struct xengine;
struct xmodel;
struct winsn;

/* The system instructions the fetch model acts on when a CPU executes
 * them. */
enum xsysop { XS_NONE, XS_ISB, XS_DSB, XS_DMB, XS_DC_CVAU, XS_IC_IVAU,
	      XS_FENCE, XS_FENCE_I,
	      /* the load-only and store-only barriers (DMB/DSB LD, ST) */
	      XS_DMB_LD, XS_DMB_ST, XS_DSB_LD, XS_DSB_ST,
	      XS_ERET,     /* exception return: a context synchronisation */
	      XS_IC_ALL,   /* IC IALLU: every watched word */
};

struct xarch {
	enum ftv_arch arch;
	/* The engine: Unicorn's uc_arch and uc_mode, and per executor
	 * register number (exec_cpu_set_reg) Unicorn's register. */
	int uarch, umode;
	const int *regs;
	int nregs;
	int pc_reg, sp_reg, arg0_reg;
	int zero_reg;            /* a register writes to which are ignored, or -1 */
	int flags_reg;           /* Unicorn's condition flags, zeroed by a reset; -1: none */
	/* Instructions start at multiples of this (RVC: 2). */
	unsigned insn_align;
	/* Bytes Unicorn 2.0.1 leaves pc past an instruction that raised an
	 * exception (UC_ERR_EXCEPTION). */
	unsigned fault_pc_skew;
	/* Why exec_watch_insn refuses an address that is not 4-aligned. */
	const char *unaligned_watch;
	/* A turn's stop under the range hooks is a range hook of its own
	 * (exec_engine.c, exit_hook) rather than Unicorn's `until`, which
	 * retranslates a block per turn. 0 on riscv64: Unicorn 2.0.1's
	 * riscv64 engine with two range code hooks did not call the one
	 * at an illegal instruction (the zeros past a test's code) and
	 * executed it. */
	int exit_hook;
	/* Marked pcs that get a range code hook each before the engine calls
	 * out at every instruction instead (at most XE_RANGE_HOOKS). 1 on
	 * riscv64: with two range code hooks Unicorn 2.0.1's riscv64 engine
	 * did not call the one at an illegal instruction (a breakpoint there
	 * was never reached: test_exec_riscv64). */
	unsigned range_hooks;

	/* *reg: for DC/IC, the executor register holding the address, or -1
	 * for the zero register. */
	enum xsysop (*sysop)(uint32_t w, int *reg);
	int (*is_memory)(uint32_t w);  /* touches shared state (fine mode) */
	/* A conditional branch: with exec_config.cpu_sbuf, the model takes
	 * one between a load and an ISB as a control dependency. */
	int (*is_cond_branch)(uint32_t w);
	/* What memory the instruction w reads (encoders/memread.h), decoded
	 * before it runs; registers are executor numbers (arm64 base 31: SP,
	 * index 31: XZR; riscv64 x0..x31). */
	int (*memread)(uint32_t w, struct memread *m);
	/* The register number that reads as zero as memread's index (arm64's
	 * XZR, 31, which xe_reg would read as SP); -1 if none. */
	int index_zero_reg;
	/* "%08x (text)" for reports: the instruction at pc, and a watched
	 * 4-byte word (on riscv possibly two 16-bit instructions) */
	void (*insn)(uint32_t w, uint64_t pc, char *buf, size_t n);
	void (*word)(uint32_t w, uint64_t pc, char *buf, size_t n);
	/* 1: the old/new pair of a watched word may be fetched concurrently */
	int (*cmodx_safe)(uint32_t old, uint32_t new);
	/* The words for an exception (UC_ERR_EXCEPTION) at the instruction w;
	 * NULL: the engine's. */
	const char *(*exception_why)(uint32_t w);
	/* When the engine leaves a stale pc behind a data access fault at
	 * addr: the pc of the faulting instruction. NULL: pc is right. */
	uint64_t (*fault_pc)(struct xengine *e, unsigned cpu, uint64_t pc,
			     uint64_t addr);
	/* Whether the word at a faulting pc is an undefined instruction
	 * (UDF, or unallocated), and entering the exception for it: the CPU
	 * continues at handler and returns to pc with its exception return.
	 * NULL: the arch has no such model (the fault stays a fault). */
	int (*is_undef)(uint32_t w);
	void (*take_exception)(struct xengine *e, unsigned cpu, uint64_t pc,
			       uint64_t handler);
	/* PLAN_SYNC_ALL, the IPI every CPU takes after a patch: what it
	 * makes fetchable (xm_context_sync_all or xm_flush_icache_all). */
	void (*sync_all)(struct xmodel *m);

	/* The arch's own checks on fetches, with their state (NULL: none).
	 * ctx_new returns NULL when out of memory. */
	void *(*ctx_new)(void);
	void (*ctx_free)(void *ctx);
	void (*ctx_reset)(void *ctx);    /* a new run */
	/* Its state for exec_verify's stateful walk (exec_state_walk.c):
	 * the words a later check reads, a write by what it is
	 * (exec_state.h); NULL: the state cannot be hashed. */
	void (*ctx_words)(void *ctx, unsigned ncpus, const struct xlog *log,
			  struct exec_state_sink *s);
	/* cpu has just fetched write wid of the watched word w. */
	void (*fetched)(struct xmodel *m, unsigned cpu, struct winsn *w,
			int wid);
};

extern const struct xarch xarch_arm64, xarch_riscv64;

/* The table of an architecture, or NULL if the executor has none. */
const struct xarch *xarch_get(enum ftv_arch a);

#endif
