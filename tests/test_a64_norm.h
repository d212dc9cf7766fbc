/* Comparing ftv's disassembly with Capstone's (tests only). */
#ifndef FTV_TESTS_TEST_A64_NORM_H
#define FTV_TESTS_TEST_A64_NORM_H

#include "encoders/a64.h"

#include <stdbool.h>
#include <stddef.h>

/* Canonical form of a disassembly line: lower case, '#' dropped, every
 * number as 0x<hex> of its 64-bit two's complement value, single spaces
 * between tokens. */
void a64_norm(const char *s, char *out, size_t n);

/* Whether Capstone's text cs names the same instruction as ftv's text ftv
 * for the decoded in, allowing Capstone 4.0.2's known differences. */
bool a64_norm_same(const struct a64_insn *in, const char *ftv, const char *cs);

#endif
