/* `ftv fuzz` end to end: the faithful corpus survives a short campaign, a
 * backend mutant is found, shrunk and written as a replay file whose report
 * comes back identical every time, and bad usage is one line and exit 2. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/rng.h"
#include "verify/fuzz.h"

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

START_TEST(fuzz_seed_1_finds_nothing_on_the_faithful_corpus)
{
	char *out;
	int rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "3");

	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	ck_assert_msg(count(out, ": ok\n") == 3, "%s", out);
	ck_assert_msg(strstr(out, "fuzz: seed 1: 3 iterations in "), "%s", out);
	ck_assert_msg(strstr(out, " 0 violating iterations\n"), "%s", out);
	ck_assert_msg(!strstr(out, "VIOLATION"), "%s", out);
	free(out);
}
END_TEST

/* The report proper: from the replay's "== " header line on. */
static const char *report_of(const char *out)
{
	const char *p = strstr(out, "== fuzz-");

	ck_assert_msg(p != NULL, "no report in: %s", out);
	return p;
}

START_TEST(fuzz_mutant_is_shrunk_and_its_replay_reproduces_the_report)
{
	char dir[] = "/tmp/ftv-fuzz-test-XXXXXX", path[64], *out, *r1, *r2;
	const char *rep, *end;
	int rc;

	ck_assert(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/replay.scn", dir);
	/* seed 1's first iteration already trips the mutant with 2 CPUs; a
	 * small shrink budget keeps the test short */
	rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "1", "--cpus", "2",
		     "--mutate", "bl-before-literal", "--shrink-budget", "2", "--out", path);
	ck_assert_msg(rc == 1, "exit %d: %s", rc, out);
	ck_assert_msg(strstr(out, "found nop-ops; shrunk from "), "%s", out);
	ck_assert_msg(strstr(out, "VIOLATION nop-ops cpu"), "%s", out);
	ck_assert_msg(strstr(out, "the BL was visible before the ops literal it needs"), "%s", out);
	ck_assert_msg(strstr(out, "expect   violation nop-ops\n"), "%s", out);
	ck_assert_msg(access(path, R_OK) == 0, "no replay file %s", path);
	/* shrinking never grows the case: "shrunk from A to B operations" */
	{
		unsigned a, b;
		const char *p = strstr(out, "shrunk from ");

		ck_assert(p && sscanf(p, "shrunk from %u to %u operations", &a, &b) == 2);
		ck_assert_msg(b <= a, "%u -> %u", a, b);
	}

	rc = FTV_RUN(&r1, "fuzz", "--replay", path);
	ck_assert_msg(rc == 1, "replay exit %d: %s", rc, r1);
	rc = FTV_RUN(&r2, "fuzz", "--replay", path);
	ck_assert_msg(rc == 1, "replay exit %d: %s", rc, r2);
	ck_assert_str_eq(r1, r2);
	ck_assert_msg(strstr(r1, "VIOLATION (") && strstr(r1, "nop-ops"), "%s", r1);
	/* the campaign printed the same report the replay prints */
	rep = report_of(out);
	end = strstr(rep, "fuzz: the shrunk scenario");
	ck_assert(end);
	ck_assert_msg((size_t)(end - rep) == strlen(r1) && !strncmp(rep, r1, strlen(r1)),
		      "fuzz report:\n%.*s\nreplay:\n%s", (int)(end - rep), rep, r1);
	free(out);
	free(r1);
	free(r2);
	unlink(path);
	rmdir(dir);
}
END_TEST

static void usage_fails(char *out, int rc)
{
	ck_assert_msg(rc == 2, "exit %d: %s", rc, out);
	ck_assert_msg(out[0] && strchr(out, '\n') == out + strlen(out) - 1, "'%s'", out);
	free(out);
}

START_TEST(fuzz_bad_usage_is_one_line_and_exit_2)
{
	char *out;

	usage_fails(out, FTV_RUN(&out, "fuzz", "--shard", "2/2"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--mutate", "no-such-mutant"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--scheme", "sparc"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--iterations", "2", "--time", "3"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--jobs", "0"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--replay", "/nonexistent/x.scn"));
	usage_fails(out, FTV_RUN(&out, "fuzz", "--objects", "no-such-object", "--iterations", "1"));
}
END_TEST

/* The generator alone (no world): deterministic per seed, different across
 * seeds, and what it writes reads back as the same scenario. */
static void small_gen(struct fuzz_gen *g)
{
	memset(g, 0, sizeof(*g));
	g->scheme = FTV_SCHEME_CALLOPS;
	snprintf(g->objects[0], sizeof(g->objects[0]), "rand1");
	g->nobjects = 1;
	for (unsigned i = 0; i < 20; i++)
		snprintf(g->funcs[g->nfuncs++], sizeof(g->funcs[0]), "r1_f%u", i);
}

START_TEST(fuzz_generate_is_a_function_of_the_seed_and_round_trips)
{
	static struct fuzz_gen g;
	static struct scenario a, b, c;
	char path[] = "/tmp/ftv-fuzz-gen-XXXXXX";
	struct ftv_err err;
	int fd = mkstemp(path);
	FILE *f;

	ck_assert(fd >= 0);
	small_gen(&g);
	ck_assert(fuzz_iter_seed(1, 0) == fuzz_iter_seed(1, 0));
	ck_assert(fuzz_iter_seed(1, 0) != fuzz_iter_seed(1, 1));
	ck_assert(fuzz_iter_seed(1, 0) != fuzz_iter_seed(2, 0));
	fuzz_generate(&g, 42, &a);
	fuzz_generate(&g, 42, &b);
	ck_assert(!memcmp(&a, &b, sizeof(a)));
	ck_assert_uint_ge(a.nops, 4);
	ck_assert(!strcmp(a.ops[0].verb, "ops") || !strcmp(a.ops[0].verb, "static-key"));
	fuzz_generate(&g, 43, &b);
	ck_assert(memcmp(&a, &b, sizeof(a)));

	f = fdopen(fd, "w");
	ck_assert(f);
	scenario_write(f, &a, "a header\nof two lines");
	fclose(f);
	ck_assert_msg(!scenario_load(path, &c, &err), "%s", err.msg);
	unlink(path);
	ck_assert_str_eq(c.name, a.name);
	ck_assert_uint_eq(c.cfg.exec.ncpus, a.cfg.exec.ncpus);
	ck_assert_int_eq(c.cfg.exec.policy, a.cfg.exec.policy);
	ck_assert_uint_eq(c.cfg.exec.quantum, a.cfg.exec.quantum);
	ck_assert_uint_eq(c.cfg.exec.pct_depth, a.cfg.exec.pct_depth);
	ck_assert(c.cfg.exec.seed == a.cfg.exec.seed);
	ck_assert_uint_eq(c.cfg.rounds, a.cfg.rounds);
	ck_assert(c.steps == a.steps);
	ck_assert_uint_eq(c.nops, a.nops);
	for (unsigned i = 0; i < a.nops; i++) {
		ck_assert_str_eq(c.ops[i].verb, a.ops[i].verb);
		ck_assert_str_eq(c.ops[i].a, a.ops[i].a);
		ck_assert_str_eq(c.ops[i].b, a.ops[i].b);
	}
}
END_TEST

/* Modules: none, loaded at boot (enabled first) or late (module-load, then
 * perhaps module-unload); no operation names a module's function while
 * the module is not there; far modules only where the scheme has module
 * PLTs; the scenario file keeps it all. */
START_TEST(fuzz_generate_names_module_functions_only_while_loaded)
{
	static struct fuzz_gen g;
	static struct scenario s, c;
	unsigned boot = 0, late = 0, unload = 0, far = 0;

	small_gen(&g);
	snprintf(g.modules[0], sizeof(g.modules[0]), "rand3");
	g.nmodules = 1;
	for (unsigned i = 0; i < 10; i++) {
		snprintf(g.funcs[g.nfuncs], sizeof(g.funcs[0]), "r3_f%u", i);
		g.func_mod[g.nfuncs++] = 1;
	}
	for (uint64_t seed = 1; seed <= 300; seed++) {
		int there;

		fuzz_generate(&g, fuzz_iter_seed(5, seed), &s);
		there = s.cfg.nmodules && !s.cfg.module_late[0];
		if (s.cfg.nmodules) {
			ck_assert_str_eq(s.modules[0], "rand3");
			boot += there;
			late += !there;
			far += s.cfg.far_modules;
		}
		if (there)
			ck_assert_str_eq(s.ops[0].verb, "enable-modules");
		for (unsigned i = 0; i < s.nops; i++) {
			const struct scn_op *op = &s.ops[i];

			if (!strcmp(op->verb, "module-load")) {
				ck_assert(s.cfg.nmodules && s.cfg.module_late[0] && !there);
				there = 1;
				ck_assert(!strcmp(s.ops[i + 1].verb, "run") ||
					  (!strcmp(s.ops[i + 1].verb, "static-key") &&
					   !strcmp(s.ops[i + 2].verb, "run")));
			} else if (!strcmp(op->verb, "module-unload")) {
				ck_assert(there);
				there = 0;
				unload++;
			} else if (!strcmp(op->verb, "filter") || !strcmp(op->verb, "notrace")) {
				ck_assert_msg(there || !strstr(op->b, "r3_f"),
					      "seed %llu: %s %s names a module that is not there",
					      (unsigned long long)seed, op->verb, op->b);
			}
		}
		if (seed == 1 || (s.cfg.nmodules && s.cfg.module_late[0])) {
			char path[] = "/tmp/ftv-fuzz-mod-XXXXXX";
			int fd = mkstemp(path);
			FILE *f = fdopen(fd, "w");
			struct ftv_err err;

			ck_assert(f);
			scenario_write(f, &s, NULL);
			fclose(f);
			ck_assert_msg(!scenario_load(path, &c, &err), "%s", err.msg);
			unlink(path);
			ck_assert_uint_eq(c.cfg.nmodules, s.cfg.nmodules);
			ck_assert_uint_eq(c.cfg.far_modules, s.cfg.far_modules);
			for (unsigned m = 0; m < s.cfg.nmodules; m++)
				ck_assert_uint_eq(c.cfg.module_late[m], s.cfg.module_late[m]);
			ck_assert_uint_eq(c.nops, s.nops);
		}
	}
	ck_assert_uint_gt(boot, 50);
	ck_assert_uint_gt(late, 50);
	ck_assert_uint_gt(unload, 10);
	ck_assert_uint_gt(far, 30);
	/* the -pg scheme of 2014 has no module PLTs: never far */
	g.scheme = FTV_SCHEME_MCOUNT;
	for (uint64_t seed = 1; seed <= 100; seed++) {
		fuzz_generate(&g, fuzz_iter_seed(5, seed), &s);
		ck_assert(!s.cfg.far_modules);
	}
}
END_TEST

/* Scenario files keep their verbs; the core scripts' older spellings are
 * read too, and written back in the one spelling. */
START_TEST(scenario_verbs_read_both_spellings)
{
	static struct scenario s;
	char path[] = "/tmp/ftv-scn-verbs-XXXXXX";
	struct ftv_err err;
	int fd = mkstemp(path);
	FILE *f;
	char *text = NULL;
	size_t len = 0;

	ck_assert(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "name v\nscheme callops\nobjects rand1\nexpect ok\n"
		   "ops d1 direct\nfilter d1 r1_f1,r1_f2\nfilter d1 r1_f3 add\n"
		   "direct d1 ftv_direct_tramp\nmodify-direct d1 ftrace_stub_direct_tramp\n"
		   "undirect d1\nmodule-enable\nrun 10\n");
	fclose(f);
	ck_assert_msg(!scenario_load(path, &s, &err), "%s", err.msg);
	unlink(path);
	ck_assert_uint_eq(s.nops, 8);
	ck_assert_str_eq(s.ops[2].c, "add");
	ck_assert_str_eq(s.ops[4].verb, "direct-modify");
	ck_assert_str_eq(s.ops[5].verb, "direct-remove");
	ck_assert_str_eq(s.ops[6].verb, "enable-modules");
	f = open_memstream(&text, &len);
	scenario_write(f, &s, NULL);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text, "filter   d1 r1_f3 add\n"));
	ck_assert_ptr_nonnull(strstr(text, "direct-modify d1 ftrace_stub_direct_tramp\n"));
	ck_assert_ptr_nonnull(strstr(text, "enable-modules\n"));
	free(text);
}
END_TEST

/* What a scenario's fields cannot hold is refused with FILE:LINE, never
 * cut: a kind or an argument too long, a count past 32 bits, too many
 * kinds, a line past the reader's buffer; and a \r or \v inside a word
 * separates words, as trimming a line already treats them (the fuzz
 * harness found a kind cut to 23 characters that then read back
 * different). */
static void refused(const char *body, const char *want)
{
	static struct scenario s;
	char path[] = "/tmp/ftv-scn-refused-XXXXXX", *out;
	struct ftv_err err;
	int fd = mkstemp(path);
	FILE *f;
	int rc;

	ck_assert(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "name r\nscheme callops\nobjects rand1\n%s", body);
	fclose(f);
	ck_assert_msg(scenario_load(path, &s, &err), "accepted: %s", body);
	ck_assert_msg(!strncmp(err.msg, path, strlen(path)) && strstr(err.msg, want),
		      "'%s' for: %s", err.msg, body);
	rc = FTV_RUN(&out, "scenario", path);
	ck_assert_msg(rc == 2 && strchr(out, '\n') == out + strlen(out) - 1 &&
		      strstr(out, want), "exit %d: %s", rc, out);
	free(out);
	unlink(path);
}

START_TEST(scenario_refuses_what_its_fields_cannot_hold)
{
	static struct scenario s;
	char long_line[2200], path[] = "/tmp/ftv-scn-cr-XXXXXX";
	struct ftv_err err;
	int fd;
	FILE *f;

	refused("expect violation no-grace-period-and-then-some\n",
		":4: 'no-grace-period-and-then-some...' is too long for expect (at most 23 ");
	refused("expect ok\nrounds 4294967297\n", ":5: rounds: 4294967297 is too large");
	refused("expect violation a b c d e f g h i\n", ":4: more than 8 violation kinds");
	refused("expect ok\nops t1 tracer_a\nfilter t1 r1_f1 "
		"add-and-more-than-the-sixty-three-characters-the-third-field-holds\n",
		":6: 'add-and-more-than-the-sixty-three-charac...' is too long for filter "
		"(at most 63 ");
	memset(long_line, 'x', sizeof(long_line) - 2);
	memcpy(long_line, "# ", 2);
	long_line[sizeof(long_line) - 2] = '\n';
	long_line[sizeof(long_line) - 1] = 0;
	refused(long_line, ":4: line longer than 2046 characters");

	fd = mkstemp(path);
	ck_assert(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "name r\nscheme callops\nobjects rand1\nexpect violation nop-ops\rfault\v\n");
	fclose(f);
	ck_assert_msg(!scenario_load(path, &s, &err), "%s", err.msg);
	unlink(path);
	ck_assert_uint_eq(s.nexpect, 2);
	ck_assert_str_eq(s.expect[0], "nop-ops");
	ck_assert_str_eq(s.expect[1], "fault");
}
END_TEST

/* Every generated sequence keeps to the API: an ops is created before it
 * is used, never used after its unregistration or direct-remove, and a
 * register never hits an ops already registered. */
START_TEST(fuzz_generate_only_emits_valid_sequences)
{
	static struct fuzz_gen g;
	static struct scenario s;

	small_gen(&g);
	for (uint64_t seed = 1; seed <= 300; seed++) {
		char names[16][8];
		int state[16]; /* 0 created, 1 registered, 2 dead */
		unsigned n = 0;
		int key = 0;

		fuzz_generate(&g, fuzz_iter_seed(7, seed), &s);
		for (unsigned i = 0; i < s.nops; i++) {
			const struct scn_op *op = &s.ops[i];
			unsigned k;

			if (!strcmp(op->verb, "run")) {
				ck_assert(atoi(op->a) >= 50 && atoi(op->a) <= 300);
				continue;
			}
			/* another task's jump label: on, off, on... */
			if (!strcmp(op->verb, "static-key")) {
				ck_assert_str_eq(op->a, key ? "off" : "on");
				key = !key;
				continue;
			}
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], op->a))
					break;
			if (!strcmp(op->verb, "ops")) {
				ck_assert_msg(k == n, "seed %llu: %s created twice",
					      (unsigned long long)seed, op->a);
				ck_assert(n < 16);
				snprintf(names[n], sizeof(names[n]), "%s", op->a);
				state[n++] = 0;
				continue;
			}
			ck_assert_msg(k < n, "seed %llu: %s %s before ops", (unsigned long long)seed,
				      op->verb, op->a);
			ck_assert_msg(state[k] != 2, "seed %llu: %s %s after it was freed",
				      (unsigned long long)seed, op->verb, op->a);
			if (!strcmp(op->verb, "register") || !strcmp(op->verb, "direct")) {
				ck_assert(state[k] == 0);
				state[k] = 1;
			} else if (!strcmp(op->verb, "unregister") ||
				   !strcmp(op->verb, "direct-remove")) {
				ck_assert(state[k] == 1);
				state[k] = 2;
			} else if (!strcmp(op->verb, "direct-modify")) {
				ck_assert(state[k] == 1);
			}
		}
	}
}
END_TEST

/* Workers split the process's K iterations (worker w takes i % J == w)
 * and a shard takes every N-th iteration: the iteration seeds say which
 * ran. */
START_TEST(fuzz_jobs_and_shards_run_the_iterations_of_their_seeds)
{
	char *out, want[96];
	int rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "2", "--jobs", "2",
			 "--cpus", "1");

	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	for (unsigned i = 0; i < 2; i++) {
		snprintf(want, sizeof(want), "fuzz: iteration %u (seed 0x%016llx): 1 CPUs", i,
			 (unsigned long long)fuzz_iter_seed(1, i));
		ck_assert_msg(strstr(out, want), "no '%s' in: %s", want, out);
	}
	ck_assert_msg(strstr(out, "fuzz: seed 1: 2 iterations in "), "%s", out);
	free(out);

	rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "1", "--shard", "1/3",
		     "--cpus", "1");
	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	snprintf(want, sizeof(want), "fuzz: iteration 1 (seed 0x%016llx): ",
		 (unsigned long long)fuzz_iter_seed(1, 1));
	ck_assert_msg(strstr(out, want) && count(out, "fuzz: iteration ") == 1, "%s", out);
	free(out);
}
END_TEST

/* --json: nothing but one object per line, the summary last. */
START_TEST(fuzz_json_prints_a_summary_object)
{
	char *out, *line;
	int rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "1", "--shard", "2/3",
			 "--cpus", "1", "--json");

	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	/* the probe world's loader warnings come first, on stderr */
	line = strstr(out, "{\"type\":\"summary\",\"seed\":1,\"scheme\":\"callops\","
			  "\"mutate\":\"none\",\"shard\":\"2/3\",\"jobs\":1,"
			  "\"iterations\":1,\"transitions\":");
	ck_assert_msg(line, "%s", out);
	ck_assert_msg(strstr(line, "\"violations\":0,\"found\":false,\"elapsed_s\":"), "%s", line);
	ck_assert_msg(strstr(line, "\"steps_per_s\":"), "%s", line);
	ck_assert_msg(line[strlen(line) - 1] == '\n' && line[strlen(line) - 2] == '}', "%s", line);
	ck_assert_msg(!strstr(out, "fuzz: "), "text output in json mode: %s", out);
	free(out);
}
END_TEST

static Suite *fuzz_suite(void)
{
	Suite *s = suite_create("fuzz");
	TCase *tc = tcase_create("fuzz");

	tcase_set_timeout(tc, 300); /* ASan builds, loaded machines */
	tcase_add_test(tc, fuzz_generate_is_a_function_of_the_seed_and_round_trips);
	tcase_add_test(tc, fuzz_generate_only_emits_valid_sequences);
	tcase_add_test(tc, fuzz_generate_names_module_functions_only_while_loaded);
	tcase_add_test(tc, scenario_verbs_read_both_spellings);
	tcase_add_test(tc, scenario_refuses_what_its_fields_cannot_hold);
	tcase_add_test(tc, fuzz_bad_usage_is_one_line_and_exit_2);
	tcase_add_test(tc, fuzz_seed_1_finds_nothing_on_the_faithful_corpus);
	tcase_add_test(tc, fuzz_jobs_and_shards_run_the_iterations_of_their_seeds);
	tcase_add_test(tc, fuzz_json_prints_a_summary_object);
	tcase_add_test(tc, fuzz_mutant_is_shrunk_and_its_replay_reproduces_the_report);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(fuzz, fuzz_suite)
