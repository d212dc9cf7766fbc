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
#include <unistd.h>

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

/* A regression input that crashed or hung a command is, at that command,
 * one line naming the file and exit 2. The file is copied under the name
 * the command needs (a module's suffix, a compression's). */
static const struct {
	const char *input; /* under tests/fuzz/regress/ */
	const char *as;    /* copied to this name */
	const char *cmd[4];
	const char *want;  /* in the message */
} at_command[] = {
	/* an R_RISCV_ALIGN addend of 2^63 or more made the loader double an
	 * alignment past 64 bits for ever */
	{ "elf/riscv-align-negative-addend-hang", "m.ko", { "load", "--stub-undefined" },
	  ": .text+0x2e: R_RISCV_ALIGN padding of -1407374883553274 bytes overlaps another "
	  "or runs past the end of .text\n" },
};

START_TEST(regressions_are_one_line_errors_at_the_command)
{
	char dir[] = "/tmp/ftv-fuzz-regress-XXXXXX";

	ck_assert(mkdtemp(dir));
	for (size_t i = 0; i < sizeof(at_command) / sizeof(at_command[0]); i++) {
		char src[4096], dst[4096], cp[8300], *out, *argv[8];
		char *shell[] = { "/bin/sh", "-c", cp, NULL };
		int n = 0, rc;

		ftv_test_path(src, sizeof(src), "FTV_TOP", "tests/fuzz/regress/");
		snprintf(src + strlen(src), sizeof(src) - strlen(src), "%s", at_command[i].input);
		snprintf(dst, sizeof(dst), "%s/%s", dir, at_command[i].as);
		snprintf(cp, sizeof(cp), "cp '%s' '%s'", src, dst);
		ck_assert_int_eq(ftv_test_run(shell, &out), 0);
		free(out);
		argv[n++] = (char *)ftv_test_env("FTV");
		for (int k = 0; at_command[i].cmd[k]; k++)
			argv[n++] = (char *)at_command[i].cmd[k];
		argv[n++] = dst;
		argv[n] = NULL;
		rc = ftv_test_run(argv, &out);
		ck_assert_msg(rc == 2 && strchr(out, '\n') == out + strlen(out) - 1 &&
			      strstr(out, dst) && strstr(out, at_command[i].want),
			      "%s: exit %d: %s", at_command[i].input, rc, out);
		free(out);
		unlink(dst);
	}
	rmdir(dir);
}
END_TEST

static Suite *fuzz_corpora_suite(void)
{
	Suite *s = suite_create("fuzz_corpora");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, every_harness_replays_its_seeds_and_regressions);
	tcase_add_test(tc, regressions_are_one_line_errors_at_the_command);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(fuzz_corpora, fuzz_corpora_suite)
