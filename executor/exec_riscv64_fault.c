/* riscv64: where a memory access fault happened. Unicorn 2.0.1 does not
 * bring a RISC-V guest's pc up to date before a load or store (checked: after
 * READ_UNMAPPED pc is the start of the translation block, or the last hooked
 * instruction, with the instructions before the faulting one executed). So
 * the engine records the faulting address (UC_HOOK_MEM_UNMAPPED / PROT)
 * and walks the straight-line code from that pc to the first load or store
 * whose effective address, computed from the registers as they are now, is
 * that address. A translation block ends at the first control transfer, so
 * the walk stops there too.
 *
 * Address forms from the Unprivileged ISA: I-type loads (LOAD, LOAD-FP:
 * rs1 + imm[11:0]), S-type stores (STORE, STORE-FP: rs1 + imm[11:5|4:0]),
 * AMOs (rs1), and the RVC loads/stores ("C" extension: c.lw/c.ld/c.sw/c.sd
 * and their FP forms on rs1' = x8..x15, the sp-relative c.*sp forms). */
#include <string.h>

#include "executor/exec_engine.h"
#include "executor/exec_riscv64.h"

static int64_t sext(uint64_t v, unsigned bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static unsigned bits(uint32_t w, unsigned hi, unsigned lo)
{
	return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

/* 1 and the base register and offset if w is a load/store/AMO; 0 if not;
 * -1 if w transfers control (the end of straight-line code). *len is the
 * instruction length. */
static int mem_operand(uint32_t w, unsigned *rs1, int64_t *off, unsigned *len)
{
	unsigned f3 = bits(w, 15, 13);

	*len = (w & 3) == 3 ? 4 : 2;
	switch (w & 3) {
	case 0:
		*rs1 = 8 + bits(w, 9, 7);
		if (f3 == 2 || f3 == 6) { /* c.lw, c.sw */
			*off = bits(w, 12, 10) << 3 | bits(w, 6, 6) << 2 |
			       bits(w, 5, 5) << 6;
			return 1;
		}
		if (f3 == 1 || f3 == 3 || f3 == 5 || f3 == 7) { /* 64-bit */
			*off = bits(w, 12, 10) << 3 | bits(w, 6, 5) << 6;
			return 1;
		}
		return 0;
	case 1: /* c.jal/c.addiw (001), c.j (101), c.beqz (110), c.bnez (111) */
		return f3 == 5 || f3 == 6 || f3 == 7 ? -1 : 0;
	case 2:
		*rs1 = 2;
		switch (f3) {
		case 2: /* c.lwsp */
			*off = bits(w, 12, 12) << 5 | bits(w, 6, 4) << 2 |
			       bits(w, 3, 2) << 6;
			return 1;
		case 1: /* c.fldsp */
		case 3: /* c.ldsp */
			*off = bits(w, 12, 12) << 5 | bits(w, 6, 5) << 3 |
			       bits(w, 4, 2) << 6;
			return 1;
		case 6: /* c.swsp */
			*off = bits(w, 12, 9) << 2 | bits(w, 8, 7) << 6;
			return 1;
		case 5: /* c.fsdsp */
		case 7: /* c.sdsp */
			*off = bits(w, 12, 10) << 3 | bits(w, 9, 7) << 6;
			return 1;
		case 4: /* c.jr, c.jalr (rs2 == 0, rs1 != 0) vs c.mv/c.add */
			return bits(w, 6, 2) == 0 && bits(w, 11, 7) != 0 ? -1
									   : 0;
		}
		return 0;
	}
	*rs1 = bits(w, 19, 15);
	switch (w & 0x7f) {
	case 0x03: /* LOAD */
	case 0x07: /* LOAD-FP */
		*off = sext(bits(w, 31, 20), 12);
		return 1;
	case 0x23: /* STORE */
	case 0x27: /* STORE-FP */
		*off = sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
		return 1;
	case 0x2f: /* AMO, LR, SC */
		*off = 0;
		return 1;
	case 0x63: /* BRANCH */
	case 0x67: /* JALR */
	case 0x6f: /* JAL */
	case 0x73: /* SYSTEM: ecall, ebreak, xRET */
		return -1;
	}
	return 0;
}

uint64_t xrv_fault_pc(struct xengine *e, unsigned cpu, uint64_t pc,
		      uint64_t addr)
{
	uint64_t at = pc;

	for (int i = 0; i < 512; i++) {
		uint8_t *p = xe_copy_ptr(e, cpu, at);
		uint16_t lo;
		uint32_t w;
		unsigned rs1 = 0, len;
		int64_t off = 0;
		int k;

		if (!p)
			break;
		memcpy(&lo, p, 2);
		w = lo;
		if ((w & 3) == 3) {
			if (xe_copy_ptr(e, cpu, at + 2) != p + 2)
				break; /* the word runs off its region */
			memcpy(&w, p, 4);
		}
		k = mem_operand(w, &rs1, &off, &len);
		if (k < 0)
			break;
		if (k > 0) {
			uint64_t base = xe_reg(e, cpu, (int)rs1);

			if (base + (uint64_t)off == addr)
				return at;
		}
		at += len;
	}
	return pc; /* not found: the block start is the best we know */
}
