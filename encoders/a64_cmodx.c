/* The CMODX classifier. Arm ARM B2.2.5 "Concurrent modification and
 * execution of instructions": apart from a short list, an instruction that
 * one PE may be executing must not be changed by another PE without explicit
 * synchronisation (the other PE may see the old, the new, or a mix - an
 * UNPREDICTABLE instruction). The list is B, B.cond, BL, BRK, CBNZ, CBZ, HVC,
 * ISB, NOP, SMC, SVC, TBNZ and TBZ, and both the old and the new instruction
 * must be on it. The table marks those lines A64_CMODX. */
#include "encoders/a64.h"

const char *a64_cmodx_class(uint32_t word)
{
	struct a64_insn in;

	if (a64_decode(word, 0, &in))
		return 0;
	if (!(a64_descs[in.id].flags & A64_CMODX))
		return 0;
	return a64_descs[in.id].name;
}

int a64_cmodx_safe(uint32_t old_word, uint32_t new_word)
{
	return a64_cmodx_class(old_word) && a64_cmodx_class(new_word);
}
