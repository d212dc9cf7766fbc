/* Overrides of weak.c's hooks, as an architecture's own arch_* functions
 * override the generic __weak ones. */
#include "corpus.h"

long hook_clock_read(long base)
{
	return base * 1024 + 3;
}

long hook_scale(long v, long shift)
{
	long r = v;

	while (shift-- > 0)
		r += r;
	return r;
}
