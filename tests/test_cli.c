/* The command line of every command, from its option table (util/opt.h):
 * `ftv CMD --help` and `ftv help CMD` list every option and exit 0, the man
 * page and the bash completion know the same options, an unknown option, a
 * missing value and a bad value are one line naming command and option,
 * exit 2. The commands and their options are read from ftv itself, so a
 * new command or option is covered without touching this file. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

#define MAX_CMDS 64
#define MAX_OPTS 64

struct cmd {
	char name[32];
	int nopts;
	char opt[MAX_OPTS][32]; /* long names */
	int takes[MAX_OPTS];    /* 1 if it takes a value */
};

static int one_line(const char *s)
{
	return s[0] && strchr(s, '\n') == s + strlen(s) - 1;
}

/* The commands `ftv help` lists, and the options each one's --help lists. */
static int read_commands(struct cmd *cmds)
{
	char *out, *p, *line;
	int n = 0;

	ck_assert_int_eq(FTV_RUN(&out, "help"), 0);
	p = strstr(out, "commands:\n");
	ck_assert_ptr_nonnull(p);
	for (line = strtok(p + 10, "\n"); line && line[0] == ' ' && n < MAX_CMDS;
	     line = strtok(NULL, "\n"))
		sscanf(line, " %31s", cmds[n++].name);
	free(out);
	ck_assert_int_ge(n, 12);
	for (int i = 0; i < n; i++) {
		struct cmd *c = &cmds[i];
		int rc = FTV_RUN(&out, c->name, "--help");

		ck_assert_msg(rc == 0, "%s --help: exit %d: %s", c->name, rc, out);
		for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
			char name[32], arg[32];
			const char *l = strstr(line, "--");

			/* "  -o, --output LAYOUT  text" or "      --json  text":
			 * the long name at column 6 */
			if (!l || l - line != 6 || strncmp(line, "  ", 2) ||
			    (line[2] != ' ' && line[2] != '-'))
				continue;
			ck_assert_int_lt(c->nopts, MAX_OPTS);
			arg[0] = 0;
			sscanf(l + 2, "%31s %31s", name, arg);
			snprintf(c->opt[c->nopts], sizeof(c->opt[0]), "%s", name);
			/* a value's name is upper case: "S", "FILE", "I/N" */
			c->takes[c->nopts++] = arg[0] >= 'A' && arg[0] <= 'Z';
		}
		free(out);
		ck_assert_msg(c->nopts >= 1 && !strcmp(c->opt[c->nopts - 1], "help"),
			      "%s: no --help in its help", c->name);
	}
	return n;
}

START_TEST(help_lists_every_option_and_exits_0)
{
	struct cmd *cmds = calloc(MAX_CMDS, sizeof(*cmds));
	int n = read_commands(cmds);
	char *out, *out2;

	for (int i = 0; i < n; i++) {
		int rc = FTV_RUN(&out, cmds[i].name, "--help");
		int rc2 = FTV_RUN(&out2, "help", cmds[i].name);
		char want[64];

		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(rc2, 0);
		ck_assert_str_eq(out, out2);
		snprintf(want, sizeof(want), "usage: ftv %s", cmds[i].name);
		ck_assert_msg(!strncmp(out, want, strlen(want)), "%s", out);
		free(out);
		free(out2);
	}
	/* the options the README table names are all there */
	for (int i = 0; i < n; i++) {
		static const char *const must[][8] = {
			{ "fuzz", "seed", "cpus", "time", "iterations", "scheme", "objects", "shard" },
			{ "fuzz", "mutate", "jobs", "json", "out", "replay", "trace", "build" },
			{ "scenario", "seed", "cpus", "mutate", "plans", "arch", "build" },
			{ "replay", "cpus", "seed", "batch", "batches", "json", "rounds", "calls" },
			{ "load", "json", "sites", "stub-undefined", "far-modules", "module" },
			{ "conform", "tap", "junit", "build" },
			{ "litmus", "verbose", "max-runs" },
			{ "capture", "output", "filter-addrs", "kallsyms", "call-ops" },
			{ "encode", "arch", "pc" },
			{ "decode", "arch", "pc" },
		};
		for (size_t m = 0; m < sizeof(must) / sizeof(must[0]); m++) {
			if (strcmp(must[m][0], cmds[i].name))
				continue;
			for (int k = 1; k < 8 && must[m][k]; k++) {
				int found = 0;

				for (int o = 0; o < cmds[i].nopts; o++)
					found |= !strcmp(cmds[i].opt[o], must[m][k]);
				ck_assert_msg(found, "ftv %s --help lacks --%s", cmds[i].name,
					      must[m][k]);
			}
		}
	}
	free(cmds);
	/* help goes to stdout, errors to stderr */
	char *sh[] = { "/bin/sh", "-c", "\"$FTV\" fuzz --help 2>/dev/null | head -1; "
		       "\"$FTV\" fuzz --frob 2>&1 >/dev/null", NULL };

	ck_assert_int_eq(ftv_test_run(sh, &out), 2);
	ck_assert_str_eq(out, "usage: ftv fuzz [OPTION]...\n"
			      "ftv fuzz: unrecognized option '--frob'\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "help", "no-such-command"), 2);
	ck_assert_str_eq(out, "ftv help: unknown command 'no-such-command'\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "--help"), 0);
	ck_assert_ptr_nonnull(strstr(out, "commands:\n"));
	free(out);
}
END_TEST

START_TEST(version_is_printed)
{
	char *out, *out2;

	ck_assert_int_eq(FTV_RUN(&out, "--version"), 0);
	ck_assert_int_eq(FTV_RUN(&out2, "version"), 0);
	ck_assert_msg(!strncmp(out, "ftv ", 4) && one_line(out), "%s", out);
	ck_assert_str_eq(out, out2);
	free(out);
	free(out2);
}
END_TEST

/* For every command: an unknown option, and every option that takes a
 * value given none. */
START_TEST(unknown_options_and_missing_values_are_named)
{
	struct cmd *cmds = calloc(MAX_CMDS, sizeof(*cmds));
	int n = read_commands(cmds);
	char *out, want[128], opt[40];

	for (int i = 0; i < n; i++) {
		struct cmd *c = &cmds[i];
		int rc = FTV_RUN(&out, c->name, "--frob");

		snprintf(want, sizeof(want), "ftv %s: unrecognized option '--frob'\n", c->name);
		ck_assert_msg(rc == 2, "%s: exit %d", c->name, rc);
		ck_assert_str_eq(out, want);
		free(out);
		for (int o = 0; o < c->nopts; o++) {
			snprintf(opt, sizeof(opt), "--%s", c->opt[o]);
			if (c->takes[o]) {
				rc = FTV_RUN(&out, c->name, opt);
				snprintf(want, sizeof(want), "ftv %s: option '%s' needs a value\n",
					 c->name, opt);
			} else {
				strcat(opt, "=1");
				rc = FTV_RUN(&out, c->name, opt);
				snprintf(want, sizeof(want), "ftv %s: option '--%s' takes no value\n",
					 c->name, c->opt[o]);
			}
			ck_assert_msg(rc == 2, "%s %s: exit %d: %s", c->name, opt, rc, out);
			ck_assert_str_eq(out, want);
			free(out);
		}
	}
	free(cmds);
	ck_assert_int_eq(FTV_RUN(&out, "fuzz", "--s", "1"), 2);
	ck_assert_str_eq(out, "ftv fuzz: option '--s' is ambiguous (--seed, --scheme, --shard, "
			      "--shrink-budget)\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "capture", "-x"), 2);
	ck_assert_str_eq(out, "ftv capture: unrecognized option '-x'\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "capture", "-o"), 2);
	ck_assert_str_eq(out, "ftv capture: option '-o' needs a value\n");
	free(out);
}
END_TEST

/* Every bad value: "ftv CMD: --OPT: 'VALUE' is not ...", one line, exit 2,
 * the same words in every command. */
static const struct {
	const char *argv[4];
	const char *msg;
} bad_values[] = {
	{ { "scenario", "--cpus", "0" }, "ftv scenario: --cpus: '0' is not a number from 1 to 32" },
	{ { "fuzz", "--cpus", "33" }, "ftv fuzz: --cpus: '33' is not a number from 1 to 32" },
	{ { "replay", "--cpus", "0" }, "ftv replay: --cpus: '0' is not a number from 1 to 32" },
	{ { "scenario", "--seed", "x" }, "ftv scenario: --seed: 'x' is not a number" },
	{ { "fuzz", "--seed", "-1" }, "ftv fuzz: --seed: '-1' is not a number" },
	{ { "replay", "--seed", "1x" }, "ftv replay: --seed: '1x' is not a number" },
	{ { "replay", "--batch", "0" }, "ftv replay: --batch: '0' is not a number from 1 up" },
	{ { "replay", "--rounds", "1001" },
	  "ftv replay: --rounds: '1001' is not a number from 1 to 1000" },
	{ { "replay", "--calls", "0" }, "ftv replay: --calls: '0' is not a number from 1 to 4096" },
	{ { "litmus", "--max-runs", "0" }, "ftv litmus: --max-runs: '0' is not a number from 1 up" },
	{ { "fuzz", "--jobs", "65" }, "ftv fuzz: --jobs: '65' is not a number from 1 to 64" },
	{ { "fuzz", "--iterations", "0" },
	  "ftv fuzz: --iterations: '0' is not a number from 1 up" },
	{ { "fuzz", "--time", "-3" }, "ftv fuzz: --time: '-3' is not a number of seconds above 0" },
	{ { "fuzz", "--shard", "2/2" }, "ftv fuzz: --shard: '2/2' is not I/N with 0 <= I < N" },
	{ { "fuzz", "--shrink-budget", "0" },
	  "ftv fuzz: --shrink-budget: '0' is not a number from 1 to 100000" },
	{ { "fuzz", "--arch", "sparc" }, "ftv fuzz: --arch: 'sparc' is not one of arm64, riscv64" },
	{ { "scenario", "--arch", "mips" },
	  "ftv scenario: --arch: 'mips' is not one of arm64, riscv64" },
	{ { "encode", "--arch", "mips" }, "ftv encode: --arch: 'mips' is not one of arm64, riscv64" },
	{ { "decode", "--arch", "mips" }, "ftv decode: --arch: 'mips' is not one of arm64, riscv64" },
	{ { "decode", "--pc", "zz" }, "ftv decode: --pc: 'zz' is not a number" },
	{ { "encode", "--pc", "0x" }, "ftv encode: --pc: '0x' is not a number" },
	{ { "fuzz", "--scheme", "sparc" },
	  "ftv fuzz: --scheme: 'sparc' is not one of callops, tramp, mcount, mcount-ops, "
	  "mcount-ops-tasks, tramp-tasks, pair, atomic" },
	{ { "fuzz", "--mutate", "nope" }, "ftv fuzz: --mutate: 'nope' is not one of none, " },
	{ { "scenario", "--mutate", "nope" }, "ftv scenario: --mutate: 'nope' is not one of none, " },
};

START_TEST(bad_values_are_named_the_same_way_everywhere)
{
	char *out;
	int rc = FTV_RUN(&out, (char *)bad_values[_i].argv[0], (char *)bad_values[_i].argv[1],
			 (char *)bad_values[_i].argv[2]);

	ck_assert_msg(rc == 2, "%s: exit %d: %s", bad_values[_i].msg, rc, out);
	ck_assert_msg(!strncmp(out, bad_values[_i].msg, strlen(bad_values[_i].msg)) &&
			      one_line(out), "want '%s', got '%s'", bad_values[_i].msg, out);
	free(out);
}
END_TEST

/* A missing argument or an extra one: one line with the synopsis. */
START_TEST(missing_arguments_show_the_synopsis)
{
	char *out;

	ck_assert_int_eq(FTV_RUN(&out, "scenario", "--seed", "1"), 2);
	ck_assert_str_eq(out, "ftv scenario: missing FILE; usage: ftv scenario [OPTION]... FILE...\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "replay", "a.layout", "b.layout"), 2);
	ck_assert_str_eq(out, "ftv replay: one LAYOUT only, not also 'b.layout'; "
			      "usage: ftv replay [OPTION]... LAYOUT\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "fuzz", "rand1"), 2);
	ck_assert_str_eq(out, "ftv fuzz: unexpected argument 'rand1'; usage: ftv fuzz [OPTION]...\n");
	free(out);
	ck_assert_int_eq(FTV_RUN(&out, "fuzz", "--time", "1", "--iterations", "2"), 2);
	ck_assert_msg(one_line(out) && strstr(out, "--time and --iterations exclude each other"),
		      "%s", out);
	free(out);
}
END_TEST

/* The man page's commands section and the completion script come from the
 * same tables: every command and every option of every --help is in both. */
START_TEST(man_page_and_completion_know_every_option)
{
	struct cmd *cmds = calloc(MAX_CMDS, sizeof(*cmds));
	int n = read_commands(cmds);
	char *man, *bash, want[96];

	ck_assert_int_eq(FTV_RUN(&man, "help", "--man"), 0);
	ck_assert_int_eq(FTV_RUN(&bash, "help", "--bash-completion"), 0);
	for (int i = 0; i < n; i++) {
		const char *sec, *next;

		snprintf(want, sizeof(want), ".SS \"ftv %s", cmds[i].name);
		/* "fuzz-merge" is fuzz\-merge in roff */
		for (char *p = want + 9; *p; p++)
			if (*p == '-') {
				memmove(p + 1, p, strlen(p) + 1);
				*p++ = '\\';
			}
		sec = strstr(man, want);
		ck_assert_msg(sec, "no %s in the man page", want);
		next = strstr(sec + 1, ".SS ");
		for (int o = 0; o < cmds[i].nopts - 1; o++) { /* --help is common */
			const char *hit;

			snprintf(want, sizeof(want), "\\fB\\-\\-%s\\fR", cmds[i].opt[o]);
			/* the '-' of an option name is \- in roff (the name
			 * starts after the 7 characters of \fB\-\-) */
			for (char *p = want + 7; *p; p++)
				if (*p == '-') {
					memmove(p + 1, p, strlen(p) + 1);
					*p++ = '\\';
				}
			hit = strstr(sec, want);
			ck_assert_msg(hit && (!next || hit < next), "man page: ftv %s lacks %s",
				      cmds[i].name, want);
			snprintf(want, sizeof(want), "--%s ", cmds[i].opt[o]);
			ck_assert_msg(strstr(bash, want), "completion lacks %s", want);
		}
	}
	free(man);
	free(bash);
	free(cmds);
}
END_TEST

/* The completion script works in bash: command names, option names, the
 * values of --scheme and --mutate. */
START_TEST(bash_completion_completes_commands_options_and_values)
{
	char script[4200], *out;

	snprintf(script, sizeof(script), "%s/ftv-completion-test.bash", ftv_test_env("FTV_BUILD"));
	char *gen[] = { "/bin/sh", "-c", "\"$FTV\" help --bash-completion > \"$0\"", script, NULL };

	ck_assert_int_eq(ftv_test_run(gen, &out), 0);
	free(out);
	const char *prog =
		"source \"$0\"\n"
		"c() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); _ftv; echo \"${COMPREPLY[*]}\"; }\n"
		"c ftv fu\n"
		"c ftv fuzz --sch\n"
		"c ftv fuzz --scheme ''\n"
		"c ftv scenario --mutate bl\n"
		"c ftv litmus -\n"
		"c ftv help sc\n";
	char *bash[] = { "/bin/bash", "-c", (char *)prog, script, NULL };

	ck_assert_int_eq(ftv_test_run(bash, &out), 0);
	ck_assert_msg(!strncmp(out, "fuzz fuzz-merge\n--scheme\ncallops tramp mcount mcount-ops "
				    "mcount-ops-tasks tramp-tasks pair atomic kernel\n"
				    "bl-before-literal\n-v --verbose --herd --json --kinds --max-runs "
				    "--time-limit --max-mem --reduce -h --help\n"
				    "scenario\n", 200), "%s", out);
	free(out);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("options");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, help_lists_every_option_and_exits_0);
	tcase_add_test(tc, version_is_printed);
	tcase_add_test(tc, unknown_options_and_missing_values_are_named);
	tcase_add_loop_test(tc, bad_values_are_named_the_same_way_everywhere, 0,
			    sizeof(bad_values) / sizeof(bad_values[0]));
	tcase_add_test(tc, missing_arguments_show_the_synopsis);
	tcase_add_test(tc, man_page_and_completion_know_every_option);
	tcase_add_test(tc, bash_completion_completes_commands_options_and_values);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(cli, cli_suite)
