/* What memory an instruction reads, from its encoding alone, so that a model
 * can know a load's address before the load runs: the executor makes a
 * CPU's load of a location whose store still sits in the patcher's store
 * buffer a scheduling point, and must decide that before the instruction
 * executes (a memory hook sees the access only as it happens).
 *
 * The address is
 *   MR_BASE   x[base] + offset
 *   MR_INDEX  x[base] + (extend(x[index]) << shift) + offset
 *   MR_PCREL  pc + offset
 * and the access covers len bytes from it (a pair: both registers).
 * MR_UNKNOWN: the instruction reads memory at an address not decoded here
 * (vector structure loads, memory copy instructions...): a caller must
 * assume it may read anything. Stores, prefetches and non-memory
 * instructions are MR_NONE.
 *
 * Registers are the architecture's numbers: arm64 base 31 is SP and index
 * 31 is XZR; riscv64 x0..x31 (x0 reads as zero). */
#ifndef FTV_ENCODERS_MEMREAD_H
#define FTV_ENCODERS_MEMREAD_H

#include <stdint.h>

enum memread_kind { MR_NONE, MR_BASE, MR_INDEX, MR_PCREL, MR_UNKNOWN };

/* arm64 register-offset extends (the option field, Arm ARM C6.2.*
 * "LDR (register)"): the index is a W register zero- or sign-extended, or
 * the whole X register. */
enum memread_ext { MR_EXT_UXTW, MR_EXT_UXTX, MR_EXT_SXTW, MR_EXT_SXTX };

struct memread {
	enum memread_kind kind;
	unsigned base, index;
	enum memread_ext ext;
	unsigned shift;
	int64_t offset;
	unsigned len;
};

/* Each fills *m and returns 1 when the instruction reads memory (kind is
 * not MR_NONE), else 0. rv_memread takes the 32 bits at pc; a compressed
 * instruction is the low 16. */
int a64_memread(uint32_t word, struct memread *m);
int rv_memread(uint32_t word, struct memread *m);

/* The first byte read, given the values of m->base and m->index (a caller
 * reads the registers; arm64 base 31 must be given the SP, index 31 zero). */
uint64_t memread_addr(const struct memread *m, uint64_t pc, uint64_t base,
		      uint64_t index);

#endif
