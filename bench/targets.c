/* Appends verdict lines for bench_block (targets.h). One line a figure,
 * tab-separated: name, figure, unit, comparison, target, note. */
#include "bench/targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cmp_names[] = {
	[BENCH_AT_LEAST] = ">=", [BENCH_BELOW] = "<", [BENCH_AT_MOST] = "<=",
};

/* Tabs and newlines would break the line's fields. */
static void put_field(FILE *f, const char *s)
{
	for (; *s; s++)
		fputc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

void bench_target(const char *name, double figure, const char *unit,
		  enum bench_cmp cmp, double target, const char *note)
{
	const char *path = getenv("FTV_BENCH_TARGETS");
	FILE *f;

	if (!path || !*path)
		return;
	f = fopen(path, "a");
	if (!f) {
		perror(path);
		return;
	}
	put_field(f, name);
	fprintf(f, "\t%.6g\t", figure);
	put_field(f, unit);
	fprintf(f, "\t%s\t%.6g\t", cmp_names[cmp], target);
	put_field(f, note);
	fputc('\n', f);
	fclose(f);
}
