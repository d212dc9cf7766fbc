/* Litmus files: parser and exhaustive runner (syntax in litmus.h). */
#include "util/str.h"
#include "litmus/litmus.h"
#include "executor/exec.h"
#include "encoders/a64.h"
#include "sim/aspace.h"
#include "util/num.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LT_MAX_THREADS 8
#define LT_MAX_INSNS 256
#define LT_MAX_ITEMS 64
#define LT_THREAD_SPAN 0x1000ULL /* each thread's code: its own 4 KiB */
#define LT_NAME 48

enum lval_kind { LV_NUM, LV_CODE, LV_LOC, LV_INSN };

struct lval {
	enum lval_kind kind;
	uint64_t num;
	int thread;             /* LV_CODE, LV_INSN with at */
	char name[LT_NAME];     /* label or location */
	char text[128];         /* LV_INSN */
	int has_at;
	int line;
};

struct linsn {
	char text[128];
	int line;
};

struct llabel {
	int thread;
	char name[LT_NAME];
	unsigned index;         /* instruction index it precedes */
};

struct linit {
	int thread, reg;        /* reg -1: memory location `loc` */
	char loc[LT_NAME];
	struct lval v;
};

enum lcond_kind { LC_REG, LC_MEM, LC_FETCH };

struct lcond {
	enum lcond_kind kind;
	int thread, reg, is32;
	char loc[LT_NAME];      /* LC_MEM */
	int lthread;            /* LC_FETCH: Pn:label */
	char label[LT_NAME];
	struct lval v;
};

struct litmus {
	char path[256];
	char name[128];
	int expect;
	int nthreads;
	struct linsn insn[LT_MAX_THREADS][LT_MAX_INSNS];
	unsigned ninsn[LT_MAX_THREADS];
	struct llabel label[LT_MAX_ITEMS];
	int nlabel;
	struct linit init[LT_MAX_ITEMS];
	int ninit;
	struct lcond cond[LT_MAX_ITEMS];
	int ncond;
	char loc[LT_MAX_ITEMS][LT_NAME];
	int nloc;
	int cur_line;           /* while parsing */
};

const char *litmus_name(const struct litmus *lt)
{
	return lt->name;
}

int litmus_expected(const struct litmus *lt)
{
	return lt->expect;
}

void litmus_free(struct litmus *lt)
{
	free(lt);
}

/* --- parsing --------------------------------------------------------------- */

static int is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.';
}

static int is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

static int parse_reg(const char *s, int *reg, int *is32)
{
	uint64_t n;

	if ((s[0] != 'x' && s[0] != 'X' && s[0] != 'w' && s[0] != 'W') ||
	    ftv_parse_u64(s + 1, &n) || n > 30)
		return -1;
	*reg = (int)n;
	*is32 = s[0] == 'w' || s[0] == 'W';
	return 0;
}

/* "Pn:label" -> thread and label. */
static int parse_code_ref(const char *s, int *thread, char *label)
{
	uint64_t t;
	const char *colon = strchr(s, ':');
	char num[16];

	if ((s[0] != 'P' && s[0] != 'p') || !colon || colon - s - 1 <= 0 ||
	    colon - s - 1 >= (int)sizeof(num))
		return -1;
	memcpy(num, s + 1, (size_t)(colon - s - 1));
	num[colon - s - 1] = 0;
	if (ftv_parse_u64(num, &t) || t >= LT_MAX_THREADS ||
	    !is_ident_start((unsigned char)colon[1]) ||
	    strlen(colon + 1) >= LT_NAME)
		return -1;
	for (const char *p = colon + 1; *p; p++)
		if (!is_ident((unsigned char)*p))
			return -1;
	*thread = (int)t;
	strcpy(label, colon + 1);
	return 0;
}

static int add_loc(struct litmus *lt, const char *name)
{
	for (int i = 0; i < lt->nloc; i++)
		if (!strcmp(lt->loc[i], name))
			return i;
	if (lt->nloc >= LT_MAX_ITEMS)
		return -1;
	snprintf(lt->loc[lt->nloc], LT_NAME, "%s", name);
	return lt->nloc++;
}

static int parse_value(struct litmus *lt, char *s, struct lval *v,
		       struct ftv_err *err)
{
	memset(v, 0, sizeof(*v));
	v->line = lt->cur_line;
	s = ftv_trim(s);
	if (!strncmp(s, "insn", 4) && isspace((unsigned char)s[4])) {
		char *q = strchr(s, '"'), *e;

		if (!q || !(e = strchr(q + 1, '"')))
			return ftv_errf(err, "insn needs a quoted instruction");
		v->kind = LV_INSN;
		*e = 0;
		snprintf(v->text, sizeof(v->text), "%s", q + 1);
		s = ftv_trim(e + 1);
		if (!*s)
			return 0;
		if (strncmp(s, "at", 2) || !isspace((unsigned char)s[2]) ||
		    parse_code_ref(ftv_trim(s + 2), &v->thread, v->name))
			return ftv_errf(err, "expected 'at Pn:label' after the instruction, found '%s'", s);
		v->has_at = 1;
		return 0;
	}
	if (!ftv_parse_u64(s, &v->num)) {
		v->kind = LV_NUM;
		return 0;
	}
	if (!parse_code_ref(s, &v->thread, v->name)) {
		v->kind = LV_CODE;
		return 0;
	}
	if (is_ident_start((unsigned char)*s) && strlen(s) < LT_NAME) {
		for (char *p = s; *p; p++)
			if (!is_ident((unsigned char)*p))
				return ftv_errf(err, "bad value '%s'", s);
		v->kind = LV_LOC;
		strcpy(v->name, s);
		if (add_loc(lt, s) < 0)
			return ftv_errf(err, "too many locations");
		return 0;
	}
	return ftv_errf(err, "bad value '%s'", s);
}

/* "[loc]" -> loc */
static int parse_bracket(struct litmus *lt, char *s, char *loc)
{
	size_t n = strlen(s);

	if (n < 3 || s[0] != '[' || s[n - 1] != ']' || n - 2 >= LT_NAME)
		return -1;
	memcpy(loc, s + 1, n - 2);
	loc[n - 2] = 0;
	return add_loc(lt, ftv_trim(loc)) < 0 ? -1 : 0;
}

/* "T:reg" -> thread, reg */
static int parse_thread_reg(const char *orig, int *thread, int *reg,
			    int *is32)
{
	char buf[LT_NAME], *s = buf, *colon;
	uint64_t t;

	snprintf(buf, sizeof(buf), "%s", orig);
	colon = strchr(s, ':');
	if (!colon)
		return -1;
	*colon = 0;
	if (ftv_parse_u64(ftv_trim(s), &t) || t >= LT_MAX_THREADS)
		return -1;
	*thread = (int)t;
	return parse_reg(ftv_trim(colon + 1), reg, is32);
}

static int parse_init(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *eq = strchr(s, '=');
	struct linit *in;

	if (!eq)
		return ftv_errf(err, "init needs '='");
	if (lt->ninit >= LT_MAX_ITEMS)
		return ftv_errf(err, "too many init lines");
	in = &lt->init[lt->ninit];
	memset(in, 0, sizeof(*in));
	*eq = 0;
	s = ftv_trim(s);
	if (s[0] == '[') {
		in->reg = -1;
		if (parse_bracket(lt, s, in->loc))
			return ftv_errf(err, "bad location '%s'", s);
	} else {
		int is32;

		if (parse_thread_reg(s, &in->thread, &in->reg, &is32))
			return ftv_errf(err, "bad register '%s' (want T:xN)", s);
	}
	if (parse_value(lt, eq + 1, &in->v, err))
		return -1;
	if (in->reg < 0 && in->v.kind != LV_NUM)
		return ftv_errf(err, "a location's initial value must be a number");
	lt->ninit++;
	return 0;
}

static int parse_cond(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *eq = strchr(s, '=');
	struct lcond *c;

	if (!eq)
		return ftv_errf(err, "condition '%s' needs '='", ftv_trim(s));
	if (lt->ncond >= LT_MAX_ITEMS)
		return ftv_errf(err, "too many conditions");
	c = &lt->cond[lt->ncond];
	memset(c, 0, sizeof(*c));
	*eq = 0;
	s = ftv_trim(s);
	if (s[0] == '[') {
		c->kind = LC_MEM;
		if (parse_bracket(lt, s, c->loc))
			return ftv_errf(err, "bad location '%s'", s);
	} else if (strstr(s, ":fetch(")) {
		char *open = strstr(s, ":fetch("), *close = strchr(open, ')');
		uint64_t t;

		c->kind = LC_FETCH;
		*open = 0;
		if (!close || ftv_parse_u64(ftv_trim(s), &t) ||
		    t >= LT_MAX_THREADS)
			return ftv_errf(err, "bad fetch condition");
		c->thread = (int)t;
		*close = 0;
		if (parse_code_ref(ftv_trim(open + 7), &c->lthread, c->label))
			return ftv_errf(err, "fetch() needs Pn:label");
	} else {
		c->kind = LC_REG;
		if (parse_thread_reg(s, &c->thread, &c->reg, &c->is32))
			return ftv_errf(err, "bad register '%s' (want T:xN)", s);
	}
	if (parse_value(lt, eq + 1, &c->v, err))
		return -1;
	lt->ncond++;
	return 0;
}

static int parse_exists(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *and;

	if (lt->ncond)
		return ftv_errf(err, "only one exists clause");
	while ((and = strstr(s, "/\\"))) {
		*and = 0;
		if (parse_cond(lt, s, err))
			return -1;
		s = and + 2;
	}
	return parse_cond(lt, s, err);
}

static int parse_code(struct litmus *lt, int t, char *s, struct ftv_err *err)
{
	char *p = s;

	/* Leading "label:" (a label is an identifier, not "Pn:"). */
	while (is_ident((unsigned char)*p))
		p++;
	if (p > s && *p == ':' && is_ident_start((unsigned char)*s)) {
		struct llabel *l;

		if (lt->nlabel >= LT_MAX_ITEMS)
			return ftv_errf(err, "too many labels");
		if (p - s >= LT_NAME)
			return ftv_errf(err, "label too long");
		l = &lt->label[lt->nlabel++];
		l->thread = t;
		memcpy(l->name, s, (size_t)(p - s));
		l->name[p - s] = 0;
		l->index = lt->ninsn[t];
		for (int i = 0; i < lt->nlabel - 1; i++)
			if (lt->label[i].thread == t &&
			    !strcmp(lt->label[i].name, l->name))
				return ftv_errf(err, "label %s defined twice",
						l->name);
		s = ftv_trim(p + 1);
	}
	if (!*s)
		return 0;
	if (lt->ninsn[t] >= LT_MAX_INSNS)
		return ftv_errf(err, "thread %d: too many instructions", t);
	if (strlen(s) >= sizeof(lt->insn[t][0].text))
		return ftv_errf(err, "instruction too long");
	strcpy(lt->insn[t][lt->ninsn[t]].text, s);
	lt->insn[t][lt->ninsn[t]].line = lt->cur_line;
	lt->ninsn[t]++;
	return 0;
}

static int parse_line(struct litmus *lt, char *s, int *thread,
		      struct ftv_err *err)
{
	if (!strncmp(s, "litmus ", 7)) {
		snprintf(lt->name, sizeof(lt->name), "%s", ftv_trim(s + 7));
		return 0;
	}
	if (!strncmp(s, "expect ", 7)) {
		s = ftv_trim(s + 7);
		if (!strcmp(s, "Allowed"))
			lt->expect = 1;
		else if (!strcmp(s, "Forbidden"))
			lt->expect = 0;
		else
			return ftv_errf(err, "expect Allowed or Forbidden, not '%s'", s);
		return 0;
	}
	if (!strncmp(s, "init ", 5))
		return parse_init(lt, s + 5, err);
	if (!strncmp(s, "exists ", 7))
		return parse_exists(lt, s + 7, err);
	if (!strncmp(s, "thread ", 7)) {
		uint64_t t;

		if (ftv_parse_u64(ftv_trim(s + 7), &t) ||
		    t != (uint64_t)lt->nthreads || t >= LT_MAX_THREADS)
			return ftv_errf(err, "threads must be numbered 0, 1, ... (at most %d)",
					LT_MAX_THREADS);
		*thread = (int)t;
		lt->nthreads++;
		return 0;
	}
	if (*thread < 0)
		return ftv_errf(err, "unknown line '%s' (instructions go after 'thread N')", s);
	return parse_code(lt, *thread, s, err);
}

static int find_label(const struct litmus *lt, int t, const char *name,
		      uint64_t *addr)
{
	for (int i = 0; i < lt->nlabel; i++)
		if (lt->label[i].thread == t && !strcmp(lt->label[i].name, name)) {
			*addr = SIM_KERNEL_TEXT_BASE + (uint64_t)t * LT_THREAD_SPAN +
				4ULL * lt->label[i].index;
			return 0;
		}
	return -1;
}

/* Replaces label names in an instruction by their addresses. */
static int resolve_text(const struct litmus *lt, int t, const char *in,
			char *out, size_t n, struct ftv_err *err)
{
	size_t o = 0;

	for (const char *p = in; *p;) {
		char tok[LT_NAME + 8], lab[LT_NAME];
		const char *s = p;
		uint64_t addr;
		int tt;

		if (!is_ident_start((unsigned char)*p) ||
		    (p > in && (is_ident((unsigned char)p[-1]) || p[-1] == '#'))) {
			if (o + 1 >= n)
				return ftv_errf(err, "instruction too long");
			out[o++] = *p++;
			continue;
		}
		while (is_ident((unsigned char)*p))
			p++;
		if (*p == ':' && (s[0] == 'P' || s[0] == 'p') &&
		    is_ident_start((unsigned char)p[1])) {
			p++;
			while (is_ident((unsigned char)*p))
				p++;
		}
		if ((size_t)(p - s) >= sizeof(tok))
			return ftv_errf(err, "name too long in '%s'", in);
		memcpy(tok, s, (size_t)(p - s));
		tok[p - s] = 0;
		if (!parse_code_ref(tok, &tt, lab)) {
			if (find_label(lt, tt, lab, &addr))
				return ftv_errf(err, "unknown label %s", tok);
		} else if (find_label(lt, t, tok, &addr)) {
			if (o + strlen(tok) >= n)
				return ftv_errf(err, "instruction too long");
			memcpy(out + o, tok, strlen(tok));
			o += strlen(tok);
			continue;
		}
		o += (size_t)snprintf(out + o, n - o, "0x%llx",
				      (unsigned long long)addr);
		if (o >= n)
			return ftv_errf(err, "instruction too long");
	}
	out[o] = 0;
	return 0;
}

struct litmus *litmus_load(const char *path, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");
	struct litmus *lt;
	char line[512];
	int lineno = 0, thread = -1;

	if (!f) {
		ftv_errf(err, "%s: cannot open", path);
		return NULL;
	}
	lt = calloc(1, sizeof(*lt));
	if (!lt) {
		fclose(f);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	lt->expect = -1;
	snprintf(lt->path, sizeof(lt->path), "%s", path);
	while (fgets(line, sizeof(line), f)) {
		char *s = ftv_trim(line);

		lineno++;
		if (!*s || *s == '#')
			continue;
		lt->cur_line = lineno;
		if (parse_line(lt, s, &thread, err))
			goto bad;
	}
	fclose(f);
	f = NULL;
	if (!lt->name[0] || !lt->nthreads || !lt->ncond || lt->expect < 0) {
		ftv_errf(err, "%s:%d: needs a litmus name, an expect line, a thread and an exists clause",
			 path, lineno);
		litmus_free(lt);
		return NULL;
	}
	return lt;
bad:
	ftv_err_prefix(err, "%s:%d", path, lineno);
	if (f)
		fclose(f);
	litmus_free(lt);
	return NULL;
}

/* --- running --------------------------------------------------------------- */

struct lrun {
	const struct litmus *lt;
	struct sim_aspace *as;
	uint64_t vals[LT_MAX_ITEMS];    /* resolved condition values */
	struct litmus_result *res;
	int want_witness;
};

static uint64_t loc_addr(const struct litmus *lt, const char *name)
{
	for (int i = 0; i < lt->nloc; i++)
		if (!strcmp(lt->loc[i], name))
			return SIM_DATA_BASE + 64ULL * (uint64_t)i;
	return 0;
}

static int resolve_value1(const struct litmus *lt, const struct lval *v,
			  uint64_t *out, struct ftv_err *err);

/* Values are resolved after parsing: errors name the line they came from. */
static int resolve_value(const struct litmus *lt, const struct lval *v,
			 uint64_t *out, struct ftv_err *err)
{
	if (resolve_value1(lt, v, out, err))
		return ftv_err_prefix(err, "%s:%d", lt->path, v->line);
	return 0;
}

static int resolve_value1(const struct litmus *lt, const struct lval *v,
			  uint64_t *out, struct ftv_err *err)
{
	uint64_t pc = 0;
	uint32_t w;
	char text[256];

	switch (v->kind) {
	case LV_NUM:
		*out = v->num;
		return 0;
	case LV_LOC:
		*out = loc_addr(lt, v->name);
		return 0;
	case LV_CODE:
		if (find_label(lt, v->thread, v->name, out))
			return ftv_errf(err, "unknown label P%d:%s", v->thread,
					v->name);
		return 0;
	case LV_INSN:
		if (v->has_at && find_label(lt, v->thread, v->name, &pc))
			return ftv_errf(err, "unknown label P%d:%s", v->thread,
					v->name);
		if (resolve_text(lt, v->has_at ? v->thread : 0, v->text, text,
				 sizeof(text), err) ||
		    a64_assemble(text, pc, &w, err))
			return ftv_err_prefix(err, "insn \"%s\"", v->text);
		*out = w;
		return 0;
	}
	return -1;
}

static void outcome(struct ftv_exec *ex, void *arg)
{
	struct lrun *r = arg;
	const struct litmus *lt = r->lt;

	for (int t = 0; t < lt->nthreads; t++)
		if (!exec_cpu_done(ex, (unsigned)t))
			return;
	r->res->finished++;
	for (int i = 0; i < lt->ncond; i++) {
		const struct lcond *c = &lt->cond[i];
		uint64_t v = 0;
		uint32_t w;

		switch (c->kind) {
		case LC_REG:
			v = exec_cpu_reg(ex, (unsigned)c->thread, c->reg);
			if (c->is32)
				v = (uint32_t)v;
			break;
		case LC_MEM:
			sim_read64(r->as, loc_addr(lt, c->loc), &v);
			break;
		case LC_FETCH:
			if (find_label(lt, c->lthread, c->label, &v) ||
			    exec_last_fetch(ex, (unsigned)c->thread, v, &w))
				return;
			v = w;
			break;
		}
		if (v != r->vals[i])
			return;
	}
	r->res->witnesses++;
	if (r->want_witness && !r->res->witness) {
		size_t len = 0;
		FILE *f = open_memstream(&r->res->witness, &len);

		if (f) {
			exec_trace_print(ex, f);
			fclose(f);
		}
	}
}

static int build_space(const struct litmus *lt, struct sim_aspace *as,
		       struct ftv_err *err)
{
	uint64_t tsize = LT_THREAD_SPAN * (uint64_t)lt->nthreads;
	uint64_t dsize = (64ULL * (uint64_t)lt->nloc + SIM_PAGE) & ~(SIM_PAGE - 1);

	if (!sim_map(as, "litmus.text", SIM_KERNEL_TEXT_BASE, tsize,
		     SIM_R | SIM_X, SIM_REGION_TEXT, err) ||
	    !sim_map(as, "litmus.data", SIM_DATA_BASE, dsize, SIM_R | SIM_W,
		     SIM_REGION_DATA, err) ||
	    !sim_map(as, "litmus.stack", SIM_STACK_BASE,
		     SIM_PAGE * (uint64_t)lt->nthreads, SIM_R | SIM_W,
		     SIM_REGION_STACK, err))
		return -1;
	for (int t = 0; t < lt->nthreads; t++) {
		uint64_t base = SIM_KERNEL_TEXT_BASE + LT_THREAD_SPAN * (uint64_t)t;
		char name[16];

		snprintf(name, sizeof(name), "P%d", t);
		sim_sym_add(as, name, base, 4ULL * lt->ninsn[t] + 4,
			    SIM_SYM_FUNC, NULL);
		for (unsigned i = 0; i < lt->ninsn[t]; i++) {
			char text[256];
			uint32_t w;

			if (resolve_text(lt, t, lt->insn[t][i].text, text,
					 sizeof(text), err) ||
			    a64_assemble(text, base + 4ULL * i, &w, err))
				return ftv_err_prefix(err, "%s:%d", lt->path,
						      lt->insn[t][i].line);
			sim_write32(as, base + 4ULL * i, w);
		}
	}
	for (int i = 0; i < lt->ninit; i++)
		if (lt->init[i].reg < 0)
			sim_write64(as, loc_addr(lt, lt->init[i].loc),
				    lt->init[i].v.num);
	return 0;
}

static int watch_code(const struct litmus *lt, struct ftv_exec *ex, int t,
		      const char *label, int line, struct ftv_err *err)
{
	uint64_t a;

	if (find_label(lt, t, label, &a))
		return ftv_errf(err, "%s:%d: unknown label P%d:%s", lt->path,
				line, t, label);
	/* A label at the very end has no instruction to watch. */
	if (a >= SIM_KERNEL_TEXT_BASE + LT_THREAD_SPAN * (uint64_t)t +
			 4ULL * lt->ninsn[t])
		return 0;
	return exec_watch_insn(ex, a, err);
}

int litmus_run(const struct litmus *lt, uint64_t max_runs, int want_witness,
	       struct litmus_result *res, struct ftv_err *err)
{
	struct exec_config cfg = { .ncpus = (unsigned)lt->nthreads,
				   .policy = EXEC_EXHAUSTIVE, .fine = 1 };
	struct lrun r = { .lt = lt, .res = res, .want_witness = want_witness };
	struct ftv_exec *ex = NULL;
	struct exec_stats st;
	int rc = -1;

	memset(res, 0, sizeof(*res));
	r.as = sim_aspace_new();
	if (!r.as)
		return ftv_errf(err, "out of memory");
	if (build_space(lt, r.as, err))
		goto out;
	for (int i = 0; i < lt->ncond; i++)
		if (resolve_value(lt, &lt->cond[i].v, &r.vals[i], err))
			goto out;
	ex = exec_new(r.as, &cfg, err);
	if (!ex)
		goto out;
	for (int t = 0; t < lt->nthreads; t++) {
		uint64_t base = SIM_KERNEL_TEXT_BASE + LT_THREAD_SPAN * (uint64_t)t;

		if (exec_cpu_setup(ex, (unsigned)t, base,
				   SIM_STACK_BASE + SIM_PAGE * (uint64_t)(t + 1),
				   NULL, 0, base + 4ULL * lt->ninsn[t], err))
			goto out;
	}
	for (int i = 0; i < lt->ninit; i++) {
		const struct linit *in = &lt->init[i];
		uint64_t v;

		if (in->reg < 0)
			continue;
		if (in->thread >= lt->nthreads) {
			ftv_errf(err, "%s:%d: init names thread %d of %d",
				 lt->path, in->v.line, in->thread,
				 lt->nthreads);
			goto out;
		}
		if (resolve_value(lt, &in->v, &v, err))
			goto out;
		exec_cpu_set_reg(ex, (unsigned)in->thread, in->reg, v);
		if (in->v.kind == LV_CODE &&
		    watch_code(lt, ex, in->v.thread, in->v.name, in->v.line, err))
			goto out;
	}
	for (int i = 0; i < lt->ncond; i++)
		if (lt->cond[i].kind == LC_FETCH &&
		    watch_code(lt, ex, lt->cond[i].lthread, lt->cond[i].label,
			       lt->cond[i].v.line, err))
			goto out;
	if (exec_explore(ex, max_runs, 4096, outcome, &r, err))
		goto out;
	{
		size_t nv;
		const struct exec_violation *v = exec_violations(ex, &nv);

		/* A test whose threads can fault (or hang) says nothing
		 * about the fetch model: reject it. */
		for (size_t i = 0; i < nv; i++)
			if (v[i].kind == EXEC_V_FAULT ||
			    v[i].kind == EXEC_V_STUCK) {
				uint64_t off = v[i].addr - SIM_KERNEL_TEXT_BASE;
				unsigned t = (unsigned)(off / LT_THREAD_SPAN);
				unsigned k = (unsigned)(off % LT_THREAD_SPAN) / 4;
				int line = 0;

				if (v[i].kind == EXEC_V_FAULT &&
				    t < (unsigned)lt->nthreads &&
				    k < lt->ninsn[t])
					line = lt->insn[t][k].line;
				ftv_errf(err, "%s:%d: run %llu: %s", lt->path,
					 line, (unsigned long long)v[i].run,
					 v[i].msg);
				goto out;
			}
	}
	exec_get_stats(ex, &st);
	res->runs = st.runs;
	res->complete = st.complete;
	res->allowed = res->witnesses > 0;
	rc = 0;
out:
	exec_free(ex);
	sim_aspace_free(r.as);
	return rc;
}
