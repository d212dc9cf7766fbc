/* What both litmus syntaxes share: values, registers, labels, code lines
 * and the condition (a proposition over final registers and locations,
 * with herd's operators: ~ (not), => , /\ , \/ , parentheses, true,
 * false; precedence from highest: ~, =>, /\, \/). */
#include "litmus/lt_int.h"
#include "util/num.h"
#include "util/str.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int lt_is_ident_start(int c)
{
	return isalpha(c) || c == '_' || c == '.';
}

int lt_is_ident(int c)
{
	return isalnum(c) || c == '_' || c == '.';
}

static int is_name(const char *s)
{
	if (!lt_is_ident_start((unsigned char)*s) || strlen(s) >= LT_NAME)
		return 0;
	for (const char *p = s; *p; p++)
		if (!lt_is_ident((unsigned char)*p) && *p != '-')
			return 0;
	return 1;
}

int lt_parse_code_ref(const char *s, int *thread, char *label)
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
	    !lt_is_ident_start((unsigned char)colon[1]) ||
	    strlen(colon + 1) >= LT_NAME)
		return -1;
	for (const char *p = colon + 1; *p; p++)
		if (!lt_is_ident((unsigned char)*p))
			return -1;
	*thread = (int)t;
	strcpy(label, colon + 1);
	return 0;
}

int lt_find_loc(const struct litmus *lt, const char *name)
{
	for (int i = 0; i < lt->nloc; i++)
		if (!strcmp(lt->loc[i], name))
			return i;
	return -1;
}

int lt_unsupported(struct litmus *lt, struct ftv_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftv_verrf(err, fmt, ap);
	va_end(ap);
	lt->unsup = 1;
	return -1;
}

int lt_add_loc(struct litmus *lt, const char *name)
{
	int i = lt_find_loc(lt, name);

	if (i >= 0)
		return i;
	if (lt->nloc >= LT_MAX_ITEMS)
		return -1;
	snprintf(lt->loc[lt->nloc], LT_NAME, "%s", name);
	lt->loc_size[lt->nloc] = 0;
	return lt->nloc++;
}

/* herd: `instr:"B .+12"`, `label:"P1:L"`, and NOP as a value of its own. */
static int herd_insn(char *s, struct lt_val *v, struct ftv_err *err)
{
	char *e;

	if (!strcmp(s, "NOP") || !strcmp(s, "nop")) {
		v->kind = LV_INSN;
		strcpy(v->text, "nop");
		return 1;
	}
	if (!strncmp(s, "label:\"", 7)) {
		/* herd's label:"P1:L" (lib/stateParser.mly): the address of
		 * a code label, what P1:L says unquoted */
		char ref[LT_NAME + 8];

		e = strchr(s + 7, '"');
		if (!e || *ftv_trim(e + 1) || e - (s + 7) >= (long)sizeof(ref)) {
			ftv_errf(err, "bad label value '%s'", s);
			return -1;
		}
		memcpy(ref, s + 7, (size_t)(e - (s + 7)));
		ref[e - (s + 7)] = 0;
		if (lt_parse_code_ref(ref, &v->thread, v->name)) {
			ftv_errf(err, "bad label value '%s' (want label:\"Pn:L\")", s);
			return -1;
		}
		v->kind = LV_CODE;
		return 1;
	}
	if (strncmp(s, "instr:\"", 7))
		return 0;
	e = strchr(s + 7, '"');
	if (!e || *ftv_trim(e + 1) || e - (s + 7) >= LT_TEXT) {
		ftv_errf(err, "bad instruction value '%s'", s);
		return -1;
	}
	v->kind = LV_INSN;
	memcpy(v->text, s + 7, (size_t)(e - (s + 7)));
	v->text[e - (s + 7)] = 0;
	return 1;
}

int lt_parse_value(struct litmus *lt, char *s, struct lt_val *v,
		   struct ftv_err *err)
{
	int64_t sn;
	int r;

	memset(v, 0, sizeof(*v));
	v->line = lt->cur_line;
	s = ftv_trim(s);
	if (lt->syntax == LT_SYNTAX_HERD && (r = herd_insn(s, v, err)))
		return r < 0 ? -1 : 0;
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
		    lt_parse_code_ref(ftv_trim(s + 2), &v->thread, v->name))
			return ftv_errf(err, "expected 'at Pn:label' after the instruction, found '%s'", s);
		v->has_at = 1;
		return 0;
	}
	if (!ftv_parse_u64(s, &v->num)) {
		v->kind = LV_NUM;
		return 0;
	}
	if (!ftv_parse_i64(s, &sn)) {
		v->kind = LV_NUM;
		v->num = (uint64_t)sn;
		return 0;
	}
	if (!lt_parse_code_ref(s, &v->thread, v->name)) {
		v->kind = LV_CODE;
		return 0;
	}
	if (is_name(s)) {
		v->kind = LV_LOC;
		strcpy(v->name, s);
		if (lt_add_loc(lt, s) < 0)
			return ftv_errf(err, "too many locations");
		return 0;
	}
	return ftv_errf(err, "bad value '%s'", s);
}

int lt_parse_thread_reg(const struct litmus *lt, const char *orig,
			int *thread, int *reg, int *is32)
{
	char buf[LT_NAME], *s = buf, *colon;
	uint64_t t;

	if (strlen(orig) >= sizeof(buf))
		return -1;
	strcpy(buf, orig);
	colon = strchr(s, ':');
	if (!colon)
		return -1;
	*colon = 0;
	s = ftv_trim(s);
	/* herd also writes P1:X0 in places */
	if (lt->syntax == LT_SYNTAX_HERD && (*s == 'P' || *s == 'p'))
		s++;
	if (ftv_parse_u64(s, &t) || t >= LT_MAX_THREADS)
		return -1;
	*thread = (int)t;
	return lt->arch->parse_reg(ftv_trim(colon + 1), reg, is32);
}

int lt_add_label(struct litmus *lt, int thread, int handler, const char *name,
		 struct ftv_err *err)
{
	struct lt_label *l;
	struct lt_block *b = handler ? &lt->handler[thread] : &lt->code[thread];

	if (!is_name(name))
		return ftv_errf(err, "bad label '%s'", name);
	for (int i = 0; i < lt->nlabel; i++)
		if (lt->label[i].thread == thread &&
		    !strcmp(lt->label[i].name, name))
			return ftv_errf(err, "label %s defined twice", name);
	if (lt->nlabel >= LT_MAX_ITEMS)
		return ftv_errf(err, "too many labels");
	l = &lt->label[lt->nlabel++];
	l->thread = thread;
	l->handler = handler;
	snprintf(l->name, sizeof(l->name), "%s", name);
	l->index = b->n;
	return 0;
}

int lt_add_insn(struct litmus *lt, int thread, int handler, const char *text,
		struct ftv_err *err)
{
	struct lt_block *b = handler ? &lt->handler[thread] : &lt->code[thread];

	/* One word is kept for the branch that ends the block. */
	if (b->n + 1 >= LT_MAX_INSNS)
		return ftv_errf(err, "thread %d: too many instructions", thread);
	if (strlen(text) >= LT_TEXT)
		return ftv_errf(err, "instruction too long");
	strcpy(b->insn[b->n].text, text);
	b->insn[b->n].line = lt->cur_line;
	b->n++;
	b->present = 1;
	return 0;
}

int lt_add_obs(struct litmus *lt, const struct lt_obs *o)
{
	for (int i = 0; i < lt->nobs; i++) {
		const struct lt_obs *p = &lt->obs[i];

		if (p->kind != o->kind)
			continue;
		if (o->kind == LC_REG && p->thread == o->thread &&
		    p->reg == o->reg) {
			/* W and X of one register: the wider one decides */
			if (!o->is32)
				lt->obs[i].is32 = 0;
			if (o->vkind != LV_NUM)
				lt->obs[i].vkind = o->vkind;
			return i;
		}
		if (o->kind == LC_MEM && !strcmp(p->loc, o->loc)) {
			if (o->vkind != LV_NUM)
				lt->obs[i].vkind = o->vkind;
			return i;
		}
		if (o->kind == LC_FAULT && p->lthread == o->lthread &&
		    !strcmp(p->label, o->label) && !strcmp(p->fault, o->fault))
			return i;
	}
	if (lt->nobs >= LT_MAX_ITEMS)
		return -1;
	lt->obs[lt->nobs] = *o;
	return lt->nobs++;
}

/* --- the proposition -------------------------------------------------- */

struct pcur {
	struct litmus *lt;
	const char *s;
	struct ftv_err *err;
};

static void skip_ws(struct pcur *c)
{
	while (isspace((unsigned char)*c->s))
		c->s++;
}

static int peek(struct pcur *c, const char *tok)
{
	skip_ws(c);
	return !strncmp(c->s, tok, strlen(tok));
}

static int eat(struct pcur *c, const char *tok)
{
	if (!peek(c, tok))
		return 0;
	c->s += strlen(tok);
	return 1;
}

/* A keyword: the word followed by a non-identifier character. */
static int eat_word(struct pcur *c, const char *w)
{
	size_t n = strlen(w);

	skip_ws(c);
	if (strncmp(c->s, w, n) || lt_is_ident((unsigned char)c->s[n]))
		return 0;
	c->s += n;
	return 1;
}

static int new_node(struct pcur *c, enum lt_ckind k)
{
	struct litmus *lt = c->lt;

	if (lt->ncond >= LT_MAX_ITEMS) {
		ftv_errf(c->err, "condition too long");
		return -1;
	}
	memset(&lt->cond[lt->ncond], 0, sizeof(lt->cond[0]));
	lt->cond[lt->ncond].kind = k;
	lt->cond[lt->ncond].line = lt->cur_line;
	return lt->ncond++;
}

static int parse_or(struct pcur *c);

/* The text of one operand: up to a space, an operator or a parenthesis;
 * a quoted instruction is one operand. */
static int take_operand(struct pcur *c, char *buf, size_t n)
{
	const char *st, *p;
	size_t len;

	skip_ws(c);
	st = p = c->s;
	for (;;) {
		if (!*p || *p == ')' || *p == ';' || !strncmp(p, "/\\", 2) ||
		    !strncmp(p, "\\/", 2) || !strncmp(p, "=>", 2))
			break;
		if (*p == '"') {
			const char *e = strchr(p + 1, '"');

			if (!e)
				return ftv_errf(c->err, "unterminated quote in condition");
			p = e + 1;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			/* ftv: insn "..." at Pn:label */
			const char *q = p;

			while (isspace((unsigned char)*q))
				q++;
			if (*q == '"' || (!strncmp(q, "at", 2) &&
					  isspace((unsigned char)q[2]))) {
				p = q;
				if (*q == 'a') {
					p += 2;
					while (isspace((unsigned char)*p))
						p++;
				}
				continue;
			}
			break;
		}
		p++;
	}
	len = (size_t)(p - st);
	while (len && isspace((unsigned char)st[len - 1]))
		len--;
	if (!len)
		return ftv_errf(c->err, "condition: operand expected at '%.20s'", st);
	if (len >= n)
		return ftv_errf(c->err, "condition: operand too long");
	memcpy(buf, st, len);
	buf[len] = 0;
	c->s = p;
	return 0;
}

/* fault(Pn:label) or fault(Pn:label, Kind) */
static int parse_fault(struct pcur *c)
{
	char inner[128], *comma, *close;
	const char *end = strchr(c->s, ')');
	int k;
	struct lt_cond *n;

	if (!eat(c, "(") || !end || (size_t)(end - c->s) >= sizeof(inner)) {
		ftv_errf(c->err, "fault: expected fault(Pn:label[, kind])");
		return -1;
	}
	end = strchr(c->s, ')');
	memcpy(inner, c->s, (size_t)(end - c->s));
	inner[end - c->s] = 0;
	c->s = end + 1;
	k = new_node(c, LC_FAULT);
	if (k < 0)
		return -1;
	n = &c->lt->cond[k];
	comma = strchr(inner, ',');
	close = inner;
	if (comma)
		*comma = 0;
	if (lt_parse_code_ref(ftv_trim(close), &n->lthread, n->label)) {
		lt_unsupported(c->lt, c->err, "fault(%s): ftv models faults at a code label only (Pn:label)",
			       ftv_trim(close));
		return -1;
	}
	n->thread = n->lthread;
	if (comma) {
		char *kind = ftv_trim(comma + 1);

		if (strcmp(kind, "UndefinedInstruction")) {
			lt_unsupported(c->lt, c->err, "fault(..., %s): ftv models only UndefinedInstruction faults",
				       kind);
			return -1;
		}
		snprintf(n->fault, sizeof(n->fault), "%s", kind);
	}
	return k;
}

static int parse_atom(struct pcur *c)
{
	struct litmus *lt = c->lt;
	char lhs[LT_TEXT], rhs[LT_TEXT];
	int k, neg = 0;
	struct lt_cond *n;
	struct lt_obs o;

	if (eat_word(c, "true"))
		return new_node(c, LC_TRUE);
	if (eat_word(c, "false"))
		return new_node(c, LC_FALSE);
	if (eat_word(c, "fault") || eat_word(c, "Fault")) {
		k = parse_fault(c);
		if (k < 0)
			return -1;
		n = &lt->cond[k];
		memset(&o, 0, sizeof(o));
		o.kind = LC_FAULT;
		o.lthread = n->lthread;
		snprintf(o.label, sizeof(o.label), "%s", n->label);
		snprintf(o.fault, sizeof(o.fault), "%s", n->fault);
		if (lt_add_obs(lt, &o) < 0) {
			ftv_errf(c->err, "too many observed locations");
			return -1;
		}
		return k;
	}
	/* the left side: up to '=' or '!=' */
	skip_ws(c);
	{
		const char *p = c->s;
		size_t len;
		int depth = 0;

		/* fetch(Pn:label) holds parentheses of its own */
		while (*p && *p != '=' && *p != '!' && *p != '<' &&
		       !(*p == ')' && !depth) && strncmp(p, "/\\", 2) &&
		       strncmp(p, "\\/", 2)) {
			depth += *p == '(';
			depth -= *p == ')';
			p++;
		}
		len = (size_t)(p - c->s);
		if (*p != '=' && *p != '!' && *p != '<') {
			ftv_errf(c->err, "condition '%.40s': expected LOC=VALUE",
				 c->s);
			return -1;
		}
		if (len >= sizeof(lhs)) {
			ftv_errf(c->err, "condition: location too long");
			return -1;
		}
		memcpy(lhs, c->s, len);
		lhs[len] = 0;
		c->s = p;
	}
	if (eat(c, "==") || eat(c, "="))
		neg = 0;
	else if (eat(c, "!=") || eat(c, "<>"))
		neg = 1;
	if (take_operand(c, rhs, sizeof(rhs)))
		return -1;
	k = new_node(c, LC_REG);
	if (k < 0)
		return -1;
	n = &lt->cond[k];
	memset(&o, 0, sizeof(o));
	{
		char *l = ftv_trim(lhs);
		size_t len = strlen(l);

		if (l[0] == '[' && len > 2 && l[len - 1] == ']') {
			l[len - 1] = 0;
			l = ftv_trim(l + 1);
			n->kind = LC_MEM;
		} else if (strstr(l, ":fetch(")) {
			char *open = strstr(l, ":fetch("), *close;
			uint64_t t;

			n->kind = LC_FETCH;
			*open = 0;
			close = strchr(open + 7, ')');
			if (!close || ftv_parse_u64(ftv_trim(l), &t) ||
			    t >= LT_MAX_THREADS) {
				ftv_errf(c->err, "bad fetch condition");
				return -1;
			}
			n->thread = (int)t;
			*close = 0;
			if (lt_parse_code_ref(ftv_trim(open + 7), &n->lthread,
					      n->label)) {
				ftv_errf(c->err, "fetch() needs Pn:label");
				return -1;
			}
		} else if (strchr(l, ':')) {
			n->kind = LC_REG;
			if (lt_parse_thread_reg(lt, l, &n->thread, &n->reg,
						&n->is32)) {
				ftv_errf(c->err, "bad register '%s' (want T:%sN)",
					 l, lt->syntax == LT_SYNTAX_HERD ? "X" : "x");
				return -1;
			}
		} else if (lt->syntax == LT_SYNTAX_HERD && is_name(l)) {
			n->kind = LC_MEM;
		} else {
			ftv_errf(c->err, "bad location '%s'", l);
			return -1;
		}
		if (n->kind == LC_MEM) {
			if (!is_name(l) || lt_add_loc(lt, l) < 0) {
				ftv_errf(c->err, "bad location '%s'", l);
				return -1;
			}
			snprintf(n->loc, sizeof(n->loc), "%s", l);
		}
	}
	if (lt_parse_value(lt, rhs, &n->v, c->err))
		return -1;
	if (n->kind != LC_FETCH) {
		o.kind = (int)n->kind;
		o.thread = n->thread;
		o.reg = n->reg;
		o.is32 = n->is32;
		snprintf(o.loc, sizeof(o.loc), "%s", n->loc);
		o.vkind = n->v.kind;
		if (lt_add_obs(lt, &o) < 0) {
			ftv_errf(c->err, "too many observed locations");
			return -1;
		}
	}
	if (neg) {
		int nn = new_node(c, LC_NOT);

		if (nn < 0)
			return -1;
		lt->cond[nn].a = k;
		return nn;
	}
	return k;
}

static int parse_unary(struct pcur *c)
{
	int k, a;

	if (eat(c, "~") || eat_word(c, "not")) {
		a = parse_unary(c);
		if (a < 0)
			return -1;
		k = new_node(c, LC_NOT);
		if (k >= 0)
			c->lt->cond[k].a = a;
		return k;
	}
	if (eat(c, "(")) {
		k = parse_or(c);
		if (k < 0)
			return -1;
		if (!eat(c, ")")) {
			ftv_errf(c->err, "condition: ')' expected at '%.20s'", c->s);
			return -1;
		}
		return k;
	}
	return parse_atom(c);
}

static int parse_implies(struct pcur *c)
{
	int a = parse_unary(c), b, na, k;

	if (a < 0 || !eat(c, "=>"))
		return a;
	b = parse_implies(c);
	if (b < 0 || (na = new_node(c, LC_NOT)) < 0 ||
	    (k = new_node(c, LC_OR)) < 0)
		return -1;
	c->lt->cond[na].a = a;
	c->lt->cond[k].a = na;
	c->lt->cond[k].b = b;
	return k;
}

static int parse_binary(struct pcur *c, const char *op, enum lt_ckind kind,
			int (*sub)(struct pcur *))
{
	int a = sub(c);

	while (a >= 0 && eat(c, op)) {
		int b = sub(c), k;

		if (b < 0 || (k = new_node(c, kind)) < 0)
			return -1;
		c->lt->cond[k].a = a;
		c->lt->cond[k].b = b;
		a = k;
	}
	return a;
}

static int parse_and(struct pcur *c)
{
	return parse_binary(c, "/\\", LC_AND, parse_implies);
}

static int parse_or(struct pcur *c)
{
	return parse_binary(c, "\\/", LC_OR, parse_and);
}

int lt_parse_prop(struct litmus *lt, const char *s, struct ftv_err *err)
{
	struct pcur c = { lt, s, err };
	int root;

	if (lt->root >= 0)
		return ftv_errf(err, "only one condition");
	skip_ws(&c);
	if (!*c.s) {
		root = new_node(&c, LC_TRUE);
	} else {
		root = parse_or(&c);
	}
	if (root < 0)
		return -1;
	eat(&c, ";");
	skip_ws(&c);
	if (*c.s)
		return ftv_errf(err, "condition: unexpected '%.30s'", c.s);
	lt->root = root;
	return 0;
}
