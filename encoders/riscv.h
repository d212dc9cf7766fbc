/* RISC-V (RV64GC subset) encoders, decoder, formatter and the live-patching
 * rule, for the RISC-V ftrace backend and for `ftv encode/decode --arch
 * riscv64`.
 *
 * The subset is what Linux's RISC-V ftrace call sites and trampolines use:
 * AUIPC, JAL, JALR, ADDI (and its NOP alias), LD, SD and C.NOP, and what
 * litmus tests of the fetch model need besides: LW, SW, BEQ, BNE, FENCE
 * and FENCE.I (with GNU as's j, li, mv, beqz and bnez). One table
 * (encoders/riscv_table.c) drives the assembler, the generators, the decoder,
 * the formatter and the instruction classes (rv_class), so they cannot
 * disagree about an encoding.
 *
 * Every encoder validates its operands (register numbers, immediate range and
 * alignment) and fails with a message instead of returning a truncated word.
 * Registers are numbers 0..31; text accepts xN and the ABI names (zero ra sp
 * gp tp t0-t6 s0-s11 fp a0-a7) and prints ABI names. */
#ifndef FTV_ENCODERS_RISCV_H
#define FTV_ENCODERS_RISCV_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Frequently used registers (RISC-V psABI register numbers). */
enum {
	RV_REG_ZERO = 0,
	RV_REG_RA = 1,
	RV_REG_SP = 2,
	RV_REG_T0 = 5,
	RV_REG_T1 = 6,
	RV_REG_S0 = 8,
	RV_REG_A0 = 10,
};

enum rv_op {
	RV_OP_NOP,   /* addi zero, zero, 0; decoded as its own op */
	RV_OP_C_NOP, /* 16-bit c.nop (0x0001) */
	RV_OP_FENCE_I, /* one encoding, like the NOPs */
	RV_OP_AUIPC,
	RV_OP_JAL,
	RV_OP_JALR,
	RV_OP_ADDI,
	RV_OP_LD,
	RV_OP_SD,
	RV_OP_LW,
	RV_OP_SW,
	RV_OP_BEQ,
	RV_OP_BNE,
	RV_OP_FENCE,
	RV_OP__COUNT
};

/* Which fields of struct rv_insn are meaningful. */
enum {
	RV_F_RD = 1 << 0,
	RV_F_RS1 = 1 << 1,
	RV_F_RS2 = 1 << 2,
	RV_F_IMM = 1 << 3,
	RV_F_TARGET = 1 << 4,
};

struct rv_insn {
	enum rv_op op;
	const char *name;  /* "jalr", "c.nop", ... */
	int nbytes;        /* 4, or 2 for compressed */
	uint32_t word;     /* the encoding (low 16 bits when nbytes == 2) */
	uint64_t pc;
	unsigned fields;   /* RV_F_* */
	unsigned rd, rs1, rs2;
	/* Sign-extended immediate: imm12 for ADDI/JALR/LD/SD/LW/SW, the byte
	 * offset for JAL, BEQ, BNE, the signed page count for AUIPC (added
	 * value = imm << 12); FENCE: pred << 4 | succ (bits i o r w). */
	int64_t imm;
	uint64_t target;   /* JAL, BEQ, BNE: pc + imm */
};

/* Instruction classes. The encoding table (encoders/riscv_table.c) has,
 * besides the subset above, a class row for every major opcode and
 * compressed group the executor and the world act on, so that whatever reads
 * "is this a load, a jump, a fence" reads it there (Unprivileged ISA,
 * "RV32/64G Instruction Set Listings" and the RVC opcode map). */
enum {
	RV_CL_LOAD = 1 << 0,    /* reads memory (AMOs and LR too) */
	RV_CL_STORE = 1 << 1,   /* writes memory (AMOs and SC too) */
	RV_CL_FENCE = 1 << 2,   /* FENCE, whatever its fm, pred, succ */
	RV_CL_FENCE_I = 1 << 3, /* FENCE.I, whatever its reserved fields */
	RV_CL_CMO = 1 << 4,     /* the rest of MISC-MEM: Zicbom/Zicboz cache-block
				 * operations, reserved funct3s */
	RV_CL_JUMP = 1 << 5,    /* control need not fall through: jumps,
				 * branches, SYSTEM (traps, xRET; the CSR
				 * instructions share the opcode), illegal */
	RV_CL_COND = 1 << 6,    /* a conditional branch */
	RV_CL_LINK = 1 << 7,    /* writes a return address: JAL/JALR (to rd),
				 * C.JALR (to ra) */
	RV_CL_RETURN = 1 << 8,  /* the psABI return: jalr zero, 0(ra); c.jr ra */
	RV_CL_ILLEGAL = 1 << 9, /* defined illegal: the all-zero 16-bit parcel */
};
/* Any access to memory or a memory-ordering instruction. */
#define RV_CL_MEMORY (RV_CL_LOAD | RV_CL_STORE | RV_CL_FENCE | RV_CL_FENCE_I | RV_CL_CMO)

/* The classes of the instruction whose first bytes are `word` (low two bits
 * not 11: a 16-bit one, the low half); 0 for none of them. */
unsigned rv_class(uint32_t word);
/* The address a load or store accesses, x[*base] + *off, and its size in
 * bytes (*len 0: not known, as for Zabha/Zacas AMOs). Returns 1, or 0 when
 * the word is no load or store or its address is not decoded (vector and
 * reserved-width loads and stores). */
int rv_mem_address(uint32_t word, unsigned *base, int64_t *off, unsigned *len);
/* A RV_CL_FENCE word's ordering sets, pred << 4 | succ (bits i o r w, ISA
 * 2.7 "Memory Ordering Instructions"); 0 for any other word. */
unsigned rv_fence_sets(uint32_t word);

/* GNU as syntax, one instruction: "auipc t0, 0x12345" (0..0xfffff as GNU
 * as takes it), "jalr t0, 16(t0)" or "jalr t0, t0, 16" or "jalr t0",
 * "jal ra, 0x1000" (absolute target, as objdump prints it), "addi a0, a1,
 * -5", "nop", "ld a0, 8(sp)", "sd ra, -8(sp)", "c.nop", and ".insn 0x..."
 * for a raw word. Sets *word and *nbytes (4, or 2 for compressed).
 * Returns 0, or -1 with err set. */
int rv_assemble(const char *text, uint64_t pc, uint32_t *word, int *nbytes,
		struct ftv_err *err);

/* Decodes the instruction at pc whose first bytes are `word` (little-endian
 * load). The low two bits tell a 16-bit encoding (!= 0b11) from a 32-bit one.
 * Returns 0 if known; -1 if not in the subset (out->nbytes and out->word are
 * still set). */
int rv_decode(uint32_t word, uint64_t pc, struct rv_insn *out);

/* Formats a decoded instruction in the syntax rv_assemble reads back, with
 * ABI register names: "jalr t0, 16(t0)", "jal ra, 0xffffffff80001000".
 * Returns the length written (snprintf-like), or -1 if buf is too small. */
int rv_format(const struct rv_insn *in, char *buf, size_t n);

/* Report text for any word: the formatted instruction, or ".insn 0x%08x"
 * (".insn 0x%04x" for a 16-bit encoding) when it is not in the subset.
 * Sets *nbytes if non-NULL. Returns 0 if known, -1 if unknown (buf is
 * filled in both cases). */
int rv_disasm(uint32_t word, uint64_t pc, char *buf, size_t n, int *nbytes);

/* Register names: ABI name of 0..31 (NULL beyond), and parsing of "xN" or an
 * ABI name (returns the number, or -1). */
const char *rv_reg_name(unsigned reg);
int rv_reg_parse(const char *name);

/* Encoders for the backends. Each returns 0, or -1 with err set and *w left
 * untouched. */
/* AUIPC rd, imm20: imm20_pages is the signed page count, -2^19..2^19-1. */
int rv_gen_auipc(unsigned rd, int64_t imm20_pages, uint32_t *w,
		 struct ftv_err *err);
/* JALR rd, off12(rs1), off12 in -2048..2047. */
int rv_gen_jalr(unsigned rd, unsigned rs1, int64_t off12, uint32_t *w,
		struct ftv_err *err);
/* JAL rd, target: target - pc within -1 MiB..+1 MiB-2, both 2-byte aligned. */
int rv_gen_jal(uint64_t pc, uint64_t target, unsigned rd, uint32_t *w,
	       struct ftv_err *err);
/* AUIPC rd, hi; JALR rd, lo(rd): a call from pc to target with
 * hi = (off + 0x800) >> 12 and lo = off - (hi << 12), so lo is in
 * -2048..2047. hi must fit 20 signed bits, so off = target - pc must be in
 * -0x80000800..0x7ffff7ff (the top 2 KiB below +2 GiB do not round into
 * range). rd must not be zero (AUIPC zero would discard the high part). */
int rv_gen_call_pair(uint64_t pc, uint64_t target, unsigned rd,
		     uint32_t *auipc, uint32_t *jalr, struct ftv_err *err);
int rv_gen_addi(unsigned rd, unsigned rs1, int64_t imm12, uint32_t *w,
		struct ftv_err *err);
int rv_gen_ld(unsigned rd, unsigned rs1, int64_t off12, uint32_t *w,
	      struct ftv_err *err);
int rv_gen_sd(unsigned rs2, unsigned rs1, int64_t off12, uint32_t *w,
	      struct ftv_err *err);
uint32_t rv_gen_nop(void);   /* addi x0, x0, 0 = 0x00000013 */
uint16_t rv_gen_c_nop(void); /* 0x0001 */

/* Whether the naturally aligned 4-byte instruction word `old` may be
 * replaced by `new` while other harts may be executing it, under the Linux
 * 6.16 RISC-V ftrace scheme. See encoders/riscv_cmodx.c for the rule and its
 * sources. Returns 1 if safe, 0 if not. */
int rv_patchable_word_safe(uint32_t old, uint32_t new);
/* Whether a word is one side of the live-patched slot (the 4-byte NOP or a
 * JALR): the per-word form of the rule above, for reports. */
int rv_patchable_word(uint32_t word);

/* Adapters for `ftv encode/decode --arch riscv64` (encoders/riscv_report.c):
 * rv_assemble without the length (a 16-bit result is the low half of
 * *word), and one report line for a word, in the arm64 layout
 *   "0x800ff0ef  jal ra, 0x1000                   jal -> 0x1000            cmodx-unsafe"
 * i.e. word, text, class (name, "-> target" for JAL, "unknown" outside the
 * subset), and "cmodx-safe" for the NOP/JALR slot. Returns the line length
 * (snprintf-like) and sets *nbytes (the next instruction is at pc + it). */
int rv_assemble_word(const char *text, uint64_t pc, uint32_t *word,
		     struct ftv_err *err);
int rv_report_line(uint32_t word, uint64_t pc, char *buf, size_t n,
		   int *nbytes);

#endif
