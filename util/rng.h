/* The one source of randomness in ftv: xoshiro256** seeded through
 * splitmix64. Every random choice flows from a seed that is printed and can
 * be passed back with --seed, so a reported failure replays bit for bit. */
#ifndef FTV_UTIL_RNG_H
#define FTV_UTIL_RNG_H

#include <stdint.h>

struct ftv_rng {
	uint64_t s[4];
};

void ftv_rng_seed(struct ftv_rng *rng, uint64_t seed);
uint64_t ftv_rng_next(struct ftv_rng *rng);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t ftv_rng_below(struct ftv_rng *rng, uint64_t bound);
/* True with probability num/den. */
int ftv_rng_chance(struct ftv_rng *rng, uint64_t num, uint64_t den);
/* An independent stream derived from this one (for sub-components), so
 * adding draws in one component does not perturb another. */
void ftv_rng_fork(struct ftv_rng *rng, struct ftv_rng *child, uint64_t salt);

#endif
