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
	       H_TABLE_NULL, H_SITES, H_TEXT, H_FIELDS, NHDR };
static const char *const hdr_names[NHDR] = {
	"source", "kernel", "arch", "addresses", "table-entries",
	"table-null", "sites", "text", "fields",
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

static int parse_text(struct pctx *c, const char *v, size_t n)
{
	const char *sp1 = memchr(v, ' ', n), *sp2;
	uint64_t start, end;
	char *module = NULL, *section = NULL, buf[64];

	sp2 = sp1 ? memchr(sp1 + 1, ' ', v + n - sp1 - 1) : NULL;
	if (!sp2)
		return perr(c, v, -1, "text: expected 'START END MODULE/SECTION'");
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
	sim_layout_add_text(c->l, start, end, module, section);
	free(module);
	free(section);
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
	if (c->seen[k] && k != H_TEXT)
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
	case H_FIELDS:
		if (n != strlen(FIELDS_LINE) || memcmp(v, FIELDS_LINE, n))
			return perr(c, v, -1, "fields: expected '" FIELDS_LINE "'");
		return 0;
	}
	return 0;
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
	return 0;
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
			if (has[i] && !sim_layout_text_at(c->l, s->module,
							  s->section, addr[i]))
				return perr(c, f[fld[i]], fld[i], "%016" PRIx64
					    " is in no text range of %s %s%s%s",
					    addr[i], where, s->module,
					    s->section ? "/" : "",
					    s->section ? s->section : "");
	}
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
	return c.l;
fail:
	free(c.site_line);
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
