/* Fuzz-ish robustness: seeded random corruptions of the capture fixtures
 * and of a valid layout never crash or read out of bounds (run under
 * `make SANITIZE=1 test`); each either succeeds or fails with one line. */
#include "tests/suite.h"
#include "layout/capture.h"
#include "layout/layout.h"
#include "util/rng.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_SEED 0x5eed0ca9ULL

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;

	ck_assert_msg(f, "%s", path);
	fseek(f, 0, SEEK_END);
	*len = ftell(f);
	rewind(f);
	buf = malloc(*len + 1);
	ck_assert_uint_eq(fread(buf, 1, *len, f), *len);
	fclose(f);
	return buf;
}

/* Offsets worth corrupting: non-zero bytes and the ELF/section headers
 * (most of a linked image is alignment padding). */
static size_t *interesting(const uint8_t *b, size_t len, size_t *n)
{
	size_t *v = malloc(len * sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < len; i++)
		if (b[i] || i < 64)
			v[(*n)++] = i;
	return v;
}

static void mutate(struct ftv_rng *r, uint8_t *b, const size_t *off, size_t n)
{
	unsigned k = 1 + ftv_rng_below(r, 4);

	while (k--) {
		size_t i = off[ftv_rng_below(r, n)];

		switch (ftv_rng_below(r, 4)) {
		case 0: b[i] ^= 1u << ftv_rng_below(r, 8); break;
		case 1: b[i] = 0xff; break;
		case 2: b[i] = 0; break;
		default: b[i] = (uint8_t)ftv_rng_next(r); break;
		}
	}
}

/* FTV_FUZZ_ROUNDS=N runs N rounds per test instead of the quick default. */
static unsigned rounds_or(unsigned dflt)
{
	const char *v = getenv("FTV_FUZZ_ROUNDS");

	return v && atoi(v) > 0 ? (unsigned)atoi(v) : dflt;
}

static void fuzz_elf(const char *fixture, const char *tmpname, uint64_t salt,
		     unsigned rounds)
{
	char in[4096], tmp[4096];
	size_t len, n, ok = 0;
	uint8_t *orig, *buf;
	size_t *off;
	struct ftv_rng rng;

	ftv_test_path(in, sizeof(in), "FTV_BUILD", fixture);
	ftv_test_path(tmp, sizeof(tmp), "FTV_BUILD", tmpname);
	orig = slurp(in, &len);
	buf = malloc(len);
	off = interesting(orig, len, &n);
	ftv_rng_seed(&rng, FUZZ_SEED ^ salt);
	rounds = rounds_or(rounds);
	for (unsigned round = 0; round < rounds; round++) {
		struct sim_layout *l = sim_layout_new();
		struct ftv_err err = { "" };
		FILE *f;
		int rc;

		memcpy(buf, orig, len);
		mutate(&rng, buf, off, n);
		f = fopen(tmp, "wb");
		ck_assert_ptr_nonnull(f);
		fwrite(buf, 1, len, f);
		fclose(f);
		rc = sim_capture_elf(l, tmp, &err);
		if (rc == 0) {
			/* Whatever was captured must write and parse back. */
			char *text = NULL;
			size_t tlen = 0;
			FILE *m = open_memstream(&text, &tlen);
			struct sim_layout *back;

			ok++;
			sim_layout_sort(l);
			ck_assert_int_eq(sim_layout_write(m, l, &err), 0);
			fclose(m);
			back = sim_layout_parse(text, tlen, "fuzz", &err);
			ck_assert_msg(back, "seed 0x%llx salt %llu round %u: %s",
				      (unsigned long long)FUZZ_SEED,
				      (unsigned long long)salt, round, err.msg);
			sim_layout_free(back);
			free(text);
		} else {
			ck_assert_msg(err.msg[0] && !strchr(err.msg, '\n'),
				      "round %u: empty or multi-line error", round);
			ck_assert_msg(!strncmp(err.msg, tmp, strlen(tmp)),
				      "round %u: error does not name the file: %s",
				      round, err.msg);
		}
		sim_layout_free(l);
	}
	/* Most corruptions hit bytes capture never reads. */
	ck_assert_uint_gt(ok, 0);
	remove(tmp);
	free(off);
	free(buf);
	free(orig);
}

START_TEST(corrupt_vmlinux_never_crashes)
{
	fuzz_elf("capture/vmlinux-rela", "capture/t-fuzz-vmlinux", 1, 400);
}
END_TEST

START_TEST(corrupt_module_never_crashes)
{
	fuzz_elf("capture/ftvmod.ko", "capture/t-fuzz.ko", 2, 400);
}
END_TEST

START_TEST(corrupt_layout_text_parses_or_fails_cleanly)
{
	char path[4096], *text = NULL;
	size_t len = 0, n, ok = 0;
	uint8_t *orig, *buf;
	size_t *off;
	struct ftv_rng rng;
	struct sim_layout *cap = sim_layout_new();
	struct ftv_err cerr;
	FILE *m = open_memstream(&text, &len);

	/* A real capture's text is the starting point. */
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "capture/vmlinux-rela");
	ck_assert_msg(!sim_capture_elf(cap, path, &cerr), "%s", cerr.msg);
	sim_layout_sort(cap);
	ck_assert_int_eq(sim_layout_write(m, cap, &cerr), 0);
	fclose(m);
	sim_layout_free(cap);
	orig = (uint8_t *)text;
	buf = malloc(len);
	off = interesting(orig, len, &n);
	ftv_rng_seed(&rng, FUZZ_SEED ^ 3);
	unsigned rounds = rounds_or(3000);

	for (unsigned round = 0; round < rounds; round++) {
		struct ftv_err err = { "" };
		struct sim_layout *l;

		memcpy(buf, orig, len);
		mutate(&rng, buf, off, n);
		l = sim_layout_parse((char *)buf, len, "t.layout", &err);
		if (l) {
			ok++;
			sim_layout_free(l);
			continue;
		}
		ck_assert_msg(!strncmp(err.msg, "t.layout:", 9) &&
			      !strchr(err.msg, '\n'), "round %u: %s", round, err.msg);
	}
	/* A changed word, address or size is almost always caught by the
	 * cross-field checks; a few mutations (e.g. in the source text) are
	 * harmless. */
	ck_assert_uint_lt(ok, rounds / 4);
	free(off);
	free(buf);
	free(orig);
}
END_TEST

static Suite *capture_fuzz_suite(void)
{
	Suite *s = suite_create("capture_fuzz");
	TCase *tc = tcase_create("fuzz");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, corrupt_vmlinux_never_crashes);
	tcase_add_test(tc, corrupt_module_never_crashes);
	tcase_add_test(tc, corrupt_layout_text_parses_or_fails_cleanly);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(capture_fuzz, capture_fuzz_suite)
