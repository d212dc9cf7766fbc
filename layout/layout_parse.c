/* The strict layout parser: every malformed line is an error naming
 * file:line:column and the field at fault; nothing is skipped. */
#include "layout/layout.h"

#include "util/decompress.h"
#include "util/vec.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { F_ENTRY, F_IP, F_FUNC, F_FADDR, F_FSIZE, F_MODULE, F_KIND, F_WORDS, NFIELDS };
static const char *const field_names[NFIELDS] = {
	"entry", "ip", "func", "faddr", "fsize", "module", "kind", "words",
};
#define FIELDS_LINE "entry ip func faddr fsize module kind words"

enum hdr_key { H_SOURCE, H_KERNEL, H_ARCH, H_ADDRESSES, H_TABLE_ENTRIES,
	       H_TABLE_NULL, H_SITES, H_TEXT, H_FIELDS, H_IMAGE, H_MODULE, NHDR };
static const char *const hdr_names[NHDR] = {
	"source", "kernel", "arch", "addresses", "table-entries",
	"table-null", "sites", "text", "fields", "image", "module",
};

struct pctx {
	const char *name;
	size_t lineno;
	const char *line; /* current line, len bytes, no newline */
	size_t len;
	struct ftv_err *err;
	struct sim_layout *l;
	const struct sim_layout_arch *arch; /* from the arch: header */
	bool seen[NHDR];
	int addresses; /* 0 absolute, 1 section-relative, 2 mixed */
	uint64_t sites_expected;
	bool in_sites;
	size_t *site_line; /* the line of each site */
	size_t nsite_line, cap_site_line;
	size_t *text_line, ntext_line, cap_text_line;       /* of each text: */
	size_t *module_line, nmodule_line, cap_module_line; /* and module: */
	const struct sim_layout_module *last_mod; /* the last site's record */
	char *last_mod_name;                      /* (a copy) */
	const struct sim_layout_text *last_text;  /* text_at's last answer */
};

/* "NAME:LINE:COL: field K (NAME): message" (the field part only when the
 * error is about one field). */
static int perr(struct pctx *c, const char *at, int field, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int perr(struct pctx *c, const char *at, int field, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (field >= 0)
		return ftv_errf(c->err, "%s:%zu:%zu: field %d (%s): %s", c->name,
				c->lineno, (size_t)(at - c->line) + 1, field + 1,
				field_names[field], msg);
	return ftv_errf(c->err, "%s:%zu:%zu: %s", c->name, c->lineno,
			(size_t)(at - c->line) + 1, msg);
}

/* A short printable excerpt of a field for messages. */
static const char *excerpt(const char *s, size_t n, char *buf, size_t bn)
{
	size_t k = 0;

	for (size_t i = 0; i < n && k + 4 < bn; i++)
		buf[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	if (n > k)
		buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
	buf[k] = 0;
	return buf;
}

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

/* Lowercase hex of 1..16 digits (exactly 16 when fixed). */
static bool parse_hex(const char *s, size_t n, bool fixed, uint64_t *v)
{
	if (n == 0 || n > 16 || (fixed && n != 16))
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (!is_hex(s[i]))
			return false;
		*v = *v << 4 | (uint64_t)(s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
	}
	return true;
}

static bool parse_dec(const char *s, size_t n, uint64_t *v)
{
	if (n == 0 || n > 19 || (n > 1 && s[0] == '0'))
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return true;
}

/* Names (functions, modules, sections): printable ASCII without spaces or
 * '/', as kallsyms and ELF symbol tables have them. */
static bool valid_name(const char *s, size_t n)
{
	if (n == 0 || n > 511 || s[0] == '#' || s[0] == '-' || s[0] == '?')
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f || s[i] == '/')
			return false;
	return true;
}

bool sim_layout_name_ok(const char *s)
{
	return s && valid_name(s, strlen(s));
}

static char *dupn(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d)
		abort();
	memcpy(d, s, n);
	d[n] = 0;
	return d;
}

/* MODULE or MODULE/SECTION. */
static bool split_where(const char *s, size_t n, char **module, char **section)
{
	const char *slash = memchr(s, '/', n);

	*section = NULL;
	if (!slash) {
		if (!valid_name(s, n))
			return false;
		*module = dupn(s, n);
		return true;
	}
	if (!valid_name(s, slash - s) ||
	    !valid_name(slash + 1, s + n - slash - 1))
		return false;
	*module = dupn(s, slash - s);
	*section = dupn(slash + 1, s + n - slash - 1);
	return true;
}

/* "MEM+OFFSET": where the loader puts a module's section. */
static int parse_place(struct pctx *c, const char *v, size_t n, int *mem,
		       uint64_t *off, const char *what)
{
	const char *plus = memchr(v, '+', n);
	char buf[64];

	*mem = plus ? sim_mod_mem_parse(v, plus - v) : -1;
	if (*mem != SIM_MOD_TEXT && *mem != SIM_MOD_INIT_TEXT)
		return perr(c, v, -1, "%s: '%s' is not text+OFFSET or "
			    "init_text+OFFSET", what, excerpt(v, n, buf, sizeof(buf)));
	if (!parse_hex(plus + 1, v + n - plus - 1, false, off))
		return perr(c, plus + 1, -1, "%s: offset '%s' is not 1-16 hex digits",
			    what, excerpt(plus + 1, v + n - plus - 1, buf, sizeof(buf)));
	return 0;
}

static int parse_text(struct pctx *c, const char *v, size_t n)
{
	const char *sp1 = memchr(v, ' ', n), *sp2, *sp3;
	uint64_t start, end, off = 0;
	char *module = NULL, *section = NULL, buf[64];
	struct sim_layout_text *t;
	int mem = -1;

	sp2 = sp1 ? memchr(sp1 + 1, ' ', v + n - sp1 - 1) : NULL;
	if (!sp2)
		return perr(c, v, -1, "text: expected 'START END MODULE/SECTION "
			    "[MEM+OFFSET]'");
	sp3 = memchr(sp2 + 1, ' ', v + n - sp2 - 1);
	if (sp3 && parse_place(c, sp3 + 1, v + n - sp3 - 1, &mem, &off, "text"))
		return -1;
	if (sp3)
		n = sp3 - v;
	if (!parse_hex(v, sp1 - v, true, &start))
		return perr(c, v, -1, "text: start '%s' is not 16 hex digits",
			    excerpt(v, sp1 - v, buf, sizeof(buf)));
	if (!parse_hex(sp1 + 1, sp2 - sp1 - 1, true, &end))
		return perr(c, sp1 + 1, -1, "text: end '%s' is not 16 hex digits",
			    excerpt(sp1 + 1, sp2 - sp1 - 1, buf, sizeof(buf)));
	if (end <= start)
		return perr(c, sp1 + 1, -1, "text: end %016" PRIx64
			    " is not above start %016" PRIx64, end, start);
	if (!split_where(sp2 + 1, v + n - sp2 - 1, &module, &section) || !section) {
		free(module);
		return perr(c, sp2 + 1, -1, "text: '%s' is not MODULE/SECTION",
			    excerpt(sp2 + 1, v + n - sp2 - 1, buf, sizeof(buf)));
	}
	t = sim_layout_add_text(c->l, start, end, module, section);
	t->mem = mem;
	t->mem_off = off;
	free(module);
	free(section);
	if (VEC_PUSH(c->text_line, c->ntext_line, c->cap_text_line, c->lineno))
		abort(); /* out of host memory */
	return 0;
}

/* "image: START END", the kernel's [_text, _end). */
static int parse_image(struct pctx *c, const char *v, size_t n)
{
	const char *sp = memchr(v, ' ', n);
	char buf[64];

	if (!sp || memchr(sp + 1, ' ', v + n - sp - 1))
		return perr(c, v, -1, "image: expected 'START END' (_text and _end)");
	if (!parse_hex(v, sp - v, true, &c->l->image_start))
		return perr(c, v, -1, "image: start '%s' is not 16 hex digits",
			    excerpt(v, sp - v, buf, sizeof(buf)));
	if (!parse_hex(sp + 1, v + n - sp - 1, true, &c->l->image_end))
		return perr(c, sp + 1, -1, "image: end '%s' is not 16 hex digits",
			    excerpt(sp + 1, v + n - sp - 1, buf, sizeof(buf)));
	if (c->l->image_end <= c->l->image_start)
		return perr(c, sp + 1, -1, "image: end %016" PRIx64 " is not above "
			    "start %016" PRIx64, c->l->image_end, c->l->image_start);
	c->l->has_image = true;
	return 0;
}

/* "module: NAME MEM PLT": MEM is '-' or the seven memory sizes joined by
 * ','; PLT is '-', text+OFFSET or an address. */
static int parse_module(struct pctx *c, const char *v, size_t n)
{
	const char *f[3], *end = v + n, *p = v;
	size_t fl[3];
	struct sim_layout_module m = { 0 };
	char buf[64], *name;
	int nf = 0;

	while (nf < 3) {
		const char *sp = memchr(p, ' ', end - p);

		f[nf] = p;
		fl[nf++] = (sp ? sp : end) - p;
		if (!sp)
			break;
		p = sp + 1;
	}
	if (nf != 3 || f[2] + fl[2] != end)
		return perr(c, v, -1, "module: expected 'NAME MEM PLT'");
	if (!valid_name(f[0], fl[0]) || (fl[0] == 7 && !memcmp(f[0], "vmlinux", 7)))
		return perr(c, f[0], -1, "module: '%s' is not a module name",
			    excerpt(f[0], fl[0], buf, sizeof(buf)));
	name = dupn(f[0], fl[0]);
	for (size_t i = 0; i < c->l->nmodules; i++)
		if (!strcmp(c->l->modules[i].name, name)) {
			free(name);
			return perr(c, f[0], -1, "module: %s is already described "
				    "on line %zu", c->l->modules[i].name,
				    c->module_line[i]);
		}
	m.has_mem = !(fl[1] == 1 && f[1][0] == '-');
	for (int k = 0, at = 0; m.has_mem && k < SIM_MOD_NMEM; k++) {
		const char *q = f[1] + at, *e = f[1] + fl[1];
		const char *comma = memchr(q, ',', e - q);
		const char *qe = comma ? comma : e;

		if ((k < SIM_MOD_NMEM - 1 && !comma) ||
		    (k == SIM_MOD_NMEM - 1 && comma) ||
		    !parse_hex(q, qe - q, false, &m.mem[k])) {
			free(name);
			return perr(c, q, -1, "module: memory sizes '%s' are not '-' "
				    "or seven hex sizes joined by ',' (text,data,"
				    "rodata,ro_after_init,init_text,init_data,"
				    "init_rodata)", excerpt(f[1], fl[1], buf, sizeof(buf)));
		}
		at = (int)(qe - f[1]) + 1;
	}
	if (fl[2] == 1 && f[2][0] == '-') {
		m.plt_kind = SIM_PLT_UNKNOWN;
	} else if (fl[2] == 16 && parse_hex(f[2], 16, true, &m.plt)) {
		m.plt_kind = SIM_PLT_ADDR;
	} else {
		int mem;

		if (parse_place(c, f[2], fl[2], &mem, &m.plt, "module: PLT")) {
			free(name);
			return -1;
		}
		if (mem != SIM_MOD_TEXT) {
			free(name);
			return perr(c, f[2], -1, "module: the ftrace PLT lives in the "
				    "module's text (text+OFFSET), not in %s",
				    sim_mod_mem_name(mem));
		}
		m.plt_kind = SIM_PLT_OFFSET;
	}
	if (m.plt_kind != SIM_PLT_UNKNOWN && (m.plt & 3)) {
		free(name);
		return perr(c, f[2], -1, "module: the ftrace PLT at %s is not "
			    "4-byte aligned", excerpt(f[2], fl[2], buf, sizeof(buf)));
	}
	if (m.plt_kind == SIM_PLT_OFFSET && !m.has_mem) {
		free(name);
		return perr(c, f[2], -1, "module: a PLT offset needs the module's "
			    "memory sizes (a module read from its file)");
	}
	if (m.plt_kind == SIM_PLT_ADDR && m.has_mem) {
		free(name);
		return perr(c, f[2], -1, "module: a PLT address belongs to a loaded "
			    "module, whose memory sizes are '-'");
	}
	m.name = name;
	sim_layout_add_module(c->l, &m);
	free(name);
	if (VEC_PUSH(c->module_line, c->nmodule_line, c->cap_module_line, c->lineno))
		abort(); /* out of host memory */
	return 0;
}

static int parse_header(struct pctx *c)
{
	const char *colon, *v;
	size_t klen, n;
	char buf[64], *s;
	int k;

	if (c->len < 3 || c->line[1] != ' ')
		return perr(c, c->line, -1, "header lines are '# KEY: VALUE'");
	colon = memchr(c->line + 2, ':', c->len - 2);
	if (!colon || colon + 1 >= c->line + c->len || colon[1] != ' ' ||
	    colon + 2 == c->line + c->len)
		return perr(c, c->line + 2, -1, "header lines are '# KEY: VALUE'");
	klen = colon - (c->line + 2);
	for (k = 0; k < NHDR; k++)
		if (strlen(hdr_names[k]) == klen &&
		    !memcmp(hdr_names[k], c->line + 2, klen))
			break;
	if (k == NHDR)
		return perr(c, c->line + 2, -1, "unknown header key '%s'",
			    excerpt(c->line + 2, klen, buf, sizeof(buf)));
	if (c->seen[k] && k != H_TEXT && k != H_MODULE)
		return perr(c, c->line + 2, -1, "header key '%s' repeated",
			    hdr_names[k]);
	c->seen[k] = true;
	v = colon + 2;
	n = c->line + c->len - v;
	if (v[0] == ' ' || v[n - 1] == ' ')
		return perr(c, v, -1, "%s: stray space", hdr_names[k]);

	switch (k) {
	case H_SOURCE:
	case H_KERNEL:
	case H_ARCH:
		if (k == H_KERNEL && memchr(v, ' ', n))
			return perr(c, v, -1, "kernel: a release has no spaces");
		s = dupn(v, n);
		if (k == H_ARCH && !(c->arch = sim_layout_arch_named(s))) {
			char names[64];

			free(s);
			return perr(c, v, -1, "arch: '%s' is not %s",
				    excerpt(v, n, buf, sizeof(buf)),
				    sim_layout_arch_names(names, sizeof(names)));
		}
		sim_layout_set(c->l, k == H_SOURCE ? &c->l->source :
			       k == H_KERNEL ? &c->l->kernel : &c->l->arch, s);
		free(s);
		return 0;
	case H_ADDRESSES:
		if (n == 8 && !memcmp(v, "absolute", 8))
			c->addresses = 0;
		else if (n == 16 && !memcmp(v, "section-relative", 16))
			c->addresses = 1;
		else if (n == 5 && !memcmp(v, "mixed", 5))
			c->addresses = 2;
		else
			return perr(c, v, -1, "addresses: '%s' is not absolute, "
				    "section-relative or mixed",
				    excerpt(v, n, buf, sizeof(buf)));
		return 0;
	case H_TABLE_ENTRIES:
	case H_TABLE_NULL: {
		uint64_t x;

		if (n == 1 && v[0] == '-')
			return 0;
		if (!parse_dec(v, n, &x))
			return perr(c, v, -1, "%s: '%s' is not a decimal count or '-'",
				    hdr_names[k], excerpt(v, n, buf, sizeof(buf)));
		c->l->has_table = true;
		if (k == H_TABLE_ENTRIES)
			c->l->table_entries = x;
		else
			c->l->table_null = x;
		return 0;
	}
	case H_SITES:
		if (!parse_dec(v, n, &c->sites_expected))
			return perr(c, v, -1, "sites: '%s' is not a decimal count",
				    excerpt(v, n, buf, sizeof(buf)));
		return 0;
	case H_TEXT:
		return parse_text(c, v, n);
	case H_IMAGE:
		return parse_image(c, v, n);
	case H_MODULE:
		return parse_module(c, v, n);
	case H_FIELDS:
		if (n != strlen(FIELDS_LINE) || memcmp(v, FIELDS_LINE, n))
			return perr(c, v, -1, "fields: expected '" FIELDS_LINE "'");
		return 0;
	}
	return 0;
}

/* An error about an earlier header line (checked once the header is
 * complete): "NAME:LINE:1: what". */
static int herr(struct pctx *c, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int herr(struct pctx *c, size_t line, const char *fmt, ...)
{
	char msg[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ftv_errf(c->err, "%s:%zu:1: %s", c->name, line, msg);
}

/* A piece of a module's memory: a placed text range or the ftrace PLT. */
struct piece {
	const char *module; /* interned */
	int mem;
	uint64_t lo, hi;
	size_t line;
	const char *what; /* the header key of that line */
};

static int piece_cmp(const void *pa, const void *pb)
{
	const struct piece *a = pa, *b = pb;

	if (a->module != b->module)
		return a->module < b->module ? -1 : 1;
	if (a->mem != b->mem)
		return a->mem < b->mem ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

static size_t module_index(const struct pctx *c, const struct sim_layout_module *m)
{
	return (size_t)(m - c->l->modules);
}

/* What ties the module records and the placed text ranges together: a
 * module read from its file has every text range placed inside its
 * memories and its PLT in its text, with no two pieces overlapping; the
 * other modules have no placed text. */
static int check_modules(struct pctx *c)
{
	const struct sim_layout *l = c->l;
	struct piece *v = calloc(l->ntexts + l->nmodules + 1, sizeof(*v));
	size_t n = 0;
	int rc = -1;

	if (!v)
		abort(); /* out of host memory */
	for (size_t i = 0; i < l->nmodules; i++) {
		const struct sim_layout_module *m = &l->modules[i];

		if (m->plt_kind != SIM_PLT_OFFSET)
			continue;
		if (m->plt + c->arch->ftrace_plt_size > m->mem[SIM_MOD_TEXT] ||
		    m->plt + c->arch->ftrace_plt_size < m->plt) {
			herr(c, c->module_line[i], "module: %s's ftrace PLT at text+%"
			     PRIx64 " (%" PRIu64 " bytes) lies beyond its text "
			     "(size %" PRIx64 ")", m->name, m->plt,
			     c->arch->ftrace_plt_size, m->mem[SIM_MOD_TEXT]);
			goto out;
		}
		v[n++] = (struct piece){ m->name, SIM_MOD_TEXT, m->plt,
					 m->plt + c->arch->ftrace_plt_size,
					 c->module_line[i], "module" };
	}
	for (size_t i = 0; i < l->ntexts; i++) {
		const struct sim_layout_text *t = &l->texts[i];
		const struct sim_layout_module *m = sim_layout_module_named(l, t->module);
		uint64_t lo = t->mem_off + t->start, hi = t->mem_off + t->end;

		if (t->mem < 0) {
			if (m && m->has_mem) {
				herr(c, c->text_line[i], "text: %s/%s lacks its place in "
				     "the module (text+OFFSET or init_text+OFFSET): "
				     "module %s was read from its file (line %zu)",
				     t->module, t->section, t->module,
				     c->module_line[module_index(c, m)]);
				goto out;
			}
			continue;
		}
		if (!m || !m->has_mem) {
			herr(c, c->text_line[i], "text: %s/%s is placed in %s, but no "
			     "'module:' line gives the memory sizes of %s",
			     t->module, t->section, sim_mod_mem_name(t->mem), t->module);
			goto out;
		}
		if (lo < t->mem_off || hi < lo || hi > m->mem[t->mem]) {
			herr(c, c->text_line[i], "text: %s/%s at %s+%" PRIx64 " ends at "
			     "%s+%" PRIx64 ", beyond the module's %s (size %" PRIx64
			     ", line %zu)", t->module, t->section,
			     sim_mod_mem_name(t->mem), lo, sim_mod_mem_name(t->mem),
			     hi, sim_mod_mem_name(t->mem), m->mem[t->mem],
			     c->module_line[module_index(c, m)]);
			goto out;
		}
		v[n++] = (struct piece){ m->name, t->mem, lo, hi, c->text_line[i],
					 "text" };
	}
	if (n)
		qsort(v, n, sizeof(*v), piece_cmp);
	for (size_t i = 1; i < n; i++)
		if (v[i].module == v[i - 1].module && v[i].mem == v[i - 1].mem &&
		    v[i].lo < v[i - 1].hi) {
			size_t a = v[i].line > v[i - 1].line ? i : i - 1;
			size_t b = a == i ? i - 1 : i;

			herr(c, v[a].line, "%s: [%s+%" PRIx64 ", %s+%" PRIx64 ") of "
			     "module %s overlaps what line %zu places there",
			     v[a].what, sim_mod_mem_name(v[a].mem), v[a].lo,
			     sim_mod_mem_name(v[a].mem), v[a].hi, v[a].module,
			     v[b].line);
			goto out;
		}
	rc = 0;
out:
	free(v);
	return rc;
}

/* Checks the header once, before the first site or at the end. */
static int header_complete(struct pctx *c)
{
	static const int required[] = { H_SOURCE, H_KERNEL, H_ARCH, H_ADDRESSES,
					H_TABLE_ENTRIES, H_TABLE_NULL, H_SITES,
					H_FIELDS };

	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!c->seen[required[i]])
			return perr(c, c->line, -1, "header lacks '%s:'",
				    hdr_names[required[i]]);
	if (c->l->has_table && c->l->table_null > c->l->table_entries)
		return perr(c, c->line, -1, "header: table-null %" PRIu64
			    " exceeds table-entries %" PRIu64,
			    c->l->table_null, c->l->table_entries);
	return check_modules(c);
}

static int parse_words(struct pctx *c, const char *s, size_t n,
		       struct sim_layout_site *site)
{
	char buf[64];

	site->nwords = 0;
	if (n == 1 && s[0] == '-')
		return 0;
	for (size_t i = 0; i < n;) {
		uint64_t w;

		if (site->nwords == SIM_LAYOUT_MAX_WORDS)
			return perr(c, s + i, F_WORDS, "more than %d words",
				    SIM_LAYOUT_MAX_WORDS);
		if (i + 8 > n || !parse_hex(s + i, 8, false, &w) ||
		    (i + 8 < n && s[i + 8] != ':'))
			return perr(c, s + i, F_WORDS, "'%s' is not ':'-separated "
				    "8-digit hex words or '-'",
				    excerpt(s + i, n - i, buf, sizeof(buf)));
		site->words[site->nwords++] = (uint32_t)w;
		i += 9;
		if (i == n)
			return perr(c, s + i - 1, F_WORDS, "trailing ':'");
	}
	return 0;
}

/* sim_layout_text_at(), remembering the last answer: sites come sorted,
 * so most lie in the range the previous one did (a layout with its
 * modules has thousands of ranges). */
static bool text_at(struct pctx *c, const struct sim_layout_site *s,
		    uint64_t addr)
{
	const struct sim_layout_text *t = c->last_text;

	if (t && addr >= t->start && addr < t->end && !strcmp(t->module, s->module) &&
	    (!s->section || (t->section && !strcmp(t->section, s->section))))
		return true;
	t = sim_layout_text_at(c->l, s->module, s->section, addr);
	if (t)
		c->last_text = t;
	return t != NULL;
}

/* Checks that hold between fields: the kind's geometry, the words, the
 * function and the captured text. */
static int check_site(struct pctx *c, const char *const *f,
		      const struct sim_layout_site *s)
{
	const char *where = s->section ? "section" : "module";

	if (s->func && s->has_fsize && s->has_ip &&
	    (s->ip < s->faddr || s->ip - s->faddr >= s->fsize))
		return perr(c, f[F_IP], F_IP, "%016" PRIx64 " is outside %s "
			    "(%016" PRIx64 "+%" PRIx64 ")", s->ip, s->func,
			    s->faddr, s->fsize);
	if (sim_layout_kind_is_callops(s->kind)) {
		if (!s->has_entry || !s->has_ip || !s->func)
			return perr(c, f[F_KIND], F_KIND, "a callops site needs "
				    "entry, ip and func");
		if (s->entry + 8 != s->faddr || (s->entry & 7))
			return perr(c, f[F_ENTRY], F_ENTRY, "a callops literal sits "
				    "8-byte aligned at faddr-8 (%016" PRIx64 ")",
				    s->faddr - 8);
	}
	if (s->has_entry && s->nwords >= 1) {
		uint64_t ip;
		bool has_ip;
		enum sim_layout_kind k = c->arch->classify(
			s->entry, s->func != NULL, s->faddr, s->words,
			s->nwords, &ip, &has_ip);

		if (k != s->kind)
			return perr(c, f[F_KIND], F_KIND, "the words say %s, not %s",
				    sim_layout_kind_name(k),
				    sim_layout_kind_name(s->kind));
		if (has_ip != s->has_ip || (has_ip && ip != s->ip))
			return perr(c, f[F_IP], F_IP, "ftrace patches %s for "
				    "this layout", has_ip ? "another address" :
				    "nothing ('-')");
	}
	if (c->l->ntexts) {
		const uint64_t addr[3] = { s->entry, s->ip, s->faddr };
		const bool has[3] = { s->has_entry, s->has_ip, s->func != NULL };
		const int fld[3] = { F_ENTRY, F_IP, F_FADDR };

		for (int i = 0; i < 3; i++)
			if (has[i] && !text_at(c, s, addr[i]))
				return perr(c, f[fld[i]], fld[i], "%016" PRIx64
					    " is in no text range of %s %s%s%s",
					    addr[i], where, s->module,
					    s->section ? "/" : "",
					    s->section ? s->section : "");
	}
	return 0;
}

/* A module read from its file has section-relative sites, a loaded one
 * addresses. Sites come sorted by module: the last record is kept. */
static int check_site_module(struct pctx *c, const char *at,
			     const char *module, const char *section)
{
	const struct sim_layout_module *m;

	if (!c->last_mod_name || strcmp(c->last_mod_name, module)) {
		free(c->last_mod_name);
		c->last_mod_name = strdup(module);
		if (!c->last_mod_name)
			abort(); /* out of host memory */
		c->last_mod = sim_layout_module_named(c->l, module);
	}
	m = c->last_mod;
	if (!m)
		return 0;
	if (m->has_mem && !section)
		return perr(c, at, F_MODULE, "module %s was read from its file "
			    "(line %zu): its sites are MODULE/SECTION offsets",
			    m->name, c->module_line[module_index(c, m)]);
	if (!m->has_mem && m->plt_kind == SIM_PLT_ADDR && section)
		return perr(c, at, F_MODULE, "module %s was loaded (line %zu): its "
			    "sites have addresses, not sections", m->name,
			    c->module_line[module_index(c, m)]);
	return 0;
}

static int parse_site(struct pctx *c)
{
	const char *f[NFIELDS + 1];
	size_t fl[NFIELDS];
	struct sim_layout_site s = { 0 };
	char *module = NULL, *section = NULL, *func = NULL, buf[64];
	int nf = 0, rc = -1, kind;
	const char *p = c->line, *end = c->line + c->len;

	/* Split on single spaces. */
	while (1) {
		const char *sp = memchr(p, ' ', end - p);
		const char *e = sp ? sp : end;

		if (nf == NFIELDS)
			return perr(c, p, -1, "more than %d fields", NFIELDS);
		if (e == p)
			return perr(c, p, nf, "empty (fields are separated by "
				    "one space)");
		f[nf] = p;
		fl[nf++] = e - p;
		if (!sp)
			break;
		p = sp + 1;
	}
	if (nf < NFIELDS)
		return perr(c, end, nf, "missing (a site line has %d fields, "
			    "this one %d)", NFIELDS, nf);

	s.has_entry = !(fl[F_ENTRY] == 1 && f[F_ENTRY][0] == '-');
	if (s.has_entry && !parse_hex(f[F_ENTRY], fl[F_ENTRY], true, &s.entry))
		return perr(c, f[F_ENTRY], F_ENTRY, "'%s' is not 16 hex digits or '-'",
			    excerpt(f[F_ENTRY], fl[F_ENTRY], buf, sizeof(buf)));
	s.has_ip = !(fl[F_IP] == 1 && f[F_IP][0] == '-');
	if (s.has_ip && !parse_hex(f[F_IP], fl[F_IP], true, &s.ip))
		return perr(c, f[F_IP], F_IP, "'%s' is not 16 hex digits or '-'",
			    excerpt(f[F_IP], fl[F_IP], buf, sizeof(buf)));
	if (!s.has_entry && !s.has_ip)
		return perr(c, f[F_IP], F_IP, "entry and ip are both '-'");

	if (!(fl[F_FUNC] == 1 && f[F_FUNC][0] == '?')) {
		if (!valid_name(f[F_FUNC], fl[F_FUNC]))
			return perr(c, f[F_FUNC], F_FUNC, "'%s' is not a symbol "
				    "name or '?'", excerpt(f[F_FUNC], fl[F_FUNC],
							   buf, sizeof(buf)));
		if (!parse_hex(f[F_FADDR], fl[F_FADDR], true, &s.faddr))
			return perr(c, f[F_FADDR], F_FADDR, "'%s' is not 16 hex "
				    "digits", excerpt(f[F_FADDR], fl[F_FADDR],
						      buf, sizeof(buf)));
		func = dupn(f[F_FUNC], fl[F_FUNC]);
	} else if (!(fl[F_FADDR] == 1 && f[F_FADDR][0] == '-')) {
		return perr(c, f[F_FADDR], F_FADDR, "must be '-' when func is '?'");
	}
	s.has_fsize = !(fl[F_FSIZE] == 1 && f[F_FSIZE][0] == '-');
	if (s.has_fsize && (!func || !parse_hex(f[F_FSIZE], fl[F_FSIZE], false,
						&s.fsize) || !s.fsize)) {
		rc = perr(c, f[F_FSIZE], F_FSIZE, "'%s' is not a non-zero hex size%s",
			  excerpt(f[F_FSIZE], fl[F_FSIZE], buf, sizeof(buf)),
			  func ? " or '-'" : " ('-' when func is '?')");
		goto out;
	}
	if (!split_where(f[F_MODULE], fl[F_MODULE], &module, &section)) {
		rc = perr(c, f[F_MODULE], F_MODULE, "'%s' is not MODULE or "
			  "MODULE/SECTION", excerpt(f[F_MODULE], fl[F_MODULE],
						    buf, sizeof(buf)));
		goto out;
	}
	if ((c->addresses == 0 && section) || (c->addresses == 1 && !section)) {
		rc = perr(c, f[F_MODULE], F_MODULE, "%s with 'addresses: %s'",
			  section ? "a section" : "no section",
			  c->addresses ? "section-relative" : "absolute");
		goto out;
	}
	if (check_site_module(c, f[F_MODULE], module, section)) {
		rc = -1;
		goto out;
	}
	kind = sim_layout_kind_parse(f[F_KIND], fl[F_KIND]);
	if (kind < 0) {
		rc = perr(c, f[F_KIND], F_KIND, "'%s' is not one of callops, "
			  "callops-bti, callops-pac, args, mcount, unknown",
			  excerpt(f[F_KIND], fl[F_KIND], buf, sizeof(buf)));
		goto out;
	}
	s.kind = kind;
	if (parse_words(c, f[F_WORDS], fl[F_WORDS], &s))
		goto out;
	s.func = func;
	s.module = module;
	s.section = section;
	if (check_site(c, f, &s))
		goto out;
	sim_layout_add_site(c->l, &s);
	if (VEC_PUSH(c->site_line, c->nsite_line, c->cap_site_line, c->lineno))
		abort(); /* out of host memory */
	rc = 0;
out:
	free(func);
	free(module);
	free(section);
	return rc;
}

static int parse_line(struct pctx *c)
{
	for (size_t i = 0; i < c->len; i++)
		if ((unsigned char)c->line[i] < 0x20 || c->line[i] == 0x7f)
			return perr(c, c->line + i, -1, "control character 0x%02x",
				    (unsigned char)c->line[i]);
	if (c->lineno == 1) {
		uint64_t v;

		if (c->len < 13 || memcmp(c->line, "# ftv-layout ", 13))
			return perr(c, c->line, -1, "not an ftv layout (the first "
				    "line is '# ftv-layout %d')", SIM_LAYOUT_VERSION);
		if (!parse_dec(c->line + 13, c->len - 13, &v) ||
		    v != SIM_LAYOUT_VERSION)
			return perr(c, c->line + 13, -1, "format version '%.*s' is "
				    "not %d", (int)(c->len - 13 > 20 ? 20 : c->len - 13),
				    c->line + 13, SIM_LAYOUT_VERSION);
		return 0;
	}
	if (c->len == 0)
		return perr(c, c->line, -1, "empty line");
	if (c->line[0] == '#') {
		if (c->in_sites)
			return perr(c, c->line, -1, "header line after the first site");
		return parse_header(c);
	}
	if (!c->in_sites) {
		if (header_complete(c))
			return -1;
		c->in_sites = true;
	}
	return parse_site(c);
}

/* No two sites may patch the same word (sim_layout_overlap): the error
 * names the later line and the earlier one. */
static int check_overlaps(struct pctx *c)
{
	const struct sim_layout *l = c->l;
	const struct sim_layout_site *s, *o;
	uint64_t lo, hi, at;
	size_t i, j;
	int field;
	bool dup;

	if (!sim_layout_overlap(l, 0, l->nsites, &i, &j))
		return 0;
	s = &l->sites[j];
	o = &l->sites[i];
	field = s->has_entry ? F_ENTRY : F_IP;
	at = s->has_entry ? s->entry : s->ip;
	dup = s->has_entry == o->has_entry && s->has_ip == o->has_ip &&
	      (!s->has_entry || s->entry == o->entry) &&
	      (!s->has_ip || s->ip == o->ip);
	if (dup)
		return ftv_errf(c->err, "%s:%zu:%d: field %d (%s): %016" PRIx64
				" duplicates the site on line %zu", c->name,
				c->site_line[j], field == F_ENTRY ? 1 : 3,
				field + 1, field_names[field], at,
				c->site_line[i]);
	sim_layout_site_words(o, &lo, &hi);
	return ftv_errf(c->err, "%s:%zu:%d: field %d (%s): %016" PRIx64
			" overlaps the words [%016" PRIx64 ", %016" PRIx64
			") that the site of %s on line %zu patches", c->name,
			c->site_line[j], field == F_ENTRY ? 1 : 3, field + 1,
			field_names[field], at, lo, hi, o->func ? o->func : "?",
			c->site_line[i]);
}

struct sim_layout *sim_layout_parse(const char *buf, size_t len,
				    const char *name, struct ftv_err *err)
{
	struct pctx c = { .name = name, .err = err, .l = sim_layout_new() };
	const char *p = buf, *end = buf + len;

	if (len == 0) {
		ftv_errf(err, "%s:1:1: empty file (not an ftv layout)", name);
		goto fail;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);

		c.lineno++;
		c.line = p;
		c.len = (nl ? nl : end) - p;
		if (!nl) {
			perr(&c, end, -1, "last line lacks its newline");
			goto fail;
		}
		if (parse_line(&c))
			goto fail;
		p = nl + 1;
	}
	c.lineno++;
	c.line = end;
	if (!c.in_sites && header_complete(&c))
		goto fail;
	if (check_overlaps(&c))
		goto fail;
	if (c.sites_expected != c.l->nsites) {
		ftv_errf(err, "%s:%zu:1: header says 'sites: %" PRIu64 "' but the "
			 "file has %zu site lines", name, c.lineno,
			 c.sites_expected, c.l->nsites);
		goto fail;
	}
	if (c.l->has_table && c.l->nsites > c.l->table_entries) {
		ftv_errf(err, "%s:%zu:1: %zu sites but the table has only %" PRIu64
			 " entries", name, c.lineno, c.l->nsites,
			 c.l->table_entries);
		goto fail;
	}
	free(c.site_line);
	free(c.text_line);
	free(c.module_line);
	free(c.last_mod_name);
	return c.l;
fail:
	free(c.site_line);
	free(c.text_line);
	free(c.module_line);
	free(c.last_mod_name);
	sim_layout_free(c.l);
	return NULL;
}

struct sim_layout *sim_layout_load(const char *path, struct ftv_err *err)
{
	uint8_t *text;
	size_t len;
	struct sim_layout *l;

	if (ftv_read_file(path, SIM_LAYOUT_MAX_SIZE, &text, &len, err))
		return NULL;
	l = sim_layout_parse((const char *)text, len, path, err);
	free(text);
	return l;
}
