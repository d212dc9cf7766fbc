/* `ftv encode --arch riscv64` text: rv_assemble on any one line of text at
 * a fixed kernel-text pc. What it accepts must round-trip, as
 * encoders/riscv.h promises: a word of the subset decodes and its text
 * (rv_format) assembles back to the same word and length; any other (a raw
 * `.insn`) is reported (rv_disasm) as `.insn`, which reads back the same. */
#include "tests/fuzz/harness.h"

#include <stdlib.h>

#include "encoders/riscv.h"

#define FUZZ_PC 0xffffffff80100000ull

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), buf[128];
	struct rv_insn in;
	struct ftv_err err;
	uint32_t w, w2;
	int n, n2;

	if (!rv_assemble(text, FUZZ_PC, &w, &n, &err)) {
		if (!rv_decode(w, FUZZ_PC, &in)) {
			if (rv_format(&in, buf, sizeof(buf)) < 0)
				fuzz_fail("0x%08x ('%s') decodes but does not format", w, text);
		} else if (!rv_disasm(w, FUZZ_PC, buf, sizeof(buf), &n2)) {
			fuzz_fail("0x%08x ('%s') does not decode but disassembles as '%s'", w,
				  text, buf);
		}
		if (rv_assemble(buf, FUZZ_PC, &w2, &n2, &err))
			fuzz_fail("'%s' -> 0x%08x -> '%s' is refused: %s", text, w, buf, err.msg);
		if (w2 != w || n2 != n)
			fuzz_fail("'%s' -> 0x%08x (%d bytes) -> '%s' -> 0x%08x (%d bytes)", text, w,
				  n, buf, w2, n2);
	}
	free(text);
	return 0;
}
