/* The ftrace verbs (see ftrace_verbs.h): one line each, the arguments they
 * take and the target method they call. */
#include "patcher/ftrace_verbs.h"

#include <string.h>

#include "util/num.h"

static struct ftrace_ops *ops_arg(const struct ftrace_target *t, void *ctx, const char *name,
				  struct ftv_err *err)
{
	struct ftrace_ops *o = t->ops_find(ctx, name);

	if (!o)
		ftv_errf(err, "unknown ops '%s'", name);
	return o;
}

static int v_ops(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		 struct ftv_err *err)
{
	return t->ops_new(ctx, av[0], av + 1, ac - 1, err);
}

static int filter(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		  int notrace, struct ftv_err *err)
{
	struct ftrace_ops *o = ops_arg(t, ctx, av[0], err);
	int add = ac == 3;

	if (!o)
		return -1;
	if (add && strcmp(av[2], "add"))
		return ftv_errf(err, "usage: %s NAME SPEC [add]", notrace ? "notrace" : "filter");
	return t->set_filter(ctx, o, strcmp(av[1], "-") ? av[1] : "", !add, notrace, err);
}

static int v_filter(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		    struct ftv_err *err)
{
	return filter(t, ctx, av, ac, 0, err);
}

static int v_notrace(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		     struct ftv_err *err)
{
	return filter(t, ctx, av, ac, 1, err);
}

/* The verbs whose one argument is an ops. */
#define OPS_VERB(FN, METHOD)                                                          \
	static int FN(const struct ftrace_target *t, void *ctx, char *const *av, int ac, \
		      struct ftv_err *err)                                            \
	{                                                                             \
		struct ftrace_ops *o = ops_arg(t, ctx, av[0], err);                   \
                                                                                      \
		(void)ac;                                                             \
		return o ? t->METHOD(ctx, o, err) : -1;                               \
	}
OPS_VERB(v_register, register_ops)
OPS_VERB(v_unregister, unregister_ops)
OPS_VERB(v_direct_remove, direct_remove)
OPS_VERB(v_graph, register_graph)
OPS_VERB(v_ungraph, unregister_graph)

/* The verbs whose arguments are an ops and one word (a trampoline, an
 * image). */
#define OPS_WORD_VERB(FN, METHOD)                                                     \
	static int FN(const struct ftrace_target *t, void *ctx, char *const *av, int ac, \
		      struct ftv_err *err)                                            \
	{                                                                             \
		struct ftrace_ops *o = ops_arg(t, ctx, av[0], err);                   \
                                                                                      \
		(void)ac;                                                             \
		return o ? t->METHOD(ctx, o, av[1], err) : -1;                        \
	}
OPS_WORD_VERB(v_direct, direct)
OPS_WORD_VERB(v_direct_modify, direct_modify)
OPS_WORD_VERB(v_bpf_update, bpf_update)

/* update_ftrace_direct_add NAME SPEC TRAMP, or _del NAME SPEC */
static int v_direct_batch(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			  struct ftv_err *err)
{
	struct ftrace_ops *o = ops_arg(t, ctx, av[0], err);

	return o ? t->direct_batch(ctx, o, av[1], ac == 3 ? av[2] : NULL, err) : -1;
}

static int v_enable_modules(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			    struct ftv_err *err)
{
	return t->enable_modules(ctx, ac ? av[0] : NULL, err);
}

static int v_load_module(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			 struct ftv_err *err)
{
	(void)ac;
	return t->load_module(ctx, av[0], err);
}

static int v_unload_module(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			   struct ftv_err *err)
{
	(void)ac;
	return t->unload_module(ctx, av[0], err);
}

static int v_static_key(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			struct ftv_err *err)
{
	if (strcmp(av[0], "on") && strcmp(av[0], "off"))
		return ftv_errf(err, "usage: static-key on|off [KEY]");
	return t->static_key(ctx, !strcmp(av[0], "on"), ac > 1 ? av[1] : NULL, err);
}

static int v_text_poke(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		       struct ftv_err *err)
{
	(void)ac;
	return t->text_poke(ctx, av[0], err);
}

static int v_text_write(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
			struct ftv_err *err)
{
	(void)ac;
	return t->text_write(ctx, av[0], av[1], err);
}

static int v_run(const struct ftrace_target *t, void *ctx, char *const *av, int ac,
		 struct ftv_err *err)
{
	uint64_t n;

	(void)ac;
	if (ftv_parse_u64(av[0], &n))
		return ftv_errf(err, "run needs a number");
	return t->run(ctx, n, err);
}

#define M(m) offsetof(struct ftrace_target, m)

static const struct ftrace_verb verbs[] = {
	{ "ops", NULL, NULL, 1, FTRACE_VERB_MAX_ARGS, v_ops, M(ops_new),
	  "a new ops NAME; a scenario names its tracer: tracer_a or tracer_b (logging "
	  "tracers), graph (the function-graph tracer) or direct (for direct calls)", 0 },
	{ "filter", NULL, "NAME SPEC [add]", 2, 3, v_filter, M(set_filter),
	  "ftrace_set_filter: the functions (names or 0x addresses, comma separated) NAME"
	  " traces, replacing its set unless add", 0 },
	{ "notrace", NULL, "NAME SPEC [add]", 2, 3, v_notrace, M(set_filter),
	  "ftrace_set_notrace: the functions NAME never traces; SPEC - is the empty set", 0 },
	{ "register", NULL, "NAME", 1, 1, v_register, M(register_ops),
	  "register_ftrace_function", 0 },
	{ "unregister", NULL, "NAME", 1, 1, v_unregister, M(unregister_ops),
	  "unregister_ftrace_function (the ops is freed after a grace period)", 0 },
	{ "direct", NULL, "NAME TRAMP", 2, 2, v_direct, M(direct),
	  "register_ftrace_direct: NAME calls the trampoline TRAMP (a symbol or a 0x "
	  "address)", 0 },
	{ "direct-modify", "modify-direct", "NAME TRAMP", 2, 2, v_direct_modify,
	  M(direct_modify),
	  "modify_ftrace_direct (also: modify-direct)", 0 },
	{ "direct-remove", "undirect", "NAME", 1, 1, v_direct_remove, M(direct_remove),
	  "unregister_ftrace_direct (also: undirect)", 0 },
	{ "bpf-update", NULL, "NAME IMAGE|-", 2, 2, v_bpf_update, M(bpf_update),
	  "bpf_trampoline_update: the direct ops NAME's BPF trampoline becomes IMAGE "
	  "(ftv_bpf_image0..3 of corpus object bpf), or none with -; the image it replaces "
	  "is released (bpf_tramp_image_put)", 0 },
	{ "direct-add", NULL, "NAME SPEC TRAMP", 3, 3, v_direct_batch, M(direct_batch),
	  "update_ftrace_direct_add: the functions of SPEC call TRAMP through the shared "
	  "direct ops NAME, added in one update", 0 },
	{ "direct-del", NULL, "NAME SPEC", 2, 2, v_direct_batch, M(direct_batch),
	  "update_ftrace_direct_del: the functions of SPEC leave the shared direct ops "
	  "NAME in one update", 0 },
	{ "graph", NULL, "NAME", 1, 1, v_graph, M(register_graph),
	  "register_ftrace_graph (core scripts)", 0 },
	{ "ungraph", NULL, "NAME", 1, 1, v_ungraph, M(unregister_graph),
	  "unregister_ftrace_graph (core scripts)", 0 },
	{ "enable-modules", "module-enable", "[MODULE]", 0, 1, v_enable_modules,
	  M(enable_modules),
	  "ftrace_module_enable of MODULE, or of every module loaded at boot (also: "
	  "module-enable)", 0 },
	{ "module-load", NULL, "MODULE", 1, 1, v_load_module, M(load_module),
	  "load_module while the CPUs run: ftrace_module_init, ftrace_module_enable, then"
	  " its functions are called", 0 },
	{ "module-unload", NULL, "MODULE", 1, 1, v_unload_module, M(unload_module),
	  "delete_module: nobody calls it any more, ftrace_release_mod, and its memory is"
	  " freed after a grace period", 0 },
	{ "static-key", NULL, "on|off [KEY]", 1, 2, v_static_key, M(static_key),
	  "not ftrace: static_key_enable/disable(KEY) on the objects' __jump_table (corpus "
	  "object jumplabel); without KEY another task flips the workload's static branch "
	  "while ftrace patches", 1 },
	{ "text-poke", NULL, "SYMBOL", 1, 1, v_text_poke, M(text_poke),
	  "not ftrace: SYMBOL's word swapped with SYMBOL_alt's by the arch's stop_machine() "
	  "patch_text (aarch64_insn_patch_text, riscv patch_text)", 1 },
	{ "text-write", NULL, "SYMBOL+OFF WORD", 2, 2, v_text_write, M(text_write),
	  "not ftrace: another task writes the instruction WORD over a word ftrace owns (a "
	  "site's patched word) with aarch64_insn_patch_text_nosync, without ftrace_lock "
	  "(what ftrace_text_reserved() refuses in the kernel); arm64", 1 },
	{ "run", NULL, "STEPS", 1, 1, v_run, M(run),
	  "let the CPUs and the queued updates run for STEPS scheduler steps (no steps "
	  "under policy exhaustive)", 1 },
};

const struct ftrace_verb *ftrace_verb_at(size_t i)
{
	return i < sizeof(verbs) / sizeof(verbs[0]) ? &verbs[i] : NULL;
}

const struct ftrace_verb *ftrace_verb_find(const char *word)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(word, verbs[i].name) || (verbs[i].alias && !strcmp(word, verbs[i].alias)))
			return &verbs[i];
	return NULL;
}

static int has_method(const struct ftrace_target *t, size_t method)
{
	void (*fn)(void);

	memcpy(&fn, (const char *)t + method, sizeof(fn));
	return fn != NULL;
}

int ftrace_verb_check(const struct ftrace_verb *v, const struct ftrace_target *t,
		      int nargs, struct ftv_err *err)
{
	int ops = v->fn == v_ops;
	int min = ops ? 1 + t->ops_min : v->min, max = ops ? 1 + t->ops_max : v->max;

	if (!has_method(t, v->method))
		return ftv_errf(err, "'%s' is no operation of a %s", v->name, t->name);
	if (nargs < min || nargs > max)
		return ftv_errf(err, "usage: %s %s", v->name,
				ops ? t->ops_usage : v->usage);
	return 0;
}

int ftrace_verb_run(const struct ftrace_verb *v, const struct ftrace_target *t, void *ctx,
		    char *const *av, int ac, struct ftv_err *err)
{
	if (ftrace_verb_check(v, t, ac, err))
		return -1;
	return v->fn(t, ctx, av, ac, err);
}
