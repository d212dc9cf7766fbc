/* The .scn language read and written from one keyword table
 * (verify/scenario_lang.c): every corpus scenario reads, writes and reads
 * back to the same scenario, and writes back to the same text; every
 * keyword of the table is read and written; a scenario without an expect
 * line runs and reports under ftv scenario, and ftv conform refuses it. */
#include "tests/suite.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/scenario.h"

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

/* What a second reading may differ in: where it was read from. */
static void forget_where(struct scenario *s)
{
	memset(s->path, 0, sizeof(s->path));
	s->arch_line = s->scheme_line = s->mutate_line = 0;
	for (unsigned i = 0; i < s->nops; i++)
		s->ops[i].line = 0;
}

/* s written to text (malloc'd). */
static char *written(const struct scenario *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert(f);
	scenario_write(f, s, NULL);
	fclose(f);
	return text;
}

static void reread(const char *text, const char *as, struct scenario *s)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	struct ftv_err err;

	ck_assert(f);
	ck_assert_msg(!scenario_read(f, as, s, &err), "%s reads back: %s\n%s", as, err.msg,
		      text);
}

START_TEST(every_corpus_scenario_reads_back_as_written)
{
	char dir[4096], path[4400];
	struct scenario *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct dirent *e;
	DIR *d;
	int n = 0;

	ck_assert(a && b);
	ftv_test_path(dir, sizeof(dir), "FTV_TOP", "corpus/scenarios");
	d = opendir(dir);
	ck_assert_msg(d, "%s", dir);
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		struct ftv_err err;
		char *t1, *t2;

		if (l < 5 || strcmp(e->d_name + l - 4, ".scn"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		ck_assert_msg(!scenario_load(path, a, &err), "%s", err.msg);
		t1 = written(a);
		/* read from the same place: `object` paths are relative to it */
		reread(t1, path, b);
		t2 = written(b);
		ck_assert_msg(!strcmp(t1, t2), "%s: written twice differently:\n%s\n---\n%s",
			      e->d_name, t1, t2);
		forget_where(a);
		forget_where(b);
		ck_assert_msg(!memcmp(a, b, sizeof(*a)), "%s: read back differently:\n%s",
			      e->d_name, t1);
		free(t1);
		free(t2);
		n++;
	}
	closedir(d);
	ck_assert_int_ge(n, 60);
	free(a);
	free(b);
}
END_TEST

/* A scenario using every keyword the writer writes reads back the same. */
START_TEST(every_keyword_is_read_and_written)
{
	static const char text[] =
		"name     all\nscheme   callops\nobjects  rand1 rand2\ncall     f1,f2\n"
		"modules  rand3\nlate-modules rand4\nfar-modules\nvacuous\nsymmetric\ncpus     2\n"
		"policy   exhaustive\nquantum  7\npct-depth 3\ndrain-hold 5\ncpu-hold 6\n"
		"window-hold 8\ntail-rounds 2\n"
		"cachetype DIC IDC\n"
		"seed     9\nrounds   2\ncalls    3\nworkload r1_f3 r1_f5\nmax-executions 10\n"
		"steps    500\nmutate   bl-before-literal\nexpect   violation nop-ops count\n"
		"ops      t1 tracer_a\nfilter   t1 r1_f3\nregister t1\nsettle\nunregister t1\n"
		"preempt  ftrace_caller+0x10\nobserve  0x10 0x20\nchannels 0x30 0x40\n"
		"schedule cpu0 patcher sbuf:1\n";
	char path[4096];
	struct scenario *a = malloc(sizeof(*a));
	const struct scn_keyword *k;
	char *t;

	ck_assert(a);
	/* `object PATH` needs a file: this one */
	ftv_test_path(path, sizeof(path), "FTV_TOP", "corpus/scenarios/x.scn");
	reread(text, path, a);
	t = written(a);
	ck_assert_msg(!strcmp(t, text), "written:\n%s", t);
	for (size_t i = 0; (k = scenario_keyword_at(i)); i++) {
		char want[64];

		ck_assert(k->parse && k->help && k->args);
		if (!k->write || !strcmp(k->name, "object") || !strcmp(k->name, "VERB"))
			continue;
		snprintf(want, sizeof(want), "\n%s", k->name);
		ck_assert_msg(!strncmp(t, k->name, strlen(k->name)) || strstr(t, want),
			      "keyword %s not exercised", k->name);
	}
	free(t);
	free(a);
}
END_TEST

START_TEST(a_scenario_without_expect_runs_and_conform_refuses_it)
{
	char path[64], *out;
	int rc;

	ftv_test_scn(path, sizeof(path), "name noexpect\nscheme callops\nobjects rand1 rand2\n"
		     "ops t1 tracer_a\nfilter t1 r1_f3\nregister t1\nrun 2000\n");
	rc = FTV_RUN(&out, "scenario", path);
	ck_assert_msg(rc == 0 && strstr(out, "noexpect: no violation"), "exit %d: %s", rc, out);
	free(out);
	rc = FTV_RUN(&out, "conform", path);
	ck_assert_msg(rc != 0 && strstr(out, "no expect line"), "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}
END_TEST

static Suite *scenario_lang_suite(void)
{
	Suite *s = suite_create("scenario_lang");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, every_corpus_scenario_reads_back_as_written);
	tcase_add_test(tc, every_keyword_is_read_and_written);
	tcase_add_test(tc, a_scenario_without_expect_runs_and_conform_refuses_it);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(scenario_lang, scenario_lang_suite)
