/* util/json.c, the writer behind every --json output: RFC 8259 escapes,
 * commas and nesting, non-UTF-8 bytes; and every command that prints JSON
 * (replay, load, fuzz) fed quotes, backslashes and control characters in
 * the paths and names it echoes, its output parsed by Python's json module
 * (issue #17: `ftv replay --json 'r"q\.layout'` and a layout header
 * `# kernel: 6.12"x\y` printed invalid JSON). */
#include "tests/suite.h"
#include "util/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *written(void (*fn)(struct json *j))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	ck_assert_ptr_nonnull(f);
	json_init(&j, f);
	fn(&j);
	fclose(f);
	return buf;
}

static void nested(struct json *j)
{
	json_begin_object(j);
	json_key_str(j, "s", "a\"b\\c/d");
	json_key(j, "a");
	json_begin_array(j);
	json_u64(j, 1);
	json_begin_object(j);
	json_end_object(j);
	json_begin_array(j);
	json_end_array(j);
	json_null(j);
	json_i64(j, -5);
	json_end_array(j);
	json_key_bool(j, "t", 1);
	json_key_bool(j, "f", 0);
	json_key_double(j, "d", 1.25, 3);
	json_key_double(j, "nan", NAN, 3);
	json_key_double(j, "inf", -INFINITY, 1);
	json_key_hex(j, "addr", 0xffff800080000000ull);
	json_key_u64(j, "max", UINT64_MAX);
	json_end_object(j);
	json_newline(j);
	json_begin_array(j);
	json_end_array(j);
	json_newline(j);
}

START_TEST(commas_nesting_and_numbers)
{
	char *s = written(nested);

	ck_assert_str_eq(s, "{\"s\":\"a\\\"b\\\\c/d\",\"a\":[1,{},[],null,-5],\"t\":true,"
			    "\"f\":false,\"d\":1.250,\"nan\":null,\"inf\":null,"
			    "\"addr\":\"0xffff800080000000\",\"max\":18446744073709551615}\n"
			    "[]\n");
	free(s);
}
END_TEST

static const char *escape_in;

static void one_string(struct json *j)
{
	json_str(j, escape_in);
}

static char *escaped(const char *in)
{
	escape_in = in;
	return written(one_string);
}

START_TEST(strings_are_escaped_per_rfc_8259)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "\"\"" },
		{ "\"\\", "\"\\\"\\\\\"" },
		{ "\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"" },
		{ "\x01\x1f", "\"\\u0001\\u001f\"" },
		{ "\x7f", "\"\x7f\"" },               /* DEL needs no escape */
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", /* UTF-8 passes */
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "a\xffz", "\"a\\ufffdz\"" },       /* not UTF-8 */
		{ "\xc3", "\"\\ufffd\"" },           /* cut short */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" }, /* overlong '/' */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" }, /* a surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* > U+10FFFF */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *s = escaped(cases[i].in);

		ck_assert_msg(!strcmp(s, cases[i].out), "case %zu: '%s' want '%s'", i, s,
			      cases[i].out);
		free(s);
	}
}
END_TEST

/* Every byte 1..255 through the writer, parsed back by Python: what was
 * UTF-8 comes back as it was, the rest as U+FFFD. */
START_TEST(every_byte_parses_in_python)
{
	char in[256], path[4200], *out;
	FILE *f;

	for (int i = 1; i < 256; i++)
		in[i - 1] = (char)i;
	in[255] = 0;
	snprintf(path, sizeof(path), "%s/json-bytes.json", ftv_test_env("FTV_BUILD"));
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	json_write_string(f, in);
	fputc('\n', f);
	fclose(f);
	const char *prog = "import json, sys\n"
			   "s = json.load(open(sys.argv[1], encoding='utf-8'))\n"
			   "want = ''.join(map(chr, range(1, 128))) + '\\ufffd' * 128\n"
			   "assert s == want, repr(s)\n"
			   "print('bytes ok')\n";
	char *py[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c", (char *)prog, path, NULL };
	int rc = ftv_test_run(py, &out);

	ck_assert_msg(rc == 0 && strstr(out, "bytes ok"), "python %d: %s", rc, out);
	free(out);
}
END_TEST

/* The awkward names: a quote, a backslash, a tab and a control byte. */
#define AWKWARD "\"\\\t\x01"

static void copy_file(const char *from, const char *to, const char *kernel)
{
	FILE *in = fopen(from, "r"), *out = fopen(to, "w");
	char line[4096];

	ck_assert_msg(in && out, "%s -> %s", from, to);
	while (fgets(line, sizeof(line), in)) {
		if (kernel && !strncmp(line, "# kernel: ", 10))
			fprintf(out, "# kernel: %s\n", kernel);
		else
			fputs(line, out);
	}
	fclose(in);
	fclose(out);
}

/* Runs ftv with argv, its stdout into outpath (stderr apart), and checks
 * the output with a Python program given the expected strings. */
static void python_checks(const char *outpath, const char *prog, char *a1, char *a2)
{
	char *out;
	char *py[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c", (char *)prog, (char *)outpath,
		       a1, a2, NULL };
	int rc = ftv_test_run(py, &out);

	ck_assert_msg(rc == 0 && strstr(out, "json ok"), "python %d: %s", rc, out);
	free(out);
}

static int run_to(const char *outpath, char *const argv[])
{
	char *out;
	/* sh -c 'exec "$@" > OUT' sh OUT ARGV... */
	char *sh[32] = { "/bin/sh", "-c", "out=$1; shift; exec \"$@\" > \"$out\"", "sh",
			 (char *)outpath };
	int n = 5, rc;

	for (int i = 0; argv[i] && n < 31; i++)
		sh[n++] = argv[i];
	sh[n] = NULL;
	rc = ftv_test_run(sh, &out);
	free(out);
	return rc;
}

static void test_dir(char *dir, size_t n)
{
	snprintf(dir, n, "%s/json-test", ftv_test_env("FTV_BUILD"));
	mkdir(dir, 0755);
}

START_TEST(replay_json_escapes_the_layout_path_and_kernel)
{
	char dir[4096], layout[4300], fixture[4300], outpath[4300];

	test_dir(dir, sizeof(dir));
	snprintf(layout, sizeof(layout), "%s/r" AWKWARD "q.layout", dir);
	snprintf(outpath, sizeof(outpath), "%s/replay.json", dir);
	ftv_test_path(fixture, sizeof(fixture), "FTV_TOP", "tests/data/replay-fixture.layout");
	copy_file(fixture, layout, "6.12\"x\\y");
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", "--json", layout, NULL };

	ck_assert_int_eq(run_to(outpath, argv), 0);
	python_checks(outpath,
		      "import json, sys\n"
		      "d = json.loads(open(sys.argv[1], 'rb').read().decode())\n"
		      "assert d['layout'] == sys.argv[2], (d['layout'], sys.argv[2])\n"
		      "assert d['kernel'] == sys.argv[3], d['kernel']\n"
		      "assert d['sites'] == 5 and d['replayed'] == 2, d\n"
		      "print('json ok')\n",
		      layout, "6.12\"x\\y");
}
END_TEST

START_TEST(load_json_escapes_object_paths_and_names)
{
	char dir[4096], obj[4300], src[4300], outpath[4300];

	test_dir(dir, sizeof(dir));
	snprintf(obj, sizeof(obj), "%s/o" AWKWARD "\nb.o", dir);
	snprintf(outpath, sizeof(outpath), "%s/load.json", dir);
	ftv_test_path(src, sizeof(src), "FTV_BUILD", "corpus/callops/list.o");
	{
		FILE *in = fopen(src, "rb"), *out = fopen(obj, "wb");
		char buf[65536];
		size_t n;

		ck_assert_msg(in && out, "%s", src);
		while ((n = fread(buf, 1, sizeof(buf), in)))
			fwrite(buf, 1, n, out);
		fclose(in);
		fclose(out);
	}
	char *argv[] = { (char *)ftv_test_env("FTV"), "load", "--json", "--stub-undefined", obj,
			 NULL };

	ck_assert_int_eq(run_to(outpath, argv), 0);
	python_checks(outpath,
		      "import json, os, sys\n"
		      "d = json.loads(open(sys.argv[1], 'rb').read().decode())\n"
		      "o = d['objects'][0]\n"
		      "assert o['path'] == sys.argv[2], o['path']\n"
		      "assert o['name'] == os.path.basename(sys.argv[2]), o['name']\n"
		      "assert d['site_counts']['total'] == len(d['sites']) > 0\n"
		      "assert all(s['object'] == o['path'] for s in d['sites']), d['sites'][0]\n"
		      "print('json ok')\n",
		      obj, NULL);
}
END_TEST

/* A finding's JSON: the replay path (--out) and the multi-line report. */
START_TEST(fuzz_json_escapes_the_replay_path_and_report)
{
	char dir[4096], scn[4300], outpath[4300];

	test_dir(dir, sizeof(dir));
	snprintf(scn, sizeof(scn), "%s/f" AWKWARD ".scn", dir);
	snprintf(outpath, sizeof(outpath), "%s/fuzz.json", dir);
	remove(scn);
	char *argv[] = { (char *)ftv_test_env("FTV"), "fuzz", "--json", "--seed", "1",
			 "--iterations", "4", "--mutate", "bl-before-literal", "--out", scn,
			 NULL };

	ck_assert_int_eq(run_to(outpath, argv), 1);
	python_checks(outpath,
		      "import json, sys\n"
		      "lines = open(sys.argv[1], 'rb').read().decode().splitlines()\n"
		      "f, s = [json.loads(l) for l in lines]\n"
		      "assert f['type'] == 'finding' and s['type'] == 'summary', lines\n"
		      "assert f['replay'] == sys.argv[2], f['replay']\n"
		      "assert f['kind'] == 'nop-ops' and f['reproduced'] is True, f\n"
		      "assert '\\n' in f['report'] and 'VIOLATION nop-ops' in f['report']\n"
		      "assert s['found'] is True and s['violations'] == 1, s\n"
		      "assert s['shard'] == '0/1' and s['budget'] == '4 iterations', s\n"
		      "assert s['iterations'] == f['iteration'] + 1 <= 4, (f, s)\n"
		      "print('json ok')\n",
		      scn, NULL);
}
END_TEST

static Suite *json_suite(void)
{
	Suite *s = suite_create("json");
	TCase *tc = tcase_create("writer");
	TCase *cmd = tcase_create("commands");

	tcase_add_test(tc, commas_nesting_and_numbers);
	tcase_add_test(tc, strings_are_escaped_per_rfc_8259);
	tcase_add_test(tc, every_byte_parses_in_python);
	suite_add_tcase(s, tc);
	tcase_set_timeout(cmd, 120);
	tcase_add_test(cmd, replay_json_escapes_the_layout_path_and_kernel);
	tcase_add_test(cmd, load_json_escapes_object_paths_and_names);
	tcase_add_test(cmd, fuzz_json_escapes_the_replay_path_and_report);
	suite_add_tcase(s, cmd);
	return s;
}
FTV_SUITE(json, json_suite)
