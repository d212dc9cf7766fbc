/* herd7's litmus syntax, AArch64 tests (herdtools7 lib/stateParser.mly
 * for the init block and the condition, lib/splitter.ml for the parts):
 *
 *   AArch64 NAME
 *   ["doc string"]
 *   Key=Value                 info lines: CacheType=DIC|IDC|IDC DIC, ...
 *   { init; ... }
 *    P0 | P1 | P0.F ;         the columns: threads and fault handlers
 *    cells | ... ;            one instruction (optionally `label:`) each
 *   [locations [...]]
 *   exists|~exists|forall PROP   (or nothing: forall true)
 *
 * Comments are OCaml's (* ... *). What ftv does not model (page table
 * entries, pointers and arrays in the init block, filters, other info
 * variants) is an error naming the line and the construct. */
#include "litmus/lt_int.h"
#include "util/num.h"
#include "util/str.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HERD_MAX_LINE 1024

struct hfile {
	char **line;            /* comments blanked out, newline stripped */
	int n;
};

static void hfile_free(struct hfile *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->line[i]);
	free(h->line);
}

/* Reads every line, blanking OCaml comments (nested) so that line
 * numbers stay those of the file. */
static int hfile_read(struct hfile *h, FILE *f, const char *path,
		      struct ftv_err *err)
{
	char buf[HERD_MAX_LINE];
	int depth = 0, cap = 0, in_str = 0;

	memset(h, 0, sizeof(*h));
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);

		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n')
			return ftv_errf(err, "%s:%d: line too long", path,
					h->n + 1);
		buf[strcspn(buf, "\r\n")] = 0;
		for (char *p = buf; *p; p++) {
			if (!depth && *p == '"')
				in_str = !in_str;
			if (in_str)
				continue;
			if (p[0] == '(' && p[1] == '*') {
				depth++;
				p[0] = p[1] = ' ';
				p++;
			} else if (depth && p[0] == '*' && p[1] == ')') {
				depth--;
				p[0] = p[1] = ' ';
				p++;
			} else if (depth) {
				*p = ' ';
			}
		}
		in_str = 0;
		if (h->n == cap) {
			char **nl;

			cap = cap ? cap * 2 : 64;
			nl = realloc(h->line, (size_t)cap * sizeof(*nl));
			if (!nl)
				return ftv_errf(err, "out of memory");
			h->line = nl;
		}
		h->line[h->n] = strdup(buf);
		if (!h->line[h->n])
			return ftv_errf(err, "out of memory");
		h->n++;
	}
	if (depth)
		return ftv_errf(err, "%s:%d: unterminated comment", path, h->n);
	return 0;
}

static int blank(const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	return !*s;
}

/* --- header and info lines ------------------------------------------------ */

static int parse_info(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *eq = strchr(s, '='), *key, *val;

	*eq = 0;
	key = ftv_trim(s);
	val = ftv_trim(eq + 1);
	if (!strcmp(key, "CacheType")) {
		for (char *t = strtok(val, " \t,"); t; t = strtok(NULL, " \t,")) {
			/* herd (lib/cacheType.mll): "DIC implies IDC" */
			if (!strcmp(t, "DIC"))
				lt->dic = lt->idc = 1;
			else if (!strcmp(t, "IDC"))
				lt->idc = 1;
			else
				return lt_unsupported(lt, err, "CacheType=%s: ftv models DIC and IDC only", t);
		}
		return 0;
	}
	if (!strcmp(key, "Variant")) {
		for (char *t = strtok(val, " \t,"); t; t = strtok(NULL, " \t,")) {
			/* self: the test modifies its own code (what every
			 * ifetch test of ftv does); fatal: a fault ends the
			 * thread unless it has a handler (ftv's rule);
			 * ifetch: herd's instruction-fetch model (herd7
			 * -variant ifetch, lib/variant.ml), the one ftv
			 * implements, which diy7 writes into the tests it
			 * generates from ifetch relaxations. */
			if (strcmp(t, "self") && strcmp(t, "fatal") &&
			    strcmp(t, "ifetch"))
				return lt_unsupported(lt, err, "Variant=%s: not modelled by ftv", t);
		}
		return 0;
	}
	/* Hash, Stable (litmus7's callee-saved registers), Com, Orig,
	 * Generator, Prefetch, ...: information, no meaning to herd7's
	 * verdict. */
	return 0;
}

/* --- the init block -------------------------------------------------------- */

static unsigned type_size(const char *t)
{
	static const struct { const char *name; unsigned size; } types[] = {
		{ "int", 4 }, { "int32_t", 4 }, { "uint32_t", 4 },
		{ "int64_t", 8 }, { "uint64_t", 8 }, { "intptr_t", 8 },
		{ "uintptr_t", 8 }, { "long", 8 }, { "ins_t", 4 },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].name, t))
			return types[i].size;
	return 0;
}

/* pte_V=(oa:phy_P): the page of V maps to P's memory (herd's vmsa
 * syntax). The identity pte_x=(oa:phy_x) is ftv's flat memory already;
 * an alias of a code label or a location to another location is one
 * word at two names. Other page table entries (attributes, invalid
 * entries, output addresses of other forms) are not modelled. */
static int parse_pte(struct litmus *lt, const char *lhs, char *val,
		     unsigned size, struct ftv_err *err)
{
	char pa[LT_NAME];
	size_t n = strlen(val);
	struct lt_alias *a;

	if (size || strncmp(lhs, "pte_", 4) || !lhs[4] || n < 10 ||
	    strncmp(val, "(oa:phy_", 8) || val[n - 1] != ')' ||
	    n - 9 >= sizeof(pa))
		return lt_unsupported(lt, err, "'%s=%s': page table entries other than (oa:phy_x) are not modelled by ftv",
				lhs, val);
	memcpy(pa, val + 8, n - 9);
	pa[n - 9] = 0;
	for (const char *p = pa; *p; p++)
		if (!lt_is_ident((unsigned char)*p))
			return lt_unsupported(lt, err, "'%s=%s': page table entries other than (oa:phy_x) are not modelled by ftv",
					lhs, val);
	if (!strcmp(pa, lhs + 4))
		return 0;
	if (lt->nalias >= LT_MAX_ITEMS || strlen(lhs + 4) >= LT_NAME)
		return ftv_errf(err, "too many page table entries");
	a = &lt->alias[lt->nalias++];
	snprintf(a->va, sizeof(a->va), "%s", lhs + 4);
	snprintf(a->pa, sizeof(a->pa), "%s", pa);
	a->line = lt->cur_line;
	if (lt_add_loc(lt, pa) < 0)
		return ftv_errf(err, "too many locations");
	return 0;
}

static int parse_init_item(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *eq, *lhs, *sp;
	unsigned size = 0;
	struct lt_init *in;

	s = ftv_trim(s);
	if (!*s)
		return 0;
	eq = strchr(s, '=');
	if (eq)
		*eq = 0;
	if (strchr(s, '&') || strchr(s, '{') ||
	    (strchr(s, '[') && strchr(s, '[') != s) ||
	    (strchr(s, '*') && strchr(s, '*') != strrchr(s, '*')))
		return lt_unsupported(lt, err, "'%s': arrays and pointers to pointers in the init block are not modelled by ftv",
				      ftv_trim(s));
	lhs = ftv_trim(s);
	/* "TYPE loc", "TYPE *loc", "TYPE *T:XN" (herd's stateParser.mly: a
	 * pointer's declaration, e.g. the catalogue's `ins_t *1:X1` for a
	 * register that will hold a code address, `void *1:X9`, `ins_t *z`):
	 * a typed declaration only, the value is 0 unless given. A pointer
	 * is 8 bytes; it means nothing more to the fetch model, where a
	 * register loaded with a code address and branched to (BR, BLR) is
	 * a branch to whatever address the load returned. */
	sp = lhs + strcspn(lhs, " \t*");
	if (*sp) {
		int ptr = 0;

		for (; *sp == ' ' || *sp == '\t' || *sp == '*'; sp++)
			ptr |= *sp == '*';
		sp[-1] = 0;
		size = ptr && (!strcmp(ftv_trim(lhs), "void") ||
			       type_size(ftv_trim(lhs)))
			       ? 8
			       : type_size(ftv_trim(lhs));
		if (!size)
			return lt_unsupported(lt, err, "type '%s' is not modelled by ftv",
					      ftv_trim(lhs));
		lhs = ftv_trim(sp);
	}
	if (lt->ninit >= LT_MAX_ITEMS)
		return ftv_errf(err, "too many init items");
	in = &lt->init[lt->ninit];
	memset(in, 0, sizeof(*in));
	if (strchr(lhs, ':')) {
		if (lt_parse_thread_reg(lt, lhs, &in->thread, &in->reg,
					&in->is32))
			return ftv_errf(err, "bad register '%s' (want T:XN)", lhs);
	} else {
		size_t n = strlen(lhs);
		int li;

		if (lhs[0] == '[' && n > 2 && lhs[n - 1] == ']') {
			lhs[n - 1] = 0;
			lhs = ftv_trim(lhs + 1);
		}
		in->reg = -1;
		snprintf(in->loc, sizeof(in->loc), "%s", lhs);
		li = lt_add_loc(lt, lhs);
		if (li < 0 || !lt_is_ident_start((unsigned char)*lhs))
			return ftv_errf(err, "bad location '%s'", lhs);
		if (size)
			lt->loc_size[li] = size;
	}
	if (!eq)
		/* a declaration: its type only; the value is what another
		 * item gives, else 0 (registers and memory start at 0) */
		return 0;
	if (*ftv_trim(eq + 1) == '(')
		return parse_pte(lt, lhs, ftv_trim(eq + 1), size, err);
	if (lt_parse_value(lt, eq + 1, &in->v, err))
		return -1;
	if (in->reg < 0 && in->v.kind == LV_INSN)
		return lt_unsupported(lt, err, "'%s': instructions as initial values of data locations are not modelled by ftv",
				in->loc);
	lt->ninit++;
	return 0;
}

/* The init block from the line holding '{' to the one holding '}'. */
static int parse_init(struct litmus *lt, struct hfile *h, int *ln,
		      struct ftv_err *err)
{
	char *open = strchr(h->line[*ln], '{');
	char item[512];
	size_t il = 0;
	int done = 0;

	for (char *p = open + 1; !done; p++) {
		if (!*p) {
			if (++*ln >= h->n)
				return ftv_errf(err, "%s:%d: init block not closed",
						lt->path, *ln);
			p = h->line[*ln] - 1;
			if (il + 1 < sizeof(item))
				item[il++] = ' ';
			continue;
		}
		if (*p == ';' || *p == '}') {
			item[il] = 0;
			lt->cur_line = *ln + 1;
			if (parse_init_item(lt, item, err))
				return ftv_err_prefix(err, "%s:%d", lt->path,
						      *ln + 1);
			il = 0;
			if (*p == '}') {
				if (!blank(p + 1))
					return ftv_errf(err, "%s:%d: unexpected '%s' after the init block",
							lt->path, *ln + 1, p + 1);
				done = 1;
			}
			continue;
		}
		if (*p == '"') {
			/* instr:"..." may hold ';' */
			char *e = strchr(p + 1, '"');

			if (!e)
				return ftv_errf(err, "%s:%d: unterminated quote",
						lt->path, *ln + 1);
			if (il + (size_t)(e - p) + 2 > sizeof(item))
				return ftv_errf(err, "%s:%d: init item too long",
						lt->path, *ln + 1);
			while (p <= e)
				item[il++] = *p++;
			p--;
			continue;
		}
		if (il + 1 >= sizeof(item))
			return ftv_errf(err, "%s:%d: init item too long",
					lt->path, *ln + 1);
		item[il++] = *p;
	}
	(*ln)++;
	return 0;
}

/* --- the program ----------------------------------------------------------- */

struct column {
	int thread, handler;
};

/* Splits a row "a | b | c ;" into cells; the trailing ';' is required. */
static int split_row(char *s, char **cell, int max, int *n)
{
	char *end = s + strlen(s);

	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	if (end == s || end[-1] != ';')
		return -1;
	end[-1] = 0;
	*n = 0;
	for (char *p = s;;) {
		char *bar = strchr(p, '|');

		if (*n == max)
			return -1;
		if (bar)
			*bar = 0;
		cell[(*n)++] = ftv_trim(p);
		if (!bar)
			break;
		p = bar + 1;
	}
	return 0;
}

static int parse_columns(struct litmus *lt, char *s, struct column *col,
			 int *ncol, struct ftv_err *err)
{
	char *cell[LT_MAX_THREADS * 2];

	if (split_row(s, cell, LT_MAX_THREADS * 2, ncol))
		return ftv_errf(err, "expected the thread row 'P0 | P1 ... ;'");
	for (int i = 0; i < *ncol; i++) {
		char *c = cell[i], *end;
		long t;

		if (c[0] != 'P' || !isdigit((unsigned char)c[1]))
			return ftv_errf(err, "column '%s': expected Pn or Pn.F", c);
		t = strtol(c + 1, &end, 10);
		if (t < 0 || t >= LT_MAX_THREADS)
			return ftv_errf(err, "column '%s': at most %d threads", c,
					LT_MAX_THREADS);
		col[i].thread = (int)t;
		col[i].handler = 0;
		if (!strcmp(end, ".F"))
			col[i].handler = 1;
		else if (*end)
			return ftv_errf(err, "column '%s': expected Pn or Pn.F", c);
		for (int j = 0; j < i; j++)
			if (col[j].thread == col[i].thread &&
			    col[j].handler == col[i].handler)
				return ftv_errf(err, "column '%s' given twice", c);
		if (col[i].handler)
			lt->handler[t].present = 1;
		else
			lt->code[t].present = 1;
	}
	for (int t = 0; t < LT_MAX_THREADS; t++) {
		if (lt->code[t].present)
			lt->nthreads = t + 1;
		if (lt->handler[t].present && !lt->code[t].present)
			return ftv_errf(err, "P%d.F: a fault handler without its thread P%d",
					t, t);
	}
	for (int t = 0; t < lt->nthreads; t++)
		if (!lt->code[t].present)
			return ftv_errf(err, "threads must be P0, P1, ... without gaps: P%d is missing",
					t);
	return 0;
}

static int parse_cell(struct litmus *lt, const struct column *c, char *s,
		      struct ftv_err *err)
{
	for (;;) {
		char *p = s;

		while (lt_is_ident((unsigned char)*p))
			p++;
		if (p == s || *p != ':' || !lt_is_ident_start((unsigned char)*s))
			break;
		*p = 0;
		if (lt_add_label(lt, c->thread, c->handler, s, err))
			return -1;
		s = ftv_trim(p + 1);
	}
	if (!*s)
		return 0;
	return lt_add_insn(lt, c->thread, c->handler, s, err);
}

static int is_keyword_line(const char *s)
{
	static const char *const kw[] = { "exists", "~exists", "forall",
					  "locations", "filter", "final",
					  "observed", "~", "(" };

	s = ftv_trim((char *)s);
	for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
		if (!strncmp(s, kw[i], strlen(kw[i])))
			return 1;
	return 0;
}

/* --- the condition --------------------------------------------------------- */

/* "locations [a; b; ...": the items up to the ']' the caller cut off. */
static int parse_locations(struct litmus *lt, char *s, struct ftv_err *err)
{
	char *open = strchr(s, '[');

	if (!open)
		return ftv_errf(err, "locations: expected locations [a; b; ...]");
	for (char *t = strtok(open + 1, ";"); t; t = strtok(NULL, ";")) {
		struct lt_obs o;
		char *l = ftv_trim(t);

		if (!*l)
			continue;
		memset(&o, 0, sizeof(o));
		o.vkind = LV_NUM;
		if (strchr(l, ':')) {
			o.kind = LC_REG;
			if (lt_parse_thread_reg(lt, l, &o.thread, &o.reg,
						&o.is32))
				return ftv_errf(err, "locations: bad register '%s'", l);
		} else {
			o.kind = LC_MEM;
			if (lt_add_loc(lt, l) < 0)
				return ftv_errf(err, "locations: bad location '%s'", l);
			snprintf(o.loc, sizeof(o.loc), "%s", l);
		}
		if (lt_add_obs(lt, &o) < 0)
			return ftv_errf(err, "too many observed locations");
	}
	return 0;
}

static int parse_constraint(struct litmus *lt, char *s, int line,
			    struct ftv_err *err)
{
	char *p = ftv_trim(s);

	lt->cur_line = line;
	if (!strncmp(p, "locations", 9)) {
		char *close = strchr(p, ']');

		if (!close)
			return ftv_errf(err, "locations: expected ']'");
		*close = 0;
		if (parse_locations(lt, p, err))
			return -1;
		*close = ']';
		p = ftv_trim(close + 1);
		if (*p == ';')
			p = ftv_trim(p + 1);
	}
	if (!strncmp(p, "filter", 6))
		return lt_unsupported(lt, err, "filter: not modelled by ftv");
	if (strstr(p, " with "))
		return lt_unsupported(lt, err, "'with' kinds in the condition: not modelled by ftv (use --kinds)");
	if (!strncmp(p, "~exists", 7)) {
		lt->quant = LQ_NOT_EXISTS;
		p += 7;
	} else if (!strncmp(p, "exists", 6)) {
		lt->quant = LQ_EXISTS;
		p += 6;
	} else if (!strncmp(p, "forall", 6)) {
		lt->quant = LQ_FORALL;
		p += 6;
	} else if (!strncmp(p, "final", 5)) {
		lt->quant = LQ_EXISTS;
		p += 5;
	} else if (!strncmp(p, "observed", 8)) {
		return lt_unsupported(lt, err, "observed: not modelled by ftv");
	} else if (*p == '(' || *p == '~') {
		lt->quant = LQ_EXISTS;
	} else if (!*p) {
		/* no condition: herd's `forall true` */
		lt->quant = LQ_FORALL;
	} else {
		return ftv_errf(err, "expected exists, ~exists or forall, found '%.30s'", p);
	}
	return lt_parse_prop(lt, p, err);
}

int lt_read_herd(struct litmus *lt, FILE *f, struct ftv_err *err)
{
	struct hfile h;
	struct column col[LT_MAX_THREADS * 2];
	int ncol = 0, ln = 0, rc = -1, cline = 0;
	char cond[2048];
	size_t cl = 0;

	if (hfile_read(&h, f, lt->path, err))
		goto out;
	/* "AArch64 NAME" */
	while (ln < h.n && blank(h.line[ln]))
		ln++;
	{
		char *s = ln < h.n ? ftv_trim(h.line[ln]) : "";
		char *sp = s + strcspn(s, " \t");
		const struct lt_arch *a;

		if (*sp)
			*sp++ = 0;
		a = lt_arch_find(s);
		snprintf(lt->name, sizeof(lt->name), "%s", ftv_trim(sp));
		if (!a || !a->herd_name) {
			lt_unsupported(lt, err, "%s:%d: '%s': ftv reads herd tests for AArch64 only",
				       lt->path, ln + 1, s);
			goto out;
		}
		lt->arch = a;
		if (!lt->name[0] || strpbrk(lt->name, " \t")) {
			ftv_errf(err, "%s:%d: expected 'AArch64 NAME'", lt->path,
				 ln + 1);
			goto out;
		}
		ln++;
	}
	/* doc string, info lines, up to '{' */
	for (; ln < h.n && !strchr(h.line[ln], '{'); ln++) {
		char *s = ftv_trim(h.line[ln]);

		lt->cur_line = ln + 1;
		if (!*s || *s == '"')
			continue;
		if (!strchr(s, '=')) {
			ftv_errf(err, "%s:%d: expected Key=Value or the init block, found '%s'",
				 lt->path, ln + 1, s);
			goto out;
		}
		if (parse_info(lt, s, err)) {
			ftv_err_prefix(err, "%s:%d", lt->path, ln + 1);
			goto out;
		}
	}
	if (ln >= h.n) {
		ftv_errf(err, "%s:%d: no init block '{ ... }'", lt->path, ln);
		goto out;
	}
	if (parse_init(lt, &h, &ln, err))
		goto out;
	/* the column row */
	while (ln < h.n && blank(h.line[ln]))
		ln++;
	if (ln >= h.n) {
		ftv_errf(err, "%s:%d: no program", lt->path, ln);
		goto out;
	}
	lt->cur_line = ln + 1;
	if (parse_columns(lt, h.line[ln], col, &ncol, err)) {
		ftv_err_prefix(err, "%s:%d", lt->path, ln + 1);
		goto out;
	}
	/* rows, up to the condition */
	for (ln++; ln < h.n; ln++) {
		char *cell[LT_MAX_THREADS * 2];
		int n;

		if (blank(h.line[ln]))
			continue;
		if (is_keyword_line(h.line[ln]))
			break;
		lt->cur_line = ln + 1;
		if (split_row(h.line[ln], cell, LT_MAX_THREADS * 2, &n) ||
		    n > ncol) {
			ftv_errf(err, "%s:%d: expected a row of at most %d cells ending in ';'",
				 lt->path, ln + 1, ncol);
			goto out;
		}
		for (int i = 0; i < n; i++)
			if (parse_cell(lt, &col[i], cell[i], err)) {
				ftv_err_prefix(err, "%s:%d", lt->path, ln + 1);
				goto out;
			}
	}
	/* the condition: the rest of the file */
	cline = ln + 1;
	for (; ln < h.n; ln++) {
		size_t len = strlen(h.line[ln]);

		if (cl + len + 2 >= sizeof(cond)) {
			ftv_errf(err, "%s:%d: condition too long", lt->path,
				 ln + 1);
			goto out;
		}
		memcpy(cond + cl, h.line[ln], len);
		cl += len;
		cond[cl++] = ' ';
	}
	cond[cl] = 0;
	if (parse_constraint(lt, cond, cline, err)) {
		ftv_err_prefix(err, "%s:%d", lt->path, cline);
		goto out;
	}
	rc = 0;
out:
	hfile_free(&h);
	return rc;
}
