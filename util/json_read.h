/* Reading JSON back: RFC 8259 text into a tree, for the commands that take
 * other runs' --json outputs (ftv fuzz-merge). Strict: one value, nothing
 * after it but white space; strings are checked to be UTF-8 and their
 * escapes (\uXXXX with surrogate pairs too) decoded; numbers keep their
 * text, so a 64-bit seed reads back exactly.
 *
 *   struct jvalue v;
 *
 *   if (jread(line, &v, &err))              err: "offset 12: expected ':'"
 *           ...
 *   const struct jvalue *s = jget(&v, "seed");
 *   uint64_t seed;
 *   if (!s || jget_u64(s, &seed)) ...
 *   jfree(&v);
 */
#ifndef FTV_UTIL_JSON_READ_H
#define FTV_UTIL_JSON_READ_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum jtype { JNULL, JBOOL, JNUM, JSTR, JARR, JOBJ };

struct jvalue {
	enum jtype type;
	int b;             /* JBOOL */
	char *s;           /* JSTR: the decoded string; JNUM: the number's text */
	size_t len;        /* JSTR: its length (it may hold NUL) */
	struct jvalue *v;  /* JARR: the items; JOBJ: the members' values */
	char **keys;       /* JOBJ: the members' names, in order */
	size_t n;          /* JARR, JOBJ: how many */
};

/* Parses text (NUL-terminated); 0, or -1 with err naming the offset. */
int jread(const char *text, struct jvalue *out, struct ftv_err *err);
void jfree(struct jvalue *v);

/* The member key of an object (the first one of that name), or NULL. */
const struct jvalue *jget(const struct jvalue *obj, const char *key);
/* A member's value as a string, or NULL when absent or not a string. */
const char *jget_str(const struct jvalue *obj, const char *key);
/* A number as an unsigned 64-bit integer (exactly) or a double: 0, or -1
 * when v is not a number of that kind. */
int jget_u64(const struct jvalue *v, uint64_t *out);
int jget_double(const struct jvalue *v, double *out);

#endif
