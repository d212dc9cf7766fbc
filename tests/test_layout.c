/* The layout format: round trips, the arm64 classifier, and a strict
 * parser that names file:line:column and the field for every malformed
 * line (each field spoiled in turn). */
#include "tests/suite.h"
#include "layout/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A valid layout using every kind of field value: callops-bti,
 * callops-pac, a misaligned CALL_OPS site ftrace skips, a live-capture
 * site without words, a site no symbol covers, a section-relative module
 * site. Site lines are 12..17. */
static const char valid[] =
	"# ftv-layout 1\n"
	"# source: test\n"
	"# kernel: 6.1.0-ftvtest\n"
	"# arch: arm64\n"
	"# addresses: mixed\n"
	"# table-entries: 10\n"
	"# table-null: 1\n"
	"# sites: 6\n"
	"# text: ffff800080000000 ffff800080001000 vmlinux/.text\n"
	"# text: 0000000000000000 0000000000000100 mod/.text\n"
	"# fields: entry ip func faddr fsize module kind words\n"
	"ffff800080000000 ffff800080000010 f_bti ffff800080000008 14 vmlinux callops-bti d503201f:d503201f:d503245f:d503201f:d503201f:11000400\n"
	"ffff800080000020 ffff80008000002c f_pac ffff800080000028 38 vmlinux callops-pac d503201f:d503201f:d503201f:d503201f:d503233f:a9bf7bfd\n"
	"ffff800080000084 - f_mis ffff80008000008c c vmlinux unknown d503201f:d503201f:d503201f:d503201f:d65f03c0:d503201f\n"
	"- ffff800080000104 f_live ffff800080000100 40 vmlinux unknown -\n"
	"ffff8000800000d0 - ? - - vmlinux unknown d503201f:d503201f:d503201f:d503201f\n"
	"0000000000000000 000000000000000c m_f 0000000000000008 18 mod/.text callops d503201f:d503201f:d503201f:d503201f:52800b41:d65f03c0\n";

static struct sim_layout *parse(const char *text, struct ftv_err *err)
{
	return sim_layout_parse(text, strlen(text), "t.layout", err);
}

static char *write_str(const struct sim_layout *l)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct ftv_err err;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sim_layout_write(f, l, &err), 0);
	fclose(f);
	return buf;
}

START_TEST(valid_layout_parses_into_its_fields)
{
	struct ftv_err err;
	struct sim_layout *l = parse(valid, &err);
	const struct sim_layout_site *s;

	ck_assert_msg(l, "%s", err.msg);
	ck_assert_uint_eq(l->nsites, 6);
	ck_assert_uint_eq(l->ntexts, 2);
	ck_assert_str_eq(l->kernel, "6.1.0-ftvtest");
	ck_assert(l->has_table);
	ck_assert_uint_eq(l->table_entries, 10);
	ck_assert_uint_eq(l->table_null, 1);
	s = &l->sites[0];
	ck_assert(s->has_entry && s->has_ip && s->has_fsize);
	ck_assert_uint_eq(s->entry, 0xffff800080000000ULL);
	ck_assert_uint_eq(s->ip, 0xffff800080000010ULL);
	ck_assert_str_eq(s->func, "f_bti");
	ck_assert_uint_eq(s->faddr, 0xffff800080000008ULL);
	ck_assert_uint_eq(s->fsize, 0x14);
	ck_assert_str_eq(s->module, "vmlinux");
	ck_assert_ptr_null(s->section);
	ck_assert_int_eq(s->kind, SIM_LAYOUT_CALLOPS_BTI);
	ck_assert_uint_eq(s->nwords, 6);
	ck_assert_uint_eq(s->words[2], 0xd503245f);
	ck_assert(!l->sites[2].has_ip);
	ck_assert(!l->sites[3].has_entry);
	ck_assert_uint_eq(l->sites[3].nwords, 0);
	ck_assert_ptr_null(l->sites[4].func);
	ck_assert(!l->sites[4].has_fsize);
	ck_assert_str_eq(l->sites[5].module, "mod");
	ck_assert_str_eq(l->sites[5].section, ".text");
	/* Interned: the module string is shared by every site naming it. */
	ck_assert_ptr_eq(l->sites[0].module, l->sites[1].module);
	ck_assert_str_eq(sim_layout_addresses(l), "mixed");
	sim_layout_free(l);
}
END_TEST

START_TEST(site_span_covers_literal_words_and_body)
{
	struct ftv_err err;
	struct sim_layout *l = parse(valid, &err);
	uint64_t a, b;

	ck_assert_msg(l, "%s", err.msg);
	/* callops-bti: from the literal at func-8 to the end of the body. */
	sim_layout_site_span(&l->sites[0], &a, &b);
	ck_assert_uint_eq(a, 0xffff800080000000ULL);
	ck_assert_uint_eq(b, 0xffff800080000008ULL + 0x14);
	/* Live site without entry: the function's body. */
	sim_layout_site_span(&l->sites[3], &a, &b);
	ck_assert_uint_eq(a, 0xffff800080000100ULL);
	ck_assert_uint_eq(b, 0xffff800080000140ULL);
	/* No symbol: just the captured words. */
	sim_layout_site_span(&l->sites[4], &a, &b);
	ck_assert_uint_eq(a, 0xffff8000800000d0ULL);
	ck_assert_uint_eq(b, 0xffff8000800000e0ULL);
	sim_layout_free(l);
}
END_TEST

START_TEST(write_reproduces_the_parsed_text_byte_for_byte)
{
	struct ftv_err err;
	struct sim_layout *l = parse(valid, &err), *l2;
	char *out, *out2;

	ck_assert_msg(l, "%s", err.msg);
	out = write_str(l);
	ck_assert_str_eq(out, valid);
	l2 = parse(out, &err);
	ck_assert_msg(l2, "%s", err.msg);
	out2 = write_str(l2);
	ck_assert_str_eq(out2, out);
	free(out);
	free(out2);
	sim_layout_free(l);
	sim_layout_free(l2);
}
END_TEST

START_TEST(built_layout_round_trips_through_xz_file)
{
	struct sim_layout *l = sim_layout_new(), *back;
	struct sim_layout_site s = { 0 };
	struct ftv_err err;
	char path[4096], *a, *b;

	sim_layout_set(l, &l->source, "built in a test");
	sim_layout_set(l, &l->kernel, "6.1.0-ftvtest");
	sim_layout_set(l, &l->arch, "arm64");
	sim_layout_add_text(l, 0xffff800080000000ULL, 0xffff800080010000ULL,
			    "vmlinux", ".text");
	for (unsigned i = 0; i < 1000; i++) {
		s.entry = 0xffff800080000000ULL + 0x40 * i;
		s.has_entry = true;
		s.func = i % 2 ? "odd" : "even";
		s.faddr = s.entry + 8;
		s.fsize = 0x38;
		s.has_fsize = true;
		s.module = "vmlinux";
		s.nwords = 5;
		for (unsigned k = 0; k < 5; k++)
			s.words[k] = 0xd503201f;
		s.words[2] = i % 3 ? 0xd503201f : 0xd503245f;
		s.kind = sim_layout_classify_arm64(s.entry, true, s.faddr, s.words,
						   s.nwords, &s.ip, &s.has_ip);
		sim_layout_add_site(l, &s);
	}
	l->has_table = true;
	l->table_entries = 1000;
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "test-layout-roundtrip.layout.xz");
	ck_assert_msg(!sim_layout_save(path, l, &err), "%s", err.msg);
	back = sim_layout_load(path, &err);
	ck_assert_msg(back, "%s", err.msg);
	ck_assert_uint_eq(back->nsites, 1000);
	ck_assert_int_eq(back->sites[0].kind, SIM_LAYOUT_CALLOPS_BTI);
	ck_assert_int_eq(back->sites[1].kind, SIM_LAYOUT_CALLOPS);
	a = write_str(l);
	b = write_str(back);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	sim_layout_free(l);
	sim_layout_free(back);
	remove(path);
}
END_TEST

START_TEST(corrupt_xz_is_an_error_not_a_crash)
{
	char path[4096];
	struct ftv_err err;
	FILE *f;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "test-layout-corrupt.layout.xz");
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs("\xfd" "7zXZ\0 this is not xz", f);
	fclose(f);
	ck_assert_ptr_null(sim_layout_load(path, &err));
	ck_assert_msg(strstr(err.msg, "xz"), "%s", err.msg);
	remove(path);
}
END_TEST

START_TEST(classifier_recognises_each_arm64_layout)
{
	const uint64_t e = 0xffff800080000000ULL;
	const uint32_t nop = 0xd503201f, bti = 0xd503245f, pac = 0xd503233f;
	const uint32_t w_callops[] = { nop, nop, nop, nop, 0x52800000 };
	const uint32_t w_bti[] = { nop, nop, bti, nop, nop };
	const uint32_t w_pac[] = { nop, nop, nop, nop, pac };
	/* A live kernel: literal, MOV X9, LR and BL ftrace_caller in place. */
	const uint32_t w_live[] = { 0x12345678, 0xffff0000, 0xaa1e03e9,
				    0x94000010, pac };
	const uint32_t w_args[] = { nop, nop, 0xd65f03c0 };
	const uint32_t w_pg[] = { 0x94000123 };
	const uint32_t w_junk[] = { nop, nop, 0x91000000, nop, nop };
	uint64_t ip;
	bool has;

	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e + 8, w_callops, 5, &ip, &has),
			 SIM_LAYOUT_CALLOPS);
	ck_assert(has && ip == e + 12);
	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e + 8, w_bti, 5, &ip, &has),
			 SIM_LAYOUT_CALLOPS_BTI);
	ck_assert(has && ip == e + 16);
	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e + 8, w_pac, 5, &ip, &has),
			 SIM_LAYOUT_CALLOPS_PAC);
	ck_assert(has && ip == e + 12);
	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e + 8, w_live, 5, &ip, &has),
			 SIM_LAYOUT_CALLOPS_PAC);
	/* ftrace_call_adjust() refuses a literal slot that is not 8-aligned. */
	ck_assert_int_eq(sim_layout_classify_arm64(e + 4, true, e + 12, w_callops, 5, &ip, &has),
			 SIM_LAYOUT_UNKNOWN);
	ck_assert(!has);
	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e, w_args, 3, &ip, &has),
			 SIM_LAYOUT_ARGS);
	ck_assert(has && ip == e + 4);
	ck_assert_int_eq(sim_layout_classify_arm64(e + 4, true, e, w_args, 3, &ip, &has),
			 SIM_LAYOUT_ARGS);
	ck_assert(has && ip == e + 8);
	ck_assert_int_eq(sim_layout_classify_arm64(e + 0x10, true, e, w_pg, 1, &ip, &has),
			 SIM_LAYOUT_MCOUNT);
	ck_assert(has && ip == e + 0x10);
	ck_assert_int_eq(sim_layout_classify_arm64(e, true, e + 8, w_junk, 5, &ip, &has),
			 SIM_LAYOUT_UNKNOWN);
	ck_assert_int_eq(sim_layout_classify_arm64(e, false, 0, w_bti, 5, &ip, &has),
			 SIM_LAYOUT_UNKNOWN);
	ck_assert(!has);
}
END_TEST

/* One spoiled copy of `valid`: on line `line`, field `field` (1-based)
 * replaced by `value`; field 0 replaces the whole line (value NULL deletes
 * it); line 0 appends value as a last line. */
struct bad {
	int line, field;
	const char *value;
	const char *expect; /* substring of the one-line error */
};

static const struct bad bad_cases[] = {
	/* Each field of a site line in turn. */
	{ 12, 1, "ffff80008000000", "t.layout:12:1: field 1 (entry): 'ffff80008000000' is not 16 hex digits" },
	{ 12, 1, "FFFF800080000000", "t.layout:12:1: field 1 (entry)" },
	{ 12, 1, "0xffff80008000000", "t.layout:12:1: field 1 (entry)" },
	{ 12, 2, "ffff80008000001g", "t.layout:12:18: field 2 (ip): 'ffff80008000001g'" },
	{ 12, 2, "ffff80008000000c", "t.layout:12:18: field 2 (ip): ftrace patches another address" },
	{ 12, 2, "-", "t.layout:12:54: field 7 (kind): a callops site needs entry, ip and func" },
	{ 12, 3, "f/bti", "t.layout:12:35: field 3 (func): 'f/bti' is not a symbol name" },
	{ 12, 4, "8", "t.layout:12:41: field 4 (faddr): '8' is not 16 hex digits" },
	{ 12, 4, "ffff800080000010", "t.layout:12:1: field 1 (entry): a callops literal sits" },
	{ 12, 5, "0", "t.layout:12:58: field 5 (fsize): '0' is not a non-zero hex size" },
	{ 12, 5, "x14", "t.layout:12:58: field 5 (fsize)" },
	{ 12, 5, "4", "t.layout:12:18: field 2 (ip): ffff800080000010 is outside f_bti" },
	{ 12, 6, "vmlinux/", "t.layout:12:61: field 6 (module): 'vmlinux/' is not MODULE" },
	{ 12, 6, "a/b/c", "field 6 (module)" },
	{ 12, 6, "other", "t.layout:12:1: field 1 (entry): ffff800080000000 is in no text range of module other" },
	{ 12, 7, "callops-foo", "t.layout:12:69: field 7 (kind): 'callops-foo' is not one of" },
	{ 12, 7, "callops", "t.layout:12:69: field 7 (kind): the words say callops-bti, not callops" },
	{ 12, 8, "d503201f:d503201", "t.layout:12:90: field 8 (words): 'd503201' is not" },
	{ 12, 8, "d503201f:", "field 8 (words)" },
	{ 12, 8, "d503201f:d503201f:d503245f:d503201f:d503201f:11000400:1:2", "field 8 (words)" },
	{ 12, 8, "d503201f:d503201f:d503245f:d503201f:d503201f:11000400:00000000:00000000:00000000",
	  "field 8 (words): more than 8 words" },
	{ 15, 2, "-", "t.layout:15:3: field 2 (ip): entry and ip are both '-'" },
	{ 16, 4, "ffff8000800000d0", "t.layout:16:22: field 4 (faddr): must be '-' when func is '?'" },
	{ 16, 5, "10", "field 5 (fsize): '10' is not a non-zero hex size ('-' when func is '?')" },
	{ 17, 6, "mod/.init.text", "t.layout:17:1: field 1 (entry): 0000000000000000 is in no text range of section mod/.init.text" },
	/* The shape of a site line. */
	{ 12, 0, "ffff800080000000 ffff800080000010 f_bti ffff800080000008 14 vmlinux callops-bti",
	  "t.layout:12:80: field 8 (words): missing (a site line has 8 fields, this one 7)" },
	{ 12, 0, "ffff800080000000 ffff800080000010 f_bti ffff800080000008 14 vmlinux callops-bti - extra",
	  "t.layout:12:83: more than 8 fields" },
	{ 12, 0, "ffff800080000000  ffff800080000010 f_bti ffff800080000008 14 vmlinux callops-bti -",
	  "t.layout:12:18: field 2 (ip): empty" },
	{ 12, 0, "ffff800080000000\tffff800080000010", "t.layout:12:17: control character 0x09" },
	{ 12, 0, "", "t.layout:12:1: empty line" },
	/* The header. */
	{ 1, 0, "# ftv-layout 2", "t.layout:1:14: format version '2' is not 1" },
	{ 1, 0, "ELF", "t.layout:1:1: not an ftv layout" },
	{ 2, 0, "# source:", "t.layout:2:3: header lines are '# KEY: VALUE'" },
	{ 3, 0, "# kernel: 6.1 extra", "t.layout:3:11: kernel: a release has no spaces" },
	{ 3, 0, "# kernel: 6.1.0-ftvtest ", "t.layout:3:11: kernel: stray space" },
	{ 4, 0, "# arch: x86_64", "t.layout:4:9: arch: 'x86_64' is not arm64" },
	{ 5, 0, "# addresses: absolute", "t.layout:17:59: field 6 (module): a section with 'addresses: absolute'" },
	{ 5, 0, "# addresses: section-relative", "t.layout:12:61: field 6 (module): no section with 'addresses: section-relative'" },
	{ 5, 0, "# addresses: relative", "t.layout:5:14: addresses: 'relative' is not absolute" },
	{ 6, 0, "# table-entries: 0x10", "t.layout:6:18: table-entries: '0x10' is not a decimal count" },
	{ 7, 0, "# table-null: 11", "t.layout:12:1: header: table-null 11 exceeds table-entries 10" },
	{ 8, 0, "# sites: 7", "t.layout:18:1: header says 'sites: 7' but the file has 6 site lines" },
	{ 8, 0, "# sites: -1", "t.layout:8:10: sites: '-1' is not a decimal count" },
	{ 8, 0, NULL, "t.layout:11:1: header lacks 'sites:'" },
	{ 9, 0, "# text: ffff800080001000 ffff800080000000 vmlinux/.text",
	  "t.layout:9:26: text: end ffff800080000000 is not above start" },
	{ 9, 0, "# text: ffff800080000000 ffff800080001000 vmlinux",
	  "t.layout:9:43: text: 'vmlinux' is not MODULE/SECTION" },
	{ 9, 0, "# text: ffff800080000000",
	  "t.layout:9:9: text: expected 'START END MODULE/SECTION [MEM+OFFSET]'" },
	{ 10, 0, "# colour: red", "t.layout:10:3: unknown header key 'colour'" },
	{ 10, 0, "# kernel: 6.1.0-ftvtest", "t.layout:10:3: header key 'kernel' repeated" },
	{ 11, 0, "# fields: entry ip func", "t.layout:11:11: fields: expected" },
	{ 0, 0, "# source: late", "t.layout:18:1: header line after the first site" },
};

static char *spoil(const struct bad *b)
{
	char *out = malloc(sizeof(valid) + 512), *o = out;
	const char *p = valid;
	int line = 0;

	ck_assert_ptr_nonnull(out);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl - p;

		line++;
		if (line != b->line) {
			memcpy(o, p, n + 1);
			o += n + 1;
		} else if (b->field == 0) {
			if (b->value)
				o += sprintf(o, "%s\n", b->value);
		} else {
			/* Copy fields, replacing one. */
			const char *f = p;

			for (int k = 1; f <= nl; k++) {
				const char *e = memchr(f, ' ', nl - f);

				if (!e)
					e = nl;
				if (k > 1)
					*o++ = ' ';
				if (k == b->field)
					o += sprintf(o, "%s", b->value);
				else {
					memcpy(o, f, e - f);
					o += e - f;
				}
				f = e + 1;
			}
			*o++ = '\n';
		}
		p = nl + 1;
	}
	if (b->line == 0)
		o += sprintf(o, "%s\n", b->value);
	*o = 0;
	return out;
}

START_TEST(each_malformed_field_is_named_with_line_and_column)
{
	const struct bad *b = &bad_cases[_i];
	char *text = spoil(b);
	struct ftv_err err = { "" };
	struct sim_layout *l = parse(text, &err);

	ck_assert_msg(!l, "case %d parsed: line %d field %d '%s'", _i, b->line,
		      b->field, b->value ? b->value : "(deleted)");
	ck_assert_msg(strstr(err.msg, b->expect), "case %d: got '%s', want '%s'",
		      _i, err.msg, b->expect);
	ck_assert_msg(!strchr(err.msg, '\n'), "case %d: multi-line error", _i);
	free(text);
}
END_TEST

START_TEST(missing_final_newline_and_empty_file_are_errors)
{
	struct ftv_err err;
	char *text = strdup(valid);

	text[strlen(text) - 1] = 0;
	ck_assert_ptr_null(parse(text, &err));
	ck_assert_str_eq(err.msg, "t.layout:17:130: last line lacks its newline");
	ck_assert_ptr_null(parse("", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "t.layout:1:1: empty file"));
	ck_assert_ptr_null(sim_layout_parse("# ftv-layout 1\n\0x\n", 18, "t.layout", &err));
	ck_assert_ptr_nonnull(strstr(err.msg, "t.layout:2:1: control character 0x00"));
	free(text);
}
END_TEST

START_TEST(every_truncation_of_a_valid_file_is_rejected_or_whole)
{
	/* Cutting the file after any byte leaves either a shorter valid file
	 * (never: the site count disagrees) or one clean error. */
	size_t n = strlen(valid);

	for (size_t cut = 0; cut < n; cut++) {
		struct ftv_err err = { "" };
		struct sim_layout *l = sim_layout_parse(valid, cut, "t.layout", &err);

		ck_assert_msg(!l, "truncation at %zu parsed", cut);
		ck_assert_msg(!strncmp(err.msg, "t.layout:", 9), "cut %zu: %s", cut,
			      err.msg);
	}
}
END_TEST

/* valid with one more site line after line `after`. */
static char *with_site(int after, const char *line)
{
	char *out = malloc(sizeof(valid) + strlen(line) + 2), *o = out;
	const char *p = valid;

	ck_assert_ptr_nonnull(out);
	for (int n = 1; *p; n++) {
		const char *nl = strchr(p, '\n');

		if (!strncmp(p, "# sites: 6\n", 11))
			o += sprintf(o, "# sites: 7\n");
		else {
			memcpy(o, p, nl - p + 1);
			o += nl - p + 1;
		}
		if (n == after)
			o += sprintf(o, "%s\n", line);
		p = nl + 1;
	}
	*o = 0;
	return out;
}

/* ftrace takes every address once (ftrace_process_locs()): a duplicated
 * site line, or a site patching a word another site patches, is refused
 * at the later line, naming the earlier one. */
static const struct {
	int after;
	const char *line, *expect;
} overlap_cases[] = {
	/* Line 12 repeated right after itself, and at the end. */
	{ 12, "ffff800080000000 ffff800080000010 f_bti ffff800080000008 14 vmlinux callops-bti d503201f:d503201f:d503245f:d503201f:d503201f:11000400",
	  "t.layout:13:1: field 1 (entry): ffff800080000000 duplicates the site on line 12" },
	{ 17, "ffff800080000020 ffff80008000002c f_pac ffff800080000028 38 vmlinux callops-pac d503201f:d503201f:d503201f:d503201f:d503233f:a9bf7bfd",
	  "t.layout:18:1: field 1 (entry): ffff800080000020 duplicates the site on line 13" },
	/* A live-captured site (ip only) on f_bti's patched NOP. */
	{ 11, "- ffff80008000000c f_x ffff800080000008 14 vmlinux unknown -",
	  "t.layout:13:1: field 1 (entry): ffff800080000000 overlaps the words [ffff80008000000c, ffff800080000010) that the site of f_x on line 12 patches" },
	{ 17, "- ffff80008000000c f_x ffff800080000008 14 vmlinux unknown -",
	  "t.layout:18:3: field 2 (ip): ffff80008000000c overlaps the words [ffff800080000000, ffff800080000014) that the site of f_bti on line 12 patches" },
	/* The same section-relative site twice. */
	{ 17, "0000000000000000 000000000000000c m_f 0000000000000008 18 mod/.text callops d503201f:d503201f:d503201f:d503201f:52800b41:d65f03c0",
	  "t.layout:18:1: field 1 (entry): 0000000000000000 duplicates the site on line 17" },
};

START_TEST(duplicate_and_overlapping_sites_are_refused)
{
	char *text = with_site(overlap_cases[_i].after, overlap_cases[_i].line);
	struct ftv_err err = { "" };
	struct sim_layout *l = parse(text, &err);

	ck_assert_msg(!l, "parsed:\n%s", text);
	ck_assert_str_eq(err.msg, overlap_cases[_i].expect);
	free(text);
}
END_TEST

/* Offsets are per section: a module's sites at the same offsets of two
 * sections, or of two modules, do not collide, nor with absolute ones. */
START_TEST(same_offsets_in_other_sections_are_distinct_sites)
{
	static const char text[] =
		"# ftv-layout 1\n"
		"# source: test\n"
		"# kernel: -\n"
		"# arch: arm64\n"
		"# addresses: section-relative\n"
		"# table-entries: -\n"
		"# table-null: -\n"
		"# sites: 3\n"
		"# fields: entry ip func faddr fsize module kind words\n"
		"0000000000000000 000000000000000c m_f 0000000000000008 18 mod/.text callops d503201f:d503201f:d503201f:d503201f:52800b41:d65f03c0\n"
		"0000000000000000 000000000000000c m_i 0000000000000008 18 mod/.init.text callops d503201f:d503201f:d503201f:d503201f:52800b41:d65f03c0\n"
		"0000000000000000 000000000000000c n_f 0000000000000008 18 other/.text callops d503201f:d503201f:d503201f:d503201f:52800b41:d65f03c0\n";
	struct ftv_err err;
	struct sim_layout *l = parse(text, &err);

	ck_assert_msg(l, "%s", err.msg);
	ck_assert_uint_eq(l->nsites, 3);
	sim_layout_free(l);
}
END_TEST

/* The commands: ftv layout refuses the file, and ftv replay says which
 * line instead of failing later with "added out of ip order". */
START_TEST(commands_name_the_duplicated_line)
{
	char fixture[4096], path[4096], *o = NULL;
	char *layout_argv[] = { (char *)ftv_test_env("FTV"), "layout", path, NULL };
	char *replay_argv[] = { (char *)ftv_test_env("FTV"), "replay", path, NULL };
	FILE *in, *out;
	char line[1024];
	int n = 0;

	ftv_test_path(fixture, sizeof(fixture), "FTV_TOP",
		      "tests/data/replay-fixture.layout");
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "test-layout-dup.layout");
	in = fopen(fixture, "r");
	out = fopen(path, "w");
	ck_assert(in && out);
	/* The first site line twice; the header counts follow. */
	while (fgets(line, sizeof(line), in)) {
		n++;
		if (!strncmp(line, "# sites: ", 9))
			fprintf(out, "# sites: %d\n", atoi(line + 9) + 1);
		else if (!strncmp(line, "# table-entries: ", 17))
			fprintf(out, "# table-entries: %d\n", atoi(line + 17) + 1);
		else
			fputs(line, out);
		if (line[0] != '#' && n == 12)
			fputs(line, out);
	}
	fclose(in);
	fclose(out);
	ck_assert_int_eq(ftv_test_run(layout_argv, &o), 2);
	ck_assert_msg(strstr(o, "test-layout-dup.layout:13:1: field 1 (entry): ffff800080010000 duplicates the site on line 12") &&
		      strchr(o, '\n') == o + strlen(o) - 1, "%s", o);
	free(o);
	ck_assert_int_eq(ftv_test_run(replay_argv, &o), 2);
	ck_assert_msg(strstr(o, "test-layout-dup.layout:13:1: field 1 (entry)") &&
		      !strstr(o, "out of ip order") &&
		      strchr(o, '\n') == o + strlen(o) - 1, "%s", o);
	free(o);
	remove(path);
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, valid_layout_parses_into_its_fields);
	tcase_add_test(tc, site_span_covers_literal_words_and_body);
	tcase_add_test(tc, write_reproduces_the_parsed_text_byte_for_byte);
	tcase_add_test(tc, built_layout_round_trips_through_xz_file);
	tcase_add_test(tc, corrupt_xz_is_an_error_not_a_crash);
	tcase_add_test(tc, classifier_recognises_each_arm64_layout);
	tcase_add_loop_test(tc, each_malformed_field_is_named_with_line_and_column,
			    0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, missing_final_newline_and_empty_file_are_errors);
	tcase_add_test(tc, every_truncation_of_a_valid_file_is_rejected_or_whole);
	tcase_add_loop_test(tc, duplicate_and_overlapping_sites_are_refused, 0,
			    sizeof(overlap_cases) / sizeof(overlap_cases[0]));
	tcase_add_test(tc, same_offsets_in_other_sections_are_distinct_sites);
	tcase_add_test(tc, commands_name_the_duplicated_line);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(layout, layout_suite)
