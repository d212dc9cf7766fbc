/* Helpers shared by the a64_*.c files; not part of the public API. */
#ifndef FTV_ENCODERS_A64_INTERNAL_H
#define FTV_ENCODERS_A64_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/* Sign-extends the low `bits` bits of v. */
static inline int64_t a64_sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ULL << (bits - 1);

	v &= (bits == 64) ? ~0ULL : ((1ULL << bits) - 1);
	return (int64_t)((v ^ m) - m);
}

/* Arm ARM J1 DecodeBitMasks (wmask only): the value of a logical immediate
 * N:immr:imms for a 32- or 64-bit register; -1 if the encoding is reserved. */
int a64_bitmask_decode(unsigned n, unsigned immr, unsigned imms, bool is64,
		       uint64_t *value);
/* The inverse: the canonical N:immr:imms for value, or -1 when value is not
 * a logical immediate (all zeros, all ones, or not a rotated run of ones
 * replicated over a power-of-two element). */
int a64_bitmask_encode(uint64_t value, bool is64, unsigned *n, unsigned *immr,
		       unsigned *imms);

/* Register name: "x5", "w5", and for 31 "sp"/"wsp" or "xzr"/"wzr". */
const char *a64_reg_name(unsigned r, bool is64, bool sp);

/* Barrier option names (Arm ARM C6.2.90 DSB), NULL for unnamed options. */
extern const char *const a64_barrier_names[16];

#endif
