/* arm64: the handful of system instructions the fetch model reacts to when a CPU
 * executes them (barriers, cache maintenance by VA to the PoU, ISB). These
 * are architecture facts of the model, not an assembler: encodings from the
 * Arm ARM C6.2 (ISB, DSB, DMB, DC, IC) and the "Loads and Stores" group of
 * the top-level decode (C4.1: op0 == x1x0). */
#include "executor/exec_int.h"

enum xsysop xsysop_a64_decode(uint32_t w, unsigned *rt)
{
	*rt = w & 31;
	/* Barriers: 1101 0101 0000 0011 0011 CRm op2 11111 (C6.2.81/80/124). */
	if ((w & 0xfffff0ffu) == 0xd50330dfu)
		return XS_ISB;
	if ((w & 0xfffff0ffu) == 0xd503309fu)
		return XS_DSB;
	if ((w & 0xfffff0ffu) == 0xd50330bfu)
		return XS_DMB;
	/* SYS #3, C7, Cm, #1, Xt: DC CVAU (Cm=11), DC CVAC (10), DC CIVAC (14)
	 * all clean to at least the PoU; IC IVAU is Cm=5 (C5.3). */
	switch (w & 0xffffffe0u) {
	case 0xd50b7b20u: /* dc cvau */
	case 0xd50b7a20u: /* dc cvac */
	case 0xd50b7e20u: /* dc civac */
		return XS_DC_CVAU;
	case 0xd50b7520u: /* ic ivau */
		return XS_IC_IVAU;
	}
	return XS_NONE;
}

int xsysop_a64_is_memory(uint32_t w)
{
	unsigned rt;

	if ((w & 0x0a000000u) == 0x08000000u)
		return 1;
	return xsysop_a64_decode(w, &rt) != XS_NONE;
}
