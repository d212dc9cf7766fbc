/* The RISC-V side of `ftv encode` and `ftv decode`: the same shapes as the
 * arm64 entries of those commands' arch tables. */
#include "encoders/riscv.h"

#include <inttypes.h>
#include <stdio.h>

int rv_assemble_word(const char *text, uint64_t pc, uint32_t *word,
		     struct ftv_err *err)
{
	int nbytes;

	return rv_assemble(text, pc, word, &nbytes, err);
}

int rv_report_line(uint32_t word, uint64_t pc, char *buf, size_t n,
		   int *nbytes)
{
	char text[96], cls[64], hex[16];
	struct rv_insn in;
	int len;

	rv_disasm(word, pc, text, sizeof(text), &len);
	if (rv_decode(word, pc, &in))
		snprintf(cls, sizeof(cls), "unknown");
	else if (in.fields & RV_F_TARGET)
		snprintf(cls, sizeof(cls), "%s -> 0x%" PRIx64, in.name, in.target);
	else
		snprintf(cls, sizeof(cls), "%s", in.name);
	snprintf(hex, sizeof(hex), len == 2 ? "0x%04" PRIx32 : "0x%08" PRIx32,
		 in.word);
	if (nbytes)
		*nbytes = len;
	/* a 16-bit word is never the 4-byte slot */
	return snprintf(buf, n, "%-10s  %-32s %-24s %s", hex, text, cls,
			len == 4 && rv_patchable_word(word) ? "cmodx-safe"
							    : "cmodx-unsafe");
}
