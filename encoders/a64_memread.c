/* The memory an arm64 instruction reads (encoders/memread.h): one row per
 * encoding class of the Arm ARM's "Loads and Stores" group (DDI 0487,
 * C4.1 "A64 instruction set encoding", op0 = x1x0), each with the way its
 * address is formed. A word of that group no row decodes reads at an
 * address not decoded here (MR_UNKNOWN: vector structures, memory tags,
 * memory copy), so a caller stays conservative about it. */
#include "encoders/memread.h"

#include <stddef.h>

enum form {
	F_LITERAL,   /* LDR (literal): pc + imm19 * 4 */
	F_PAIR,      /* LDP/LDNP/LDPSW, signed imm7 scaled; post-index: Xn */
	F_UIMM12,    /* LDR (immediate, unsigned offset): Xn + imm12 << scale */
	F_SIMM9,     /* LDUR, LDR pre/post-index, LDTR: Xn + imm9 (post: Xn) */
	F_REGOFF,    /* LDR (register): Xn + extend(Rm) << (S ? scale : 0) */
	F_ATOMIC,    /* LDADD..., SWP, LDAPR: Xn */
	F_EXCL,      /* LDXR, LDAXR, LDAR, LDXP, CAS, CASP: Xn */
	F_RCPC,      /* LDAPUR (RCpc, unscaled): Xn + imm9 */
	F_PAC,       /* LDRAA/LDRAB: the base is authenticated first */
};

static const struct row {
	uint32_t mask, value;
	enum form form;
} rows[] = {
	/* C4.1.94.x "Load register (literal)": opc 011 V 00 imm19 Rt */
	{ 0x3b000000, 0x18000000, F_LITERAL },
	/* "Load/store no-allocate pair (offset)", "Load/store register pair
	 * (post-indexed, offset, pre-indexed)": opc 101 V 0xx L imm7 */
	{ 0x3a000000, 0x28000000, F_PAIR },
	/* "Load/store register (unsigned immediate)": size 111 V 01 opc */
	{ 0x3b000000, 0x39000000, F_UIMM12 },
	/* "Load/store register (unscaled immediate, immediate post-indexed,
	 * unprivileged, immediate pre-indexed)": size 111 V 00 opc 0 imm9 xx */
	{ 0x3b200000, 0x38000000, F_SIMM9 },
	/* "Load/store register (register offset)": ... opc 1 Rm option S 10 */
	{ 0x3b200c00, 0x38200800, F_REGOFF },
	/* "Atomic memory operations": size 111 0 00 A R 1 Rs o3 opc 00 */
	{ 0x3f200c00, 0x38200000, F_ATOMIC },
	/* "Load/store register (pac)": size 111 0 00 M S 1 imm9 W 1 */
	{ 0x3f200400, 0x38200400, F_PAC },
	/* "Load/store exclusive register/pair", "Load/store ordered",
	 * "Compare and swap (pair)": size 001000 o2 L o1 Rs o0 Rt2 */
	{ 0x3f000000, 0x08000000, F_EXCL },
	/* "LDAPR/STLR (unscaled immediate)": size 011001 opc 0 imm9 00 */
	{ 0x3f200c00, 0x19000000, F_RCPC },
};

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ULL << (bits - 1);

	v &= (1ULL << bits) - 1;
	return (int64_t)((v ^ m) - m);
}

/* The single-register load/store classes: whether the word loads (opc,
 * size and V; Arm ARM "Load/store register" opc tables), its access size
 * and its scale. PRFM and unallocated encodings read nothing. */
static int ldst_reads(uint32_t w, unsigned *len, unsigned *scale)
{
	unsigned size = w >> 30, opc = (w >> 22) & 3, v = (w >> 26) & 1;

	if (v) {
		if (!(opc & 1))
			return 0;
		*scale = (opc & 2) ? 4 : size;
		if ((opc & 2) && size)
			return 0;
	} else {
		if (opc == 0 || (size == 3 && opc >= 2) || (size == 2 && opc == 3))
			return 0;
		*scale = size;
	}
	*len = 1u << *scale;
	return 1;
}

static int base(struct memread *m, uint32_t w, int64_t off, unsigned len)
{
	m->kind = MR_BASE;
	m->base = (w >> 5) & 31;
	m->offset = off;
	m->len = len;
	return 1;
}

int a64_memread(uint32_t w, struct memread *m)
{
	const struct row *r = NULL;
	unsigned len = 0, scale = 0, size = w >> 30;

	*m = (struct memread){ MR_NONE, 0, 0, MR_EXT_UXTX, 0, 0, 0 };
	/* op0 = x1x0: the Loads and Stores group */
	if ((w & 0x0a000000) != 0x08000000)
		return 0;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && !r; i++)
		if ((w & rows[i].mask) == rows[i].value)
			r = &rows[i];
	if (!r) {
		m->kind = MR_UNKNOWN;
		return 1;
	}
	switch (r->form) {
	case F_LITERAL: {
		unsigned opc = w >> 30, v = (w >> 26) & 1;

		if (!v && opc == 3)
			return 0; /* PRFM (literal) */
		if (v && opc == 3)
			return 0; /* unallocated */
		m->kind = MR_PCREL;
		m->offset = sext(w >> 5, 19) * 4;
		m->len = v ? 4u << opc : (opc == 1 ? 8 : 4);
		return 1;
	}
	case F_PAIR: {
		unsigned v = (w >> 26) & 1, idx = (w >> 23) & 3;

		if (!((w >> 22) & 1))
			return 0; /* a store */
		if (size == 3 || (!v && size == 1 && idx == 0))
			return 0; /* unallocated (LDPSW has no no-allocate form) */
		scale = v ? 2 + size : (size == 2 ? 3 : 2);
		return base(m, w, idx == 1 ? 0 : sext(w >> 15, 7) * (1 << scale),
			    2u << scale);
	}
	case F_UIMM12:
		if (!ldst_reads(w, &len, &scale))
			return 0;
		return base(m, w, (int64_t)(((w >> 10) & 0xfff) << scale), len);
	case F_SIMM9:
		if (!ldst_reads(w, &len, &scale))
			return 0;
		if (((w >> 10) & 3) == 2 && (w >> 26) & 1)
			return 0; /* no unprivileged SIMD&FP form */
		return base(m, w, ((w >> 10) & 3) == 1 ? 0 : sext(w >> 12, 9), len);
	case F_REGOFF: {
		unsigned option = (w >> 13) & 7;

		if (!ldst_reads(w, &len, &scale))
			return 0;
		switch (option) {
		case 2: m->ext = MR_EXT_UXTW; break;
		case 3: m->ext = MR_EXT_UXTX; break;
		case 6: m->ext = MR_EXT_SXTW; break;
		case 7: m->ext = MR_EXT_SXTX; break;
		default: return 0; /* unallocated */
		}
		m->kind = MR_INDEX;
		m->base = (w >> 5) & 31;
		m->index = (w >> 16) & 31;
		m->shift = (w >> 12) & 1 ? scale : 0;
		m->len = len;
		return 1;
	}
	case F_ATOMIC:
		/* every atomic reads its location (the ST* aliases too) */
		return base(m, w, 0, 1u << size);
	case F_EXCL: {
		unsigned o2 = (w >> 23) & 1, l = (w >> 22) & 1, o1 = (w >> 21) & 1;

		if (o2 && o1) /* CAS: reads whatever L says */
			return base(m, w, 0, 1u << size);
		if (!o2 && o1 && !(size & 2)) /* CASP: a pair of W or X */
			return base(m, w, 0, 2u << (size ? 3 : 2));
		if (!l)
			return 0; /* STXR, STLXR, STLR, STXP... */
		if (!o2 && o1) /* LDXP, LDAXP */
			return base(m, w, 0, 2u << (size & 1 ? 3 : 2));
		return base(m, w, 0, 1u << size);
	}
	case F_RCPC:
		if (((w >> 22) & 3) == 0)
			return 0; /* STLUR */
		return base(m, w, sext(w >> 12, 9), 1u << size);
	case F_PAC:
		/* the base is authenticated (and may be written back) first */
		m->kind = MR_UNKNOWN;
		return 1;
	}
	return 0;
}

uint64_t memread_addr(const struct memread *m, uint64_t pc, uint64_t b,
		      uint64_t index)
{
	switch (m->kind) {
	case MR_PCREL:
		return pc + (uint64_t)m->offset;
	case MR_INDEX:
		switch (m->ext) {
		case MR_EXT_UXTW: index = (uint32_t)index; break;
		case MR_EXT_SXTW: index = (uint64_t)(int64_t)(int32_t)index; break;
		default: break;
		}
		return b + (index << m->shift) + (uint64_t)m->offset;
	case MR_BASE:
		return b + (uint64_t)m->offset;
	default:
		return 0;
	}
}
