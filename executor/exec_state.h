/* The state of a run between two steps, hashed, and the set of the states
 * an exhaustive exploration has met (exec_state.c): exec_config.prune_states.
 *
 * The exhaustive walk (exec_sched.h) is stateless: two schedules that
 * differ only in the order of steps that commute (a load of P1 and a
 * barrier of P2) reach one state, and the walk explores what follows it
 * once per schedule. With pruning, the walk hashes the state at each new
 * branching point; a state met before ends the run there (the run is
 * cut, as exec_verify's are). That is sound for what an exploration
 * reports (the final states reached): the future of a run depends on its
 * state only, and the first time a state was met the walk explored (or,
 * the state being an ancestor, is exploring) every continuation of it --
 * the depth-first order finishes a node's subtree before it leaves it.
 * What is hashed is everything the next steps read: each CPU's registers,
 * flags, pc, run state and exceptions taken, its store buffer, the
 * patcher's, every page of memory and of each CPU's private copy that
 * differs from the snapshot, and the fetch model (each watched word's
 * coherence order, what each CPU may fetch and last fetched, pending
 * cache maintenance, the IC completions, the barriers' marks). A write is
 * hashed by what it is (address, value, size, writer), not by its id,
 * which counts the writes in the order they were issued; the ids are
 * compared only by the stale-data check's choice of the newest fetched
 * write (exec_model.c, data_load), a violation message, never an
 * outcome. Not hashed, so not pruned here (the litmus walk's
 * prune_states): executors with plans, breakpoints,
 * held-back drains (exec_config.drain_hold) or an arch fetch-check
 * context (riscv64's pairs), whose state lives where this does not look
 * (xst_prunable says so). Unicorn's own hidden state is not hashed
 * either: its exclusive monitor matters only to LDXR/STXR, which no
 * executor with pruning runs (the litmus assembler, encoders/a64_asm.c,
 * has no exclusive; a test naming one is `unsupported`), and its
 * translations do not change what an instruction does (the executor
 * drops those of a word it rewrites). The hash is 128 bits (two 64-bit lanes): two
 * different states share one with probability about n^2 / 2^129, below
 * 10^-20 for the 10^9 states no budget reaches.
 *
 * exec_verify's stateful walk (exec_dpor_state.h) hashes executors with
 * plans and breakpoints too: xst_hash_walk (exec_state_walk.c) adds the
 * plans' state, the CPUs' quiescent bookkeeping and the caller's own
 * state (its checks', through exec_set_state_fn) to xst_hash; what it
 * cannot see (a violation recorded, held-back drains or CPUs, an arch
 * fetch-check context) makes the state unhashable, never merged. */
#ifndef FTV_EXECUTOR_EXEC_STATE_H
#define FTV_EXECUTOR_EXEC_STATE_H

#include <stddef.h>
#include <stdint.h>

struct ftv_exec;

/* Open addressing over 128-bit hashes; a slot of two zeros is empty (a
 * state hashing to zero is stored as one). */
struct xvisited {
	uint64_t *v;             /* 2 * cap words */
	size_t n, cap;
	size_t max_bytes;        /* the table never grows beyond */
	int full;                /* it would have: states are no longer added */
};

/* 1: h was added, 0: it was there, 2: the table is full (h not added:
 * nothing is pruned by it), -1: out of memory. */
int xv_add(struct xvisited *s, const uint64_t h[2]);
void xv_clear(struct xvisited *s);
void xv_free(struct xvisited *s);

/* Whether xst_hash sees every part of ex's state (see above). */
int xst_prunable(const struct ftv_exec *ex);
void xst_hash(struct ftv_exec *ex, uint64_t h[2]);
/* The same of T_pi of the state (exec_sym.h; y NULL: xst_hash). */
struct xsym;
void xst_hash_sym(struct ftv_exec *ex, const struct xsym *y, uint64_t h[2]);
/* exec_verify's walk (exec_state_walk.c): 1 and the hash of ex's state
 * with its plans and the caller's (exec_set_state_fn), or 0 when the
 * state cannot be hashed. */
int xst_hash_walk(struct ftv_exec *ex, uint64_t h[2]);
/* exec_set_state_trace's line for the state before agent (a scheduler
 * slot, exec_sched.h) takes its step. */
void xst_trace(struct ftv_exec *ex, unsigned agent);
/* The hash of w[0..n). */
void xst_hash_words(const uint64_t *w, size_t n, uint64_t h[2]);

#endif
