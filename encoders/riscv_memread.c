/* The memory a riscv64 instruction reads (encoders/memread.h): one row per
 * load encoding of RV64GC (Unprivileged ISA: "RV32I Base Integer
 * Instruction Set" loads, "RV64I" LD/LWU, "A" LR and AMOs, "F"/"D" FLW/FLD,
 * "C" C.LW/C.LD/C.FLD and their SP-relative forms). Every other load-like
 * opcode (vector loads, FLQ on a bigger base) is MR_UNKNOWN. */
#include "encoders/memread.h"

#include <stddef.h>

enum form {
	F_I,      /* rs1 + imm[31:20] */
	F_AMO,    /* rs1; SC.W/SC.D only write */
	F_CL,     /* C.LW: rs1' + uimm[6|5:3|2] */
	F_CLD,    /* C.LD, C.FLD: rs1' + uimm[7:6|5:3] */
	F_CLWSP,  /* C.LWSP: sp + uimm[7:6|5|4:2] */
	F_CLDSP,  /* C.LDSP, C.FLDSP: sp + uimm[8:6|5|4:3] */
	F_UNKNOWN,
};

static const struct row {
	uint32_t mask, value;
	enum form form;
	unsigned len;
} rows[] = {
	{ 0x707f, 0x0003, F_I, 1 },     /* LB */
	{ 0x707f, 0x1003, F_I, 2 },     /* LH */
	{ 0x707f, 0x2003, F_I, 4 },     /* LW */
	{ 0x707f, 0x3003, F_I, 8 },     /* LD */
	{ 0x707f, 0x4003, F_I, 1 },     /* LBU */
	{ 0x707f, 0x5003, F_I, 2 },     /* LHU */
	{ 0x707f, 0x6003, F_I, 4 },     /* LWU */
	{ 0x707f, 0x1007, F_I, 2 },     /* FLH (Zfh) */
	{ 0x707f, 0x2007, F_I, 4 },     /* FLW */
	{ 0x707f, 0x3007, F_I, 8 },     /* FLD */
	{ 0x707f, 0x4007, F_I, 16 },    /* FLQ */
	{ 0x007f, 0x0007, F_UNKNOWN, 0 }, /* LOAD-FP's vector loads */
	{ 0x707f, 0x202f, F_AMO, 4 },   /* LR.W, AMO*.W */
	{ 0x707f, 0x302f, F_AMO, 8 },   /* LR.D, AMO*.D */
	/* 16-bit (quadrant in bits 1:0, funct3 in 15:13) */
	{ 0xe003, 0x2000, F_CLD, 8 },   /* C.FLD */
	{ 0xe003, 0x4000, F_CL, 4 },    /* C.LW */
	{ 0xe003, 0x6000, F_CLD, 8 },   /* C.LD (RV64) */
	{ 0xe003, 0x2002, F_CLDSP, 8 }, /* C.FLDSP */
	{ 0xe003, 0x4002, F_CLWSP, 4 }, /* C.LWSP */
	{ 0xe003, 0x6002, F_CLDSP, 8 }, /* C.LDSP (RV64) */
};

static int64_t sext12(uint32_t v)
{
	return (int64_t)(int32_t)(v << 20) >> 20;
}

int rv_memread(uint32_t w, struct memread *m)
{
	int compressed = (w & 3) != 3;
	uint32_t c = w & 0xffff;

	*m = (struct memread){ MR_NONE, 0, 0, MR_EXT_UXTX, 0, 0, 0 };
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		int is16 = r->form == F_CL || r->form == F_CLD ||
			   r->form == F_CLWSP || r->form == F_CLDSP;

		if (is16 != compressed || ((is16 ? c : w) & r->mask) != r->value)
			continue;
		m->kind = MR_BASE;
		m->len = r->len;
		switch (r->form) {
		case F_I:
			m->base = (w >> 15) & 31;
			m->offset = sext12(w >> 20);
			return 1;
		case F_AMO:
			if ((w >> 27) == 3) { /* SC.W, SC.D */
				m->kind = MR_NONE;
				return 0;
			}
			m->base = (w >> 15) & 31;
			return 1;
		case F_CL:
			m->base = 8 + ((c >> 7) & 7);
			m->offset = ((c >> 10) & 7) << 3 | ((c >> 6) & 1) << 2 |
				    ((c >> 5) & 1) << 6;
			return 1;
		case F_CLD:
			m->base = 8 + ((c >> 7) & 7);
			m->offset = ((c >> 10) & 7) << 3 | ((c >> 5) & 3) << 6;
			return 1;
		case F_CLWSP:
			m->base = 2;
			m->offset = ((c >> 12) & 1) << 5 | ((c >> 4) & 7) << 2 |
				    ((c >> 2) & 3) << 6;
			return 1;
		case F_CLDSP:
			m->base = 2;
			m->offset = ((c >> 12) & 1) << 5 | ((c >> 5) & 3) << 3 |
				    ((c >> 2) & 7) << 6;
			return 1;
		case F_UNKNOWN:
			m->kind = MR_UNKNOWN;
			m->len = 0;
			return 1;
		}
	}
	return 0;
}
