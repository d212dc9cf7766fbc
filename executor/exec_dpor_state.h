/* The states the reduced walk has finished (exec_dpor_state.c): stateful
 * dynamic partial-order reduction on top of exec_dpor.c's source sets and
 * sleep sets, after Yang, Chen, Gopalakrishnan and Kirby, "Efficient
 * stateful dynamic partial order reduction", SPIN 2008, with a
 * conservative summary in place of their visible-operation dependency
 * graph.
 *
 * The walk hashes the state at each node it reaches for the first time
 * (exec_state.h, xst_hash_walk: everything the future of the run reads,
 * the world's checks included). When a node's subtree is finished (the
 * depth-first order has explored every branch the reduction asked for
 * below it), its state goes into this table with: the fewest visible
 * steps it was reached at, the sleep set it had then, and a summary of
 * its explored subtree (the set of (agent, location, read/write) of every
 * step made in it, the summaries of the states cut inside it included).
 *
 * A node reached later in the state of an entry is cut (its run ends
 * there) when the entry's depth is at most the node's and the entry's
 * sleep set is a subset of the node's (Godefroid's condition for sleep
 * sets with state caching: what the node would explore is a subset of
 * what the entry's node explored). Why a cut loses nothing:
 *  - the future of a run depends on its state only (exec_state.h lists
 *    what is hashed and why the rest does not change the future), so
 *    every execution through the cut node continues with a suffix the
 *    entry's subtree explored from the same state: the same final states,
 *    the same violations of the checks (whatever the checks accumulate is
 *    part of the state; a state with a violation recorded is never hashed,
 *    so a cut never hides one the prefix found);
 *  - the counterexample through the entry's node is no longer, counted
 *    over the whole execution: its prefix had no more visible steps than
 *    the cut node's, and the suffix is the same. verify reports a
 *    violation's causal past, which may leave out prefix steps the
 *    violation does not depend on; the depth kept is no bound on that,
 *    so a shorter causal past through the cut node is not excluded by
 *    this argument (tests/test_verify_stateful.c and docs/bench-scale.md:
 *    the same shortest counterexample on every world checked);
 *  - the races between the cut node's prefix and the suffixes it would
 *    have run are still reversed: for every prefix step e and every
 *    (agent b, location, mode) of the summary where b is another agent
 *    and one of the two writes, b is added to the backtrack set of the
 *    state before e (every ready agent when b is not ready there or
 *    asleep: Flanagan and Godefroid's fallback). That ignores
 *    happens-before (a race that a later prefix step orders is reversed
 *    too): more branches, never fewer, than the stateless walk's
 *    reversals of the same races;
 *  - a state still on the depth-first stack (not finished: a cycle) is
 *    not in the table, so it is never cut.
 *
 * With symmetry (executor/exec_sym.h: interchangeable CPUs), h is the
 * hash of T_pi(s), the node's state with its CPUs relabelled and their
 * private ranges moved by the node's permutation pi (xd_state_sym), and
 * an entry is kept in that canonical frame: its sleep set's agents and
 * its summary's (agent, location, mode) bits go through pi (struct
 * xdmap: a CPU agent c becomes pi[c]; the patchers and the store
 * buffer's channels, whose channels name shared addresses, stay; the
 * locations that name a CPU, XLOC_PROG, XLOC_FLOOR's CPU and
 * XLOC_QSWAIT's, are relabelled; the others name shared things: watched
 * words, data, freed ranges, the plans, which no symmetric world places
 * in a CPU's range, exec_set_symmetry checks). A node at state s2 that
 * finds the entry of s1 (T_pi1(s1) = T_pi2(s2)) maps it back through
 * pi2^-1 before the subset test and the race reversal. Why a cut still
 * loses nothing: s2 = sigma(s1) for sigma = pi2^-1 pi1, and sigma is an
 * automorphism of the transition system (exec_sym.h), so every run from
 * s2 is sigma of a run from s1, with the same visible steps, the same
 * violations (the checks are CPU-blind but for the CPU they name) and the
 * same final states up to sigma; the explored subtree of s1's node with
 * sleep set Z1 and summary S covers, mapped by sigma, exactly what a node
 * at s2 with sleep set sigma(Z1) explores, and sigma(S) is what its runs
 * touch. So the three arguments above hold for the mapped entry: the
 * subset test is Godefroid's condition on sigma(Z1), the depth is the
 * same, and the races reversed are those with sigma(S). When two CPUs
 * have equal parts (a tie in the canonical order) either order gives a
 * correct map: both yield the hash of a T_pi(s), and the map used is the
 * pi that hash was computed with, stored with the node (a tie only misses
 * a merge when the two orders hash differently).
 *
 * Memory is bounded by max_bytes: when full, no state is added (nothing is
 * cut by what is not there). Summaries are bit sets over a dense numbering
 * of the (agent, location, mode) the walk has met, hash-consed (most are
 * equal). */
#ifndef FTV_EXECUTOR_EXEC_DPOR_STATE_H
#define FTV_EXECUTOR_EXEC_DPOR_STATE_H

#include <stddef.h>
#include <stdint.h>

struct xdss;

/* A summary being built (a node's): bits over the dense numbering. */
struct xdsum {
	uint64_t *w;
	size_t n, cap;
};

/* A relabelling of the CPU agents 0 .. n-1 (symmetry, exec_sym.h): CPU
 * c becomes a[c]; the other agents (the patchers, the store buffer's
 * channels) and locations stay; a location that names a CPU (XLOC_PROG,
 * XLOC_FLOOR, XLOC_QSWAIT) names a[c]. NULL: the identity. */
#define XD_SYM_MAX 8
struct xdmap {
	unsigned n;
	int ident;               /* a[c] = c: nothing to map */
	uint8_t a[XD_SYM_MAX];
};

struct xdss *xdss_new(size_t max_bytes);
void xdss_free(struct xdss *s);
/* Everything forgotten (the walk starts over). */
void xdss_clear(struct xdss *s);

/* sum += agent's accesses fp[0..n) (each loc << 2 | mode); -1 out of
 * memory. */
int xdss_add_steps(struct xdss *s, struct xdsum *sum, unsigned agent,
		   const uint64_t *fp, size_t n);
/* sum |= other; -1 out of memory. */
int xdss_union(struct xdsum *sum, const struct xdsum *other);

/* Sleep sets as sorted lists of agent << 8 | value. */
/* Whether the finished state h may cut a node at depth vdepth with sleep
 * set sl[0..nsl): 1 and its summary in *out, else 0. */
/* Under symmetry h is canonical and the entry is kept in the canonical
 * frame: m maps it to the node's (the node's pi^-1); *moved: the entry was
 * stored from a state of another permutation than the node's. */
int xdss_lookup(struct xdss *s, const uint64_t h[2], uint32_t vdepth,
		const uint16_t *sl, size_t nsl, struct xdsum *out,
		const struct xdmap *m, int *moved);
/* State h finished at depth vdepth with sleep set sl and summary sum; m
 * maps them to the canonical frame (the node's pi). */
void xdss_store(struct xdss *s, const uint64_t h[2], uint32_t vdepth,
		const uint16_t *sl, size_t nsl, const struct xdsum *sum,
		const struct xdmap *m);

/* The (agent, location, mode) of bit i of a summary. */
void xdss_key(const struct xdss *s, size_t i, unsigned *agent, uint32_t *loc,
	      unsigned *mode);
/* States stored; whether the table filled up. */
size_t xdss_states(const struct xdss *s, int *full);

#endif
