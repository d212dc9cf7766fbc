/* The CALL_OPS overhead table of seed 000 ("arm64: Implement
 * HAVE_DYNAMIC_FTRACE_WITH_CALL_OPS"): the kernel's ftrace-ops sample calls
 * a trivial traced function 100,000 times with N ops filtered to it
 * (relevant) and M ops filtered to another function (irrelevant). Here the
 * state of every row is built by the real ftrace core and arm64 backend
 * through a verify world with one CPU (every plan applied and checked), and
 * the loop then runs on a fresh Unicorn engine over the same memory, which
 * counts the emulated instructions: a deterministic cost per call instead
 * of a time.
 *
 *   struct ovh_env env = { .tracee_dir = "build/bench", .tramp_dir = "build/trampolines" };
 *   ovh_measure(&env, FTV_SCHEME_CALLOPS, 1, 100, 100000, &m, &err);
 *   ovh_measure_rows(&env, FTV_SCHEME_MCOUNT, 100000, rows, &err);
 */
#ifndef FTV_BENCH_OVERHEAD_H
#define FTV_BENCH_OVERHEAD_H

#include <stdint.h>

#include "util/err.h"
#include "verify/world.h"

/* The rows of the seed's table, in its order. */
struct ovh_row {
	unsigned relevant, irrelevant;
};
extern const struct ovh_row ovh_rows[];
extern const unsigned ovh_nrows;

struct ovh_env {
	const char *tracee_dir; /* holds <corpus set>/tracee.o per scheme */
	const char *tramp_dir;  /* the assembled trampolines */
	/* Count with a per-instruction hook instead of summing translation
	 * blocks (slower; the two must agree). */
	int per_insn;
};

struct ovh_measure {
	uint64_t calls;
	uint64_t insns;      /* executed from ftv_bench_loop's entry to its return */
	uint32_t site_word;  /* the tracee's patched instruction afterwards */
	uint64_t literal;    /* its ops literal (CALL_OPS), or 0 */
	uint64_t list_ops;   /* ftrace_list_ops (the literal of shared sites) */
	/* Entries into the relevant ops' tracer (ftv_tracer_a) and the
	 * irrelevant ones' (ftv_tracer_b) during the loop; ovh_measure fails
	 * unless they are relevant * calls and 0. */
	uint64_t relevant_calls, irrelevant_calls;
};

/* Builds the state of one row for scheme in a fresh world (relevant ops on
 * ftv_bench_tracee, irrelevant ones on ftv_bench_other, each registered by
 * its own update) and counts the instructions of `calls` calls. */
int ovh_measure(const struct ovh_env *env, enum ftv_scheme scheme,
		unsigned relevant, unsigned irrelevant, uint64_t calls,
		struct ovh_measure *out, struct ftv_err *err);

/* All the rows (ovh_rows order) for scheme, in one world whose ops are
 * registered and unregistered from row to row; out has ovh_nrows entries. */
int ovh_measure_rows(const struct ovh_env *env, enum ftv_scheme scheme,
		     uint64_t calls, struct ovh_measure *out,
		     struct ftv_err *err);

#endif
