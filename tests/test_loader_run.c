/* The linked corpus runs: every CALL_OPS, =2 and -pg build of the corpus
 * is loaded, mapped into Unicorn and its corpus_selftest() executed; the
 * result must equal the same sources built natively for the host. This
 * checks the relocations as the CPU sees them (function pointer tables,
 * PC-relative data, calls across objects, PLT veneers of a far module). */
#include "tests/suite.h"
#include "sim/image.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicorn/unicorn.h>

#define RET_MAGIC 0xffff0000dead0000ull
#define STACK_SIZE 0x10000ull

static long host_expected(void)
{
	char path[512], *out = NULL;
	char *argv[] = { path, NULL };
	long v;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/host/selftest");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_int_eq(sscanf(out, "%ld", &v), 1);
	free(out);
	return v;
}

/* Maps every region of as into a fresh Unicorn and calls fn(). */
static uint64_t run(struct sim_aspace *as, uint64_t fn)
{
	uc_engine *uc;
	uint64_t sp = SIM_STACK_BASE + STACK_SIZE, lr = RET_MAGIC, x0 = 0, pc = 0;
	uc_err e;

	ck_assert_ptr_nonnull(sim_map(as, "stack", SIM_STACK_BASE, STACK_SIZE,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	ck_assert_int_eq(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc), UC_ERR_OK);
	for (size_t i = 0; i < sim_region_count(as); i++) {
		struct sim_region *r = sim_region_get(as, i);
		uint32_t p = (r->perms & SIM_R ? UC_PROT_READ : 0) |
			     (r->perms & SIM_W ? UC_PROT_WRITE : 0) |
			     (r->perms & SIM_X ? UC_PROT_EXEC : 0);

		ck_assert_int_eq(uc_mem_map_ptr(uc, r->base, r->size, p, r->host),
				 UC_ERR_OK);
	}
	uc_reg_write(uc, UC_ARM64_REG_SP, &sp);
	uc_reg_write(uc, UC_ARM64_REG_LR, &lr);
	e = uc_emu_start(uc, fn, RET_MAGIC, 0, 50 * 1000 * 1000);
	uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
	ck_assert_msg(e == UC_ERR_OK && pc == RET_MAGIC,
		      "emulation stopped at 0x%llx: %s", (unsigned long long)pc,
		      uc_strerror(e));
	uc_reg_read(uc, UC_ARM64_REG_X0, &x0);
	uc_close(uc);
	return x0;
}

static void add(struct sim_image *img, const char *rel, int as_module)
{
	struct ftv_err err = { "" };
	char path[512];

	ftv_test_path(path, sizeof(path), "FTV_BUILD", rel);
	ck_assert_msg(!sim_image_add_file(img, path, as_module, &err), "%s", err.msg);
}

static const char *const names[] = { "callbacks", "driver", "fsm", "klib",
				     "list", "recurse" };

static void run_set(const char *set, long expect)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char rel[128];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "corpus/%s/%s.o", set, names[i]);
		add(img, rel, 0);
	}
	if (!strcmp(set, "mcount"))
		add(img, "corpus/asm/mcount_ret.o", 0);
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	ck_assert_int_eq((long)run(as, sim_image_lookup(img, "corpus_selftest")),
			 expect);
	sim_image_free(img);
	sim_aspace_free(as);
}

START_TEST(every_build_of_the_corpus_computes_the_host_result)
{
	static const char *const sets[] = { "callops", "callops-bti",
		"callops-pac", "callops-os", "args", "mcount" };
	long expect = host_expected();

	for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++)
		run_set(sets[i], expect);
}
END_TEST

/* The driver as a far module: its calls into the "kernel" (the other
 * objects) all go through PLT veneers, and still compute the same. */
START_TEST(far_module_runs_through_its_veneers)
{
	struct sim_load_opts o = { .far_modules = 1 };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err = { "" };
	char rel[128];
	uint64_t fn;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(rel, sizeof(rel), "corpus/callops/%s.o", names[i]);
		add(img, rel, !strcmp(names[i], "driver"));
	}
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	ck_assert_uint_gt(sim_image_object(img, 1)->nveneers, 5);
	/* corpus_selftest is not exported by the module: find it by name */
	fn = 0;
	for (size_t i = 0; i < sim_sym_count(as); i++)
		if (!strcmp(sim_sym_get(as, i)->name, "corpus_selftest"))
			fn = sim_sym_get(as, i)->addr;
	ck_assert_uint_ge(fn, SIM_MODULE_FAR_BASE);
	ck_assert_uint_lt(fn, SIM_MODULE_BASE);
	ck_assert_int_eq((long)run(as, fn), host_expected());
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

static Suite *run_suite(void)
{
	Suite *s = suite_create("loader_run");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_build_of_the_corpus_computes_the_host_result);
	tcase_add_test(tc, far_module_runs_through_its_veneers);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(loader_run, run_suite)
