/* `ftv encode` text, arm64: a64_assemble on any one line of text at a
 * fixed kernel-text pc. What it accepts must round-trip, as encoders/a64.h
 * promises: the word decodes (a64_decode claims canonical encodings only,
 * and the assembler makes canonical ones), its text (a64_format) is
 * accepted back by a64_assemble and gives the same word. */
#include "tests/fuzz/harness.h"

#include <stdlib.h>

#include "encoders/a64.h"

#define FUZZ_PC 0xffff800080100000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), buf[A64_TEXT_MAX];
	struct a64_insn in;
	struct ftv_err err;
	uint32_t w, w2;

	if (!a64_assemble(text, FUZZ_PC, &w, &err)) {
		if (a64_decode(w, FUZZ_PC, &in))
			fuzz_fail("'%s' assembles to 0x%08x, which does not decode", text, w);
		if (a64_format(&in, buf, sizeof(buf)) < 0)
			fuzz_fail("0x%08x ('%s') decodes but does not format", w, text);
		if (a64_assemble(buf, FUZZ_PC, &w2, &err))
			fuzz_fail("'%s' -> 0x%08x -> '%s' is refused: %s", text, w, buf, err.msg);
		if (w2 != w)
			fuzz_fail("'%s' -> 0x%08x -> '%s' -> 0x%08x", text, w, buf, w2);
	}
	free(text);
	return 0;
}
