/* The one table of arm64 encodings ftv knows. Every line is
 *
 *   X(ID, id, "name", mask, value, FORM, FLAGS)
 *
 * and a word w is that instruction when (w & mask) == value. The table drives
 * the decoder (first matching line wins, so exact aliases such as NOP come
 * before the general HINT), the encoder and formatter (through FORM, which
 * names the operand fields), the CMODX classifier (A64_CMODX) and the
 * a64_is_<id>() predicates in a64.h. Adding an instruction is one line here,
 * plus, for a new operand layout, one FORM with a case in a64_encode.c,
 * a64_decode.c, a64_format.c and a64_asm.c.
 *
 * Encodings: Arm ARM (DDI 0487) C4.1 "A64 instruction set encoding" and the
 * per-instruction pages in C6.2 cited on each line.
 */
#ifndef FTV_ENCODERS_A64_TABLE_H
#define FTV_ENCODERS_A64_TABLE_H

/* Operand layouts ("forms"); one encoder/decoder/formatter/parser each. */
enum a64_form {
	A64_FORM_NONE,       /* no operands: nop, paciasp */
	A64_FORM_HINT,       /* #imm7 in CRm:op2 (bits 11:5) */
	A64_FORM_BTI,        /* [c|j|jc] in op2<2:1> (bits 7:6) */
	A64_FORM_BARRIER,    /* dsb/dmb option (CRm, bits 11:8) */
	A64_FORM_ISB,        /* isb [sy|#imm4] (CRm) */
	A64_FORM_BRANCH26,   /* imm26 words, +/-128 MiB */
	A64_FORM_COND19,     /* b.<cond>: imm19 words, cond in 3:0 */
	A64_FORM_CB19,       /* Rt, imm19 words; sf in bit 31 */
	A64_FORM_TB14,       /* Rt, #b5:b40, imm14 words */
	A64_FORM_RN,         /* br/blr Xn (bits 9:5) */
	A64_FORM_RET,        /* ret [Xn], Xn defaults to x30 */
	A64_FORM_IMM16,      /* svc/hvc/smc/brk #imm16 (bits 20:5) */
	A64_FORM_SYS_XT,     /* dc cvau / ic ivau, Xt */
	A64_FORM_MOV_REG,    /* mov Rd, Rm (ORR shifted register, Rn = ZR) */
	A64_FORM_MOVW,       /* Rd, #imm16{, lsl #16*hw} */
	A64_FORM_ADR,        /* Rd, imm21 bytes (immhi:immlo) */
	A64_FORM_ADRP,       /* Rd, imm21 4 KiB pages */
	A64_FORM_ADDSUB_IMM, /* Rd|SP, Rn|SP, #imm12{, lsl #12} */
	A64_FORM_LOGIC_IMM,  /* Rd|SP, Rn, #bitmask (N:immr:imms) */
	A64_FORM_LDR_LIT,    /* Rt, imm19 words */
	A64_FORM_LDST_UIMM,  /* Rt, [Xn|SP{, #imm12 * size}] */
	A64_FORM_LDST_SIMM9, /* Rt, [Xn|SP{, #simm9}] (unscaled) */
	A64_FORM_SHIFTED_REG, /* Rd, Rn, Rm{, lsl|lsr|asr|ror #imm6}; 31 = ZR */
	A64_FORM_CSEL,       /* Rd, Rn, Rm, cond (bits 15:12); 31 = ZR */
	A64_FORM_LDST_REG,   /* Rt, [Xn|SP, Rm{, extend|lsl {#0|#log2 size}}] */
	A64_FORM_LDST_ORDERED, /* Rt, [Xn|SP{, #0}]: no offset (Rs, Rt2 all ones) */
	A64_FORM_UDF,        /* #imm16 in bits 15:0 */
	A64_FORM_EXT_REG,    /* Rd|SP, Rn|SP, Rm, extend {#0..4} (option 15:13, imm3 12:10) */
	/* Assembler-only syntaxes of the aliases below. */
	A64_FORM_BIC_IMM,      /* Rd|SP, Rn, #mask: AND with ~mask */
	A64_FORM_MOV_SP,       /* Rd|SP, Rn|SP: ADD #0, one of them SP */
	A64_FORM_MOV_WIDE,     /* Rd, #value: MOVZ #value >> shift */
	A64_FORM_MOV_WIDE_INV, /* Rd, #value: MOVN #~value >> shift */
	A64_FORM_CMP_IMM,      /* Rn|SP, #imm12{, lsl #12}: ADDS/SUBS, Rd = ZR */
	A64_FORM_NEG,          /* Rd, Rm{, shift #n}: SUB (shifted), Rn = ZR */
	A64_FORM_CMP_REG,      /* Rn, Rm{, shift #n}: SUBS/ADDS (shifted), Rd = ZR */
	A64_FORM_CSET,         /* Rd, cond: CSINC Rd, ZR, ZR, invert(cond) */
	A64_FORM_CINC,         /* Rd, Rn, cond: CSINC Rd, Rn, Rn, invert(cond) */
};

/* Class flags. */
#define A64_CMODX  0x1u /* Arm ARM B2.2.5: may be changed, old and new both
			 * on the list, while another PE executes it */
#define A64_BRANCH 0x2u /* transfers control to a pc-relative target */
#define A64_PCREL  0x4u /* computes a pc-relative address (adr, ldr lit) */
#define A64_LINK   0x8u /* writes the return address to x30 */

/* X(ID, id, name, mask, value, form, flags) */
#define A64_INSN_TABLE(X)                                                                      \
	/* C6.2.238 NOP = HINT #0; it alone of the hints is on the CMODX list */               \
	X(NOP, nop, "nop", 0xffffffff, 0xd503201f, A64_FORM_NONE, A64_CMODX)                   \
	/* C6.2.39 BTI = HINT #32|#34|#36|#38: CRm=0100, op2=xx0 */                            \
	X(BTI, bti, "bti", 0xffffff3f, 0xd503241f, A64_FORM_BTI, 0)                            \
	/* C6.2.243 PACIA: PACIASP = HINT #25; PACIB: PACIBSP = HINT #27 */                    \
	X(PACIASP, paciasp, "paciasp", 0xffffffff, 0xd503233f, A64_FORM_NONE, 0)               \
	X(PACIBSP, pacibsp, "pacibsp", 0xffffffff, 0xd503237f, A64_FORM_NONE, 0)               \
	/* C6.2.24 AUTIA: AUTIASP = HINT #29; AUTIB: AUTIBSP = HINT #31 */                     \
	X(AUTIASP, autiasp, "autiasp", 0xffffffff, 0xd50323bf, A64_FORM_NONE, 0)               \
	X(AUTIBSP, autibsp, "autibsp", 0xffffffff, 0xd50323ff, A64_FORM_NONE, 0)               \
	/* C6.2.133 HINT: every other CRm:op2 */                                               \
	X(HINT, hint, "hint", 0xfffff01f, 0xd503201f, A64_FORM_HINT, 0)                        \
	/* C6.2.134 ISB (option 0b1111 = SY); the whole ISB class is CMODX-safe */             \
	X(ISB, isb, "isb", 0xfffff0ff, 0xd50330df, A64_FORM_ISB, A64_CMODX)                    \
	/* C6.2.90 DSB, C6.2.88 DMB; CRm = option */                                           \
	X(DSB, dsb, "dsb", 0xfffff0ff, 0xd503309f, A64_FORM_BARRIER, 0)                        \
	X(DMB, dmb, "dmb", 0xfffff0ff, 0xd50330bf, A64_FORM_BARRIER, 0)                        \
	/* C6.2.26 B, C6.2.34 BL: op 0 00101 / 1 00101, imm26 */                               \
	X(B, b, "b", 0xfc000000, 0x14000000, A64_FORM_BRANCH26, A64_CMODX | A64_BRANCH)        \
	X(BL, bl, "bl", 0xfc000000, 0x94000000, A64_FORM_BRANCH26,                             \
	  A64_CMODX | A64_BRANCH | A64_LINK)                                                   \
	/* C6.2.27 B.cond: 0101010 0 imm19 0 cond (bit 4 set is BC.cond) */                    \
	X(B_COND, b_cond, "b.cond", 0xff000010, 0x54000000, A64_FORM_COND19,                   \
	  A64_CMODX | A64_BRANCH)                                                              \
	/* C6.2.48 CBZ, C6.2.47 CBNZ: sf 011010 op imm19 Rt */                                 \
	X(CBZ, cbz, "cbz", 0x7f000000, 0x34000000, A64_FORM_CB19, A64_CMODX | A64_BRANCH)      \
	X(CBNZ, cbnz, "cbnz", 0x7f000000, 0x35000000, A64_FORM_CB19, A64_CMODX | A64_BRANCH)   \
	/* C6.2.375 TBZ, C6.2.374 TBNZ: b5 011011 op b40 imm14 Rt */                           \
	X(TBZ, tbz, "tbz", 0x7f000000, 0x36000000, A64_FORM_TB14, A64_CMODX | A64_BRANCH)      \
	X(TBNZ, tbnz, "tbnz", 0x7f000000, 0x37000000, A64_FORM_TB14, A64_CMODX | A64_BRANCH)   \
	/* C6.2.37 BR, C6.2.35 BLR, C6.2.254 RET: 1101011 0 0 op 11111 000000 Rn 00000 */      \
	X(BR, br, "br", 0xfffffc1f, 0xd61f0000, A64_FORM_RN, 0)                                \
	X(BLR, blr, "blr", 0xfffffc1f, 0xd63f0000, A64_FORM_RN, A64_LINK)                      \
	X(RET, ret, "ret", 0xfffffc1f, 0xd65f0000, A64_FORM_RET, 0)                            \
	/* C6.2.365 SVC, C6.2.132 HVC, C6.2.301 SMC, C6.2.38 BRK: exception generation */      \
	X(SVC, svc, "svc", 0xffe0001f, 0xd4000001, A64_FORM_IMM16, A64_CMODX)                  \
	X(HVC, hvc, "hvc", 0xffe0001f, 0xd4000002, A64_FORM_IMM16, A64_CMODX)                  \
	X(SMC, smc, "smc", 0xffe0001f, 0xd4000003, A64_FORM_IMM16, A64_CMODX)                  \
	X(BRK, brk, "brk", 0xffe0001f, 0xd4200000, A64_FORM_IMM16, A64_CMODX)                  \
	/* C6.2.80 DC CVAU = SYS #3, C7, C11, #1; C6.2.135 IC IVAU = SYS #3, C7, C5, #1 */     \
	X(DC_CVAU, dc_cvau, "dc cvau", 0xffffffe0, 0xd50b7b20, A64_FORM_SYS_XT, 0)             \
	X(IC_IVAU, ic_ivau, "ic ivau", 0xffffffe0, 0xd50b7520, A64_FORM_SYS_XT, 0)             \
	/* C6.2.80 DC CVAC = SYS #3, C7, C10, #1; DC CIVAC = SYS #3, C7, C14, #1 (clean to  \
	 * the PoC, which is beyond the PoU: both also do what DC CVAU does, D7.5.9) */        \
	X(DC_CVAC, dc_cvac, "dc cvac", 0xffffffe0, 0xd50b7a20, A64_FORM_SYS_XT, 0)             \
	X(DC_CIVAC, dc_civac, "dc civac", 0xffffffe0, 0xd50b7e20, A64_FORM_SYS_XT, 0)          \
	/* C6.2.212 MOV (register) = ORR Rd, ZR, Rm (shift 0, imm6 0) */                       \
	X(MOV, mov, "mov", 0x7fe0ffe0, 0x2a0003e0, A64_FORM_MOV_REG, 0)                        \
	/* C6.2.217 MOVN, C6.2.218 MOVZ, C6.2.216 MOVK: sf opc 100101 hw imm16 Rd */           \
	X(MOVN, movn, "movn", 0x7f800000, 0x12800000, A64_FORM_MOVW, 0)                        \
	X(MOVZ, movz, "movz", 0x7f800000, 0x52800000, A64_FORM_MOVW, 0)                        \
	X(MOVK, movk, "movk", 0x7f800000, 0x72800000, A64_FORM_MOVW, 0)                        \
	/* C6.2.10 ADR, C6.2.11 ADRP: op immlo 10000 immhi Rd */                               \
	X(ADR, adr, "adr", 0x9f000000, 0x10000000, A64_FORM_ADR, A64_PCREL)                    \
	X(ADRP, adrp, "adrp", 0x9f000000, 0x90000000, A64_FORM_ADRP, A64_PCREL)                \
	/* C6.2.4 ADD (immediate), C6.2.358 SUB (immediate): sf op 0 100010 sh imm12 */        \
	X(ADD, add, "add", 0x7f800000, 0x11000000, A64_FORM_ADDSUB_IMM, 0)                     \
	X(SUB, sub, "sub", 0x7f800000, 0x51000000, A64_FORM_ADDSUB_IMM, 0)                     \
	/* ADDS (immediate), SUBS (immediate): sf op 1 100010 sh imm12 Rn Rd; here Rd = 31  \
	 * is ZR, not SP, and is the CMN/CMP alias (C6.2 CMN, CMP (immediate)) */              \
	X(ADDS, adds, "adds", 0x7f800000, 0x31000000, A64_FORM_ADDSUB_IMM, 0)                  \
	X(SUBS, subs, "subs", 0x7f800000, 0x71000000, A64_FORM_ADDSUB_IMM, 0)                  \
	/* ADD, SUB (shifted register): sf op 0 01011 shift 0 Rm imm6 Rn Rd; shift 11 is      \
	 * reserved, 31 is ZR everywhere (SP needs the extended-register form) */              \
	X(ADD_REG, add_reg, "add", 0x7f200000, 0x0b000000, A64_FORM_SHIFTED_REG, 0)            \
	X(SUB_REG, sub_reg, "sub", 0x7f200000, 0x4b000000, A64_FORM_SHIFTED_REG, 0)            \
	/* C6.2.3 ADD, C6.2.356 SUB (extended register): sf op 0 01011 00 1 Rm option imm3 Rn  \
	 * Rd; herd's diy7 writes ADD X4,X4,W3,SXTW for an address dependency */               \
	X(ADD_EXT, add_ext, "add", 0x7fe00000, 0x0b200000, A64_FORM_EXT_REG, 0)                \
	X(SUB_EXT, sub_ext, "sub", 0x7fe00000, 0x4b200000, A64_FORM_EXT_REG, 0)                \
	/* C6.2.12 AND (immediate): sf 00 100100 N immr imms Rn Rd */                          \
	X(AND, and, "and", 0x7f800000, 0x12000000, A64_FORM_LOGIC_IMM, 0)                      \
	/* EOR (immediate): sf 10 100100 N immr imms Rn Rd; EOR (shifted register):           \
	 * sf 10 01010 shift N=0 Rm imm6 Rn Rd, where shift 11 is ROR */                       \
	X(EOR, eor, "eor", 0x7f800000, 0x52000000, A64_FORM_LOGIC_IMM, 0)                      \
	X(EOR_REG, eor_reg, "eor", 0x7f200000, 0x4a000000, A64_FORM_SHIFTED_REG, 0)            \
	/* C6.2.13 AND (shifted register): sf 00 01010 shift N=0 Rm imm6 Rn Rd */               \
	X(AND_REG, and_reg, "and", 0x7f200000, 0x0a000000, A64_FORM_SHIFTED_REG, 0)            \
	/* ADDS, SUBS (shifted register): sf op 1 01011 shift 0 Rm imm6 Rn Rd; Rd = ZR is the  \
	 * CMN/CMP alias, Rn = ZR the NEGS alias (C6.2 CMP, CMN, NEGS (shifted register)) */   \
	X(ADDS_REG, adds_reg, "adds", 0x7f200000, 0x2b000000, A64_FORM_SHIFTED_REG, 0)         \
	X(SUBS_REG, subs_reg, "subs", 0x7f200000, 0x6b000000, A64_FORM_SHIFTED_REG, 0)         \
	/* C6.2.69 CSEL, C6.2.73 CSINC: sf 0 0 11010100 Rm cond 0 o2 Rn Rd; CSINC with Rn = Rm  \
	 * is the CINC alias, with Rn = Rm = ZR the CSET alias (cond not AL/NV) */             \
	X(CSEL, csel, "csel", 0x7fe00c00, 0x1a800000, A64_FORM_CSEL, 0)                        \
	X(CSINC, csinc, "csinc", 0x7fe00c00, 0x1a800400, A64_FORM_CSEL, 0)                     \
	/* C6.2.167 LDR (literal): 0 x 011 0 00 imm19 Rt (x: 64-bit) */                        \
	X(LDR_LIT, ldr_lit, "ldr", 0xbf000000, 0x18000000, A64_FORM_LDR_LIT, A64_PCREL)        \
	/* C6.2.166 LDR, C6.2.346 STR (immediate, unsigned offset): 1 x 111 0 01 opc imm12 */  \
	X(STR, str, "str", 0xbfc00000, 0xb9000000, A64_FORM_LDST_UIMM, 0)                      \
	X(LDR, ldr, "ldr", 0xbfc00000, 0xb9400000, A64_FORM_LDST_UIMM, 0)                      \
	/* C6.2.202 LDUR, C6.2.364 STUR: 1 x 111 0 00 opc 0 imm9 00 Rn Rt */                   \
	X(STUR, stur, "stur", 0xbfe00c00, 0xb8000000, A64_FORM_LDST_SIMM9, 0)                  \
	X(LDUR, ldur, "ldur", 0xbfe00c00, 0xb8400000, A64_FORM_LDST_SIMM9, 0)                  \
	/* C6.2.168 LDR, C6.2.347 STR (register): 1 x 111 0 00 opc 1 Rm option S 10 Rn Rt;       \
	 * option x0x is reserved */                                                           \
	X(STR_REG, str_reg, "str", 0xbfe00c00, 0xb8200800, A64_FORM_LDST_REG, 0)               \
	X(LDR_REG, ldr_reg, "ldr", 0xbfe00c00, 0xb8600800, A64_FORM_LDST_REG, 0)               \
	/* C6.2.357 STLR, C6.2.158 LDAR: 1 x 001000 1 L 0 11111 1 11111 Rn Rt, store-release \
	 * and load-acquire (Arm ARM B2.3.8: ordered after, before, every earlier, later    \
	 * access of the PE) */                                                                \
	X(STLR, stlr, "stlr", 0xbffffc00, 0x889ffc00, A64_FORM_LDST_ORDERED, 0)                \
	X(LDAR, ldar, "ldar", 0xbffffc00, 0x88dffc00, A64_FORM_LDST_ORDERED, 0)                \
	/* C6.2.387 UDF #imm16: permanently undefined (the zero word is UDF #0) */             \
	X(UDF, udf, "udf", 0xffff0000, 0x00000000, A64_FORM_UDF, 0)                            \
	/* C6.2.136 IC IALLU = SYS #0, C7, C5, #0 (Rt = 31): invalidate all to the PoU, this   \
	 * PE only */                                                                          \
	X(IC_IALLU, ic_iallu, "ic iallu", 0xffffffff, 0xd508751f, A64_FORM_NONE, 0)            \
	/* C6.2.101 ERET: return from an exception to ELR_ELx with SPSR_ELx */                 \
	X(ERET, eret, "eret", 0xffffffff, 0xd69f03e0, A64_FORM_NONE, 0)                        \
	/* C6.2.229 MSR (register) to ELR_EL1 (op0 3, op1 0, CRn 4, CRm 0, op2 1) */            \
	X(MSR_ELR_EL1, msr_elr_el1, "msr elr_el1", 0xffffffe0, 0xd5184020, A64_FORM_SYS_XT, 0)

/* Top-level encoding groups, Arm ARM C4.1 "A64 instruction set encoding"
 * (the main table decodes op0, bits 28:25): X(ID, id, "name", mask, value).
 * A word is in the group when (w & mask) == value, whether or not the table
 * above knows the instruction; a64_in_<id>() in a64.h tests it. */
#define A64_GROUP_TABLE(X)                                                                     \
	/* op0 = x1x0: Loads and Stores (every LDR/STR/LDP/STP/LDXR/... form) */               \
	X(LDST, ldst, "loads and stores", 0x0a000000, 0x08000000)

/* Assembler-only spellings (GNU as aliases) of a table instruction:
 * X(ALIAS_ID, "spelling", TARGET_ID, SYNTAX). The decoder never produces them;
 * the formatter picks the preferred disassembly itself. */
#define A64_ALIAS_TABLE(X)                                                                     \
	/* C6.2.31 BIC (immediate) is AND with the inverted bitmask (GNU as) */                \
	X(BIC_IMM, "bic", AND, A64_FORM_BIC_IMM)                                               \
	/* GNU as turns ldr/str with an unscaled offset into LDUR/STUR */                      \
	X(LDR_UNSCALED, "ldr", LDUR, A64_FORM_LDST_SIMM9)                                      \
	X(STR_UNSCALED, "str", STUR, A64_FORM_LDST_SIMM9)                                      \
	/* C6.2.210 MOV (to/from SP) = ADD Rd, Rn, #0 */                                       \
	X(MOV_SP, "mov", ADD, A64_FORM_MOV_SP)                                                 \
	/* C6.2.213 MOV (wide immediate) = MOVZ; C6.2.211 (inverted) = MOVN */                 \
	X(MOV_WIDE, "mov", MOVZ, A64_FORM_MOV_WIDE)                                            \
	X(MOV_WIDE_INV, "mov", MOVN, A64_FORM_MOV_WIDE_INV)                                    \
	/* CMP (immediate) = SUBS ZR, Rn, #imm; CMN (immediate) = ADDS ZR, Rn, #imm */        \
	X(CMP_IMM, "cmp", SUBS, A64_FORM_CMP_IMM)                                              \
	X(CMN_IMM, "cmn", ADDS, A64_FORM_CMP_IMM)                                              \
	/* NEG (shifted register) = SUB Rd, ZR, Rm{, shift #n} */                              \
	X(NEG, "neg", SUB_REG, A64_FORM_NEG)                                                   \
	/* CMP/CMN (shifted register) = SUBS/ADDS ZR, Rn, Rm{, shift #n} */                    \
	X(CMP_REG, "cmp", SUBS_REG, A64_FORM_CMP_REG)                                          \
	X(CMN_REG, "cmn", ADDS_REG, A64_FORM_CMP_REG)                                          \
	/* NEGS (shifted register) = SUBS Rd, ZR, Rm{, shift #n} */                            \
	X(NEGS, "negs", SUBS_REG, A64_FORM_NEG)                                                \
	/* C6.2.70 CSET = CSINC Rd, ZR, ZR, invert(cond); C6.2.68 CINC = CSINC Rd, Rn, Rn, ... */ \
	X(CSET, "cset", CSINC, A64_FORM_CSET)                                                  \
	X(CINC, "cinc", CSINC, A64_FORM_CINC)

#endif
