/* `ftv encode` and `ftv decode` on the command line: the documented
 * examples, and exit status 2 with one line on stderr for bad input. */
#include "tests/suite.h"

#include <stdlib.h>
#include <string.h>

/* Runs `ftv ARGS...`, returns the exit status and the output in *out. */
#define FTV_RUN(out, ...)                                                      \
	ftv_test_run((char *const[]){ (char *)ftv_test_env("FTV"), __VA_ARGS__, NULL }, out)

static void encodes(const char *pc, const char *text, const char *want)
{
	char *out;
	int rc = pc ? FTV_RUN(&out, "encode", "--pc", (char *)pc, (char *)text)
		    : FTV_RUN(&out, "encode", (char *)text);

	ck_assert_msg(rc == 0, "%s: exit %d: %s", text, rc, out);
	ck_assert_msg(!strcmp(out, want), "%s: got '%s' want '%s'", text, out, want);
	free(out);
}

static void fails(const char *what, int rc, char *out)
{
	ck_assert_msg(rc == 2, "%s: exit %d: %s", what, rc, out);
	/* exactly one line */
	ck_assert_msg(out[0] && strchr(out, '\n') == out + strlen(out) - 1, "%s: '%s'", what, out);
	free(out);
}

START_TEST(encode_prints_the_documented_words)
{
	encodes("0x1000", "bl 0x2000", "0x94000400\n");
	encodes(NULL, "bti c", "0xd503245f\n");
	encodes(NULL, "mov x9, x30", "0xaa1e03e9\n");
	encodes(NULL, "ldr x11, [x11, #-16]", "0xf85f016b\n");
	encodes("0x1000", "adrp x16, 0x7fff0000", "0xf03fff70\n");
}
END_TEST

START_TEST(encode_rejects_bad_input_with_exit_2)
{
	char *out;
	int rc;

	rc = FTV_RUN(&out, "encode", "--pc", "0x1000", "bl 0x8001000");
	ck_assert_ptr_nonnull(strstr(out, "ftv encode: "));
	ck_assert_ptr_nonnull(strstr(out, "out of range"));
	fails("out of range", rc, out);
	rc = FTV_RUN(&out, "encode", "bl 0x1002");
	ck_assert_ptr_nonnull(strstr(out, "aligned"));
	fails("misaligned", rc, out);
	rc = FTV_RUN(&out, "encode", "frob x0");
	fails("unknown", rc, out);
	rc = FTV_RUN(&out, "encode", "--pc", "zz", "nop");
	fails("bad pc", rc, out);
	rc = FTV_RUN(&out, "encode", "--arch", "riscv64", "auipc t0, 0x100000");
	ck_assert_ptr_nonnull(strstr(out, "out of range"));
	fails("riscv64 range", rc, out);
	rc = FTV_RUN(&out, "encode", "--arch", "mips", "nop");
	fails("mips", rc, out);
	rc = FTV_RUN(&out, "encode", "nop", "nop");
	ck_assert_int_eq(rc, 2);
	free(out);
	rc = FTV_RUN(&out, "encode");
	ck_assert_int_eq(rc, 2);
	free(out);
}
END_TEST

START_TEST(decode_names_bti_mov_and_bl_with_cmodx_verdicts)
{
	char *out, *l2, *l3;
	int rc = FTV_RUN(&out, "decode", "0xd503245f", "0xaa1e03e9", "0x94000000");

	ck_assert_msg(rc == 0, "%s", out);
	l2 = strchr(out, '\n');
	ck_assert_ptr_nonnull(l2);
	*l2++ = 0;
	l3 = strchr(l2, '\n');
	ck_assert_ptr_nonnull(l3);
	*l3++ = 0;
	ck_assert_ptr_nonnull(strstr(out, "0xd503245f  bti c "));
	ck_assert_ptr_nonnull(strstr(out, "cmodx-unsafe"));
	ck_assert_ptr_nonnull(strstr(l2, "0xaa1e03e9  mov x9, x30 "));
	ck_assert_ptr_nonnull(strstr(l2, "cmodx-unsafe"));
	/* the third word sits at pc 8: bl . targets 0x8 */
	ck_assert_ptr_nonnull(strstr(l3, "0x94000000  bl 0x8 "));
	ck_assert_ptr_nonnull(strstr(l3, "bl -> 0x8"));
	ck_assert_ptr_nonnull(strstr(l3, "cmodx-safe"));
	/* three lines, no more */
	ck_assert_ptr_nonnull(strchr(l3, '\n'));
	ck_assert_str_eq(strchr(l3, '\n'), "\n");
	free(out);
}
END_TEST

START_TEST(decode_falls_back_to_capstone_and_honours_pc)
{
	char *out;
	int rc = FTV_RUN(&out, "decode", "--pc", "0x1000", "0x94000400", "9b027c20");

	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(out, "bl 0x2000"));
	ck_assert_ptr_nonnull(strstr(out, "mul x0, x1, x2"));
	ck_assert_ptr_nonnull(strstr(out, "unknown"));
	free(out);
}
END_TEST

START_TEST(decode_rejects_bad_words_with_exit_2)
{
	char *out;
	int rc;

	rc = FTV_RUN(&out, "decode", "0x1ffffffff");
	ck_assert_ptr_nonnull(strstr(out, "not a 32-bit instruction word"));
	fails("too wide", rc, out);
	rc = FTV_RUN(&out, "decode", "123456789");
	fails("nine hex digits", rc, out);
	rc = FTV_RUN(&out, "decode", "0xd503201f", "nop");
	fails("not a number", rc, out); /* nothing printed for the good word */
	rc = FTV_RUN(&out, "decode", "--arch", "riscv64", "0x13", "zz");
	fails("riscv64 bad word", rc, out);
	rc = FTV_RUN(&out, "decode");
	ck_assert_int_eq(rc, 2);
	free(out);
}
END_TEST

START_TEST(riscv64_encode_and_decode_use_ftvs_own_decoder)
{
	char *out;
	int rc;

	rc = FTV_RUN(&out, "encode", "--arch", "riscv64", "--pc", "0x2000", "jal ra, 0x1000");
	ck_assert_int_eq(rc, 0);
	ck_assert_str_eq(out, "0x800ff0ef\n");
	free(out);
	/* auipc is unsafe to patch live, jalr and nop are the 6.16 slot; the
	 * compressed c.nop advances the pc by 2 */
	rc = FTV_RUN(&out, "decode", "--arch", "riscv64", "--pc", "0x1000",
		     "0x00000297", "0x010282e7", "0x0001", "0x00000013");
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(out, "auipc t0, 0x0"));
	ck_assert_ptr_nonnull(strstr(out, "jalr t0, 16(t0)"));
	ck_assert_ptr_nonnull(strstr(out, "c.nop"));
	ck_assert_ptr_nonnull(strstr(strstr(out, "auipc"), "cmodx-unsafe"));
	ck_assert_ptr_nonnull(strstr(strstr(out, "jalr"), "cmodx-safe"));
	free(out);
}
END_TEST

static Suite *a64_cmd_suite(void)
{
	Suite *s = suite_create("a64_cmd");
	TCase *tc = tcase_create("cmd");

	tcase_add_test(tc, encode_prints_the_documented_words);
	tcase_add_test(tc, encode_rejects_bad_input_with_exit_2);
	tcase_add_test(tc, decode_names_bti_mov_and_bl_with_cmodx_verdicts);
	tcase_add_test(tc, decode_falls_back_to_capstone_and_honours_pc);
	tcase_add_test(tc, decode_rejects_bad_words_with_exit_2);
	tcase_add_test(tc, riscv64_encode_and_decode_use_ftvs_own_decoder);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(a64_cmd, a64_cmd_suite)
