/* ftrace operations as words: one table of verbs for every reader of them,
 * the scenario files (verify/scenario.c: a world, whose CPUs run while each
 * update lands) and the core scripts (patcher/ftrace_script.c: the bare
 * core model, each line's update appended to a plan). A verb is its name,
 * its arguments and the function that performs it through the reader's
 * struct ftrace_target.
 *
 *   ops NAME ARG...            a new ops; the target reads ARG (a scenario:
 *                              TRACER; a script: key=value options)
 *   filter NAME SPEC [add]     ftrace_set_filter, reset unless "add";
 *   notrace NAME SPEC [add]    ftrace_set_notrace; SPEC "-" is the empty set
 *   register NAME              register_ftrace_function
 *   unregister NAME            unregister_ftrace_function
 *   direct NAME TRAMP          register_ftrace_direct
 *   direct-modify NAME TRAMP   modify_ftrace_direct (also: modify-direct)
 *   direct-remove NAME         unregister_ftrace_direct (also: undirect)
 *   bpf-update NAME IMAGE|-    bpf_trampoline_update: NAME's BPF trampoline
 *                              image replaced (register/modify/unregister
 *                              _ftrace_direct), the old one released
 *   direct-add NAME SPEC TRAMP update_ftrace_direct_add: the functions of
 *                              SPEC call TRAMP through the shared direct
 *                              ops NAME, in one update
 *   direct-del NAME SPEC       update_ftrace_direct_del
 *   graph NAME                 register_ftrace_graph (the global scheme)
 *   ungraph NAME               unregister_ftrace_graph
 *   enable-modules [MODULE]    ftrace_module_enable, of every loaded module
 *                              without MODULE (also: module-enable)
 *   module-load MODULE         load_module while CPUs run: ftrace_module_init
 *                              (init_nop of its sites), ftrace_module_enable,
 *                              then its functions may be called
 *   module-unload MODULE       delete_module: nobody calls it any more,
 *                              ftrace_release_mod, its memory is freed
 *   static-key on|off [KEY]    not ftrace: another task flips a static
 *                              branch in kernel text (a jump label): the
 *                              workload's own, or static_key_enable/
 *                              disable(KEY) on the objects' __jump_table
 *   text-poke SYMBOL           not ftrace: the word at SYMBOL swapped with
 *                              SYMBOL_alt's under stop_machine (the
 *                              arch's patch_text)
 *   text-write SYM+OFF WORD    not ftrace: another task writes WORD over
 *                              a word ftrace owns (a site's patched word)
 *                              with aarch64_insn_patch_text_nosync,
 *                              without ftrace_lock: what
 *                              ftrace_text_reserved() is there to refuse
 *   run STEPS                  let the CPUs and the queued plans run
 *
 * SPEC is ftrace_set_filter's comma list of function names and addresses;
 * TRAMP a symbol or a number. */
#ifndef FTV_PATCHER_FTRACE_VERBS_H
#define FTV_PATCHER_FTRACE_VERBS_H

#include <stddef.h>
#include <stdint.h>

#include "patcher/ftrace_core.h"
#include "util/err.h"

/* What the verbs act on. Each method returns 0, or -1 with err set; a NULL
 * method is an operation the target does not have (a bare core model does
 * not run; a scenario's graph tracer is registered like any ops). */
struct ftrace_target {
	const char *name;     /* "scenario", for "'graph' is no scenario operation" */
	/* The arguments of `ops` after NAME: how many, and their usage. */
	int ops_min, ops_max;
	const char *ops_usage;
	int (*ops_new)(void *ctx, const char *name, char *const *args, int nargs,
		       struct ftv_err *err);
	struct ftrace_ops *(*ops_find)(void *ctx, const char *name);
	int (*set_filter)(void *ctx, struct ftrace_ops *ops, const char *spec, int reset,
			  int notrace, struct ftv_err *err);
	int (*register_ops)(void *ctx, struct ftrace_ops *ops, struct ftv_err *err);
	int (*unregister_ops)(void *ctx, struct ftrace_ops *ops, struct ftv_err *err);
	int (*direct)(void *ctx, struct ftrace_ops *ops, const char *tramp,
		      struct ftv_err *err);
	int (*direct_modify)(void *ctx, struct ftrace_ops *ops, const char *tramp,
			     struct ftv_err *err);
	int (*direct_remove)(void *ctx, struct ftrace_ops *ops, struct ftv_err *err);
	/* image "-": detach the last one */
	int (*bpf_update)(void *ctx, struct ftrace_ops *ops, const char *image,
			  struct ftv_err *err);
	/* update_ftrace_direct_add (tramp given) or _del (tramp NULL) of
	 * the functions in spec */
	int (*direct_batch)(void *ctx, struct ftrace_ops *ops, const char *spec,
			    const char *tramp, struct ftv_err *err);
	int (*register_graph)(void *ctx, struct ftrace_ops *ops, struct ftv_err *err);
	int (*unregister_graph)(void *ctx, struct ftrace_ops *ops, struct ftv_err *err);
	/* module NULL: every module loaded */
	int (*enable_modules)(void *ctx, const char *module, struct ftv_err *err);
	int (*load_module)(void *ctx, const char *module, struct ftv_err *err);
	int (*unload_module)(void *ctx, const char *module, struct ftv_err *err);
	/* key NULL: the workload's own static branch (ftv_static_key) */
	int (*static_key)(void *ctx, int on, const char *key, struct ftv_err *err);
	int (*text_poke)(void *ctx, const char *site, struct ftv_err *err);
	int (*text_write)(void *ctx, const char *at, const char *word, struct ftv_err *err);
	int (*run)(void *ctx, uint64_t steps, struct ftv_err *err);
};

#define FTRACE_VERB_MAX_ARGS 11

struct ftrace_verb {
	const char *name;
	const char *alias;  /* an older spelling, or NULL */
	const char *usage;  /* the arguments, "NAME SPEC [add]" */
	int min, max;       /* how many arguments (after the verb) */
	/* av[0..ac) are the arguments */
	int (*fn)(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		  struct ftv_err *err);
	size_t method;      /* offsetof(struct ftrace_target, the method fn calls) */
	const char *help;   /* what it does, in a line (the man pages') */
	/* 1: not an ftrace operation (another task patching text, the CPUs
	 * running): still performed once ftrace_bug() has disabled ftrace */
	int not_ftrace;
};

/* The verb spelt word (its name or alias), or NULL. */
const struct ftrace_verb *ftrace_verb_find(const char *word);
/* The i-th verb, NULL past the end. */
const struct ftrace_verb *ftrace_verb_at(size_t i);
/* Whether t can perform v, and takes nargs arguments for it: 0, or -1 with
 * err ("usage: filter NAME SPEC [add]", "'run' is no operation of a core
 * script"). */
int ftrace_verb_check(const struct ftrace_verb *v, const struct ftrace_target *t,
		      int nargs, struct ftv_err *err);
/* Performs v (checked) with its arguments av[0..ac). */
int ftrace_verb_run(const struct ftrace_verb *v, const struct ftrace_target *t, void *ctx,
		    char *const *av, int ac, struct ftv_err *err);

#endif
