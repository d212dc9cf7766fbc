/* A strict recursive-descent JSON reader (util/json_read.h). */
#include "util/json_read.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define JREAD_MAX_DEPTH 64

struct jr {
	const char *p, *start;
	struct ftv_err *err;
	int depth;
};

static int fail(struct jr *r, const char *what)
{
	return ftv_errf(r->err, "offset %zu: %s", (size_t)(r->p - r->start), what);
}

static void ws(struct jr *r)
{
	while (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r')
		r->p++;
}

static int value(struct jr *r, struct jvalue *v);

static int hex4(struct jr *r, unsigned *out)
{
	*out = 0;
	for (int i = 0; i < 4; i++) {
		char c = r->p[i];
		unsigned d;

		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return fail(r, "bad \\u escape");
		*out = *out << 4 | d;
	}
	r->p += 4;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | cp >> 6);
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | cp >> 12);
		o[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | cp >> 18);
	o[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	o[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* Bytes of the UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, at most U+10FFFF), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (s[0] >= 0xe0 && s[0] <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 || (s[3] & 0xc0) != 0x80)
			return 0;
		if ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
			return 0;
		return 4;
	}
	return 0;
}

static int string(struct jr *r, char **out, size_t *outlen)
{
	const char *q = ++r->p;
	size_t cap = 0, n = 0;
	char *s;

	/* the decoded string is never longer than the text */
	while (*q && *q != '"')
		q += *q == '\\' && q[1] ? 2 : 1;
	if (*q != '"')
		return fail(r, "unterminated string");
	cap = (size_t)(q - r->p) + 1;
	s = malloc(cap);
	if (!s)
		return fail(r, "out of memory");
	while (*r->p != '"') {
		unsigned char c = (unsigned char)*r->p;

		if (c < 0x20) {
			free(s);
			return fail(r, "control character in a string");
		}
		if (c == '\\') {
			unsigned cp, lo;

			r->p++;
			switch (*r->p++) {
			case '"': s[n++] = '"'; break;
			case '\\': s[n++] = '\\'; break;
			case '/': s[n++] = '/'; break;
			case 'b': s[n++] = '\b'; break;
			case 'f': s[n++] = '\f'; break;
			case 'n': s[n++] = '\n'; break;
			case 'r': s[n++] = '\r'; break;
			case 't': s[n++] = '\t'; break;
			case 'u':
				if (hex4(r, &cp))
					goto bad;
				if (cp >= 0xd800 && cp < 0xdc00) {
					if (r->p[0] != '\\' || r->p[1] != 'u')
						goto lone;
					r->p += 2;
					if (hex4(r, &lo))
						goto bad;
					if (lo < 0xdc00 || lo > 0xdfff)
						goto lone;
					cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				} else if (cp >= 0xdc00 && cp < 0xe000) {
					goto lone;
				}
				/* 6 or 12 bytes of text give at most 4 bytes */
				n += put_utf8(s + n, cp);
				break;
			default:
				r->p--;
				free(s);
				return fail(r, "bad escape");
			}
			continue;
		}
		{
			size_t l = utf8_len((const unsigned char *)r->p);

			if (!l) {
				free(s);
				return fail(r, "not UTF-8");
			}
			memcpy(s + n, r->p, l);
			n += l;
			r->p += l;
		}
	}
	r->p++;
	s[n] = 0;
	*out = s;
	if (outlen)
		*outlen = n;
	return 0;
lone:
	free(s);
	return fail(r, "unpaired surrogate in a \\u escape");
bad:
	free(s);
	return -1;
}

static int number(struct jr *r, struct jvalue *v)
{
	const char *q = r->p;

	if (*q == '-')
		q++;
	if (*q == '0')
		q++;
	else if (*q >= '1' && *q <= '9')
		while (*q >= '0' && *q <= '9')
			q++;
	else
		return fail(r, "expected a value");
	if (*q == '.') {
		if (*++q < '0' || *q > '9')
			return fail(r, "bad number");
		while (*q >= '0' && *q <= '9')
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (*q < '0' || *q > '9')
			return fail(r, "bad number");
		while (*q >= '0' && *q <= '9')
			q++;
	}
	v->type = JNUM;
	v->s = strndup(r->p, (size_t)(q - r->p));
	if (!v->s)
		return fail(r, "out of memory");
	r->p = q;
	return 0;
}

static int grow(struct jr *r, struct jvalue *v, size_t *cap, int keys)
{
	if (v->n < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 8;
	struct jvalue *nv = realloc(v->v, *cap * sizeof(*nv));

	if (!nv)
		return fail(r, "out of memory");
	v->v = nv;
	if (keys) {
		char **nk = realloc(v->keys, *cap * sizeof(*nk));

		if (!nk)
			return fail(r, "out of memory");
		v->keys = nk;
	}
	return 0;
}

static int container(struct jr *r, struct jvalue *v, int obj)
{
	size_t cap = 0;
	char close = obj ? '}' : ']';

	if (++r->depth > JREAD_MAX_DEPTH)
		return fail(r, "nested too deep");
	v->type = obj ? JOBJ : JARR;
	r->p++;
	ws(r);
	if (*r->p == close) {
		r->p++;
		r->depth--;
		return 0;
	}
	for (;;) {
		ws(r);
		if (grow(r, v, &cap, obj))
			return -1;
		memset(&v->v[v->n], 0, sizeof(v->v[0]));
		if (obj) {
			if (*r->p != '"')
				return fail(r, "expected a member name");
			if (string(r, &v->keys[v->n], NULL))
				return -1;
			ws(r);
			if (*r->p != ':') {
				free(v->keys[v->n]);
				return fail(r, "expected ':'");
			}
			r->p++;
			ws(r);
		}
		if (value(r, &v->v[v->n])) {
			/* what was read of it is freed with the rest */
			v->n++;
			return -1;
		}
		v->n++;
		ws(r);
		if (*r->p == ',') {
			r->p++;
			continue;
		}
		if (*r->p == close) {
			r->p++;
			r->depth--;
			return 0;
		}
		return fail(r, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int value(struct jr *r, struct jvalue *v)
{
	memset(v, 0, sizeof(*v));
	ws(r);
	switch (*r->p) {
	case '{':
		return container(r, v, 1);
	case '[':
		return container(r, v, 0);
	case '"':
		v->type = JSTR;
		return string(r, &v->s, &v->len);
	case 't':
	case 'f':
	case 'n': {
		static const struct {
			const char *w;
			enum jtype t;
			int b;
		} lit[] = { { "true", JBOOL, 1 }, { "false", JBOOL, 0 }, { "null", JNULL, 0 } };

		for (size_t i = 0; i < 3; i++)
			if (!strncmp(r->p, lit[i].w, strlen(lit[i].w))) {
				v->type = lit[i].t;
				v->b = lit[i].b;
				r->p += strlen(lit[i].w);
				return 0;
			}
		return fail(r, "expected a value");
	}
	default:
		return number(r, v);
	}
}

void jfree(struct jvalue *v)
{
	if (!v)
		return;
	for (size_t i = 0; i < v->n; i++) {
		jfree(&v->v[i]);
		if (v->type == JOBJ)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->s);
	memset(v, 0, sizeof(*v));
}

int jread(const char *text, struct jvalue *out, struct ftv_err *err)
{
	struct jr r = { text, text, err, 0 };

	if (value(&r, out)) {
		jfree(out);
		return -1;
	}
	ws(&r);
	if (*r.p) {
		jfree(out);
		return fail(&r, "text after the value");
	}
	return 0;
}

const struct jvalue *jget(const struct jvalue *obj, const char *key)
{
	if (!obj || obj->type != JOBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (!strcmp(obj->keys[i], key))
			return &obj->v[i];
	return NULL;
}

const char *jget_str(const struct jvalue *obj, const char *key)
{
	const struct jvalue *v = jget(obj, key);

	return v && v->type == JSTR ? v->s : NULL;
}

int jget_u64(const struct jvalue *v, uint64_t *out)
{
	char *end;

	if (!v || v->type != JNUM || v->s[0] == '-' || strpbrk(v->s, ".eE"))
		return -1;
	errno = 0;
	*out = strtoull(v->s, &end, 10);
	return errno || *end ? -1 : 0;
}

int jget_double(const struct jvalue *v, double *out)
{
	if (!v || v->type != JNUM)
		return -1;
	*out = strtod(v->s, NULL);
	return 0;
}
