/* Scenario files (verify/scenario.h), as `ftv scenario`, `ftv conform` and
 * `ftv fuzz --replay` read them: scenario_read on any bytes. What it
 * accepts must write back (scenario_write) as a file that reads back to
 * the same scenario: writing it again gives the same text. */
#include "tests/fuzz/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/scenario.h"

/* scenario_read from memory; fmemopen refuses an empty buffer */
static int read_mem(const void *data, size_t size, struct scenario *s, struct ftv_err *err)
{
	static const char empty[1];
	FILE *f = fmemopen((void *)(size ? data : empty), size ? size : 1, "r");

	if (!f)
		abort();
	if (!size)
		fgetc(f); /* at the end: an empty file */
	return scenario_read(f, "fuzz.scn", s, err);
}

static char *write_mem(const struct scenario *s, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		abort();
	scenario_write(f, s, "a header\nof two lines");
	fclose(f);
	return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario s;
	struct ftv_err err;
	char *t1, *t2;
	size_t l1, l2;

	if (read_mem(data, size, &s, &err))
		return 0;
	t1 = write_mem(&s, &l1);
	if (read_mem(t1, l1, &s, &err))
		fuzz_fail("the scenario as written does not read back: %s\n%s", err.msg, t1);
	t2 = write_mem(&s, &l2);
	if (l1 != l2 || memcmp(t1, t2, l1))
		fuzz_fail("the scenario reads back different:\n%s---\n%s", t1, t2);
	free(t1);
	free(t2);
	return 0;
}
