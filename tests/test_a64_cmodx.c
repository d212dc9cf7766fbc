/* The CMODX classifier against Arm ARM B2.2.5: exactly B, B.cond, BL, BRK,
 * CBNZ, CBZ, HVC, ISB, NOP, SMC, SVC, TBNZ, TBZ are on the list, and a pair
 * is safe only when both words are. */
#include "encoders/a64.h"
#include "tests/suite.h"

#include <string.h>

static uint32_t as(const char *text, uint64_t pc)
{
	struct ftv_err err = { "" };
	uint32_t w = 0;

	ck_assert_msg(a64_assemble(text, pc, &w, &err) == 0, "%s: %s", text, err.msg);
	return w;
}

START_TEST(table_marks_exactly_the_arm_arm_list)
{
	static const char *const list[] = { "b", "b.cond", "bl", "brk", "cbnz", "cbz", "hvc",
					    "isb", "nop", "smc", "svc", "tbnz", "tbz" };
	int seen = 0;

	for (int i = 0; i < A64_NR_INSNS; i++) {
		bool on = false;

		for (size_t j = 0; j < sizeof(list) / sizeof(list[0]); j++)
			on |= !strcmp(a64_descs[i].name, list[j]);
		ck_assert_msg(on == !!(a64_descs[i].flags & A64_CMODX), "%s", a64_descs[i].name);
		seen += on;
	}
	ck_assert_int_eq(seen, 13);
}
END_TEST

START_TEST(every_listed_class_is_named)
{
	static const struct {
		const char *text, *cls;
	} c[] = {
		{ "b 0x4000", "b" },        { "b.ne 0x40", "b.cond" }, { "bl 0x2000", "bl" },
		{ "brk #0x800", "brk" },    { "cbnz w1, 0x100", "cbnz" },
		{ "cbz x0, 0x100", "cbz" }, { "hvc #0", "hvc" },        { "isb", "isb" },
		{ "isb #3", "isb" },        { "nop", "nop" },          { "smc #1", "smc" },
		{ "svc #0", "svc" },        { "tbnz x3, #40, 0x80", "tbnz" },
		{ "tbz w3, #1, 0x80", "tbz" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const char *got = a64_cmodx_class(as(c[i].text, 0x1000));

		ck_assert_msg(got && !strcmp(got, c[i].cls), "%s: %s", c[i].text, got ? got : "NULL");
	}
}
END_TEST

START_TEST(hints_other_than_nop_and_other_insns_are_unsafe)
{
	static const char *const unsafe[] = {
		"mov x9, x30", "bti c", "paciasp", "autiasp", "hint #1", "hint #34",
		"dsb ish", "dmb ish", "ldr x16, 0x1000", "adrp x16, 0x8000", "br x16",
		"blr x16", "ret", "dc cvau, x0", "ic ivau, x0", "ldr x11, [x11, #-16]",
		"and x11, x30, #~7", "movz x0, #1",
	};

	for (size_t i = 0; i < sizeof(unsafe) / sizeof(unsafe[0]); i++)
		ck_assert_msg(a64_cmodx_class(as(unsafe[i], 0x1000)) == NULL, "%s", unsafe[i]);
	/* words ftv's table does not know at all */
	ck_assert_ptr_null(a64_cmodx_class(0x00000000)); /* udf #0 */
	ck_assert_ptr_null(a64_cmodx_class(0xffffffff));
	ck_assert_ptr_null(a64_cmodx_class(0x8b020020)); /* add x0, x1, x2 */
}
END_TEST

START_TEST(pairs_safe_only_when_both_are_listed)
{
	uint32_t nop = a64_gen_nop(), bl = as("bl 0x2000", 0x1000);
	uint32_t mov = as("mov x9, x30", 0), bcond = as("b.eq 0x1040", 0x1000);
	uint32_t isb = as("isb", 0), bti = as("bti c", 0), b = as("b 0x1010", 0x1000);

	/* safe -> safe */
	ck_assert(a64_cmodx_safe(nop, bl));
	ck_assert(a64_cmodx_safe(bl, nop));
	ck_assert(a64_cmodx_safe(bcond, bl));
	ck_assert(a64_cmodx_safe(bl, bcond));
	ck_assert(a64_cmodx_safe(isb, nop));
	ck_assert(a64_cmodx_safe(nop, isb));
	ck_assert(a64_cmodx_safe(b, bl));
	ck_assert(a64_cmodx_safe(bl, as("bl 0x3000", 0x1000)));
	/* safe -> unsafe and unsafe -> safe */
	ck_assert(!a64_cmodx_safe(nop, mov));
	ck_assert(!a64_cmodx_safe(mov, nop));
	ck_assert(!a64_cmodx_safe(bl, bti));
	ck_assert(!a64_cmodx_safe(bti, bl));
	/* unsafe -> unsafe */
	ck_assert(!a64_cmodx_safe(mov, as("mov x9, x29", 0)));
	ck_assert(!a64_cmodx_safe(mov, mov));
}
END_TEST

static Suite *a64_cmodx_suite(void)
{
	Suite *s = suite_create("a64_cmodx");
	TCase *tc = tcase_create("cmodx");

	tcase_add_test(tc, table_marks_exactly_the_arm_arm_list);
	tcase_add_test(tc, every_listed_class_is_named);
	tcase_add_test(tc, hints_other_than_nop_and_other_insns_are_unsafe);
	tcase_add_test(tc, pairs_safe_only_when_both_are_listed);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(a64_cmodx, a64_cmodx_suite)
