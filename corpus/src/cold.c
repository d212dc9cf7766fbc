/* Error paths marked __attribute__((cold)): GCC puts them in
 * .text.unlikely, whose sh_addralign stays 4 even with
 * -falign-functions=8, so their CALL_OPS literals are 8-byte aligned only
 * when the link happens to place them so (seed 001's "Misaligned
 * patch-site" warnings). */
#include "corpus.h"

static int last_error;
static size_t oom_bytes;

__attribute__((cold)) int report_error(int code)
{
	last_error = code;
	return -code;
}

__attribute__((cold, noinline)) void handle_oom(size_t n)
{
	oom_bytes += n;
	report_error(12);
}

__attribute__((cold)) int cold_recover(int state)
{
	if (state > 3)
		return report_error(state);
	handle_oom(state * 64);
	return last_error + (int)oom_bytes;
}

__attribute__((cold)) long cold_checksum(const long *v, int n)
{
	long s = 0;

	for (int i = 0; i < n; i++)
		s = s * 31 + v[i];
	return s;
}

int cold_hot_caller(int x)
{
	if (__builtin_expect(x < 0, 0))
		return cold_recover(-x);
	return x * 2;
}
