/* Campaigns beyond one machine (issue #16): ftv fuzz-merge refuses what is
 * not one campaign, naming the file and what disagrees; and the recipes of
 * docs/campaigns/ (GNU parallel, a Slurm array, a Kubernetes indexed Job),
 * run with the variables their schedulers set (tools/campaign_check.py),
 * give the totals of the same campaign in one process. */
#include "tests/suite.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* files are const char *: ftv_test_run's argv is char *const[] */
#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const *)(const char *const[]){ ftv_test_env("FTV"), __VA_ARGS__, NULL }, \
		     out)

static char dir[4200];

static const char *shard_file(const char *name, const char *text)
{
	static char path[32][4300];
	static int k;
	char *p = path[k++ % 32];
	FILE *f;

	snprintf(p, 4300, "%s/%s", dir, name);
	f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* The summary line of a shard, as ftv fuzz --json prints it. */
static void summary(char *buf, size_t n, const char *seed, const char *shard, const char *mutate,
		    unsigned iters)
{
	snprintf(buf, n,
		 "{\"type\":\"summary\",\"seed\":%s,\"scheme\":\"callops\",\"mutate\":\"%s\","
		 "\"shard\":\"%s\",\"jobs\":1,\"iterations\":%u,\"transitions\":%u,\"steps\":%u,"
		 "\"violations\":0,\"found\":false,\"elapsed_s\":0.5,\"iterations_per_s\":4.0,"
		 "\"transitions_per_s\":1.0,\"steps_per_s\":1.0,\"arch\":\"arm64\","
		 "\"objects\":\"rand1 rand2\",\"cpus\":0,\"budget\":\"2 iterations\"}\n",
		 seed, mutate, shard, iters, 10 * iters, 100 * iters);
}

static void refused(const char *want, const char *a, const char *b, const char *c)
{
	char *out = NULL;
	int rc = c ? FTV_RUN(&out, "fuzz-merge", a, b, c) : FTV_RUN(&out, "fuzz-merge", a, b);

	ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, want), "no '%s' in:\n%s", want, out);
	/* one line */
	ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
	free(out);
}

START_TEST(fuzz_merge_refuses_what_is_not_one_campaign)
{
	char l[1024], m[4096], *out = NULL;
	const char *s0, *s1, *s2, *other, *dup, *half, *junk, *empty;
	int rc;

	snprintf(dir, sizeof(dir), "%s/merge-test", ftv_test_env("FTV_BUILD"));
	char *mk[] = { "/bin/mkdir", "-p", dir, NULL };

	ck_assert_int_eq(ftv_test_run(mk, &out), 0);
	free(out);
	summary(l, sizeof(l), "18446744073709551615", "0/3", "none", 2);
	s0 = shard_file("s0.json", l);
	summary(l, sizeof(l), "18446744073709551615", "1/3", "none", 2);
	s1 = shard_file("s1.json", l);
	/* a finding line, then the summary */
	summary(l, sizeof(l), "18446744073709551615", "2/3", "none", 1);
	snprintf(m, sizeof(m),
		 "{\"type\":\"finding\",\"seed\":18446744073709551615,\"iteration\":5,"
		 "\"iteration_seed\":\"0x85664266d2d29e03\",\"kind\":\"nop-ops\",\"kinds\":\"nop-ops\","
		 "\"violations\":1,\"replay\":\"r-2.scn\",\"operations_after\":2,"
		 "\"report\":\"VIOLATION nop-ops cpu1 <step> \\\"x\\\" \\u00e9\\n\"}\n%s", l);
	s2 = shard_file("s2.json", m);

	/* all there: the totals, the finding with its shard, exit 1 */
	rc = FTV_RUN(&out, "fuzz-merge", s2, s0, s1);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "fuzz-merge: 3 shards of seed 18446744073709551615, scheme "
			     "callops (arm64), objects rand1 rand2, mutate none, 2 iterations per "
			     "shard\n"), "%s", out);
	ck_assert_msg(strstr(out, "fuzz-merge: shard 2/3: iteration 5 (seed 0x85664266d2d29e03) "
			     "found nop-ops, shrunk to 2 operations; replay file r-2.scn"), "%s", out);
	ck_assert_msg(strstr(out, ": 5 iterations in 3 shards, 50 transitions, 500 interleaving "
			     "steps, 0 violating iterations, 1 finding;"), "%s", out);
	/* the shards in order, whatever the order of the files */
	ck_assert(strstr(out, "shard 0/3: 2 iterations") < strstr(out, "shard 1/3: 2 iter"));
	free(out);
	rc = FTV_RUN(&out, "fuzz-merge", "--json", s0, s1, s2);
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(out, "{\"shard\":\"2/3\",\"finding\":{\"type\":\"finding\","
			     "\"seed\":18446744073709551615,"), "%s", out);
	ck_assert_msg(strstr(out, "\"report\":\"VIOLATION nop-ops cpu1 <step> \\\"x\\\" \xc3\xa9\\n\""),
		      "%s", out);
	ck_assert_msg(strstr(out, "{\"type\":\"summary\",\"seed\":18446744073709551615,"
			     "\"scheme\":\"callops\",\"arch\":\"arm64\",\"mutate\":\"none\","
			     "\"objects\":\"rand1 rand2\",\"cpus\":0,\"budget\":\"2 iterations\","
			     "\"shards\":3,\"iterations\":5,\"transitions\":50,\"steps\":500,"
			     "\"violations\":0,\"findings\":1,\"found\":true,"), "%s", out);
	free(out);

	/* another campaign's shard: the field, both values, both files */
	summary(l, sizeof(l), "18446744073709551615", "1/3", "bl-before-literal", 2);
	other = shard_file("other.json", l);
	refused("ftv fuzz-merge: ", s0, other, s2);
	refused("other.json:1: mutate 'bl-before-literal', but ", s0, other, s2);
	summary(l, sizeof(l), "7", "1/3", "none", 2);
	other = shard_file("seed7.json", l);
	refused("seed7.json:1: seed '7', but ", s0, other, s2);
	summary(l, sizeof(l), "18446744073709551615", "1/4", "none", 2);
	other = shard_file("four.json", l);
	refused("four.json:1: shard 1/4, but ", s0, other, s2);
	/* the same shard twice, one missing */
	summary(l, sizeof(l), "18446744073709551615", "0/3", "none", 2);
	dup = shard_file("dup.json", l);
	refused("dup.json:1: shard 0/3 again (also ", s0, dup, s2);
	refused("ftv fuzz-merge: 1 of 3 shards missing: 1/3\n", s0, s2, NULL);
	/* not a shard's output */
	{
		/* the finding line alone: a shard that did not finish */
		char *nl = strchr(m, '\n');

		nl[1] = 0;
		half = shard_file("half.json", m);
	}
	refused("half.json: no summary line: the shard did not finish", s0, half, NULL);
	junk = shard_file("junk.json", "note: Misaligned patch-site r2_f68+0x0/0x4c\n");
	refused("junk.json:1: not JSON (offset 0: expected a value)", s0, junk, NULL);
	summary(l, sizeof(l), "1", "0/3", "none", 2);
	snprintf(m, sizeof(m), "%s%s", l, l);
	junk = shard_file("two.json", m);
	refused("two.json:2: a line after the summary", s0, junk, NULL);
	empty = shard_file("empty.json", "{\"type\":\"summary\",\"shard\":\"3/3\"}\n");
	refused("empty.json:1: the summary's \"shard\" is '3/3', not I/N", s0, empty, NULL);
	rc = FTV_RUN(&out, "fuzz-merge", s0, "/nonexistent.json");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, "ftv fuzz-merge: /nonexistent.json: No such file"), "%s", out);
	free(out);
	rc = FTV_RUN(&out, "fuzz-merge");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, "ftv fuzz-merge: missing FILE"), "%s", out);
	free(out);
}
END_TEST

START_TEST(campaign_recipes_give_one_campaign)
{
	const char *ftv = ftv_test_env("FTV");
	char bindir[4200], path[8400], script[4200], recipes[4200], scratch[4200], *out = NULL;
	const char *old = getenv("PATH");

	snprintf(bindir, sizeof(bindir), "%s", ftv);
	/* the recipes call `ftv`: this one first on PATH */
	snprintf(path, sizeof(path), "PATH=%s:%s", dirname(bindir), old ? old : "/usr/bin:/bin");
	ftv_test_path(script, sizeof(script), "FTV_TOP", "tools/campaign_check.py");
	ftv_test_path(recipes, sizeof(recipes), "FTV_TOP", "docs/campaigns");
	ftv_test_path(scratch, sizeof(scratch), "FTV_BUILD", "campaigns-test");
	char *argv[] = { "/usr/bin/env", path, (char *)ftv_test_env("FTV_PYTHON"), script, recipes,
			 scratch, NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0 && strstr(out, "campaigns ok: gnu parallel, slurm --array=0-2, "
					   "slurm --array=1-5:2, kubernetes;"),
		      "campaign_check.py: %d\n%s", rc, out);
	free(out);
}
END_TEST

static Suite *campaigns_suite(void)
{
	Suite *s = suite_create("campaigns");
	TCase *tc = tcase_create("merge");

	tcase_add_test(tc, fuzz_merge_refuses_what_is_not_one_campaign);
	tcase_add_test(tc, campaign_recipes_give_one_campaign);
	tcase_set_timeout(tc, 600);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(campaigns, campaigns_suite)
