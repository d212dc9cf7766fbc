/* Merging sharded runs (tools/shards.h). */
#include "tools/shards.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int shards_read(const char *path, const char *what, shards_take_fn take, void *ctx,
		struct ftv_err *err)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned no = 0;
	ssize_t len;
	int ret = 0;

	if (!f)
		return ftv_errf(err, "%s: %s", path, strerror(errno));
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct jvalue v;
		struct ftv_err e;

		no++;
		if (strspn(line, " \t\r\n") == (size_t)len)
			continue;
		if (strlen(line) != (size_t)len) {
			ret = ftv_errf(err, "%s:%u: a NUL byte: %s", path, no, what);
			break;
		}
		if (jread(line, &v, &e)) {
			ret = ftv_errf(err, "%s:%u: not JSON (%s): %s", path, no, e.msg, what);
			break;
		}
		if (take(ctx, path, no, &v, err)) {
			jfree(&v);
			ret = -1;
			break;
		}
	}
	if (!ret && ferror(f))
		ret = ftv_errf(err, "%s: %s", path, strerror(errno));
	free(line);
	fclose(f);
	return ret;
}

/* A field's value for messages: 'text', or "missing". */
static void value_text(const struct jvalue *v, char *buf, size_t n)
{
	if (!v)
		snprintf(buf, n, "missing");
	else if (v->type == JBOOL)
		snprintf(buf, n, "'%s'", v->b ? "true" : "false");
	else if (v->type == JSTR || v->type == JNUM)
		snprintf(buf, n, "'%s'", v->s);
	else
		snprintf(buf, n, "a JSON %s", v->type == JARR ? "array" : "object or null");
}

static int same_value(const struct jvalue *x, const struct jvalue *y)
{
	if (!x || !y)
		return !x && !y;
	if (x->type != y->type)
		return 0;
	if (x->type == JBOOL)
		return x->b == y->b;
	if (x->type == JSTR || x->type == JNUM)
		return !strcmp(x->s, y->s);
	return 1;
}

int shards_agree(const struct shard_obj *const *s, size_t n, const char *const *same,
		 const char *whole, struct ftv_err *err)
{
	const struct shard_obj *a = s[0];

	for (size_t i = 0; i < n; i++) {
		const struct shard_obj *b = s[i];

		if (b->idx >= b->n)
			return ftv_errf(err, "%s:%u: shard %llu/%llu: no such shard", b->file,
					b->line, (unsigned long long)b->idx,
					(unsigned long long)b->n);
		for (size_t k = 0; i && same[k]; k++) {
			const struct jvalue *x = jget(&a->v, same[k]), *y = jget(&b->v, same[k]);
			char tx[128], ty[128];

			if (same_value(x, y))
				continue;
			value_text(x, tx, sizeof(tx));
			value_text(y, ty, sizeof(ty));
			return ftv_errf(err, "%s:%u: %s %s, but %s:%u has %s: not one %s", b->file,
					b->line, same[k], ty, a->file, a->line, tx, whole);
		}
		if (b->n != a->n)
			return ftv_errf(err, "%s:%u: shard %llu/%llu, but %s:%u is shard %llu/%llu: "
					"not one split", b->file, b->line,
					(unsigned long long)b->idx, (unsigned long long)b->n, a->file,
					a->line, (unsigned long long)a->idx, (unsigned long long)a->n);
		for (size_t j = 0; j < i; j++)
			if (s[j]->idx == b->idx)
				return ftv_errf(err, "%s:%u: shard %llu/%llu again (also %s:%u)",
						b->file, b->line, (unsigned long long)b->idx,
						(unsigned long long)b->n, s[j]->file, s[j]->line);
	}
	return 0;
}

size_t shards_missing(const struct shard_obj *const *s, size_t n, uint64_t total, int with_n,
		      char *buf, size_t len)
{
	size_t at = 0, cnt = 0;

	buf[0] = 0;
	for (uint64_t i = 0; i < total; i++) {
		size_t k;

		for (k = 0; k < n && s[k]->idx != i; k++)
			;
		if (k < n)
			continue;
		if (++cnt > 16) {
			if (cnt == 17 && at + 6 < len)
				at += (size_t)snprintf(buf + at, len - at, ", ...");
			continue;
		}
		if (at + 48 < len) {
			at += (size_t)snprintf(buf + at, len - at, "%s%llu", cnt > 1 ? ", " : "",
					       (unsigned long long)i);
			if (with_n)
				at += (size_t)snprintf(buf + at, len - at, "/%llu",
						       (unsigned long long)total);
		}
	}
	return cnt;
}
