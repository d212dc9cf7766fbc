/* util/json_read: what util/json writes reads back the same (strings with
 * every byte, 64-bit numbers exactly), and malformed text is refused with
 * its offset. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/json.h"
#include "util/json_read.h"

START_TEST(json_written_reads_back)
{
	char *text = NULL, s[256];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct json j;
	struct jvalue v;
	struct ftv_err err;
	uint64_t u;
	double d;

	/* every byte but NUL; bytes that are not UTF-8 come back as U+FFFD */
	for (int i = 1; i < 256; i++)
		s[i - 1] = (char)i;
	s[255] = 0;
	json_init(&j, f);
	json_begin_object(&j);
	json_key_str(&j, "s", "tab\t \"q\" \\ \x01 \xc3\xa9 \xf0\x9f\x98\x80");
	json_key_str(&j, "bytes", s);
	json_key_u64(&j, "max", UINT64_MAX);
	json_key_double(&j, "d", -2.5, 3);
	json_key(&j, "a");
	json_begin_array(&j);
	json_bool(&j, 1);
	json_null(&j);
	json_begin_object(&j);
	json_end_object(&j);
	json_end_array(&j);
	json_end_object(&j);
	json_newline(&j);
	fclose(f);

	ck_assert_msg(!jread(text, &v, &err), "%s: %s", err.msg, text);
	ck_assert_int_eq(v.type, JOBJ);
	ck_assert_str_eq(jget_str(&v, "s"), "tab\t \"q\" \\ \x01 \xc3\xa9 \xf0\x9f\x98\x80");
	const char *b = jget_str(&v, "bytes");

	ck_assert_ptr_nonnull(b);
	/* 0x01..0x7f as they were, then one U+FFFD per byte that is no
	 * UTF-8 sequence (all of 0x80..0xff alone) */
	ck_assert(!memcmp(b, s, 127));
	ck_assert_int_eq(strlen(b + 127), 128 * 3);
	for (size_t k = 127; b[k]; k += 3)
		ck_assert(!memcmp(b + k, "\xef\xbf\xbd", 3));
	ck_assert(!jget_u64(jget(&v, "max"), &u));
	ck_assert(u == UINT64_MAX);
	ck_assert(jget_u64(jget(&v, "d"), &u)); /* not an unsigned integer */
	ck_assert(!jget_double(jget(&v, "d"), &d) && d == -2.5);
	const struct jvalue *a = jget(&v, "a");

	ck_assert(a && a->type == JARR && a->n == 3);
	ck_assert(a->v[0].type == JBOOL && a->v[0].b == 1);
	ck_assert(a->v[1].type == JNULL && a->v[2].type == JOBJ && a->v[2].n == 0);
	ck_assert_ptr_null(jget(&v, "nothing"));
	jfree(&v);
	free(text);
}
END_TEST

START_TEST(json_escapes_and_errors)
{
	static const struct {
		const char *text, *error;
	} bad[] = {
		{ "", "offset 0: expected a value" },
		{ "{\"a\" 1}", "offset 5: expected ':'" },
		{ "{\"a\":1,}", "offset 7: expected a member name" },
		{ "[1 2]", "offset 3: expected ',' or ']'" },
		{ "\"abc", "offset 1: unterminated string" },
		{ "\"a\x01\"", "offset 2: control character in a string" },
		{ "\"\\x\"", "offset 2: bad escape" },
		{ "\"\\ud800\"", "unpaired surrogate" },
		{ "\"\\u12g4\"", "bad \\u escape" },
		{ "\"\xff\"", "offset 1: not UTF-8" },
		{ "01", "offset 1: text after the value" },
		{ "1.", "bad number" },
		{ "{} {}", "offset 3: text after the value" },
		{ "tru", "expected a value" },
	};
	struct jvalue v;
	struct ftv_err err;

	ck_assert(!jread(" \"\\u00e9\\ud83d\\ude00\\/\\b\" ", &v, &err));
	ck_assert(v.type == JSTR && v.len == 8);
	ck_assert_str_eq(v.s, "\xc3\xa9\xf0\x9f\x98\x80/\b");
	jfree(&v);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(jread(bad[i].text, &v, &err), "accepted '%s'", bad[i].text);
		ck_assert_msg(strstr(err.msg, bad[i].error), "'%s': %s", bad[i].text, err.msg);
	}
	/* nesting is bounded, not a stack overflow */
	char deep[300];

	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	ck_assert(jread(deep, &v, &err));
	ck_assert_msg(strstr(err.msg, "nested too deep"), "%s", err.msg);
}
END_TEST

static Suite *json_read_suite(void)
{
	Suite *s = suite_create("json_read");
	TCase *tc = tcase_create("read");

	tcase_add_test(tc, json_written_reads_back);
	tcase_add_test(tc, json_escapes_and_errors);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(json_read, json_read_suite)
