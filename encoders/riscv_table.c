/* The one table of RISC-V encodings and the immediate layouts; see
 * riscv_table.h. Opcode, funct3 and immediate positions are from the RISC-V
 * Unprivileged ISA (20191213): chapter 2 (RV32I: AUIPC, JAL, JALR, ADDI,
 * NOP, LW, SW, BEQ, BNE, FENCE), chapter 3 (Zifencei: FENCE.I), chapter 5
 * (RV64I: LD, SD), chapter 16 (RVC: C.NOP) and chapter 24
 * "RV32/64G Instruction Set Listings". */
#include "encoders/riscv_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

const struct rv_encoding rv_encodings[] = {
	/* NOP is the canonical ADDI x0, x0, 0 (ISA 2.4 "NOP Instruction");
	 * it comes before ADDI so the decoder names it. */
	{ RV_OP_NOP, "nop", 4, 0xffffffff, 0x00000013, RV_FORM_NONE, RV_IMM_NONE,
	  RV_FL_LIVE_SLOT },
	/* C.NOP: quadrant 1, funct3 000, rd = x0, nzimm = 0 (ISA 16.5); a
	 * non-zero immediate makes it a HINT, which is not in the subset. */
	{ RV_OP_C_NOP, "c.nop", 2, 0x0000ffff, 0x00000001, RV_FORM_NONE, RV_IMM_NONE, 0 },
	/* opcode AUIPC = 0010111 */
	{ RV_OP_AUIPC, "auipc", 4, 0x0000007f, 0x00000017, RV_FORM_U, RV_IMM_U, 0 },
	/* opcode JAL = 1101111 */
	{ RV_OP_JAL, "jal", 4, 0x0000007f, 0x0000006f, RV_FORM_J, RV_IMM_J, 0 },
	/* opcode JALR = 1100111, funct3 000 */
	{ RV_OP_JALR, "jalr", 4, 0x0000707f, 0x00000067, RV_FORM_JALR, RV_IMM_I,
	  RV_FL_LIVE_SLOT },
	/* opcode OP-IMM = 0010011, funct3 ADDI = 000 */
	{ RV_OP_ADDI, "addi", 4, 0x0000707f, 0x00000013, RV_FORM_I, RV_IMM_I, 0 },
	/* opcode LOAD = 0000011, funct3 LD = 011 */
	{ RV_OP_LD, "ld", 4, 0x0000707f, 0x00003003, RV_FORM_LOAD, RV_IMM_I, 0 },
	/* opcode STORE = 0100011, funct3 SD = 011 */
	{ RV_OP_SD, "sd", 4, 0x0000707f, 0x00003023, RV_FORM_STORE, RV_IMM_S, 0 },
	/* chapter 2.6 "Load and Store Instructions": LW = LOAD funct3 010,
	 * SW = STORE funct3 010 */
	{ RV_OP_LW, "lw", 4, 0x0000707f, 0x00002003, RV_FORM_LOAD, RV_IMM_I, 0 },
	{ RV_OP_SW, "sw", 4, 0x0000707f, 0x00002023, RV_FORM_STORE, RV_IMM_S, 0 },
	/* chapter 2.5 "Conditional Branches": opcode BRANCH = 1100011, funct3
	 * BEQ = 000, BNE = 001 */
	{ RV_OP_BEQ, "beq", 4, 0x0000707f, 0x00000063, RV_FORM_B, RV_IMM_B, 0 },
	{ RV_OP_BNE, "bne", 4, 0x0000707f, 0x00001063, RV_FORM_B, RV_IMM_B, 0 },
	/* FENCE.I (chapter 3 "Zifencei"): its standard form, imm, rs1, rd 0;
	 * it comes before FENCE, whose opcode it shares */
	{ RV_OP_FENCE_I, "fence.i", 4, 0xffffffff, 0x0000100f, RV_FORM_NONE,
	  RV_IMM_NONE, 0 },
	/* FENCE (chapter 2.7 "Memory Ordering Instructions"): MISC-MEM
	 * 0001111, funct3 000, fm 0000, rs1 = rd = 0; pred:succ in 27:20 */
	{ RV_OP_FENCE, "fence", 4, 0xf00fffff, 0x0000000f, RV_FORM_FENCE,
	  RV_IMM_FENCE, 0 },
};
const unsigned rv_nencodings = sizeof(rv_encodings) / sizeof(rv_encodings[0]);

const struct rv_imm_layout rv_imm_layouts[RV_IMM__COUNT] = {
	[RV_IMM_NONE] = { 0, 0, 0, { { 0, 0, 0 } }, "imm" },
	[RV_IMM_I] = { 12, 0, 1, { { 20, 12, 0 } }, "imm12" },
	[RV_IMM_S] = { 12, 0, 2, { { 7, 5, 0 }, { 25, 7, 5 } }, "imm12" },
	/* Kept in pages: bit 0 of the page count is insn bit 12. */
	[RV_IMM_U] = { 20, 0, 1, { { 12, 20, 0 } }, "imm20" },
	[RV_IMM_J] = { 21, 1, 4,
		       { { 21, 10, 1 }, { 20, 1, 11 }, { 12, 8, 12 }, { 31, 1, 20 } },
		       "jal offset" },
	[RV_IMM_B] = { 13, 1, 4,
		       { { 8, 4, 1 }, { 25, 6, 5 }, { 7, 1, 11 }, { 31, 1, 12 } },
		       "branch offset" },
	[RV_IMM_FENCE] = { 9, 0, 1, { { 20, 8, 0 } }, "pred:succ" },
};

const struct rv_encoding *rv_encoding_by_op(enum rv_op op)
{
	for (unsigned i = 0; i < rv_nencodings; i++)
		if (rv_encodings[i].op == op)
			return &rv_encodings[i];
	return NULL;
}

const struct rv_encoding *rv_encoding_by_name(const char *name)
{
	for (unsigned i = 0; i < rv_nencodings; i++)
		if (!strcmp(rv_encodings[i].name, name))
			return &rv_encodings[i];
	return NULL;
}

const struct rv_encoding *rv_encoding_of(uint32_t word)
{
	/* ISA 1.5: low bits other than 11 mean a 16-bit parcel. */
	unsigned nbytes = (word & 3) == 3 ? 4 : 2;

	if (nbytes == 2)
		word &= 0xffff;
	for (unsigned i = 0; i < rv_nencodings; i++)
		if (rv_encodings[i].nbytes == nbytes &&
		    (word & rv_encodings[i].mask) == rv_encodings[i].match)
			return &rv_encodings[i];
	return NULL;
}

unsigned rv_form_fields(enum rv_form form)
{
	switch (form) {
	case RV_FORM_NONE:
		return 0;
	case RV_FORM_U:
		return RV_F_RD | RV_F_IMM;
	case RV_FORM_J:
		return RV_F_RD | RV_F_IMM | RV_F_TARGET;
	case RV_FORM_I:
	case RV_FORM_JALR:
	case RV_FORM_LOAD:
		return RV_F_RD | RV_F_RS1 | RV_F_IMM;
	case RV_FORM_STORE:
		return RV_F_RS1 | RV_F_RS2 | RV_F_IMM;
	case RV_FORM_B:
		return RV_F_RS1 | RV_F_RS2 | RV_F_IMM | RV_F_TARGET;
	case RV_FORM_FENCE:
		return RV_F_IMM;
	}
	return 0;
}

void rv_imm_range(enum rv_imm_kind kind, int64_t *lo, int64_t *hi)
{
	const struct rv_imm_layout *l = &rv_imm_layouts[kind];

	if (!l->bits) {
		*lo = *hi = 0;
		return;
	}
	*lo = -((int64_t)1 << (l->bits - 1));
	*hi = ((int64_t)1 << (l->bits - 1)) - ((int64_t)1 << l->align);
}

uint32_t rv_imm_scatter(enum rv_imm_kind kind, int64_t imm)
{
	const struct rv_imm_layout *l = &rv_imm_layouts[kind];
	uint64_t u = (uint64_t)imm;
	uint32_t w = 0;

	for (unsigned i = 0; i < l->npieces; i++) {
		const struct rv_imm_piece *p = &l->piece[i];
		uint32_t bits = (uint32_t)(u >> p->imm_lo) & ((1u << p->width) - 1);

		w |= bits << p->insn_lo;
	}
	return w;
}

int64_t rv_imm_gather(enum rv_imm_kind kind, uint32_t word)
{
	const struct rv_imm_layout *l = &rv_imm_layouts[kind];
	uint64_t u = 0;

	if (!l->bits)
		return 0;
	for (unsigned i = 0; i < l->npieces; i++) {
		const struct rv_imm_piece *p = &l->piece[i];

		u |= (uint64_t)((word >> p->insn_lo) & ((1u << p->width) - 1))
		     << p->imm_lo;
	}
	/* The top bit of the immediate (insn bit 31, except for FENCE's
	 * unsigned field whose top bit is never set) is its sign. */
	if (u & ((uint64_t)1 << (l->bits - 1)))
		u |= ~(uint64_t)0 << l->bits;
	return (int64_t)u;
}

static int check_reg(const struct rv_encoding *e, const char *what,
		     unsigned reg, struct ftv_err *err)
{
	if (reg >= RV_NREGS)
		return ftv_errf(err, "riscv %s: %s x%u out of range x0..x31",
				e->name, what, reg);
	return 0;
}

static void fmt_signed(char *buf, size_t n, int64_t v)
{
	if (v < 0)
		snprintf(buf, n, "-0x%" PRIx64, (uint64_t)0 - (uint64_t)v);
	else
		snprintf(buf, n, "0x%" PRIx64, (uint64_t)v);
}

int rv_encode(const struct rv_encoding *e, unsigned rd, unsigned rs1,
	      unsigned rs2, int64_t imm, uint32_t *word, struct ftv_err *err)
{
	unsigned fields = rv_form_fields(e->form);
	uint32_t w = e->match;

	if (fields & RV_F_RD) {
		if (check_reg(e, "rd", rd, err))
			return -1;
		w |= rd << RV_RD_SHIFT;
	}
	if (fields & RV_F_RS1) {
		if (check_reg(e, "rs1", rs1, err))
			return -1;
		w |= rs1 << RV_RS1_SHIFT;
	}
	if (fields & RV_F_RS2) {
		if (check_reg(e, "rs2", rs2, err))
			return -1;
		w |= rs2 << RV_RS2_SHIFT;
	}
	if (e->imm != RV_IMM_NONE) {
		const struct rv_imm_layout *l = &rv_imm_layouts[e->imm];
		int64_t lo, hi;
		char v[32], a[32], b[32];

		rv_imm_range(e->imm, &lo, &hi);
		fmt_signed(v, sizeof(v), imm);
		if (imm & (((int64_t)1 << l->align) - 1))
			return ftv_errf(err, "riscv %s: %s %s is not a multiple of %d",
					e->name, l->what, v, 1 << l->align);
		if (imm < lo || imm > hi) {
			fmt_signed(a, sizeof(a), lo);
			fmt_signed(b, sizeof(b), hi);
			return ftv_errf(err, "riscv %s: %s %s out of range %s..%s",
					e->name, l->what, v, a, b);
		}
		w |= rv_imm_scatter(e->imm, imm);
	}
	/* Every bit outside the fields must be the row's fixed bits. */
	if ((w & e->mask) != e->match)
		return ftv_errf(err, "riscv %s: internal encoding error", e->name);
	*word = w;
	return 0;
}
