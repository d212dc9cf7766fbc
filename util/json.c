#include "util/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

/* Before any value: the comma after a sibling, unless it follows its key. */
static void value(struct json *j)
{
	if (j->key) {
		j->key = 0;
		return;
	}
	if (j->more[j->depth])
		fputc(',', j->f);
	j->more[j->depth] = 1;
}

static void begin(struct json *j, char c)
{
	value(j);
	fputc(c, j->f);
	if (j->depth < JSON_MAX_DEPTH)
		j->depth++;
	j->more[j->depth] = 0;
}

static void end(struct json *j, char c)
{
	fputc(c, j->f);
	if (j->depth > 0)
		j->depth--;
}

void json_begin_object(struct json *j)
{
	begin(j, '{');
}

void json_end_object(struct json *j)
{
	end(j, '}');
}

void json_begin_array(struct json *j)
{
	begin(j, '[');
}

void json_end_array(struct json *j)
{
	end(j, ']');
}

/* The length of the UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void json_write_string(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	fputc('"', f);
	while (*s) {
		size_t n;

		switch (*s) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*s < 0x20) {
				fprintf(f, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (!n) {
				fputs("\\ufffd", f); /* not UTF-8: REPLACEMENT CHARACTER */
				break;
			}
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', f);
}

void json_key(struct json *j, const char *key)
{
	value(j);
	json_write_string(j->f, key);
	fputc(':', j->f);
	j->key = 1;
}

void json_str(struct json *j, const char *s)
{
	value(j);
	json_write_string(j->f, s);
}

void json_u64(struct json *j, uint64_t v)
{
	value(j);
	fprintf(j->f, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	value(j);
	fprintf(j->f, "%" PRId64, v);
}

void json_double(struct json *j, double v, int decimals)
{
	value(j);
	if (isfinite(v))
		fprintf(j->f, "%.*f", decimals, v);
	else
		fputs("null", j->f);
}

void json_bool(struct json *j, int v)
{
	value(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json *j)
{
	value(j);
	fputs("null", j->f);
}

void json_hex(struct json *j, uint64_t v)
{
	value(j);
	fprintf(j->f, "\"0x%" PRIx64 "\"", v);
}

void json_key_str(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j, s);
}

void json_key_u64(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_u64(j, v);
}

void json_key_double(struct json *j, const char *key, double v, int decimals)
{
	json_key(j, key);
	json_double(j, v, decimals);
}

void json_key_bool(struct json *j, const char *key, int v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_key_hex(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	json_hex(j, v);
}

void json_newline(struct json *j)
{
	fputc('\n', j->f);
	j->more[0] = 0; /* the next top-level value starts its own line */
}
