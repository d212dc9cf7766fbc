/* Every deliberate bug ftv can inject (--mutate NAME, `mutate` in a
 * scenario), whichever layer it lives in: the arm64 backend's verbs or the
 * ftrace core's accounting. Each must be caught with a violation. */
#ifndef FTV_VERIFY_MUTANT_H
#define FTV_VERIFY_MUTANT_H

#include "patcher/arm64.h"

struct ftv_mutant {
	const char *name;
	enum arm64_mutant arm64; /* ARM64_MUT_NONE if a core mutant */
	unsigned core;           /* FTRACE_MUT_* bits, 0 if an arm64 one */
	const char *what;        /* one line for help and reports */
};

/* The table, terminated by a NULL name; index 0 is "none". */
extern const struct ftv_mutant ftv_mutants[];
/* The mutant named, or NULL. */
const struct ftv_mutant *ftv_mutant_find(const char *name);

#endif
