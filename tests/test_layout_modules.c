/* The layout's module records (image:, module:, placed text ranges): they
 * parse, write back byte for byte, every bad one is named FILE:LINE, and
 * the loader model places modules as arm64's would (lowest fit with a
 * guard page, the direct window first, then the PLT window). */
#include "tests/suite.h"
#include "layout/layout.h"
#include "layout/layout_place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAC "d503201f:d503201f:d503201f:d503201f:d503233f:a9bf7bfd"
#define LEAF "d503201f:d503201f:d503201f:d503201f:d65f03c0:d503201f"

/* A kernel, a module read from its file (line 10) and one loaded far away
 * with its ftrace PLT captured (line 11). Site lines are 17..19. */
static const char valid[] =
	"# ftv-layout 1\n"
	"# source: test\n"
	"# kernel: 6.1.0-ftvtest\n"
	"# arch: arm64\n"
	"# addresses: mixed\n"
	"# image: ffff800080000000 ffff800080100000\n"
	"# table-entries: 3\n"
	"# table-null: 0\n"
	"# sites: 3\n"
	"# module: mod 1000,200,100,0,80,40,1 text+400\n"
	"# module: far - ffff800010000800\n"
	"# text: ffff800080000000 ffff800080001000 vmlinux/.text\n"
	"# text: 0000000000000000 0000000000000100 mod/.text text+0\n"
	"# text: 0000000000000000 0000000000000040 mod/.init.text init_text+0\n"
	"# text: ffff800010000000 ffff800010000100 far/.text\n"
	"# fields: entry ip func faddr fsize module kind words\n"
	"ffff800080000020 ffff80008000002c f_pac ffff800080000028 38 vmlinux callops-pac " PAC "\n"
	"0000000000000040 000000000000004c m_f 0000000000000048 18 mod/.text callops " LEAF "\n"
	"ffff800010000000 ffff80001000000c far_f ffff800010000008 18 far callops " LEAF "\n";

static struct sim_layout *parse(const char *text, struct ftv_err *err)
{
	return sim_layout_parse(text, strlen(text), "t.layout", err);
}

START_TEST(module_records_parse_and_write_back)
{
	struct ftv_err err;
	struct sim_layout *l = parse(valid, &err);
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(l, "%s", err.msg);
	ck_assert(l->has_image && l->image_start == 0xffff800080000000ull &&
		  l->image_end == 0xffff800080100000ull);
	ck_assert_uint_eq(l->nmodules, 2);
	ck_assert_str_eq(l->modules[0].name, "mod");
	ck_assert(l->modules[0].has_mem);
	ck_assert_uint_eq(l->modules[0].mem[SIM_MOD_TEXT], 0x1000);
	ck_assert_uint_eq(l->modules[0].mem[SIM_MOD_INIT_TEXT], 0x80);
	ck_assert_uint_eq(l->modules[0].mem[SIM_MOD_INIT_RODATA], 1);
	ck_assert_int_eq(l->modules[0].plt_kind, SIM_PLT_OFFSET);
	ck_assert_uint_eq(l->modules[0].plt, 0x400);
	ck_assert(!l->modules[1].has_mem);
	ck_assert_int_eq(l->modules[1].plt_kind, SIM_PLT_ADDR);
	ck_assert_uint_eq(l->modules[1].plt, 0xffff800010000800ull);
	ck_assert_int_eq(l->texts[0].mem, -1);
	ck_assert_int_eq(l->texts[1].mem, SIM_MOD_TEXT);
	ck_assert_int_eq(l->texts[2].mem, SIM_MOD_INIT_TEXT);
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(sim_layout_write(f, l, &err), 0);
	fclose(f);
	ck_assert_str_eq(buf, valid);
	free(buf);
	sim_layout_free(l);
}
END_TEST

/* Line `line` of valid replaced by `value` (NULL: deleted). */
static const struct {
	int line;
	const char *value, *expect;
} bad[] = {
	{ 6, "# image: ffff800080100000 ffff800080000000",
	  "t.layout:6:27: image: end ffff800080000000 is not above start ffff800080100000" },
	{ 6, "# image: ffff800080000000", "t.layout:6:10: image: expected 'START END'" },
	{ 6, "# image: ffff800080000000 80100000", "t.layout:6:27: image: end '80100000' is not 16 hex digits" },
	{ 10, "# module: mod 1000,200,100 text+400",
	  "t.layout:10:24: module: memory sizes '1000,200,100' are not '-' or seven hex sizes" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1,2 text+400", "t.layout:10:" },
	{ 10, "# module: mod 1000,200,100,0,80,40,x text+400", "t.layout:10:" },
	{ 10, "# module: vmlinux - -", "t.layout:10:11: module: 'vmlinux' is not a module name" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1", "t.layout:10:11: module: expected 'NAME MEM PLT'" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1 data+10",
	  "t.layout:10:38: module: PLT: 'data+10' is not text+OFFSET or init_text+OFFSET" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1 init_text+0",
	  "t.layout:10:38: module: the ftrace PLT lives in the module's text (text+OFFSET), not in init_text" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1 text+402", "t.layout:10:38: module: the ftrace PLT at text+402 is not 4-byte aligned" },
	{ 10, "# module: mod 1000,200,100,0,80,40,1 text+ff8",
	  "t.layout:10:1: module: mod's ftrace PLT at text+ff8 (12 bytes) lies beyond its text (size 1000)" },
	{ 10, "# module: mod - text+400", "t.layout:10:17: module: a PLT offset needs the module's memory sizes" },
	{ 11, "# module: far 1000,0,0,0,0,0,0 ffff800010000800",
	  "t.layout:11:32: module: a PLT address belongs to a loaded module, whose memory sizes are '-'" },
	{ 11, "# module: mod - -", "t.layout:11:11: module: mod is already described on line 10" },
	{ 13, "# text: 0000000000000000 0000000000000100 mod/.text",
	  "t.layout:13:1: text: mod/.text lacks its place in the module (text+OFFSET or init_text+OFFSET): module mod was read from its file (line 10)" },
	{ 13, "# text: 0000000000000000 0000000000000100 mod/.text text+f80",
	  "t.layout:13:1: text: mod/.text at text+f80 ends at text+1080, beyond the module's text (size 1000, line 10)" },
	{ 13, "# text: 0000000000000000 0000000000000100 mod/.text text+3f8",
	  "t.layout:13:1: text: [text+3f8, text+4f8) of module mod overlaps what line 10 places there" },
	{ 13, "# text: 0000000000000000 0000000000000100 mod/.text rodata+0",
	  "t.layout:13:53: text: 'rodata+0' is not text+OFFSET or init_text+OFFSET" },
	{ 13, "# text: 0000000000000000 0000000000000100 mod/.text text+zz",
	  "t.layout:13:58: text: offset 'zz' is not 1-16 hex digits" },
	{ 15, "# text: ffff800010000000 ffff800010000100 far/.text text+0",
	  "t.layout:15:1: text: far/.text is placed in text, but no 'module:' line gives the memory sizes of far" },
	{ 18, "0000000000000040 000000000000004c m_f 0000000000000048 18 mod callops " LEAF,
	  "t.layout:18:59: field 6 (module): module mod was read from its file (line 10): its sites are MODULE/SECTION offsets" },
	{ 19, "ffff800010000000 ffff80001000000c far_f ffff800010000008 18 far/.text callops " LEAF,
	  "t.layout:19:61: field 6 (module): module far was loaded (line 11): its sites have addresses, not sections" },
	{ 6, "# image: ffff800080000000 ffff800080100000 x", "t.layout:6:10: image: expected 'START END'" },
};

static char *replace_line(int line, const char *value)
{
	char *out = malloc(sizeof(valid) + 512), *o = out;
	const char *p = valid;

	ck_assert_ptr_nonnull(out);
	for (int n = 1; *p; n++) {
		const char *nl = strchr(p, '\n');

		if (n != line) {
			memcpy(o, p, nl - p + 1);
			o += nl - p + 1;
		} else if (value) {
			o += sprintf(o, "%s\n", value);
		}
		p = nl + 1;
	}
	*o = 0;
	return out;
}

START_TEST(bad_module_records_are_named_by_line)
{
	char *text = replace_line(bad[_i].line, bad[_i].value);
	struct ftv_err err = { "" };
	struct sim_layout *l = parse(text, &err);

	ck_assert_msg(!l, "case %d parsed:\n%s", _i, text);
	ck_assert_msg(strstr(err.msg, bad[_i].expect), "case %d: got '%s', want '%s'",
		      _i, err.msg, bad[_i].expect);
	ck_assert_msg(!strchr(err.msg, '\n'), "case %d: multi-line error", _i);
	free(text);
}
END_TEST

/* Layouts written before module records still read, and still say their
 * module sites are section-relative: nothing to place them with, which
 * replay reports. */
START_TEST(old_layouts_without_records_still_parse)
{
	char *text = replace_line(10, NULL), *t2;
	struct ftv_err err;
	struct sim_layout *l, *c;
	struct sim_layout_placement p;
	const struct sim_placed_module *m;

	/* drop the record and the placements that need it */
	t2 = strstr(text, " text+0\n");
	ck_assert_ptr_nonnull(t2);
	memmove(t2, t2 + 7, strlen(t2 + 7) + 1);
	t2 = strstr(text, " init_text+0\n");
	ck_assert_ptr_nonnull(t2);
	memmove(t2, t2 + 12, strlen(t2 + 12) + 1);
	l = parse(text, &err);
	ck_assert_msg(l, "%s\n%s", err.msg, text);
	ck_assert_uint_eq(l->nmodules, 1);
	ck_assert_int_eq(l->texts[1].mem, -1);
	/* placing it: mod cannot be; its offsets get no address (its text
	 * ranges leave the placed copy, its site stays section-relative) */
	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, false, &p, &err), 0);
	m = sim_layout_placed_module(&p, "mod");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->how, SIM_PLACE_NONE);
	ck_assert_ptr_nonnull(strstr(m->why, "no 'module:' line"));
	c = sim_layout_placed(l, &p);
	ck_assert_uint_eq(c->ntexts, 2);
	ck_assert_str_eq(c->sites[1].section, ".text");
	sim_layout_free(c);
	sim_layout_placement_free(&p);
	sim_layout_free(l);
	free(text);
}
END_TEST

/* A layout of modules to place: image [0xffff800080000000, +size), and
 * modules of the given text/data sizes (the other memories empty). */
static struct sim_layout *modules(uint64_t image_size, int n,
				  const uint64_t *text, const uint64_t *data)
{
	struct sim_layout *l = sim_layout_new();

	sim_layout_set(l, &l->arch, "arm64");
	l->has_image = true;
	l->image_start = 0xffff800080000000ull;
	l->image_end = l->image_start + image_size;
	for (int i = 0; i < n; i++) {
		struct sim_layout_module m = { .has_mem = true, .plt_kind = SIM_PLT_OFFSET };
		char name[16];

		snprintf(name, sizeof(name), "m%d", i);
		m.name = name;
		m.mem[SIM_MOD_TEXT] = text[i];
		m.mem[SIM_MOD_DATA] = data[i];
		m.plt = text[i] - 12;
		sim_layout_add_module(l, &m);
	}
	return l;
}

/* Each memory page-rounded with a guard page after it, lowest fit first:
 * m0's text at the window's bottom, its data two pages up, m1 after. */
START_TEST(loader_places_modules_lowest_first_with_guard_pages)
{
	const uint64_t text[] = { 0x1800, 0x10 }, data[] = { 0x200, 0 };
	struct sim_layout *l = modules(0x1e70000, 2, text, data);
	struct sim_layout_placement p;
	struct ftv_err err;
	uint64_t lo = 0xffff800081e70000ull - (128ull << 20);

	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, false, &p, &err), 0);
	ck_assert_uint_eq(p.direct_lo, lo);
	ck_assert_uint_eq(p.direct_hi, 0xffff800081e70000ull);
	ck_assert_uint_eq(p.plt_lo, 0xffff800081e70000ull - (2ull << 30));
	ck_assert_uint_eq(p.nmods, 2);
	ck_assert_int_eq(p.mods[0].how, SIM_PLACE_DIRECT);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_TEXT], lo);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_DATA], lo + 0x3000);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_RODATA], 0);
	ck_assert_uint_eq(p.mods[0].plt, lo + 0x1800 - 12);
	ck_assert(p.mods[0].plt_captured);
	ck_assert_uint_eq(p.mods[1].base[SIM_MOD_TEXT], lo + 0x5000);
	ck_assert_uint_eq(p.direct, 2);
	sim_layout_placement_free(&p);
	/* --far-modules: the same, from the PLT window's bottom */
	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, true, &p, &err), 0);
	ck_assert_int_eq(p.mods[0].how, SIM_PLACE_PLT);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_TEXT], p.plt_lo);
	ck_assert_uint_eq(p.plt, 2);
	sim_layout_placement_free(&p);
	sim_layout_free(l);
}
END_TEST

/* A kernel image filling all but 4 pages of the 128 MiB window: the first
 * module's text (one page and a guard) fits there, its data (two pages and
 * a guard) goes to the 2 GiB window, where calls need the PLT; the next
 * module's text takes the last two pages. Without an image line nothing
 * can be placed. */
START_TEST(a_full_direct_window_sends_modules_to_the_plt_window)
{
	const uint64_t text[] = { 0x800, 0x800 }, data[] = { 0x2000, 0 };
	struct sim_layout *l = modules((128ull << 20) - 0x4000, 2, text, data);
	struct sim_layout_placement p;
	struct ftv_err err;

	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, false, &p, &err), 0);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_TEXT], p.direct_lo);
	ck_assert_uint_eq(p.mods[0].base[SIM_MOD_DATA], p.plt_lo);
	ck_assert_int_eq(p.mods[0].how, SIM_PLACE_PLT);
	ck_assert_uint_eq(p.mods[1].base[SIM_MOD_TEXT], p.direct_lo + 0x2000);
	ck_assert_int_eq(p.mods[1].how, SIM_PLACE_DIRECT);
	sim_layout_placement_free(&p);
	l->has_image = false;
	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, false, &p, &err), 0);
	ck_assert_int_eq(p.mods[0].how, SIM_PLACE_NONE);
	ck_assert_ptr_nonnull(strstr(p.mods[0].why, "no 'image:' line"));
	ck_assert_uint_eq(p.none, 2);
	sim_layout_placement_free(&p);
	sim_layout_free(l);
}
END_TEST

/* The placed copy: the module's sites and ranges at base + offset, the
 * loaded module's as captured, site i still site i. */
START_TEST(placed_copy_has_absolute_module_sites)
{
	struct ftv_err err;
	struct sim_layout *l = parse(valid, &err), *c;
	struct sim_layout_placement p;
	uint64_t base;

	ck_assert_msg(l, "%s", err.msg);
	ck_assert_int_eq(sim_layout_place(l, &sim_layout_arm64, false, &p, &err), 0);
	base = p.mods[0].base[SIM_MOD_TEXT];
	ck_assert_uint_eq(base, 0xffff800080100000ull - (128ull << 20));
	ck_assert_int_eq(p.mods[1].how, SIM_PLACE_CAPTURED);
	ck_assert_uint_eq(p.mods[1].plt, 0xffff800010000800ull);
	c = sim_layout_placed(l, &p);
	ck_assert_uint_eq(c->nsites, 3);
	ck_assert_ptr_null(c->sites[1].section);
	ck_assert_uint_eq(c->sites[1].entry, base + 0x40);
	ck_assert_uint_eq(c->sites[1].ip, base + 0x4c);
	ck_assert_uint_eq(c->sites[1].faddr, base + 0x48);
	ck_assert_uint_eq(c->sites[2].ip, 0xffff80001000000cull);
	ck_assert_uint_eq(c->texts[1].start, base);
	ck_assert_uint_eq(c->texts[2].start, p.mods[0].base[SIM_MOD_INIT_TEXT]);
	sim_layout_free(c);
	sim_layout_placement_free(&p);
	sim_layout_free(l);
}
END_TEST

static Suite *layout_modules_suite(void)
{
	Suite *s = suite_create("layout_modules");
	TCase *tc = tcase_create("modules");

	tcase_add_test(tc, module_records_parse_and_write_back);
	tcase_add_loop_test(tc, bad_module_records_are_named_by_line, 0,
			    sizeof(bad) / sizeof(bad[0]));
	tcase_add_test(tc, old_layouts_without_records_still_parse);
	tcase_add_test(tc, loader_places_modules_lowest_first_with_guard_pages);
	tcase_add_test(tc, a_full_direct_window_sends_modules_to_the_plt_window);
	tcase_add_test(tc, placed_copy_has_absolute_module_sites);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(layout_modules, layout_modules_suite)
