/* A module of two functions ftrace can trace: the README's quick start
 * (build it with the flags there, then `ftv scenario mine.scn`). The
 * workload calls functions that return the same value for the same
 * arguments and store nothing outside their stack. */
int mymod_scale(int x, int k)
{
	return x * k + 1;
}

unsigned long mymod_sum(const unsigned char *p, unsigned long n)
{
	unsigned long s = 0;

	for (unsigned long i = 0; i < n && i < 64; i++)
		s += p[i];
	return s;
}
