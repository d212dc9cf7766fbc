/* arm64 instructions: encode, decode, format, assemble, classify.
 *
 * Everything here is driven by the one table in a64_table.h. The model is
 * Linux's arch/arm64/lib/insn.c: small pure functions; a request that cannot
 * be encoded (out-of-range branch, unencodable immediate, bad register) is an
 * error with a one-line message, never a truncated word.
 *
 *   uint32_t w;
 *   struct ftv_err err;
 *   if (a64_gen_branch(pc, target, 1, &w, &err))   // BL target
 *           ... err.msg says why ...
 *   if (a64_assemble("ldr x11, [x11, #-16]", pc, &w, &err)) ...
 *   char buf[A64_TEXT_MAX];
 *   a64_disasm(w, pc, buf, sizeof(buf));             // "ldur x11, [x11, #-16]"
 *   if (!a64_cmodx_safe(old, new)) ... may not patch live ...
 */
#ifndef FTV_ENCODERS_A64_H
#define FTV_ENCODERS_A64_H

#include "encoders/a64_table.h"
#include "util/err.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum a64_id {
#define A64_X_ENUM(ID, LC, NAME, MASK, VALUE, FORM, FLAGS) A64_##ID,
	A64_INSN_TABLE(A64_X_ENUM)
#undef A64_X_ENUM
	A64_NR_INSNS,
	A64_UNKNOWN = -1,
};

struct a64_desc {
	enum a64_id id;
	const char *name; /* mnemonic: "b.cond", "dc cvau", "ldr", ... */
	const char *key;  /* unique table key: "b_cond", "dc_cvau", "ldr_lit" */
	uint32_t mask, value;
	enum a64_form form;
	unsigned flags; /* A64_CMODX | A64_BRANCH | ... */
};

/* The table, indexed by enum a64_id. */
extern const struct a64_desc a64_descs[A64_NR_INSNS];

/* Shift types of the shifted-register forms (Arm ARM C6.2 ADD (shifted
 * register) "shift"; ROR only for the logical instructions). */
enum a64_shift { A64_LSL, A64_LSR, A64_ASR, A64_ROR };

/* One instruction with its operands. Register numbers are 0..31; whether 31
 * means SP or ZR is fixed by the operand's position (the form). */
struct a64_insn {
	enum a64_id id;
	uint32_t word;   /* filled by a64_decode and a64_encode */
	uint64_t pc;     /* address of the instruction */
	bool is64;       /* X registers (sf, or size for loads/stores) */
	uint8_t rd;      /* Rd / Rt */
	uint8_t rn;      /* Rn (address base, source) */
	uint8_t rm;      /* Rm (mov and shifted-register source) */
	uint8_t cond;    /* b.cond condition, 0..15 (Arm ARM C1.2.4) */
	uint8_t bit;     /* tbz/tbnz bit number 0..63 */
	uint8_t shift;   /* movz/movn/movk: 0,16,32,48; add/sub: 0 or 12;
			  * shifted register: the amount, 0..63 (W: 0..31) */
	int64_t imm;     /* immediate: offset in bytes for loads/stores,
			  * imm16, imm12, the logical bitmask value, hint
			  * number, barrier option, bti targets (0 none, 1 c,
			  * 2 j, 3 jc); shifted-register forms: the shift
			  * type (enum a64_shift), its amount in shift */
	uint64_t target; /* pc-relative forms: the absolute target (adrp:
			  * the 4 KiB page address); the encoder reads it */
};

/* Longest text a64_format / a64_disasm produce, with its NUL. */
#define A64_TEXT_MAX 96

/* Encodes in (in->id and operands; in->pc for pc-relative forms) into *word
 * and in->word stays untouched. Returns 0, or -1 with err set. */
int a64_encode(const struct a64_insn *in, uint32_t *word, struct ftv_err *err);

/* Decodes word at pc: 0 with *out filled when ftv knows the instruction,
 * -1 (out->id = A64_UNKNOWN) otherwise. Only canonical encodings are
 * claimed: re-encoding *out gives back word. */
int a64_decode(uint32_t word, uint64_t pc, struct a64_insn *out);

/* GNU-style text (as objdump prints it, numeric targets as absolute
 * addresses), accepted back by a64_assemble. Returns the length, or -1. */
int a64_format(const struct a64_insn *in, char *buf, size_t n);

/* GNU as syntax for one instruction at pc: "bl 0x2000", "bti c",
 * "mov x9, x30", "ldr x11, [x11, #-16]", "adrp x16, 0x7fff0000",
 * "b.ne 0x40", "dc cvau, x0", "dsb ish", "hint #34", "ldr x1, 0x1008",
 * "movk x0, #0x1234, lsl #16", "bic x11, x30, #7". Branch and literal
 * targets are absolute addresses. Returns 0, or -1 with err set. */
int a64_assemble(const char *text, uint64_t pc, uint32_t *word, struct ftv_err *err);
/* The same, also returning the parsed instruction. */
int a64_parse(const char *text, uint64_t pc, struct a64_insn *out, struct ftv_err *err);

/* Text for reports: ftv's own for what it decodes, Capstone's for the rest,
 * ".inst 0x%08x" if neither knows the word. Returns the length. */
int a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t n);

/* Arm ARM B2.2.5 "Concurrent modification and execution of instructions":
 * a word may be replaced while another PE executes it only if both old and
 * new are B, B.cond, BL, BRK, CBNZ, CBZ, HVC, ISB, NOP, SMC, SVC, TBNZ or TBZ.
 * a64_cmodx_class names the class ("b", "bl", "b.cond", "nop", "isb", ...)
 * or returns NULL when the word is not on the list. */
const char *a64_cmodx_class(uint32_t word);
int a64_cmodx_safe(uint32_t old_word, uint32_t new_word);

/* Convenience generators (Linux's aarch64_insn_gen_* in spirit). */
uint32_t a64_gen_nop(void);
/* BTI landing pad for the given branch targets (Arm ARM C6.2.39); the
 * values are those of struct a64_insn's imm for BTI. */
enum a64_bti_targets { A64_BTI_NONE, A64_BTI_C, A64_BTI_J, A64_BTI_JC };
uint32_t a64_gen_bti(enum a64_bti_targets targets);
/* BRK #imm (Arm ARM C6.2.38): a breakpoint exception naming imm. */
uint32_t a64_gen_brk(uint16_t imm);
/* B (link = 0) or BL (link = 1) from pc to target. */
int a64_gen_branch(uint64_t pc, uint64_t target, int link, uint32_t *word,
		   struct ftv_err *err);
/* MOV Xd, Xm (ORR alias); registers 0..30 or 31 = XZR. */
int a64_gen_mov_reg(unsigned rd, unsigned rm, uint32_t *word, struct ftv_err *err);
/* LDR Xt, <target> (literal). */
int a64_gen_ldr_literal(uint64_t pc, uint64_t target, unsigned rt, uint32_t *word,
			struct ftv_err *err);
/* ADRP Xd, <page of target>. */
int a64_gen_adrp(uint64_t pc, uint64_t target, unsigned rd, uint32_t *word,
		 struct ftv_err *err);

/* Branches (A64_BRANCH) and pc-relative address forms (A64_PCREL): the
 * absolute target of word at pc. Returns 0, or -1 if word is neither. */
int a64_branch_target(uint32_t word, uint64_t pc, uint64_t *target);
int a64_pcrel_target(uint32_t word, uint64_t pc, uint64_t *target);

/* a64_is_nop(w), a64_is_bl(w), a64_is_b_cond(w), a64_is_ldr_lit(w), ...:
 * one per table line, true when (w & mask) == value (a64_is_hint is also
 * true for NOP and BTI, as HINT #n covers them). */
#define A64_X_PRED(ID, LC, NAME, MASK, VALUE, FORM, FLAGS)                          \
	static inline bool a64_is_##LC(uint32_t w)                             \
	{                                                                      \
		return (w & (uint32_t)(MASK)) == (uint32_t)(VALUE);             \
	}
A64_INSN_TABLE(A64_X_PRED)
#undef A64_X_PRED

/* a64_in_ldst(w), ...: one per A64_GROUP_TABLE line, true when w belongs to
 * that top-level encoding group. */
#define A64_X_GROUP(ID, LC, NAME, MASK, VALUE)                                 \
	static inline bool a64_in_##LC(uint32_t w)                             \
	{                                                                      \
		return (w & (uint32_t)(MASK)) == (uint32_t)(VALUE);             \
	}
A64_GROUP_TABLE(A64_X_GROUP)
#undef A64_X_GROUP

/* The id of the first table line matching word, or A64_UNKNOWN; a cheap
 * lookup without operand checks (a64_decode also checks canonicity). */
enum a64_id a64_lookup(uint32_t word);

/* Condition names (Arm ARM C1.2.4), index 0..15: "eq", "ne", "hs", ... */
extern const char *const a64_cond_names[16];

#endif
