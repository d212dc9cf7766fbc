/* Capstone as the fallback disassembler for words ftv's table does not
 * know (a64_disasm in a64.h uses it). */
#ifndef FTV_ENCODERS_DISASM_H
#define FTV_ENCODERS_DISASM_H

#include <stddef.h>
#include <stdint.h>

/* Capstone's "mnemonic op_str" for the arm64 word at pc; the length, or -1
 * when Capstone does not decode it either. Thread-safe. */
int disasm_capstone_a64(uint32_t word, uint64_t pc, char *buf, size_t n);

#endif
