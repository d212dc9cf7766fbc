/* The executor as a whole (exec.c, exec_run.c, exec_special.c): its parts,
 * each in its own header, from the leaves up (a part uses only parts before
 * it in this list, but the per-arch files, which the table points to, may
 * use the model and the engine; tools/depgraph.py executor shows the
 * graph):
 *   exec_log.h      the record of a run (writes, trace, observations,
 *                   violations, the trace hash)
 *   exec_sched.h    every choice (policies, exhaustive walk)
 *   exec_pages.h, exec_watchdog.h   helpers of the engine
 *   exec_arch.h     the table of what differs per architecture, filled in
 *                   by exec_arm64.c and exec_riscv64*.c
 *   exec_engine.h   the Unicorn engines (the only caller of Unicorn)
 *   exec_report.h   how writes and locations are named
 *   exec_model.h    the fetch model and its checks
 *   exec_sbuf.h     a store buffer
 *   exec_cpu.h      a CPU's run state
 *   exec_plan.h     the patcher agent performing plans
 *   exec_state.h    the states an exhaustive walk met (prune_states)
 * and, here, the pcs that need attention (exec_special.c), the run loop's
 * hooks (exec_run.c) and the struct holding every part. */
#ifndef FTV_EXECUTOR_EXEC_INT_H
#define FTV_EXECUTOR_EXEC_INT_H

#include "executor/exec.h"
#include "executor/exec_arch.h"
#include "executor/exec_cpu.h"
#include "executor/exec_engine.h"
#include "executor/exec_log.h"
#include "executor/exec_model.h"
#include "executor/exec_plan.h"
#include "executor/exec_sbuf.h"
#include "executor/exec_sched.h"
#include "executor/exec_state.h"
#include "executor/exec_sym.h"

/* exec_special.c: pcs at which something happens before the instruction
 * runs: a watched fetch, a system instruction the model acts on, a
 * breakpoint, a quiescent point. The engine's filter (xe_mark_pc) lets
 * only these reach exec_run.c's hook. */
enum { SP_WATCH = 1, SP_SYSOP = 2, SP_BREAK = 4, SP_QS = 8,
       SP_BRANCH = 16 /* a conditional branch (exec_config.cpu_sbuf) */,
       SP_LOAD = 32 /* a load of watched data (exec_config.verify) */,
       SP_LOADSEQ = 64, SP_DCDEP = 128, SP_ADDR = 512 /* exec_order_point */,
       SP_PROG = 256 /* exec_progress_point */,
       SP_WINDOW = 1024 /* an EXEC_BREAK_WINDOW break */ };

struct xbreak {
	exec_break_fn fn;
	void *arg;
	unsigned flags;          /* EXEC_BREAK_* */
};

struct xspecial {
	uint64_t pc;
	unsigned flags;
	struct winsn *w;         /* SP_WATCH */
	struct xbreak *brk;
	size_t nbrk, capbrk;
};

struct xspecials {
	struct xengine *eng;
	struct xspecial *v;      /* sorted by pc */
	size_t n, cap;
};

/* The entry of pc, or NULL (inline: the hook asks at every marked pc). */
static inline struct xspecial *xsp_at(struct xspecials *sp, uint64_t pc)
{
	size_t lo = 0, hi = sp->n;

	/* every special pc is marked (xsp_get): the engine's filter turns
	 * most others away without the search (on_pre_insn asks before
	 * every instruction while a store is buffered) */
	if (sp->eng && !xe_pc_marked(sp->eng, pc))
		return NULL;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (sp->v[mid].pc == pc)
			return &sp->v[mid];
		if (sp->v[mid].pc < pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
/* The entry of pc, made (and marked in the engines) if new. */
struct xspecial *xsp_get(struct xspecials *sp, uint64_t pc,
			 struct ftv_err *err);
int xsp_add_break(struct xspecials *sp, uint64_t pc, exec_break_fn fn,
		  void *arg, unsigned flags, struct ftv_err *err);
/* Marks every system instruction the model acts on in the executable
 * regions (a scan of the text at exec_new). */
int xsp_scan_sysops(struct xspecials *sp, int branches, struct ftv_err *err);
void xsp_free(struct xspecials *sp);

struct ftv_exec {
	struct exec_config cfg;
	const struct xarch *arch;
	int oom;                 /* an array could not grow */
	struct xlog log;
	struct xsched sched;
	struct xengine eng;
	struct xmodel model;
	struct xsbuf sb;         /* the patcher's stores */
	struct xsbuf csb[EXEC_MAX_CPUS]; /* each CPU's (exec_config.cpu_sbuf) */
	struct xplans plans;
	struct xspecials sp;
	struct xcpu cpu[EXEC_MAX_CPUS];
	int truncated;           /* a run stopped at its step budget */
	int guarded;             /* ... by a turn's time guard: cpu + 1 */
	int cut;                 /* the scheduler stopped the run (xs_pick) */
	int explore_stop;        /* exec_explore_stop was called */
	/* exec_finish_tail was called; the CPUs' tail_left are counting */
	int tail_armed, tail_set;
	struct exec_stats stats;
	struct xvisited visited; /* exec_config.prune_states */
	int prunable;            /* xst_prunable, at the walk's start */
	/* exec_verify: loads of watched data seen at pcs that were not
	 * scheduling points yet (marked after the run), and the ones made */
	uint64_t *newpts;
	size_t nnewpts, capnewpts;
	uint64_t *loadpts;
	size_t nloadpts, caploadpts;
	uint64_t verify_runs;     /* exec_verify: runs since the engines opened */
	size_t lazy_nwi;         /* exec_verify: the watched words made the
				  * reset's lazy ones (xe_lazy_words) */
	uint64_t run_step0;      /* stats.steps when the run began */
	/* exec_set_state_fn: the caller's part of the walk's state hash */
	exec_state_fn state_fn;
	void *state_arg;
	/* exec_verify's prefix restore (exec_verify_prefix.c): at the top
	 * of step save_at of a run, before its pick, save_fn is called; a
	 * non-zero return ends the run there (save_stopped) */
	uint64_t save_at;
	int (*save_fn)(struct ftv_exec *ex, void *arg);
	void *save_arg;
	int save_stopped;
	FILE *state_trace;       /* exec_set_state_trace, or NULL */
	uint64_t state_trace_k;  /* its scheduling points so far */
	struct exec_state_sink {
		uint64_t *w;     /* pairs: kind (1: a step number), word */
		size_t n, cap;
		int bad;
		const struct xsym *sym; /* the canonical order, or NULL */
	} state_sink;
	struct xsym sym;         /* exec_set_symmetry */
};

/* exec_run.c: a run resumed at step s0 of a state restored there
 * (exec_save.h; s0 0: exec_run). */
int exec_run_at(struct ftv_exec *ex, uint64_t s0, uint64_t max_steps,
		struct ftv_err *err);

/* exec_run.c: the engine's hooks (xe_init's ops, ctx = the executor) */
extern const struct xe_ops xrun_ops;

#endif
