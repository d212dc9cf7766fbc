/* The one JSON writer behind every --json output: compact RFC 8259 text,
 * commas and colons placed by the writer, strings escaped (quote,
 * backslash, every control character; bytes that are not UTF-8 become
 * U+FFFD, so any path or symbol name yields valid JSON).
 *
 *   struct json j;
 *
 *   json_init(&j, stdout);
 *   json_begin_object(&j);
 *   json_key_str(&j, "layout", path);
 *   json_key(&j, "sites");
 *   json_begin_array(&j);
 *   json_u64(&j, 3);
 *   json_end_array(&j);
 *   json_end_object(&j);
 *   json_newline(&j);                  {"layout":"a\"b","sites":[3]}
 */
#ifndef FTV_UTIL_JSON_H
#define FTV_UTIL_JSON_H

#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	/* per level: a value was written, the next one needs a comma */
	unsigned char more[JSON_MAX_DEPTH + 1];
	int key; /* a key was written, its value comes next */
};

void json_init(struct json *j, FILE *f);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
/* A member's name; its value is the next thing written. */
void json_key(struct json *j, const char *key);

void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
/* With that many decimals; NaN and infinities (not JSON numbers) as null. */
void json_double(struct json *j, double v, int decimals);
void json_bool(struct json *j, int v);
void json_null(struct json *j);
/* A string "0x..." of v in hex, as addresses are written. */
void json_hex(struct json *j, uint64_t v);

/* key and value in one call */
void json_key_str(struct json *j, const char *key, const char *s);
void json_key_u64(struct json *j, const char *key, uint64_t v);
void json_key_double(struct json *j, const char *key, double v, int decimals);
void json_key_bool(struct json *j, const char *key, int v);
void json_key_hex(struct json *j, const char *key, uint64_t v);

/* Ends a top-level value with a newline (one object per line). */
void json_newline(struct json *j);

/* The escaped form of s, quotes included, to f: for writers that need
 * just a string. */
void json_write_string(FILE *f, const char *s);

#endif
