/* The reduction of `ftv litmus` (exec_config.prune_states, exec_state.h):
 * a run reaching a state an earlier run met ends there. It must change
 * nothing but the work: on every shipped test, and on the three-thread
 * shapes of issue 30, the verdict and the set of final states with and
 * without it (--reduce on, off) are the same, and the reduced walk takes fewer
 * runs. */
#include "tests/suite.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `ftv litmus --herd --time-limit 0 --reduce on|off FILES` (exit 0); the
 * output reduced to what must not move: each test's name, final states,
 * Ok/No and the observation's word (not the counts of runs). Sums the
 * runs of the finished explorations into *runs from herd's Positive and
 * Negative counts. */
static char *outcome(char **files, size_t n, int reduce, uint64_t *runs)
{
	char *argv[128], *out = NULL, *keep, *line, *save = NULL;
	size_t k = 0, len = 0;
	int rc;

	argv[k++] = (char *)ftv_test_env("FTV");
	argv[k++] = "litmus";
	argv[k++] = "--herd";
	argv[k++] = "--time-limit";
	argv[k++] = "0";
	argv[k++] = "--reduce";
	argv[k++] = reduce ? "on" : "off";
	for (size_t i = 0; i < n && k < 127; i++)
		argv[k++] = files[i];
	argv[k] = NULL;
	rc = ftv_test_run(argv, &out);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	keep = calloc(1, strlen(out) + 1);
	ck_assert_ptr_nonnull(keep);
	*runs = 0;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		unsigned long long pos, neg;
		char word[16];

		if (sscanf(line, "Positive: %llu Negative: %llu", &pos, &neg) == 2) {
			*runs += pos + neg;
			continue;
		}
		if (!strncmp(line, "Observation ", 12)) {
			/* "Observation NAME Never|Sometimes|Always P N" */
			ck_assert_int_eq(sscanf(strchr(line + 12, ' '), " %15s", word), 1);
			len += (size_t)sprintf(keep + len, "%s\n", word);
			continue;
		}
		if (!strncmp(line, "Time ", 5) || !strcmp(line, "Witnesses"))
			continue;
		len += (size_t)sprintf(keep + len, "%s\n", line);
	}
	free(out);
	return keep;
}

static void same_with_and_without(const char *rel, size_t min)
{
	char pattern[512], *a, *b;
	uint64_t ra, rb;
	glob_t g;

	ftv_test_path(pattern, sizeof(pattern), "FTV_TOP", rel);
	ck_assert_int_eq(glob(pattern, 0, NULL, &g), 0);
	ck_assert_uint_ge(g.gl_pathc, min);
	a = outcome(g.gl_pathv, g.gl_pathc, 1, &ra);
	b = outcome(g.gl_pathv, g.gl_pathc, 0, &rb);
	/* every test printed its block, with its states */
	ck_assert_uint_ge((uint64_t)(strstr(a, "States ") ? 1 : 0), 1);
	ck_assert_str_eq(a, b);
	ck_assert_msg(ra < rb, "%s: reduced %llu runs, unreduced %llu", rel,
		      (unsigned long long)ra, (unsigned long long)rb);
	free(a);
	free(b);
	globfree(&g);
}

START_TEST(reduction_keeps_herd_corpus_states)
{
	same_with_and_without("corpus/litmus/herd/*.litmus", 30);
}
END_TEST

START_TEST(reduction_keeps_ftv_corpus_states)
{
	same_with_and_without("corpus/litmus/*.litmus", 8);
}
END_TEST

/* A run cut where every thread is done but stores still wait in their
 * buffers reached no final state: the reduced walk once counted it, and
 * reported [x]=0 here (herd7 and the unreduced walk: [x]=1 or 2 only). */
START_TEST(reduction_counts_no_cut_run_as_final)
{
	static const char text[] =
		"AArch64 FW.reduce\n"
		"{ 0:X1=x; 1:X1=x; }\n"
		" P0          | P1          ;\n"
		" MOV W0,#1   | MOV W0,#2   ;\n"
		" STR W0,[X1] | STR W0,[X1] ;\n"
		"exists ([x]=0)\n";
	char path[512], *files[1] = { path }, *a, *b;
	uint64_t ra, rb;
	FILE *f;

	snprintf(path, sizeof(path), "%s/fw-reduce.litmus", ftv_test_env("FTV_BUILD"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	a = outcome(files, 1, 1, &ra);
	b = outcome(files, 1, 0, &rb);
	ck_assert_msg(strstr(a, "States 2\n[x]=1;\n[x]=2;\nNo\n"), "%s", a);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
}
END_TEST

/* --reduce auto (the default): a two-thread test whose plain walk takes
 * more than 20,000 runs starts over reduced (SB-bnop-cachesyncs: 31,266
 * runs plain); one that takes fewer keeps the plain walk's counts. */
START_TEST(reduction_auto_takes_over_from_a_long_plain_walk)
{
	static const struct { const char *file; int reduced; } t[] = {
		{ "corpus/litmus/SB-bnop-cachesyncs.litmus", 1 },
		{ "corpus/litmus/MP.FF+dmb.st+cachesync-isb.litmus", 0 },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char path[512], *out = NULL, *p;
		char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--time-limit", "0",
				 path, NULL };
		unsigned long long runs = 0;

		ftv_test_path(path, sizeof(path), "FTV_TOP", t[i].file);
		ck_assert_int_eq(ftv_test_run(argv, &out), 0);
		p = strstr(out, "Forbidden ok       (");
		ck_assert_msg(p && sscanf(p + 20, "%llu runs", &runs) == 1 &&
			      strstr(out, " complete)"), "%s", out);
		/* plain: MP.FF+dmb.st+cachesync-isb's 4,591 runs, every one */
		if (t[i].reduced)
			ck_assert_msg(runs < 20000, "%s", out);
		else
			ck_assert_msg(runs == 4591, "%s", out);
		free(out);
	}
}
END_TEST

/* The three-thread regressions of issue 30 (tests/data/litmus/): the
 * unreduced walk takes some 10^6 runs (minutes); reduced, each is
 * decided completely within a few thousand. */
START_TEST(reduction_decides_the_three_thread_shapes)
{
	static const char *const files[] = {
		"MP.RF+dc-dsb-ic-dsb+ctrlisb+v12.litmus",
		"MP.FF+dc-dsb-ic-dsb+isb+v12.litmus",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512], *out = NULL;
		char *argv[] = { (char *)ftv_test_env("FTV"), "litmus", "--time-limit",
				 "0", "--max-runs", "200000", path, NULL };
		int rc;

		snprintf(path, sizeof(path), "%s/tests/data/litmus/%s",
			 ftv_test_env("FTV_TOP"), files[i]);
		rc = ftv_test_run(argv, &out);
		ck_assert_msg(rc == 0 && strstr(out, "Forbidden expected -") &&
			      strstr(out, " complete)"),
			      "%s: exit %d: %s", files[i], rc, out);
		free(out);
	}
}
END_TEST

static Suite *litmus_reduce_suite(void)
{
	Suite *s = suite_create("litmus_reduce");
	TCase *tc = tcase_create("reduce");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, reduction_keeps_herd_corpus_states);
	tcase_add_test(tc, reduction_keeps_ftv_corpus_states);
	tcase_add_test(tc, reduction_counts_no_cut_run_as_final);
	tcase_add_test(tc, reduction_auto_takes_over_from_a_long_plain_walk);
	tcase_add_test(tc, reduction_decides_the_three_thread_shapes);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(litmus_reduce, litmus_reduce_suite)
