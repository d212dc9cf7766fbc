/* Unit tests of the arm64 encoder, decoder and disassembler API that the
 * rest of ftv calls: exact words for the examples the patcher relies on,
 * range edges, and errors instead of truncated words. */
#include "encoders/a64.h"
#include "tests/suite.h"

#include <string.h>

#define MiB (1ULL << 20)

static uint32_t as(const char *text, uint64_t pc)
{
	struct ftv_err err = { "" };
	uint32_t w = 0;

	ck_assert_msg(a64_assemble(text, pc, &w, &err) == 0, "%s: %s", text, err.msg);
	return w;
}

/* Asserts text is rejected with a one-line message containing `why`. */
static void rejects(const char *text, uint64_t pc, const char *why)
{
	struct ftv_err err = { "" };
	uint32_t w = 0xdeadbeef;

	ck_assert_msg(a64_assemble(text, pc, &w, &err) == -1, "%s accepted", text);
	ck_assert_msg(w == 0xdeadbeef, "%s: word written on error", text);
	ck_assert_msg(strstr(err.msg, why) && !strchr(err.msg, '\n'), "%s: '%s' lacks '%s'", text,
		      err.msg, why);
}

START_TEST(assembles_the_callsite_instructions)
{
	ck_assert_uint_eq(as("bl 0x2000", 0x1000), 0x94000400);
	ck_assert_uint_eq(as("bti c", 0), 0xd503245f);
	ck_assert_uint_eq(as("mov x9, x30", 0), 0xaa1e03e9);
	ck_assert_uint_eq(as("mov x9, lr", 0), 0xaa1e03e9);
	ck_assert_uint_eq(as("nop", 0), 0xd503201f);
	ck_assert_uint_eq(as("ldr x11, [x11, #-16]", 0), 0xf85f016b); /* LDUR */
	ck_assert_uint_eq(as("adrp x16, 0x7fff0000", 0x1000), 0xf03fff70);
	ck_assert_uint_eq(as("and x11, x30, #~7", 0), 0x927df3cb);
	ck_assert_uint_eq(as("bic x11, x30, #7", 0), 0x927df3cb);
	ck_assert_uint_eq(as("hint #34", 0), 0xd503245f);
	ck_assert_uint_eq(as("paciasp", 0), 0xd503233f);
	ck_assert_uint_eq(as("autiasp", 0), 0xd50323bf);
	ck_assert_uint_eq(as("b.ne 0x40", 0), 0x54000201);
	ck_assert_uint_eq(as("dc cvau, x0", 0), 0xd50b7b20);
	ck_assert_uint_eq(as("ic ivau, x1", 0), 0xd50b7521);
	ck_assert_uint_eq(as("dsb ish", 0), 0xd5033b9f);
	ck_assert_uint_eq(as("isb", 0), 0xd5033fdf);
	ck_assert_uint_eq(as("ret", 0), 0xd65f03c0);
	ck_assert_uint_eq(as("movk x0, #0x1234, lsl #16", 0), 0xf2a24680);
	ck_assert_uint_eq(as("mov x0, #0x12340000", 0), 0xd2a24680);
	ck_assert_uint_eq(as("mov x0, #-1", 0), 0x92800000);
	ck_assert_uint_eq(as("mov x0, sp", 0), 0x910003e0);
	ck_assert_uint_eq(as("add x0, x1, #-8", 0), 0xd1002020); /* as picks SUB */
	ck_assert_uint_eq(as("ldr x1, 0x1008", 0x1000), 0x58000041);
	ck_assert_uint_eq(as("  BL   0x2000  ", 0x1000), 0x94000400);
	ck_assert_uint_eq(as("mov x0, #0x12340000 // #305397760", 0), 0xd2a24680);
}
END_TEST

START_TEST(branch_generator_accepts_exactly_plus_minus_128_mib)
{
	const uint64_t pc = 0xffff800010000000ULL;
	struct ftv_err err = { "" };
	uint32_t w = 0;

	ck_assert_int_eq(a64_gen_branch(pc, pc + 128 * MiB - 4, 1, &w, &err), 0);
	ck_assert_uint_eq(w, 0x95ffffff);
	ck_assert_int_eq(a64_gen_branch(pc, pc - 128 * MiB, 0, &w, &err), 0);
	ck_assert_uint_eq(w, 0x16000000);
	w = 0x12345678;
	ck_assert_int_eq(a64_gen_branch(pc, pc + 128 * MiB, 1, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "out of range"));
	ck_assert_int_eq(a64_gen_branch(pc, pc - 128 * MiB - 4, 1, &w, &err), -1);
	ck_assert_int_eq(a64_gen_branch(pc, pc + 2, 1, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "aligned"));
	ck_assert_uint_eq(w, 0x12345678);
	ck_assert_uint_eq(a64_gen_nop(), 0xd503201f);
}
END_TEST

START_TEST(every_range_is_checked)
{
	rejects("bl 0x8000000", 0, "out of range");
	rejects("b 0x2", 0, "aligned");
	rejects("b.eq 0x100000", 0, "1 MiB");
	rejects("cbz x0, 0xffeffffc", 0x100000000ULL, "out of range");
	rejects("tbz x0, #1, 0x8000", 0, "32 KiB");
	rejects("tbz w0, #32, 0", 0, "bit");
	rejects("ldr x0, 0x100000", 0, "out of range");
	rejects("adr x0, 0x100000", 0, "out of range");
	rejects("adrp x0, 0x100000000", 0, "4 GiB");
	rejects("add x0, x1, #4097", 0, "0..4095");
	rejects("add x0, x1, #1, lsl #8", 0, "");
	rejects("and x0, x1, #5", 0, "logical immediate");
	rejects("and x0, x1, #0", 0, "logical immediate");
	rejects("movz x0, #0x10000", 0, "0..0xffff");
	rejects("movz w0, #1, lsl #32", 0, "shift");
	rejects("ldr x0, [x1, #32768]", 0, "");
	rejects("ldur x0, [x1, #256]", 0, "-256..255");
	rejects("hint #128", 0, "");
	rejects("brk #0x10000", 0, "");
	rejects("dsb #0", 0, "ssbb");
	rejects("mov x0, w1", 0, "width");
	rejects("mov x0, #0x12345", 0, "MOVZ");
	rejects("br w1", 0, "operands");
	rejects("ret x31", 0, "operands");
	rejects("frobnicate x0", 0, "unknown instruction");
	rejects("b.xx 0", 0, "condition");
	rejects("", 0, "empty");
}
END_TEST

START_TEST(encoder_rejects_bad_registers_and_ids)
{
	struct a64_insn in = { .id = A64_MOV, .is64 = true, .rd = 32, .rm = 1 };
	struct ftv_err err = { "" };
	uint32_t w = 0;

	ck_assert_int_eq(a64_encode(&in, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "register"));
	in.id = A64_NR_INSNS;
	ck_assert_int_eq(a64_encode(&in, &w, &err), -1);
	ck_assert_int_eq(a64_gen_mov_reg(9, 30, &w, &err), 0);
	ck_assert_uint_eq(w, 0xaa1e03e9);
	ck_assert_int_eq(a64_gen_mov_reg(9, 40, &w, &err), -1);
}
END_TEST

START_TEST(generators_give_the_loaders_fixed_words)
{
	uint32_t w = 0;

	/* the words sim/ writes and recognises (stubs, BTI pads, veneers) */
	ck_assert_uint_eq(a64_gen_nop(), 0xd503201f);
	ck_assert_uint_eq(a64_gen_bti(A64_BTI_C), 0xd503245f);
	ck_assert_uint_eq(a64_gen_bti(A64_BTI_JC), 0xd50324df);
	ck_assert_uint_eq(a64_gen_brk(1), 0xd4200020);
	ck_assert_uint_eq(a64_gen_brk(0xffff), 0xd43fffe0);
	ck_assert_int_eq(a64_gen_adrp(0x1234, 0x1000, 16, &w, NULL), 0);
	ck_assert_uint_eq(w, 0x90000010);
	ck_assert(a64_is_paciasp(0xd503233f) && !a64_is_paciasp(0xd503237f));
	/* loads and stores by their top-level group, known to ftv or not */
	ck_assert(a64_in_ldst(0xf85f016b));  /* ldur x11, [x11, #-16] */
	ck_assert(a64_in_ldst(0xa9bf7bfd));  /* stp x29, x30, [sp, #-16]! */
	ck_assert(!a64_in_ldst(0xd50b7b20)); /* dc cvau */
	ck_assert(!a64_in_ldst(0x8b020020)); /* add x0, x1, x2 */
}
END_TEST

START_TEST(flag_setting_and_shifted_register_forms_decode_their_operands)
{
	struct a64_insn in;
	char buf[A64_TEXT_MAX];

	/* words from aarch64-linux-gnu-as */
	ck_assert_uint_eq(as("cmp x1, #5", 0), 0xf100143f);
	ck_assert_uint_eq(as("subs x0, x1, #-1", 0), 0xb1000420); /* adds #1 */
	ck_assert_uint_eq(as("eor x0, x1, x2, ror #3", 0), 0xcac20c20);
	ck_assert_uint_eq(as("neg x0, x2, lsl #4", 0), 0xcb0213e0);
	ck_assert_uint_eq(as("eor w3, w2, w2", 0), 0x4a020043);
	ck_assert_uint_eq(as("add x5, x4, x3", 0), 0x8b030085);
	ck_assert_int_eq(a64_decode(0xcb0213e0, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_SUB_REG);
	ck_assert_uint_eq(in.rn, 31);
	ck_assert_uint_eq(in.rm, 2);
	ck_assert_uint_eq(in.shift, 4);
	ck_assert_int_eq(in.imm, A64_LSL);
	ck_assert_int_eq(a64_decode(0xcac20c20, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_EOR_REG);
	ck_assert_int_eq(in.imm, A64_ROR);
	a64_disasm(0xf100143f, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "cmp x1, #5");
	/* ROR is for the logical instructions; 32-bit shifts stop at 31 */
	ck_assert_int_eq(a64_decode(0x8bc20c20, 0, &in), -1); /* add, shift 11 */
	ck_assert_int_eq(a64_decode(0x0b028020, 0, &in), -1); /* add w, lsl #32 */
	/* ADD/SUB (extended register), as diy7 writes an address
	 * dependency: words from aarch64-linux-gnu-as, objdump's text back */
	ck_assert_uint_eq(as("ADD X4,X4,W3,SXTW", 0), 0x8b23c084);
	ck_assert_uint_eq(as("add x4,x4,w3,uxtw #2", 0), 0x8b234884);
	ck_assert_uint_eq(as("sub w1, w2, w3, uxth", 0), 0x4b232041);
	ck_assert_uint_eq(as("add sp, sp, x1", 0), 0x8b2163ff);
	ck_assert_uint_eq(as("add x10, x10, x9, sxtx", 0), 0x8b29e14a);
	a64_disasm(0x8b226fe1, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "add x1, sp, x2, lsl #3");
	a64_disasm(0x8b23c084, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "add x4, x4, w3, sxtw");
	ck_assert_int_eq(a64_decode(0x8b23c084, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_ADD_EXT);
	ck_assert_uint_eq(in.rm, 3);
	ck_assert_int_eq(in.imm, 6);
	ck_assert_int_eq(a64_decode(0x8b23d484, 0, &in), -1); /* imm3 = 5: reserved */
}
END_TEST

START_TEST(decoder_gives_operands_and_targets)
{
	struct a64_insn in;
	uint64_t t;

	ck_assert_int_eq(a64_decode(0x94000400, 0x1000, &in), 0);
	ck_assert_int_eq(in.id, A64_BL);
	ck_assert_uint_eq(in.target, 0x2000);
	ck_assert_int_eq(a64_decode(0x17ffffff, 0x1000, &in), 0); /* b .-4 */
	ck_assert_uint_eq(in.target, 0xffc);
	ck_assert_int_eq(a64_decode(as("tbnz x5, #40, 0x1040", 0x1000), 0x1000, &in), 0);
	ck_assert_int_eq(in.id, A64_TBNZ);
	ck_assert_uint_eq(in.bit, 40);
	ck_assert_uint_eq(in.rd, 5);
	ck_assert_uint_eq(in.target, 0x1040);
	ck_assert_int_eq(a64_decode(0xf03fff70, 0x1abc, &in), 0);
	ck_assert_int_eq(in.id, A64_ADRP);
	ck_assert_uint_eq(in.target, 0x7fff0000);
	ck_assert_int_eq(a64_decode(0xf85f016b, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_LDUR);
	ck_assert_int_eq(in.imm, -16);
	ck_assert_int_eq(a64_decode(0x927df3cb, 0, &in), 0);
	ck_assert_uint_eq((uint64_t)in.imm, ~7ULL);
	/* HVC/SMC/SVC are decoded (the CMODX list names them) */
	ck_assert_int_eq(a64_decode(0xd4000002, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_HVC);
	ck_assert_int_eq(a64_decode(0xd4000003, 0, &in), 0);
	ck_assert_int_eq(in.id, A64_SMC);
	/* unknown and non-canonical words */
	ck_assert_int_eq(a64_decode(0x9b027c20, 0, &in), -1); /* mul x0, x1, x2 */
	ck_assert_int_eq(in.id, A64_UNKNOWN);
	ck_assert_int_eq(a64_decode(0xd503309f, 0, &in), -1); /* ssbb, not dsb */
	ck_assert_int_eq(a64_decode(0x52c00000, 0, &in), -1); /* movz w, hw=2 */
	/* targets */
	ck_assert_int_eq(a64_branch_target(0x54000201, 0x100, &t), 0);
	ck_assert_uint_eq(t, 0x140);
	ck_assert_int_eq(a64_branch_target(0xaa1e03e9, 0x100, &t), -1);
	ck_assert_int_eq(a64_branch_target(0x58000041, 0x100, &t), -1);
	ck_assert_int_eq(a64_pcrel_target(0x58000041, 0x100, &t), 0);
	ck_assert_uint_eq(t, 0x108);
}
END_TEST

START_TEST(predicates_come_from_the_table)
{
	ck_assert(a64_is_bl(0x94000400));
	ck_assert(!a64_is_bl(0x14000400));
	ck_assert(a64_is_b(0x14000400));
	ck_assert(a64_is_nop(0xd503201f));
	ck_assert(a64_is_hint(0xd503201f));
	ck_assert(a64_is_bti(0xd503245f));
	ck_assert(!a64_is_nop(0xd503245f));
	ck_assert(a64_is_b_cond(0x54000201));
	ck_assert(a64_is_mov(0xaa1e03e9));
	ck_assert(a64_is_ldr_lit(0x58000041));
	ck_assert(a64_is_adrp(0xf03fff70));
	ck_assert_int_eq(a64_lookup(0xd503245f), A64_BTI);
	ck_assert_int_eq(a64_lookup(0xffffffff), A64_UNKNOWN);
}
END_TEST

START_TEST(disasm_uses_ftv_then_capstone_then_inst)
{
	char buf[A64_TEXT_MAX];

	a64_disasm(0xd503245f, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bti c");
	a64_disasm(0xd503233f, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "paciasp");
	a64_disasm(0x94000400, 0x1000, buf, sizeof(buf));
	ck_assert_str_eq(buf, "bl 0x2000");
	a64_disasm(0xf85f016b, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "ldur x11, [x11, #-16]");
	a64_disasm(0x8b020020, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "add x0, x1, x2");
	a64_disasm(0x9b027c20, 0, buf, sizeof(buf)); /* Capstone's */
	ck_assert_str_eq(buf, "mul x0, x1, x2");
	a64_disasm(0xffffffff, 0, buf, sizeof(buf));
	ck_assert_str_eq(buf, ".inst 0xffffffff");
}
END_TEST

static Suite *a64_encode_suite(void)
{
	Suite *s = suite_create("a64_encode");
	TCase *tc = tcase_create("encode");

	tcase_add_test(tc, assembles_the_callsite_instructions);
	tcase_add_test(tc, branch_generator_accepts_exactly_plus_minus_128_mib);
	tcase_add_test(tc, every_range_is_checked);
	tcase_add_test(tc, generators_give_the_loaders_fixed_words);
	tcase_add_test(tc, flag_setting_and_shifted_register_forms_decode_their_operands);
	tcase_add_test(tc, encoder_rejects_bad_registers_and_ids);
	tcase_add_test(tc, decoder_gives_operands_and_targets);
	tcase_add_test(tc, predicates_come_from_the_table);
	tcase_add_test(tc, disasm_uses_ftv_then_capstone_then_inst);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(a64_encode, a64_encode_suite)
