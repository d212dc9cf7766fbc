/* RISC-V encoders: the brief's examples, the AUIPC+JALR call pair at the
 * edges of its reach, operand validation, the decoder's reports and the
 * live-patching rule. Words below were checked with riscv64-linux-gnu-as. */
#include "tests/suite.h"
#include "encoders/riscv.h"
#include "util/rng.h"

#include <inttypes.h>
#include <string.h>

static uint32_t assemble(const char *text, uint64_t pc, int want_nbytes)
{
	struct ftv_err err = { "" };
	uint32_t w = 0;
	int nbytes = 0;

	ck_assert_msg(!rv_assemble(text, pc, &w, &nbytes, &err), "'%s': %s",
		      text, err.msg);
	ck_assert_int_eq(nbytes, want_nbytes);
	return w;
}

START_TEST(assembles_gnu_as_syntax)
{
	ck_assert_uint_eq(assemble("auipc t0, 0xfffff", 0, 4), 0xfffff297);
	ck_assert_uint_eq(assemble("auipc t0,0x12345", 0, 4), 0x12345297);
	ck_assert_uint_eq(assemble("jalr t0, 16(t0)", 0, 4), 0x010282e7);
	ck_assert_uint_eq(assemble("jalr t0, t0, -16", 0, 4), 0xff0282e7);
	ck_assert_uint_eq(assemble("jalr x5, x5, 16", 0, 4), 0x010282e7);
	ck_assert_uint_eq(assemble("jalr t0", 0, 4), 0x000280e7);
	ck_assert_uint_eq(assemble("jal ra, 0x1000", 0x2000, 4), 0x800ff0ef);
	ck_assert_uint_eq(assemble("addi a0, a1, -5", 0, 4), 0xffb58513);
	ck_assert_uint_eq(assemble("addi a0, zero, 5", 0, 4), 0x00500513);
	ck_assert_uint_eq(assemble("nop", 0, 4), 0x00000013);
	ck_assert_uint_eq(assemble("  nop   # comment", 0, 4), 0x00000013);
	ck_assert_uint_eq(assemble("ld a0, 8(sp)", 0, 4), 0x00813503);
	ck_assert_uint_eq(assemble("sd ra, -8(sp)", 0, 4), 0xfe113c23);
	ck_assert_uint_eq(assemble("sd x1, -8(x2)", 0, 4), 0xfe113c23);
	ck_assert_uint_eq(assemble("addi fp, s0, 1", 0, 4), 0x00140413);
	ck_assert_uint_eq(assemble("c.nop", 0, 2), 0x0001);
	ck_assert_uint_eq(assemble(".insn 0x12345677", 0, 4), 0x12345677);
	ck_assert_uint_eq(assemble(".insn 0x4501", 0, 2), 0x4501);
	/* what litmus tests of the fetch model need (GNU as words) */
	ck_assert_uint_eq(assemble("fence.i", 0, 4), 0x0000100f);
	ck_assert_uint_eq(assemble("fence", 0, 4), 0x0ff0000f);
	ck_assert_uint_eq(assemble("fence rw, rw", 0, 4), 0x0330000f);
	ck_assert_uint_eq(assemble("fence w,w", 0, 4), 0x0110000f);
	ck_assert_uint_eq(assemble("sw a1, 0(a0)", 0, 4), 0x00b52023);
	ck_assert_uint_eq(assemble("lw a2, 4(sp)", 0, 4), 0x00412603);
	ck_assert_uint_eq(assemble("beq a0, a1, 0x114", 0x14, 4), 0x10b50063);
	ck_assert_uint_eq(assemble("bnez t0, 0x58", 0x18, 4), 0x04029063);
	ck_assert_uint_eq(assemble("j 0x21c", 0x1c, 4), 0x2000006f);
	ck_assert_uint_eq(assemble("li a0, 5", 0, 4), 0x00500513);
	ck_assert_uint_eq(assemble("mv a1, a2", 0, 4), 0x00060593);
}
END_TEST

static void expect_asm_error(const char *text, uint64_t pc, const char *msg)
{
	struct ftv_err err = { "" };
	uint32_t w = 0x5a5a5a5a;
	int nbytes = 99;

	ck_assert_msg(rv_assemble(text, pc, &w, &nbytes, &err) == -1,
		      "'%s' accepted as 0x%08x", text, w);
	ck_assert_msg(strstr(err.msg, msg), "'%s': '%s' lacks '%s'", text,
		      err.msg, msg);
	ck_assert_uint_eq(w, 0x5a5a5a5a);
	ck_assert_int_eq(nbytes, 99);
}

START_TEST(assembler_rejects_bad_operands_naming_them)
{
	expect_asm_error("jal ra, 0x100000", 0, "out of range");
	expect_asm_error("jal ra, 0x3", 0, "not 2-byte aligned");
	expect_asm_error("jalr t0, 2048(t0)", 0, "imm12 0x800 out of range -0x800..0x7ff");
	expect_asm_error("addi a0, a1, -2049", 0, "out of range");
	expect_asm_error("auipc t0, 0x100000", 0, "0..0xfffff");
	expect_asm_error("auipc t0, -1", 0, "0..0xfffff");
	expect_asm_error("ld x32, 0(sp)", 0, "bad register 'x32'");
	expect_asm_error("sd ra, 0(a8)", 0, "bad register 'a8'");
	expect_asm_error("ld a0, 8", 0, "offset(register)");
	expect_asm_error("addi a0, a1", 0, "expected 3 operands");
	expect_asm_error("addi a0, a1, 1,", 0, "empty operand");
	expect_asm_error("c.nop 1", 0, "expected 0 operands");
	expect_asm_error("mul a0, a1, a2", 0, "unknown instruction 'mul'");
	expect_asm_error("", 0, "empty");
	expect_asm_error(".insn 0x12345", 0, "not a 16-bit or 32-bit");
	expect_asm_error("addi a0, a1, 1x", 0, "bad immediate '1x'");
	expect_asm_error("beq a0, a1, 0x1000", 0, "branch offset 0x1000 out of range -0x1000..0xffe");
	expect_asm_error("bne a0, a1, 0x3", 0, "not a multiple of 2");
	expect_asm_error("fence ri, w", 0, "bad ordering set 'ri'");
	expect_asm_error("fence rw", 0, "expected 2 operands");
}
END_TEST

START_TEST(generators_validate_every_field_and_leave_output_alone)
{
	struct ftv_err err;
	uint32_t w;

	ck_assert_int_eq(rv_gen_jal(0x1000, 0x1000 + 0xffffe, RV_REG_RA, &w, &err), 0);
	ck_assert_int_eq(rv_gen_jal(0x200000, 0x200000 - 0x100000, RV_REG_ZERO, &w, &err), 0);
	w = 7;
	ck_assert_int_eq(rv_gen_jal(0x1000, 0x1000 + 0x100000, RV_REG_RA, &w, &err), -1);
	ck_assert_int_eq(rv_gen_jal(0x200000, 0x200000 - 0x100002, RV_REG_RA, &w, &err), -1);
	ck_assert_int_eq(rv_gen_jal(0x1001, 0x2000, RV_REG_RA, &w, &err), -1);
	ck_assert_int_eq(rv_gen_jal(0x1000, 0x2000, 32, &w, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "rd x32"));
	ck_assert_int_eq(rv_gen_jalr(RV_REG_T0, RV_REG_T0, 2047, &w, &err), 0);
	ck_assert_int_eq(rv_gen_jalr(RV_REG_T0, RV_REG_T0, -2048, &w, &err), 0);
	w = 7;
	ck_assert_int_eq(rv_gen_jalr(RV_REG_T0, RV_REG_T0, 2048, &w, &err), -1);
	ck_assert_int_eq(rv_gen_jalr(RV_REG_T0, RV_REG_T0, -2049, &w, &err), -1);
	ck_assert_int_eq(rv_gen_jalr(RV_REG_T0, 40, 0, &w, &err), -1);
	ck_assert_int_eq(rv_gen_auipc(RV_REG_T0, 0x7ffff, &w, &err), 0);
	ck_assert_uint_eq(w, 0x7ffff297);
	ck_assert_int_eq(rv_gen_auipc(RV_REG_T0, -0x80000, &w, &err), 0);
	ck_assert_uint_eq(w, 0x80000297);
	w = 7;
	ck_assert_int_eq(rv_gen_auipc(RV_REG_T0, 0x80000, &w, &err), -1);
	ck_assert_int_eq(rv_gen_auipc(RV_REG_T0, -0x80001, &w, &err), -1);
	ck_assert_int_eq(rv_gen_addi(RV_REG_A0, RV_REG_A0, 4096, &w, &err), -1);
	ck_assert_int_eq(rv_gen_ld(RV_REG_T1, RV_REG_T0, -2049, &w, &err), -1);
	ck_assert_int_eq(rv_gen_sd(RV_REG_RA, RV_REG_SP, 2048, &w, &err), -1);
	ck_assert_uint_eq(w, 7);
	ck_assert_int_eq(rv_gen_ld(RV_REG_T1, RV_REG_T0, -16, &w, &err), 0);
	ck_assert_uint_eq(w, assemble("ld t1, -16(t0)", 0, 4));
	ck_assert_int_eq(rv_gen_sd(RV_REG_RA, RV_REG_SP, -8, &w, &err), 0);
	ck_assert_uint_eq(w, 0xfe113c23);
	ck_assert_int_eq(rv_gen_addi(RV_REG_SP, RV_REG_SP, -16, &w, &err), 0);
	ck_assert_uint_eq(w, assemble("addi sp, sp, -16", 0, 4));
	ck_assert_uint_eq(rv_gen_nop(), 0x00000013);
	ck_assert_uint_eq(rv_gen_c_nop(), 0x0001);
}
END_TEST

/* Where an AUIPC at pc followed by a JALR at pc + 4 really jumps:
 * pc + (hi << 12) + lo, with bit 0 cleared (ISA 2.5). -1 unless the words
 * are AUIPC rd / JALR rd, lo(rd) with lo in imm12 range. (Plain checks, not
 * ck_assert: Check reports every assertion to its parent process, and the
 * sweep below makes hundreds of thousands.) */
static int pair_target(uint64_t pc, uint32_t auipc, uint32_t jalr,
		       unsigned rd, uint64_t *target)
{
	struct rv_insn a, j;

	if (rv_decode(auipc, pc, &a) || rv_decode(jalr, pc + 4, &j) ||
	    a.op != RV_OP_AUIPC || j.op != RV_OP_JALR || a.rd != rd ||
	    j.rd != rd || j.rs1 != rd || j.imm < -2048 || j.imm > 2047)
		return -1;
	*target = (pc + ((uint64_t)a.imm << 12) + (uint64_t)j.imm) & ~(uint64_t)1;
	return 0;
}

static int pair(uint64_t pc, int64_t off, uint32_t *a, uint32_t *j)
{
	struct ftv_err err;

	return rv_gen_call_pair(pc, pc + (uint64_t)off, RV_REG_T0, a, j, &err);
}

START_TEST(call_pair_reaches_exactly_its_rounded_range)
{
	const uint64_t pc = 0xffffffff80001000;
	static const int64_t ok[] = {
		0, 2, -2, 0x7fe, 0x800, -0x800, -0x802, 0x7ff7fe,
		0x7ffff7fe,   /* hi 0x7ffff, lo 0x7fe: the last even offset */
		-0x80000000LL,  /* hi -0x80000, lo 0 */
		-0x80000800LL,  /* hi -0x80000, lo -0x800: the lowest */
	};
	static const int64_t bad[] = {
		0x7ffff800,   /* below 2 GiB, but +0x800 rounds hi to 0x80000 */
		0x7ffffffe, 0x80000000,
		-0x80000802LL,  /* hi would be -0x80001 */
		0x100000000,
	};
	uint32_t a, j;

	for (unsigned i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t t = 0;

		ck_assert_msg(!pair(pc, ok[i], &a, &j), "offset %" PRId64, ok[i]);
		ck_assert_int_eq(pair_target(pc, a, j, RV_REG_T0, &t), 0);
		ck_assert_uint_eq(t, pc + (uint64_t)ok[i]);
	}
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = j = 7;
		ck_assert_msg(pair(pc, bad[i], &a, &j) == -1, "offset %" PRId64, bad[i]);
		ck_assert_uint_eq(a, 7);
		ck_assert_uint_eq(j, 7);
	}
}
END_TEST

START_TEST(call_pair_rounding_corners_split_as_the_psabi_does)
{
	struct rv_insn a, j;
	uint32_t wa, wj;

	/* 0x7ff fits lo alone; 0x800 needs hi = 1 and lo = -0x800. */
	ck_assert_int_eq(pair(0x1000, 0x7fe, &wa, &wj), 0);
	rv_decode(wa, 0x1000, &a);
	rv_decode(wj, 0x1004, &j);
	ck_assert_int_eq(a.imm, 0);
	ck_assert_int_eq(j.imm, 0x7fe);
	ck_assert_int_eq(pair(0x1000, 0x800, &wa, &wj), 0);
	rv_decode(wa, 0x1000, &a);
	rv_decode(wj, 0x1004, &j);
	ck_assert_int_eq(a.imm, 1);
	ck_assert_int_eq(j.imm, -0x800);
	/* -0x802 needs hi = -1 and lo = 0x7fe. */
	ck_assert_int_eq(pair(0x1000, -0x802, &wa, &wj), 0);
	rv_decode(wa, 0x1000, &a);
	rv_decode(wj, 0x1004, &j);
	ck_assert_int_eq(a.imm, -1);
	ck_assert_int_eq(j.imm, 0x7fe);
	/* The top corner: hi 0x7ffff, lo 0x7fe; GNU as: auipc t0,0x7ffff,
	 * jalr t0,2046(t0). */
	ck_assert_int_eq(pair(0x1000, 0x7ffff7fe, &wa, &wj), 0);
	ck_assert_uint_eq(wa, 0x7ffff297);
	ck_assert_uint_eq(wj, 0x7fe282e7);
}
END_TEST

START_TEST(call_pair_sweep_agrees_with_the_range_rule)
{
	const uint64_t pc = 0x80200000;
	int accepted = 0, refused = 0;

	/* A stride that is even and coprime to 4096 visits every lo value. */
	for (int64_t off = -0x80001000LL; off <= 0x80001000LL; off += 0x10002) {
		uint32_t a, j;
		uint64_t t = 0;
		int in = off >= -0x80000800LL && off <= 0x7ffff7ffLL;
		int r = pair(pc, off, &a, &j);

		if (r != (in ? 0 : -1))
			ck_abort_msg("offset %" PRId64 ": %d", off, r);
		if (r) {
			refused++;
			continue;
		}
		if (pair_target(pc, a, j, RV_REG_T0, &t) || t != pc + (uint64_t)off)
			ck_abort_msg("offset %" PRId64 ": lands at 0x%" PRIx64, off, t);
		accepted++;
	}
	ck_assert_int_gt(accepted, 60000);
	ck_assert_int_gt(refused, 0);
}
END_TEST

START_TEST(call_pair_rejects_zero_link_and_odd_addresses)
{
	struct ftv_err err;
	uint32_t a, j;
	uint64_t t = 0;

	ck_assert_int_eq(rv_gen_call_pair(0x1000, 0x2000, RV_REG_ZERO, &a, &j, &err), -1);
	ck_assert_ptr_nonnull(strstr(err.msg, "zero"));
	ck_assert_int_eq(rv_gen_call_pair(0x1000, 0x2001, RV_REG_T0, &a, &j, &err), -1);
	ck_assert_int_eq(rv_gen_call_pair(0x1001, 0x2000, RV_REG_T0, &a, &j, &err), -1);
	ck_assert_int_eq(rv_gen_call_pair(0x1000, 0x2000, 32, &a, &j, &err), -1);
	/* Offsets wrap like the hardware's: just below zero from near zero. */
	ck_assert_int_eq(rv_gen_call_pair(0x10, 0xfffffffffffff000, RV_REG_RA, &a, &j, &err), 0);
	ck_assert_int_eq(pair_target(0x10, a, j, RV_REG_RA, &t), 0);
	ck_assert_uint_eq(t, 0xfffffffffffff000);
}
END_TEST

START_TEST(decoder_reports_operands_and_jal_target)
{
	struct rv_insn in;
	char buf[64];
	int nbytes;

	ck_assert_int_eq(rv_decode(0x800ff0ef, 0x2000, &in), 0);
	ck_assert_int_eq(in.op, RV_OP_JAL);
	ck_assert_uint_eq(in.rd, RV_REG_RA);
	ck_assert_int_eq(in.imm, -0x1000);
	ck_assert_uint_eq(in.target, 0x1000);
	ck_assert_uint_eq(in.fields, RV_F_RD | RV_F_IMM | RV_F_TARGET);
	ck_assert_int_eq(rv_format(&in, buf, sizeof(buf)), (int)strlen("jal ra, 0x1000"));
	ck_assert_str_eq(buf, "jal ra, 0x1000");

	ck_assert_int_eq(rv_decode(0xfe113c23, 0, &in), 0);
	ck_assert_int_eq(in.op, RV_OP_SD);
	ck_assert_uint_eq(in.rs2, RV_REG_RA);
	ck_assert_uint_eq(in.rs1, RV_REG_SP);
	ck_assert_int_eq(in.imm, -8);

	ck_assert_int_eq(rv_disasm(0xfffff297, 0, buf, sizeof(buf), &nbytes), 0);
	ck_assert_str_eq(buf, "auipc t0, 0xfffff");
	ck_assert_int_eq(rv_disasm(0x010282e7, 0, buf, sizeof(buf), NULL), 0);
	ck_assert_str_eq(buf, "jalr t0, 16(t0)");
	ck_assert_int_eq(rv_disasm(0x00000013, 0, buf, sizeof(buf), NULL), 0);
	ck_assert_str_eq(buf, "nop");
	ck_assert_int_eq(rv_disasm(0x00140413, 0, buf, sizeof(buf), NULL), 0);
	ck_assert_str_eq(buf, "addi s0, s0, 1");
	/* c.nop is recognised from the low half alone. */
	ck_assert_int_eq(rv_disasm(0xabcd0001, 0, buf, sizeof(buf), &nbytes), 0);
	ck_assert_str_eq(buf, "c.nop");
	ck_assert_int_eq(nbytes, 2);

	/* Outside the subset: MUL, c.li a0,0 and a 48-bit prefix. */
	ck_assert_int_eq(rv_decode(0x02b50533, 0, &in), -1);
	ck_assert_int_eq(rv_disasm(0x02b50533, 0, buf, sizeof(buf), &nbytes), -1);
	ck_assert_str_eq(buf, ".insn 0x02b50533");
	ck_assert_int_eq(nbytes, 4);
	ck_assert_int_eq(rv_disasm(0x00004501, 0, buf, sizeof(buf), &nbytes), -1);
	ck_assert_str_eq(buf, ".insn 0x4501");
	ck_assert_int_eq(nbytes, 2);
	/* The report text reassembles to the same word. */
	ck_assert_uint_eq(assemble(buf, 0, 2), 0x4501);
	/* A buffer too small is refused, not overrun. */
	ck_assert_int_eq(rv_decode(0x010282e7, 0, &in), 0);
	ck_assert_int_eq(rv_format(&in, buf, 8), -1);
}
END_TEST

START_TEST(register_names_abi_and_numeric)
{
	ck_assert_int_eq(rv_reg_parse("zero"), 0);
	ck_assert_int_eq(rv_reg_parse("x0"), 0);
	ck_assert_int_eq(rv_reg_parse("fp"), 8);
	ck_assert_int_eq(rv_reg_parse("s0"), 8);
	ck_assert_int_eq(rv_reg_parse("t6"), 31);
	ck_assert_int_eq(rv_reg_parse("x31"), 31);
	ck_assert_int_eq(rv_reg_parse("s11"), 27);
	ck_assert_int_eq(rv_reg_parse("x32"), -1);
	ck_assert_int_eq(rv_reg_parse("x05"), -1);
	ck_assert_int_eq(rv_reg_parse("x"), -1);
	ck_assert_int_eq(rv_reg_parse("t7"), -1);
	ck_assert_int_eq(rv_reg_parse("X1"), -1);
	ck_assert_str_eq(rv_reg_name(5), "t0");
	ck_assert_str_eq(rv_reg_name(8), "s0");
	ck_assert_ptr_null(rv_reg_name(32));
}
END_TEST

START_TEST(only_the_jalr_nop_slot_may_change_live)
{
	uint32_t nop = rv_gen_nop();
	uint32_t call = assemble("jalr t0, 16(t0)", 4, 4);
	uint32_t call2 = assemble("jalr t0, -64(t0)", 4, 4);
	uint32_t other_link = assemble("jalr ra, 16(t0)", 4, 4);
	uint32_t auipc1 = assemble("auipc t0, 0x12345", 0, 4);
	uint32_t auipc2 = assemble("auipc t0, 0x12346", 0, 4);
	uint32_t jal = assemble("jal ra, 0x1000", 0, 4);

	/* ftrace_make_call / ftrace_make_nop */
	ck_assert_int_eq(rv_patchable_word_safe(nop, call), 1);
	ck_assert_int_eq(rv_patchable_word_safe(call, nop), 1);
	/* ftrace_modify_call: a new JALR consuming the same AUIPC */
	ck_assert_int_eq(rv_patchable_word_safe(call, call2), 1);
	ck_assert_int_eq(rv_patchable_word_safe(call, other_link), 0);
	/* no change is always fine */
	ck_assert_int_eq(rv_patchable_word_safe(auipc1, auipc1), 1);
	/* the AUIPC is written once at init, never live */
	ck_assert_int_eq(rv_patchable_word_safe(auipc1, auipc2), 0);
	ck_assert_int_eq(rv_patchable_word_safe(nop, auipc1), 0);
	ck_assert_int_eq(rv_patchable_word_safe(auipc1, nop), 0);
	/* not the kernel's scheme */
	ck_assert_int_eq(rv_patchable_word_safe(nop, jal), 0);
	ck_assert_int_eq(rv_patchable_word_safe(jal, nop), 0);
	ck_assert_int_eq(rv_patchable_word_safe(nop, assemble("addi a0, a0, 1", 0, 4)), 0);
	/* two c.nops in one word are not the 4-byte NOP */
	ck_assert_int_eq(rv_patchable_word_safe(0x00010001, call), 0);
	ck_assert_int_eq(rv_patchable_word_safe(call, 0x00010001), 0);
}
END_TEST

START_TEST(report_lines_name_class_target_and_slot)
{
	char line[160];
	int nbytes;
	uint32_t w;
	struct ftv_err err;

	ck_assert_int_gt(rv_report_line(0x800ff0ef, 0x2000, line, sizeof(line), &nbytes), 0);
	ck_assert_str_eq(line, "0x800ff0ef  jal ra, 0x1000                   "
			       "jal -> 0x1000            cmodx-unsafe");
	ck_assert_int_eq(nbytes, 4);
	rv_report_line(0x010282e7, 0, line, sizeof(line), &nbytes);
	ck_assert_str_eq(line, "0x010282e7  jalr t0, 16(t0)                  "
			       "jalr                     cmodx-safe");
	rv_report_line(0x00000013, 0, line, sizeof(line), &nbytes);
	ck_assert_str_eq(line, "0x00000013  nop                              "
			       "nop                      cmodx-safe");
	rv_report_line(0x00000001, 0, line, sizeof(line), &nbytes);
	ck_assert_str_eq(line, "0x0001      c.nop                            "
			       "c.nop                    cmodx-unsafe");
	ck_assert_int_eq(nbytes, 2);
	rv_report_line(0x02b50533, 0, line, sizeof(line), &nbytes);
	ck_assert_str_eq(line, "0x02b50533  .insn 0x02b50533                 "
			       "unknown                  cmodx-unsafe");
	ck_assert_int_eq(rv_assemble_word("c.nop", 0, &w, &err), 0);
	ck_assert_uint_eq(w, 1);
	ck_assert_int_eq(rv_assemble_word("jal ra, 0x100000", 0, &w, &err), -1);
}
END_TEST

/* Any word at all: the report text reassembles to the same word, known or
 * not, so a report can always be fed back. Words are biased towards the
 * subset's opcodes so that every row is exercised. */
START_TEST(every_report_text_reassembles_to_its_word)
{
	static const uint32_t opcodes[] = { 0x17, 0x6f, 0x67, 0x13, 0x3003, 0x3023 };
	struct ftv_rng rng;
	int known = 0;

	ftv_rng_seed(&rng, 0x5256); /* fixed: the test replays bit for bit */
	for (int i = 0; i < 200000; i++) {
		uint32_t w = (uint32_t)ftv_rng_next(&rng), again;
		uint64_t pc = ftv_rng_next(&rng) & ~(uint64_t)1;
		struct ftv_err err = { "" };
		char text[96];
		int nbytes, nb2, r;

		if (i % 2)
			w = (w & ~(uint32_t)0x707f) | opcodes[i / 2 % 6];
		if (i % 1000 == 0)
			w = 0x00000013 | (i % 2000 ? 0 : 0x1 - 0x13); /* nop, c.nop */
		r = rv_disasm(w, pc, text, sizeof(text), &nbytes);
		known += r == 0;
		if (rv_assemble(text, pc, &again, &nb2, &err))
			ck_abort_msg("0x%08x at 0x%" PRIx64 ": '%s': %s", w, pc,
				     text, err.msg);
		if (nb2 != nbytes || again != (nbytes == 2 ? (w & 0xffff) : w))
			ck_abort_msg("0x%08x: '%s' reassembles as 0x%08x/%d", w,
				     text, again, nb2);
	}
	ck_assert_int_gt(known, 90000);
}
END_TEST

static Suite *riscv_encode_suite(void)
{
	Suite *s = suite_create("riscv_encode");
	TCase *tc = tcase_create("encoders");

	tcase_add_test(tc, assembles_gnu_as_syntax);
	tcase_add_test(tc, assembler_rejects_bad_operands_naming_them);
	tcase_add_test(tc, generators_validate_every_field_and_leave_output_alone);
	tcase_add_test(tc, call_pair_reaches_exactly_its_rounded_range);
	tcase_add_test(tc, call_pair_rounding_corners_split_as_the_psabi_does);
	tcase_add_test(tc, call_pair_sweep_agrees_with_the_range_rule);
	tcase_add_test(tc, call_pair_rejects_zero_link_and_odd_addresses);
	tcase_add_test(tc, decoder_reports_operands_and_jal_target);
	tcase_add_test(tc, register_names_abi_and_numeric);
	tcase_add_test(tc, only_the_jalr_nop_slot_may_change_live);
	tcase_add_test(tc, report_lines_name_class_target_and_slot);
	tcase_add_test(tc, every_report_text_reassembles_to_its_word);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(riscv_encode, riscv_encode_suite)
