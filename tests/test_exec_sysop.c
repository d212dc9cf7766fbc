/* The arm64 executor classifies system instructions and memory accesses
 * through the encoder table (executor/exec_arm64.c, reached through its arch
 * table xarch_arm64.sysop and .is_memory). Its answers are the
 * fetch model's behaviour, so they must be the ones the executor gave when
 * it decoded with masks of its own: the reference below is that earlier
 * decoder, kept here only as the specification being pinned (Arm ARM C6.2
 * ISB/DSB/DMB/DC/IC, C4.1 "Loads and Stores"), with what herd's catalogue
 * added to it: the barriers' access types, IC IALLU, ERET, and STLR and
 * LDAR, taken as DMB ST and DMB LD (the release's earlier stores leave the
 * buffer first; the acquire orders the CPU's later loads, Arm ARM
 * B2.3.7). */
#include "executor/exec_arch.h"
#include "tests/suite.h"
#include "util/rng.h"

static enum xsysop reference(uint32_t w, unsigned *rt)
{
	/* the barriers' access types, CRm<1:0> (C6.2.88, C6.2.90): 01 loads,
	 * 10 stores, otherwise all (herd's dmb.ld, dmb.st, dmb.full) */
	unsigned type = (w >> 8) & 3;

	*rt = w & 31;
	if ((w & 0xfffff0ffu) == 0xd50330dfu)
		return XS_ISB;
	if ((w & 0xfffff0ffu) == 0xd503309fu)
		return type == 1 ? XS_DSB_LD : type == 2 ? XS_DSB_ST : XS_DSB;
	if ((w & 0xfffff0ffu) == 0xd50330bfu)
		return type == 1 ? XS_DMB_LD : type == 2 ? XS_DMB_ST : XS_DMB;
	if (w == 0xd508751fu) /* ic iallu (C6.2.136) */
		return XS_IC_ALL;
	if (w == 0xd69f03e0u) /* eret (C6.2.101) */
		return XS_ERET;
	if ((w & 0xbffffc00u) == 0x889ffc00u) /* stlr (C6.2.357) */
		return XS_DMB_ST;
	if ((w & 0xbffffc00u) == 0x88dffc00u) /* ldar (C6.2.158) */
		return XS_DMB_LD;
	switch (w & 0xffffffe0u) {
	case 0xd50b7b20u: /* dc cvau */
	case 0xd50b7a20u: /* dc cvac */
	case 0xd50b7e20u: /* dc civac */
		return XS_DC_CVAU;
	case 0xd50b7520u: /* ic ivau */
		return XS_IC_IVAU;
	}
	return XS_NONE;
}

static int reference_is_memory(uint32_t w)
{
	unsigned rt;

	return (w & 0x0a000000u) == 0x08000000u || reference(w, &rt) != XS_NONE;
}

/* The executor register a DC/IC names: Xt, or -1 for XZR (Xt = 31). */
static int reg_of(unsigned rt)
{
	return rt == 31 ? -1 : (int)rt;
}

/* 0 when the executor agrees with the reference on w. */
static int differs(uint32_t w)
{
	int reg = 99;
	unsigned ref_rt;
	enum xsysop op = xarch_arm64.sysop(w, &reg), ref = reference(w, &ref_rt);

	if (op != ref)
		return 1;
	if ((op == XS_DC_CVAU || op == XS_IC_IVAU) && reg != reg_of(ref_rt))
		return 1;
	return xarch_arm64.is_memory(w) != reference_is_memory(w);
}

START_TEST(sysops_by_table_match_the_executors_earlier_decoder_on_every_system_word)
{
	int bad = 0;
	uint32_t first = 0;

	/* every word of the system-instruction space (1101 0101 ...) */
	for (uint32_t w = 0xd5000000u; w <= 0xd5ffffffu; w++)
		if (differs(w) && !bad++)
			first = w;
	ck_assert_msg(!bad, "%d words differ, first 0x%08x", bad, first);
}
END_TEST

START_TEST(memory_words_by_table_match_the_executors_earlier_decoder)
{
	struct ftv_rng rng;
	int bad = 0;
	uint32_t first = 0;

	ftv_rng_seed(&rng, 0x5e5095ULL);
	for (int k = 0; k < 2000000; k++) {
		uint32_t w = (uint32_t)ftv_rng_next(&rng);

		if (differs(w) && !bad++)
			first = w;
	}
	ck_assert_msg(!bad, "%d words differ, first 0x%08x", bad, first);
}
END_TEST

START_TEST(cache_maintenance_names_its_address_register)
{
	const struct xarch *a = xarch_get(FTV_ARCH_ARM64);
	int reg = 0;

	ck_assert_int_eq(a->sysop(0xd50b7b23, &reg), XS_DC_CVAU); /* dc cvau, x3 */
	ck_assert_int_eq(reg, 3);
	ck_assert_int_eq(a->sysop(0xd50b7e3f, &reg), XS_DC_CVAU); /* dc civac, xzr */
	ck_assert_int_eq(reg, -1);
	ck_assert_int_eq(a->sysop(0xd50b7531, &reg), XS_IC_IVAU); /* ic ivau, x17 */
	ck_assert_int_eq(reg, 17);
	ck_assert_int_eq(a->sysop(0xd503309f, &reg), XS_DSB);     /* ssbb */
	ck_assert_int_eq(a->sysop(0xd50330df, &reg), XS_ISB);     /* isb #0 */
	ck_assert_int_eq(a->sysop(0xd5033bbf, &reg), XS_DMB);     /* dmb ish */
	ck_assert_int_eq(a->sysop(0xd503201f, &reg), XS_NONE);    /* nop */
	ck_assert(a->is_memory(0xa9bf7bfd));  /* stp x29, x30, [sp, #-16]! */
	ck_assert(!a->is_memory(0x8b020020)); /* add x0, x1, x2 */
}
END_TEST

static Suite *exec_sysop_suite(void)
{
	Suite *s = suite_create("exec_sysop");
	TCase *tc = tcase_create("sysop");

	tcase_add_test(tc, sysops_by_table_match_the_executors_earlier_decoder_on_every_system_word);
	tcase_add_test(tc, memory_words_by_table_match_the_executors_earlier_decoder);
	tcase_add_test(tc, cache_maintenance_names_its_address_register);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_sysop, exec_sysop_suite)
