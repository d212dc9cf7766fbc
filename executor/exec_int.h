/* Executor internals shared by executor/exec*.c; not for other parts. */
#ifndef FTV_EXECUTOR_EXEC_INT_H
#define FTV_EXECUTOR_EXEC_INT_H

#include <unicorn/unicorn.h>

#include "executor/exec.h"
#include "util/rng.h"

#define EXEC_NREGS 34 /* the most of any arch: arm64's x0..x30, sp, pc, tpidr_el1 */
#define XSP_BITS 65536 /* the special-pc filter's size, in bits */
#define EXEC_NO_EXIT 1ULL /* an "until" address no instruction can have */

/* exec_sysop.c: the few system instructions the fetch model acts on */
enum xsysop { XS_NONE, XS_ISB, XS_DSB, XS_DMB, XS_DC_CVAU, XS_IC_IVAU,
	      XS_FENCE, XS_FENCE_I };

/* What differs between the modelled architectures (exec_arch.c). */
struct xarch {
	enum ftv_arch arch;
	uc_arch uarch;
	uc_mode umode;
	const int *regs;         /* exec register number -> Unicorn register */
	int nregs;
	int pc_reg, sp_reg, arg0_reg;
	int zero_reg;            /* a register writes to which are ignored, or -1 */
	/* Instructions start at multiples of this (RVC: 2). */
	unsigned insn_align;
	/* Bytes Unicorn 2.0.1 leaves pc past an instruction that raised an
	 * exception (UC_ERR_EXCEPTION). */
	unsigned fault_pc_skew;
	enum xsysop (*sysop)(uint32_t w, unsigned *rt);
	int (*is_memory)(uint32_t w);  /* touches shared state (fine mode) */
	/* "%08x (text)" for reports: the instruction at pc, and a watched
	 * 4-byte word (on riscv possibly two 16-bit instructions) */
	void (*insn)(uint32_t w, uint64_t pc, char *buf, size_t n);
	void (*word)(uint32_t w, uint64_t pc, char *buf, size_t n);
	/* 1: the old/new pair of a watched word may be fetched concurrently */
	int (*cmodx_safe)(uint32_t old, uint32_t new);
	void (*reset_flags)(uc_engine *uc); /* condition flags, or NULL */
};
const struct xarch *xarch_get(enum ftv_arch a);

enum xcpu_state { XCPU_RUN, XCPU_DONE, XCPU_PARKED, XCPU_FAULT };

/* A cache maintenance operation waiting for the issuer's next DSB. */
struct xpend {
	int ic;        /* 1: IC IVAU, 0: DC CVAU */
	uint64_t addr; /* watched insn address */
	size_t idx;    /* coherence index captured when it was issued */
};

struct xcpu {
	struct ftv_exec *ex;
	unsigned idx;
	uc_engine *uc;
	uint8_t **copy;          /* per region: private copy, or NULL (shared) */
	enum xcpu_state st;
	uint64_t exit_pc;
	uint64_t qs_pc;
	int has_qs;
	uint64_t qs_count;
	int lit_hooked;          /* the literal read hook is installed */
	int armed;               /* pass the hooks at armed_pc once */
	uint64_t armed_pc;
	int stopped_in_hook;
	uint64_t init[EXEC_NREGS];
	struct xpend *pend;
	size_t npend, cappend;
	int last_fetch_wid;      /* newest non-initial insn write fetched */
	/* The last watched word this CPU fetched (riscv pair check). */
	int prev_ok;
	uint64_t prev_addr;
	uint32_t prev_val;
	int prev_wid;
	/* riscv: the address of the last faulting data access */
	int fault_ok;
	uint64_t fault_addr;
	unsigned quiet_left;     /* quiet fetches left in this turn */
};

/* A watched instruction word: the coherence order of its writes. */
struct winsn {
	uint64_t addr;
	int *coh;                /* write ids, oldest first; [0] is initial */
	size_t *icfloor;         /* per entry: `ic` when that write was made */
	size_t ncoh, capcoh;
	size_t pou;              /* newest entry cleaned to the PoU */
	size_t ic;               /* newest entry visible to fetch after CSE */
	size_t floor[EXEC_MAX_CPUS];
	int last[EXEC_MAX_CPUS];         /* coherence index last fetched */
	uint32_t view[EXEC_MAX_CPUS];    /* value translated in that engine */
	int pair_wid, pair_partner;      /* exec_pair.c's cache, -1: none */
	int view_ok[EXEC_MAX_CPUS];
};

/* A watched 64-bit literal: who wrote each 32-bit half. */
struct wlit {
	size_t order;            /* index in ftv_exec.wl: creation order */
	uint64_t addr;
	int wid[2];
	int init_wid;
	int *wids;               /* every write to it, in issue order */
	size_t nw, capw;
};

/* A store in the patcher's store buffer. */
struct xstore {
	uint64_t addr;
	unsigned size;           /* 4 or 8 */
	uint64_t val;
	int wid;
	uint64_t epoch;          /* DMBs issued before it */
};

struct xplan {
	struct plan p;
	exec_plan_fn fn;
	void *arg;
	struct exec_plan_result res;
	size_t next;             /* next step to perform */
	int waiting;             /* QUIESCE / STOP_MACHINE requested */
	uint64_t qs_snap[EXEC_MAX_CPUS];
};

enum { SP_WATCH = 1, SP_SYSOP = 2, SP_BREAK = 4, SP_QS = 8 };

struct xbreak {
	exec_break_fn fn;
	void *arg;
};

struct xspecial {
	uint64_t pc;
	unsigned flags;
	struct winsn *w;         /* SP_WATCH */
	struct xbreak *brk;
	size_t nbrk, capbrk;
};

struct xchoice {
	unsigned c, n;
};

struct ftv_exec {
	struct sim_aspace *as;
	struct exec_config cfg;
	const struct xarch *arch;
	struct xcpu cpu[EXEC_MAX_CPUS];
	size_t nregions;
	struct ftv_rng rng_sched, rng_fetch;

	struct winsn **wi;       /* sorted by address; entries never move */
	size_t nwi, capwi;
	struct wlit **wl;        /* entries never move */
	size_t nwl, capwl;
	struct wlit **wls;       /* the same, sorted by address */
	size_t capwls;
	struct exec_write *wr;
	size_t nwr, capwr, nwr_init;

	struct xstore *sb;
	size_t nsb, capsb;
	uint64_t epoch;
	struct xpend *ppend;     /* the patcher's pending cache maintenance */
	size_t nppend, capppend;
	int stop_machine;        /* a STOP_MACHINE is in force or requested */

	struct xplan *plans;
	size_t nplans, capplans, cur_plan;

	struct xspecial *sp;
	size_t nsp, capsp;
	uint64_t spbits[XSP_BITS / 64]; /* special pcs, hashed (exec.c) */

	struct exec_violation *viol;
	size_t nviol, capviol;
	struct exec_obs *obs;
	size_t nobs, capobs;
	struct exec_event *ev;
	size_t nev, capev;

	/* Region contents before the first run: per region a sparse copy
	 * (xpg_alloc; only pages that held something are written) and its
	 * page map (1: the page held a non-zero byte). */
	uint8_t **snap;
	uint8_t **snap_nz;
	uint64_t *rsize;         /* region sizes at exec_new, for munmap */
	struct xwatchdog *wd;    /* exec_watchdog.c, started by the first
				    timed turn */
	uint64_t step;
	uint64_t run;
	int truncated;           /* a run stopped at its step budget */
	struct exec_stats stats;

	/* scheduling state */
	unsigned rr_next;
	unsigned *prio;          /* PCT priorities per agent */
	uint64_t *pct_change;    /* PCT change points (steps) */
	struct xchoice *dfs;
	size_t dfs_len, dfs_depth, dfs_cap;
	int oom;
};

/* exec_pages.c: pages of private anonymous memory that hold anything,
 * found without faulting in the ones never populated */
#define XPG_SIZE 4096ULL
/* map[i] (len / XPG_SIZE bytes) = 1 when page i of [p, p+len) may hold a
 * non-zero byte, 0 when it is all zeros. */
void xpg_nonzero(const uint8_t *p, uint64_t len, uint8_t *map);
/* Zero-filled memory that costs nothing until written (mmap), or NULL. */
uint8_t *xpg_alloc(uint64_t len);
void xpg_free(uint8_t *p, uint64_t len);
/* Copies the pages of src that map marks into dst (the rest of dst stays
 * as it is: zero in a fresh xpg_alloc buffer). */
void xpg_copy_nonzero(uint8_t *dst, const uint8_t *src, uint64_t len,
		      const uint8_t *map);

/* exec_watchdog.c: the turn timeout. xw_arm: -1 if no watchdog thread
 * could be started (use Unicorn's own timeout); xw_disarm: 1 if the turn
 * ran out of time and its engine was stopped. */
struct xwatchdog;
int xw_arm(struct ftv_exec *ex, uc_engine *uc, uint64_t timeout_us);
int xw_disarm(struct ftv_exec *ex);
void xw_free(struct ftv_exec *ex);

/* exec_model.c */
struct winsn *xm_insn(struct ftv_exec *ex, uint64_t addr);
struct wlit *xm_lit(struct ftv_exec *ex, uint64_t addr);
/* The first index of ex->wls whose literal is at or above addr. */
size_t xm_lit_lower(struct ftv_exec *ex, uint64_t addr);
int xm_new_write(struct ftv_exec *ex, uint64_t addr, uint64_t val,
		 unsigned size, int plan, int step, int cpu, const char *what);
void xm_fetch(struct ftv_exec *ex, struct xcpu *c, struct winsn *w, int quiet);
void xm_fence_i(struct ftv_exec *ex, struct xcpu *c);
int xm_fetch_is_quiet(struct ftv_exec *ex, struct xcpu *c, struct winsn *w);
void xm_context_sync(struct ftv_exec *ex, struct xcpu *c);
void xm_store_visible(struct ftv_exec *ex, uint64_t addr, unsigned size,
		      uint64_t val, int wid, int skip_cpu);
void xm_cache_op(struct ftv_exec *ex, struct xpend **pend, size_t *npend,
		 size_t *cap, int ic, uint64_t addr, uint64_t len);
void xm_dsb(struct ftv_exec *ex, struct xpend *pend, size_t *npend);
void xm_lit_load(struct ftv_exec *ex, struct xcpu *c, struct wlit *l,
		 uint64_t addr, int size);
void xm_reset(struct ftv_exec *ex);
int xm_patcher_ready(struct ftv_exec *ex);
void xm_patcher_step(struct ftv_exec *ex);
void xm_drain(struct ftv_exec *ex);
uint64_t xm_read_coherent(struct ftv_exec *ex, uint64_t addr, unsigned size);

/* exec_pair.c: the riscv AUIPC + JALR generation check, on each fetch */
void xp_pair_check(struct ftv_exec *ex, struct xcpu *c, struct winsn *w,
		   int wid);

/* exec_fault_rv.c: the riscv instruction at fault behind a stale pc */
uint64_t xf_rv_fault_pc(struct ftv_exec *ex, struct xcpu *c, uint64_t pc,
			uint64_t addr);

/* exec.c */
uint8_t *xc_copy_ptr(struct xcpu *c, uint64_t addr);
void xc_remove_cache_all(struct ftv_exec *ex, uint64_t addr, uint64_t len);
void xc_remove_cache(struct xcpu *c, uint64_t addr, uint64_t len);
void xc_violation(struct ftv_exec *ex, enum exec_viol_kind kind, int cpu,
		  uint64_t addr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void xc_event(struct ftv_exec *ex, int agent, enum exec_ev_kind kind,
	      uint64_t a, uint64_t b);
void *xc_grow(void *p, size_t *cap, size_t need, size_t elem, int *oom);
uint64_t xc_record_max(struct ftv_exec *ex);

/* exec_sched.c */
int xs_pick(struct ftv_exec *ex, const unsigned *ready, unsigned n);
unsigned xs_choose(struct ftv_exec *ex, unsigned n);
void xs_start_run(struct ftv_exec *ex);
int xs_dfs_next(struct ftv_exec *ex); /* 0: another run to do, 1: done */

/* exec_sysop.c (arm64) and exec_sysop_rv.c (riscv64) */
enum xsysop xsysop_a64_decode(uint32_t w, unsigned *rt);
int xsysop_a64_is_memory(uint32_t w);
enum xsysop xsysop_rv_decode(uint32_t w, unsigned *rt);
int xsysop_rv_is_memory(uint32_t w);

/* exec_report.c */
void xr_insn(struct ftv_exec *ex, uint32_t w, uint64_t pc, char *buf,
	     size_t n);
void xr_word(struct ftv_exec *ex, uint32_t w, uint64_t pc, char *buf,
	     size_t n);
void xr_rv_word(uint32_t w, uint64_t pc, char *buf, size_t n);
void xr_a64_insn(uint32_t w, uint64_t pc, char *buf, size_t n);
void xr_rv_insn(uint32_t w, uint64_t pc, char *buf, size_t n);
int xr_a64_cmodx_safe(uint32_t old, uint32_t new);
int xr_rv_cmodx_safe(uint32_t old, uint32_t new);
void xr_write_desc(struct ftv_exec *ex, int wid, char *buf, size_t n);

#endif
