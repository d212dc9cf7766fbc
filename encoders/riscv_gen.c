/* Encoders for the RISC-V backend: thin wrappers over the table's
 * rv_encode, plus the pc-relative arithmetic of JAL and AUIPC+JALR. */
#include "encoders/riscv_table.h"

#include <inttypes.h>

static int gen(enum rv_op op, unsigned rd, unsigned rs1, unsigned rs2,
	       int64_t imm, uint32_t *w, struct ftv_err *err)
{
	return rv_encode(rv_encoding_by_op(op), rd, rs1, rs2, imm, w, err);
}

int rv_gen_auipc(unsigned rd, int64_t imm20_pages, uint32_t *w,
		 struct ftv_err *err)
{
	return gen(RV_OP_AUIPC, rd, 0, 0, imm20_pages, w, err);
}

int rv_gen_jalr(unsigned rd, unsigned rs1, int64_t off12, uint32_t *w,
		struct ftv_err *err)
{
	return gen(RV_OP_JALR, rd, rs1, 0, off12, w, err);
}

int rv_gen_addi(unsigned rd, unsigned rs1, int64_t imm12, uint32_t *w,
		struct ftv_err *err)
{
	return gen(RV_OP_ADDI, rd, rs1, 0, imm12, w, err);
}

int rv_gen_ld(unsigned rd, unsigned rs1, int64_t off12, uint32_t *w,
	      struct ftv_err *err)
{
	return gen(RV_OP_LD, rd, rs1, 0, off12, w, err);
}

int rv_gen_sd(unsigned rs2, unsigned rs1, int64_t off12, uint32_t *w,
	      struct ftv_err *err)
{
	return gen(RV_OP_SD, 0, rs1, rs2, off12, w, err);
}

/* With the C extension IALIGN is 16: instructions, and so branch targets,
 * are 2-byte aligned (ISA 1.5 "Base Instruction-Length Encoding"). */
static int check_pc(const char *what, uint64_t pc, struct ftv_err *err)
{
	if (pc & 1)
		return ftv_errf(err, "riscv %s: address 0x%" PRIx64
				" is not 2-byte aligned", what, pc);
	return 0;
}

int rv_gen_jal(uint64_t pc, uint64_t target, unsigned rd, uint32_t *w,
	       struct ftv_err *err)
{
	if (check_pc("jal", pc, err) || check_pc("jal", target, err))
		return -1;
	/* JAL adds a sign-extended 21-bit byte offset to its own pc (ISA 2.5). */
	return gen(RV_OP_JAL, rd, 0, 0, (int64_t)(target - pc), w, err);
}

int rv_gen_call_pair(uint64_t pc, uint64_t target, unsigned rd,
		     uint32_t *auipc, uint32_t *jalr, struct ftv_err *err)
{
	int64_t off, hi, lo;
	uint32_t a, j;

	if (check_pc("call", pc, err) || check_pc("call", target, err))
		return -1;
	if (rd == RV_REG_ZERO)
		return ftv_errf(err, "riscv call: auipc into zero discards the "
				"high part; use a scratch register");
	off = (int64_t)(target - pc);
	/* AUIPC adds hi << 12 to its pc and JALR adds a sign-extended lo, so
	 * hi is rounded: hi = (off + 0x800) >> 12 keeps lo in -2048..2047
	 * (ISA 2.5: "AUIPC ... JALR ... can transfer control to any 32-bit
	 * PC-relative address"; the psABI's %pcrel_hi/%pcrel_lo). */
	if (off < -(int64_t)0x80000800 || off > (int64_t)0x7ffff7ff)
		return ftv_errf(err, "riscv call: offset %s0x%" PRIx64 " from 0x%"
				PRIx64 " to 0x%" PRIx64 " out of auipc+jalr range "
				"-0x80000800..0x7ffff7ff", off < 0 ? "-" : "",
				off < 0 ? (uint64_t)0 - (uint64_t)off : (uint64_t)off,
				pc, target);
	hi = (off + 0x800) >> 12;
	lo = off - hi * 4096;
	if (rv_gen_auipc(rd, hi, &a, err) || rv_gen_jalr(rd, rd, lo, &j, err))
		return -1;
	*auipc = a;
	*jalr = j;
	return 0;
}

uint32_t rv_gen_nop(void)
{
	return rv_encoding_by_op(RV_OP_NOP)->match;
}

uint16_t rv_gen_c_nop(void)
{
	return (uint16_t)rv_encoding_by_op(RV_OP_C_NOP)->match;
}
