/* The loader links real GCC/GAS output: every relocation type lands the
 * right value in the right bits, overflows and undefined symbols are
 * refused with a message naming the place, trap stubs and PLT veneers
 * work, modules (.ko, .ko.xz) load and link incrementally. */
#include "tests/suite.h"
#include "encoders/a64.h"
#include "sim/image.h"
#include "sim/reloc_arm64.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int64_t sext(uint64_t v, int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static uint32_t rd(struct sim_aspace *as, uint64_t a)
{
	uint32_t w = 0;

	ck_assert_int_eq(sim_read32(as, a, &w), 0);
	return w;
}

static uint64_t sym(struct sim_image *img, const char *name)
{
	uint64_t a = sim_image_lookup(img, name);

	ck_assert_msg(a, "symbol %s not linked", name);
	return a;
}

static struct sim_image *load(struct sim_aspace *as, const char *const *rel,
			      int n, int as_module,
			      const struct sim_load_opts *o)
{
	struct sim_image *img = sim_image_new(as, o);
	struct ftv_err err = { "" };
	char path[512];

	ck_assert_ptr_nonnull(img);
	for (int i = 0; i < n; i++) {
		ftv_test_path(path, sizeof(path), "FTV_BUILD", rel[i]);
		ck_assert_msg(!sim_image_add_file(img, path, as_module, &err),
			      "%s", err.msg);
	}
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	return img;
}

START_TEST(every_relocation_type_inserts_the_right_value)
{
	static const char *const f[] = { "corpus/asm/relocs.o" };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load(as, f, 1, 0, NULL);
	uint64_t P = sym(img, "rel_code"), nf = sym(img, "near_fn");
	uint64_t fd = sym(img, "far_data"), lit = sym(img, "near_lit");
	uint64_t d = sym(img, "rel_data"), v64 = 0;
	uint32_t w, w32 = 0;
	uint16_t h = 0;
	int k = 0;

#define W() (w = rd(as, P + 4 * k), P + 4 * k++)
	{ uint64_t p = W(); ck_assert(a64_is_bl(w));
	  ck_assert_uint_eq(p + sext(w & 0x3ffffff, 26) * 4, nf); }
	{ uint64_t p = W(); ck_assert(a64_is_b(w));
	  ck_assert_uint_eq(p + sext(w & 0x3ffffff, 26) * 4, nf); }
	for (int i = 0; i < 2; i++) { /* b.eq, cbz: imm19 [23:5] */
		uint64_t p = W();
		ck_assert_uint_eq(p + sext((w >> 5) & 0x7ffff, 19) * 4, nf);
	}
	{ uint64_t p = W(); /* tbz: imm14 [18:5] */
	  ck_assert_uint_eq(p + sext((w >> 5) & 0x3fff, 14) * 4, nf); }
	{ uint64_t p = W(); /* ldr literal */
	  ck_assert_uint_eq(p + sext((w >> 5) & 0x7ffff, 19) * 4, lit); }
	{ uint64_t p = W(); /* adr */
	  int64_t imm = sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21);
	  ck_assert_uint_eq(p + imm, nf); }
	for (int i = 0; i < 2; i++) { /* adrp, then add / adrp _nc */
		uint64_t p = W();
		int64_t imm = sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21);

		ck_assert_uint_eq((p & ~0xfffull) + (imm << 12), fd & ~0xfffull);
		if (i == 0) {
			W();
			ck_assert_uint_eq((w >> 10) & 0xfff, fd & 0xfff);
		}
	}
	{ /* ldst 8/16/32/64/128: imm12 scaled by the access size */
		const char *n[] = { "far_b", "far_h", "far_w", "far_data", "far_q" };

		for (int s = 0; s < 5; s++) {
			W();
			ck_assert_uint_eq(((w >> 10) & 0xfff) << s,
					  sym(img, n[s]) & 0xfff);
		}
	}
	for (int g = 3; g >= 0; g--) { /* movz/movk x6 = far_data */
		W();
		ck_assert_uint_eq((w >> 5) & 0xffff, (fd >> (16 * g)) & 0xffff);
	}
	for (int g = 0; g < 3; g++) { /* uabs g0..g2 of 0x1234 */
		W();
		ck_assert_uint_eq((w >> 5) & 0xffff, (0x1234ull >> (16 * g)) & 0xffff);
	}
	for (int g = 0; g < 3; g++) { /* sabs of -0x1234: MOVN ~X */
		W();
		ck_assert_uint_eq((w >> 29) & 3, 0); /* MOVN */
		ck_assert_uint_eq((w >> 5) & 0xffff,
				  (~(uint64_t)-0x1234 >> (16 * g)) & 0xffff);
	}
	for (int g = 3; g >= 0; g--) { /* prel g3, g2..g0 _nc: own P each */
		uint64_t p = W();

		ck_assert_uint_eq((w >> 5) & 0xffff, ((fd - p) >> (16 * g)) & 0xffff);
		if (g == 3)
			ck_assert_uint_eq((w >> 29) & 3, 2); /* MOVZ: X >= 0 */
	}
	{ uint64_t p = W(); /* prel g0 near_fn */
	  ck_assert_uint_eq((w >> 5) & 0xffff, (nf - p) & 0xffff); }
	for (int g = 1; g < 3; g++) {
		uint64_t p = W();

		ck_assert_uint_eq((w >> 5) & 0xffff, ((fd - p) >> (16 * g)) & 0xffff);
	}
#undef W
	ck_assert_int_eq(sim_read64(as, d, &v64), 0);
	ck_assert_uint_eq(v64, nf);                         /* ABS64 */
	sim_read64(as, d + 8, &v64);
	ck_assert_uint_eq(d + 8 + v64, nf);                 /* PREL64 */
	sim_read(as, d + 16, &w32, 4, NULL);
	ck_assert_uint_eq(d + 16 + (int64_t)(int32_t)w32, nf); /* PREL32 */
	sim_read(as, d + 20, &h, 2, NULL);
	ck_assert_uint_eq(d + 20 + (int64_t)(int16_t)h, sym(img, "two_h")); /* PREL16 */
	sim_read(as, d + 24, &w32, 4, NULL);
	ck_assert_uint_eq(w32, 0x1234);                      /* ABS32 */
	sim_read(as, d + 28, &h, 2, NULL);
	ck_assert_uint_eq(h, 0x1234);                        /* ABS16 */
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(reloc_ranges_follow_aaelf64)
{
	uint8_t b[8];
	uint32_t w;
	int64_t x;
	uint64_t P = 0x100000000ull;

	/* CALL26: -2^27 <= X < 2^27 */
	ck_assert(!a64_gen_branch(P, P, 1, &w, NULL)); /* BL . */
	memcpy(b, &w, 4);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_CALL26, b, P, P + (1 << 27) - 4, 0, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_CALL26, b, P, P + (1 << 27), 0, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(x, 1 << 27);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_CALL26, b, P, P - (1 << 27), 0, &x), SIM_RELOC_OK);
	/* TSTBR14: +/-32 KiB; CONDBR19: +/-1 MiB */
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_TSTBR14, b, P, P + 0x7ffc, 0, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_TSTBR14, b, P, P + 0x8000, 0, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_CONDBR19, b, P, P - 0x100000, 0, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_CONDBR19, b, P, P - 0x100004, 0, &x), SIM_RELOC_OVERFLOW);
	/* ABS32: -2^31 <= X < 2^32; PREL16 likewise for 16 bits */
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ABS32, b, P, 0xffffffffull, 0, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ABS32, b, P, 0x100000000ull, 0, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ABS32, b, P, 0, -0x80000000ll, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ABS32, b, P, 0, -0x80000001ll, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_PREL16, b, P, P + 0xffff, 0, &x), SIM_RELOC_OK);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_PREL16, b, P, P + 0x10000, 0, &x), SIM_RELOC_OVERFLOW);
	/* ADRP: +/-4 GiB of pages */
	ck_assert(!a64_gen_adrp(P, P, 16, &w, NULL)); /* ADRP X16, . */
	memcpy(b, &w, 4);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ADR_PREL_PG_HI21, b, P, P + (1ull << 32), 0, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_ADR_PREL_PG_HI21_NC, b, P, P + (1ull << 32), 0, &x), SIM_RELOC_OK);
	/* MOVW_UABS_G0 checks, _NC does not */
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_MOVW_UABS_G0, b, P, 0x10000, 0, &x), SIM_RELOC_OVERFLOW);
	ck_assert_int_eq(sim_arm64_reloc_apply(R_AARCH64_MOVW_UABS_G0_NC, b, P, 0x10000, 0, &x), SIM_RELOC_OK);
	/* unknown types are refused, not ignored */
	ck_assert_int_eq(sim_arm64_reloc_apply(1234, b, P, 0, 0, &x), SIM_RELOC_UNKNOWN);
	ck_assert_int_eq(sim_arm64_reloc_width(1234), -1);
	ck_assert_str_eq(sim_arm64_reloc_name(R_AARCH64_CONDBR19), "R_AARCH64_CONDBR19");
}
END_TEST

START_TEST(overflow_names_object_section_offset_symbol_and_type)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char path[512];

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/asm/overflow.o");
	ck_assert_int_eq(sim_image_add_file(img, path, 0, &err), 0);
	ck_assert_int_eq(sim_image_link(img, &err), -1);
	ck_assert_msg(strstr(err.msg, "overflow.o: .text+0x4: R_AARCH64_ADR_PREL_LO21 against 'ovf_data' overflows (offset 0x"),
		      "%s", err.msg);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(undefined_symbols_fail_the_link_listing_their_names)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char path[512];

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/asm/undef.o");
	ck_assert_int_eq(sim_image_add_file(img, path, 0, &err), 0);
	ck_assert_int_eq(sim_image_link(img, &err), -1);
	ck_assert_msg(strstr(err.msg, "2 undefined symbols: missing_one") &&
		      strstr(err.msg, "missing_two") &&
		      !strstr(err.msg, "maybe_there"), "%s", err.msg);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(stub_undefined_binds_each_name_to_its_own_brk)
{
	static const char *const f[] = { "corpus/asm/undef.o" };
	struct sim_load_opts o = { .stub_undefined = 1 };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load(as, f, 1, 0, &o);
	uint64_t code = sym(img, "undef_code"), t[3], v = 1;
	char buf[128];

	for (int i = 0; i < 3; i++) {
		uint32_t w = rd(as, code + 4 * i);

		ck_assert(a64_is_bl(w));
		t[i] = code + 4 * i + sext(w & 0x3ffffff, 26) * 4;
	}
	ck_assert_str_eq(sim_image_stub_name(img, t[0]), "missing_one");
	ck_assert_str_eq(sim_image_stub_name(img, t[1]), "missing_two");
	ck_assert_uint_eq(t[0], t[2]);       /* one stub per name */
	ck_assert_uint_ne(rd(as, t[0]), rd(as, t[1])); /* distinct BRK #imm */
	ck_assert(a64_is_brk(rd(as, t[0])));
	ck_assert_ptr_null(sim_image_stub_name(img, code));
	ck_assert_str_eq(sim_symbolize(as, t[1], buf, sizeof(buf), 0),
			 "missing_two+0x0/0x10");
	/* the weak undefined reference is 0, not a stub */
	sim_read64(as, sym(img, "undef_weak_ptr"), &v);
	ck_assert_uint_eq(v, 0);
	ck_assert_uint_eq(sim_image_nstubs(img), 2);
	/* what the executor reports when a CPU lands there from the 2nd BL */
	ck_assert_int_eq(sim_image_undefined_call(img, t[1], code + 8, buf,
						  sizeof(buf)), 1);
	ck_assert_str_eq(buf, "called undefined symbol missing_two from undef_code+0x4/0x10");
	ck_assert_int_eq(sim_image_undefined_call(img, code, code, buf,
						  sizeof(buf)), 0);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

/* Follows the BL at a: directly, or through adrp/add/br x16. */
static uint64_t bl_target(struct sim_aspace *as, uint64_t a, int *via_plt)
{
	uint32_t w = rd(as, a);
	uint64_t t = a + sext(w & 0x3ffffff, 26) * 4;
	struct a64_insn adrp, add, br;

	*via_plt = 0;
	if (!a64_decode(rd(as, t), t, &adrp) && adrp.id == A64_ADRP && adrp.rd == 16) {
		ck_assert(!a64_decode(rd(as, t + 4), t + 4, &add));
		ck_assert(add.id == A64_ADD && add.rd == 16 && add.rn == 16 && !add.shift);
		ck_assert(!a64_decode(rd(as, t + 8), t + 8, &br));
		ck_assert(br.id == A64_BR && br.rn == 16);
		*via_plt = 1;
		return adrp.target + (uint64_t)add.imm;
	}
	return t;
}

static void module_calls(int far)
{
	struct sim_load_opts o = { .far_modules = far };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err = { "" };
	char path[512];
	const struct sim_object_info *mi;
	uint64_t strcmp_addr, text = 0, size = 0;
	int calls = 0, plt = 0;

	/* klib.o is "the kernel"; list.o, calling strcmp/strcpy/k_hash in
	 * it, is the module. */
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/klib.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/list.o");
	ck_assert(!sim_image_add_file(img, path, 1, &err));
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	strcmp_addr = sym(img, "strcmp");
	mi = sim_image_object(img, 1);
	ck_assert(mi->is_module);
	ck_assert_str_eq(mi->name, "list");
	for (size_t i = 0; i < mi->nsections; i++)
		if (!strcmp(mi->sections[i].name, ".text")) {
			text = mi->sections[i].addr;
			size = mi->sections[i].size;
		}
	ck_assert_uint_ne(text, 0);
	for (uint64_t a = text; a < text + size; a += 4) {
		int via;

		if (!a64_is_bl(rd(as, a)))
			continue;
		if (bl_target(as, a, &via) == strcmp_addr) {
			calls++;
			plt += via;
		}
	}
	ck_assert_int_gt(calls, 0);
	/* near modules reach the kernel directly; far ones need veneers */
	ck_assert_int_eq(plt, far ? calls : 0);
	ck_assert_uint_eq(mi->nveneers > 0, !!far);
	/* the veneer the patcher asks for, for a BL from the module text to
	 * a kernel function: shared with the loader's own when far */
	{
		uint64_t v = sim_image_veneer(img, text, strcmp_addr, &err);
		uint64_t v2 = sim_image_veneer(img, text + 4, strcmp_addr, &err);
		int via;
		uint32_t bl = 0;
		uint8_t save[4];

		ck_assert_uint_ne(v, 0);
		ck_assert_uint_eq(v, v2);
		ck_assert_msg(!a64_gen_branch(text, v, 1, &bl, &err), "%s", err.msg);
		ck_assert_ptr_nonnull(sim_region_at(as, v));
		ck_assert_str_eq(sim_region_at(as, v)->name, "module.text");
		sim_read(as, text, save, 4, NULL);
		sim_write32(as, text, bl);
		ck_assert_uint_eq(bl_target(as, text, &via), strcmp_addr);
		ck_assert(via);
		sim_write(as, text, save, 4, NULL);
		ck_assert_uint_eq(sim_image_veneer(img, SIM_KDATA_BASE, 0, &err), 0);
	}
	sim_image_free(img);
	sim_aspace_free(as);
}

START_TEST(far_module_calls_go_through_plt_veneers)
{
	module_calls(1);
}
END_TEST

START_TEST(near_module_calls_reach_the_kernel_directly)
{
	module_calls(0);
}
END_TEST

START_TEST(ko_and_ko_xz_load_the_same)
{
	static const char *const ko[] = { "corpus/mod/corpmod.ko" };
	static const char *const xz[] = { "corpus/mod/corpmod.ko.xz" };
	struct sim_aspace *a1 = sim_aspace_new(), *a2 = sim_aspace_new();
	struct sim_image *i1 = load(a1, ko, 1, 1, NULL);
	struct sim_image *i2 = load(a2, xz, 1, 1, NULL);

	ck_assert_uint_gt(sim_image_nsites(i1), 40);
	ck_assert_uint_eq(sim_image_nsites(i1), sim_image_nsites(i2));
	for (size_t i = 0; i < sim_image_nsites(i1); i++) {
		ck_assert_uint_eq(sim_image_site(i1, i)->addr,
				  sim_image_site(i2, i)->addr);
		ck_assert_str_eq(sim_image_site(i2, i)->module, "corpmod");
	}
	ck_assert_str_eq(sim_image_object(i2, 0)->name, "corpmod");
	sim_image_free(i1);
	sim_image_free(i2);
	sim_aspace_free(a1);
	sim_aspace_free(a2);
}
END_TEST

START_TEST(later_links_append_and_resolve_against_earlier_ones)
{
	static const char *const f[] = { "corpus/callops/klib.o" };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load(as, f, 1, 0, NULL);
	struct ftv_err err = { "" };
	char path[512];
	size_t n1 = sim_image_nsites(img);
	const struct sim_object_info *o1 = sim_image_object(img, 0), *o2;
	uint64_t end1 = 0;

	for (size_t i = 0; i < o1->nsections; i++)
		if (o1->sections[i].flags & SHF_EXECINSTR &&
		    o1->sections[i].addr + o1->sections[i].size > end1)
			end1 = o1->sections[i].addr + o1->sections[i].size;
	/* list.o needs strcmp & co from the first link */
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/list.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ck_assert_msg(!sim_image_link(img, &err), "%s", err.msg);
	o2 = sim_image_object(img, 1);
	ck_assert_uint_ge(o2->sections[0].addr, end1);
	ck_assert_uint_gt(sim_image_nsites(img), n1);
	ck_assert_uint_eq(sim_image_nstubs(img), 0);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(duplicate_strong_definitions_are_refused)
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = sim_image_new(as, NULL);
	struct ftv_err err = { "" };
	char path[512];

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops/klib.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/callops-bti/klib.o");
	ck_assert(!sim_image_add_file(img, path, 0, &err));
	ck_assert_int_eq(sim_image_link(img, &err), -1);
	ck_assert_msg(strstr(err.msg, "multiple definition of 'memset'"), "%s",
		      err.msg);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

START_TEST(common_symbols_merge_into_kernel_bss)
{
	static const char *const f[] = { "corpus/asm/common_a.o",
					 "corpus/asm/common_b.o" };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_image *img = load(as, f, 2, 0, NULL);
	uint64_t buf = sym(img, "shared_buf"), a = 0, b = 0;
	const struct sim_symbol *s = sim_sym_lookup(as, "shared_buf");

	ck_assert_str_eq(sim_region_at(as, buf)->name, "kernel.bss");
	ck_assert_uint_eq(buf & 31, 0);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->size, 64);
	sim_read64(as, sym(img, "ref_a"), &a);
	sim_read64(as, sym(img, "ref_b"), &b);
	ck_assert_uint_eq(a, buf);
	ck_assert_uint_eq(b, buf);
	sim_image_free(img);
	sim_aspace_free(as);
}
END_TEST

static Suite *loader_suite(void)
{
	Suite *s = suite_create("loader");
	TCase *tc = tcase_create("loader");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_relocation_type_inserts_the_right_value);
	tcase_add_test(tc, reloc_ranges_follow_aaelf64);
	tcase_add_test(tc, overflow_names_object_section_offset_symbol_and_type);
	tcase_add_test(tc, undefined_symbols_fail_the_link_listing_their_names);
	tcase_add_test(tc, stub_undefined_binds_each_name_to_its_own_brk);
	tcase_add_test(tc, far_module_calls_go_through_plt_veneers);
	tcase_add_test(tc, near_module_calls_reach_the_kernel_directly);
	tcase_add_test(tc, ko_and_ko_xz_load_the_same);
	tcase_add_test(tc, later_links_append_and_resolve_against_earlier_ones);
	tcase_add_test(tc, duplicate_strong_definitions_are_refused);
	tcase_add_test(tc, common_symbols_merge_into_kernel_bss);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(loader, loader_suite)
