/* ftv's own litmus syntax, one statement a line (see litmus.h). */
#include "litmus/lt_int.h"
#include "util/num.h"
#include "util/str.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int parse_init(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *eq = strchr(s, '=');
	struct lt_init *in;

	if (!eq)
		return ftv_errf(err, "init needs '='");
	if (lt->ninit >= LT_MAX_ITEMS)
		return ftv_errf(err, "too many init lines");
	in = &lt->init[lt->ninit];
	memset(in, 0, sizeof(*in));
	*eq = 0;
	s = ftv_trim(s);
	if (s[0] == '[') {
		size_t n = strlen(s);

		in->reg = -1;
		if (n < 3 || s[n - 1] != ']' || n - 2 >= LT_NAME)
			return ftv_errf(err, "bad location '%s'", s);
		s[n - 1] = 0;
		snprintf(in->loc, sizeof(in->loc), "%s", ftv_trim(s + 1));
		if (lt_add_loc(lt, in->loc) < 0)
			return ftv_errf(err, "bad location '%s'", s);
	} else if (lt_parse_thread_reg(lt, s, &in->thread, &in->reg,
				       &in->is32)) {
		return ftv_errf(err, "bad register '%s' (want T:xN)", s);
	}
	if (lt_parse_value(lt, eq + 1, &in->v, err))
		return -1;
	if (in->reg < 0 && in->v.kind == LV_INSN)
		return ftv_errf(err, "a location's initial value must be a number or an address");
	lt->ninit++;
	return 0;
}

static int parse_code(struct litmus *lt, int t, char *s, struct ftv_err *err)
{
	char *p = s;

	/* Leading "label:" (a label is an identifier, not "Pn:"). */
	while (lt_is_ident((unsigned char)*p))
		p++;
	if (p > s && *p == ':' && lt_is_ident_start((unsigned char)*s)) {
		char name[LT_NAME];

		if (p - s >= LT_NAME)
			return ftv_errf(err, "label too long");
		memcpy(name, s, (size_t)(p - s));
		name[p - s] = 0;
		if (lt_add_label(lt, t, 0, name, err))
			return -1;
		s = ftv_trim(p + 1);
	}
	if (!*s)
		return 0;
	return lt_add_insn(lt, t, 0, s, err);
}

static int keyword(const char *s, const char *kw, char **rest)
{
	size_t n = strlen(kw);

	if (strncmp(s, kw, n) || (s[n] && !isspace((unsigned char)s[n])))
		return 0;
	*rest = ftv_trim((char *)s + n);
	return 1;
}

static int parse_line(struct litmus *lt, char *s, int *thread,
		      struct ftv_err *err)
{
	char *r;

	if (keyword(s, "litmus", &r)) {
		snprintf(lt->name, sizeof(lt->name), "%s", r);
		return 0;
	}
	if (keyword(s, "expect", &r)) {
		lt->expect = litmus_kind_parse(r);
		if (lt->expect < 0)
			return ftv_errf(err, "expect Allowed, Forbidden or Required, not '%s'", r);
		return 0;
	}
	if (keyword(s, "arch", &r)) {
		if (lt->ninit || lt->nthreads || lt->root >= 0)
			return ftv_errf(err, "arch goes before init, thread and condition lines");
		lt->arch = lt_arch_find(r);
		if (!lt->arch)
			return ftv_errf(err, "unknown arch '%s'", r);
		return 0;
	}
	if (keyword(s, "cachetype", &r)) {
		for (char *tok = strtok(r, " \t"); tok; tok = strtok(NULL, " \t")) {
			if (!strcmp(tok, "DIC"))
				lt->dic = 1;
			else if (!strcmp(tok, "IDC"))
				lt->idc = 1;
			else
				return ftv_errf(err, "cachetype takes DIC and/or IDC, not '%s'", tok);
		}
		return 0;
	}
	if (keyword(s, "init", &r))
		return parse_init(lt, r, err);
	if (keyword(s, "exists", &r)) {
		lt->quant = LQ_EXISTS;
		return lt_parse_prop(lt, r, err);
	}
	if (keyword(s, "~exists", &r)) {
		lt->quant = LQ_NOT_EXISTS;
		return lt_parse_prop(lt, r, err);
	}
	if (keyword(s, "forall", &r)) {
		lt->quant = LQ_FORALL;
		return lt_parse_prop(lt, r, err);
	}
	if (keyword(s, "thread", &r)) {
		uint64_t t;

		if (ftv_parse_u64(r, &t) || t != (uint64_t)lt->nthreads ||
		    t >= LT_MAX_THREADS)
			return ftv_errf(err, "threads must be numbered 0, 1, ... (at most %d)",
					LT_MAX_THREADS);
		*thread = (int)t;
		lt->code[t].present = 1;
		lt->nthreads++;
		return 0;
	}
	if (*thread < 0)
		return ftv_errf(err, "unknown line '%s' (instructions go after 'thread N')", s);
	return parse_code(lt, *thread, s, err);
}

int lt_read_ftv(struct litmus *lt, FILE *f, struct ftv_err *err)
{
	char line[512];
	int lineno = 0, thread = -1;

	while (fgets(line, sizeof(line), f)) {
		char *s = ftv_trim(line);

		lineno++;
		if (!*s || *s == '#')
			continue;
		lt->cur_line = lineno;
		if (parse_line(lt, s, &thread, err))
			return ftv_err_prefix(err, "%s:%d", lt->path, lineno);
	}
	if (!lt->name[0] || !lt->nthreads || lt->root < 0 || lt->expect < 0)
		return ftv_errf(err, "%s:%d: needs a litmus name, an expect line, a thread and an exists clause",
				lt->path, lineno);
	return 0;
}
