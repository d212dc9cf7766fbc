#include "tests/suite.h"
#include "util/err.h"
#include "util/num.h"
#include "util/rng.h"
#include "util/vec.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

START_TEST(rng_same_seed_same_stream)
{
	struct ftv_rng a, b;

	ftv_rng_seed(&a, 42);
	ftv_rng_seed(&b, 42);
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(ftv_rng_next(&a), ftv_rng_next(&b));
	ftv_rng_seed(&b, 43);
	ck_assert_uint_ne(ftv_rng_next(&a), ftv_rng_next(&b));
}
END_TEST

START_TEST(rng_below_stays_in_bound_and_covers_it)
{
	struct ftv_rng r;
	int seen[7] = { 0 };

	ftv_rng_seed(&r, 1);
	for (int i = 0; i < 7000; i++) {
		uint64_t v = ftv_rng_below(&r, 7);

		ck_assert_uint_lt(v, 7);
		seen[v]++;
	}
	for (int i = 0; i < 7; i++)
		ck_assert_int_gt(seen[i], 800);
}
END_TEST

START_TEST(parse_numbers_strictly)
{
	uint64_t u;
	int64_t s;

	ck_assert_int_eq(ftv_parse_u64("0x10", &u), 0);
	ck_assert_uint_eq(u, 16);
	ck_assert_int_eq(ftv_parse_u64("#12", &u), 0);
	ck_assert_uint_eq(u, 12);
	ck_assert_int_eq(ftv_parse_u64("12x", &u), -1);
	ck_assert_int_eq(ftv_parse_u64("", &u), -1);
	ck_assert_int_eq(ftv_parse_u64("-1", &u), -1);
	ck_assert_int_eq(ftv_parse_i64("#-16", &s), 0);
	ck_assert_int_eq(s, -16);
	ck_assert_int_eq(ftv_parse_i64("-0x8000000000000000", &s), 0);
	ck_assert_int_eq(s, INT64_MIN);
	ck_assert_int_eq(ftv_parse_i64("0x8000000000000000", &s), -1);
}
END_TEST

START_TEST(vec_grows_keeps_contents_and_zeroes_new_slots)
{
	int *v = NULL;
	size_t n = 0, cap = 0;

	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(VEC_PUSH(v, n, cap, i), 0);
	ck_assert_uint_eq(n, 1000);
	ck_assert_uint_ge(cap, 1000);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(v[i], i);
	for (size_t i = n; i < cap; i++)
		ck_assert_int_eq(v[i], 0);
	/* An impossible size fails and leaves the array as it was. */
	ck_assert_int_eq(vec_reserve((void **)&v, &cap, SIZE_MAX / 2, 8), -1);
	ck_assert_int_eq(v[999], 999);
	free(v);
}
END_TEST

START_TEST(errors_carry_a_prefixed_message)
{
	struct ftv_err e;

	ck_assert_int_eq(ftv_errf(&e, "bad %s", "thing"), -1);
	ftv_err_prefix(&e, "%s", "a.o");
	ck_assert_str_eq(e.msg, "a.o: bad thing");
	ck_assert_int_eq(ftv_errf(NULL, "ignored"), -1);
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, rng_same_seed_same_stream);
	tcase_add_test(tc, rng_below_stays_in_bound_and_covers_it);
	tcase_add_test(tc, parse_numbers_strictly);
	tcase_add_test(tc, errors_carry_a_prefixed_message);
	tcase_add_test(tc, vec_grows_keeps_contents_and_zeroes_new_slots);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(util, util_suite)
