#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int vec_reserve(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *np;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -1;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return -1;
	np = realloc(*p, ncap * elem);
	if (!np)
		return -1;
	memset((char *)np + *cap * elem, 0, (ncap - *cap) * elem);
	*p = np;
	*cap = ncap;
	return 0;
}
