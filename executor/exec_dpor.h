/* The reduced exhaustive walk of `ftv verify` (exec_dpor.c): stateless
 * model checking with dynamic partial-order reduction, source sets and
 * sleep sets (Abdulla, Aronis, Jonsson, Sagonas, "Optimal dynamic partial
 * order reduction", POPL 2014, Algorithm 1; Flanagan and Godefroid,
 * POPL 2005, for the fallback when an agent is disabled).
 *
 * An execution is a sequence of steps; each step is one agent's turn (a
 * CPU up to its next scheduling point, one patcher step, one store
 * becoming visible) with at most one value choice inside it (which write a
 * fetch sees, which buffered store drains). While a step runs, the parts
 * of the executor report what it reads and writes (xd_access): watched
 * words and data locations by their stable ids, and a few pseudo
 * locations for what the checks and the agents' readiness depend on
 * (enum xloc_kind). Two steps of different agents commute when neither
 * writes what the other touches; after each execution the races (pairs of
 * dependent steps of different agents with nothing ordering them in
 * between) are reversed by adding an initial agent of the reversed order
 * to the backtrack set of the state before the first of them.
 *
 * Unreduced (reduce 0), every ready agent and every value is explored at
 * every state: the reference the reduction is checked against.
 *
 * Sharding: the first `split` levels of agent branching are explored
 * without reduction by every shard alike; at the level below, each choice
 * of agent gets the next prefix number in depth-first order, and shard i
 * of n explores (with reduction) only the subtrees whose number is i mod n.
 * The union of the shards' executions is then a superset of one unsharded
 * exploration's, and each shard's part is complete on its own. */
#ifndef FTV_EXECUTOR_EXEC_DPOR_H
#define FTV_EXECUTOR_EXEC_DPOR_H

#include <stddef.h>
#include <stdint.h>

/* What a step touches: kind << 24 | id. */
enum xloc_kind {
	XLOC_INSN = 1,  /* watched word id: its writes, floors, coherence */
	XLOC_DATA,      /* watched data location id */
	XLOC_PROG,      /* CPU id's progress: quiescent points passed, done,
			   parked (read by QUIESCE, STOP_MACHINE and the plans'
			   completion callbacks) */
	XLOC_FREE,      /* the i-th range a queued plan frees */
	XLOC_PLANS,     /* which plans are done (written when one completes,
			   read by checks that depend on it) */
	XLOC_IC,        /* what IC IVAU has made fetchable (written when an
			   IC completion is added, read by context
			   synchronisation) */
	XLOC_SM,        /* stop_machine() and the CPUs it parked */
	XLOC_MEM,       /* memory nothing else names (a freed range holding
			   unwatched text): read by every CPU step */
	XLOC_PATCH,     /* the patcher */
	XLOC_SBQ,       /* the store buffer's queue of stores to channel id
			   (its pushes and drains) */
	XLOC_SBDRAIN,   /* the drains of channel id (read by the drains of
			   the stores that had to wait for them) */
	XLOC_WIN,       /* the patch window every text patcher shares: its
			   mapping (written by map and unmap, read by the
			   stores through it) */
	XLOC_LOCK,      /* the sleeping locks the patchers take (text_mutex) */
	XLOC_POU,       /* watched word id's point of unification: what its
			   DCs completed (a DSB or DMB writes it when it
			   moves, the IC IVAUs of the word read it) */
	XLOC_FLOOR,     /* one CPU's floor of one watched word (the oldest
			   write it may fetch there): read by its fetches,
			   written by a context synchronisation of every CPU
			   that raises it (XLOC_FLOOR_OF); the CPU's own
			   steps that raise it are its own agent's */
	XLOC_SBNEED,    /* one store of the store buffer (channel << 16 |
			   its place in the channel): written by its drain,
			   read by the drains and barriers that could not
			   pass before it (exec_sbuf.h, xsbuf.need). A race
			   on it is no race to reverse: the reader waited
			   for the writer in every execution */
	XLOC_QSWAIT,    /* a grace period (plan << 6 | CPU): written by each
			   turn of a CPU it waits for, until the CPU passes a
			   quiescent point; read by the patcher's step that
			   ends the wait (exec_plan.c, xp_cpu_turn). The same:
			   that step cannot come before those turns */
};
#define XLOC(kind, id) ((uint32_t)(kind) << 24 | ((uint32_t)(id) & 0xffffff))
#define XLOC_KIND(loc) ((loc) >> 24)
#define XLOC_FLOOR_OF(word, cpu) XLOC(XLOC_FLOOR, (word) * 64 + (cpu))
#define XLOC_ID(loc) ((loc) & 0xffffff)
enum { XA_R = 1, XA_W = 2 };
/* A location a CPU observes, or whose change decides what a CPU or a check
 * can do next: every kind but the patcher's own progress and the store
 * buffer's queues. A step is visible when it touches one. */
static inline int xloc_visible(uint32_t loc)
{
	unsigned k = XLOC_KIND(loc);

	return k != XLOC_PATCH && k != XLOC_SBQ && k != XLOC_SBDRAIN &&
	       k != XLOC_SBNEED && k != XLOC_QSWAIT;
}

#define XD_MAX_AGENTS 64

struct xdpor;

struct xd_stats {
	uint64_t executions;   /* runs that reached their end */
	uint64_t blocked;      /* runs cut because every ready agent slept */
	uint64_t probes;       /* runs cut at a prefix another shard owns */
	uint64_t pruned;       /* agent branches never explored */
	uint64_t multi;        /* steps with more than one value choice */
	uint64_t diverged;     /* a replayed prefix came out differently */
	uint64_t state_cuts;   /* runs cut at a state finished before
				  (xd_set_stateful) */
	uint64_t state_cuts_moved; /* of those, through a state of another
				      CPU permutation (exec_sym.h) */
};

/* nagents: CPUs + patcher + store buffer. split 0 and nshards 1: no
 * sharding. seed: for xd_set_random. */
struct xdpor *xd_new(unsigned nagents, int reduce, unsigned split,
		     unsigned shard, unsigned nshards);
void xd_free(struct xdpor *d);
/* Back to an empty tree (the scheduling points changed). Stats stay. */
void xd_restart(struct xdpor *d);

/* During a run. xd_pick: the agent taking the next step among the ready
 * ones (a bit mask), or -1 to cut the run here. xd_choose: the step's
 * value, one of n (n > 1). xd_access: the step reads or writes loc. */
void xd_start_run(struct xdpor *d);
/* After xd_start_run: the run resumes at step k of a state restored
 * there (exec_save.h), its steps before k the last run's (k at most the
 * last run's steps and the path's depth; not sharded, not random): 0, or
 * -1 when it cannot. */
int xd_resume(struct xdpor *d, size_t k);
int xd_pick(struct xdpor *d, uint64_t ready);
unsigned xd_choose(struct xdpor *d, unsigned n);
void xd_access(struct xdpor *d, uint32_t loc, unsigned mode);
/* Something the walk cannot represent happened (counted with multi). */
void xd_unsound(struct xdpor *d);

/* After a run: xd_end_run analyses it (clocks, races); ended: the run
 * reached its end (not cut by a step budget or a pick of -1). xd_counted:
 * it is one of this shard's executions (not cut, not another shard's).
 * xd_next moves to the next branch: 0, another run is to be made; 1, the
 * tree is done. */
void xd_end_run(struct xdpor *d, int ended);
int xd_counted(const struct xdpor *d);
int xd_next(struct xdpor *d);
/* After xd_next: the steps the next run repeats from the run before (the
 * depth of the branch it takes). */
size_t xd_depth(const struct xdpor *d);

/* The run just ended (after xd_end_run's analysis, before the next run):
 * its steps, and for step k the steps it depends on (its causal past,
 * itself included), in order; k >= nsteps: every step. agent/val of step
 * i are written to agents[i]/vals[i]. */
size_t xd_nsteps(const struct xdpor *d);
void xd_step(const struct xdpor *d, size_t i, unsigned *agent, unsigned *val);
size_t xd_past(const struct xdpor *d, size_t k, size_t *idx);
/* Step i touched a visible location (xloc_visible). */
int xd_visible(const struct xdpor *d, size_t i);
void xd_stats(const struct xdpor *d, struct xd_stats *st);

/* Stateful DPOR (exec_dpor_state.h): the states of finished subtrees are
 * kept (in at most max_bytes, 0: no bound) and a run reaching one again is
 * cut. Only a reduced, unsharded walk (else nothing changes). Before each
 * xd_pick at which xd_fresh says the node is new, the caller gives its
 * state's hash with xd_state (NULL: the state cannot be hashed, the node
 * is neither cut nor kept). xd_states: the states kept. */
int xd_set_stateful(struct xdpor *d, size_t max_bytes);
int xd_fresh(const struct xdpor *d);
void xd_state(struct xdpor *d, const uint64_t h[2]);
/* After xd_state, under symmetry (executor/exec_sym.h): h is canonical,
 * pi[0..n) the state's permutation (CPU c at canonical position pi[c]). */
void xd_state_sym(struct xdpor *d, const uint8_t *pi, unsigned n);
size_t xd_states(const struct xdpor *d, int *full);

/* Runs with a random schedule (a discovery pass before the walk): each
 * pick and value uniform from the seeded state, nothing recorded in the
 * tree. 0 turns it off. */
void xd_set_random(struct xdpor *d, uint64_t seed);

#endif
