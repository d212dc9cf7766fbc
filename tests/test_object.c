/* Bring your own code (issue #16): `object PATH` in a scenario, `ftv scenario
 * --object`, `ftv fuzz --object` load a kernel developer's own object or
 * module, the repo's compiled objects and a module of Debian's arm64 cloud
 * kernel (build/kmods, `make corpus-kernel`): the call probe picks the
 * functions the workload can call, the patching of their sites is checked
 * like the corpus's (a mutant's violation is reported at the module's
 * function), a finding's replay file names the object, and every unusable
 * object is one line naming it and what is missing, with exit status 2. */
#include "tests/suite.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)
#define HAS(out, s) ck_assert_msg(strstr(out, s), "no '%s' in:\n%s", s, out)

/* A module of the unpacked Debian kernel, by its path under the version's
 * directory (kernel/lib/math/cordic.ko.xz). */
static void kmod(char *buf, size_t n, const char *rel)
{
	char pat[4200];
	glob_t g;

	ftv_test_path(pat, sizeof(pat), "FTV_TOP", "build/kmods/usr/lib/modules/*/");
	snprintf(pat + strlen(pat), sizeof(pat) - strlen(pat), "%s", rel);
	ck_assert_msg(glob(pat, 0, NULL, &g) == 0 && g.gl_pathc >= 1,
		      "%s: not found (make corpus-kernel)", pat);
	snprintf(buf, n, "%s", g.gl_pathv[g.gl_pathc - 1]);
	globfree(&g);
}

static void corpus(char *buf, size_t n, const char *rel)
{
	ftv_test_path(buf, n, "FTV_BUILD", rel);
}

/* A scenario file in the build directory: the scheme, the object lines,
 * and operations that enable the modules and trace everything. */
static void write_scn(char *path, size_t n, const char *name, const char *scheme,
		      const char *objects)
{
	FILE *f;

	ftv_test_path(path, n, "FTV_BUILD", "");
	snprintf(path + strlen(path), n - strlen(path), "/object-%s.scn", name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "name     %s\nscheme   %s\n%scpus     2\nseed     1\nrounds   20\n"
		   "expect   ok\nenable-modules\nops      t1 tracer_a\nregister t1\nrun      100\n"
		   "unregister t1\n",
		name, scheme, objects);
	fclose(f);
}

/* "TEXT N" in out: N. */
static long number_before(const char *out, const char *text)
{
	const char *p = strstr(out, text);

	ck_assert_msg(p, "no '%s' in:\n%s", text, out);
	while (p > out && p[-1] == ' ')
		p--;
	while (p > out && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return atol(p);
}

START_TEST(debian_module_in_a_scenario)
{
	char mod[4200], line[4400], scn[4400], *out = NULL;
	int rc;

	kmod(mod, sizeof(mod), "kernel/lib/math/cordic.ko.xz");
	snprintf(line, sizeof(line), "object   %s\n", mod);
	write_scn(scn, sizeof(scn), "cordic", "callops", line);
	rc = FTV_RUN(&out, "scenario", scn);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	/* cordic_calc_iq(s32 theta) is a pure function: the probe lets the
	 * workload call it, and the tracer sees it once enabled */
	HAS(out, "note: the workload calls 1 function: cordic_calc_iq\n");
	HAS(out, "cordic: 1 sites, 2 plans, 2 transitions, ");
	ck_assert_int_gt(number_before(out, "traced calls"), 100);
	ck_assert_int_gt(number_before(out, "tracer calls"), 0);
	HAS(out, "cordic: no violation (0 violations)");
	free(out);

	/* the patching of its site is checked: the mutant's race is reported
	 * at the module's function, named with its module */
	rc = FTV_RUN(&out, "scenario", "--mutate", "bl-before-literal", scn);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	HAS(out, "VIOLATION nop-ops cpu");
	HAS(out, "ftrace_nop_ops called at cordic_calc_iq+0x4/0xf0 [cordic] through the BL");
	free(out);
}
END_TEST

/* A large module, btrfs (2,216 sites): hundreds of its functions are
 * callable, and calling them on two CPUs raises no false alarm. Before the
 * probe forbade every store, submit_one_bio(P) faulted: another function
 * had stored into the shared buffer P and restored it before returning,
 * which a comparison before and after the call did not see. */
START_TEST(large_module_no_false_alarm)
{
	char mod[4200], scn[4400], *out = NULL;
	int rc;

	kmod(mod, sizeof(mod), "kernel/fs/btrfs/btrfs.ko.xz");
	write_scn(scn, sizeof(scn), "btrfs", "callops", "");
	rc = FTV_RUN(&out, "scenario", "--object", mod, scn);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	ck_assert_int_gt(number_before(out, "functions: __traceiter_btrfs_transaction_commit"),
			 100);
	HAS(out, "call functions that are not loaded (unregister_filesystem, ");
	HAS(out, "btrfs: 2216 sites, 2 plans, 4432 transitions, ");
	HAS(out, "btrfs: no violation (0 violations)");
	free(out);
}
END_TEST

/* .ko, .ko.zst, .ko.gz of the same module: the same run, bit for bit. */
START_TEST(every_compression_runs_the_same)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char mod[4200], cmd[13000], scn[4400], *out = NULL, hash[4][40];
	const char *ext[] = { ".ko.xz", ".ko", ".ko.zst", ".ko.gz" };
	int rc;

	kmod(mod, sizeof(mod), "kernel/lib/math/cordic.ko.xz");
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/object-z' && xz -dc '%s' > '%s/object-z/cordic.ko' && "
		 "zstd -q -f '%s/object-z/cordic.ko' -o '%s/object-z/cordic.ko.zst' && "
		 "gzip -kf '%s/object-z/cordic.ko'", b, mod, b, b, b, b);
	char *sh[] = { "/bin/sh", "-c", cmd, NULL };

	rc = ftv_test_run(sh, &out);
	ck_assert_msg(rc == 0, "%s", out);
	free(out);
	write_scn(scn, sizeof(scn), "z", "callops", "");
	for (int i = 0; i < 4; i++) {
		char path[4400];
		const char *t;

		if (i)
			snprintf(path, sizeof(path), "%s/object-z/cordic%s", b, ext[i]);
		else
			snprintf(path, sizeof(path), "%s", mod);
		rc = FTV_RUN(&out, "scenario", "--object", path, scn);
		ck_assert_msg(rc == 0, "%s: exit %d\n%s", ext[i], rc, out);
		t = strstr(out, ", trace ");
		ck_assert_msg(t, "%s", out);
		snprintf(hash[i], sizeof(hash[i]), "%.24s", t);
		ck_assert_str_eq(hash[i], hash[0]);
		free(out);
	}
}
END_TEST

/* The repo's own compiled objects by path, next to each other: what the
 * probe refuses is said, with the function they call that is not loaded. */
START_TEST(compiled_objects_by_path)
{
	char klib[4200], list[4200], scn[4400], *out = NULL;
	int rc;

	corpus(klib, sizeof(klib), "corpus/mcount/klib.o");
	corpus(list, sizeof(list), "corpus/mcount/list.o");
	write_scn(scn, sizeof(scn), "mcount", "mcount", "");
	rc = FTV_RUN(&out, "scenario", "--object", list, scn);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	/* pool_reset stores a zero over a zero: refused all the same, no
	 * store at all is allowed */
	HAS(out, "note: the workload calls 3 functions: pool_alloc, list_empty, htab_size; "
		 "10 of the 13 functions probed cannot be called: 3 call functions that are not "
		 "loaded (k_hash), 5 fault, 2 write memory; e.g. pool_reset: writes memory: "
		 "fault at pool_reset+0x1c/0x24 executing f900001f (str xzr, [x0]): Write to "
		 "write-protected memory (UC_ERR_WRITE_PROT)\n");
	free(out);
	/* with klib.o, k_hash is there: its callers run, and fault on the
	 * NULL or read-only buffers they are given */
	rc = FTV_RUN(&out, "scenario", "--object", list, "--object", klib, scn);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	HAS(out, "note: the workload calls 11 functions: pool_alloc, list_empty, htab_size, "
		 "memset, memcpy, memmove, memcmp, strlen, ...; 11 of the 22 functions probed "
		 "cannot be called: 9 fault, 2 write memory;");
	HAS(out, "mcount: 22 sites, 2 plans, 44 transitions, ");
	HAS(out, "mcount: no violation (0 violations)");
	free(out);
}
END_TEST

/* `object` lines are relative to the scenario's directory; `call` names
 * the functions, and one the probe refuses is an error saying why. */
START_TEST(object_and_call_lines)
{
	char scn[4400], *out = NULL;
	int rc;

	write_scn(scn, sizeof(scn), "rel", "callops",
		  "object   corpus/callops/klib.o\ncall     strlen,memcmp\n");
	rc = FTV_RUN(&out, "scenario", scn);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	HAS(out, "note: the workload calls 2 functions: memcmp, strlen\n");
	/* the other functions' sites are patched, their calls not made */
	HAS(out, "rel: 9 sites, 2 plans, 18 transitions, 640 traced calls, ");
	HAS(out, "rel: no violation (0 violations)");
	free(out);

	write_scn(scn, sizeof(scn), "badcall", "callops",
		  "object   corpus/callops/klib.o\ncall     k_nosuch\n");
	rc = FTV_RUN(&out, "scenario", scn);
	ck_assert_msg(rc == 2, "exit %d\n%s", rc, out);
	HAS(out, "object-badcall.scn: call k_nosuch: no traced function of that name");
	free(out);

	write_scn(scn, sizeof(scn), "missing", "callops", "object   corpus/callops/nosuch.o\n");
	rc = FTV_RUN(&out, "scenario", scn);
	ck_assert_msg(rc == 2, "exit %d\n%s", rc, out);
	HAS(out, "object-missing.scn:3: object: ");
	HAS(out, "corpus/callops/nosuch.o: No such file or directory");
	free(out);
}
END_TEST

/* Unusable objects: one line naming the object and what is wrong, exit 2. */
START_TEST(unusable_objects_are_named)
{
	static const struct {
		const char *path, *scheme, *want;
		int kmod;
	} t[] = {
		{ "kernel/lib/crc-itu-t.ko.xz", "callops",
		  "crc-itu-t.ko.xz: no patch site: none of its functions can be traced", 1 },
		{ "kernel/crypto/aes_ti.ko.xz", "callops",
		  "no function of the objects can be called by the workload: 4 of the 4 "
		  "functions probed cannot be called: 4 call functions that are not loaded "
		  "(aes_decrypt, aes_encrypt, aes_expandkey, crypto_register_alg); "
		  "e.g. aesti_decrypt: calls aes_decrypt, which is not loaded", 1 },
		{ "kernel/lib/math/cordic.ko.xz", "mcount",
		  "cordic.ko.xz: its 1 patch sites are call_ops sites; scheme mcount patches "
		  "mcount sites (schemes for call_ops: callops, kernel)", 1 },
		{ "corpus/rv64/klib.o", "callops",
		  "rv64/klib.o: riscv64 object, but scheme callops is arm64's (riscv64 "
		  "schemes: pair, atomic)", 0 },
		{ "corpus/args/klib.o", "callops",
		  "args/klib.o: its 9 patch sites are args sites; scheme callops patches "
		  "call_ops sites (schemes for args: tramp, tramp-tasks)", 0 },
	};
	char scn[4400], path[4400], *out = NULL;
	int rc;

	write_scn(scn, sizeof(scn), "bad", "callops", "");
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].kmod)
			kmod(path, sizeof(path), t[i].path);
		else
			corpus(path, sizeof(path), t[i].path);
		write_scn(scn, sizeof(scn), "bad", t[i].scheme, "");
		rc = FTV_RUN(&out, "scenario", "--object", path, scn);
		ck_assert_msg(rc == 2, "%s: exit %d\n%s", t[i].path, rc, out);
		HAS(out, t[i].want);
		/* one line on stderr after the header */
		ck_assert_msg(strchr(strchr(out, '\n') + 1, '\n') == out + strlen(out) - 1,
			      "%s", out);
		free(out);
	}
}
END_TEST

/* fuzz --object: a campaign on a Debian module, a finding's replay file with
 * the object line, and the replay reproducing it. */
START_TEST(fuzz_a_debian_module)
{
	const char *b = ftv_test_env("FTV_BUILD");
	char mod[4200], replay[4200], *out = NULL, *text = NULL;
	int rc;

	kmod(mod, sizeof(mod), "kernel/lib/math/cordic.ko.xz");
	rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "3", "--object", mod);
	ck_assert_msg(rc == 0, "exit %d\n%s", rc, out);
	HAS(out, "fuzz: seed 1, scheme callops (arm64), object ");
	HAS(out, "cordic.ko.xz (1 traced functions), mutate none, 3 iterations");
	HAS(out, "fuzz: seed 1: 3 iterations in ");
	HAS(out, ", 0 violating iterations");
	free(out);

	snprintf(replay, sizeof(replay), "%s/object-fuzz.scn", b);
	remove(replay);
	rc = FTV_RUN(&out, "fuzz", "--seed", "1", "--iterations", "20", "--mutate",
		     "bl-before-literal", "--object", mod, "--out", replay);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	HAS(out, "found nop-ops");
	HAS(out, "ftrace_nop_ops called at cordic_calc_iq+0x4/0xf0 [cordic]");
	free(out);
	{
		FILE *f = fopen(replay, "r");
		size_t len = 0;

		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(getdelim(&text, &len, 0, f) > 0, 1);
		fclose(f);
	}
	char want[4300];

	snprintf(want, sizeof(want), "\nobject   %s\n", mod);
	HAS(text, want);
	/* no enable-modules line needed: the shrink drops it, a module given
	 * by path being enabled as it loads (verify/scenario.c) */
	ck_assert_msg(!strstr(text, "\nmodule-load"), "%s", text);
	/* the ops traces the module's one function (a filter naming it,
	 * or none once the shrink dropped it) */
	HAS(text, "\nregister t1\n");
	if (strstr(text, "\nfilter   t1 "))
		HAS(text, "\nfilter   t1 cordic_calc_iq\n");
	free(text);
	rc = FTV_RUN(&out, "fuzz", "--replay", replay);
	ck_assert_msg(rc == 1, "exit %d\n%s", rc, out);
	HAS(out, "VIOLATION nop-ops cpu");
	free(out);

	/* --call without --object, an --object that is not there */
	rc = FTV_RUN(&out, "fuzz", "--call", "f", "--iterations", "1");
	ck_assert_msg(rc == 2, "exit %d\n%s", rc, out);
	HAS(out, "--call names functions of --object, and there is none");
	free(out);
	rc = FTV_RUN(&out, "fuzz", "--object", "/nonexistent/x.ko.zst", "--iterations", "1");
	ck_assert_msg(rc == 2, "exit %d\n%s", rc, out);
	HAS(out, "--object: /nonexistent/x.ko.zst: No such file or directory");
	free(out);
}
END_TEST

static Suite *object_suite(void)
{
	Suite *s = suite_create("object");
	TCase *tc = tcase_create("object");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, debian_module_in_a_scenario);
	tcase_add_test(tc, every_compression_runs_the_same);
	tcase_add_test(tc, large_module_no_false_alarm);
	tcase_add_test(tc, compiled_objects_by_path);
	tcase_add_test(tc, object_and_call_lines);
	tcase_add_test(tc, unusable_objects_are_named);
	tcase_add_test(tc, fuzz_a_debian_module);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(object, object_suite)
