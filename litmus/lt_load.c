/* Loading a litmus file in either syntax. */
#include "litmus/lt_int.h"
#include "util/str.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *litmus_name(const struct litmus *lt)
{
	return lt->name;
}

int litmus_expected(const struct litmus *lt)
{
	return lt->expect;
}

void litmus_set_expected(struct litmus *lt, int kind)
{
	lt->expect = kind;
}

const char *litmus_unsupported(const struct litmus *lt)
{
	return lt->unsup ? lt->unsup_msg : NULL;
}

void litmus_free(struct litmus *lt)
{
	free(lt);
}

/* The first word of the first line that is neither blank nor a comment
 * tells the syntax: "litmus" (ftv) or an architecture name (herd). */
static int detect(FILE *f, enum lt_syntax *syn)
{
	char line[512];

	while (fgets(line, sizeof(line), f)) {
		char *s = ftv_trim(line);

		if (!*s || *s == '#')
			continue;
		if (!strncmp(s, "(*", 2)) {
			/* herd's comments: only herd files have them */
			*syn = LT_SYNTAX_HERD;
			break;
		}
		*syn = !strncmp(s, "litmus", 6) &&
				       (!s[6] || isspace((unsigned char)s[6]))
			       ? LT_SYNTAX_FTV
			       : LT_SYNTAX_HERD;
		break;
	}
	rewind(f);
	return 0;
}

/* herd's order of the items of a state: registers by thread and number,
 * then locations by name, then faults. */
static int obs_rank(const struct lt_obs *o)
{
	return o->kind == LC_REG ? 0 : o->kind == LC_MEM ? 1 : 2;
}

static int cmp_obs(const void *a, const void *b)
{
	const struct lt_obs *x = a, *y = b;

	if (obs_rank(x) != obs_rank(y))
		return obs_rank(x) - obs_rank(y);
	if (x->kind == LC_REG)
		return x->thread != y->thread ? x->thread - y->thread
					      : x->reg - y->reg;
	if (x->kind == LC_MEM)
		return strcmp(x->loc, y->loc);
	if (x->lthread != y->lthread)
		return x->lthread - y->lthread;
	return strcmp(x->label, y->label);
}

struct litmus *litmus_load(const char *path, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");
	struct litmus *lt;
	int rc;

	if (!f) {
		ftv_errf(err, "%s: cannot open", path);
		return NULL;
	}
	if (ftv_text_check(f, path, err)) {
		fclose(f);
		return NULL;
	}
	lt = calloc(1, sizeof(*lt));
	if (!lt) {
		fclose(f);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	lt->expect = -1;
	lt->root = -1;
	lt->arch = lt_arch_get(FTV_ARCH_DEFAULT);
	snprintf(lt->path, sizeof(lt->path), "%s", path);
	lt->syntax = LT_SYNTAX_FTV;
	detect(f, &lt->syntax);
	rc = lt->syntax == LT_SYNTAX_HERD ? lt_read_herd(lt, f, err)
					  : lt_read_ftv(lt, f, err);
	if (!rc && lt->syntax == LT_SYNTAX_HERD)
		rc = lt_check_insns(lt, err);
	fclose(f);
	if (rc && lt->unsup && lt->name[0]) {
		/* not run: named, with the construct */
		snprintf(lt->unsup_msg, sizeof(lt->unsup_msg), "%s",
			 err ? err->msg : "not modelled by ftv");
		return lt;
	}
	if (rc) {
		litmus_free(lt);
		return NULL;
	}
	qsort(lt->obs, (size_t)lt->nobs, sizeof(lt->obs[0]), cmp_obs);
	return lt;
}
