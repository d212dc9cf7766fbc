/* Core scripts: the ftrace verbs (patcher/ftrace_verbs.h, the language the
 * scenario files speak too) on the bare core model, so a test says what the
 * tracer side does ("register t1") instead of C code. One line is one
 * ftrace call and appends its update to a plan; a runner can apply each
 * line's plan at a different moment. A script has no CPUs: `run` is no
 * operation of it. Its `ops` takes options instead of a tracer:
 *
 *   ops NAME [func=F] [flags=regs,recursion,rcu,stub] [tramp=F]
 *            [tramp_size=N] [alloc_tramp] [static] [private=N]
 *
 * F is a symbol of the address space (a tracer, a trampoline) or a number.
 * Errors name the line: "line 3: unknown ops 't9'". */
#ifndef FTV_PATCHER_FTRACE_SCRIPT_H
#define FTV_PATCHER_FTRACE_SCRIPT_H

#include "patcher/ftrace_core.h"

struct ftrace_script;

/* as resolves symbols (may be NULL: numbers only). */
struct ftrace_script *ftrace_script_new(struct ftrace_core *core,
					struct sim_aspace *as);
void ftrace_script_free(struct ftrace_script *s);
/* Runs one line (lineno for messages); blank and comment lines do nothing.
 * Returns 0 or -1 with err set. */
int ftrace_script_exec(struct ftrace_script *s, const char *line, int lineno,
		       struct plan *p, struct ftv_err *err);
/* Runs every line of text, stopping at the first error. */
int ftrace_script_run(struct ftrace_script *s, const char *text,
		      struct plan *p, struct ftv_err *err);
/* The ops a script line named, or NULL. */
struct ftrace_ops *ftrace_script_ops(const struct ftrace_script *s,
				     const char *name);

#endif
