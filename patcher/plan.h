/* A plan: what one ftrace update does to memory, as a sequence of primitive
 * steps. Arch backends (patcher/) produce plans; the executor applies them,
 * interleaving each step with the instructions of the running CPUs. This is
 * the only interface between the two: the patcher never calls Unicorn and
 * the executor never decides what to patch.
 *
 * Semantics of each step, as the executor must model them (Arm ARM B2.2.5
 * "Concurrent modification and execution of instructions", and the kernel's
 * aarch64_insn_patch_text_nosync / ftrace_modify_code):
 *
 *   PLAN_WRITE_INSN   one single-copy-atomic 32-bit store of an instruction
 *                     word at addr (4-byte aligned). With validate set, the
 *                     word is first read (a coherent data read) and compared
 *                     with `old`; on mismatch nothing is written and the plan
 *                     stops with an ftrace_bug-style failure for `rec`.
 *   PLAN_WRITE_DATA64 a 64-bit data store (the CALL_OPS literal). Single-copy
 *                     atomic only when addr is 8-byte aligned; otherwise two
 *                     32-bit stores that another CPU may observe torn.
 *                     validate/old as for PLAN_WRITE_INSN.
 *   PLAN_CACHE_CLEAN  DC CVAU over [addr, addr+len): clean to the point of
 *                     unification.
 *   PLAN_ICACHE_INVAL IC IVAU over [addr, addr+len).
 *   PLAN_DSB          DSB ISH by the patching CPU.
 *   PLAN_DMB          DMB ISH (orders the patcher's earlier data stores
 *                     before later stores, e.g. literal before BL).
 *   PLAN_ISB          ISB on the patching CPU itself.
 *   PLAN_SYNC_ALL     IPI to every CPU: each performs a context
 *                     synchronisation event before running on
 *                     (kick_all_cpus_sync / smp_call_function).
 *   PLAN_QUIESCE      wait until every CPU has passed a quiescent point
 *                     (synchronize_rcu_tasks): no CPU is still inside code or
 *                     data that was reachable before this step.
 *   PLAN_FREE         the memory [addr, addr+len) (an ops, a trampoline) is
 *                     freed: the executor poisons it so later use is seen.
 *   PLAN_STOP_MACHINE every other CPU is parked at a quiescent point from
 *                     this step until the matching PLAN_RESUME_MACHINE.
 *                     The patcher goes on once every CPU is parked: in
 *                     stop_machine()'s callback it is the last CPU to
 *                     arrive (aarch64_insn_patch_text_cb(), riscv's
 *                     patch_text_cb(): "the last CPU becomes master").
 *   PLAN_STOP_REQUEST stop_machine() requested when the patcher gets
 *                     here (PLAN_STOP_MACHINE's request is made as soon
 *                     as it is the plan's next step): each CPU parks at
 *                     its next quiescent point, running until then, and
 *                     the patcher goes on at once, as the first CPU to
 *                     arrive in the callback would. A PLAN_STOP_MACHINE
 *                     after it waits for every CPU (the last to arrive
 *                     patches); without one, the patcher patches while
 *                     the others are not yet waiting (the callbacks
 *                     before 31a099dbd91e, "arm64: patch_text: Fixup last
 *                     cpu should be master").
 *   PLAN_RESUME_MACHINE
 *   PLAN_LOCK         take the sleeping lock named by addr (text_mutex): the
 *                     plan waits while a plan of another agent holds it.
 *   PLAN_UNLOCK       release it.
 *   PLAN_WAIT_ZERO    wait until the 64-bit word at addr reads 0 (a count the
 *                     CPUs keep in memory: one CPU's share of a percpu_ref,
 *                     kernel/bpf/trampoline.c's im->pcref, which
 *                     __bpf_tramp_enter()/__bpf_tramp_exit() get and put;
 *                     percpu_ref_kill() waits for the sum). The CPUs'
 *                     progress points (exec_progress_point) say when they
 *                     change it.
 *   PLAN_MAP_WINDOW   map the patch window, the one fixmap slot every
 *                     agent writes text through (riscv's patch_map with
 *                     FIX_TEXT_POKE0), to addr's page.
 *   PLAN_UNMAP_WINDOW unmap it (patch_unmap: clear_fixmap and a local TLB
 *                     flush), whoever mapped it.
 *   A write with window set is made through the patch window: it lands at
 *   addr's offset in the page the window maps when the store is made, which
 *   is addr's page only if no other agent remapped the window since this
 *   plan's PLAN_MAP_WINDOW; through an unmapped window it faults (the
 *   kernel's copy_to_kernel_nofault returns -EFAULT: "ftrace faulted on
 *   modifying").
 *
 *   PLAN_FAIL         the code that made the plan returned an error here
 *                     (ftrace_modify_code's -EINVAL when the word it read
 *                     was not `old`): nothing more of the plan is
 *                     performed, as for a failed validate (ftrace_bug);
 *                     addr/old: the word read and the one expected.
 *
 * Live steps (a patcher CPU running the kernel's code: kernel/kcpu.c). A
 * step with rsize set is preceded by a read the code made between its
 * previous visible event and this one: rsize bytes at raddr, which were
 * rval when the code ran to make the plan. The executor makes the read
 * when it performs the step (a coherent data read under the patchers'
 * store buffer, as a validate). When it finds another value, the code
 * would have gone on differently from there: the executor asks the step's
 * live->rerun for the steps of that run given the values its reads
 * returned, and performs those in place of the run's remaining steps
 * (live is the same for every step of one run, which are adjacent in a
 * plan). What to write stays the code's decision, never the executor's.
 *
 * Agents. Every plan names the agent (a task) that applies it: the
 * executor runs one patcher agent per agent number, each applying its own
 * plans in submission order, concurrently with the other agents and the
 * CPUs. Agent 0 is ftrace (every update holds ftrace_lock, so they are one
 * sequence); another agent is a task patching text without ftrace_lock
 * (jump labels). Locks and the patch window are what they share.
 */
#ifndef FTV_PATCHER_PLAN_H
#define FTV_PATCHER_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum plan_op {
	PLAN_WRITE_INSN,
	PLAN_WRITE_DATA64,
	PLAN_CACHE_CLEAN,
	PLAN_ICACHE_INVAL,
	PLAN_DSB,
	PLAN_DMB,
	PLAN_ISB,
	PLAN_SYNC_ALL,
	PLAN_QUIESCE,
	PLAN_FREE,
	PLAN_STOP_MACHINE,
	PLAN_RESUME_MACHINE,
	PLAN_LOCK,
	PLAN_UNLOCK,
	PLAN_MAP_WINDOW,
	PLAN_UNMAP_WINDOW,
	PLAN_STOP_REQUEST,
	PLAN_WAIT_ZERO,
	PLAN_FAIL,
};

/* The patching agents (struct plan.agent). */
enum {
	PLAN_AGENT_FTRACE = 0,   /* ftrace's updates, under ftrace_lock */
	PLAN_AGENT_TEXT = 1,     /* another task patching text (jump labels) */
	PLAN_AGENTS = 2,
};

struct plan;
struct plan_live;

struct plan_step {
	enum plan_op op;
	uint64_t addr;
	uint64_t len;      /* CACHE_CLEAN, ICACHE_INVAL, FREE */
	uint64_t old, new; /* WRITE_*: expected old value, value written */
	int validate;      /* WRITE_*: compare with old before writing */
	int window;        /* WRITE_*: through the patch window */
	int rec;           /* the ftrace record this step serves, or -1 */
	const char *what;  /* static text for reports: "make_call: BL" */
	/* live steps (above): the read before the step, and its run */
	unsigned rsize;    /* 0: no read */
	uint64_t raddr, rval;
	const struct plan_live *live;
};

/* The run that made live steps. rerun: the run's steps, from its first,
 * when its reads return reads[0..nreads) in order (later reads: as they
 * were), appended to out; -1 with err set when the run fails abnormally.
 * Deterministic: the same reads give the same steps. */
struct plan_live {
	int (*rerun)(const struct plan_live *l, const uint64_t *reads, size_t nreads,
		     struct plan *out, struct ftv_err *err);
};

struct plan {
	struct plan_step *steps;
	size_t n, cap;
	int agent;         /* PLAN_AGENT_*: who applies it */
	/* The caller's promise when the plan returns, checked by the
	 * executor: from its completion on, every CPU that executes a word
	 * it wrote executes that write or a newer one (static_key_enable()
	 * and static_key_disable(): kernel/jump_label.c, made true on arm64
	 * by arch_jump_label_transform_apply()'s kick_all_cpus_sync()). A
	 * fetch of an older write is EXEC_V_NOT_VISIBLE. */
	int visible_on_return;
};

void plan_init(struct plan *p);
void plan_free(struct plan *p);
void plan_reset(struct plan *p); /* n = 0, keeps the memory */
/* Appends a copy of *s; returns 0, or -1 when out of memory. */
int plan_push(struct plan *p, const struct plan_step *s);
/* Appends src's steps; an empty dst takes src's agent and
 * visible_on_return too. */
int plan_append(struct plan *dst, const struct plan *src);

/* Shorthands, each returning plan_push's result. */
int plan_write_insn(struct plan *p, uint64_t addr, uint32_t old, uint32_t new,
		    int validate, int rec, const char *what);
int plan_write_data64(struct plan *p, uint64_t addr, uint64_t old,
		      uint64_t new, int validate, int rec, const char *what);
/* DC CVAU; DSB ISH; IC IVAU; DSB ISH over [addr, addr+len): what
 * caches_clean_inval_pou does after a text write. */
int plan_cache_sync(struct plan *p, uint64_t addr, uint64_t len, int rec);
int plan_simple(struct plan *p, enum plan_op op, int rec, const char *what);
int plan_free_mem(struct plan *p, uint64_t addr, uint64_t len, int rec,
		  const char *what);

const char *plan_op_name(enum plan_op op);

#endif
