/* Seeded random words and texts against the whole arm64 pipeline: any word
 * ftv decodes must format to text that assembles back to the same word and
 * that Capstone agrees with, and no input text may crash the assembler. */
#include "encoders/a64.h"
#include "encoders/disasm.h"
#include "tests/suite.h"
#include "tests/test_a64_norm.h"
#include "util/rng.h"

#include <stdio.h>
#include <string.h>

#define SEED 0xa64a64ULL
#define PER_LINE 3000
#define RANDOM_WORDS 100000

/* 0 when word at pc is consistent (or unknown to ftv), else prints why. */
static int check_word(uint32_t word, uint64_t pc)
{
	struct a64_insn in;
	struct ftv_err err = { "" };
	char text[A64_TEXT_MAX], cs[A64_TEXT_MAX] = "";
	uint32_t again = 0;

	if (a64_decode(word, pc, &in))
		return 0;
	if (in.id != a64_lookup(word)) {
		fprintf(stderr, "0x%08x: decoded as line %d, first match %d\n", word, in.id,
			a64_lookup(word));
		return 1;
	}
	if (a64_format(&in, text, sizeof(text)) < 0 || a64_assemble(text, pc, &again, &err) ||
	    again != word) {
		fprintf(stderr, "0x%08x at 0x%llx: '%s' assembles to 0x%08x %s\n", word,
			(unsigned long long)pc, text, again, err.msg);
		return 1;
	}
	/* an instruction Capstone does not know leaves cs empty: a quirk
	 * of a64_norm_same says whether that is expected */
	if (disasm_capstone_a64(word, pc, cs, sizeof(cs)) < 0)
		cs[0] = 0;
	if (!a64_norm_same(&in, text, cs)) {
		fprintf(stderr, "0x%08x: ftv '%s', capstone '%s'\n", word, text, cs);
		return 1;
	}
	return 0;
}

START_TEST(words_of_every_table_line_round_trip_and_match_capstone)
{
	struct ftv_rng rng;
	int bad = 0;

	ftv_rng_seed(&rng, SEED);
	for (int i = 0; i < A64_NR_INSNS; i++) {
		const struct a64_desc *d = &a64_descs[i];
		int decoded = 0;

		for (int k = 0; k < PER_LINE && bad < 20; k++) {
			uint32_t w = ((uint32_t)ftv_rng_next(&rng) & ~d->mask) | d->value;
			uint64_t pc = ftv_rng_next(&rng) & ~3ULL;
			struct a64_insn in;

			bad += check_word(w, pc);
			decoded += !a64_decode(w, pc, &in) && in.id == (enum a64_id)i;
		}
		/* no line may be shadowed by an earlier one or never canonical */
		ck_assert_msg(decoded > 0, "no random word decodes as %s", d->key);
	}
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(random_words_round_trip_when_known)
{
	struct ftv_rng rng;
	int bad = 0;

	ftv_rng_seed(&rng, SEED + 1);
	for (int k = 0; k < RANDOM_WORDS && bad < 20; k++)
		bad += check_word((uint32_t)ftv_rng_next(&rng), ftv_rng_next(&rng) & ~3ULL);
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(mangled_texts_never_crash_and_accepted_ones_are_consistent)
{
	static const char *const seeds[] = {
		"bl 0x2000", "bti c", "mov x9, x30", "ldr x11, [x11, #-16]",
		"adrp x16, 0x7fff0000", "b.ne 0x40", "dc cvau, x0", "dsb ish", "isb",
		"hint #34", "ldr x1, 0x1008", "movk x0, #0x1234, lsl #16",
		"and x11, x30, #~7", "bic x11, x30, #7", "tbz w3, #5, 0x80",
		"add sp, sp, #0x10, lsl #12", "str w0, [sp, #4092]", "mov x0, #-1",
		"cmp x1, #5", "subs w0, w1, #4, lsl #12", "eor x0, x1, x2, ror #3",
		"neg w0, w2, asr #4", "add x5, x4, x3", "eor w0, w1, #0xff",
		"add x4, x4, w3, sxtw", "sub x1, sp, x2, lsl #3",
	};
	static const char junk[] = "x#[],-~ 0123456789abcdeflsp.!w";
	struct ftv_rng rng;
	int bad = 0;

	ftv_rng_seed(&rng, SEED + 2);
	for (int k = 0; k < 40000; k++) {
		char text[64];
		size_t len;
		struct ftv_err err = { "" };
		uint32_t w;

		snprintf(text, sizeof(text), "%s",
			 seeds[ftv_rng_below(&rng, sizeof(seeds) / sizeof(seeds[0]))]);
		for (int m = (int)ftv_rng_below(&rng, 4); m >= 0; m--) {
			len = strlen(text);
			size_t at = ftv_rng_below(&rng, len + 1);
			char c = junk[ftv_rng_below(&rng, sizeof(junk) - 1)];

			switch (ftv_rng_below(&rng, 3)) {
			case 0: /* replace */
				if (at < len)
					text[at] = c;
				break;
			case 1: /* delete */
				if (at < len)
					memmove(text + at, text + at + 1, len - at);
				break;
			default: /* insert */
				if (len + 2 < sizeof(text)) {
					memmove(text + at + 1, text + at, len - at + 1);
					text[at] = c;
				}
				break;
			}
		}
		if (a64_assemble(text, 0x10000, &w, &err)) {
			ck_assert_msg(err.msg[0] && !strchr(err.msg, '\n'), "'%s'", text);
			continue;
		}
		bad += check_word(w, 0x10000);
	}
	ck_assert_int_eq(bad, 0);
}
END_TEST

static Suite *a64_random_suite(void)
{
	Suite *s = suite_create("a64_random");
	TCase *tc = tcase_create("random");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, words_of_every_table_line_round_trip_and_match_capstone);
	tcase_add_test(tc, random_words_round_trip_when_known);
	tcase_add_test(tc, mangled_texts_never_crash_and_accepted_ones_are_consistent);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(a64_random, a64_random_suite)
