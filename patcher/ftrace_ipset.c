/* Sorted sets of record ips: the model's ftrace_hash. Records number in the
 * thousands at most, so a sorted array with binary search is enough. */
#include "patcher/ftrace_internal.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

static size_t ipset_pos(const struct ipset *s, uint64_t ip)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (s->v[mid] < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ipset_has(const struct ipset *s, uint64_t ip)
{
	size_t i = ipset_pos(s, ip);

	return i < s->n && s->v[i] == ip;
}

int ipset_add(struct ipset *s, uint64_t ip)
{
	size_t i = ipset_pos(s, ip);

	if (i < s->n && s->v[i] == ip)
		return 0;
	if (VEC_RESERVE(s->v, s->cap, s->n + 1))
		return -1;
	memmove(&s->v[i + 1], &s->v[i], (s->n - i) * sizeof(*s->v));
	s->v[i] = ip;
	s->n++;
	return 0;
}

void ipset_clear(struct ipset *s)
{
	s->n = 0;
}

void ipset_release(struct ipset *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int ipset_copy(struct ipset *dst, const struct ipset *src)
{
	ipset_clear(dst);
	for (size_t i = 0; i < src->n; i++)
		if (ipset_add(dst, src->v[i]))
			return -1;
	return 0;
}
