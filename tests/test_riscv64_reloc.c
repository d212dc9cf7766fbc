/* sim/reloc_riscv64.c on its own: the range edges of every PC-relative
 * type (psABI ranges: BRANCH +/-4 KiB, JAL +/-1 MiB, RVC_BRANCH +/-256 B,
 * RVC_JUMP +/-2 KiB, AUIPC pairs -2^31-2^11 .. 2^31-2^11), and CALL/JAL
 * fields cross-checked against the encoders' own rv_gen_call_pair and
 * rv_gen_jal (written separately, from the ISA manual's formats). */
#include "tests/suite.h"

#include "encoders/riscv.h"
#include "sim/reloc_riscv64.h"
#include "util/rng.h"

#include <elf.h>
#include <string.h>

static const uint64_t P0 = 0xffff800080001000ull;

static enum sim_reloc_status at(unsigned type, int64_t off, uint8_t *buf)
{
	return sim_riscv64_reloc_apply(type, buf, P0, P0 + (uint64_t)off, 0, NULL);
}

static int ok(unsigned type, int64_t off)
{
	uint8_t buf[8] = { 0 };

	return at(type, off, buf) == SIM_RELOC_OK;
}

START_TEST(rv_pc_relative_ranges_end_where_the_psabi_says)
{
	ck_assert(ok(R_RISCV_BRANCH, 4094) && ok(R_RISCV_BRANCH, -4096));
	ck_assert(!ok(R_RISCV_BRANCH, 4096) && !ok(R_RISCV_BRANCH, -4098));
	ck_assert(!ok(R_RISCV_BRANCH, 3));
	ck_assert(ok(R_RISCV_JAL, (1 << 20) - 2) && ok(R_RISCV_JAL, -(1 << 20)));
	ck_assert(!ok(R_RISCV_JAL, 1 << 20) && !ok(R_RISCV_JAL, -(1 << 20) - 2));
	ck_assert(ok(R_RISCV_RVC_BRANCH, 254) && ok(R_RISCV_RVC_BRANCH, -256));
	ck_assert(!ok(R_RISCV_RVC_BRANCH, 256) &&
		  !ok(R_RISCV_RVC_BRANCH, -258));
	ck_assert(ok(R_RISCV_RVC_JUMP, 2046) && ok(R_RISCV_RVC_JUMP, -2048));
	ck_assert(!ok(R_RISCV_RVC_JUMP, 2048) && !ok(R_RISCV_RVC_JUMP, -2050));
	ck_assert(ok(R_RISCV_CALL_PLT, 0x7ffff7fe) &&
		  ok(R_RISCV_CALL_PLT, -0x80000800ll));
	ck_assert(!ok(R_RISCV_CALL_PLT, 0x7ffff800) &&
		  !ok(R_RISCV_CALL_PLT, -0x80000802ll));
	ck_assert(ok(R_RISCV_PCREL_HI20, 0x7ffff7ff) &&
		  !ok(R_RISCV_PCREL_HI20, 0x7ffff800));
	ck_assert(ok(R_RISCV_32_PCREL, 0x7fffffff) &&
		  !ok(R_RISCV_32_PCREL, 0x80000000ll));
}
END_TEST

static uint32_t rd32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

START_TEST(rv_call_and_jal_fields_match_the_encoders)
{
	struct ftv_rng r;

	ftv_rng_seed(&r, 8);
	for (int i = 0; i < 2000; i++) {
		int64_t off = (int64_t)(ftv_rng_next(&r) % 0xfffff000ull) -
			      0x7ffff000ll;
		int64_t joff = (int64_t)(ftv_rng_next(&r) % (1u << 20)) -
			       (1 << 19);
		uint32_t a, j, w;
		uint8_t buf[8];
		struct ftv_err err = { "" };

		off &= ~1ll;
		joff &= ~1ll;
		/* auipc t0, 0; jalr t0, 0(t0): the relocation fills both */
		ck_assert(!rv_gen_auipc(RV_REG_T0, 0, &a, &err));
		ck_assert(!rv_gen_jalr(RV_REG_T0, RV_REG_T0, 0, &j, &err));
		memcpy(buf, &a, 4);
		memcpy(buf + 4, &j, 4);
		ck_assert_int_eq(at(R_RISCV_CALL, off, buf), SIM_RELOC_OK);
		ck_assert_msg(!rv_gen_call_pair(P0, P0 + off, RV_REG_T0, &a, &j,
						&err), "%s", err.msg);
		ck_assert_uint_eq(rd32(buf), a);
		ck_assert_uint_eq(rd32(buf + 4), j);
		/* jal ra, . */
		ck_assert(!rv_gen_jal(P0, P0, RV_REG_RA, &w, &err));
		memcpy(buf, &w, 4);
		ck_assert_int_eq(at(R_RISCV_JAL, joff, buf), SIM_RELOC_OK);
		ck_assert(!rv_gen_jal(P0, P0 + joff, RV_REG_RA, &w, &err));
		ck_assert_uint_eq(rd32(buf), w);
	}
}
END_TEST

START_TEST(rv_label_arithmetic_wraps_and_keeps_other_bits)
{
	uint8_t b[8] = { 0xc5, 0, 0, 0, 0, 0, 0, 0 };

	/* SUB6 keeps the top two bits (DW_CFA_advance_loc's opcode). */
	ck_assert_int_eq(sim_riscv64_reloc_apply(R_RISCV_SUB6, b, 0, 7, 0, NULL),
			 SIM_RELOC_OK);
	ck_assert_uint_eq(b[0], 0xc0 | ((5 - 7) & 0x3f));
	ck_assert_int_eq(sim_riscv64_reloc_apply(R_RISCV_SET6, b, 0, 0x41, 0, NULL),
			 SIM_RELOC_OK);
	ck_assert_uint_eq(b[0], 0xc1);
	memset(b, 0, sizeof(b));
	ck_assert_int_eq(sim_riscv64_reloc_apply(R_RISCV_SUB16, b, 0, 1, 0, NULL),
			 SIM_RELOC_OK);
	ck_assert(b[0] == 0xff && b[1] == 0xff && b[2] == 0);
	ck_assert_int_eq(sim_riscv64_reloc_apply(R_RISCV_ADD16, b, 0, 3, 0, NULL),
			 SIM_RELOC_OK);
	ck_assert(b[0] == 2 && b[1] == 0);
	ck_assert_int_eq(sim_riscv64_reloc_width(R_RISCV_TPREL_HI20), -1);
	ck_assert_str_eq(sim_riscv64_reloc_name(R_RISCV_RVC_JUMP), "R_RISCV_RVC_JUMP");
	ck_assert_str_eq(sim_riscv64_reloc_name(200), "R_RISCV_<unknown 200>");
	ck_assert_int_eq(sim_riscv64_reloc_apply(200, b, 0, 0, 0, NULL),
			 SIM_RELOC_UNKNOWN);
}
END_TEST

static Suite *riscv64_reloc_suite(void)
{
	Suite *s = suite_create("riscv64_reloc");
	TCase *t = tcase_create("rv_reloc");

	tcase_add_test(t, rv_pc_relative_ranges_end_where_the_psabi_says);
	tcase_add_test(t, rv_call_and_jal_fields_match_the_encoders);
	tcase_add_test(t, rv_label_arithmetic_wraps_and_keeps_other_bits);
	suite_add_tcase(s, t);
	return s;
}
FTV_SUITE(riscv64_reloc, riscv64_reloc_suite)
