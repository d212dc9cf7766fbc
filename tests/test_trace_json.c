/* --trace FILE (issue #16): Chrome trace-event JSON that the viewers load.
 * tools/trace_check.py checks the shape as ui.perfetto.dev and
 * chrome://tracing read it (every event has ph, ts, pid, tid; B/E pair up
 * and slices nest per track; every flow has one start and one end, each
 * inside a slice; metadata names every process and track); the checks
 * here pin what ftv promises to put in it: a track per CPU, the patcher
 * and the store buffer, the violation as an instant, the arrow from the
 * BL's write to the fetch that saw it, and a run that is the same with or
 * without the timeline (the trace hash). */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static void scn(char *buf, size_t n, const char *name)
{
	ftv_test_path(buf, n, "FTV_TOP", name);
}

/* tools/trace_check.py FILE with its options; asserts "trace ok". */
static void trace_ok(const char *path, const char *cpus, const char *kind)
{
	char script[4200], *out = NULL, *argv[8];
	int n = 0, rc;

	ftv_test_path(script, sizeof(script), "FTV_TOP", "tools/trace_check.py");
	argv[n++] = (char *)ftv_test_env("FTV_PYTHON");
	argv[n++] = script;
	argv[n++] = "--cpus";
	argv[n++] = (char *)cpus;
	if (kind) {
		argv[n++] = "--expect";
		argv[n++] = (char *)kind;
	}
	argv[n++] = (char *)path;
	argv[n] = NULL;
	rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0 && strstr(out, "trace ok: "), "trace_check %s: %d\n%s", path, rc,
		      out);
	free(out);
}

static void python(const char *prog, const char *arg)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c", (char *)prog, (char *)arg,
			 NULL };
	int rc = ftv_test_run(argv, &out);

	ck_assert_msg(rc == 0 && strstr(out, "content ok"), "python: %d\n%s", rc, out);
	free(out);
}

static char *hash_line(const char *out)
{
	const char *p = strstr(out, ", trace ");

	ck_assert_msg(p, "%s", out);
	return strndup(p, 25);
}

START_TEST(scenario_trace_is_valid_and_shows_the_race)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char path[4200], json[4200], html[4200], render[4200], *out = NULL, *plain = NULL;
	int rc;

	scn(path, sizeof(path), "corpus/scenarios/mutant-bl-before-literal.scn");
	snprintf(json, sizeof(json), "%s/trace-bbl.json", b);
	rc = FTV_RUN(&out, "scenario", "--trace", json, path);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	ck_assert_msg(strstr(out, "VIOLATION nop-ops cpu"), "%s", out);
	/* the run is the one without the timeline, step for step */
	rc = FTV_RUN(&plain, "scenario", path);
	ck_assert_int_eq(rc, 1);
	char *h1 = hash_line(out), *h2 = hash_line(plain);

	ck_assert_str_eq(h1, h2);
	free(h1);
	free(h2);
	free(out);
	free(plain);
	trace_ok(json, "4", "nop-ops");

	/* what is in it: the violation on the CPU that called
	 * ftrace_nop_ops, and an arrow from the patcher's BL write through
	 * the store buffer to that CPU's fetch of the BL before it */
	python("import json, re, sys\n"
	       "d = json.load(open(sys.argv[1]))\n"
	       "ev = d['traceEvents']\n"
	       "names = {(e['pid'], e['tid']): e['args']['name'] for e in ev\n"
	       "         if e['ph'] == 'M' and e['name'] == 'thread_name'}\n"
	       "tid = {v: k[1] for k, v in names.items()}\n"
	       "v = [e for e in ev if e['ph'] == 'i' and e.get('cat') == 'violation']\n"
	       "assert v and v[0]['args']['kind'] == 'nop-ops', v[:1]\n"
	       "m = re.match(r'ftrace_nop_ops called at ((r\\d+_f\\d+)\\+0x4/0x[0-9a-f]+) ',\n"
	       "             v[0]['args']['message'])\n"
	       "assert m, v[0]['args']['message']\n"
	       "site, func = m.group(1), m.group(2)\n"
	       "cpu = v[0]['tid']\n"
	       "assert names[(1, cpu)].startswith('cpu')\n"
	       "assert v[0]['ts'] == v[0]['args']['step'] * 1000 + (v[0]['ts'] % 1000)\n"
	       "steps = [e for e in ev if e['ph'] == 'X' and e.get('cat') == 'plan-step'\n"
	       "         and e['name'] == 'write-insn: make_call: nop -> bl'\n"
	       "         and e['args']['at'] == site]\n"
	       "assert steps and steps[0]['tid'] == tid['patcher'], steps[:1]\n"
	       "assert '<ftrace_caller>' in steps[0]['args']['new'], steps[0]\n"
	       "fl = {}\n"
	       "for e in ev:\n"
	       "    if e['ph'] in 'stf': fl.setdefault(e['id'], {})[e['ph']] = e\n"
	       "s0 = steps[0]['ts']; s1 = s0 + steps[0]['dur']\n"
	       "hit = [f for f in fl.values() if s0 <= f['s']['ts'] <= s1\n"
	       "       and f['f']['tid'] == cpu and 't' in f]\n"
	       "assert hit, 'no arrow from the BL write to %s' % names[(1, cpu)]\n"
	       "f = hit[0]\n"
	       "assert f['t']['tid'] == tid['store buffer']\n"
	       "fetch = [e for e in ev if e['ph'] == 'X' and e['tid'] == cpu\n"
	       "         and e['ts'] <= f['f']['ts'] <= e['ts'] + e['dur']]\n"
	       "assert fetch and fetch[0]['name'].startswith('fetch bl '), fetch\n"
	       "assert fetch[0]['args']['at'] == site\n"
	       "assert 'make_call: nop -> bl' in fetch[0]['args']['write']\n"
	       "assert fetch[0]['ts'] <= v[0]['ts']\n"
	       "fn = [e for e in ev if e['ph'] == 'B' and e['tid'] == cpu and e['name'] == func]\n"
	       "assert fn and fn[0]['args']['func'] == site.replace('+0x4/', '+0x0/')\n"
	       "tr = [e for e in ev if e.get('cat') == 'tracer' and e['tid'] == cpu\n"
	       "      and e['name'].startswith('ftv_nop_ops_func (ops ftrace_nop_ops)')]\n"
	       "assert tr and tr[0]['args']['ip'] == site, tr[:1]\n"
	       "assert d['displayTimeUnit'] == 'ms' and 'step' in d['otherData']['time']\n"
	       "print('content ok')\n",
	       json);

	/* tools/timeline.py draws it (docs/timelines.md's picture) */
	snprintf(html, sizeof(html), "%s/trace-bbl.html", b);
	ftv_test_path(render, sizeof(render), "FTV_TOP", "tools/timeline.py");
	char *draw[] = { (char *)ftv_test_env("FTV_PYTHON"), render, json, "-o", html,
			 "--from", "270", "--to", "310", NULL };

	rc = ftv_test_run(draw, &out);
	ck_assert_msg(rc == 0, "timeline.py: %d\n%s", rc, out);
	free(out);
	python("import sys\n"
	       "h = open(sys.argv[1]).read()\n"
	       "assert h.count('<svg') == 1 and '</svg>' in h\n"
	       "for s in ('cpu0', 'cpu3', 'patcher', 'store buffer', 'r1_f3',\n"
	       "          'VIOLATION nop-ops cpu0 step 293', 'marker-end'):\n"
	       "    assert s in h, s\n"
	       "print('content ok')\n",
	       html);
}
END_TEST

START_TEST(replay_trace_and_text_trace)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char path[4200], ok[4200], json[4200], *out = NULL;
	int rc;

	/* riscv64: the pair hazard, through fuzz --replay */
	scn(path, sizeof(path), "corpus/scenarios/riscv-pair-hazard.scn");
	snprintf(json, sizeof(json), "%s/trace-pair.json", b);
	rc = FTV_RUN(&out, "fuzz", "--replay", path, "--trace", json);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	ck_assert_msg(strstr(out, "VIOLATION pair-hazard"), "%s", out);
	/* the text trace is --trace-text now */
	ck_assert_msg(!strstr(out, "     fetch  "), "%s", out);
	free(out);
	trace_ok(json, "2", "pair-hazard");
	rc = FTV_RUN(&out, "fuzz", "--replay", path, "--trace-text");
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(out, "     fetch  "), "%s", out);
	free(out);

	/* several scenarios: one process each, in one file */
	scn(path, sizeof(path), "corpus/scenarios/riscv-pair-hazard.scn");
	scn(ok, sizeof(ok), "corpus/scenarios/mutant-no-range-check.scn");
	snprintf(json, sizeof(json), "%s/trace-two.json", b);
	rc = FTV_RUN(&out, "scenario", "--trace", json, path, ok);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	free(out);
	trace_ok(json, "2", "bad-branch");
	python("import json, sys\n"
	       "ev = json.load(open(sys.argv[1]))['traceEvents']\n"
	       "p = sorted(e['args']['name'] for e in ev if e.get('name') == 'process_name')\n"
	       "assert len(p) == 2 and p[0].startswith('mutant-no-range-check: scheme callops')\n"
	       "assert p[1].startswith('riscv-pair-hazard: scheme pair'), p\n"
	       "print('content ok')\n",
	       json);

	/* a file that cannot be written: one line naming it, exit 2 */
	rc = FTV_RUN(&out, "scenario", "--trace", "/nonexistent/dir/t.json", path);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, "ftv scenario: --trace: /nonexistent/dir/t.json: cannot write"),
		      "%s", out);
	ck_assert_ptr_null(strchr(strchr(out, '\n') + 1, '\n'));
	free(out);
	rc = FTV_RUN(&out, "fuzz", "--replay", path, "--trace", "/nonexistent/dir/t.json");
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(out, "ftv fuzz: --trace: /nonexistent/dir/t.json: cannot write"),
		      "%s", out);
	free(out);
}
END_TEST

static Suite *trace_json_suite(void)
{
	Suite *s = suite_create("trace_json");
	TCase *tc = tcase_create("trace");

	tcase_add_test(tc, scenario_trace_is_valid_and_shows_the_race);
	tcase_add_test(tc, replay_trace_and_text_trace);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(trace_json, trace_json_suite)
