/* Patch-site discovery over the corpus: every layout GCC 12 emits is
 * recognised, counts match an independent pyelftools count, alignment is
 * judged as the "Misaligned patch-site" warnings need (misaligned vs
 * aligned only by chance),
 * and `ftv load` prints it all. */
#include "tests/suite.h"
#include "encoders/a64.h"
#include "sim/image.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXF 16

/* The sorted .o files of $FTV_BUILD/corpus/<set>, without weak.o and
 * hooks.o: hooks.c overrides weak.c's weak functions, whose entries then
 * name no function entry (world_table.c reads them as the entries
 * scripts/sorttable zeroes), where these tests count every entry as a
 * site; weak_overridden_functions_lose_their_sites loads them. */
static int set_files(const char *set, char files[MAXF][512])
{
	char dir[512];
	struct dirent *d;
	DIR *dp;
	int n = 0;

	ftv_test_path(dir, sizeof(dir), "FTV_BUILD", "corpus/");
	strncat(dir, set, sizeof(dir) - strlen(dir) - 1);
	dp = opendir(dir);
	ck_assert_msg(dp, "no corpus set %s", dir);
	while ((d = readdir(dp)) && n < MAXF) {
		size_t l = strlen(d->d_name);

		if (l > 2 && !strcmp(d->d_name + l - 2, ".o") &&
		    strcmp(d->d_name, "weak.o") && strcmp(d->d_name, "hooks.o"))
			snprintf(files[n++], 512, "%s/%s", dir, d->d_name);
	}
	closedir(dp);
	qsort(files, n, 512, (int (*)(const void *, const void *))strcmp);
	ck_assert_int_gt(n, 0);
	return n;
}

static struct sim_image *load_set(struct sim_aspace *as, const char *set,
				  int stub)
{
	char files[MAXF][512];
	int n = set_files(set, files);
	struct sim_load_opts o = { .stub_undefined = stub };
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err = { "" };

	for (int i = 0; i < n; i++)
		ck_assert_msg(!sim_image_add_file(img, files[i], 0, &err), "%s",
			      err.msg);
	ck_assert_msg(!sim_image_link(img, &err), "%s: %s", set, err.msg);
	return img;
}

struct tally {
	size_t n, kind[FTV_SITE_NKINDS], bti, pac, misaligned, by_chance;
};

static struct tally tally(struct sim_image *img)
{
	struct tally t = { 0 };

	t.n = sim_image_nsites(img);
	for (size_t i = 0; i < t.n; i++) {
		const struct sim_site *s = sim_image_site(img, i);

		t.kind[s->kind]++;
		t.bti += s->bti;
		t.pac += s->pac;
		t.misaligned += !s->aligned;
		t.by_chance += s->aligned_by_chance;
	}
	return t;
}

static size_t ndiag(struct sim_image *img, enum sim_diag_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < sim_image_ndiags(img); i++)
		n += sim_image_diag(img, i)->kind == k;
	return n;
}

static uint32_t rd(struct sim_aspace *as, uint64_t a)
{
	uint32_t w = 0;

	ck_assert_int_eq(sim_read32(as, a, &w), 0);
	return w;
}

START_TEST(callops_aligned_build_has_no_alignment_diagnostics)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load_set(as, "callops", 0);
	struct tally t = tally(img);

	ck_assert_uint_gt(t.n, 40);
	ck_assert_uint_eq(t.kind[FTV_SITE_CALL_OPS], t.n);
	ck_assert_uint_eq(t.misaligned, 0);
	ck_assert_uint_eq(t.by_chance, 0);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_MISALIGNED), 0);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_ALIGNED_BY_CHANCE), 0);
	for (size_t i = 0; i < t.n; i++) {
		const struct sim_site *s = sim_image_site(img, i);

		/* func-8: literal NOPs; func: NOP (mov x9) NOP (bl) */
		ck_assert_uint_eq(s->literal, s->func - 8);
		ck_assert_uint_eq(s->mov_addr, s->func);
		ck_assert_uint_eq(s->addr, s->func + 4);
		ck_assert(a64_is_nop(rd(as, s->literal)));
		ck_assert(a64_is_nop(rd(as, s->addr)));
		ck_assert_uint_eq(s->literal & 7, 0);
		ck_assert_str_ne(s->funcname, "?");
	}
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(os_build_sites_are_misaligned_or_aligned_by_chance)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load_set(as, "callops-os", 0);
	struct tally t = tally(img);
	int seen = 0;

	/* GCC 12 drops -falign-functions at -Os: every .text has
	 * sh_addralign 4, so no site is aligned by construction. */
	ck_assert_uint_gt(t.n, 40);
	ck_assert_uint_gt(t.misaligned, 0);
	ck_assert_uint_eq(t.misaligned + t.by_chance, t.n);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_MISALIGNED), t.misaligned);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_ALIGNED_BY_CHANCE), t.by_chance);
	for (size_t i = 0; i < sim_image_ndiags(img); i++)
		seen |= !strncmp(sim_image_diag(img, i)->text,
				 "Misaligned patch-site ", 22);
	ck_assert(seen);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(cold_functions_lose_their_alignment_guarantee)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load_set(as, "cold", 0);
	struct tally t = tally(img);

	ck_assert_uint_ge(t.n, 5);
	ck_assert_uint_gt(t.misaligned + t.by_chance, 0);
	for (size_t i = 0; i < t.n; i++) {
		const struct sim_site *s = sim_image_site(img, i);

		/* only .text.unlikely (sh_addralign 4) is at risk */
		ck_assert_int_eq(!s->aligned || s->aligned_by_chance,
				 !strcmp(s->section, ".text.unlikely"));
	}
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

/* Why GCC 12 kernels warned "Misaligned patch-site": a site aligned by
 * chance flips to misaligned when something of size 4 mod 8 is linked
 * before it. */
START_TEST(aligned_by_chance_depends_on_link_order)
{
	char files[MAXF][512];
	int n = set_files("callops-os", files), found = 0;

	for (int y = 0; y < n && !found; y++) {
		for (int x = 0; x < n && !found; x++) {
			struct sim_aspace *a1 = sim_aspace_new(), *a2 = sim_aspace_new();
			struct sim_load_opts o = { .stub_undefined = 1 };
			struct sim_image *i1 = sim_image_new(a1, &o);
			struct sim_image *i2 = sim_image_new(a2, &o);
			const struct sim_object_info *oy;
			struct ftv_err err;
			uint64_t text = 0;
			size_t base, nexec = 0;

			if (x == y)
				goto next;
			ck_assert(!sim_image_add_file(i1, files[x], 0, &err));
			ck_assert(!sim_image_link(i1, &err));
			ck_assert(!sim_image_add_file(i2, files[y], 0, &err));
			ck_assert(!sim_image_add_file(i2, files[x], 0, &err));
			ck_assert(!sim_image_link(i2, &err));
			oy = sim_image_object(i2, 0);
			for (size_t k = 0; k < oy->nsections; k++)
				if (oy->sections[k].flags & 4) {
					text += oy->sections[k].size;
					nexec++;
				}
			/* (an object with text in several sections, each
			 * aligned on its own, is no "size 4 mod 8": bpf.o's
			 * trampoline images) */
			if (text % 8 != 4 || nexec != 1 || !sim_image_nsites(i1))
				goto next;
			base = sim_image_nsites(i2) - sim_image_nsites(i1);
			for (size_t k = 0; k < sim_image_nsites(i1); k++) {
				const struct sim_site *s1 = sim_image_site(i1, k);
				const struct sim_site *s2 = sim_image_site(i2, base + k);

				ck_assert_str_eq(s1->funcname, s2->funcname);
				ck_assert_int_ne(s1->aligned, s2->aligned);
				ck_assert_int_eq(s1->aligned_by_chance, s1->aligned);
			}
			found = 1;
next:
			sim_image_free(i1);
			sim_image_free(i2);
			sim_aspace_free(a1);
			sim_aspace_free(a2);
		}
	}
	ck_assert_msg(found, "no -Os object with text size 4 mod 8");
}
END_TEST

START_TEST(bti_and_pac_entries_are_recognised)
{
	struct sim_aspace *a1 = sim_aspace_new(), *a2 = sim_aspace_new();
	struct sim_image *bti = load_set(a1, "callops-bti", 0);
	struct sim_image *pac = load_set(a2, "callops-pac", 0);
	struct tally tb = tally(bti), tp = tally(pac);

	ck_assert_uint_gt(tb.bti, 0);
	ck_assert_uint_eq(tb.kind[FTV_SITE_CALL_OPS], tb.n);
	for (size_t i = 0; i < tb.n; i++) {
		const struct sim_site *s = sim_image_site(bti, i);

		ck_assert_uint_eq(rd(a1, s->func) == a64_gen_bti(A64_BTI_C), s->bti);
		ck_assert_uint_eq(s->mov_addr, s->func + 4 * s->bti);
		ck_assert_uint_eq(s->addr, s->mov_addr + 4);
		ck_assert_uint_eq(s->literal, s->func - 8);
	}
	ck_assert_uint_gt(tp.pac, 0);
	ck_assert_uint_eq(tp.bti, 0);
	for (size_t i = 0; i < tp.n; i++) {
		const struct sim_site *s = sim_image_site(pac, i);

		ck_assert_uint_eq(a64_is_paciasp(rd(a2, s->addr + 4)), s->pac);
	}
	sim_image_free(bti);
	sim_image_free(pac);
	sim_aspace_free(a1);
	sim_aspace_free(a2);
}
END_TEST

START_TEST(args_and_mcount_layouts_are_recognised)
{
	struct sim_aspace *a1 = sim_aspace_new(), *a2 = sim_aspace_new();
	struct sim_image *args = load_set(a1, "args", 0);
	struct sim_image *mc = load_set(a2, "mcount", 1);
	struct tally ta = tally(args), tm = tally(mc);
	uint64_t mcount = sim_image_lookup(mc, "_mcount");

	ck_assert_uint_gt(ta.n, 40);
	ck_assert_uint_eq(ta.kind[FTV_SITE_ARGS], ta.n);
	for (size_t i = 0; i < ta.n; i++) {
		const struct sim_site *s = sim_image_site(args, i);

		ck_assert_uint_eq(s->entry, s->func);
		ck_assert_uint_eq(s->addr, s->func + 4);
		ck_assert_uint_eq(s->literal, 0);
		ck_assert(a64_is_nop(rd(a1, s->mov_addr)));
	}
	ck_assert_uint_gt(tm.n, 40);
	ck_assert_uint_eq(tm.kind[FTV_SITE_MCOUNT], tm.n);
	ck_assert_str_eq(sim_image_stub_name(mc, mcount), "_mcount");
	for (size_t i = 0; i < tm.n; i++) {
		const struct sim_site *s = sim_image_site(mc, i);
		uint32_t w = rd(a2, s->addr);
		int64_t off = (int64_t)((uint64_t)(w & 0x3ffffff) << 38) >> 36;

		ck_assert(a64_is_bl(w));
		ck_assert_uint_eq(s->addr + off, mcount);
		ck_assert_uint_ge(s->addr, s->func);
		ck_assert_str_ne(s->funcname, "?");
	}
	sim_image_free(args);
	sim_image_free(mc);
	sim_aspace_free(a1);
	sim_aspace_free(a2);
}
END_TEST

/* Site counts equal the entries of __patchable_function_entries plus the
 * CALL26 relocations against _mcount, counted by pyelftools. */
static void check_counts(const char *set, int stub)
{
	char files[MAXF][512], script[512], *out = NULL;
	const char *py = getenv("PYTHON");
	char *argv[MAXF + 3];
	int n = set_files(set, files);
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load_set(as, set, stub);
	size_t expect = 0;

	ftv_test_path(script, sizeof(script), "FTV_TOP",
		      "tests/data/count_sites.py");
	argv[0] = (char *)(py && *py ? py : "/usr/bin/python3");
	argv[1] = script;
	for (int i = 0; i < n; i++)
		argv[2 + i] = files[i];
	argv[2 + n] = NULL;
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	for (char *p = out; (p = strstr(p, " pfe=")); p++) {
		unsigned long a, b;

		ck_assert_int_eq(sscanf(p, " pfe=%lu mcount=%lu", &a, &b), 2);
		expect += a + b;
	}
	ck_assert_uint_gt(expect, 0);
	ck_assert_uint_eq(sim_image_nsites(img), expect);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_BAD_ENTRY), 0);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_UNEXPECTED_INSN), 0);
	free(out);
	sim_image_free(img);
	sim_aspace_free(as);
}

START_TEST(site_counts_match_pyelftools)
{
	static const char *const sets[] = { "callops", "callops-bti",
		"callops-pac", "callops-os", "cold", "args", "random" };

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		check_counts(sets[i], 0);
	check_counts("mcount", 1);
}
END_TEST

START_TEST(load_command_reports_text_and_valid_json)
{
	char ftvcmd[1024], cmd[4096], *out = NULL;
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };
	const char *b = ftv_test_env("FTV_BUILD");

	snprintf(ftvcmd, sizeof(ftvcmd), "%s load", ftv_test_env("FTV"));
	snprintf(cmd, sizeof(cmd), "%s %s/corpus/callops-os/*.o", ftvcmd, b);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "Misaligned patch-site "));
	ck_assert_ptr_nonnull(strstr(out, "aligned only by chance"));
	ck_assert_ptr_nonnull(strstr(out, "\nsites: "));
	ck_assert_ptr_nonnull(strstr(out, "  .text "));
	free(out);
	/* one JSON object, parsed by Python, with the same site count */
	snprintf(cmd, sizeof(cmd),
		 "%s --json --stub-undefined %s/corpus/mcount/*.o | /usr/bin/python3 -c '"
		 "import json,sys; d=json.load(sys.stdin); s=d[\"sites\"];"
		 "assert all(set(x)>={\"func\",\"addr\",\"layout\",\"aligned\",\"aligned_by_chance\"} for x in s);"
		 "assert d[\"site_counts\"][\"mcount\"]==len(s)>0;"
		 "print(\"ok\", len(s), d[\"stubs\"])'", ftvcmd, b);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(!strncmp(out, "ok ", 3) && strstr(out, "'_mcount'"), "%s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --json %s/corpus/cold/cold.o", ftvcmd, b);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "\"aligned_by_chance\":true"));
	ck_assert_ptr_nonnull(strstr(out, "\"kind\":\"misaligned\""));
	free(out);
	snprintf(cmd, sizeof(cmd), "%s --bogus x.o", ftvcmd);
	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	free(out);
}
END_TEST

START_TEST(bad_entries_are_reported_like_the_kernel)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char path[512];
	static const char *const want[] = {
		"patch-site entry 1 of __patchable_function_entries is zero",
		"patch-site entry 2 (0x",
		"patch-site good_fn+0x4/0xc in ",
		"unexpected insn in patch-site bad_fn: 0xd2800020",
		"unexpected insn in patch-site args_fn: 0x91000400",
	};

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/asm/badsites.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	ck_assert_uint_eq(sim_image_nsites(img), 1);
	ck_assert_str_eq(sim_image_site(img, 0)->funcname, "good_fn");
	ck_assert_uint_eq(sim_image_ndiags(img), 5);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_BAD_ENTRY), 3);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_UNEXPECTED_INSN), 2);
	for (size_t i = 0; i < 5; i++)
		ck_assert_msg(strstr(sim_image_diag(img, i)->text, want[i]),
			      "%s", sim_image_diag(img, i)->text);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

/* hooks.c overrides two of weak.c's weak hooks: calls bind to hooks.c, the
 * losers' code stays and their entries name no function entry any more
 * (the entries scripts/sorttable zeroes in vmlinux), so only the winners
 * and weak.c's other functions are sites. */
START_TEST(weak_overridden_functions_lose_their_sites)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char path[512];
	unsigned clock = 0, scale = 0, limit = 0;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/weak.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/hooks.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	for (size_t i = 0; i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		clock += !strcmp(s->funcname, "hook_clock_read");
		scale += !strcmp(s->funcname, "hook_scale");
		limit += !strcmp(s->funcname, "hook_limit");
		if (!strcmp(s->funcname, "hook_clock_read"))
			ck_assert_ptr_nonnull(strstr(s->object, "hooks.o"));
	}
	ck_assert_uint_eq(clock, 1);
	ck_assert_uint_eq(scale, 1);
	ck_assert_uint_eq(limit, 1);
	ck_assert_uint_eq(sim_image_nsites(img), 4);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_BAD_ENTRY), 2);
	ck_assert_uint_eq(sim_image_lookup(img, "hook_clock_read"),
			  sim_image_site(img, 2)->func);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(debug_relocations_are_counted_not_applied)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_load_opts opts = { .stub_undefined = 1 };
	struct sim_image *img = sim_image_new(as, &opts);
	struct ftv_err err = { "" };
	char path[512];
	const struct sim_object_info *o;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/debug/list.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	o = sim_image_object(img, 0);
	ck_assert_uint_gt(o->nrelocs_skipped, 50);
	ck_assert_uint_ge(o->nrelsecs_skipped, 3);
	ck_assert_uint_eq(ndiag(img, SIM_DIAG_SKIPPED_RELOCS), 1);
	for (size_t i = 0; i < sim_image_ndiags(img); i++)
		if (sim_image_diag(img, i)->kind == SIM_DIAG_SKIPPED_RELOCS)
			ck_assert_ptr_nonnull(strstr(sim_image_diag(img, i)->text,
						     ".rela.debug_info"));
	for (size_t i = 0; i < o->nsections; i++)
		ck_assert(strncmp(o->sections[i].name, ".debug", 6));
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

/* gen_random_c.py: the same seed gives the same file (the one the build
 * compiled), another seed another file. */
START_TEST(random_units_are_reproducible_from_their_seed)
{
	char gen[512], built[512], cmd[4096], *out = NULL;
	char *argv[] = { "/bin/sh", "-c", cmd, NULL };

	ftv_test_path(gen, sizeof(gen), "FTV_TOP", "corpus/gen_random_c.py");
	ftv_test_path(built, sizeof(built), "FTV_BUILD", "corpus/random/rand1.c");
	snprintf(cmd, sizeof(cmd),
		 "/usr/bin/python3 %s --seed 1 --prefix r1_ | cmp - %s && "
		 "! /usr/bin/python3 %s --seed 2 --prefix r1_ | cmp -s - %s && "
		 "/usr/bin/python3 %s --seed 1 --prefix r1_ | grep -c '^[a-z ]*long r1_f[0-9]*(long a, long b)$'",
		 gen, built, gen, built, gen);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(atoi(out) >= 40, "%s", out);
	free(out);
}
END_TEST

static Suite *sites_suite(void)
{
	Suite *s = suite_create("sites");
	TCase *tc = tcase_create("sites");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, callops_aligned_build_has_no_alignment_diagnostics);
	tcase_add_test(tc, os_build_sites_are_misaligned_or_aligned_by_chance);
	tcase_add_test(tc, cold_functions_lose_their_alignment_guarantee);
	tcase_add_test(tc, aligned_by_chance_depends_on_link_order);
	tcase_add_test(tc, bti_and_pac_entries_are_recognised);
	tcase_add_test(tc, args_and_mcount_layouts_are_recognised);
	tcase_add_test(tc, site_counts_match_pyelftools);
	tcase_add_test(tc, load_command_reports_text_and_valid_json);
	tcase_add_test(tc, bad_entries_are_reported_like_the_kernel);
	tcase_add_test(tc, weak_overridden_functions_lose_their_sites);
	tcase_add_test(tc, debug_relocations_are_counted_not_applied);
	tcase_add_test(tc, random_units_are_reproducible_from_their_seed);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(sites, sites_suite)
