#include "sim/reloc_riscv64.h"

#include <elf.h>
#include <stdio.h>

/* Newer psABI numbers glibc's elf.h may lack. */
#ifndef R_RISCV_PLT32
#define R_RISCV_PLT32 59
#endif
/* psABI 1.0 LEB128 label differences (binutils >= 2.41 emits them for
 * .gcc_except_table/.debug_*; Debian 12's 2.40 does not): named, refused. */
#ifndef R_RISCV_SET_ULEB128
#define R_RISCV_SET_ULEB128 60
#define R_RISCV_SUB_ULEB128 61
#endif

static const struct {
	unsigned type;
	const char *name;
	int width;
} types[] = {
#define T(t, w) { R_RISCV_##t, "R_RISCV_" #t, w }
	T(NONE, 0), T(32, 4), T(64, 8), T(RELATIVE, -1), T(COPY, -1),
	T(JUMP_SLOT, -1), T(TLS_DTPMOD32, -1), T(TLS_DTPMOD64, -1),
	T(TLS_DTPREL32, -1), T(TLS_DTPREL64, -1), T(TLS_TPREL32, -1),
	T(TLS_TPREL64, -1), T(BRANCH, 4), T(JAL, 4), T(CALL, 8),
	T(CALL_PLT, 8), T(GOT_HI20, -1), T(TLS_GOT_HI20, -1),
	T(TLS_GD_HI20, -1), T(PCREL_HI20, 4), T(PCREL_LO12_I, 4),
	T(PCREL_LO12_S, 4), T(HI20, 4), T(LO12_I, 4), T(LO12_S, 4),
	T(TPREL_HI20, -1), T(TPREL_LO12_I, -1), T(TPREL_LO12_S, -1),
	T(TPREL_ADD, -1), T(ADD8, 1), T(ADD16, 2), T(ADD32, 4), T(ADD64, 8),
	T(SUB8, 1), T(SUB16, 2), T(SUB32, 4), T(SUB64, 8),
	T(GNU_VTINHERIT, -1), T(GNU_VTENTRY, -1), T(ALIGN, 0),
	T(RVC_BRANCH, 2), T(RVC_JUMP, 2), T(RVC_LUI, -1), T(GPREL_I, -1),
	T(GPREL_S, -1), T(TPREL_I, -1), T(TPREL_S, -1), T(RELAX, 0),
	T(SUB6, 1), T(SET6, 1), T(SET8, 1), T(SET16, 2), T(SET32, 4),
	T(32_PCREL, 4), T(IRELATIVE, -1), T(PLT32, 4), T(SET_ULEB128, -1),
	T(SUB_ULEB128, -1),
#undef T
};

const char *sim_riscv64_reloc_name(unsigned type)
{
	static char buf[40];

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return types[i].name;
	snprintf(buf, sizeof(buf), "R_RISCV_<unknown %u>", type);
	return buf;
}

int sim_riscv64_reloc_width(unsigned type)
{
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (types[i].type == type)
			return types[i].width;
	return -1;
}

static uint64_t rd(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void wr(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* -2^bits <= x < 2^bits */
static int in_signed(int64_t x, int bits)
{
	return x >= -((int64_t)1 << bits) && x < ((int64_t)1 << bits);
}

int64_t sim_riscv64_hi20(int64_t x)
{
	return (int64_t)((uint64_t)x + 0x800) >> 12;
}

int64_t sim_riscv64_lo12(int64_t x)
{
	return x - (int64_t)((uint64_t)sim_riscv64_hi20(x) << 12);
}

/* AUIPC/LUI reach: hi20 must be a signed 20-bit page count, i.e.
 * -2^31 - 2^11 <= X < 2^31 - 2^11 (the top 2 KiB round out of range). */
static int hi20_ok(int64_t x)
{
	return in_signed(sim_riscv64_hi20(x), 19);
}

/* Instruction formats (RISC-V unprivileged ISA, "Base Instruction
 * Formats" and "Immediate Encoding Variants"; RVC "Compressed Instruction
 * Formats"). Each clears the immediate bits and inserts the new ones. */
static uint32_t set_u(uint32_t w, int64_t hi)
{
	return (w & 0xfff) | (uint32_t)((uint64_t)hi << 12);
}

static uint32_t set_i(uint32_t w, int64_t imm)
{
	return (w & 0xfffff) | (uint32_t)(((uint64_t)imm & 0xfff) << 20);
}

static uint32_t set_s(uint32_t w, int64_t imm)
{
	uint32_t v = (uint64_t)imm & 0xfff;

	return (w & 0x01fff07f) | (v >> 5) << 25 | (v & 0x1f) << 7;
}

/* B-type: imm[12] -> 31, imm[10:5] -> 30:25, imm[4:1] -> 11:8, imm[11] -> 7 */
static uint32_t set_b(uint32_t w, int64_t imm)
{
	uint32_t v = (uint64_t)imm;

	return (w & 0x01fff07f) | ((v >> 12) & 1) << 31 |
	       ((v >> 5) & 0x3f) << 25 | ((v >> 1) & 0xf) << 8 |
	       ((v >> 11) & 1) << 7;
}

/* J-type: imm[20] -> 31, imm[10:1] -> 30:21, imm[11] -> 20, imm[19:12] -> 19:12 */
static uint32_t set_j(uint32_t w, int64_t imm)
{
	uint32_t v = (uint64_t)imm;

	return (w & 0xfff) | ((v >> 20) & 1) << 31 | ((v >> 1) & 0x3ff) << 21 |
	       ((v >> 11) & 1) << 20 | ((v >> 12) & 0xff) << 12;
}

/* CB format (C.BEQZ/C.BNEZ): offset[8|4:3] -> 12|11:10,
 * offset[7:6|2:1|5] -> 6:5|4:3|2. */
static uint16_t set_cb(uint16_t h, int64_t imm)
{
	uint32_t v = (uint64_t)imm;

	return (h & 0xe383) | ((v >> 8) & 1) << 12 | ((v >> 3) & 3) << 10 |
	       ((v >> 6) & 3) << 5 | ((v >> 1) & 3) << 3 | ((v >> 5) & 1) << 2;
}

/* CJ format (C.J/C.JAL): offset[11|4|9:8|10|6|7|3:1|5] -> bits 12..2. */
static uint16_t set_cj(uint16_t h, int64_t imm)
{
	uint32_t v = (uint64_t)imm;

	return (h & 0xe003) | ((v >> 11) & 1) << 12 | ((v >> 4) & 1) << 11 |
	       ((v >> 8) & 3) << 9 | ((v >> 10) & 1) << 8 |
	       ((v >> 6) & 1) << 7 | ((v >> 7) & 1) << 6 |
	       ((v >> 1) & 7) << 3 | ((v >> 5) & 1) << 2;
}

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			goto overflow;                                         \
	} while (0)

enum sim_reloc_status sim_riscv64_reloc_apply(unsigned type, uint8_t *loc,
					      uint64_t P, uint64_t S,
					      int64_t A, int64_t *x)
{
	uint64_t sa = S + (uint64_t)A;
	int64_t X = (int64_t)(sa - P);
	int w = sim_riscv64_reloc_width(type);

	switch (type) {
	case R_RISCV_NONE:
	case R_RISCV_RELAX:
	case R_RISCV_ALIGN:
		return SIM_RELOC_OK;
	case R_RISCV_64:
		wr(loc, sa, 8);
		return SIM_RELOC_OK;
	case R_RISCV_32:
		/* A 32-bit word holding S+A: accept what fits as signed or
		 * unsigned (ld's complain_overflow_dont would truncate; a
		 * truncated kernel address is never what the code meant). */
		X = (int64_t)sa;
		CHECK(X >= -((int64_t)1 << 31) && X < ((int64_t)1 << 32));
		wr(loc, sa, 4);
		return SIM_RELOC_OK;
	case R_RISCV_32_PCREL:
	case R_RISCV_PLT32:
		CHECK(in_signed(X, 31));
		wr(loc, (uint64_t)X, 4);
		return SIM_RELOC_OK;

	/* Label arithmetic (psABI: "word8 V + S + A" etc.), modulo 2^n. */
	case R_RISCV_ADD8:
	case R_RISCV_ADD16:
	case R_RISCV_ADD32:
	case R_RISCV_ADD64:
		wr(loc, rd(loc, w) + sa, w);
		return SIM_RELOC_OK;
	case R_RISCV_SUB8:
	case R_RISCV_SUB16:
	case R_RISCV_SUB32:
	case R_RISCV_SUB64:
		wr(loc, rd(loc, w) - sa, w);
		return SIM_RELOC_OK;
	case R_RISCV_SUB6:
		/* word6: the low 6 bits of the byte; the top 2 are kept. */
		loc[0] = (loc[0] & 0xc0) | ((loc[0] - sa) & 0x3f);
		return SIM_RELOC_OK;
	case R_RISCV_SET6:
		loc[0] = (loc[0] & 0xc0) | (sa & 0x3f);
		return SIM_RELOC_OK;
	case R_RISCV_SET8:
	case R_RISCV_SET16:
	case R_RISCV_SET32:
		wr(loc, sa, w);
		return SIM_RELOC_OK;

	/* Conditional branch: 13-bit signed, even byte offset (+/-4 KiB). */
	case R_RISCV_BRANCH:
		CHECK(in_signed(X, 12) && !(X & 1));
		wr(loc, set_b(rd(loc, 4), X), 4);
		return SIM_RELOC_OK;
	/* JAL: 21-bit signed, even (+/-1 MiB). */
	case R_RISCV_JAL:
		CHECK(in_signed(X, 20) && !(X & 1));
		wr(loc, set_j(rd(loc, 4), X), 4);
		return SIM_RELOC_OK;
	/* C.BEQZ/C.BNEZ: 9-bit signed (+/-256 B); C.J: 12-bit (+/-2 KiB). */
	case R_RISCV_RVC_BRANCH:
		CHECK(in_signed(X, 8) && !(X & 1));
		wr(loc, set_cb(rd(loc, 2), X), 2);
		return SIM_RELOC_OK;
	case R_RISCV_RVC_JUMP:
		CHECK(in_signed(X, 11) && !(X & 1));
		wr(loc, set_cj(rd(loc, 2), X), 2);
		return SIM_RELOC_OK;

	/* CALL/CALL_PLT: the AUIPC at P and the JALR at P+4 (psABI: "Macro
	 * Instructions"); CALL_PLT's PLT is the symbol itself in a static
	 * link. The JALR must be even (X even: targets are 2-aligned). */
	case R_RISCV_CALL:
	case R_RISCV_CALL_PLT:
		CHECK(hi20_ok(X) && !(X & 1));
		wr(loc, set_u(rd(loc, 4), sim_riscv64_hi20(X)), 4);
		wr(loc + 4, set_i(rd(loc + 4, 4), sim_riscv64_lo12(X)), 4);
		return SIM_RELOC_OK;
	case R_RISCV_PCREL_HI20:
		CHECK(hi20_ok(X));
		wr(loc, set_u(rd(loc, 4), sim_riscv64_hi20(X)), 4);
		return SIM_RELOC_OK;
	case R_RISCV_PCREL_LO12_I:
		wr(loc, set_i(rd(loc, 4), sim_riscv64_lo12((int64_t)sa)), 4);
		return SIM_RELOC_OK;
	case R_RISCV_PCREL_LO12_S:
		wr(loc, set_s(rd(loc, 4), sim_riscv64_lo12((int64_t)sa)), 4);
		return SIM_RELOC_OK;

	/* Absolute LUI/ADDI pairs (medlow): the value must be a
	 * sign-extended 32-bit quantity, which kernel-half addresses are
	 * not, so these overflow for symbols the sim places. */
	case R_RISCV_HI20:
		X = (int64_t)sa;
		CHECK(hi20_ok(X));
		wr(loc, set_u(rd(loc, 4), sim_riscv64_hi20(X)), 4);
		return SIM_RELOC_OK;
	case R_RISCV_LO12_I:
		wr(loc, set_i(rd(loc, 4), sim_riscv64_lo12((int64_t)sa)), 4);
		return SIM_RELOC_OK;
	case R_RISCV_LO12_S:
		wr(loc, set_s(rd(loc, 4), sim_riscv64_lo12((int64_t)sa)), 4);
		return SIM_RELOC_OK;
	default:
		return SIM_RELOC_UNKNOWN;
	}
overflow:
	if (x)
		*x = X;
	return SIM_RELOC_OVERFLOW;
}
