/* The table of a64_table.h as data, plus the lookups everything shares. */
#include "encoders/a64.h"
#include "encoders/a64_internal.h"

#include <stdio.h>

const struct a64_desc a64_descs[A64_NR_INSNS] = {
#define A64_X_DESC(ID, LC, NAME, MASK, VALUE, FORM, FLAGS)                     \
	[A64_##ID] = { A64_##ID, NAME, #LC, MASK, VALUE, FORM, FLAGS },
	A64_INSN_TABLE(A64_X_DESC)
#undef A64_X_DESC
};

/* Arm ARM C1.2.4 "Condition code": objdump's spellings (hs/lo for cs/cc). */
const char *const a64_cond_names[16] = {
	"eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc",
	"hi", "ls", "ge", "lt", "gt", "le", "al", "nv",
};

/* Arm ARM C6.2.90 DSB: CRm option names; 0 and 4 encode SSBB/PSSBB for DSB
 * and are left unnamed here. */
const char *const a64_barrier_names[16] = {
	[1] = "oshld", [2] = "oshst", [3] = "osh",
	[5] = "nshld", [6] = "nshst", [7] = "nsh",
	[9] = "ishld", [10] = "ishst", [11] = "ish",
	[13] = "ld", [14] = "st", [15] = "sy",
};

enum a64_id a64_lookup(uint32_t word)
{
	for (int i = 0; i < A64_NR_INSNS; i++)
		if ((word & a64_descs[i].mask) == a64_descs[i].value)
			return (enum a64_id)i;
	return A64_UNKNOWN;
}

const char *a64_reg_name(unsigned r, bool is64, bool sp)
{
	static const char *const x[32] = {
		"x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10",
		"x11", "x12", "x13", "x14", "x15", "x16", "x17", "x18", "x19", "x20",
		"x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30",
		"xzr",
	};
	static const char *const w[32] = {
		"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9", "w10",
		"w11", "w12", "w13", "w14", "w15", "w16", "w17", "w18", "w19", "w20",
		"w21", "w22", "w23", "w24", "w25", "w26", "w27", "w28", "w29", "w30",
		"wzr",
	};

	r &= 31;
	if (r == 31 && sp)
		return is64 ? "sp" : "wsp";
	return is64 ? x[r] : w[r];
}

static uint64_t ones(unsigned n)
{
	return n >= 64 ? ~0ULL : (1ULL << n) - 1;
}

static uint64_t ror(uint64_t v, unsigned r, unsigned esize)
{
	r %= esize;
	if (!r)
		return v;
	return ((v >> r) | (v << (esize - r))) & ones(esize);
}

static uint64_t replicate(uint64_t elem, unsigned esize)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 64; i += esize)
		v |= elem << i;
	return v;
}

int a64_bitmask_decode(unsigned n, unsigned immr, unsigned imms, bool is64,
		       uint64_t *value)
{
	/* len = HighestSetBit(N:NOT(imms)) */
	unsigned combined = (n << 6) | (~imms & 0x3f);
	int len = -1;

	for (int i = 6; i >= 0; i--)
		if (combined & (1u << i)) {
			len = i;
			break;
		}
	if (len < 1 || (!is64 && n))
		return -1;
	unsigned esize = 1u << len, levels = esize - 1;
	unsigned s = imms & levels, r = immr & levels;

	if (s == levels) /* a run of all ones is reserved */
		return -1;
	uint64_t elem = ror(ones(s + 1), r, esize);

	*value = replicate(elem, esize) & ones(is64 ? 64 : 32);
	return 0;
}

int a64_bitmask_encode(uint64_t value, bool is64, unsigned *n, unsigned *immr,
		       unsigned *imms)
{
	unsigned size = is64 ? 64 : 32, esize;

	if (!is64) {
		if (value >> 32)
			return -1;
		value |= value << 32; /* a 32-bit pattern, seen as 64 bits */
	}
	if (value == 0 || value == ~0ULL)
		return -1;
	/* the smallest element the value is a replication of */
	for (esize = 2; esize < 64; esize *= 2)
		if (replicate(value & ones(esize), esize) == value)
			break;
	if (esize > size)
		return -1;
	uint64_t elem = value & ones(esize);
	unsigned cnt = (unsigned)__builtin_popcountll(elem);

	for (unsigned r = 0; r < esize; r++)
		if (ror(ones(cnt), r, esize) == elem) {
			*n = esize == 64;
			*immr = r;
			*imms = ((~(esize * 2 - 1)) & 0x3f) | (cnt - 1);
			return 0;
		}
	return -1;
}
