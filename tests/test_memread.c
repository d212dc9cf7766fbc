/* What memory an instruction reads (encoders/memread.h), on words GNU as
 * 2.40 assembled from the text beside each (aarch64-linux-gnu-as
 * -march=armv8.4-a+lse+rcpc; riscv64-linux-gnu-as -march=rv64gc), among
 * them every load form the trampolines and tracers use. */
#include "tests/suite.h"

#include "encoders/memread.h"

struct vec {
	uint32_t word;
	const char *text;
	enum memread_kind kind;
	unsigned base, index;
	enum memread_ext ext;
	unsigned shift;
	int64_t offset;
	unsigned len;
};

#define B(w, t, b, off, n) { w, t, MR_BASE, b, 0, MR_EXT_UXTX, 0, off, n }
#define X(w, t, b, i, e, s, n) { w, t, MR_INDEX, b, i, e, s, 0, n }
#define P(w, t, off, n) { w, t, MR_PCREL, 0, 0, MR_EXT_UXTX, 0, off, n }
#define N(w, t) { w, t, MR_NONE, 0, 0, MR_EXT_UXTX, 0, 0, 0 }
#define U(w, t) { w, t, MR_UNKNOWN, 0, 0, MR_EXT_UXTX, 0, 0, 0 }

static const struct vec a64[] = {
	B(0xf9401406, "ldr x6, [x0, #40]", 0, 40, 8),
	B(0xb9400441, "ldr w1, [x2, #4]", 2, 4, 4),
	B(0x39400c41, "ldrb w1, [x2, #3]", 2, 3, 1),
	B(0x79400c41, "ldrh w1, [x2, #6]", 2, 6, 2),
	B(0xb9800841, "ldrsw x1, [x2, #8]", 2, 8, 4),
	B(0x39800441, "ldrsb x1, [x2, #1]", 2, 1, 1),
	B(0xf85f80e4, "ldur x4, [x7, #-8]", 7, -8, 8),
	B(0xf85f016b, "ldur x11, [x11, #-16]", 11, -16, 8),
	B(0xf8410c41, "ldr x1, [x2, #16]!", 2, 16, 8),
	B(0xf8410441, "ldr x1, [x2], #16", 2, 0, 8),
	B(0xf8408841, "ldtr x1, [x2, #8]", 2, 8, 8),
	X(0xf86078e3, "ldr x3, [x7, x0, lsl #3]", 7, 0, MR_EXT_UXTX, 3, 8),
	X(0xf8606860, "ldr x0, [x3, x0]", 3, 0, MR_EXT_UXTX, 0, 8),
	X(0xb864d860, "ldr w0, [x3, w4, sxtw #2]", 3, 4, MR_EXT_SXTW, 2, 4),
	X(0xf8644860, "ldr x0, [x3, w4, uxtw]", 3, 4, MR_EXT_UXTW, 0, 8),
	X(0x38646860, "ldrb w0, [x3, x4]", 3, 4, MR_EXT_UXTX, 0, 1),
	B(0xa9425bf5, "ldp x21, x22, [sp, #32]", 31, 32, 16),
	B(0xa8c37bfd, "ldp x29, x30, [sp], #48", 31, 0, 16),
	B(0x29ff0861, "ldp w1, w2, [x3, #-8]!", 3, -8, 8),
	B(0x69410861, "ldpsw x1, x2, [x3, #8]", 3, 8, 8),
	B(0xa8410861, "ldnp x1, x2, [x3, #16]", 3, 16, 16),
	P(0x5800006b, "ldr x11, .+12", 12, 8),
	P(0x18ffffcb, "ldr w11, .-8", -8, 4),
	P(0x9800008b, "ldrsw x11, .+16", 16, 4),
	N(0xf9800400, "prfm pldl1keep, [x0, #8]"),
	N(0xd8000040, "prfm pldl1keep, .+8"),
	B(0xc8dffc41, "ldar x1, [x2]", 2, 0, 8),
	B(0x885ffc41, "ldaxr w1, [x2]", 2, 0, 4),
	B(0xc87f0861, "ldxp x1, x2, [x3]", 3, 0, 16),
	B(0xf8bfc041, "ldapr x1, [x2]", 2, 0, 8),
	B(0xd95fc041, "ldapur x1, [x2, #-4]", 2, -4, 8),
	B(0xf8210062, "ldadd x1, x2, [x3]", 3, 0, 8),
	B(0xf8218062, "swp x1, x2, [x3]", 3, 0, 8),
	B(0xc8a17c62, "cas x1, x2, [x3]", 3, 0, 8),
	B(0xfd400420, "ldr d0, [x1, #8]", 1, 8, 8),
	B(0x3dc00420, "ldr q0, [x1, #16]", 1, 16, 16),
	B(0x3cdf0021, "ldur q1, [x1, #-16]", 1, -16, 16),
	N(0xf9000420, "str x0, [x1, #8]"),
	N(0xa9bf7bfd, "stp x29, x30, [sp, #-16]!"),
	N(0xf81f8020, "stur x0, [x1, #-8]"),
	N(0xc89ffc20, "stlr x0, [x1]"),
	N(0xc8027c20, "stxr w2, x0, [x1]"),
	N(0xd91f8020, "stlur x0, [x1, #-8]"),
	N(0xd503201f, "nop"),
	N(0xaa1e03e9, "mov x9, x30"),
	U(0x4c407000, "ld1 {v0.16b}, [x0]"),
};

static const struct vec rv[] = {
	B(0x02853803, "ld a6, 40(a0)", 10, 40, 8),
	B(0xff88b503, "ld a0, -8(a7)", 17, -8, 8),
	B(0x00462583, "lw a1, 4(a2)", 12, 4, 4),
	B(0x00466583, "lwu a1, 4(a2)", 12, 4, 4),
	B(0xffe61583, "lh a1, -2(a2)", 12, -2, 2),
	B(0x00265583, "lhu a1, 2(a2)", 12, 2, 2),
	B(0x00160583, "lb a1, 1(a2)", 12, 1, 1),
	B(0x00164583, "lbu a1, 1(a2)", 12, 1, 1),
	B(0x0085b507, "fld fa0, 8(a1)", 11, 8, 8),
	B(0x0045a507, "flw fa0, 4(a1)", 11, 4, 4),
	B(0x1005b52f, "lr.d a0, (a1)", 11, 0, 8),
	B(0x1005a52f, "lr.w a0, (a1)", 11, 0, 4),
	B(0x00c5a52f, "amoadd.w a0, a2, (a1)", 11, 0, 4),
	N(0x18c5b52f, "sc.d a0, a2, (a1)"),
	N(0x00a5b423, "sd a0, 8(a1)"),
	N(0x00458513, "addi a0, a1, 4"),
	N(0x0ff0000f, "fence iorw, iorw"),
	B(0x6318, "c.ld a4, 0(a4)", 14, 0, 8),
	B(0x6a9c, "c.ld a5, 16(a3)", 13, 16, 8),
	B(0x424c, "c.lw a1, 4(a2)", 12, 4, 4),
	B(0x42dc, "c.lw a5, 4(a3)", 13, 4, 4),
	B(0x6562, "c.ldsp a0, 24(sp)", 2, 24, 8),
	B(0x4532, "c.lwsp a0, 12(sp)", 2, 12, 4),
	B(0x2588, "c.fld fa0, 8(a1)", 11, 8, 8),
	N(0xe588, "c.sd a0, 8(a1)"),
	N(0xe42a, "c.sdsp a0, 8(sp)"),
	N(0x0001, "c.nop"),
	/* a compressed load followed by anything: only the low 16 bits count */
	B(0x12346318, "c.ld a4, 0(a4) + next parcel", 14, 0, 8),
};

static void check(const struct vec *v, int (*fn)(uint32_t, struct memread *))
{
	struct memread m;
	int r = fn(v->word, &m);

	ck_assert_msg(r == (v->kind != MR_NONE), "%08x %s: returns %d", v->word, v->text, r);
	ck_assert_msg(m.kind == v->kind, "%08x %s: kind %d, want %d", v->word, v->text,
		      m.kind, v->kind);
	if (v->kind == MR_NONE || v->kind == MR_UNKNOWN)
		return;
	ck_assert_msg(m.len == v->len, "%08x %s: len %u, want %u", v->word, v->text, m.len,
		      v->len);
	ck_assert_msg(m.offset == v->offset, "%08x %s: offset %lld, want %lld", v->word,
		      v->text, (long long)m.offset, (long long)v->offset);
	if (v->kind == MR_PCREL)
		return;
	ck_assert_msg(m.base == v->base, "%08x %s: base %u, want %u", v->word, v->text,
		      m.base, v->base);
	if (v->kind == MR_INDEX)
		ck_assert_msg(m.index == v->index && m.ext == v->ext && m.shift == v->shift,
			      "%08x %s: index %u ext %d shift %u", v->word, v->text, m.index,
			      m.ext, m.shift);
}

START_TEST(a64_memread_decodes_every_load_form)
{
	check(&a64[_i], a64_memread);
}
END_TEST

START_TEST(rv_memread_decodes_every_load_form)
{
	check(&rv[_i], rv_memread);
}
END_TEST

/* The address from the registers: extends, shifts, pc-relative. */
START_TEST(memread_addr_applies_extend_shift_and_offset)
{
	struct memread m;

	ck_assert(a64_memread(0xb864d860, &m)); /* ldr w0, [x3, w4, sxtw #2] */
	ck_assert_uint_eq(memread_addr(&m, 0, 0x1000, 0xffffffffULL), 0x1000 - 4);
	ck_assert(a64_memread(0xf8644860, &m)); /* ldr x0, [x3, w4, uxtw] */
	ck_assert_uint_eq(memread_addr(&m, 0, 0x1000, 0x1ffffffffULL), 0x1000 + 0xffffffffULL);
	ck_assert(a64_memread(0xf86078e3, &m)); /* ldr x3, [x7, x0, lsl #3] */
	ck_assert_uint_eq(memread_addr(&m, 0, 0x1000, 3), 0x1018);
	ck_assert(a64_memread(0x18ffffcb, &m)); /* ldr w11, .-8 */
	ck_assert_uint_eq(memread_addr(&m, 0x2000, 0, 0), 0x1ff8);
	ck_assert(rv_memread(0xff88b503, &m)); /* ld a0, -8(a7) */
	ck_assert_uint_eq(memread_addr(&m, 0, 0x3000, 0), 0x2ff8);
}
END_TEST

static Suite *memread_suite(void)
{
	Suite *s = suite_create("memread");
	TCase *tc = tcase_create("memread");

	tcase_add_loop_test(tc, a64_memread_decodes_every_load_form, 0,
			    (int)(sizeof(a64) / sizeof(a64[0])));
	tcase_add_loop_test(tc, rv_memread_decodes_every_load_form, 0,
			    (int)(sizeof(rv) / sizeof(rv[0])));
	tcase_add_test(tc, memread_addr_applies_extend_shift_and_offset);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(memread, memread_suite)
