/* riscv64: the instructions the fetch model reacts to, and which ones touch
 * shared state (fine mode). Encodings from the RISC-V Unprivileged ISA:
 * FENCE and FENCE.I share the MISC-MEM major opcode 0001111 (funct3 000 and
 * 001, "Zifencei" chapter); loads, stores and AMOs are the LOAD, LOAD-FP,
 * STORE, STORE-FP and AMO major opcodes (opcode map, "RV32/64G Instruction
 * Set Listings"); the compressed loads and stores are quadrants 00 and 10
 * with funct3 != 000/100 ("C" extension, RVC opcode map). */
#include "executor/exec_int.h"

enum xsysop xsysop_rv_decode(uint32_t w, unsigned *rt)
{
	*rt = 0;
	if ((w & 3) != 3)
		return XS_NONE; /* compressed: no fence among them */
	/* fence.i: imm[11:0] rs1 001 rd 0001111 (all reserved fields 0 in
	 * the standard form, but any values are FENCE.I). */
	if ((w & 0x707fu) == 0x100fu)
		return XS_FENCE_I;
	if ((w & 0x707fu) == 0x000fu)
		return XS_FENCE;
	return XS_NONE;
}

int xsysop_rv_is_memory(uint32_t w)
{
	unsigned f3 = (w >> 13) & 7;

	switch (w & 3) {
	case 0: /* C0: c.fld c.lw c.ld (001 010 011), c.fsd c.sw c.sd (1xx) */
		return f3 != 0 && f3 != 4;
	case 2: /* C2: c.fldsp c.lwsp c.ldsp, c.fsdsp c.swsp c.sdsp */
		return f3 != 0 && f3 != 4;
	case 1:
		return 0;
	}
	switch (w & 0x7f) {
	case 0x03: /* LOAD */
	case 0x07: /* LOAD-FP */
	case 0x23: /* STORE */
	case 0x27: /* STORE-FP */
	case 0x2f: /* AMO */
	case 0x0f: /* MISC-MEM: fence, fence.i */
		return 1;
	}
	return 0;
}
