/* The executor: N emulated CPUs of one architecture (arm64 or riscv64, one
 * Unicorn engine each) running over one sim_aspace, a seeded scheduler, the
 * patcher as one more agent applying plans (patcher/plan.h), and an explicit
 * instruction-fetch model. What differs per architecture is one table
 * (executor/exec_arch.h); the internals' layers are listed in
 * executor/exec_int.h.
 *
 * Memory. Regions with SIM_X are mapped privately per CPU (each engine gets
 * its own copy of the text), every other region is shared (the sim_region
 * host buffer itself). The sim_region host buffer of a text region is the
 * coherent "data" view of that memory. Watched instruction words hold, in
 * each CPU's copy, the value the model chose for that CPU's last fetch.
 *
 * Fetch model (Arm ARM B2.2.5, and herd7's aarch64 ifetch model, Simner et
 * al., ESOP 2020, as herdtools7 7.57's aarch64.cat states it). For each
 * watched word the executor keeps the coherence order of the writes to it.
 * A CPU fetching the word may see any write from its floor for that word up
 * to the newest visible one:
 *  - a context synchronisation event (ISB, exception entry and return, or
 *    the IPI of PLAN_SYNC_ALL) raises the CPU's floor to the newest write
 *    that cache maintenance (DC CVAU then DSB, IC IVAU then DSB) has pushed
 *    through to instruction fetch. IC completions are kept in order, each
 *    CPU catching up with them;
 *  - fetching a write raises the CPU's floors, at every watched word, to
 *    what the IC completions before that write made fetchable (herd's
 *    IC-ob: coFF+cachesync, MP-inst+dc-dsb-ic-dsb: forbidden);
 *  - otherwise the CPU may go back and forth (coFF: new then old, allowed).
 * A CPU's DC CVAU cleans what was visible at its last barrier (DMB SY/ISH,
 * DSB, ISB), at the newest write it fetched or loaded from the same line,
 * and its own writes: DMB LD and DMB ST do not order it after loads and
 * stores (herd). A full DMB completes a CPU's earlier DCs, a full DSB all
 * its maintenance. CTR_EL0.DIC/IDC (exec_config) make the IC/DC needless.
 * Data accesses are coherent (sequentially consistent between CPUs) and
 * loads run in program order; the patcher's stores sit in a store buffer
 * that the scheduler drains in any order allowed by its barriers: stores
 * separated by a DMB drain in order, a DSB waits for the buffer to be
 * empty. With exec_config.cpu_sbuf (litmus tests) every CPU's stores are
 * buffered the same way (DMB ST orders them, DMB SY/ISH and DSB wait for
 * them, DC CVAU for those to its line), loads of instruction words read
 * memory (text_loads), and an ISB takes effect as early as the CPU's last
 * conditional branch or DSB (an ISB is ordered after a load only through a
 * control dependency; a branch stands for one, ftv tracks no dependency).
 * Cache maintenance acts on 64-byte lines; an IC IVAU reads the PoU when
 * issued and takes effect at the issuer's DSB; the patcher's DC/IC wait
 * for its own buffered stores to the range they maintain.
 *
 * RISC-V (cfg.arch riscv64; the same per-word machinery). Facts:
 *  - Zifencei (Unprivileged ISA, "Zifencei" chapter): stores become
 *    visible to a hart's own instruction fetches only after it executes
 *    FENCE.I; FENCE.I orders nothing for other harts, so a remote hart
 *    needs its own FENCE.I (Linux flush_icache_all() IPIs every hart,
 *    or uses SBI remote fence.i). The model: a CPU executing fence.i
 *    raises its floor, for every watched word, to the newest write that
 *    has left the store buffer; PLAN_SYNC_ALL is flush_icache_all(): every
 *    drained write becomes fetchable on every CPU (and stays the floor of
 *    later context syncs: exec_cpu_context_sync, RESUME_MACHINE).
 *    There is no IC IVAU / DC CVAU: PLAN_CACHE_CLEAN / PLAN_ICACHE_INVAL
 *    keep their arm64 meaning and riscv plans do not use them.
 *  - Ziccif (RISC-V profiles, RVA20U64 onwards, mandatory in RVA23): a
 *    fetch of a naturally aligned 4-byte word in main memory is
 *    single-copy atomic, so any old/new pair of such a word is a legal
 *    concurrent change (no "cmodx" violation on riscv); a word that is
 *    only 2-aligned is refused by exec_watch_insn. Nothing orders the
 *    fetches of two words, hence the pair check (EXEC_V_PAIR).
 *  - FENCE (data) needs no action on sequentially consistent data; with
 *    CPU store buffers, a FENCE ordering stores before loads waits for
 *    them (as DMB SY), stores before stores keeps their order (DMB ST),
 *    and FENCE.I waits for the hart's own stores.
 *  - Unicorn 2.0.1 runs riscv64 at high kernel VAs with satp = 0 (no
 *    translation, M-mode); traps are not delivered to the guest: an
 *    illegal instruction ends the run (EXEC_V_FAULT).
 *
 * Checks, run on every fetch and load (see exec_viol_kind): torn literals,
 * fetches of a word being changed whose old/new pair is not CMODX-safe
 * (the arch table's cmodx_safe: a64_cmodx_safe on arm64), stale literals
 * after a new instruction, and on riscv64 the AUIPC + JALR pair check.
 *
 * Scheduling. Each step gives the turn to one agent: a CPU (which runs up to
 * its next scheduling point: a fetch of a watched word, its quantum, or in
 * fine mode its next instruction that touches shared state), the patcher
 * (which performs one plan step) or the store buffer (which drains one
 * store). The policy and a seed decide; the same seed replays bit for bit.
 * While no plan is in flight, a fetch that can only see one value does not
 * end a turn (see fetch_quantum): CPUs run freely between patch events.
 *
 * Typical use:
 *   ex = exec_new(as, &(struct exec_config){ .ncpus = 4, .seed = s }, &err);
 *   exec_cpu_setup(ex, i, entry, sp, args, n, exit_pc, &err);  per CPU
 *   exec_cpu_quiescent(ex, i, loop_top, &err);
 *   exec_watch_insn(ex, site, &err); exec_watch_data64(ex, site - 8, &err);
 *   exec_break(ex, tracer_entry, check_regs, ctx, &err);
 *   exec_submit(ex, &plan, done_cb, ctx, &err);
 *   exec_run(ex, budget, &err);
 *   v = exec_violations(ex, &n);  exec_trace_print(ex, stdout);
 */
#ifndef FTV_EXECUTOR_EXEC_H
#define FTV_EXECUTOR_EXEC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "patcher/plan.h"
#include "sim/aspace.h"
#include "util/arch.h"
#include "util/err.h"

#define EXEC_MAX_CPUS 32

enum exec_policy {
	EXEC_RANDOM,     /* a uniform choice among ready agents each step */
	EXEC_QUANTUM,    /* round robin, `quantum` instructions per CPU turn */
	EXEC_PCT,        /* random priorities with pct_depth change points */
	EXEC_EXHAUSTIVE, /* every interleaving and every fetch choice */
};

/* exec_config.turn_insns's default: 4 Mi instructions, where a turn
 * between two scheduling points of a world runs hundreds (a CPU looping
 * on `b .` spends it in some 50 ms, one block per instruction). */
#define EXEC_TURN_INSNS (4ULL << 20)

struct exec_config {
	/* The architecture (util/arch.h); 0, the default, is arm64. */
	enum ftv_arch arch;
	unsigned ncpus;          /* 1 .. EXEC_MAX_CPUS */
	enum exec_policy policy;
	uint64_t seed;
	/* Instructions a CPU may run in one turn; 0 = run until the next
	 * watched fetch, quiescent point or exit (fastest: no per-instruction
	 * counting hook; the code must reach one of those). */
	unsigned quantum;
	/* With quantum 0: a turn whose blocks execute more than this many
	 * instructions without reaching a scheduling point is a CPU gone
	 * astray, reported (stuck) and stopped. Counted per translated
	 * block (exec_engine.c block_hook), so the verdict and the trace
	 * never depend on the machine's speed or load. 0: the default,
	 * EXEC_TURN_INSNS; UINT64_MAX: no budget. */
	uint64_t turn_insns;
	/* With quantum 0: the time guard of a turn (in microseconds: this
	 * long on the wall clock, then this much CPU time of its thread,
	 * exec_watchdog.c; 0 = none). It only ends a turn that has not
	 * spent its instruction budget in that time, and that ends the run
	 * unjudged: exec_run_guarded, the run counted truncated, never a
	 * verdict of its own. */
	uint64_t turn_timeout_us;
	unsigned pct_depth;      /* PCT's d: number of priority change points */
	uint64_t pct_length;     /* PCT's estimate of the run length in steps */
	/* Fine mode (litmus tests): a CPU turn ends before each instruction that
	 * touches shared state (load, store, cache maintenance, barrier, fetch
	 * of a watched word), so every interleaving of those is reachable. */
	int fine;
	/* While no plan is in flight (queue empty, store buffer drained), a
	 * fetch of a watched word that can only see one value does not end the
	 * CPU's turn; the turn ends after this many such fetches (0: 1024).
	 * While a plan is in flight every watched fetch is a scheduling point. */
	unsigned fetch_quantum;
	/* How many pcs the caller will have the CPUs stop at (watched words,
	 * breakpoints, quiescent points), if it knows: more than the engines
	 * give a code hook each (executor/exec_engine.h) and the engines call
	 * out before every instruction from their first turn, instead of
	 * switching to that when the pcs are marked, which drops every
	 * translation made before (every region, per CPU: 4% of a fuzz
	 * campaign, then the code translated again). 0: not known. Only the
	 * speed depends on it. */
	size_t expect_pcs;
	/* 1: record only fetches that had a choice (long runs, benchmarks);
	 * 0: record every fetch of a watched word. Loads are always recorded. */
	int quiet_obs;
	/* At most this many trace events and observations are kept (each
	 * counted in exec_stats.dropped beyond); 0: 1 << 20 of each. Checks
	 * run on every event whether kept or not. */
	uint64_t record_max;
	/* 1: PLAN_STOP_MACHINE parks every running CPU wherever it is, at the
	 * instruction boundary where its last turn ended (the stopper thread
	 * preempted it), not only at its quiescent point; it resumes there
	 * after PLAN_RESUME_MACHINE. RISC-V worlds set it: Linux's
	 * patch_text() runs under stop_machine() with harts stopped anywhere,
	 * e.g. between the AUIPC and the JALR of a call site. */
	int stop_anywhere;
	/* 1: a world explored by exec_verify (ftv verify). Every pc where
	 * something visible happens ends a CPU's turn: each fetch of a
	 * watched word, each breakpoint, quiescent point and system
	 * instruction the model acts on, and each instruction seen loading
	 * watched data (exec_verify finds them: exec_load_points). A turn is
	 * then one visible event followed by the CPU's own work, whatever the
	 * other agents are doing. */
	int verify;
	/* 1: every store outside the stacks faults (the data regions are
	 * mapped read-only): a probe that a function writes no memory at all,
	 * not even a lock it takes and releases (verify/world_probe.c). */
	int ro_data;
	/* CTR_EL0.DIC and IDC of the world's cores (Arm ARM D13.2.34): with
	 * IDC, a write is at the PoU as soon as it is visible (no DC CVAU
	 * needed); with DIC, what is at the PoU is what IC IVAU would expose
	 * (no IC IVAU needed). A context synchronisation is still needed.
	 * 0 and 0: Neoverse N1 and most cores before it; both 1: Neoverse
	 * V1/N2 and later, Apple M1. */
	int dic, idc;
	/* Loads of watched instruction words read memory (the newest
	 * visible write) rather than the loading CPU's fetched view: litmus
	 * tests load instructions as data. Costs a hook on every load. */
	int text_loads;
	/* Each CPU's stores wait in a store buffer of its own, drained by
	 * the scheduler in any order its barriers allow (DMB ST orders
	 * stores, DMB SY/ISH and DSB wait for the buffer, DC CVAU waits for
	 * the stores to its line; stores to one location stay in order),
	 * while the CPU reads its own (store forwarding). Loads stay in
	 * program order. Every region becomes private to each CPU. */
	int cpu_sbuf;
	/* 1: the executor runs once and is never reset (each of ftv
	 * replay's worlds): it takes no snapshot (exec_reset fails), and
	 * each CPU's private view of a region starts as a copy-on-write
	 * mapping of one copy shared by all of them rather than a copy of
	 * its own, so CPUs that run a few pages of a large text cost those
	 * pages (executor/exec_engine.c). */
	int once;
	/* 1: the executor is never reset (one run of a scenario, each fuzz
	 * iteration and shrink candidate): exec_run takes no snapshot of its
	 * own, so none of what only a reset needs is paid for (the copy of
	 * every page that holds something, the kernel's walk of every
	 * region for those pages, the write protection of every region and
	 * CPU copy and the fault at the first store to each page that tells
	 * a reset which pages were written). Unlike once, each CPU's copies
	 * are its own and its engine goes back to the pool (exec_pool.h).
	 * exec_reset fails unless exec_snapshot was called (world_settle
	 * still takes one for the words' initial contents). */
	int never_reset;
	/* PCT-style delays for the patcher's store buffer (random, quantum
	 * and pct policies; not under exhaustive, verify or a forced
	 * schedule): each store it buffers is, with probability 1/2, held
	 * back for 1 .. drain_hold scheduler steps, drawn from a seeded
	 * stream of its own. A held store drains only once its time is up
	 * (or when no other agent can move), so the stores the barriers
	 * leave unordered become visible far apart, in any order: a few
	 * steps between the list head and the new ops' fields is a window
	 * a CPU rarely hits, a few hundred is not. 0: none (every drain
	 * uniform among the candidates). */
	unsigned drain_hold;
	/* The CPUs' counterpart (same policies, a stream of its own): after
	 * each of its turns a CPU is, with probability 1/4, held back for
	 * 1 .. cpu_hold scheduler steps: a task preempted, or held in an
	 * interrupt, between two of its instructions while the other agents
	 * move on (whole updates may land meanwhile). A held CPU runs once
	 * its time is up, or when no other agent can move. 0: none. */
	unsigned cpu_hold;
	/* A hold aimed at a window (same policies, a stream of its own):
	 * a CPU whose turn passed a preemption point (EXEC_BREAK_WINDOW) and
	 * stopped at the fetch of the watched word right after it while a
	 * plan is in flight is, with probability 1/2, held back for 1 ..
	 * window_hold steps: a task preempted between two loads of the state
	 * an update changes (function_trace_op and ftrace_call in a
	 * preemptible ftrace_caller without CALL_OPS) while the update
	 * lands. 0: none. */
	unsigned window_hold;
	/* Rounds after the last update (random, quantum and pct policies):
	 * once exec_finish_tail was called and nothing is in flight, each
	 * CPU finishes the round it is in and tail_rounds more, then is done
	 * at its quiescent point (the top of its next round) instead of
	 * running the rest of its rounds over text nothing changes any more.
	 * A plan submitted after that (a deferred free) puts the count back.
	 * 0: every round runs. */
	unsigned tail_rounds;
	/* Exhaustive exploration: a run that reaches a state an earlier run
	 * of the walk met at a branching point ends there (exec_state.h:
	 * what is hashed, why it is sound, which executors it skips). The
	 * value is the most bytes the set of states may take (16 per state,
	 * at most half full); beyond, states are no longer added and the
	 * walk goes on unpruned from them. 0: no pruning. */
	size_t prune_states;
};

/* From now on (for the process) executors hand their engines, with what
 * they translated, to the next executor over the same memory layout, and
 * aspaces their region memory to the next one (executor/exec_pool.h says
 * when an engine is kept). Nothing but the speed changes: a fuzz campaign
 * builds a world per iteration. */
void exec_reuse_engines(void);
/* How many engines executors took from others so far. */
size_t exec_engines_reused(void);

/* Parses "random", "quantum", "pct", "exhaustive"; -1 if unknown. */
int exec_policy_parse(const char *s, enum exec_policy *out);
const char *exec_policy_name(enum exec_policy p);

enum exec_viol_kind {
	EXEC_V_TORN,       /* a literal value that no single write produced */
	EXEC_V_CMODX,      /* a word fetched while being changed, not CMODX-safe */
	EXEC_V_STALE_DATA, /* new instruction fetched, then an older literal read */
	EXEC_V_FAULT,      /* the CPU took an exception (poisoned memory, UDF) */
	EXEC_V_STUCK,      /* nobody can move (the patcher waits forever) */
	/* riscv64: a CPU executed the two words of an AUIPC + JALR call site
	 * from different generations of the site (executor/exec_riscv64_pair.c):
	 * "pair: cpu0 step 23 executed 00000297 (auipc t0, 0x0) from write #2
	 * (plan 0 step 1 "make_call: auipc"), then fetched 140282e7 (jalr t0,
	 * 320(t0)) at func+0x4/0x10 from write #7 (plan 2 step 2 "make_call:
	 * jalr"), which was written to pair with 00002297 (auipc t0, 0x2) from
	 * write #6 (plan 2 step 1 "make_call: auipc"): the call mixes two
	 * generations of the site and jumps to 0x... instead of 0x..." */
	EXEC_V_PAIR,
	/* a plan's store through the patch window (PLAN_MAP_WINDOW) landed
	 * in a page another agent had mapped there, or faulted because
	 * another agent had unmapped it: the window is shared, and whoever
	 * writes through it must hold the lock the others take */
	EXEC_V_WINDOW,
	/* a CPU executed an older instruction than a completed plan with
	 * visible_on_return wrote (patcher/plan.h): the function that made
	 * the change returned before the change was visible to every CPU
	 * ("not-visible: cpu1 step 40 executed nop at jl_hook+0x8/0x40
	 * after static_key_enable: nop -> b returned at step 31 ...") */
	EXEC_V_NOT_VISIBLE,
};
const char *exec_viol_name(enum exec_viol_kind k);

struct exec_violation {
	enum exec_viol_kind kind;
	int cpu;
	uint64_t step;
	uint64_t addr;
	uint64_t run;       /* exploration run (exhaustive), else 0 */
	char msg[768];      /* one line: where, the words, the writes */
};

/* One write in the model: a store of the patcher (plan step) or of a CPU, or
 * the initial contents of a watched location. */
struct exec_write {
	uint64_t addr;
	uint64_t val;      /* the whole watched word/literal after this write */
	unsigned size;     /* bytes stored */
	int plan;          /* plan id, or -1 */
	int step;          /* plan step index, or -1 */
	int cpu;           /* writing CPU, or -1 for the patcher / initial */
	const char *what;  /* plan step's what, "initial" or "cpu store" */
};

enum exec_obs_kind { EXEC_OBS_FETCH, EXEC_OBS_LOAD };

/* One fetch of a watched word or load of a watched literal. */
struct exec_obs {
	enum exec_obs_kind kind;
	int cpu;
	uint64_t step;
	uint64_t addr;
	uint64_t val;
	int wid[2]; /* write ids that produced it (a literal has two halves) */
};

enum exec_ev_kind {
	EXEC_EV_CPU,     /* a = pc before, b = pc after */
	EXEC_EV_FETCH,   /* a = addr, b = value */
	EXEC_EV_PLAN,    /* a = plan id << 32 | step index, b = op */
	EXEC_EV_DRAIN,   /* a = addr, b = write id */
};

/* The step trace, for replay and timelines. */
struct exec_event {
	uint64_t step;
	int agent;  /* CPU number, or -1 patcher (agent 0), -2 store buffer,
		       -3 the second patcher agent (PLAN_AGENT_TEXT) */
	enum exec_ev_kind kind;
	uint64_t a, b;
};

enum exec_plan_status { EXEC_PLAN_QUEUED, EXEC_PLAN_RUNNING, EXEC_PLAN_DONE,
			EXEC_PLAN_MISMATCH, EXEC_PLAN_FAULT };

/* What became of a submitted plan; on EXEC_PLAN_MISMATCH, `step` is the
 * validating write that found `found` instead of its `old` (nothing was
 * written and the rest of the plan was dropped: ftrace_bug()); on
 * EXEC_PLAN_FAULT, `step` is the write through an unmapped patch window
 * (the kernel's -EFAULT: "ftrace faulted on modifying"), and the rest of
 * the plan was dropped. */
struct exec_plan_result {
	enum exec_plan_status status;
	size_t step;
	uint64_t found;
};

struct ftv_exec;
typedef void (*exec_plan_fn)(struct ftv_exec *ex, int plan,
			     const struct exec_plan_result *res, void *arg);
typedef void (*exec_break_fn)(struct ftv_exec *ex, int cpu, uint64_t pc,
			      void *arg);
/* What a breakpoint's callback depends on besides the CPU's own state
 * (exec_break_flags), for exec_verify's reduction. */
enum {
	EXEC_BREAK_PURE = 0,   /* only this CPU's registers and state */
	EXEC_BREAK_PLANS = 1,  /* which plans are done (their callbacks) */
	/* a preemption point: a turn that stops at the watched fetch at it
	 * or right after it while a plan is in flight may be held
	 * (exec_config.window_hold) */
	EXEC_BREAK_WINDOW = 2,
};

struct exec_stats {
	uint64_t steps;
	uint64_t cpu_turns;
	uint64_t fetches;     /* fetches of watched words */
	/* turns ended before a load of bytes a buffered store holds */
	uint64_t load_points;
	uint64_t runs;        /* exploration runs */
	int complete;         /* exhaustive: every choice was explored */
	uint64_t dropped;     /* events and observations beyond record_max */
	long peak_rss_kb;     /* getrusage ru_maxrss */
	/* exec_config.prune_states: the distinct states met at branching
	 * points, and the runs cut at one met before */
	uint64_t states, state_cuts;
};

/* Creates the executor: one engine per CPU over every region mapped in `as`
 * at this time (map everything first). The aspace must outlive it. */
struct ftv_exec *exec_new(struct sim_aspace *as, const struct exec_config *cfg,
			  struct ftv_err *err);
void exec_free(struct ftv_exec *ex);

/* CPU setup: pc, sp and x0..x(nargs-1). exit_pc: the CPU is done when it
 * reaches it (0: never). */
int exec_cpu_setup(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		   uint64_t sp, const uint64_t *args, unsigned nargs,
		   uint64_t exit_pc, struct ftv_err *err);
/* arm64: x0..x30 (reg 0..30), 31 = sp, 32 = pc, 33 = TPIDR_EL1 (the
 * per-CPU area base, as the kernel keeps it), 34 = SP_EL0 (`current`,
 * as the kernel keeps it at EL1: arch/arm64/include/asm/current.h).
 * riscv64: x0..x31 (reg 0..31; 2 = sp, 4 = tp, the per-CPU pointer as the
 * kernel keeps it, 10..17 = a0..a7), 32 = pc. Writes to x0 are ignored.
 * exec_cpu_setup's sp and args go to sp and x0.. (arm64) or a0.. (riscv64).
 * Setting before a run also sets the value that exec_reset() restores. */
int exec_cpu_set_reg(struct ftv_exec *ex, unsigned cpu, int reg, uint64_t v);
uint64_t exec_cpu_reg(struct ftv_exec *ex, unsigned cpu, int reg);
int exec_cpu_done(struct ftv_exec *ex, unsigned cpu);
/* exec_steps() + 1 when cpu last passed its quiescent point this run (0:
 * not yet; now, while stop_machine() keeps it parked there). A CPU parked
 * there has passed it, though the breakpoints there run only when it
 * resumes. */
uint64_t exec_cpu_last_qs(struct ftv_exec *ex, unsigned cpu);
/* Litmus tests' faults (herd's fault handlers): an undefined instruction
 * on cpu is taken as an exception, not reported as EXEC_V_FAULT. With
 * handler != 0 the CPU continues there (arm64: ELR_EL1 = the faulting
 * instruction, SPSR_EL1 = PSTATE, so that ERET returns to it); with 0 the
 * CPU ends at the instruction, as herd ends a thread at a fatal fault.
 * exec_cpu_faults lists the pcs of the exceptions taken this run. */
int exec_cpu_on_undef(struct ftv_exec *ex, unsigned cpu, uint64_t handler,
		      struct ftv_err *err);
size_t exec_cpu_faults(struct ftv_exec *ex, unsigned cpu, const uint64_t **pcs);
/* A quiescent point (PLAN_QUIESCE, PLAN_STOP_MACHINE): e.g. the top of the
 * CPU's outer loop, where it holds no reference to patched code. */
int exec_cpu_quiescent(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
		       struct ftv_err *err);

/* A voluntary context switch inside the code the CPU calls (schedule()
 * from a function the workload calls): a second quiescent point, passed as
 * the first is (RCU Tasks' quiescent states are voluntary switches,
 * kernel/rcu/tasks.h), though the CPU may hold return addresses into
 * patched code there. After exec_cpu_quiescent. */
int exec_cpu_sleep_point(struct ftv_exec *ex, unsigned cpu, uint64_t pc,
			 struct ftv_err *err);
/* A pc where every CPU changes a count a plan waits on (PLAN_WAIT_ZERO):
 * the turn that executes it is said to write the CPU's progress, for
 * exec_verify's reduction (percpu_ref_get/put: __bpf_tramp_enter/exit). */
int exec_progress_point(struct ftv_exec *ex, uint64_t pc, struct ftv_err *err);

/* A context synchronisation event on cpu now (an exception return, a task
 * switch): it fetches the newest cache-maintained instructions from here on.
 * For breakpoint callbacks at a quiescent point. */
int exec_cpu_context_sync(struct ftv_exec *ex, unsigned cpu);

/* Watches an instruction word (4-aligned, in an executable region) or a
 * 64-bit literal. Plans watch the addresses they write automatically. */
int exec_watch_insn(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err);
int exec_watch_data64(struct ftv_exec *ex, uint64_t addr, struct ftv_err *err);

/* fn is called when any CPU is about to execute pc (registers readable with
 * exec_cpu_reg). */
int exec_break(struct ftv_exec *ex, uint64_t pc, exec_break_fn fn, void *arg,
	       struct ftv_err *err);
/* The same, saying what fn reads (EXEC_BREAK_*); exec_break assumes
 * EXEC_BREAK_PLANS. */
int exec_break_flags(struct ftv_exec *ex, uint64_t pc, exec_break_fn fn,
		     void *arg, unsigned flags, struct ftv_err *err);

/* Queues a copy of the plan; returns its id (>= 0) or -1 with err set. done
 * (may be NULL) is called when it completes or stops on a mismatch. */
int exec_submit(struct ftv_exec *ex, const struct plan *p, exec_plan_fn done,
		void *arg, struct ftv_err *err);
const struct exec_plan_result *exec_plan_result(struct ftv_exec *ex, int plan);
/* Step `step` of a plan as this execution performed it: a live plan's
 * steps are the ones its reads led to (patcher/plan.h); NULL if none. */
const struct plan_step *exec_plan_step(struct ftv_exec *ex, int plan, size_t step);

/* Performs a plan at once, before any run, with no CPU running (a
 * scenario's settled prefix, `settle`): its writes land in memory and in
 * every CPU's copy of the text, fetchable everywhere (as after its cache
 * maintenance and an IPI to every CPU), its frees poison, and its waits
 * (DSB, quiescence, stop_machine(), locks) hold at once since no CPU holds
 * anything. A validated write that finds another word stops it, as
 * ftrace_modify_code() does. done (may be NULL) is called with id and
 * the result. Nothing of it is queued: exec_reset does not undo it once
 * exec_snapshot has been taken after it. */
void exec_apply(struct ftv_exec *ex, const struct plan *p, int id, exec_plan_fn done,
		void *arg);

/* Runs until every CPU is done and every plan applied, nobody can move, or
 * max_steps steps were taken. Returns 0, or -1 with err set (setup error). */
int exec_run(struct ftv_exec *ex, uint64_t max_steps, struct ftv_err *err);
/* No plan will be submitted any more but those the plans' own callbacks
 * submit: exec_config.tail_rounds counts from the next step where nothing
 * is in flight. */
void exec_finish_tail(struct ftv_exec *ex);

/* Puts memory, registers, plans and the model back to their state before the
 * first run (for exploration); violations and stats are kept. */
int exec_reset(struct ftv_exec *ex, struct ftv_err *err);

/* Takes the snapshot exec_reset restores now: memory, registers and
 * CPUs as they are (replacing the one the first run took, e.g. to leave a
 * calibration run and the queuing of plans outside what is explored). */
int exec_snapshot(struct ftv_exec *ex, struct ftv_err *err);

/* A step of a run: the agent that took it (a CPU, EXEC_AGENT_PATCHER or
 * EXEC_AGENT_SBUF, the numbers of the trace) and the value chosen in it
 * (which write a fetch saw, which buffered store drained; 0 when there
 * was no choice). */
#define EXEC_AGENT_PATCHER (-1)
#define EXEC_AGENT_SBUF (-2)
#define EXEC_AGENT_PATCHER_TEXT (-3)
struct exec_choice {
	int agent;
	unsigned value;
};
/* The next run takes these steps, then the first ready agent and value 0
 * (n 0: no schedule). exec_schedule_diverged: how many scheduled agents
 * were not ready when their turn came (0 for a faithful replay), and the
 * first such step. */
int exec_set_schedule(struct ftv_exec *ex, const struct exec_choice *c,
		      size_t n);
uint64_t exec_schedule_diverged(struct ftv_exec *ex, size_t *first);

/* A pc where, under exec_config.verify, a CPU's turn ends before the
 * instruction (a load of watched data found by exec_verify, or one a
 * replay file names). exec_load_points: those there are. */
int exec_preempt_point(struct ftv_exec *ex, uint64_t pc, struct ftv_err *err);
size_t exec_load_points(struct ftv_exec *ex, const uint64_t **pcs);

/* Bounded exhaustive verification (exec_verify.c, exec_dpor.h): every
 * execution from the snapshot, up to the equivalence of commuting steps
 * when reduce is 1; the caller checks each one in its hooks. Loads of
 * watched data first seen during the walk become scheduling points and the
 * walk starts over (stats.restarts), after a few random runs looking for
 * them (discovery). */
struct exec_verify_config {
	uint64_t max_executions;  /* 0: no limit */
	uint64_t max_steps;       /* per execution */
	int reduce;               /* 1: source sets + sleep sets */
	/* 1: the cache maintenance's footprints as they were before they
	 * were refined (issue 31: a DSB wrote what every context
	 * synchronisation reads, a sync of every CPU every watched word):
	 * the reference the finer reduction is checked against */
	int coarse;
	unsigned shard, nshards;  /* 0, 1 (or 0): the whole tree */
	unsigned discovery;       /* random runs before the walk (0: 32) */
	/* 1: the walk's CPU time split into its parts
	 * (exec_verify_stats.split; a clock read per part per run, some 2%
	 * of a run) */
	int split;
	/* 1: every reset puts back every word of the CPUs' copies, the
	 * watched words included (the reference: FTV_VERIFY_EXACT_RESET=1
	 * in the environment of ftv verify); 0: a CPU's copy keeps the
	 * watched words the run left (xe_lazy_words), which its next fetch
	 * of each sets */
	int exact_reset;
	/* 1: stateful DPOR (exec_dpor_state.h): the states of finished
	 * subtrees are kept, in at most state_bytes (0: 2 GiB), and a run
	 * reaching one again is cut; 0: the stateless walk (the
	 * reference). Only with reduce, unsharded. */
	int stateful;
	size_t state_bytes;
	/* 1: a run starts from the state saved at the deepest branch point
	 * of its prefix, not from the reset (exec_save.h; saves kept on a
	 * stack by depth, exec_verify_prefix.c), where the executor's state
	 * can be saved and the caller's hooks save its own; the same walk.
	 * prefix_check: every such run is made both ways, and the states at
	 * its branch point compared (an error when they differ). */
	int prefix_restore, prefix_check;
};
/* Where a walk's CPU time went (exec_verify_config.split), CPU seconds of
 * the walking thread: restore (exec_reset and the caller's reset hook),
 * run (exec_run: Unicorn, the hooks, the fetch model, the patcher's and
 * store buffer's steps), check (the caller's done hook: the world's
 * checks, the counterexample's bookkeeping), bookkeeping (the reduction:
 * xd_end_run, xd_next, new scheduling points), walk (all of it, the rest
 * included). steps: the reduction's steps of every run; replayed: those
 * of them that repeated the run before's prefix (the steps below the
 * branch the next run takes, which a restore of a saved state would not
 * run again). */
struct exec_verify_split {
	double restore, run, check, book, walk;
	uint64_t steps, replayed;
	/* exec_verify_config.prefix_restore: runs started from a saved
	 * state (with prefix_check: states restored and checked), and the
	 * steps they did not run again */
	uint64_t restores, skipped;
};
struct exec_verify_stats {
	uint64_t executions;      /* complete executions explored */
	uint64_t blocked;         /* runs cut: every ready agent slept */
	uint64_t probes;          /* runs cut: another shard's prefix */
	uint64_t pruned;          /* branches the reduction left out */
	uint64_t truncated;       /* executions cut by max_steps */
	uint64_t restarts;        /* new scheduling points found */
	uint64_t discovery;       /* discovery runs made */
	uint64_t steps;           /* steps of the counted executions */
	uint64_t multi, diverged; /* what makes a walk unsound (0) */
	uint64_t state_cuts;      /* runs cut at a state finished before */
	uint64_t state_cuts_moved; /* of those, through a state of another
				      permutation of the CPUs (exec_sym.h) */
	unsigned sym_cpus;        /* CPUs interchangeable (0: no symmetry) */
	uint64_t states;          /* states kept (exec_verify_config.stateful) */
	int states_full;          /* the states filled state_bytes */
	int complete;             /* every execution explored, none cut */
	int budget;               /* stopped by max_executions */
	struct exec_verify_split split; /* exec_verify_config.split */
};
struct exec_verify_hooks {
	/* Before each run, after exec_reset: the caller's own state back. */
	void (*reset)(struct ftv_exec *ex, void *arg);
	/* After each run. counted: one of the walk's executions (the others
	 * were cut as redundant, or belong to another shard, or discover
	 * scheduling points); ended: it reached its end. Return nonzero to
	 * stop the walk. */
	int (*done)(struct ftv_exec *ex, int counted, int ended, void *arg);
	/* The walk starts over: what was found so far is void. */
	void (*restart)(struct ftv_exec *ex, void *arg);
	void *arg;
	/* exec_verify_config.prefix_restore: the caller's own state saved
	 * into *slot (its memory, NULL at first, reused; 0 or -1), put back
	 * from it (in place of reset: 0 or -1), the slot freed; and a
	 * fingerprint of its state (prefix_check). Without save and
	 * restore, every run starts from the reset. */
	int (*save)(struct ftv_exec *ex, void **slot, void *arg);
	int (*restore)(struct ftv_exec *ex, const void *slot, void *arg);
	void (*drop)(void *slot, void *arg);
	uint64_t (*fingerprint)(struct ftv_exec *ex, void *arg);
};
/* The caller's part of the state exec_verify's stateful walk hashes
 * (exec_state_walk.c): fn gives, through the sink, every word of its own
 * state that a later step or check reads (exec_state_word), its step
 * numbers compared with each other (exec_state_step: hashed by their
 * order among those, 0 and the current step, on exec_steps' scale), step
 * numbers compared only with those (exec_state_since: hashed by where
 * they fall among them), or says the state cannot be hashed
 * (exec_state_unhashable). Without one,
 * no state is hashed. */
struct exec_state_sink;
typedef void (*exec_state_fn)(struct ftv_exec *ex, struct exec_state_sink *s, void *arg);
void exec_set_state_fn(struct ftv_exec *ex, exec_state_fn fn, void *arg);
/* A test's view of the walk's state hash (tests/test_verify_symmetry.c):
 * at every scheduling point of the runs that follow, one line
 * "state K AGENT HASH" to out: K counts the points from 0, AGENT took the
 * step (cpuN, patcher, text, sbuf), HASH is the state's before it as the
 * stateful walk hashes it (xst_hash_walk: canonical under symmetry) or
 * "-" when the walk would not hash it, then " tie" when under symmetry
 * two CPUs had equal keys (ordered by number: two states that differ by
 * a permutation may then hash differently, a merge missed, exec_sym.h).
 * NULL: none. */
void exec_set_state_trace(struct ftv_exec *ex, FILE *out);
void exec_state_word(struct exec_state_sink *s, uint64_t w);
void exec_state_step(struct exec_state_sink *s, uint64_t step);
void exec_state_since(struct exec_state_sink *s, uint64_t step);
void exec_state_unhashable(struct exec_state_sink *s);
/* Symmetry (executor/exec_sym.h): the sink's state is hashed in a
 * canonical order of the CPUs. fn gives its per-CPU words for the CPU at
 * canonical position j = 0, 1, ... (exec_state_cpu), names a CPU by its
 * position (exec_state_cpu_pos; -1 stays -1) and gives every value that
 * may be an address in a CPU's private range through exec_state_reloc.
 * Without symmetry these are the identity. */
unsigned exec_state_cpu(const struct exec_state_sink *s, unsigned j);
int exec_state_cpu_pos(const struct exec_state_sink *s, int cpu);
uint64_t exec_state_reloc(const struct exec_state_sink *s, uint64_t v);
/* CPU c's private range of a symmetric world: [base + c * stride, + stride);
 * ign[0..nign): offsets in it of words that no code reads (the caller's
 * to show) and that may differ between CPUs. */
struct exec_sym_range {
	uint64_t base, stride;
	const uint64_t *ign;
	size_t nign;
};
/* After exec_snapshot: the CPUs are interchangeable for the stateful walk
 * (exec_sym.h) if every check there passes: 1; else 0 with the reason in
 * why (the walk stays as it was). r[0..nr): the CPUs' private ranges. */
int exec_set_symmetry(struct ftv_exec *ex, const struct exec_sym_range *r, size_t nr,
		      char *why, size_t nwhy);
void exec_symmetry_off(struct ftv_exec *ex);
/* The CPUs that are interchangeable (0: no symmetry), and of the states
 * the walk hashed, how many and how many through a permutation other than
 * the identity. */
unsigned exec_symmetric_cpus(const struct ftv_exec *ex, uint64_t *moved,
			     uint64_t *hashed);
int exec_verify(struct ftv_exec *ex, const struct exec_verify_config *cfg,
		const struct exec_verify_hooks *h,
		struct exec_verify_stats *st, struct ftv_err *err);
/* In done(): the steps of the run, and the causal past of step k (the
 * steps it depends on, itself included, in order: a shortest run reaching
 * it); k >= the number of steps: every step. Returns how many were
 * written to out (at most max). */
size_t exec_verify_nsteps(struct ftv_exec *ex);
size_t exec_verify_past(struct ftv_exec *ex, size_t k,
			struct exec_choice *out, size_t max);
/* How many steps of that causal past are visible: touch a location some
 * CPU observes or whose change decides what a CPU or a check can do
 * (exec_dpor.h, xloc_visible). */
size_t exec_verify_visible(struct ftv_exec *ex, size_t k);
/* The data granules (8 bytes) that CPUs read and the patcher wrote, as a
 * replay needs them (exec_observe); returns how many (at most max are
 * written). */
size_t exec_observed(struct ftv_exec *ex, uint64_t *out, size_t max);
/* A replay: the CPUs observe the data granule of addr, and nothing else
 * the patcher writes (the walk's record, written with the schedule). */
int exec_observe(struct ftv_exec *ex, uint64_t addr);
/* A replay whose CPUs observe none of the data the patcher writes. */
void exec_observe_none(struct ftv_exec *ex);
/* The step of the current run (0-based), for stamping. */
uint64_t exec_run_step(struct ftv_exec *ex);

/* Dependencies ftv does not track itself, given by whoever knows the code
 * (the litmus runner: herd's addr dependencies):
 *   EXEC_POINT_CTRL   once a CPU executed the instruction at pc, its later
 *                     ISB takes effect after everything before it, as
 *                     after a conditional branch (aarch64.cat:
 *                     (ctrl | addr; po); [ISB]): an access whose address
 *                     depends on a load;
 *   EXEC_POINT_LOAD   a load: what is visible when it runs is what a
 *                     later dependent DC cleans at least;
 *   EXEC_POINT_DC_DEP a DC CVAU or IC IVAU whose address depends on a
 *                     load: it is performed after the CPU's last
 *                     EXEC_POINT_LOAD (aarch64.cat: addr; [DC], addr; [IC]
 *                     in dob);
 *   EXEC_POINT_ADDR   a load whose address depends on a load: it is
 *                     satisfied after it (aarch64.cat: addr in dob), as
 *                     the CPU's later loads are too (xm_text_load_early:
 *                     the conservative side, which orders them all). */
enum exec_point { EXEC_POINT_CTRL, EXEC_POINT_LOAD, EXEC_POINT_DC_DEP,
		  EXEC_POINT_ADDR };
int exec_order_point(struct ftv_exec *ex, uint64_t pc, enum exec_point kind,
		     struct ftv_err *err);

/* Exhaustive exploration: repeatedly reset and run, each run taking the next
 * unexplored sequence of choices, calling fn after each run. Stops after
 * max_runs runs; stats.complete says whether every choice was explored
 * with every run reaching its end (not cut by steps_per_run).
 * Under EXEC_RANDOM each run draws a new seeded schedule instead (never
 * complete). Either way the engines are recycled every few thousand runs
 * (xe_recycle: Unicorn's translations of rewritten code grow a run at a
 * time, and a long random search crashed inside libunicorn without it). */
typedef void (*exec_outcome_fn)(struct ftv_exec *ex, void *arg);
/* The run just made was cut short by the scheduler (a state met before,
 * exec_config.prune_states, or exec_verify's reduction): whatever its CPUs
 * hold is no final state (stores may still wait in their buffers). */
int exec_run_was_cut(const struct ftv_exec *ex);
/* The run (since exec_reset) was ended by a turn's time guard
 * (exec_config.turn_timeout_us) before that turn spent its instruction
 * budget: 0, or 1 with why (if non-NULL) saying which CPU and the limits.
 * Such a run is not judged (its end depends on the clock); it counts as
 * truncated, and exec_run takes no step in it any more. */
int exec_run_guarded(const struct ftv_exec *ex, char *why, size_t n);
/* Sets exec_config.turn_timeout_us for the runs to come; returns the one
 * before (a setup run that must not end unjudged, such as a world's
 * calibration, runs on the instruction budget alone). */
uint64_t exec_set_turn_guard(struct ftv_exec *ex, uint64_t us);
/* The patchers' store buffer's channels (the N of a schedule's sbuf:N,
 * exec_choice.value of a drain): their addresses, numbered in the order
 * the executor first saw a store to each, over all its runs (a walk's
 * discovery runs included). A replay in another process numbers them in
 * its own run's order unless it is given the walk's: exec_drain_channels
 * copies up to max of them to out and returns how many there are;
 * exec_set_drain_channels, before the first run, numbers addr[0..n) so
 * (0, or -1: more than the buffer has channels). */
size_t exec_drain_channels(const struct ftv_exec *ex, uint64_t *out, size_t max);
int exec_set_drain_channels(struct ftv_exec *ex, const uint64_t *addr, size_t n);
int exec_explore(struct ftv_exec *ex, uint64_t max_runs,
		 uint64_t steps_per_run, exec_outcome_fn fn, void *arg,
		 struct ftv_err *err);
/* From the outcome callback: end the exploration after this run (a budget
 * ran out); stats.complete stays 0. */
void exec_explore_stop(struct ftv_exec *ex);

const struct exec_violation *exec_violations(struct ftv_exec *ex, size_t *n);
const struct exec_obs *exec_observations(struct ftv_exec *ex, size_t *n);
const struct exec_event *exec_trace(struct ftv_exec *ex, size_t *n);
const struct exec_write *exec_write_get(struct ftv_exec *ex, int wid);
/* 1 if a store of plan (-1: of any) still waits in the patcher's store
 * buffer: the plan's last step ran, but not everything it wrote is
 * visible to every CPU yet. */
int exec_plan_stores_pending(struct ftv_exec *ex, int plan);
/* The trace for humans, one event a line:
 *   "   12 cpu1   fetch  func+0x4/0x10: 94000040 (bl 0x...) [write #3 ...]" */
void exec_trace_print(struct ftv_exec *ex, FILE *f);
/* FNV-1a over the trace and observations: equal for equal runs. */
uint64_t exec_trace_hash(struct ftv_exec *ex);
void exec_get_stats(struct ftv_exec *ex, struct exec_stats *st);
/* stats.steps alone, without exec_get_stats's getrusage() (a system call:
 * callbacks that run on every traced call only need the step). */
uint64_t exec_steps(struct ftv_exec *ex);
/* The value the CPU last fetched at a watched address (litmus "fetch"
 * conditions), or -1 if it never fetched it. */
int exec_last_fetch(struct ftv_exec *ex, unsigned cpu, uint64_t addr,
		    uint32_t *val);
struct sim_aspace *exec_aspace(struct ftv_exec *ex);
/* How many instruction words and data locations are watched. */
void exec_watched(struct ftv_exec *ex, size_t *words, size_t *data);

#endif
