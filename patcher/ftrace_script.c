/* The ftrace line language (see ftrace_script.h). */
#include "patcher/ftrace_script.h"
#include "sim/aspace.h"
#include "util/num.h"

#include <stdlib.h>
#include <string.h>

#define SCRIPT_MAXOPS 64
#define SCRIPT_MAXARGS 12

struct ftrace_script {
	struct ftrace_core *core;
	struct sim_aspace *as;
	struct {
		char *name;
		struct ftrace_ops *ops;
	} ops[SCRIPT_MAXOPS];
	int nops;
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
static int cmd_ops(struct ftrace_script *s, char **av, int ac,
		   struct ftv_err *err)
{
	struct ftrace_ops_desc d = { .name = av[1] };
	struct ftrace_ops *o;

	if (ftrace_script_ops(s, av[1]))
		return ftv_errf(err, "ops '%s' already exists", av[1]);
	if (s->nops == SCRIPT_MAXOPS)
		return ftv_errf(err, "too many ops (max %d)", SCRIPT_MAXOPS);
	for (int i = 2; i < ac; i++) {
		char *eq = strchr(av[i], '=');
		const char *v = eq ? eq + 1 : NULL;
		int ret = 0;

		if (eq)
			*eq = 0;
		if (!strcmp(av[i], "static") && !v)
			d.static_ops = 1;
		else if (!strcmp(av[i], "alloc_tramp") && !v)
			d.flags |= FTRACE_OPS_FL_ALLOC_TRAMP;
		else if (!v)
			ret = ftv_errf(err, "ops option '%s' needs a value", av[i]);
		else if (!strcmp(av[i], "func"))
			ret = addr_of(s, v, &d.func, err);
		else if (!strcmp(av[i], "tramp"))
			ret = addr_of(s, v, &d.trampoline, err);
		else if (!strcmp(av[i], "tramp_size"))
			ret = ftv_parse_u64(v, &d.trampoline_size)
				      ? ftv_errf(err, "bad tramp_size '%s'", v) : 0;
		else if (!strcmp(av[i], "private"))
			ret = ftv_parse_u64(v, &d.private_data)
				      ? ftv_errf(err, "bad private '%s'", v) : 0;
		else if (!strcmp(av[i], "flags"))
			ret = parse_flags(v, &d.flags, err);
		else
			ret = ftv_errf(err, "unknown ops option '%s'", av[i]);
		if (ret)
			return -1;
	}
	if ((d.flags & FTRACE_OPS_FL_ALLOC_TRAMP) && !d.trampoline)
		return ftv_errf(err, "alloc_tramp without tramp=");
	o = ftrace_ops_new(s->core, &d, err);
	if (!o)
		return -1;
	s->ops[s->nops].name = strdup(av[1]);
	if (!s->ops[s->nops].name)
		return ftv_errf(err, "out of memory");
	s->ops[s->nops++].ops = o;
	return 0;
}

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

static int dispatch(struct ftrace_script *s, char **av, int ac,
		    struct plan *p, struct ftv_err *err)
{
	const char *cmd = av[0];
	struct ftrace_ops *o = NULL;
	uint64_t addr;

	if (!strcmp(cmd, "module-enable")) {
		if (ac != 2)
			return ftv_errf(err, "usage: module-enable MODULE");
		return ftrace_module_enable(s->core, av[1], p, err);
	}
	if (ac < 2)
		return ftv_errf(err, "%s needs an ops name", cmd);
	if (!strcmp(cmd, "ops"))
		return cmd_ops(s, av, ac, err);
	o = ftrace_script_ops(s, av[1]);
	if (!o)
		return ftv_errf(err, "unknown ops '%s'", av[1]);
	if (!strcmp(cmd, "filter") || !strcmp(cmd, "notrace")) {
		int add = ac == 4 && !strcmp(av[3], "add");
		const char *spec;

		if (ac < 3 || ac > 4 || (ac == 4 && !add))
			return ftv_errf(err, "usage: %s NAME SPEC [add]", cmd);
		spec = strcmp(av[2], "-") ? av[2] : "";
		return cmd[0] == 'f'
			       ? ftrace_set_filter(s->core, o, spec, !add, p, err)
			       : ftrace_set_notrace(s->core, o, spec, !add, p, err);
	}
	if (ac == 2 && !strcmp(cmd, "register"))
		return ftrace_register_ops(s->core, o, p, err);
	if (ac == 2 && !strcmp(cmd, "unregister"))
		return ftrace_unregister_ops(s->core, o, p, err);
	if (ac == 2 && !strcmp(cmd, "undirect"))
		return ftrace_unregister_direct(s->core, o, p, err);
	if (ac == 2 && !strcmp(cmd, "graph"))
		return ftrace_register_graph(s->core, o, p, err);
	if (ac == 2 && !strcmp(cmd, "ungraph"))
		return ftrace_unregister_graph(s->core, o, p, err);
	if (ac == 3 && (!strcmp(cmd, "direct") || !strcmp(cmd, "modify-direct"))) {
		if (addr_of(s, av[2], &addr, err))
			return -1;
		return cmd[0] == 'd'
			       ? ftrace_register_direct(s->core, o, addr, p, err)
			       : ftrace_modify_direct(s->core, o, addr, p, err);
	}
	return ftv_errf(err, "unknown command or wrong arguments: '%s'", cmd);
}

int ftrace_script_exec(struct ftrace_script *s, const char *line, int lineno,
		       struct plan *p, struct ftv_err *err)
{
	char buf[512], *hash, *av[SCRIPT_MAXARGS];
	int ac;

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
	if (dispatch(s, av, ac, p, err))
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
