/* Every deliberate bug ftv can inject (--mutate NAME, `mutate` in a
 * scenario), whichever layer it lives in: an arch backend's verbs (each
 * backend's table, struct ftrace_arch.mutants) or the ftrace core's
 * accounting. Each must be caught with a violation. */
#ifndef FTV_VERIFY_MUTANT_H
#define FTV_VERIFY_MUTANT_H

#include "util/err.h"
#include "verify/world.h"

/* One shape for every mutant: a backend one names its arch and the
 * backend's own code; a core one its FTRACE_MUT_* bits. */
struct ftv_mutant {
	const char *name;
	const char *what;  /* one line for help and reports */
	int arch;          /* the enum ftv_arch whose backends it mutates, or
			      -1 (core mutants, "none") */
	int code;          /* world_config.backend_mutant, 0 if not a backend
			      one */
	unsigned core;     /* FTRACE_MUT_* bits, 0 if a backend one */
};

/* The mutant named, or NULL. */
const struct ftv_mutant *ftv_mutant_find(const char *name);
/* Every mutant in turn ("none" first): start with NULL, NULL at the end. */
const struct ftv_mutant *ftv_mutant_next(const struct ftv_mutant *m);
/* The i-th mutant's name, NULL past the last: the --mutate option's words
 * for help and completion. */
const char *ftv_mutant_word(unsigned i);
/* 0 if m (may be NULL) can mutate a world of scheme s, else -1 with err
 * ("mutant X is a bug of the arm64 backend; scheme pair is riscv64's"). */
int ftv_mutant_check(const struct ftv_mutant *m, enum ftv_scheme s,
		     struct ftv_err *err);
/* Sets the world_config fields of m (NULL: none). */
void ftv_mutant_apply(const struct ftv_mutant *m, struct world_config *cfg);

#endif
