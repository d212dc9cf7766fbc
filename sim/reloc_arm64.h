/* AArch64 ELF relocations (AAELF64, "Relocation" section 5.7): compute
 * X = S + A - P (or its variants) for one relocation type, check X against
 * the type's overflow rule, and insert it into a data word or into an
 * existing instruction's immediate field. Pure bit manipulation; the linker
 * (sim/arch_arm64.c) decides S, A and P and what to do on overflow (CALL26
 * and JUMP26 get a PLT veneer, everything else is an error). */
#ifndef FTV_SIM_RELOC_ARM64_H
#define FTV_SIM_RELOC_ARM64_H

#include <stdint.h>

#include "sim/reloc.h"

/* Bytes the relocation reads and writes at the place (2, 4 or 8), 0 for
 * R_AARCH64_NONE, -1 for an unknown type. */
int sim_arm64_reloc_width(unsigned type);

/* "R_AARCH64_CALL26", or "R_AARCH64_<unknown 1234>" in a static buffer. */
const char *sim_arm64_reloc_name(unsigned type);

/* Applies one relocation at loc (host copy of the place, whose emulated
 * address is P). On SIM_RELOC_OVERFLOW nothing is written and *x is the
 * out-of-range value. */
enum sim_reloc_status sim_arm64_reloc_apply(unsigned type, uint8_t *loc,
					    uint64_t P, uint64_t S, int64_t A,
					    int64_t *x);

/* True for the branch relocations the kernel's module loader may redirect
 * through a PLT veneer when they overflow (arch/arm64/kernel/module.c). */
int sim_arm64_reloc_is_branch26(unsigned type);

#endif
