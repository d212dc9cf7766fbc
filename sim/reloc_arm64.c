#include "sim/reloc_arm64.h"

#include <elf.h>
#include <stdio.h>

#ifndef R_AARCH64_PLT32
#define R_AARCH64_PLT32 314
#endif
/* Older objects used 256 for "no relocation" (AAELF64 5.7.2 lists both 0
 * and 256 as R_AARCH64_NONE; the kernel accepts both). */
#define R_AARCH64_NONE_ALT 256

static const struct {
	unsigned type;
	const char *name;
} names[] = {
#define N(t) { R_AARCH64_##t, "R_AARCH64_" #t }
	N(NONE), { R_AARCH64_NONE_ALT, "R_AARCH64_NONE" },
	N(ABS64), N(ABS32), N(ABS16), N(PREL64), N(PREL32), N(PREL16),
	N(MOVW_UABS_G0), N(MOVW_UABS_G0_NC), N(MOVW_UABS_G1),
	N(MOVW_UABS_G1_NC), N(MOVW_UABS_G2), N(MOVW_UABS_G2_NC),
	N(MOVW_UABS_G3), N(MOVW_SABS_G0), N(MOVW_SABS_G1), N(MOVW_SABS_G2),
	N(LD_PREL_LO19), N(ADR_PREL_LO21), N(ADR_PREL_PG_HI21),
	N(ADR_PREL_PG_HI21_NC), N(ADD_ABS_LO12_NC), N(LDST8_ABS_LO12_NC),
	N(TSTBR14), N(CONDBR19), N(JUMP26), N(CALL26),
	N(LDST16_ABS_LO12_NC), N(LDST32_ABS_LO12_NC), N(LDST64_ABS_LO12_NC),
	N(MOVW_PREL_G0), N(MOVW_PREL_G0_NC), N(MOVW_PREL_G1),
	N(MOVW_PREL_G1_NC), N(MOVW_PREL_G2), N(MOVW_PREL_G2_NC),
	N(MOVW_PREL_G3), N(LDST128_ABS_LO12_NC), N(PLT32),
#undef N
};

const char *sim_arm64_reloc_name(unsigned type)
{
	static char buf[40];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].type == type)
			return names[i].name;
	snprintf(buf, sizeof(buf), "R_AARCH64_<unknown %u>", type);
	return buf;
}

int sim_arm64_reloc_width(unsigned type)
{
	switch (type) {
	case R_AARCH64_NONE:
	case R_AARCH64_NONE_ALT:
		return 0;
	case R_AARCH64_ABS64:
	case R_AARCH64_PREL64:
		return 8;
	case R_AARCH64_ABS16:
	case R_AARCH64_PREL16:
		return 2;
	default:
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (names[i].type == type)
				return 4;
		return -1;
	}
}

int sim_arm64_reloc_is_branch26(unsigned type)
{
	return type == R_AARCH64_CALL26 || type == R_AARCH64_JUMP26;
}

static uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr32(uint8_t *p, uint32_t v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

static void wr(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = v >> (8 * i);
}

/* lo <= x < hi, with lo/hi given as powers of two exponents. */
static int in_signed(int64_t x, int bits)
{
	return x >= -((int64_t)1 << bits) && x < ((int64_t)1 << bits);
}

/* AAELF64: 16- and 32-bit data relocations accept -2^(n-1) <= X < 2^n,
 * i.e. the value fits either as a signed or as an unsigned quantity. */
static int in_data(int64_t x, int n)
{
	return x >= -((int64_t)1 << (n - 1)) && x < ((int64_t)1 << n);
}

/* Inserts v into bits [lsb, lsb+width) of the instruction at p. */
static void set_field(uint8_t *p, uint32_t v, int lsb, int width)
{
	uint32_t mask = ((width == 32 ? 0u : 1u << width) - 1) << lsb;

	wr32(p, (rd32(p) & ~mask) | ((v << lsb) & mask));
}

/* MOVZ/MOVN/MOVK (Arm ARM C6.2.191-193): imm16 in [20:5], opc in [30:29]:
 * 00 MOVN, 10 MOVZ, 11 MOVK. Signed groups pick MOVN for a negative X and
 * store ~X, as AAELF64 5.7.7 (Group relocations) requires. */
static void set_movw(uint8_t *p, int64_t x, int shift, int is_signed)
{
	uint64_t v = (uint64_t)x;

	if (is_signed) {
		uint32_t insn = rd32(p) & ~(3u << 29);

		if (x < 0) {
			v = ~v;
		} else {
			insn |= 2u << 29;
		}
		wr32(p, insn);
	}
	set_field(p, (v >> shift) & 0xffff, 5, 16);
}

/* ADR/ADRP immediate (C6.2.10/11): immlo [30:29], immhi [23:5]. */
static void set_adr(uint8_t *p, int64_t imm)
{
	set_field(p, (uint64_t)imm & 3, 29, 2);
	set_field(p, ((uint64_t)imm >> 2) & 0x7ffff, 5, 19);
}

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			goto overflow;                                         \
	} while (0)

enum sim_reloc_status sim_arm64_reloc_apply(unsigned type, uint8_t *loc,
					    uint64_t P, uint64_t S, int64_t A,
					    int64_t *x)
{
	int64_t X;
	uint64_t sa = S + (uint64_t)A;

	switch (type) {
	case R_AARCH64_NONE:
	case R_AARCH64_NONE_ALT:
		return SIM_RELOC_OK;
	case R_AARCH64_ABS64:
		wr(loc, sa, 8);
		return SIM_RELOC_OK;
	case R_AARCH64_PREL64:
		wr(loc, sa - P, 8);
		return SIM_RELOC_OK;
	case R_AARCH64_ABS32:
		X = sa;
		CHECK(in_data(X, 32));
		wr(loc, X, 4);
		return SIM_RELOC_OK;
	case R_AARCH64_ABS16:
		X = sa;
		CHECK(in_data(X, 16));
		wr(loc, X, 2);
		return SIM_RELOC_OK;
	case R_AARCH64_PREL32:
		X = sa - P;
		CHECK(in_data(X, 32));
		wr(loc, X, 4);
		return SIM_RELOC_OK;
	case R_AARCH64_PLT32:
		/* AAELF64: -2^31 <= X < 2^31 */
		X = sa - P;
		CHECK(in_signed(X, 31));
		wr(loc, X, 4);
		return SIM_RELOC_OK;
	case R_AARCH64_PREL16:
		X = sa - P;
		CHECK(in_data(X, 16));
		wr(loc, X, 2);
		return SIM_RELOC_OK;

	/* Unsigned absolute MOVW groups: G0/G1/G2 check X < 2^16/32/48. */
	case R_AARCH64_MOVW_UABS_G0:
		X = sa;
		CHECK((uint64_t)X < (1ull << 16));
		set_movw(loc, X, 0, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G1:
		X = sa;
		CHECK((uint64_t)X < (1ull << 32));
		set_movw(loc, X, 16, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G2:
		X = sa;
		CHECK((uint64_t)X < (1ull << 48));
		set_movw(loc, X, 32, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G0_NC:
		set_movw(loc, sa, 0, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G1_NC:
		set_movw(loc, sa, 16, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G2_NC:
		set_movw(loc, sa, 32, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_UABS_G3:
		set_movw(loc, sa, 48, 0);
		return SIM_RELOC_OK;

	/* Signed groups (MOV[NZ]): -2^16 <= X < 2^16 etc. */
	case R_AARCH64_MOVW_SABS_G0:
	case R_AARCH64_MOVW_PREL_G0:
		X = type == R_AARCH64_MOVW_PREL_G0 ? (int64_t)(sa - P) : (int64_t)sa;
		CHECK(in_signed(X, 16));
		set_movw(loc, X, 0, 1);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_SABS_G1:
	case R_AARCH64_MOVW_PREL_G1:
		X = type == R_AARCH64_MOVW_PREL_G1 ? (int64_t)(sa - P) : (int64_t)sa;
		CHECK(in_signed(X, 32));
		set_movw(loc, X, 16, 1);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_SABS_G2:
	case R_AARCH64_MOVW_PREL_G2:
		X = type == R_AARCH64_MOVW_PREL_G2 ? (int64_t)(sa - P) : (int64_t)sa;
		CHECK(in_signed(X, 48));
		set_movw(loc, X, 32, 1);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_PREL_G3:
		set_movw(loc, sa - P, 48, 1);
		return SIM_RELOC_OK;
	/* _NC PC-relative groups set a MOVK field: no check, no opcode change. */
	case R_AARCH64_MOVW_PREL_G0_NC:
		set_movw(loc, sa - P, 0, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_PREL_G1_NC:
		set_movw(loc, sa - P, 16, 0);
		return SIM_RELOC_OK;
	case R_AARCH64_MOVW_PREL_G2_NC:
		set_movw(loc, sa - P, 32, 0);
		return SIM_RELOC_OK;

	/* PC-relative immediates of loads, ADR and branches. */
	case R_AARCH64_LD_PREL_LO19:
	case R_AARCH64_CONDBR19:
		/* imm19 in [23:5], scaled by 4: -2^20 <= X < 2^20 */
		X = sa - P;
		CHECK(in_signed(X, 20));
		set_field(loc, (uint64_t)X >> 2, 5, 19);
		return SIM_RELOC_OK;
	case R_AARCH64_ADR_PREL_LO21:
		X = sa - P;
		CHECK(in_signed(X, 20));
		set_adr(loc, X);
		return SIM_RELOC_OK;
	case R_AARCH64_ADR_PREL_PG_HI21:
	case R_AARCH64_ADR_PREL_PG_HI21_NC:
		/* X = Page(S+A) - Page(P); the checked form needs
		 * -2^32 <= X < 2^32 (ADRP reaches +/-4 GiB). */
		X = (sa & ~0xfffull) - (P & ~0xfffull);
		if (type == R_AARCH64_ADR_PREL_PG_HI21)
			CHECK(in_signed(X, 32));
		set_adr(loc, X >> 12);
		return SIM_RELOC_OK;
	case R_AARCH64_TSTBR14:
		/* imm14 in [18:5]: -2^15 <= X < 2^15 */
		X = sa - P;
		CHECK(in_signed(X, 15));
		set_field(loc, (uint64_t)X >> 2, 5, 14);
		return SIM_RELOC_OK;
	case R_AARCH64_JUMP26:
	case R_AARCH64_CALL26:
		/* imm26 in [25:0]: -2^27 <= X < 2^27 (+/-128 MiB) */
		X = sa - P;
		CHECK(in_signed(X, 27));
		set_field(loc, (uint64_t)X >> 2, 0, 26);
		return SIM_RELOC_OK;

	/* Low 12 bits of an absolute address into ADD or LDR/STR imm12
	 * ([21:10]), scaled by the access size for loads and stores. */
	case R_AARCH64_ADD_ABS_LO12_NC:
	case R_AARCH64_LDST8_ABS_LO12_NC:
		set_field(loc, sa & 0xfff, 10, 12);
		return SIM_RELOC_OK;
	case R_AARCH64_LDST16_ABS_LO12_NC:
		set_field(loc, (sa & 0xfff) >> 1, 10, 12);
		return SIM_RELOC_OK;
	case R_AARCH64_LDST32_ABS_LO12_NC:
		set_field(loc, (sa & 0xfff) >> 2, 10, 12);
		return SIM_RELOC_OK;
	case R_AARCH64_LDST64_ABS_LO12_NC:
		set_field(loc, (sa & 0xfff) >> 3, 10, 12);
		return SIM_RELOC_OK;
	case R_AARCH64_LDST128_ABS_LO12_NC:
		set_field(loc, (sa & 0xfff) >> 4, 10, 12);
		return SIM_RELOC_OK;
	default:
		return SIM_RELOC_UNKNOWN;
	}
overflow:
	if (x)
		*x = X;
	return SIM_RELOC_OVERFLOW;
}
