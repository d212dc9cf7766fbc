/* arm64: the handful of system instructions the fetch model reacts to when a CPU
 * executes them (barriers, cache maintenance by VA, ISB), and which words
 * access memory. These are architecture facts of the model; the encodings
 * come from the one table in encoders/a64_table.h (a64_is_<id> tests its
 * mask/value lines, a64_in_ldst its top-level group), not from masks here. */
#include "encoders/a64.h"
#include "executor/exec_int.h"

enum xsysop xsysop_a64_decode(uint32_t w, unsigned *rt)
{
	struct a64_insn in;

	*rt = 0;
	/* The whole barrier classes by CRm (Arm ARM C6.2.134/90/88): every
	 * ISB option is an ISB, and DSB's CRm 0000/0100 (SSBB/PSSBB, which
	 * a64_decode declines as not a DSB) are treated as a DSB here too,
	 * the conservative reading: they drain at least what a DSB drains. */
	if (a64_is_isb(w))
		return XS_ISB;
	if (a64_is_dsb(w))
		return XS_DSB;
	if (a64_is_dmb(w))
		return XS_DMB;
	/* DC CVAU, DC CVAC and DC CIVAC all clean to at least the PoU (the
	 * PoC is at or beyond it); IC IVAU invalidates to the PoU (Arm ARM
	 * C5.3). Every Xt is canonical, so a64_decode names it. */
	if (a64_is_ic_ivau(w) || a64_is_dc_cvau(w) || a64_is_dc_cvac(w) ||
	    a64_is_dc_civac(w)) {
		if (a64_decode(w, 0, &in))
			return XS_NONE;
		*rt = in.rd;
		return in.id == A64_IC_IVAU ? XS_IC_IVAU : XS_DC_CVAU;
	}
	return XS_NONE;
}

int xsysop_a64_is_memory(uint32_t w)
{
	unsigned rt;

	/* Loads and stores (C4.1 op0 = x1x0), and the barriers and cache
	 * maintenance the model acts on. */
	if (a64_in_ldst(w))
		return 1;
	return xsysop_a64_decode(w, &rt) != XS_NONE;
}
