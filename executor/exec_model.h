/* The fetch model (exec_model.c; the rules and their sources are in
 * exec.h): the watched locations and the coherence order of their writes,
 * what each CPU may fetch, context synchronisation, cache maintenance, the
 * visibility of stores, and the checks run on every fetch and load (torn,
 * cmodx, stale-data; the arch table adds its own through xarch.fetched).
 *
 * Watched locations come in two kinds: instruction words (4 bytes, fetched
 * by CPUs through the model) and data locations (a range of bytes loaded by
 * CPUs; today the 64-bit CALL_OPS literals). Each has an id, the order it
 * was watched in, that stays fixed for the executor's life. */
#ifndef FTV_EXECUTOR_EXEC_MODEL_H
#define FTV_EXECUTOR_EXEC_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec_arch.h"
#include "executor/exec_engine.h"
#include "executor/exec_gset.h"
#include "executor/exec_log.h"
#include "executor/exec_sched.h"

/* The most bytes of one watched data location. */
#define XM_DATA_MAX 8
#define XM_DBITS 16384 /* xmodel.dbits's size, in bits */

/* A cache maintenance operation waiting for the issuer's next DSB. */
struct xpend {
	int ic;        /* 1: IC IVAU, 0: DC CVAU */
	uint64_t addr; /* watched insn address */
	size_t idx;    /* coherence index captured when it was issued */
	/* A DC a DMB completed for every other observer (ordered before the
	 * issuer's later accesses): idx is then the line's PoU index
	 * before it, which the issuer's own IC IVAU may still read until
	 * its next DSB (xm_cpu_barrier). */
	int dmb_done;
	/* A CPU's DC CVAU issued while its own store to the word waited in
	 * its store buffer: it is performed when that store becomes visible
	 * (idx then the store's write; xm_store_visible), not before; the
	 * CPU's later stores to other lines are not held back by it. */
	int own;
};

/* An agent's pending cache maintenance. */
struct xpendv {
	struct xpend *v;
	size_t n, cap;
};

/* One entry of a watched word's coherence order. */
struct xcoh {
	int wid;
	/* When it became visible: the number of IC completions (xmodel.icev)
	 * before it, and the model's count of visible writes (vseq). */
	size_t icseq;
	uint64_t vseq;
};

/* An IC completion: word w's `ic` became idx. */
struct xicev {
	struct winsn *w;
	size_t idx;
};

/* A watched instruction word: the coherence order of its writes. */
struct winsn {
	size_t id;
	uint64_t addr;
	struct xcoh *coh;        /* oldest first; [0] is the initial contents */
	size_t ncoh, capcoh;
	size_t pou;              /* newest entry cleaned to the PoU */
	size_t ic;               /* newest entry visible to fetch after CSE */
	/* The newest entry a completed plan with visible_on_return wrote
	 * (0: none), and when that plan completed: no CPU may fetch an
	 * older one from then on (xm_returned). */
	size_t returned;
	uint64_t returned_step;
	size_t floor[EXEC_MAX_CPUS];
	int last[EXEC_MAX_CPUS];         /* coherence index last fetched */
	uint32_t view[EXEC_MAX_CPUS];    /* value translated in that engine */
	uint64_t dread[EXEC_MAX_CPUS];   /* vseq that CPU last read as data */
	int view_ok[EXEC_MAX_CPUS];
	/* That CPU's copy of the word was changed without its translations
	 * dropped (xm_text_load_word): its next fetch drops them whatever
	 * the copy holds. Otherwise the engine's translations of the word
	 * were made from what its copy holds: every other change of a copy
	 * drops them (xm_store_visible, xm_poison, exec_apply, a reset's
	 * restore_copy_page; a CPU's own store, Unicorn). */
	uint8_t stale[EXEC_MAX_CPUS];
	/* That CPU's copy of the word was written this run (a fetch, a load
	 * of it as text, a store, a free, a plan applied at once): what a
	 * reset left there (xe_lazy_words) is no longer in it. A restored
	 * state (exec_save.h) takes the word from the save only then, as a
	 * replay from the reset would have. */
	uint8_t written[EXEC_MAX_CPUS];
};

/* A watched data location [addr, addr+size): who wrote each 32-bit half. */
struct wdata {
	size_t id;               /* index in xmodel.wd */
	uint64_t addr;
	unsigned size;
	int wid[2];
	int init_wid;
	int *wids;               /* every write to it, in issue order */
	size_t nw, capw;
};

/* What the model keeps per CPU. */
struct xmcpu {
	struct xpendv pend;      /* its cache maintenance before a DSB */
	int last_fetch_wid;      /* newest non-initial insn write fetched */
	size_t ic_applied;       /* IC completions its floors include */
	uint64_t barrier_vseq;   /* vseq at its last full barrier */
	uint64_t dsb_vseq;       /* vseq at its last full DSB */
	uint64_t load_vseq;      /* vseq at its last EXEC_POINT_LOAD */
	int dc_dep;              /* the DC now depends on that load */
	uint64_t fetch_vseq;     /* newest vseq among the writes it fetched */
	size_t ctrl_icev;        /* IC completions at its last control
				    dependency or DSB (xm_cpu_ctrl) */
	uint64_t ic_vseq;        /* vseq at its last control dependency or
				    DSB: its later IC IVAU is ordered after
				    nothing it read since (ic_pou) */
	uint64_t rd_vseq;        /* vseq at its last point that orders its
				    later loads (xm_text_load_early) */
};

/* A range a queued plan frees (exec_verify): CPUs' loads in it are
 * recorded against the FREE step. text: it holds text not watched word by
 * word. */
struct xfree {
	uint64_t lo, hi;
	int text;
};

struct xmodel {
	/* verify's reference footprints (exec_verify_config.coarse): every
	 * DSB with maintenance pending writes XLOC_IC, a context
	 * synchronisation of every CPU writes every watched word; the store
	 * buffer names no store (XLOC_SBNEED) and a drain no CPU observes
	 * reads the drains it waited for */
	int coarse;
	struct sim_aspace *as;
	const struct xarch *arch;
	void *arch_ctx;          /* the arch's fetch checks (xarch.ctx_new) */
	struct xlog *log;
	struct xengine *eng;
	struct xsched *sched;
	unsigned ncpus;
	int quiet_obs;
	int *oom;

	struct winsn **wi;       /* sorted by address; entries never move */
	size_t nwi, capwi;
	struct wdata **wd;       /* in watch order; entries never move */
	size_t nwd, capwd;
	struct wdata **wds;      /* the same, sorted by address */
	size_t capwds;
	/* The 8-byte granules a data location covers, hashed: a load whose
	 * first byte's granule has no bit set reads none (xm_load, before
	 * the search: most loads of a workload read stacks and tables). */
	uint64_t dbits[XM_DBITS / 64];
	struct xmcpu cpu[EXEC_MAX_CPUS];
	uint64_t fetches;        /* fetches of watched words */
	struct xfree *fr;
	size_t nfree, capfr;
	/* CTR_EL0.DIC / IDC (exec_config): the IC IVAU, the DC CVAU is not
	 * needed for instruction fetch to see a write */
	int dic, idc;
	/* With CPU store buffers: whether cpu has a store to the byte at
	 * addr still in its buffer (its copy keeps that byte). NULL: none. */
	int (*held)(void *ctx, unsigned cpu, uint64_t addr);
	void *held_ctx;
	struct xicev *icev;      /* IC completions this run, in order */
	size_t nicev, capicev;
	uint64_t vseq;           /* writes made visible this run */
	/* exec_config.verify: the data granules CPUs have read (kept across
	 * runs; rd_known: every load is seen, rd_frozen: a replay's, from
	 * its scenario) and those the patcher has written; rd_fresh: a
	 * granule written before was read for the first time (the walk's
	 * classification of earlier drains was wrong: it starts over) */
	struct xgset rd, stw;
	int rd_known, rd_frozen, rd_fresh;
};

/* A CPU loaded [addr, addr+size) (exec_config.verify). */
void xm_cpu_read(struct xmodel *m, uint64_t addr, int size);
/* Some CPU may observe a store to [addr, addr+size): text, a watched
 * word or data location, data a CPU has read, or anything while the
 * CPUs' loads are not all seen. A store nobody observes is no visible
 * step (exec_run drains it at once). */
int xm_observed(struct xmodel *m, uint64_t addr, unsigned size);

int xm_init(struct xmodel *m, struct sim_aspace *as, const struct xarch *arch,
	    struct xlog *log, struct xengine *eng, struct xsched *sched,
	    unsigned ncpus, int quiet_obs, int *oom, struct ftv_err *err);
/* CTR_EL0.DIC and IDC for this world (before the first run). */
void xm_cache_type(struct xmodel *m, int dic, int idc);
void xm_free(struct xmodel *m);
/* A new run: every location back to its initial contents. */
void xm_reset(struct xmodel *m);

struct winsn *xm_insn(struct xmodel *m, uint64_t addr);
struct wdata *xm_data(struct xmodel *m, uint64_t addr);
/* New watched locations (not watched yet), holding what memory holds now;
 * NULL out of memory. */
struct winsn *xm_watch_insn(struct xmodel *m, uint64_t addr);
struct wdata *xm_watch_data(struct xmodel *m, uint64_t addr, unsigned size,
			    uint64_t val);

/* A new write (xl_write), remembered by the data locations it touches;
 * its id or -1. */
int xm_write(struct xmodel *m, uint64_t addr, uint64_t val, unsigned size,
	     int plan, int step, int cpu, const char *what);
/* Write wid becomes visible to every CPU (but skip_cpu, whose own store
 * it is). */
void xm_store_visible(struct xmodel *m, uint64_t addr, unsigned size,
		      uint64_t val, int wid, int skip_cpu);
/* cpu stores into text (a hook, before the store lands in its copy). */
void xm_cpu_store(struct xmodel *m, unsigned cpu, uint64_t addr,
		  unsigned size, uint64_t val);
/* cpu's store went to its store buffer (and lands in its own copy): its
 * next fetch of a watched word there puts back what the model says. */
void xm_cpu_store_buffered(struct xmodel *m, unsigned cpu, uint64_t addr,
			   unsigned size);
/* Plan `plan`, which promised visible_on_return, completed: its newest
 * write to the watched word at addr is what every later fetch must see
 * at least (EXEC_V_NOT_VISIBLE otherwise). */
void xm_returned(struct xmodel *m, int plan, uint64_t addr);
/* Writes POISON over [addr, addr+len) in every view (PLAN_FREE). */
void xm_poison(struct xmodel *m, uint64_t addr, uint64_t len);

/* cpu fetches w: picks the write it sees (xs_choose), installs it in the
 * engine's copy and runs the checks. quiet: no choice was possible (not
 * recorded under quiet_obs). */
void xm_fetch(struct xmodel *m, unsigned cpu, struct winsn *w, int quiet);
/* Only one value can be fetched and the engine already has it. */
int xm_fetch_is_quiet(struct xmodel *m, unsigned cpu, struct winsn *w);
/* cpu loads size bytes at addr: every data location holding addr sees it
 * (record: keep the observation). Returns how many did. */
int xm_load(struct xmodel *m, unsigned cpu, uint64_t addr, int size,
	    int record);
/* The current step reads or writes (XA_*) every watched location that
 * overlaps [addr, addr+len) (for exec_verify's reduction). */
void xm_touch(struct xmodel *m, uint64_t addr, uint64_t len, unsigned mode);
/* A range some plan frees: loads in it become visible (exec_verify). */
int xm_add_free_range(struct xmodel *m, uint64_t addr, uint64_t len);

/* A context synchronisation event on cpu (ISB, exception return): it sees
 * every write IC IVAU has completed for. */
void xm_context_sync(struct xmodel *m, unsigned cpu);
/* An ISB that may have taken effect as early as cpu's last control
 * dependency or DSB (herd: an ISB is ordered after an earlier load only
 * through a control dependency on it, CSE-ob, or a DSB): it sees the IC
 * completions up to a point the scheduler picks since then. */
void xm_context_sync_early(struct xmodel *m, unsigned cpu);
/* cpu executed a conditional branch (or a DSB): its later ISBs come after
 * everything it has loaded. */
void xm_cpu_ctrl(struct xmodel *m, unsigned cpu);
void xm_context_sync_all(struct xmodel *m);
/* RISC-V FENCE.I on cpu, and on every hart after the store buffer drained
 * (flush_icache_all). */
void xm_fence_i(struct xmodel *m, unsigned cpu);
void xm_flush_icache_all(struct xmodel *m);
/* DC CVAU (ic 0) or IC IVAU (ic 1) by an agent over [addr, addr+len),
 * pending until its next DSB (xm_dsb). */
void xm_cache_op(struct xmodel *m, struct xpendv *pend, int ic,
		 uint64_t addr, uint64_t len);
void xm_dsb(struct xmodel *m, struct xpendv *pend);
/* A CPU's DC CVAU: it cleans at least what was visible at the CPU's last
 * full barrier or when the newest write it fetched became visible, and the
 * CPU's own writes (herd: a DC is ordered after earlier loads and stores
 * only by DMB SY/ISH, DSB or the same cache line, and after every earlier
 * instruction fetch). */
void xm_cpu_dc(struct xmodel *m, unsigned cpu, uint64_t addr);
/* A CPU's barrier: every kind orders its earlier accesses before its
 * later DCs (these clean everything visible now); XM_DMB (full) also
 * completes its earlier DCs (DMB orders DC CVAU, Arm ARM D7.5.9) and
 * XM_DSB (full) its ICs as well. XM_ORDER: DSB LD/ST (herd's DSB-ob), and
 * an ISB, taken as one after a branch on what the CPU loaded (herd's
 * CSE-ob after a control dependency; ftv tracks no dependencies). */
enum xm_barrier { XM_ORDER, XM_DMB, XM_DSB };
void xm_cpu_barrier(struct xmodel *m, unsigned cpu, enum xm_barrier kind);
/* cpu loads [addr, addr+size) of text: its copy of the watched words there
 * gets the data (coherent) value, not what it fetched. */
void xm_text_load(struct xmodel *m, unsigned cpu, uint64_t addr, int size);
/* The same for one watched word whose value the caller knows (with store
 * buffers: the coherent value under the CPU's own buffered stores). */
void xm_text_load_word(struct xmodel *m, unsigned cpu, struct winsn *w,
		       uint32_t v);
/* With CPU store buffers (litmus tests): cpu loads the watched word w,
 * which its buffer holds no store to, and the load may have been
 * satisfied early: it reads a write the scheduler picks among those
 * visible from the CPU's last load-ordering point (rd_vseq: a barrier, an
 * acquire, DMB LD, a load with a dependent address) on, not
 * older than what it read or wrote there before (coherence). Arm ARM
 * B2.3 (Dependency-ordered-before has no control dependency to a read;
 * herd's aarch64.cat: ctrl orders only [W] in dob, and a read is ordered
 * after an earlier one by addr, DMB, DSB, acquire, or ctrl; ISB). */
void xm_text_load_early(struct xmodel *m, unsigned cpu, struct winsn *w);
/* cpu's later loads are ordered after this point (DMB LD, LDAR: Arm ARM
 * B2.3.7 barrier- and acquire-ordered-before). */
void xm_cpu_load_order(struct xmodel *m, unsigned cpu);
/* The same over every watched word (IC IALLU). */
void xm_cache_op_all(struct xmodel *m, struct xpendv *pend, int ic);

#endif
