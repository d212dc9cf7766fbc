/* Symmetry reduction for exec_verify's stateful walk (exec_sym.c): CPUs
 * that differ only by their number are interchangeable, and states that
 * differ only by a permutation of them are merged.
 *
 * After Ip and Dill ("Better verification through symmetry", 1996:
 * scalarsets) and Emerson and Sistla ("Symmetry and model checking",
 * 1996): when a permutation sigma of the CPUs, applied to a whole state,
 * maps the transition relation onto itself, the states s and sigma(s)
 * have the same futures up to sigma, so one of them may stand for both.
 *
 * What a permutation does to a state (T_pi): CPU c becomes pi[c]
 * everywhere a CPU is named (its registers, run state, store buffer,
 * fetch model arrays, the writer of every write, the plans' grace-period
 * masks, the caller's per-CPU state), and each CPU-private address range
 * (exec_sym_range: its stack, its per-CPU block; CPU c's is base +
 * c * stride) moves with its CPU: a word of memory at an address in CPU
 * c's range moves to the same offset in CPU pi[c]'s, and every value
 * (register, memory word, store buffer entry, caller's word the caller
 * relocates) that lies in CPU c's range is moved the same way
 * (xsym_reloc). T_pi is a bijection on states.
 *
 * Why the transition relation commutes with T_pi (so that merging s with
 * T_pi(s) is sound), and what exec_set_symmetry checks before it turns
 * symmetry on (any check failing: no symmetry, the plain stateful walk):
 *  - the CPUs run the same code from the same initial state up to T:
 *    their registers are equal once relocated, their private ranges'
 *    initial contents are equal word for word once relocated (but for
 *    the words the caller names as never read: the per-CPU block's CPU
 *    number, FTV_PCPU_CPU, which no code of a symmetric world reads:
 *    the caller's to establish, verify/world_sym.c), their text copies
 *    are equal, their run states are equal;
 *  - nothing outside the private ranges points into them at the start
 *    (a shared word of the snapshot that did would name a CPU);
 *  - no watched word or data location (the fetch model's locations) lies
 *    in a private range (the model numbers them, it does not move them);
 *  - the executor and its scheduler treat the CPUs alike: every CPU's
 *    step is chosen by the walk among the ready ones, its rules
 *    (exec_model.c, exec_plan.c) take a CPU's number only as an index;
 *  - guest code uses an address in a private range only as an address:
 *    loads and stores through it, offsets added within the range, the
 *    alignment masks of a stack frame (the ranges are page-aligned and
 *    their stride a multiple of a page, so masking to a page or less
 *    commutes with the move); it never compares two CPUs' addresses.
 *    The corpus code the symmetric worlds run (trampolines/workload.c,
 *    trampolines/tracers.c, the entry trampolines, corpus/src/rand*.c)
 *    does only that: frames on its own stack, its per-CPU block through
 *    TPIDR_EL1 / tp.
 * The canonical representative of a state is T_pi(s) for the pi that
 * sorts the CPUs by a key computed from each CPU's own part alone
 * (xsym_choose; ties broken by CPU number). Whatever pi is chosen, the
 * hash is that of T_pi(s): two states with one canonical hash are
 * T_pi1(s1) = T_pi2(s2), so s2 = T_pi2^-1(T_pi1(s1)), a symmetric image
 * of s1. A tie between two CPUs whose parts differ elsewhere only misses
 * a merge (the two orders give two representatives), never makes a wrong
 * one. exec_dpor_state.h says how the walk's entries are mapped. */
#ifndef FTV_EXECUTOR_EXEC_SYM_H
#define FTV_EXECUTOR_EXEC_SYM_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec.h"

#define XSYM_MAX_RANGES 4
/* Symmetry among at most this many CPUs (a permutation is a byte each) */
#define XSYM_MAX_CPUS 8

struct xsym_range {
	uint64_t base, stride;   /* CPU c's: [base + c*stride, + stride) */
	size_t region;           /* the engine's region that holds them */
	uint64_t p0, sp;         /* CPU 0's first page in it, pages per CPU */
};

struct xsym {
	int on;                  /* exec_set_symmetry accepted */
	unsigned n;              /* the CPUs (all of them interchangeable) */
	struct xsym_range r[XSYM_MAX_RANGES];
	size_t nr;
	uint64_t lo, hi;         /* the span of every range (a quick test) */
	/* the permutation of the state hashed last: CPU c is canonical
	 * position pi[c], position j holds CPU pinv[j]; ident: pi = id */
	uint8_t pi[XSYM_MAX_CPUS], pinv[XSYM_MAX_CPUS];
	int ident;
	int tie;                 /* two CPUs had equal keys (the order
				  * between them by number: exec_sym.h) */
	uint64_t hashed, moved;  /* states hashed; through a non-identity pi */
};

/* v moved as T_pi moves it (exec_sym.h). */
static inline uint64_t xsym_reloc(const struct xsym *y, uint64_t v)
{
	if (v - y->lo >= y->hi - y->lo)
		return v;
	for (size_t k = 0; k < y->nr; k++) {
		const struct xsym_range *r = &y->r[k];
		uint64_t off = v - r->base;

		if (off < r->stride * y->n) {
			unsigned c = (unsigned)(off / r->stride);

			return v + ((uint64_t)y->pi[c] - c) * r->stride;
		}
	}
	return v;
}

/* Page pg of region i moved as T_pi moves it. */
static inline uint64_t xsym_page(const struct xsym *y, size_t i, uint64_t pg)
{
	for (size_t k = 0; k < y->nr; k++) {
		const struct xsym_range *r = &y->r[k];
		uint64_t off = pg - r->p0;

		if (r->region == i && off < r->sp * y->n) {
			unsigned c = (unsigned)(off / r->sp);

			return pg + ((uint64_t)y->pi[c] - c) * r->sp;
		}
	}
	return pg;
}

/* Chooses pi for ex's current state (sets ex->sym.pi, pinv, ident). */
void xsym_choose(struct ftv_exec *ex);

#endif
