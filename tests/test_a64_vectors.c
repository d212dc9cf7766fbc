/* The generated vectors (mk/vectors.mk, tools/gen_vectors_a64.py): each
 * valid one is checked three ways - ftv's assembler gives GNU as's word,
 * ftv's decoder and formatter give text that assembles back to the word,
 * and Capstone decodes the word to the same instruction (modulo number
 * spelling and Capstone 4's known quirks) - and every invalid one must be
 * rejected by ftv as it was by GNU as. */
#include "encoders/a64.h"
#include "encoders/disasm.h"
#include "tests/test_a64_norm.h"
#include "tests/suite.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define REPORT_MAX 15

struct vec {
	int valid;
	uint64_t pc;
	uint32_t word;
	char text[160];
};

static struct vec *load(size_t *n)
{
	char path[512], line[256];
	FILE *f;
	size_t cap = 8192;
	struct vec *v = malloc(cap * sizeof(*v));

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "vectors/a64_vectors.txt");
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s (make builds it)", path);
	ck_assert(v);
	*n = 0;
	while (fgets(line, sizeof(line), f)) {
		struct vec *x = &v[*n];
		int pos = 0;
		unsigned long long pc;
		unsigned w = 0;

		line[strcspn(line, "\n")] = 0;
		if (line[0] == '#' || !line[0])
			continue;
		if (line[0] == 'V' && sscanf(line, "V %llx %x %n", &pc, &w, &pos) == 2 && pos)
			x->valid = 1;
		else if (line[0] == 'I' && sscanf(line, "I %llx %n", &pc, &pos) == 1 && pos)
			x->valid = 0;
		else
			ck_abort_msg("bad vector line: %s", line);
		x->pc = pc;
		x->word = w;
		snprintf(x->text, sizeof(x->text), "%s", line + pos);
		if (++*n == cap) {
			cap *= 2;
			v = realloc(v, cap * sizeof(*v));
			ck_assert(v);
		}
	}
	fclose(f);
	return v;
}

START_TEST(vectors_are_many_and_cover_invalid_ones)
{
	size_t n, valid = 0;
	struct vec *v = load(&n);

	for (size_t i = 0; i < n; i++)
		valid += v[i].valid;
	ck_assert_uint_ge(n, 5000);
	ck_assert_uint_ge(n - valid, 100);
	free(v);
}
END_TEST

START_TEST(encoder_matches_gnu_as_on_every_valid_vector)
{
	size_t n, bad = 0;
	struct vec *v = load(&n);

	for (size_t i = 0; i < n; i++) {
		struct ftv_err err = { "" };
		uint32_t w = 0;

		if (!v[i].valid)
			continue;
		if (a64_assemble(v[i].text, v[i].pc, &w, &err) || w != v[i].word) {
			if (bad++ < REPORT_MAX)
				fprintf(stderr, "pc 0x%" PRIx64 " '%s': as 0x%08x, ftv 0x%08x %s\n",
					v[i].pc, v[i].text, v[i].word, w, err.msg);
		}
	}
	free(v);
	ck_assert_msg(bad == 0, "%zu vectors encode differently from GNU as", bad);
}
END_TEST

START_TEST(decoder_text_assembles_back_to_the_same_word)
{
	size_t n, bad = 0;
	struct vec *v = load(&n);

	for (size_t i = 0; i < n; i++) {
		struct ftv_err err = { "" };
		struct a64_insn in;
		char text[A64_TEXT_MAX] = "";
		uint32_t w = 0;

		if (!v[i].valid)
			continue;
		if (a64_decode(v[i].word, v[i].pc, &in) || a64_format(&in, text, sizeof(text)) < 0 ||
		    a64_assemble(text, v[i].pc, &w, &err) || w != v[i].word) {
			if (bad++ < REPORT_MAX)
				fprintf(stderr, "0x%08x ('%s'): decoded '%s', re-encoded 0x%08x %s\n",
					v[i].word, v[i].text, text, w, err.msg);
		}
	}
	free(v);
	ck_assert_msg(bad == 0, "%zu words do not round-trip", bad);
}
END_TEST

START_TEST(capstone_agrees_with_the_decoder_on_every_valid_vector)
{
	size_t n, bad = 0;
	struct vec *v = load(&n);

	for (size_t i = 0; i < n; i++) {
		struct a64_insn in;
		char ftv[A64_TEXT_MAX] = "", cs[A64_TEXT_MAX] = "";

		if (!v[i].valid)
			continue;
		ck_assert_int_eq(a64_decode(v[i].word, v[i].pc, &in), 0);
		a64_format(&in, ftv, sizeof(ftv));
		if (disasm_capstone_a64(v[i].word, v[i].pc, cs, sizeof(cs)) < 0)
			cs[0] = 0;
		if (!a64_norm_same(&in, ftv, cs)) {
			if (bad++ < REPORT_MAX)
				fprintf(stderr, "0x%08x: ftv '%s', capstone '%s'\n", v[i].word, ftv, cs);
		}
	}
	free(v);
	ck_assert_msg(bad == 0, "%zu words where Capstone disagrees", bad);
}
END_TEST

START_TEST(every_invalid_vector_is_rejected)
{
	size_t n, bad = 0;
	struct vec *v = load(&n);

	for (size_t i = 0; i < n; i++) {
		struct ftv_err err = { "" };
		uint32_t w = 0;

		if (v[i].valid)
			continue;
		if (!a64_assemble(v[i].text, v[i].pc, &w, &err)) {
			if (bad++ < REPORT_MAX)
				fprintf(stderr, "pc 0x%" PRIx64 " '%s': accepted as 0x%08x\n", v[i].pc,
					v[i].text, w);
		} else {
			ck_assert_msg(err.msg[0] && !strchr(err.msg, '\n'), "'%s': error '%s'",
				      v[i].text, err.msg);
		}
	}
	free(v);
	ck_assert_msg(bad == 0, "%zu invalid vectors accepted", bad);
}
END_TEST

static Suite *a64_vectors_suite(void)
{
	Suite *s = suite_create("a64_vectors");
	TCase *tc = tcase_create("vectors");

	tcase_add_test(tc, vectors_are_many_and_cover_invalid_ones);
	tcase_add_test(tc, encoder_matches_gnu_as_on_every_valid_vector);
	tcase_add_test(tc, decoder_text_assembles_back_to_the_same_word);
	tcase_add_test(tc, capstone_agrees_with_the_decoder_on_every_valid_vector);
	tcase_add_test(tc, every_invalid_vector_is_rejected);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(a64_vectors, a64_vectors_suite)
