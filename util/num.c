#include "util/num.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int ftv_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || isspace((unsigned char)*s))
		return -1;
	if (*s == '#')
		s++;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int ftv_parse_i64(const char *s, int64_t *out)
{
	uint64_t mag;
	int neg = 0;

	if (s && *s == '#')
		s++;
	if (s && *s == '-') {
		neg = 1;
		s++;
	}
	if (ftv_parse_u64(s, &mag))
		return -1;
	if (neg) {
		if (mag > (uint64_t)INT64_MAX + 1)
			return -1;
		*out = (int64_t)(0 - mag);
	} else {
		if (mag > (uint64_t)INT64_MAX)
			return -1;
		*out = (int64_t)mag;
	}
	return 0;
}
