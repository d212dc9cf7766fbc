/* The one table of RISC-V encodings (internal to encoders/riscv*.c).
 * A row says how an instruction looks: its fixed bits (mask, match), its
 * length, which register fields it has, how its immediate is scattered over
 * the word, and its operand syntax, and its classes (RV_CL_*: load, store,
 * fence, jump...) with the address a load or store accesses. The assembler,
 * the generators, the decoder and the formatter read its subset rows; class
 * rows (RV_FL_CLASS_ONLY) cover the rest of each major opcode and RVC group,
 * so that rv_class(), rv_mem_address() and rv_memread() (read by the
 * executor and the world) answer from the same table, as arm64's
 * a64_table.h does with its class flags. */
#ifndef FTV_ENCODERS_RISCV_TABLE_H
#define FTV_ENCODERS_RISCV_TABLE_H

#include "encoders/riscv.h"

/* Immediate layouts of the base formats (RISC-V Unprivileged ISA,
 * chapter 2.3 "Immediate Encoding Variants", figure "Types of immediate
 * produced by RISC-V instructions"). */
enum rv_imm_kind {
	RV_IMM_NONE,
	RV_IMM_I,   /* imm[11:0] = insn[31:20] */
	RV_IMM_S,   /* imm[11:5] = insn[31:25], imm[4:0] = insn[11:7] */
	RV_IMM_U,   /* pages: imm[31:12] = insn[31:12], kept as a page count */
	RV_IMM_J,   /* imm[20|10:1|11|19:12] = insn[31|30:21|20|19:12] */
	RV_IMM_B,   /* imm[12|10:5] = insn[31:25], imm[4:1|11] = insn[11:7] */
	/* FENCE's pred:succ = insn[27:20], unsigned (bit 8 is always 0) */
	RV_IMM_FENCE,
	/* The compressed loads' and stores' unsigned, scaled offsets (ISA
	 * 16.3 "Load and Store Instructions", figures of the CL/CS and
	 * CI/CSS formats), kept one bit wider than the field so that they
	 * never sign-extend (like FENCE's):
	 * C.LW/C.SW:   uimm[5:3] = insn[12:10], uimm[2] = insn[6], uimm[6] = insn[5]
	 * C.LD/C.SD:   uimm[5:3] = insn[12:10], uimm[7:6] = insn[6:5]
	 * C.LWSP:      uimm[5] = insn[12], uimm[4:2] = insn[6:4], uimm[7:6] = insn[3:2]
	 * C.LDSP:      uimm[5] = insn[12], uimm[4:3] = insn[6:5], uimm[8:6] = insn[4:2]
	 * C.SWSP:      uimm[5:2] = insn[12:9], uimm[7:6] = insn[8:7]
	 * C.SDSP:      uimm[5:3] = insn[12:10], uimm[8:6] = insn[9:7] */
	RV_IMM_CLW,
	RV_IMM_CLD,
	RV_IMM_CLWSP,
	RV_IMM_CLDSP,
	RV_IMM_CSWSP,
	RV_IMM_CSDSP,
	RV_IMM__COUNT
};

/* A run of `width` immediate bits starting at imm bit `imm_lo`, stored at
 * instruction bit `insn_lo`. */
struct rv_imm_piece {
	unsigned char insn_lo, width, imm_lo;
};

struct rv_imm_layout {
	unsigned char bits;   /* signed width including the implicit zeros */
	unsigned char align;  /* low bits that are implicitly zero */
	unsigned char npieces;
	struct rv_imm_piece piece[4];
	const char *what;     /* for messages: "imm12", "jal offset" */
};

/* Operand syntax of a row, which also says which fields it has. */
enum rv_form {
	RV_FORM_NONE,   /* nop, c.nop */
	RV_FORM_U,      /* rd, imm20 */
	RV_FORM_J,      /* rd, target */
	RV_FORM_I,      /* rd, rs1, imm */
	RV_FORM_JALR,   /* rd, imm(rs1) | rd, rs1, imm | rd, rs1 | rs1 */
	RV_FORM_LOAD,   /* rd, imm(rs1) */
	RV_FORM_STORE,  /* rs2, imm(rs1) */
	RV_FORM_B,      /* rs1, rs2, target */
	RV_FORM_FENCE,  /* pred, succ: sets of i, o, r, w */
};

/* Row flags. */
enum {
	/* One side of the word Linux's RISC-V ftrace rewrites live (JALR <->
	 * NOP); see riscv_cmodx.c. */
	RV_FL_LIVE_SLOT = 1 << 0,
	/* A class row: it says what a group of encodings outside the
	 * assembler's subset does (its RV_CL_* classes, the address of a
	 * load or store) but the assembler and the decoder skip it, so such
	 * words still print as ".insn". */
	RV_FL_CLASS_ONLY = 1 << 1,
};

/* Where a load or store's address comes from (with the row's imm kind as
 * the offset; RV_IMM_NONE is offset 0). */
enum rv_addr {
	RV_ADDR_NONE,    /* not a memory access, or its address is not decoded
			  * (vector loads and stores, reserved widths) */
	RV_ADDR_RS1,     /* x[insn[19:15]] */
	RV_ADDR_RS1C,    /* x[8 + insn[9:7]], the compressed rs1' */
	RV_ADDR_SP,      /* x2 */
};

struct rv_encoding {
	enum rv_op op;      /* RV_OP__COUNT on class rows */
	const char *name;
	unsigned char nbytes;
	uint32_t mask, match;
	enum rv_form form;
	enum rv_imm_kind imm;
	unsigned flags;     /* RV_FL_* */
	unsigned cls;       /* RV_CL_* (riscv.h) */
	enum rv_addr addr;
	unsigned char access; /* bytes a load or store accesses; 0: unknown */
};

/* The subset row a word matches (the first, in table order, skipping class
 * rows), or NULL: what the decoder and the CMODX rule read. */
const struct rv_encoding *rv_encoding_of(uint32_t word);
/* The first row of any kind a word matches, or NULL: what the classes and
 * the memory operands read. */
const struct rv_encoding *rv_row_of(uint32_t word);

/* Register fields (RISC-V Unprivileged ISA 2.2 "Base Instruction Formats"). */
#define RV_RD_SHIFT 7
#define RV_RS1_SHIFT 15
#define RV_RS2_SHIFT 20
#define RV_NREGS 32

/* The table, in decoding priority order (exact-match aliases first). */
extern const struct rv_encoding rv_encodings[];
extern const unsigned rv_nencodings;
extern const struct rv_imm_layout rv_imm_layouts[RV_IMM__COUNT];

const struct rv_encoding *rv_encoding_by_op(enum rv_op op);
const struct rv_encoding *rv_encoding_by_name(const char *name);
/* RV_F_* fields a form has. */
unsigned rv_form_fields(enum rv_form form);

/* Immediate range of a layout, in the units callers pass (bytes for J, pages
 * for U): [*lo, *hi], multiples of 1 << align. */
void rv_imm_range(enum rv_imm_kind kind, int64_t *lo, int64_t *hi);
/* Scatters imm into its instruction bits (imm must be in range). */
uint32_t rv_imm_scatter(enum rv_imm_kind kind, int64_t imm);
/* Gathers and sign-extends the immediate of word. */
int64_t rv_imm_gather(enum rv_imm_kind kind, uint32_t word);

/* Builds the word of row e after checking every operand: register numbers
 * below 32, the immediate in range and aligned. Returns 0 or -1 with err. */
int rv_encode(const struct rv_encoding *e, unsigned rd, unsigned rs1,
	      unsigned rs2, int64_t imm, uint32_t *word, struct ftv_err *err);

#endif
