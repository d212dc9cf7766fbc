/* Every deliberate bug ftv can inject (--mutate NAME, `mutate` in a
 * scenario), whichever layer it lives in: an arch backend's verbs (arm64 or
 * riscv64) or the ftrace core's accounting. Each must be caught with a
 * violation. */
#ifndef FTV_VERIFY_MUTANT_H
#define FTV_VERIFY_MUTANT_H

#include "patcher/arm64.h"
#include "util/err.h"
#include "verify/world.h"

struct ftv_mutant {
	const char *name;
	enum arm64_mutant arm64; /* ARM64_MUT_NONE if not an arm64 one */
	unsigned core;           /* FTRACE_MUT_* bits, 0 if a backend one */
	const char *what;        /* one line for help and reports */
	int arch;                /* the enum ftv_arch whose backend it
				    mutates, or -1 (core mutants, "none") */
	int riscv;               /* enum riscv_mutant, 0 if not a riscv one */
};

/* The arm64 and core table, terminated by a NULL name; index 0 is "none".
 * The riscv64 backend's mutants come from its own table
 * (patcher/riscv.h): iterate with ftv_mutant_next. */
extern const struct ftv_mutant ftv_mutants[];
/* The mutant named, or NULL. */
const struct ftv_mutant *ftv_mutant_find(const char *name);
/* Every mutant in turn: start with NULL, NULL at the end. */
const struct ftv_mutant *ftv_mutant_next(const struct ftv_mutant *m);
/* 0 if m (may be NULL) can mutate a world of arch, else -1 with err
 * ("mutant X is an arm64 backend bug; scheme pair is riscv64's"). */
int ftv_mutant_check(const struct ftv_mutant *m, enum ftv_scheme s,
		     struct ftv_err *err);
/* Sets the world_config fields of m (NULL: none). */
void ftv_mutant_apply(const struct ftv_mutant *m, struct world_config *cfg);

#endif
