/* The parser fuzz harnesses' saved inputs, replayed (regression,
 * deterministic): every harness tests/fuzz/fuzz_NAME.c, built with the
 * normal compiler against the replay driver (FTV_BUILD/fuzz-replay/NAME),
 * runs its seeds (tests/fuzz/corpus/NAME) and the crashes found so far
 * (tests/fuzz/regress/NAME) without a crash or a broken round trip. */
#include "tests/suite.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static unsigned files_in(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

START_TEST(every_harness_replays_its_seeds_and_regressions)
{
	char src[4096], *out;
	unsigned harnesses = 0;
	struct dirent *e;
	DIR *d;

	ftv_test_path(src, sizeof(src), "FTV_TOP", "tests/fuzz");
	d = opendir(src);
	ck_assert_msg(d != NULL, "no %s", src);
	while ((e = readdir(d))) {
		char name[256], bin[4400], seeds[4400], regress[4400], want[300];
		size_t l = strlen(e->d_name);
		unsigned n;
		int rc;

		if (strncmp(e->d_name, "fuzz_", 5) || l < 8 || strcmp(e->d_name + l - 2, ".c"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(l - 7), e->d_name + 5);
		snprintf(bin, sizeof(bin), "%s/fuzz-replay/%s", ftv_test_env("FTV_BUILD"), name);
		snprintf(seeds, sizeof(seeds), "%s/corpus/%s", src, name);
		snprintf(regress, sizeof(regress), "%s/regress/%s", src, name);
		n = files_in(seeds);
		ck_assert_msg(n > 0, "%s: no seeds in %s", name, seeds);
		n += files_in(regress);
		{
			struct stat st;
			char *argv[] = { bin, seeds, stat(regress, &st) ? NULL : regress, NULL };

			rc = ftv_test_run(argv, &out);
		}
		snprintf(want, sizeof(want), "%s: %u inputs replayed\n", name, n);
		ck_assert_msg(rc == 0 && !strcmp(out, want), "%s: exit %d (want '%s'): %.3000s",
			      name, rc, want, out);
		free(out);
		harnesses++;
	}
	closedir(d);
	ck_assert_msg(harnesses >= 3, "only %u harnesses in %s", harnesses, src);
}
END_TEST

static Suite *fuzz_corpora_suite(void)
{
	Suite *s = suite_create("fuzz_corpora");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, every_harness_replays_its_seeds_and_regressions);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(fuzz_corpora, fuzz_corpora_suite)
