#include "tests/suite.h"
#include "sim/aspace.h"

#include <stdio.h>
#include <string.h>

START_TEST(map_rejects_overlap_and_misalignment)
{
	struct sim_aspace *as = sim_aspace_new();
	struct ftv_err err;

	ck_assert_ptr_nonnull(sim_map(as, "text", SIM_KERNEL_TEXT_BASE, 0x10000,
				      SIM_R | SIM_X, SIM_REGION_TEXT, &err));
	ck_assert_ptr_null(sim_map(as, "b", SIM_KERNEL_TEXT_BASE + 0x8000,
				   0x10000, SIM_R, SIM_REGION_DATA, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "overlaps text"));
	ck_assert_ptr_null(sim_map(as, "c", SIM_DATA_BASE + 4, 0x1000, SIM_R,
				   SIM_REGION_DATA, &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "not page aligned"));
	sim_aspace_free(as);
}
END_TEST

START_TEST(memory_reads_back_and_bounds_are_checked)
{
	struct sim_aspace *as = sim_aspace_new();
	uint64_t v;
	uint32_t w;

	sim_map(as, "data", SIM_DATA_BASE, 0x2000, SIM_R | SIM_W,
		SIM_REGION_DATA, NULL);
	ck_assert_int_eq(sim_write64(as, SIM_DATA_BASE + 8, 0x1122334455667788ULL), 0);
	ck_assert_int_eq(sim_read64(as, SIM_DATA_BASE + 8, &v), 0);
	ck_assert_uint_eq(v, 0x1122334455667788ULL);
	ck_assert_int_eq(sim_read32(as, SIM_DATA_BASE + 12, &w), 0);
	ck_assert_uint_eq(w, 0x11223344);
	ck_assert_int_eq(sim_read64(as, SIM_DATA_BASE + 0x1ffc, &v), -1);
	ck_assert_int_eq(sim_read32(as, SIM_DATA_BASE - 4, &w), -1);
	sim_aspace_free(as);
}
END_TEST

START_TEST(alloc_honours_alignment_and_capacity)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_region *r = sim_map(as, "text", SIM_KERNEL_TEXT_BASE, 0x1000,
				       SIM_R | SIM_X, SIM_REGION_TEXT, NULL);
	struct ftv_err err;

	ck_assert_uint_eq(sim_region_alloc(r, 4, 4, &err), SIM_KERNEL_TEXT_BASE);
	ck_assert_uint_eq(sim_region_alloc(r, 8, 8, &err), SIM_KERNEL_TEXT_BASE + 8);
	ck_assert_uint_eq(sim_region_alloc(r, 0x1000, 8, &err), 0);
	ck_assert_ptr_nonnull(strstr(err.msg, "full"));
	sim_aspace_free(as);
}
END_TEST

START_TEST(symbolize_speaks_like_the_kernel)
{
	struct sim_aspace *as = sim_aspace_new();
	char buf[128];

	sim_sym_add(as, "data_obj", 0x1000, 0x100, SIM_SYM_OBJECT, NULL);
	sim_sym_add(as, "func", 0x1000, 0x40, SIM_SYM_FUNC, "mod");
	sim_sym_add(as, "next", 0x1040, 0x10, SIM_SYM_FUNC, NULL);
	ck_assert_str_eq(sim_symbolize(as, 0x1008, buf, sizeof(buf), 0),
			 "func+0x8/0x40");
	ck_assert_str_eq(sim_symbolize(as, 0x1008, buf, sizeof(buf), 1),
			 "func+0x8/0x40 [mod]");
	ck_assert_str_eq(sim_symbolize(as, 0x1044, buf, sizeof(buf), 0),
			 "next+0x4/0x10");
	ck_assert_str_eq(sim_symbolize(as, 0x1080, buf, sizeof(buf), 0),
			 "data_obj+0x80/0x100");
	ck_assert_str_eq(sim_symbolize(as, 0x2000, buf, sizeof(buf), 0),
			 "0x0000000000002000");
	ck_assert_uint_eq(sim_sym_lookup(as, "next")->addr, 0x1040);
	ck_assert_ptr_null(sim_sym_lookup(as, "absent"));
	sim_aspace_free(as);
}
END_TEST

START_TEST(symbol_table_scales)
{
	struct sim_aspace *as = sim_aspace_new();
	char name[32], buf[64];

	for (int i = 0; i < 60000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		sim_sym_add(as, name, 0x100000 + i * 0x40ULL, 0x40, SIM_SYM_FUNC, NULL);
	}
	ck_assert_uint_eq(sim_sym_lookup(as, "f59999")->addr, 0x100000 + 59999 * 0x40ULL);
	ck_assert_str_eq(sim_symbolize(as, 0x100000 + 1234 * 0x40 + 0xc, buf,
				       sizeof(buf), 0), "f1234+0xc/0x40");
	sim_aspace_free(as);
}
END_TEST

static Suite *aspace_suite(void)
{
	Suite *s = suite_create("aspace");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, map_rejects_overlap_and_misalignment);
	tcase_add_test(tc, memory_reads_back_and_bounds_are_checked);
	tcase_add_test(tc, alloc_honours_alignment_and_capacity);
	tcase_add_test(tc, symbolize_speaks_like_the_kernel);
	tcase_add_test(tc, symbol_table_scales);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(aspace, aspace_suite)
