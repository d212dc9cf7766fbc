/* ftv replay: a captured kernel layout's callsites mapped at their addresses,
 * init_nop'ed and patched in batches while CPUs call them. The fixture
 * (tests/data/replay-fixture.layout) has one site of each kind the report
 * names; the module fixture (tests/data/replay-modules.layout) one module
 * of each kind (placed by the loader, loaded far away with its PLT, live
 * without it, unplaceable); the Debian layout, kernel and 1,083 modules, is
 * replayed whole (`make bench` times it). */
#include "tests/suite.h"
#include "sim/image.h"
#include "verify/replay_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIXTURE "tests/data/replay-fixture.layout"
#define MODULES "tests/data/replay-modules.layout"
#define DEBIAN "corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz"

static int replay(char **out, const char *layout, const char *a1,
		  const char *a2, const char *a3, const char *a4)
{
	char path[4096];

	ftv_test_path(path, sizeof(path), "FTV_TOP", layout);
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", path,
			 (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	return ftv_test_run(argv, out);
}

#define HAS(out, s) ck_assert_msg(strstr(out, s), "no \"%s\" in:\n%s", s, out)

/* The same seed replays bit for bit: equal reports but for the time. */
static char *without_time(char *out)
{
	char *t = strstr(out, "time: ");

	if (t)
		*t = 0;
	return out;
}

/* Replay finds its arch's parts in the world's arch table: arm64's, with the
 * layout arch of the same name; an arch without them is refused by name. */
START_TEST(replay_reads_its_arch_parts_from_the_world_arch_table)
{
	struct ftv_err err = { "" };
	const struct world_replaydesc *rd = replay_arch("arm64", "k.layout", &err);

	ck_assert_ptr_nonnull(rd);
	ck_assert_ptr_eq(rd, world_archdesc(FTV_ARCH_ARM64)->replay);
	ck_assert_ptr_eq(rd->layout, sim_layout_arch_named("arm64"));
	ck_assert_int_eq(rd->layout->ftrace_plt_size % 4, 0);
	ck_assert_uint_le(rd->layout->ftrace_plt_size / 4, REPLAY_PLT_MAX_WORDS);
	ck_assert(rd->call_reaches(0x1000, 0x1000 + (128u << 20) - 4));
	ck_assert(!rd->call_reaches(0x1000, 0x1000 + (128u << 20)));
	ck_assert_ptr_null(replay_arch("riscv64", "k.layout", &err));
	ck_assert_str_eq(err.msg, "k.layout: arch riscv64: replay models arm64 kernels");
	ck_assert_ptr_null(replay_arch(NULL, "k.layout", &err));
	ck_assert_str_eq(err.msg, "k.layout: arch -: replay models arm64 kernels");
	/* every arch the table gives replay parts to has its layout arch */
	for (size_t i = 0; world_arch_at(i); i++) {
		const struct world_archdesc *ad = world_arch_at(i);

		if (ad->replay)
			ck_assert_ptr_eq(ad->replay->layout, sim_layout_arch_of(ad->arch));
	}
}
END_TEST

START_TEST(fixture_reports_each_kind_of_site_and_replays_by_seed)
{
	char *out = NULL, *again = NULL;
	int rc = replay(&out, FIXTURE, "--cpus", "2", "--seed", "7");

	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
	HAS(out, "kernel: 6.12.0-ftv-fixture, arch arm64, absolute addresses, 2 text ranges\n");
	HAS(out, "sites: 5 in the layout, 5 in the kernel's table (6 entries - 1 null): match\n");
	HAS(out, "misaligned: 1\n  Misaligned patch-site f_mis+0x0/0x20: literal at "
		 "0xffff800080010104 is not 8-byte aligned; words "
		 "d503201f:d503201f:d503201f:d503201f:d503233f:a9bf7bfd\n");
	/* the trampolines are linked right after the captured text */
	HAS(out, "out of BL range of ftrace_caller: 1\n  f_far+0x4/0x20 [vmlinux]: BL at "
		 "0xffff80009000000c cannot reach ftrace_caller at 0xffff800080011000 "
		 "(255 MiB away, BL reaches +/-128 MiB): not replayed\n");
	/* a site captured live (MOV X9, X30 already there): init_nop's
	 * validate-before-write refuses it */
	HAS(out, "validate failures: 1\n  ftrace failed to modify [<ffff800080010148>] "
		 "f_live+0x0/0x40: actual 0xaa1e03e9, expected 0xd503201f (init_nop)\n");
	HAS(out, "misaligned 1, out of range 1, needing a PLT 0, validate failures 1, "
		 "other kinds 0\n");
	/* four CALL_OPS records (the far one too: init_nop writes no BL) */
	HAS(out, "init_nop: 4 records, 1 refused\n");
	HAS(out, "replayed: 2 sites enabled and disabled in 1 batch of 1; ");
	HAS(out, "violations: 0\n");
	ck_assert_ptr_null(strstr(out, "VIOLATION"));
	HAS(out, "peak RSS ");
	/* the calls of the batch ran through ftrace_caller to the tracer */
	ck_assert_msg(!strstr(out, " 0 tracer calls"), "%s", out);
	ck_assert_int_eq(replay(&again, FIXTURE, "--cpus", "2", "--seed", "7"), 0);
	ck_assert_str_eq(without_time(out), without_time(again));
	free(out);
	free(again);
}
END_TEST

START_TEST(json_carries_the_counts)
{
	char *out = NULL;

	ck_assert_int_eq(replay(&out, FIXTURE, "--json", "--cpus", "2", NULL), 0);
	HAS(out, "\"sites\":5,\"table_sites\":5,\"misaligned\":1,\"out_of_range\":1,"
		 "\"need_plt\":0,\"other_kind\":0,\"validate_failures\":1,\"replayed\":2,"
		 "\"batches\":1,");
	HAS(out, "\"violations\":0,");
	free(out);
}
END_TEST

/* A layout whose site count differs from the kernel's table: exit 2 and
 * one line saying so. */
START_TEST(count_mismatch_with_the_table_fails)
{
	char src[4096], path[4200], line[512], *out = NULL;
	FILE *in, *f;

	ftv_test_path(src, sizeof(src), "FTV_TOP", FIXTURE);
	snprintf(path, sizeof(path), "%s/replay-mismatch.layout", ftv_test_env("FTV_BUILD"));
	in = fopen(src, "r");
	f = fopen(path, "w");
	ck_assert(in && f);
	while (fgets(line, sizeof(line), in))
		fputs(strcmp(line, "# table-entries: 6\n") ? line : "# table-entries: 7\n", f);
	fclose(in);
	fclose(f);
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", path, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	HAS(out, "ftv replay: ");
	HAS(out, "replay-mismatch.layout: 5 sites, but the kernel's table has 7 entries "
		 "- 1 null = 6: the capture lost or invented sites\n");
	free(out);
}
END_TEST

START_TEST(bad_usage_and_missing_file_exit_2)
{
	char *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", NULL };
	char *argv2[] = { (char *)ftv_test_env("FTV"), "replay", "/nonexistent.layout", NULL };
	char *argv3[] = { (char *)ftv_test_env("FTV"), "replay", "--batch", "x", "a", NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	free(out);
	ck_assert_int_eq(ftv_test_run(argv2, &out), 2);
	HAS(out, "/nonexistent.layout");
	free(out);
	ck_assert_int_eq(ftv_test_run(argv3, &out), 2);
	free(out);
}
END_TEST

/* The Debian kernel and its modules, the whole of them: all 96,618 sites
 * counted against the kernels' own tables, every module placed where the
 * loader puts it (all 1,083 fit in the 128 MiB below the image, so no site
 * needs a PLT), init_nop'ed, and every site enabled and disabled while 4
 * CPUs call them, without a violation. The counts are pinned: the same
 * seed replays the same run. Under the sanitizers (ten times slower) only
 * the first 3 batches run. */
START_TEST(debian_full_replay_matches_the_table_and_runs_clean)
{
	int san = getenv("FTV_SANITIZED") != NULL;
	char *out = NULL;
	int rc = san ? replay(&out, DEBIAN, "--batches", "3", NULL, NULL)
		     : replay(&out, DEBIAN, NULL, NULL, NULL, NULL);

	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
	HAS(out, "kernel: 6.12.107+deb13-cloud-arm64, arch arm64, mixed addresses, "
		 "2172 text ranges\n");
	HAS(out, "modules: 1083 with 52738 sites: 0 at their captured addresses, 1083 "
		 "placed by the loader in the direct window [0xffff800079e70000, "
		 "0xffff800081e70000), 0 in the PLT window [0xffff800001e70000, "
		 "0xffff800081e70000), 0 not placed\n");
	HAS(out, "sites: 96618 in the layout, 96618 in the kernel's table "
		 "(96954 entries - 336 null): match\n");
	HAS(out, san ? "batches: 95 of up to 1024 sites on 4 CPUs, seed 1, running 3\n"
		     : "batches: 95 of up to 1024 sites on 4 CPUs, seed 1, running 95\n");
	HAS(out, "misaligned 0, out of range 0, needing a PLT 0, validate failures 0, "
		 "other kinds 0\n");
	HAS(out, "module sites: 52738, 0 not placed, 0 calling ftrace_caller through "
		 "their module's PLT\n");
	/* the kernel's records in every batch, a module's in its batches */
	HAS(out, san ? "init_nop: 43880 records, 0 refused\n"
		     : "init_nop: 96618 records, 0 refused\n");
	if (!san)
		HAS(out, "replayed: 96618 sites enabled and disabled in 95 batches of 95; "
			 "1740416 calls, 206551 tracer calls, 190 plans, 4063143 steps\n");
	HAS(out, "violations: 0\n");
	free(out);
}
END_TEST

/* The same modules as if the 128 MiB window were full: the loader puts
 * them all in the 2 GiB one, and every module site calls ftrace_caller
 * through its module's PLT. One batch of module sites. */
START_TEST(debian_far_modules_call_through_their_plts)
{
	char *out = NULL;
	int rc = replay(&out, DEBIAN, "--far-modules", "--first-batch", "60",
			"--batches=1");

	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
	HAS(out, "1083 in the PLT window [0xffff800001e70000, 0xffff800081e70000) "
		 "(--far-modules), 0 not placed\n");
	HAS(out, "batches: 95 of up to 1024 sites on 4 CPUs, seed 1, running 1 from "
		 "batch 60\n");
	HAS(out, "module sites: 52738, 0 not placed, 52738 calling ftrace_caller "
		 "through their module's PLT\n");
	HAS(out, "replayed: 1024 sites enabled and disabled in 1 batch of 95; ");
	ck_assert_msg(!strstr(out, " 0 tracer calls"), "%s", out);
	HAS(out, "violations: 0\n");
	free(out);
}
END_TEST

/* One module of each kind: m_file (read from its file: the loader model
 * places it in the direct window, within BL range), m_far (loaded 1.75
 * GiB below the kernel with its ftrace PLT captured: its two sites go
 * through it), m_live (captured live, no PLT recorded: ftv puts one after
 * its text), m_old (an older capture's section-relative sites: reported,
 * not replayed). */
START_TEST(module_fixture_places_modules_and_calls_through_plts)
{
	char *out = NULL, *again = NULL;
	int rc = replay(&out, MODULES, "--cpus", "2", "--seed", "7");

	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, out);
	HAS(out, "kernel: 6.12.0-ftv-fixture, arch arm64, mixed addresses, 6 text ranges\n"
		 "modules: 4 with 6 sites: 2 at their captured addresses, 1 placed by the "
		 "loader in the direct window [0xffff800078100000, 0xffff800080100000), "
		 "0 in the PLT window [0xffff800000100000, 0xffff800080100000), 1 not "
		 "placed\n");
	HAS(out, "modules not placed: 1 (1 site not replayed)\n  m_old (1 site): read "
		 "from its file, but the layout does not say how the loader lays it out "
		 "(no 'module:' line: recapture it)\n");
	HAS(out, "misaligned 0, out of range 0, needing a PLT 0, validate failures 0, "
		 "other kinds 0\n");
	HAS(out, "module sites: 6, 1 not placed, 3 calling ftrace_caller through their "
		 "module's PLT\n");
	HAS(out, "init_nop: 7 records, 0 refused\n");
	HAS(out, "replayed: 7 sites enabled and disabled in 1 batch of 1; ");
	ck_assert_msg(!strstr(out, " 0 tracer calls"), "%s", out);
	HAS(out, "violations: 0\n");
	ck_assert_int_eq(replay(&again, MODULES, "--cpus", "2", "--seed", "7"), 0);
	ck_assert_str_eq(without_time(out), without_time(again));
	free(out);
	free(again);
	/* in the PLT window the file's module needs its PLT too */
	ck_assert_int_eq(replay(&out, MODULES, "--cpus", "2", "--far-modules", "--json"), 0);
	HAS(out, "\"modules\":4,\"modules_captured\":2,\"modules_direct\":0,"
		 "\"modules_plt\":1,\"modules_unplaced\":1,\"module_sites\":6,"
		 "\"unplaced\":1,\"via_plt\":5,");
	HAS(out, "\"replayed\":7,");
	HAS(out, "\"violations\":0,");
	free(out);
}
END_TEST

/* The no-range-check mutant truncates the BL of a site beyond ftrace_caller's
 * reach instead of using the module's PLT: the CPUs calling m_far fault,
 * and the report says why. The fixture above is its corrected twin. */
START_TEST(no_range_check_mutant_is_caught_on_a_far_module)
{
	char *out = NULL;
	int rc = replay(&out, MODULES, "--cpus", "2", "--mutate", "no-range-check");

	ck_assert_msg(rc == 1, "exit %d:\n%s", rc, out);
	HAS(out, "batch 1: ");
	HAS(out, "VIOLATION bad-branch ");
	HAS(out, " [m_far] is 0x");
	HAS(out, "is beyond the BL's +/-128 MiB reach, so the offset was truncated "
		 "instead of going through the module's PLT");
	ck_assert_msg(!strstr(out, "violations: 0\n"), "%s", out);
	free(out);
	ck_assert_int_eq(replay(&out, MODULES, "--mutate", "atomic-rewrite-auipc", NULL,
				NULL), 2);
	HAS(out, "ftv replay: --mutate: 'atomic-rewrite-auipc' is not for ftv replay: ");
	free(out);
}
END_TEST

/* A bad module record: exit 2, one line naming the file and line. */
START_TEST(bad_module_record_is_named_by_file_and_line)
{
	char src[4096], path[4200], line[1024], *out = NULL;
	FILE *in, *f;

	ftv_test_path(src, sizeof(src), "FTV_TOP", MODULES);
	snprintf(path, sizeof(path), "%s/replay-badmod.layout", ftv_test_env("FTV_BUILD"));
	in = fopen(src, "r");
	f = fopen(path, "w");
	ck_assert(in && f);
	while (fgets(line, sizeof(line), in))
		fputs(strncmp(line, "# module: m_file ", 17) ? line :
		      "# module: m_file 1000,200,100,0,80,40,1 text+ffc\n", f);
	fclose(in);
	fclose(f);
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", path, NULL };

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	HAS(out, "replay-badmod.layout:10:1: module: m_file's ftrace PLT at text+ffc "
		 "(12 bytes) lies beyond its text (size 1000)\n");
	ck_assert_msg(strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
	free(out);
	remove(path);
}
END_TEST

/* The replay's images map no module regions (96 MiB less for every
 * batch's executor to copy) and refuse a module rather than misplace it. */
START_TEST(image_without_module_regions_refuses_modules)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_load_opts o = { .no_modules = 1 };
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err;
	char path[4096];

	ck_assert_ptr_nonnull(img);
	ck_assert_ptr_nonnull(sim_region_named(as, "kernel.text"));
	ck_assert_ptr_null(sim_region_named(as, "module.text"));
	ck_assert_ptr_null(sim_region_named(as, "module.data"));
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/list.o");
	ck_assert_int_eq(sim_image_add_file(img, path, 1, &err), -1);
	ck_assert_msg(strstr(err.msg, "list.o: this image has no module regions"), "%s", err.msg);
	ck_assert_int_eq(sim_image_add_file(img, path, 0, &err), 0);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

/* Batches run on several threads (--jobs) print what one thread prints:
 * the module fixture in batches of 2 with the far module's BLs truncated,
 * two of its four batches with violations, their lines and reports in
 * batch order; and three Debian batches, every count alike (not under
 * the sanitizers: ten times slower). */
START_TEST(jobs_do_not_change_the_output)
{
	const char *layouts[2] = { MODULES, DEBIAN };
	const char *extra[2][4] = {
		{ "--batch", "2", "--mutate", "no-range-check" },
		{ "--batch", "512", "--batches", "3" },
	};
	int n = getenv("FTV_SANITIZED") ? 1 : 2;

	for (int k = 0; k < n; k++) {
		char *one = NULL, *three = NULL;
		char path[4096];

		ftv_test_path(path, sizeof(path), "FTV_TOP", layouts[k]);
		char *a1[] = { (char *)ftv_test_env("FTV"), "replay", path, "--cpus", "2",
			       (char *)extra[k][0], (char *)extra[k][1],
			       (char *)extra[k][2], (char *)extra[k][3], "--jobs", "1",
			       NULL };
		char *a3[] = { (char *)ftv_test_env("FTV"), "replay", path, "--cpus", "2",
			       (char *)extra[k][0], (char *)extra[k][1],
			       (char *)extra[k][2], (char *)extra[k][3], "--jobs", "3",
			       NULL };
		int rc1 = ftv_test_run(a1, &one), rc3 = ftv_test_run(a3, &three);

		ck_assert_int_eq(rc3, rc1);
		ck_assert_int_eq(rc1, k == 0 ? 1 : 0);
		if (k == 0) {
			HAS(one, "batch 3: 6 violations (see below)\nbatch 4: 6 violations");
			HAS(one, "replayed: 7 sites enabled and disabled in 4 batches of 4; ");
		} else {
			HAS(one, "replayed: 1536 sites enabled and disabled in 3 batches of 189; ");
		}
		ck_assert_str_eq(without_time(three), without_time(one));
		free(one);
		free(three);
	}
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");

	tcase_add_test(tc, replay_reads_its_arch_parts_from_the_world_arch_table);
	tcase_add_test(tc, fixture_reports_each_kind_of_site_and_replays_by_seed);
	tcase_add_test(tc, json_carries_the_counts);
	tcase_add_test(tc, count_mismatch_with_the_table_fails);
	tcase_add_test(tc, bad_usage_and_missing_file_exit_2);
	tcase_add_test(tc, image_without_module_regions_refuses_modules);
	tcase_add_test(tc, module_fixture_places_modules_and_calls_through_plts);
	tcase_add_test(tc, no_range_check_mutant_is_caught_on_a_far_module);
	tcase_add_test(tc, bad_module_record_is_named_by_file_and_line);
	suite_add_tcase(s, tc);
	/* the whole kernel and its modules: about a minute of CPU, twice that
	 * on a loaded machine (more under the sanitizers: fewer batches) */
	tc = tcase_create("debian");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, debian_full_replay_matches_the_table_and_runs_clean);
	tcase_add_test(tc, debian_far_modules_call_through_their_plts);
	tcase_add_test(tc, jobs_do_not_change_the_output);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(replay, replay_suite)
