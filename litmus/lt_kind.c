/* Expected verdicts: the kind names (Allowed, Forbidden, Required, and
 * herd's short forms) and kinds files, herdtools' way of keeping the
 * verdicts apart from the tests (lines 'NAME KIND'). */
#include "litmus/lt_int.h"
#include "util/str.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int litmus_kind_parse(const char *s)
{
	if (!strcmp(s, "Allowed") || !strcmp(s, "Allow"))
		return LT_K_ALLOWED;
	if (!strcmp(s, "Forbidden") || !strcmp(s, "Forbid"))
		return LT_K_FORBIDDEN;
	if (!strcmp(s, "Required") || !strcmp(s, "Require"))
		return LT_K_REQUIRED;
	return -1;
}

const char *litmus_kind_name(int kind)
{
	switch (kind) {
	case LT_K_ALLOWED:
		return "Allowed";
	case LT_K_FORBIDDEN:
		return "Forbidden";
	case LT_K_REQUIRED:
		return "Required";
	default:
		return "-";
	}
}

struct litmus_kinds {
	struct kind {
		char *name;
		int kind;
	} *k;
	size_t n;
};

struct litmus_kinds *litmus_kinds_load(const char *path, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");
	struct litmus_kinds *ks;
	char line[512];
	int lineno = 0;
	size_t cap = 0;

	if (!f) {
		ftv_errf(err, "%s: cannot open", path);
		return NULL;
	}
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		goto oom;
	while (fgets(line, sizeof(line), f)) {
		char *s = ftv_trim(line), *name, *kind, *extra;
		int k;

		lineno++;
		if (!*s || *s == '#')
			continue;
		name = strtok(s, " \t");
		kind = strtok(NULL, " \t");
		extra = strtok(NULL, " \t");
		k = kind ? litmus_kind_parse(kind) : -1;
		if (k < 0 || extra) {
			ftv_errf(err, "%s:%d: expected 'NAME Allowed|Forbidden|Required'",
				 path, lineno);
			litmus_kinds_free(ks);
			fclose(f);
			return NULL;
		}
		if (ks->n == cap) {
			struct kind *nk;

			cap = cap ? cap * 2 : 64;
			nk = realloc(ks->k, cap * sizeof(*nk));
			if (!nk)
				goto oom;
			ks->k = nk;
		}
		ks->k[ks->n].name = strdup(name);
		if (!ks->k[ks->n].name)
			goto oom;
		ks->k[ks->n++].kind = k;
	}
	fclose(f);
	return ks;
oom:
	litmus_kinds_free(ks);
	fclose(f);
	ftv_errf(err, "out of memory");
	return NULL;
}

int litmus_kinds_get(const struct litmus_kinds *ks, const char *name)
{
	/* The last line naming a test wins, as a later file would. */
	for (size_t i = ks->n; i-- > 0;)
		if (!strcmp(ks->k[i].name, name))
			return ks->k[i].kind;
	return -1;
}

void litmus_kinds_free(struct litmus_kinds *ks)
{
	if (!ks)
		return;
	for (size_t i = 0; i < ks->n; i++)
		free(ks->k[i].name);
	free(ks->k);
	free(ks);
}
