/* The few fixed AArch64 instruction words the loader needs to build PLT
 * veneers and undefined-symbol trap stubs, and to classify patch sites.
 * Kept here so that sim/ does not depend on encoders/ while both are being
 * written; the integrator will switch these to the encoder table.
 * Encodings from the Arm ARM (DDI 0487), section C6.2 per instruction. */
#ifndef FTV_SIM_A64_WORDS_H
#define FTV_SIM_A64_WORDS_H

#include <stdint.h>

#define A64_NOP      0xd503201fu /* HINT #0, C6.2.238 */
#define A64_BTI_C    0xd503245fu /* HINT #34, C6.2.42 */
#define A64_BTI_JC   0xd50324dfu /* HINT #38 */
#define A64_PACIASP  0xd503233fu /* HINT #25, C6.2.250 */
#define A64_MOV_X9_X30 0xaa1e03e9u /* ORR X9, XZR, X30, C6.2.204 */

/* BL imm26 (C6.2.35) and B imm26 (C6.2.26): offset/4 in bits [25:0]. */
#define A64_BL       0x94000000u
#define A64_B        0x14000000u
#define A64_B_BL_MASK 0xfc000000u

/* BRK #imm16 (C6.2.40): imm16 in bits [20:5]. */
#define A64_BRK      0xd4200000u

/* The module PLT entry of arch/arm64/kernel/module-plts.c:
 *   ADRP X16, target        (C6.2.11; immlo [30:29], immhi [23:5])
 *   ADD  X16, X16, :lo12:   (C6.2.5;  imm12 [21:10])
 *   BR   X16                (C6.2.37)
 * BR through X16 may land on a BTI C landing pad (Arm ARM D8.4.1 ... BTYPE 01
 * for BR X16/X17), so veneers work with -mbranch-protection=bti targets. */
#define A64_ADRP_X16 0x90000010u
#define A64_ADD_X16_X16 0x91000210u
#define A64_BR_X16   0xd61f0200u

#endif
