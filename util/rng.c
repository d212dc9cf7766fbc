#include "util/rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void ftv_rng_seed(struct ftv_rng *rng, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		rng->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t ftv_rng_next(struct ftv_rng *rng)
{
	uint64_t *s = rng->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t ftv_rng_below(struct ftv_rng *rng, uint64_t bound)
{
	uint64_t limit, x;

	if (bound <= 1)
		return 0;
	limit = -bound % bound; /* 2^64 mod bound */
	do
		x = ftv_rng_next(rng);
	while (x < limit);
	return x % bound;
}

int ftv_rng_chance(struct ftv_rng *rng, uint64_t num, uint64_t den)
{
	return ftv_rng_below(rng, den) < num;
}

void ftv_rng_fork(struct ftv_rng *rng, struct ftv_rng *child, uint64_t salt)
{
	ftv_rng_seed(child, ftv_rng_next(rng) ^ (salt * 0x9e3779b97f4a7c15ULL));
}
