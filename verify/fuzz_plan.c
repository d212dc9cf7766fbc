/* The choices of a fuzz iteration drawn from streams of their own
 * (verify/fuzz_plan.h), so that the rest of the iteration is drawn as
 * without them. */
#include "verify/fuzz_plan.h"

#include <string.h>

#include "util/rng.h"

void fuzz_plan_modules(const struct fuzz_gen *g, uint64_t iter_seed, unsigned nact,
		       struct modplan *mp)
{
	struct ftv_rng mrng;

	memset(mp, 0, sizeof(*mp));
	mp->mode = GM_ABSENT;
	ftv_rng_seed(&mrng, iter_seed ^ 0x6d6f64756c657321ULL);
	/* jump labels flipped by another task, with or without modules */
	mp->nkeys = (unsigned)ftv_rng_below(&mrng, 3);
	for (unsigned k = 0; k < mp->nkeys; k++)
		mp->key_at[k] = (unsigned)ftv_rng_below(&mrng, nact);
	mp->key_after_load = ftv_rng_chance(&mrng, 1, 2);
	if (!g->nmodules)
		return;
	switch (ftv_rng_below(&mrng, 3)) {
	case 0:
		return;
	case 1:
		mp->mode = GM_BOOT;
		break;
	default:
		mp->mode = GM_LATE;
		break;
	}
	mp->far = (ftv_scheme_fuzz_flags(g->scheme) & FTV_SCHEME_FUZZ_FAR_MODULES) &&
		  ftv_rng_chance(&mrng, 1, 2);
	mp->load_at = (unsigned)ftv_rng_below(&mrng, 2);
	mp->unload_at = ftv_rng_chance(&mrng, 1, 2)
				? mp->load_at + 2 + (unsigned)ftv_rng_below(&mrng, nact)
				: (unsigned)-1;
}

/* A hold drawn from a stream of its own (salt): none with probability
 * none/den, else base << 0..6. */
static unsigned hold(uint64_t iter_seed, uint64_t salt, unsigned den, unsigned base)
{
	struct ftv_rng hrng;

	ftv_rng_seed(&hrng, iter_seed ^ salt);
	if (ftv_rng_chance(&hrng, 1, den))
		return 0;
	return base << ftv_rng_below(&hrng, 7);
}

unsigned fuzz_drain_hold(uint64_t iter_seed)
{
	return hold(iter_seed, 0x686f6c6420627566ULL, 4, 16);
}

unsigned fuzz_cpu_hold(uint64_t iter_seed)
{
	return hold(iter_seed, 0x6370752d686f6c64ULL, 2, 64);
}

unsigned fuzz_window_hold(uint64_t iter_seed)
{
	struct ftv_rng hrng;

	ftv_rng_seed(&hrng, iter_seed ^ 0x77696e646f772121ULL);
	return 64u << ftv_rng_below(&hrng, 7);
}
