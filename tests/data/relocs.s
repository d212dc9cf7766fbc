// Every relocation type the loader implements, each against a global
// symbol so that the assembler leaves a relocation for the loader.
// tests/test_loader.c decodes the linked words and checks each against
// the symbol's address. Near targets live in .text; far ones in .data.
	.text
	.globl	rel_code, near_fn
	.p2align 3
rel_code:
	bl	near_fn			// CALL26
	b	near_fn			// JUMP26
	b.eq	near_fn			// CONDBR19
	cbz	x0, near_fn		// CONDBR19 (CBZ)
	tbz	x0, #3, near_fn		// TSTBR14
	ldr	x1, near_lit		// LD_PREL_LO19
	adr	x2, near_fn		// ADR_PREL_LO21
	adrp	x3, far_data		// ADR_PREL_PG_HI21
	add	x3, x3, :lo12:far_data	// ADD_ABS_LO12_NC
	adrp	x4, :pg_hi21_nc:far_data	// ADR_PREL_PG_HI21_NC
	ldrb	w5, [x4, :lo12:far_b]	// LDST8_ABS_LO12_NC
	ldrh	w5, [x4, :lo12:far_h]	// LDST16_ABS_LO12_NC
	ldr	w5, [x4, :lo12:far_w]	// LDST32_ABS_LO12_NC
	ldr	x5, [x4, :lo12:far_data]	// LDST64_ABS_LO12_NC
	ldr	q0, [x4, :lo12:far_q]	// LDST128_ABS_LO12_NC
	movz	x6, #:abs_g3:far_data	// MOVW_UABS_G3
	movk	x6, #:abs_g2_nc:far_data	// MOVW_UABS_G2_NC
	movk	x6, #:abs_g1_nc:far_data	// MOVW_UABS_G1_NC
	movk	x6, #:abs_g0_nc:far_data	// MOVW_UABS_G0_NC
	movz	x7, #:abs_g0:small_abs	// MOVW_UABS_G0
	movz	x7, #:abs_g1:small_abs	// MOVW_UABS_G1
	movz	x7, #:abs_g2:small_abs	// MOVW_UABS_G2
	movz	x8, #:abs_g0_s:neg_abs	// MOVW_SABS_G0
	movz	x8, #:abs_g1_s:neg_abs	// MOVW_SABS_G1
	movz	x8, #:abs_g2_s:neg_abs	// MOVW_SABS_G2
	movz	x9, #:prel_g3:far_data	// MOVW_PREL_G3
	movk	x9, #:prel_g2_nc:far_data	// MOVW_PREL_G2_NC
	movk	x9, #:prel_g1_nc:far_data	// MOVW_PREL_G1_NC
	movk	x9, #:prel_g0_nc:far_data	// MOVW_PREL_G0_NC
	movz	x10, #:prel_g0:near_fn	// MOVW_PREL_G0
	movz	x10, #:prel_g1:far_data	// MOVW_PREL_G1
	movz	x10, #:prel_g2:far_data	// MOVW_PREL_G2
	ret
	.p2align 3
	.globl	near_lit
near_lit:
	.quad	0
near_fn:
	ret

	.data
	.p2align 4
	.globl	far_data, far_b, far_h, far_w, far_q, rel_data
far_data:
	.quad	0
far_b:	.byte	0
	.p2align 1
far_h:	.hword	0
	.p2align 2
far_w:	.word	0
	.p2align 4
far_q:	.quad	0, 0
rel_data:
	.quad	near_fn			// ABS64
	.quad	near_fn - .		// PREL64
	.word	near_fn - .		// PREL32
	.hword	two_h - .		// PREL16
	.p2align 2
	.word	small_abs		// ABS32
	.hword	small_abs		// ABS16

	.section .data.two, "aw"
	.globl	two_h
two_h:	.hword	0

	.globl	small_abs, neg_abs
	.set	small_abs, 0x1234
	.set	neg_abs, -0x1234
