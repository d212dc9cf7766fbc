/* The one table of RISC-V encodings and the immediate layouts; see
 * riscv_table.h. Opcode, funct3 and immediate positions are from the RISC-V
 * Unprivileged ISA (20191213): chapter 2 (RV32I: AUIPC, JAL, JALR, ADDI,
 * NOP, LW, SW, BEQ, BNE, FENCE), chapter 3 (Zifencei: FENCE.I), chapter 5
 * (RV64I: LD, SD), chapter 16 (RVC: C.NOP) and chapter 24
 * "RV32/64G Instruction Set Listings". */
#include "encoders/riscv_table.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Class rows: what a group of encodings does, for rv_class() and
 * rv_mem_address(); the assembler and the decoder skip them. */
#define CLASS(name, nbytes, mask, match, cls, addr, imm, access)                 \
	{ RV_OP__COUNT, name, nbytes, mask, match, RV_FORM_NONE, imm,              \
	  RV_FL_CLASS_ONLY, cls, addr, access }

const struct rv_encoding rv_encodings[] = {
	/* NOP is the canonical ADDI x0, x0, 0 (ISA 2.4 "NOP Instruction");
	 * it comes before ADDI so the decoder names it. */
	{ RV_OP_NOP, "nop", 4, 0xffffffff, 0x00000013, RV_FORM_NONE, RV_IMM_NONE,
	  RV_FL_LIVE_SLOT, 0, RV_ADDR_NONE, 0 },
	/* C.NOP: quadrant 1, funct3 000, rd = x0, nzimm = 0 (ISA 16.5); a
	 * non-zero immediate makes it a HINT, which is not in the subset. */
	{ RV_OP_C_NOP, "c.nop", 2, 0x0000ffff, 0x00000001, RV_FORM_NONE, RV_IMM_NONE,
	  0, 0, RV_ADDR_NONE, 0 },
	/* opcode AUIPC = 0010111 */
	{ RV_OP_AUIPC, "auipc", 4, 0x0000007f, 0x00000017, RV_FORM_U, RV_IMM_U,
	  0, 0, RV_ADDR_NONE, 0 },
	/* opcode JAL = 1101111 */
	{ RV_OP_JAL, "jal", 4, 0x0000007f, 0x0000006f, RV_FORM_J, RV_IMM_J,
	  0, RV_CL_JUMP | RV_CL_LINK, RV_ADDR_NONE, 0 },
	/* The psABI's return, JALR x0, 0(ra) (ISA 2.5 "Unconditional Jumps":
	 * the return-address stack hint rd = x0, rs1 = x1); a class row, so
	 * the decoder still prints "jalr zero, 0(ra)". */
	CLASS("ret", 4, 0xffffffff, 0x00008067, RV_CL_JUMP | RV_CL_RETURN,
	      RV_ADDR_NONE, RV_IMM_NONE, 0),
	/* opcode JALR = 1100111, funct3 000 */
	{ RV_OP_JALR, "jalr", 4, 0x0000707f, 0x00000067, RV_FORM_JALR, RV_IMM_I,
	  RV_FL_LIVE_SLOT, RV_CL_JUMP | RV_CL_LINK, RV_ADDR_NONE, 0 },
	/* opcode OP-IMM = 0010011, funct3 ADDI = 000 */
	{ RV_OP_ADDI, "addi", 4, 0x0000707f, 0x00000013, RV_FORM_I, RV_IMM_I,
	  0, 0, RV_ADDR_NONE, 0 },
	/* opcode LOAD = 0000011, funct3 LD = 011 */
	{ RV_OP_LD, "ld", 4, 0x0000707f, 0x00003003, RV_FORM_LOAD, RV_IMM_I,
	  0, RV_CL_LOAD, RV_ADDR_RS1, 8 },
	/* opcode STORE = 0100011, funct3 SD = 011 */
	{ RV_OP_SD, "sd", 4, 0x0000707f, 0x00003023, RV_FORM_STORE, RV_IMM_S,
	  0, RV_CL_STORE, RV_ADDR_RS1, 8 },
	/* chapter 2.6 "Load and Store Instructions": LW = LOAD funct3 010,
	 * SW = STORE funct3 010 */
	{ RV_OP_LW, "lw", 4, 0x0000707f, 0x00002003, RV_FORM_LOAD, RV_IMM_I,
	  0, RV_CL_LOAD, RV_ADDR_RS1, 4 },
	{ RV_OP_SW, "sw", 4, 0x0000707f, 0x00002023, RV_FORM_STORE, RV_IMM_S,
	  0, RV_CL_STORE, RV_ADDR_RS1, 4 },
	/* chapter 2.5 "Conditional Branches": opcode BRANCH = 1100011, funct3
	 * BEQ = 000, BNE = 001 */
	{ RV_OP_BEQ, "beq", 4, 0x0000707f, 0x00000063, RV_FORM_B, RV_IMM_B,
	  0, RV_CL_JUMP | RV_CL_COND, RV_ADDR_NONE, 0 },
	{ RV_OP_BNE, "bne", 4, 0x0000707f, 0x00001063, RV_FORM_B, RV_IMM_B,
	  0, RV_CL_JUMP | RV_CL_COND, RV_ADDR_NONE, 0 },
	/* FENCE.I (chapter 3 "Zifencei"): its standard form, imm, rs1, rd 0;
	 * it comes before FENCE, whose opcode it shares */
	{ RV_OP_FENCE_I, "fence.i", 4, 0xffffffff, 0x0000100f, RV_FORM_NONE,
	  RV_IMM_NONE, 0, RV_CL_FENCE_I, RV_ADDR_NONE, 0 },
	/* FENCE (chapter 2.7 "Memory Ordering Instructions"): MISC-MEM
	 * 0001111, funct3 000, fm 0000, rs1 = rd = 0; pred:succ in 27:20 */
	{ RV_OP_FENCE, "fence", 4, 0xf00fffff, 0x0000000f, RV_FORM_FENCE,
	  RV_IMM_FENCE, 0, RV_CL_FENCE, RV_ADDR_NONE, 0 },

	/* Class rows of the 32-bit major opcodes (chapter 24 "RV32/64G
	 * Instruction Set Listings"), each group's specific rows before its
	 * catch-all. LOAD (funct3 = width; 111 reserved): */
	CLASS("lb", 4, 0x707f, 0x0003, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 1),
	CLASS("lh", 4, 0x707f, 0x1003, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 2),
	CLASS("lbu", 4, 0x707f, 0x4003, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 1),
	CLASS("lhu", 4, 0x707f, 0x5003, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 2),
	CLASS("lwu", 4, 0x707f, 0x6003, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 4),
	CLASS("load", 4, 0x7f, 0x03, RV_CL_LOAD, RV_ADDR_NONE, RV_IMM_NONE, 0),
	/* LOAD-FP: FLH (Zfh), FLW (F), FLD (D), FLQ (Q); the other funct3s
	 * are the vector loads (V), whose addresses are not decoded */
	CLASS("flh", 4, 0x707f, 0x1007, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 2),
	CLASS("flw", 4, 0x707f, 0x2007, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 4),
	CLASS("fld", 4, 0x707f, 0x3007, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 8),
	CLASS("flq", 4, 0x707f, 0x4007, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_I, 16),
	CLASS("load-fp", 4, 0x7f, 0x07, RV_CL_LOAD, RV_ADDR_NONE, RV_IMM_NONE, 0),
	/* STORE, STORE-FP: the same widths, S-type offsets */
	CLASS("sb", 4, 0x707f, 0x0023, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 1),
	CLASS("sh", 4, 0x707f, 0x1023, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 2),
	CLASS("store", 4, 0x7f, 0x23, RV_CL_STORE, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("fsh", 4, 0x707f, 0x1027, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 2),
	CLASS("fsw", 4, 0x707f, 0x2027, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 4),
	CLASS("fsd", 4, 0x707f, 0x3027, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 8),
	CLASS("fsq", 4, 0x707f, 0x4027, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_S, 16),
	CLASS("store-fp", 4, 0x7f, 0x27, RV_CL_STORE, RV_ADDR_NONE, RV_IMM_NONE, 0),
	/* AMO (chapter 8 "A"): funct5 in 31:27 (LR 00010, SC 00011), width
	 * in funct3 (010 .W, 011 .D; Zabha's .B/.H and Zacas's .Q are the
	 * catch-all), address x[rs1] with no offset */
	CLASS("lr.w", 4, 0xf800707f, 0x1000202f, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_NONE, 4),
	CLASS("sc.w", 4, 0xf800707f, 0x1800202f, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_NONE, 4),
	CLASS("amo.w", 4, 0x707f, 0x202f, RV_CL_LOAD | RV_CL_STORE, RV_ADDR_RS1,
	      RV_IMM_NONE, 4),
	CLASS("lr.d", 4, 0xf800707f, 0x1000302f, RV_CL_LOAD, RV_ADDR_RS1, RV_IMM_NONE, 8),
	CLASS("sc.d", 4, 0xf800707f, 0x1800302f, RV_CL_STORE, RV_ADDR_RS1, RV_IMM_NONE, 8),
	CLASS("amo.d", 4, 0x707f, 0x302f, RV_CL_LOAD | RV_CL_STORE, RV_ADDR_RS1,
	      RV_IMM_NONE, 8),
	CLASS("amo", 4, 0x7f, 0x2f, RV_CL_LOAD | RV_CL_STORE, RV_ADDR_RS1, RV_IMM_NONE, 0),
	/* MISC-MEM: FENCE.I whatever its reserved fields ("Zifencei": they
	 * are reserved for finer-grained fences and must be treated as
	 * FENCE.I), FENCE whatever its fm (FENCE.TSO) and registers, then
	 * the cache-block operations (Zicbom/Zicboz, funct3 010) */
	CLASS("fence.i", 4, 0x707f, 0x100f, RV_CL_FENCE_I, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("fence", 4, 0x707f, 0x000f, RV_CL_FENCE, RV_ADDR_NONE, RV_IMM_FENCE, 0),
	CLASS("misc-mem", 4, 0x7f, 0x0f, RV_CL_CMO, RV_ADDR_NONE, RV_IMM_NONE, 0),
	/* BRANCH (BLT, BGE, BLTU, BGEU; funct3 010, 011 reserved), JALR's
	 * reserved funct3s, SYSTEM (ECALL, EBREAK, xRET, WFI and the CSR
	 * instructions, chapters 2.8 and 9 "Zicsr") */
	CLASS("branch", 4, 0x7f, 0x63, RV_CL_JUMP | RV_CL_COND, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("jalr", 4, 0x7f, 0x67, RV_CL_JUMP, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("system", 4, 0x7f, 0x73, RV_CL_JUMP, RV_ADDR_NONE, RV_IMM_NONE, 0),

	/* Class rows of the 16-bit encodings (chapter 16 "C", table "RVC
	 * opcode map": quadrant in bits 1:0, funct3 in 15:13; RV64C).
	 * The all-zero parcel is defined illegal (16.1 and 1.5 "Base
	 * Instruction-Length Encoding"). */
	CLASS("unimp", 2, 0xffff, 0x0000, RV_CL_JUMP | RV_CL_ILLEGAL, RV_ADDR_NONE,
	      RV_IMM_NONE, 0),
	/* quadrant 0: loads and stores on rs1' (funct3 100 is reserved) */
	CLASS("c.fld", 2, 0xe003, 0x2000, RV_CL_LOAD, RV_ADDR_RS1C, RV_IMM_CLD, 8),
	CLASS("c.lw", 2, 0xe003, 0x4000, RV_CL_LOAD, RV_ADDR_RS1C, RV_IMM_CLW, 4),
	CLASS("c.ld", 2, 0xe003, 0x6000, RV_CL_LOAD, RV_ADDR_RS1C, RV_IMM_CLD, 8),
	CLASS("c.fsd", 2, 0xe003, 0xa000, RV_CL_STORE, RV_ADDR_RS1C, RV_IMM_CLD, 8),
	CLASS("c.sw", 2, 0xe003, 0xc000, RV_CL_STORE, RV_ADDR_RS1C, RV_IMM_CLW, 4),
	CLASS("c.sd", 2, 0xe003, 0xe000, RV_CL_STORE, RV_ADDR_RS1C, RV_IMM_CLD, 8),
	/* quadrant 1: C.J, C.BEQZ, C.BNEZ (001 is C.ADDIW on RV64, not C.JAL) */
	CLASS("c.j", 2, 0xe003, 0xa001, RV_CL_JUMP, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("c.beqz", 2, 0xe003, 0xc001, RV_CL_JUMP | RV_CL_COND, RV_ADDR_NONE,
	      RV_IMM_NONE, 0),
	CLASS("c.bnez", 2, 0xe003, 0xe001, RV_CL_JUMP | RV_CL_COND, RV_ADDR_NONE,
	      RV_IMM_NONE, 0),
	/* quadrant 2: the sp-relative loads and stores */
	CLASS("c.fldsp", 2, 0xe003, 0x2002, RV_CL_LOAD, RV_ADDR_SP, RV_IMM_CLDSP, 8),
	CLASS("c.lwsp", 2, 0xe003, 0x4002, RV_CL_LOAD, RV_ADDR_SP, RV_IMM_CLWSP, 4),
	CLASS("c.ldsp", 2, 0xe003, 0x6002, RV_CL_LOAD, RV_ADDR_SP, RV_IMM_CLDSP, 8),
	CLASS("c.fsdsp", 2, 0xe003, 0xa002, RV_CL_STORE, RV_ADDR_SP, RV_IMM_CSDSP, 8),
	CLASS("c.swsp", 2, 0xe003, 0xc002, RV_CL_STORE, RV_ADDR_SP, RV_IMM_CSWSP, 4),
	CLASS("c.sdsp", 2, 0xe003, 0xe002, RV_CL_STORE, RV_ADDR_SP, RV_IMM_CSDSP, 8),
	/* quadrant 2, funct4 100x with rs2 = 0: C.EBREAK (rs1 = 0), C.JALR
	 * (funct4 1001, links ra), C.JR (1000; c.jr ra is the return, rs1 = 0
	 * is reserved) */
	CLASS("c.ebreak", 2, 0xffff, 0x9002, RV_CL_JUMP, RV_ADDR_NONE, RV_IMM_NONE, 0),
	CLASS("c.jalr", 2, 0xf07f, 0x9002, RV_CL_JUMP | RV_CL_LINK, RV_ADDR_NONE,
	      RV_IMM_NONE, 0),
	CLASS("ret", 2, 0xffff, 0x8082, RV_CL_JUMP | RV_CL_RETURN, RV_ADDR_NONE,
	      RV_IMM_NONE, 0),
	CLASS("c.jr", 2, 0xf07f, 0x8002, RV_CL_JUMP, RV_ADDR_NONE, RV_IMM_NONE, 0),
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
	/* unsigned, scaled by the access size; see riscv_table.h */
	[RV_IMM_CLW] = { 8, 2, 3, { { 10, 3, 3 }, { 6, 1, 2 }, { 5, 1, 6 } }, "uimm" },
	[RV_IMM_CLD] = { 9, 3, 2, { { 10, 3, 3 }, { 5, 2, 6 } }, "uimm" },
	[RV_IMM_CLWSP] = { 9, 2, 3, { { 12, 1, 5 }, { 4, 3, 2 }, { 2, 2, 6 } }, "uimm" },
	[RV_IMM_CLDSP] = { 10, 3, 3, { { 12, 1, 5 }, { 5, 2, 3 }, { 2, 3, 6 } }, "uimm" },
	[RV_IMM_CSWSP] = { 9, 2, 2, { { 9, 4, 2 }, { 7, 2, 6 } }, "uimm" },
	[RV_IMM_CSDSP] = { 10, 3, 2, { { 10, 3, 3 }, { 7, 3, 6 } }, "uimm" },
};

const struct rv_encoding *rv_encoding_by_op(enum rv_op op)
{
	for (unsigned i = 0; i < rv_nencodings; i++)
		if (rv_encodings[i].op == op && !(rv_encodings[i].flags & RV_FL_CLASS_ONLY))
			return &rv_encodings[i];
	return NULL;
}

const struct rv_encoding *rv_encoding_by_name(const char *name)
{
	for (unsigned i = 0; i < rv_nencodings; i++)
		if (!strcmp(rv_encodings[i].name, name) &&
		    !(rv_encodings[i].flags & RV_FL_CLASS_ONLY))
			return &rv_encodings[i];
	return NULL;
}

/* The executor asks for the class of every instruction it steps, so rows
 * are indexed by the bits every row's mask covers: the major opcode of a
 * 32-bit word (bits 6:2, bits 1:0 being 11), the quadrant and funct3 of a
 * 16-bit one (bits 1:0 and 15:13). A bucket lists, in table order, the rows
 * that can match a word of its key. */
#define NBUCKETS 64
#define BUCKET_MAX 16
static unsigned char bucket_row[NBUCKETS][BUCKET_MAX];
static unsigned char bucket_len[NBUCKETS];
static pthread_once_t buckets_once = PTHREAD_ONCE_INIT;

static unsigned bucket_of(uint32_t word)
{
	if ((word & 3) == 3)
		return (word >> 2) & 31;
	return 32 + ((word & 3) | ((word >> 13) & 7) << 2);
}

/* A bucket's key as a word, and the key bits of a word of its length. */
static uint32_t bucket_word(unsigned b, uint32_t *keybits)
{
	if (b < 32) {
		*keybits = 0x7f;
		return b << 2 | 3;
	}
	*keybits = 0xe003;
	return ((b - 32) & 3) | ((b - 32) >> 2) << 13;
}

static void build_buckets(void)
{
	for (unsigned b = 0; b < NBUCKETS; b++) {
		uint32_t keybits, key = bucket_word(b, &keybits);
		unsigned nbytes = b < 32 ? 4 : 2;

		if (nbytes == 2 && (key & 3) == 3)
			continue; /* quadrant 11 is a 32-bit word */
		for (unsigned i = 0; i < rv_nencodings; i++) {
			const struct rv_encoding *e = &rv_encodings[i];
			uint32_t m = e->mask & keybits;

			if (e->nbytes != nbytes || (key & m) != (e->match & m))
				continue;
			if (bucket_len[b] == BUCKET_MAX) {
				/* a programming error: the table outgrew it */
				fprintf(stderr, "riscv_table: more than %d rows for one "
					"opcode: raise BUCKET_MAX\n", BUCKET_MAX);
				abort();
			}
			bucket_row[b][bucket_len[b]++] = (unsigned char)i;
		}
	}
}

/* The first row word matches, class rows included or not. */
static const struct rv_encoding *lookup(uint32_t word, unsigned skip)
{
	unsigned b;

	/* ISA 1.5: low bits other than 11 mean a 16-bit parcel. */
	if ((word & 3) != 3)
		word &= 0xffff;
	pthread_once(&buckets_once, build_buckets);
	b = bucket_of(word);
	for (unsigned k = 0; k < bucket_len[b]; k++) {
		const struct rv_encoding *e = &rv_encodings[bucket_row[b][k]];

		if (!(e->flags & skip) && (word & e->mask) == e->match)
			return e;
	}
	return NULL;
}

const struct rv_encoding *rv_encoding_of(uint32_t word)
{
	return lookup(word, RV_FL_CLASS_ONLY);
}

const struct rv_encoding *rv_row_of(uint32_t word)
{
	return lookup(word, 0);
}

unsigned rv_class(uint32_t word)
{
	const struct rv_encoding *e = rv_row_of(word);

	return e ? e->cls : 0;
}

unsigned rv_fence_sets(uint32_t word)
{
	const struct rv_encoding *e = rv_row_of(word);

	return e && (e->cls & RV_CL_FENCE) ? (unsigned)rv_imm_gather(e->imm, word) : 0;
}

int rv_mem_address(uint32_t word, unsigned *base, int64_t *off, unsigned *len)
{
	const struct rv_encoding *e = rv_row_of(word);

	if (!e || !(e->cls & (RV_CL_LOAD | RV_CL_STORE)) || e->addr == RV_ADDR_NONE)
		return 0;
	if (e->nbytes == 2)
		word &= 0xffff;
	switch (e->addr) {
	case RV_ADDR_RS1:
		*base = (word >> RV_RS1_SHIFT) & 31;
		break;
	case RV_ADDR_RS1C: /* ISA 16.2: rs1' is x8..x15 */
		*base = 8 + ((word >> 7) & 7);
		break;
	default:
		*base = RV_REG_SP;
		break;
	}
	*off = rv_imm_gather(e->imm, word);
	*len = e->access;
	return 1;
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
