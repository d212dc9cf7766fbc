/* The callsites of a live system, from two files it exports:
 *   /sys/kernel/tracing/available_filter_functions_addrs: "IP FUNC [MOD]",
 *     IP being rec->ip, the word ftrace patches (kernel/trace/ftrace.c);
 *   /proc/kallsyms: "ADDR TYPE NAME[\t[MOD]]", where a function's size is
 *     the distance to the next symbol of the same module.
 * Memory is not read, so the words are unknown ("-"). With CALL_OPS the
 * kind and the entry follow from where ip sits in the function, by the
 * architecture's rule (its layout table's live_kind). */
#include "layout/capture.h"
#include "util/vec.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ksym {
	uint64_t addr, size;
	char type;
	bool has_size;
	char *name, *module; /* module NULL for vmlinux */
};

struct ksyms {
	struct ksym *v;
	size_t n, cap;
};

static void ksyms_free(struct ksyms *k)
{
	for (size_t i = 0; i < k->n; i++) {
		free(k->v[i].name);
		free(k->v[i].module);
	}
	free(k->v);
}

static bool hexval(const char *s, size_t n, uint64_t *v)
{
	if (n == 0 || n > 16)
		return false;
	*v = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return false;
		*v = *v << 4 | (uint64_t)d;
	}
	return true;
}

static bool name_ok(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (s[i] <= 0x20 || s[i] >= 0x7f || s[i] == '/' || s[i] == '[' ||
		    s[i] == ']')
			return false;
	return true;
}

/* "[MOD]" after a space or tab, or nothing; returns 0/-1. */
static int parse_mod(const char *p, const char *end, char **mod)
{
	*mod = NULL;
	if (p == end)
		return 0;
	if ((*p != ' ' && *p != '\t') || end - p < 4 || p[1] != '[' ||
	    end[-1] != ']' || !name_ok(p + 2, end - p - 3))
		return -1;
	*mod = strndup(p + 2, end - p - 3);
	return 0;
}

struct lines {
	FILE *f;
	char *buf;
	size_t cap, lineno;
	const char *path;
};

/* The next line without its newline, or NULL at the end (err set on a
 * read error or a NUL byte). */
static char *next_line(struct lines *ls, size_t *len, struct ftv_err *err,
		       int *rc)
{
	ssize_t n = getline(&ls->buf, &ls->cap, ls->f);

	*rc = 0;
	if (n < 0) {
		if (ferror(ls->f))
			*rc = ftv_errf(err, "%s: read failed: %s", ls->path,
				       strerror(errno));
		return NULL;
	}
	ls->lineno++;
	if (n > 0 && ls->buf[n - 1] == '\n')
		n--;
	if (memchr(ls->buf, 0, n)) {
		*rc = ftv_errf(err, "%s:%zu: NUL byte in line", ls->path,
			       ls->lineno);
		return NULL;
	}
	ls->buf[n] = 0;
	*len = n;
	return ls->buf;
}

static int ksym_cmp(const void *pa, const void *pb)
{
	const struct ksym *a = pa, *b = pb;
	int c = (a->module != NULL) - (b->module != NULL);

	if (!c && a->module)
		c = strcmp(a->module, b->module);
	if (!c)
		c = (a->addr > b->addr) - (a->addr < b->addr);
	return c;
}

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

static int read_kallsyms(struct ksyms *k, const char *path, struct ftv_err *err)
{
	struct lines ls = { .path = path };
	uint64_t nonzero = 0;
	char *line;
	size_t len;
	int rc = 0;

	ls.f = fopen(path, "r");
	if (!ls.f)
		return ftv_errf(err, "%s: cannot open: %s", path, strerror(errno));
	while ((line = next_line(&ls, &len, err, &rc))) {
		const char *sp1 = memchr(line, ' ', len), *sp2, *end = line + len;
		const char *nend;
		struct ksym s = { 0 };

		if (!sp1 || !hexval(line, sp1 - line, &s.addr) ||
		    end - sp1 < 4 || sp1[2] != ' ' || sp1[1] <= 0x20) {
			rc = ftv_errf(err, "%s:%zu: expected 'ADDR TYPE NAME [MOD]'",
				      path, ls.lineno);
			break;
		}
		s.type = sp1[1];
		sp2 = sp1 + 2;
		nend = sp2 + 1 + strcspn(sp2 + 1, " \t");
		if (!name_ok(sp2 + 1, nend - sp2 - 1) ||
		    parse_mod(nend, end, &s.module)) {
			rc = ftv_errf(err, "%s:%zu: bad symbol name or [module] in "
				      "'%.60s'", path, ls.lineno, line);
			break;
		}
		s.name = strndup(sp2 + 1, nend - sp2 - 1);
		nonzero += s.addr != 0;
		if (VEC_PUSH(k->v, k->n, k->cap, s))
			abort(); /* out of host memory */
	}
	fclose(ls.f);
	free(ls.buf);
	if (rc)
		return rc;
	if (!k->n)
		return ftv_errf(err, "%s: no symbols", path);
	if (!nonzero)
		return ftv_errf(err, "%s: every address is 0 (kptr_restrict: read "
				"/proc/kallsyms as root)", path);
	qsort(k->v, k->n, sizeof(*k->v), ksym_cmp);
	/* A symbol's size: up to the next higher address of its module. */
	for (size_t i = 0, j; i < k->n; i = j) {
		for (j = i + 1; j < k->n && !ksym_cmp(&k->v[i], &k->v[j]); j++)
			;
		if (j < k->n && !((k->v[i].module == NULL) ^ (k->v[j].module == NULL)) &&
		    (!k->v[i].module || !strcmp(k->v[i].module, k->v[j].module)))
			for (size_t m = i; m < j; m++) {
				k->v[m].size = k->v[j].addr - k->v[m].addr;
				k->v[m].has_size = true;
			}
	}
	return 0;
}

static bool same_mod(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The text symbol named func of module mod covering ip, or NULL. */
static const struct ksym *lookup(const struct ksyms *k, const char *mod,
				 uint64_t ip, const char *func,
				 const struct ksym **covering)
{
	size_t lo = 0, hi = k->n;
	struct ksym key = { .addr = ip, .module = (char *)mod };

	*covering = NULL;
	while (lo < hi) { /* first symbol > (mod, ip) */
		size_t mid = lo + (hi - lo) / 2;

		if (ksym_cmp(&k->v[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		const struct ksym *s = &k->v[i];

		if (!same_mod(s->module, mod) || (*covering && s->addr != (*covering)->addr))
			break;
		if (!is_text(s->type))
			continue;
		if (!*covering)
			*covering = s;
		if (!strcmp(s->name, func))
			return s;
	}
	return NULL;
}

static void add_texts(struct sim_layout *l, const struct ksyms *k)
{
	for (size_t i = 0, j; i < k->n; i = j) {
		uint64_t lo = UINT64_MAX, hi = 0;

		for (j = i; j < k->n && same_mod(k->v[i].module, k->v[j].module); j++) {
			const struct ksym *s = &k->v[j];

			if (!is_text(s->type) || !s->addr)
				continue;
			if (s->addr < lo)
				lo = s->addr;
			if (s->addr + (s->has_size ? s->size : 4) > hi)
				hi = s->addr + (s->has_size ? s->size : 4);
		}
		/* From 8 bytes before the first function: a CALL_OPS literal
		 * precedes its function. */
		if (lo < hi)
			sim_layout_add_text(l, lo >= 8 ? lo - 8 : 0, hi, k->v[i].module ? k->v[i].module :
					    "vmlinux", ".text");
	}
}

/* The kernel image [_text, _end) from kallsyms, which arm64 places the
 * module region around (module_init_limits()). */
static void add_image(struct sim_layout *l, const struct ksyms *k)
{
	uint64_t start = 0, end = 0;

	for (size_t i = 0; i < k->n; i++) {
		if (k->v[i].module)
			continue;
		if (!strcmp(k->v[i].name, "_text"))
			start = k->v[i].addr;
		else if (!strcmp(k->v[i].name, "_end"))
			end = k->v[i].addr;
	}
	if (start && end > start && !l->has_image) {
		l->has_image = true;
		l->image_start = start;
		l->image_end = end;
	}
}

static void site_kind(struct sim_layout_site *s,
		      const struct sim_layout_arch *arch, bool call_ops)
{
	s->kind = SIM_LAYOUT_UNKNOWN;
	if (!call_ops)
		return;
	s->kind = arch->live_kind(s->faddr, s->ip, &s->entry);
	s->has_entry = s->kind != SIM_LAYOUT_UNKNOWN;
}

int sim_capture_live(struct sim_layout *l, const char *filter_addrs,
		     const char *kallsyms, bool call_ops, struct ftv_err *err)
{
	struct ksyms k = { 0 };
	struct lines ls = { .path = filter_addrs };
	const struct sim_layout_arch *arch;
	char *line, what[512];
	size_t len, before = l->nsites;
	int rc;

	if (!l->arch)
		sim_layout_set(l, &l->arch, "arm64");
	arch = sim_layout_arch_named(l->arch);
	if (!arch)
		return ftv_errf(err, "%s: no layout rules for architecture %s",
				filter_addrs, l->arch);
	if (read_kallsyms(&k, kallsyms, err)) {
		ksyms_free(&k);
		return -1;
	}
	ls.f = fopen(filter_addrs, "r");
	if (!ls.f) {
		ksyms_free(&k);
		return ftv_errf(err, "%s: cannot open: %s", filter_addrs,
				strerror(errno));
	}
	while ((line = next_line(&ls, &len, err, &rc))) {
		const char *sp = memchr(line, ' ', len), *fend, *end = line + len;
		const struct ksym *sym, *cov;
		struct sim_layout_site s = { .has_ip = true };
		char *func, *mod;

		if (!sp || !hexval(line, sp - line, &s.ip)) {
			rc = ftv_errf(err, "%s:%zu: expected 'ADDR FUNC [MOD]'",
				      filter_addrs, ls.lineno);
			break;
		}
		fend = sp + 1 + strcspn(sp + 1, " \t");
		if (!name_ok(sp + 1, fend - sp - 1) || parse_mod(fend, end, &mod)) {
			rc = ftv_errf(err, "%s:%zu: bad function name or [module] in "
				      "'%.60s'", filter_addrs, ls.lineno, line);
			break;
		}
		func = strndup(sp + 1, fend - sp - 1);
		sym = lookup(&k, mod, s.ip, func, &cov);
		if (!sym || !sym->has_size || s.ip - sym->addr >= sym->size) {
			rc = ftv_errf(err, "%s:%zu: %016" PRIx64 " %s: %s", filter_addrs,
				      ls.lineno, s.ip, func, !cov ?
				      "no text symbol of that module covers it in kallsyms" :
				      !sym ? "kallsyms has another function there" :
				      "beyond the function's end in kallsyms");
			free(func);
			free(mod);
			break;
		}
		if (!sim_layout_name_ok(func) || (mod && !sim_layout_name_ok(mod))) {
			rc = ftv_errf(err, "%s:%zu: a name a layout cannot hold",
				      filter_addrs, ls.lineno);
			free(func);
			free(mod);
			break;
		}
		s.func = sym->name;
		s.faddr = sym->addr;
		s.fsize = sym->size;
		s.has_fsize = true;
		s.module = mod ? mod : "vmlinux";
		site_kind(&s, arch, call_ops);
		sim_layout_add_site(l, &s);
		free(func);
		free(mod);
	}
	fclose(ls.f);
	free(ls.buf);
	if (!rc)
		rc = sim_layout_check_overlap(l, before, filter_addrs, err);
	if (!rc) {
		const char *b1 = strrchr(filter_addrs, '/'), *b2 = strrchr(kallsyms, '/');

		add_texts(l, &k);
		add_image(l, &k);
		snprintf(what, sizeof(what), "%s + %s (live system%s: %zu sites)",
			 b1 ? b1 + 1 : filter_addrs, b2 ? b2 + 1 : kallsyms,
			 call_ops ? ", CALL_OPS" : "", l->nsites - before);
		sim_layout_add_source(l, what);
	}
	ksyms_free(&k);
	return rc;
}
