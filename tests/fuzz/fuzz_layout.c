/* Layout files (layout/layout.h) as `ftv layout` and `ftv replay` read
 * them: any bytes through sim_layout_parse, the strict parser with its
 * validation (header, fields, duplicate and overlapping sites). What it
 * accepts must write back (sim_layout_write) as text that parses again
 * and writes the same. */
#include "tests/fuzz/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "layout/layout.h"

static char *write_mem(const struct sim_layout *l, size_t *len)
{
	struct ftv_err err;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		abort();
	if (sim_layout_write(f, l, &err))
		fuzz_fail("a parsed layout does not write: %s", err.msg);
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ftv_err err;
	struct sim_layout *l = sim_layout_parse((const char *)data, size, "fuzz.layout", &err);
	char *t1, *t2;
	size_t l1, l2;

	if (!l)
		return 0;
	t1 = write_mem(l, &l1);
	sim_layout_free(l);
	l = sim_layout_parse(t1, l1, "written.layout", &err);
	if (!l)
		fuzz_fail("the layout as written does not parse: %s\n%s", err.msg, t1);
	t2 = write_mem(l, &l2);
	sim_layout_free(l);
	if (l1 != l2 || memcmp(t1, t2, l1))
		fuzz_fail("the layout reads back different:\n%s---\n%s", t1, t2);
	free(t1);
	free(t2);
	return 0;
}
