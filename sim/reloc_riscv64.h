/* RISC-V ELF relocations (riscv-elf-psabi-doc, "Relocations"): one case per
 * R_RISCV_* type the loader applies, with the psABI's field encodings and
 * the ranges GNU ld checks. Pure bit manipulation, like sim/reloc_arm64.h
 * for AArch64; the linker (sim/arch_riscv64.c) decides S, A and P, pairs
 * each PCREL_LO12 with its PCREL_HI20 and consumes RELAX and ALIGN itself
 * (sim/align_riscv64.c). */
#ifndef FTV_SIM_RELOC_RISCV64_H
#define FTV_SIM_RELOC_RISCV64_H

#include <stdint.h>

#include "sim/reloc.h"

/* Bytes read and written at the place (1, 2, 4 or 8); 0 for the types
 * that write nothing (NONE, RELAX, ALIGN); -1 for a type ftv does not
 * apply (TLS, GOT, dynamic-only and unknown types). */
int sim_riscv64_reloc_width(unsigned type);

/* "R_RISCV_CALL_PLT", or "R_RISCV_<unknown 99>" in a static buffer. */
const char *sim_riscv64_reloc_name(unsigned type);

/* Applies one relocation at loc (host copy of the place at emulated
 * address P). X is S + A - P for the PC-relative types and S + A for the
 * others, except PCREL_LO12_I/S: there the caller passes as S the S+A-P of
 * the matching PCREL_HI20 (psABI: the LO12 symbol points at the AUIPC)
 * and A = 0. ADD/SUB/SET types read-modify-write the place modulo 2^n.
 * On SIM_RELOC_OVERFLOW nothing is written and *x holds X. */
enum sim_reloc_status sim_riscv64_reloc_apply(unsigned type, uint8_t *loc,
					      uint64_t P, uint64_t S,
					      int64_t A, int64_t *x);

/* The value an AUIPC/LUI carries for X and the low 12 bits paired with it:
 * hi = (X + 0x800) >> 12 (the +0x800 rounds so that the sign-extended
 * lo = X - (hi << 12) lies in -2048..2047). */
int64_t sim_riscv64_hi20(int64_t x);
int64_t sim_riscv64_lo12(int64_t x);

#endif
