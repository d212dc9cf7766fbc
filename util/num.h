/* Strict number parsing for command lines and data files: the whole string
 * must be a number (decimal, 0x hex, optional leading '-' or '#'), else -1. */
#ifndef FTV_UTIL_NUM_H
#define FTV_UTIL_NUM_H

#include <stdint.h>

int ftv_parse_u64(const char *s, uint64_t *out);
int ftv_parse_i64(const char *s, int64_t *out);

#endif
