/* The core scripts (see ftrace_script.h): the ftrace verbs
 * (patcher/ftrace_verbs.h) performed on the bare core model, each line's
 * update appended to the caller's plan. */
#include "patcher/ftrace_script.h"
#include "patcher/ftrace_verbs.h"
#include "sim/aspace.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

#define SCRIPT_MAXOPS 64
#define SCRIPT_MAXARGS (FTRACE_VERB_MAX_ARGS + 1)

struct ftrace_script {
	struct ftrace_core *core;
	struct sim_aspace *as;
	struct {
		char *name;
		struct ftrace_ops *ops;
	} ops[SCRIPT_MAXOPS];
	int nops;
	struct plan *plan; /* the line's */
};

struct ftrace_script *ftrace_script_new(struct ftrace_core *core,
					struct sim_aspace *as)
{
	struct ftrace_script *s = calloc(1, sizeof(*s));

	if (s) {
		s->core = core;
		s->as = as;
	}
	return s;
}

void ftrace_script_free(struct ftrace_script *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nops; i++)
		free(s->ops[i].name);
	free(s);
}

struct ftrace_ops *ftrace_script_ops(const struct ftrace_script *s,
				     const char *name)
{
	for (int i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].name, name))
			return s->ops[i].ops;
	return NULL;
}

static int addr_of(struct ftrace_script *s, const char *v, uint64_t *out,
		   struct ftv_err *err)
{
	const struct sim_symbol *sym;

	if (!ftv_parse_u64(v, out))
		return 0;
	sym = s->as ? sim_sym_lookup(s->as, v) : NULL;
	if (!sym)
		return ftv_errf(err, "unknown symbol '%s'", v);
	*out = sym->addr;
	return 0;
}

static int parse_flags(const char *v, unsigned *flags, struct ftv_err *err)
{
	static const struct {
		const char *name;
		unsigned flag;
	} tab[] = {
		{ "regs", FTRACE_OPS_FL_SAVE_REGS },
		{ "recursion", FTRACE_OPS_FL_RECURSION },
		{ "rcu", FTRACE_OPS_FL_RCU },
		{ "stub", FTRACE_OPS_FL_STUB },
	};
	char buf[128], *save = NULL, *t;

	snprintf(buf, sizeof(buf), "%s", v);
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		size_t i;

		for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (!strcmp(t, tab[i].name))
				break;
		if (i == sizeof(tab) / sizeof(tab[0]))
			return ftv_errf(err, "unknown ops flag '%s'", t);
		*flags |= tab[i].flag;
	}
	return 0;
}

/* ops NAME key=value... */
static int t_ops_new(void *ctx, const char *name, char *const *args, int nargs,
		     struct ftv_err *err)
{
	struct ftrace_script *s = ctx;
	struct ftrace_ops_desc d = { .name = name };
	struct ftrace_ops *o;

	if (ftrace_script_ops(s, name))
		return ftv_errf(err, "ops '%s' already exists", name);
	if (s->nops == SCRIPT_MAXOPS)
		return ftv_errf(err, "too many ops (max %d)", SCRIPT_MAXOPS);
	for (int i = 0; i < nargs; i++) {
		char *eq = strchr(args[i], '=');
		const char *v = eq ? eq + 1 : NULL;
		int ret = 0;

		if (eq)
			*eq = 0;
		if (!strcmp(args[i], "static") && !v)
			d.static_ops = 1;
		else if (!strcmp(args[i], "alloc_tramp") && !v)
			d.flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
		else if (!v)
			ret = ftv_errf(err, "ops option '%s' needs a value", args[i]);
		else if (!strcmp(args[i], "func"))
			ret = addr_of(s, v, &d.func, err);
		else if (!strcmp(args[i], "tramp"))
			ret = addr_of(s, v, &d.trampoline, err);
		else if (!strcmp(args[i], "tramp_size"))
			ret = ftv_parse_u64(v, &d.trampoline_size)
				      ? ftv_errf(err, "bad tramp_size '%s'", v) : 0;
		else if (!strcmp(args[i], "private"))
			ret = ftv_parse_u64(v, &d.private_data)
				      ? ftv_errf(err, "bad private '%s'", v) : 0;
		else if (!strcmp(args[i], "flags"))
			ret = parse_flags(v, &d.flags, err);
		else
			ret = ftv_errf(err, "unknown ops option '%s'", args[i]);
		if (ret)
			return -1;
	}
	if ((d.flags & FTRACE_OPS_FL_ALLOC_TRAMP) && !d.trampoline)
		return ftv_errf(err, "alloc_tramp without tramp=");
	o = ftrace_ops_new(s->core, &d, err);
	if (!o)
		return -1;
	s->ops[s->nops].name = strdup(name);
	if (!s->ops[s->nops].name)
		return ftv_errf(err, "out of memory");
	s->ops[s->nops++].ops = o;
	return 0;
}

static struct ftrace_ops *t_ops_find(void *ctx, const char *name)
{
	return ftrace_script_ops(ctx, name);
}

static int t_set_filter(void *ctx, struct ftrace_ops *o, const char *spec, int reset,
			int notrace, struct ftv_err *err)
{
	struct ftrace_script *s = ctx;

	return notrace ? ftrace_set_notrace(s->core, o, spec, reset, s->plan, err)
		       : ftrace_set_filter(s->core, o, spec, reset, s->plan, err);
}

#define OPS_METHOD(FN, CALL)                                                       \
	static int FN(void *ctx, struct ftrace_ops *o, struct ftv_err *err)        \
	{                                                                          \
		struct ftrace_script *s = ctx;                                     \
                                                                                   \
		return CALL(s->core, o, s->plan, err);                             \
	}
OPS_METHOD(t_register, ftrace_register_ops)
OPS_METHOD(t_unregister, ftrace_unregister_ops)
OPS_METHOD(t_direct_remove, ftrace_unregister_direct)
OPS_METHOD(t_graph, ftrace_register_graph)
OPS_METHOD(t_ungraph, ftrace_unregister_graph)

static int t_direct(void *ctx, struct ftrace_ops *o, const char *tramp, struct ftv_err *err)
{
	struct ftrace_script *s = ctx;
	uint64_t addr;

	if (addr_of(s, tramp, &addr, err))
		return -1;
	return ftrace_register_direct(s->core, o, addr, s->plan, err);
}

static int t_direct_modify(void *ctx, struct ftrace_ops *o, const char *tramp,
			   struct ftv_err *err)
{
	struct ftrace_script *s = ctx;
	uint64_t addr;

	if (addr_of(s, tramp, &addr, err))
		return -1;
	return ftrace_modify_direct(s->core, o, addr, s->plan, err);
}

static int t_direct_batch(void *ctx, struct ftrace_ops *o, const char *spec,
			  const char *tramp, struct ftv_err *err)
{
	struct ftrace_script *s = ctx;
	uint64_t addr = 0;

	if (tramp && addr_of(s, tramp, &addr, err))
		return -1;
	return ftrace_direct_batch_spec(s->core, o, spec, addr, s->plan, err);
}

/* Without a name, every module the core has records of, in record order. */
static int t_enable_modules(void *ctx, const char *module, struct ftv_err *err)
{
	struct ftrace_script *s = ctx;
	size_t n = ftrace_core_nrecs(s->core);

	if (module)
		return ftrace_module_enable(s->core, module, s->plan, err);
	for (size_t i = 0; i < n; i++) {
		const char *m = ftrace_core_rec(s->core, i)->site.module;
		size_t j;

		for (j = 0; m && j < i; j++) {
			const char *o = ftrace_core_rec(s->core, j)->site.module;

			if (o && !strcmp(o, m))
				break;
		}
		if (m && j == i && ftrace_module_enable(s->core, m, s->plan, err))
			return -1;
	}
	return 0;
}

static const struct ftrace_target script_target = {
	.name = "core script",
	.ops_min = 0,
	.ops_max = FTRACE_VERB_MAX_ARGS - 1,
	.ops_usage = "NAME [func=F] [flags=regs,recursion,rcu,stub] [tramp=F] "
		     "[tramp_size=N] [alloc_tramp] [static] [private=N]",
	.ops_new = t_ops_new,
	.ops_find = t_ops_find,
	.set_filter = t_set_filter,
	.register_ops = t_register,
	.unregister_ops = t_unregister,
	.direct = t_direct,
	.direct_modify = t_direct_modify,
	.direct_remove = t_direct_remove,
	.direct_batch = t_direct_batch,
	.register_graph = t_graph,
	.unregister_graph = t_ungraph,
	.enable_modules = t_enable_modules,
};

/* Splits on blanks; returns the word count, or -1 when there are more
 * than SCRIPT_MAXARGS. */
static int split(char *line, char **av)
{
	char *save = NULL;
	int ac = 0;

	for (char *t = strtok_r(line, " \t\r\n", &save); t;
	     t = strtok_r(NULL, " \t\r\n", &save)) {
		if (ac == SCRIPT_MAXARGS)
			return -1;
		av[ac++] = t;
	}
	return ac;
}

int ftrace_script_exec(struct ftrace_script *s, const char *line, int lineno,
		       struct plan *p, struct ftv_err *err)
{
	char buf[512], *hash, *av[SCRIPT_MAXARGS];
	const struct ftrace_verb *v;
	int ac, ret;

	if (strlen(line) >= sizeof(buf))
		return ftv_errf(err, "line %d: too long", lineno);
	snprintf(buf, sizeof(buf), "%s", line);
	hash = strchr(buf, '#');
	if (hash)
		*hash = 0;
	ac = split(buf, av);
	if (ac < 0)
		return ftv_errf(err, "line %d: more than %d words", lineno,
				SCRIPT_MAXARGS);
	if (!ac)
		return 0;
	v = ftrace_verb_find(av[0]);
	if (!v)
		return ftv_errf(err, "line %d: unknown command '%s'", lineno, av[0]);
	s->plan = p;
	ret = ftrace_verb_run(v, &script_target, s, av + 1, ac - 1, err);
	s->plan = NULL;
	if (ret)
		return ftv_err_prefix(err, "line %d", lineno);
	return 0;
}

int ftrace_script_run(struct ftrace_script *s, const char *text,
		      struct plan *p, struct ftv_err *err)
{
	int lineno = 0;

	while (text && *text) {
		const char *nl = strchr(text, '\n');
		size_t len = nl ? (size_t)(nl - text) : strlen(text);
		char line[512];

		lineno++;
		if (len >= sizeof(line))
			return ftv_errf(err, "line %d: too long", lineno);
		memcpy(line, text, len);
		line[len] = 0;
		if (ftrace_script_exec(s, line, lineno, p, err))
			return -1;
		text = nl ? nl + 1 : NULL;
	}
	return 0;
}
