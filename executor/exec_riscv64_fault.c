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
 * The address forms (I- and S-type offsets, AMOs' rs1, the RVC loads and
 * stores on rs1' and sp) and which words transfer control are read from the
 * one encoding table (rv_mem_address(), rv_class(): encoders/riscv_table.c). */
#include <string.h>

#include "encoders/riscv.h"
#include "executor/exec_engine.h"
#include "executor/exec_riscv64.h"

/* 1 and the base register and offset if w is a load, store or AMO whose
 * address the encoding table decodes; 0 if not; -1 if w may transfer
 * control (the end of straight-line code). *len is the instruction
 * length. */
static int mem_operand(uint32_t w, unsigned *rs1, int64_t *off, unsigned *len)
{
	unsigned size;

	*len = (w & 3) == 3 ? 4 : 2;
	if (rv_class(w) & RV_CL_JUMP)
		return -1;
	return rv_mem_address(w, rs1, off, &size);
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
