/* ftv capture on the fixtures of mk/cap.mk (a tiny vmlinux linked three
 * ways, a tiny module as .ko, .ko.xz, .ko.zst and .ko.gz) and on made-up
 * live-system files; bad input of every kind is one line on stderr and
 * exit 2. */
#include "tests/suite.h"
#include "layout/layout.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *fixture(const char *name)
{
	static char bufs[8][4096];
	static int next;
	char *b = bufs[next++ % 8];

	ftv_test_path(b, sizeof(bufs[0]), "FTV_BUILD", name);
	return b;
}

/* Runs ftv capture with up to 6 arguments (NULL-terminated) and returns
 * the exit status; *out gets stdout+stderr. */
static int capture(char **out, const char *a0, const char *a1, const char *a2,
		   const char *a3, const char *a4, const char *a5)
{
	char *argv[] = { (char *)ftv_test_env("FTV"), "capture", (char *)a0,
			 (char *)a1, (char *)a2, (char *)a3, (char *)a4,
			 (char *)a5, NULL };

	return ftv_test_run(argv, out);
}

static struct sim_layout *load(const char *path)
{
	struct ftv_err err;
	struct sim_layout *l = sim_layout_load(path, &err);

	ck_assert_msg(l, "%s", err.msg);
	return l;
}

static const struct sim_layout_site *by_func(const struct sim_layout *l,
					     const char *func)
{
	for (size_t i = 0; i < l->nsites; i++)
		if (l->sites[i].func && !strcmp(l->sites[i].func, func))
			return &l->sites[i];
	ck_abort_msg("no site for %s", func);
	return NULL;
}

static int one_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl && !nl[1];
}

START_TEST(vmlinux_sites_carry_the_compilers_layout_kinds)
{
	char *out, *lay = fixture("capture/t-rela.layout");
	struct sim_layout *l;
	const struct sim_layout_site *s;

	ck_assert_int_eq(capture(&out, fixture("capture/vmlinux-rela"), "-o", lay,
				 NULL, NULL, NULL), 0);
	ck_assert_msg(strstr(out, "ftv capture: 9 sites (callops 1, callops-bti 2, "
			     "callops-pac 1, args 2, mcount 1, unknown 2) of kernel "
			     "6.1.0-ftvtest, table 10 entries (1 null) -> "), "%s", out);
	free(out);
	l = load(lay);
	ck_assert_str_eq(l->kernel, "6.1.0-ftvtest");
	ck_assert_uint_eq(l->nsites, 9);
	ck_assert_uint_eq(l->table_entries, 10);
	ck_assert_uint_eq(l->table_null, 1);
	ck_assert_str_eq(sim_layout_addresses(l), "absolute");

	/* -mbranch-protection=standard: BTI C first, then the two NOPs. */
	s = by_func(l, "ftv_leaf");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_CALLOPS_BTI);
	ck_assert_uint_eq(s->entry + 8, s->faddr);
	ck_assert_uint_eq(s->ip, s->faddr + 8);
	ck_assert_uint_eq(s->words[2], 0xd503245f);
	ck_assert_int_eq(by_func(l, "ftv_caller")->kind, SIM_LAYOUT_CALLOPS_BTI);
	s = by_func(l, "ftv_plain");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_CALLOPS);
	ck_assert_uint_eq(s->ip, s->faddr + 4);
	s = by_func(l, "ftv_signed");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_CALLOPS_PAC);
	ck_assert_uint_eq(s->words[4], 0xd503233f);
	s = by_func(l, "ftv_misaligned");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_UNKNOWN);
	ck_assert(!s->has_ip);
	ck_assert_uint_eq(s->entry % 8, 4);
	s = by_func(l, "ftv_args");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_ARGS);
	ck_assert_uint_eq(s->entry, s->faddr);
	s = by_func(l, "ftv_args_bti");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_ARGS);
	ck_assert_uint_eq(s->ip, s->faddr + 8);
	s = by_func(l, "ftv_pg");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_MCOUNT);
	ck_assert_uint_eq(s->ip, s->entry);
	ck_assert_uint_eq(s->words[0] & 0xfc000000u, 0x94000000u);
	/* The NOPs no symbol covers. */
	for (size_t i = 0; i < l->nsites; i++)
		if (!l->sites[i].func)
			ck_assert_int_eq(l->sites[i].kind, SIM_LAYOUT_UNKNOWN);
	sim_layout_free(l);
}
END_TEST

START_TEST(vmlinux_link_styles_capture_the_same_sites)
{
	/* RELA with --no-apply-dynamic-relocs (zero slots, addends in
	 * .rela.dyn), RELA applied, and a static image without relocations. */
	const char *in[3] = { "capture/vmlinux-rela", "capture/vmlinux-applied",
			      "capture/vmlinux-exec" };
	struct sim_layout *l[3];
	char *out;

	for (int i = 0; i < 3; i++) {
		char lay[64];

		snprintf(lay, sizeof(lay), "capture/t-style%d.layout", i);
		ck_assert_int_eq(capture(&out, fixture(in[i]), "-o", fixture(lay),
					 NULL, NULL, NULL), 0);
		free(out);
		l[i] = load(fixture(lay));
	}
	ck_assert_ptr_nonnull(strstr(l[0]->source, "9 from .rela.dyn addends"));
	ck_assert_ptr_nonnull(strstr(l[2]->source, "0 from .rela.dyn addends"));
	for (int i = 1; i < 3; i++) {
		ck_assert_uint_eq(l[i]->nsites, l[0]->nsites);
		for (size_t k = 0; k < l[0]->nsites; k++) {
			const struct sim_layout_site *a = &l[0]->sites[k], *b = &l[i]->sites[k];

			ck_assert_uint_eq(a->entry, b->entry);
			ck_assert_uint_eq(a->ip, b->ip);
			ck_assert_int_eq(a->kind, b->kind);
			ck_assert_int_eq(!a->func, !b->func);
			ck_assert(!memcmp(a->words, b->words, sizeof(a->words)));
		}
	}
	for (int i = 0; i < 3; i++)
		sim_layout_free(l[i]);
}
END_TEST

START_TEST(module_ko_and_ko_xz_capture_section_relative_sites)
{
	char *out, *a = fixture("capture/t-ko.layout"), *b = fixture("capture/t-koxz.layout");
	struct sim_layout *la, *lb;
	const struct sim_layout_site *s;

	ck_assert_int_eq(capture(&out, fixture("capture/ftvmod.ko"), "-o", a, NULL,
				 NULL, NULL), 0);
	free(out);
	ck_assert_int_eq(capture(&out, fixture("capture/ftvmod.ko.xz"), "-o", b, NULL,
				 NULL, NULL), 0);
	free(out);
	la = load(a);
	lb = load(b);
	ck_assert_str_eq(sim_layout_addresses(la), "section-relative");
	ck_assert_uint_eq(la->nsites, 2);
	ck_assert_uint_eq(lb->nsites, 2);
	ck_assert_str_eq(la->kernel, "6.1.0-ftvtest");
	s = by_func(la, "ftvmod_work");
	ck_assert_str_eq(s->module, "ftvmod");
	ck_assert_str_eq(s->section, ".text");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_CALLOPS_BTI);
	ck_assert_uint_eq(s->entry, 0);
	ck_assert_uint_eq(s->faddr, 8);
	s = by_func(la, "init_module");
	ck_assert_str_eq(s->section, ".init.text");
	for (size_t k = 0; k < 2; k++) {
		ck_assert_uint_eq(la->sites[k].ip, lb->sites[k].ip);
		ck_assert_str_eq(la->sites[k].func, lb->sites[k].func);
	}
	sim_layout_free(la);
	sim_layout_free(lb);
}
END_TEST

/* A module read from its file says how arm64's module loader lays it out
 * (module_frob_arch_sections(), then layout_sections()): its text memory
 * holds .text (0x20 bytes at 0), .plt (64-aligned at 0x40, one spare entry:
 * .text calls nothing outside itself) and the ftrace PLT at 0x4c; its
 * init_text .init.text, then .init.plt at 0x80 with two entries (init_module
 * calls ftvmod_work, in another section). A relocatable object without
 * the PLT sections, which the loader refuses, is captured unplaced and
 * says why. */
START_TEST(module_capture_says_how_the_loader_lays_it_out)
{
	char *out, *a = fixture("capture/t-lay.layout"), *b = fixture("capture/t-obj.layout");
	struct sim_layout *l;

	ck_assert_int_eq(capture(&out, fixture("capture/ftvmod.ko"), "-o", a, NULL,
				 NULL, NULL), 0);
	free(out);
	l = load(a);
	ck_assert_uint_eq(l->nmodules, 1);
	ck_assert_str_eq(l->modules[0].name, "ftvmod");
	ck_assert(l->modules[0].has_mem);
	ck_assert_uint_eq(l->modules[0].mem[SIM_MOD_TEXT], 0x58);
	ck_assert_uint_eq(l->modules[0].mem[SIM_MOD_INIT_TEXT], 0x98);
	ck_assert_int_eq(l->modules[0].plt_kind, SIM_PLT_OFFSET);
	ck_assert_uint_eq(l->modules[0].plt, 0x4c);
	ck_assert_uint_eq(l->ntexts, 2);
	for (size_t i = 0; i < l->ntexts; i++) {
		ck_assert_int_eq(l->texts[i].mem, strcmp(l->texts[i].section, ".text") ?
				 SIM_MOD_INIT_TEXT : SIM_MOD_TEXT);
		ck_assert_uint_eq(l->texts[i].mem_off, 0);
	}
	sim_layout_free(l);
	ck_assert_int_eq(capture(&out, fixture("capture/ftvmod.o"), "-o", b, NULL,
				 NULL, NULL), 0);
	free(out);
	l = load(b);
	ck_assert_uint_eq(l->nmodules, 0);
	ck_assert_uint_eq(l->nsites, 2);
	ck_assert_msg(strstr(l->source, "module ftvmod not laid out: ") &&
		      strstr(l->source, "ftvmod.o: no .plt and .init.plt sections: "
			     "arm64's module loader refuses it"), "%s", l->source);
	sim_layout_free(l);
}
END_TEST

/* From the files to the replay: the test vmlinux gives the image line
 * (_text, _end), the test module its loader layout, and ftv replay places
 * the module in the 128 MiB window below the image (its start rounded up
 * to a page, as vmalloc aligns) and replays its two sites with the
 * kernel's; with --far-modules both call ftrace_caller through the
 * module's PLT. */
START_TEST(captured_kernel_and_module_replay_together)
{
	char *out, *lay = fixture("capture/t-e2e.layout");
	char *argv[] = { (char *)ftv_test_env("FTV"), "replay", "--cpus", "2", lay,
			 NULL, NULL };

	ck_assert_int_eq(capture(&out, fixture("capture/vmlinux-rela"),
				 fixture("capture/ftvmod.ko"), "-o", lay, NULL, NULL), 0);
	free(out);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "modules: 1 with 2 sites: 0 at their captured addresses, "
			     "1 placed by the loader in the direct window "
			     "[0xffff800078001054, 0xffff800080001054)") &&
		      strstr(out, "module sites: 2, 0 not placed, 0 calling ftrace_caller "
			     "through their module's PLT\n") &&
		      strstr(out, "init_nop: 6 records, 0 refused\n") &&
		      strstr(out, "replayed: 6 sites enabled and disabled in 1 batch of 1; ") &&
		      strstr(out, "violations: 0\n"), "%s", out);
	free(out);
	argv[4] = "--far-modules";
	argv[5] = lay;
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "module sites: 2, 0 not placed, 2 calling ftrace_caller "
			     "through their module's PLT\n") &&
		      strstr(out, "violations: 0\n") && !strstr(out, " 0 tracer calls"),
		      "%s", out);
	free(out);
}
END_TEST

/* Modules compressed the other ways kbuild can (zstd, gzip) capture the
 * same sites, kinds and words as the plain .ko. */
START_TEST(module_ko_zst_and_ko_gz_capture_the_same_sites)
{
	static const char *const z[] = { "capture/ftvmod.ko.zst", "capture/ftvmod.ko.gz" };
	char *out, *a = fixture("capture/t-ko.layout");
	struct sim_layout *la, *lb;

	ck_assert_int_eq(capture(&out, fixture("capture/ftvmod.ko"), "-o", a, NULL,
				 NULL, NULL), 0);
	free(out);
	la = load(a);
	for (int i = 0; i < 2; i++) {
		char *b = fixture(i ? "capture/t-kogz.layout" : "capture/t-kozst.layout");

		ck_assert_int_eq(capture(&out, fixture(z[i]), "-o", b, NULL, NULL,
					 NULL), 0);
		free(out);
		lb = load(b);
		ck_assert_uint_eq(lb->nsites, la->nsites);
		ck_assert_str_eq(lb->kernel, la->kernel);
		ck_assert_ptr_nonnull(strstr(lb->source, "module ftvmod"));
		for (size_t k = 0; k < la->nsites; k++) {
			ck_assert_uint_eq(la->sites[k].ip, lb->sites[k].ip);
			ck_assert_uint_eq(la->sites[k].entry, lb->sites[k].entry);
			ck_assert_int_eq(la->sites[k].kind, lb->sites[k].kind);
			ck_assert_str_eq(la->sites[k].func, lb->sites[k].func);
			ck_assert_str_eq(la->sites[k].module, lb->sites[k].module);
			ck_assert(!memcmp(la->sites[k].words, lb->sites[k].words,
					  sizeof(la->sites[k].words)));
		}
		sim_layout_free(lb);
	}
	sim_layout_free(la);
}
END_TEST

START_TEST(vmlinux_and_module_together_make_a_mixed_layout)
{
	char *out, *lay = fixture("capture/t-mixed.layout.xz");
	struct sim_layout *l;

	ck_assert_int_eq(capture(&out, fixture("capture/vmlinux-rela"),
				 fixture("capture/ftvmod.ko.xz"), "-o", lay, NULL,
				 NULL), 0);
	free(out);
	l = load(lay);
	ck_assert_str_eq(sim_layout_addresses(l), "mixed");
	ck_assert_uint_eq(l->nsites, 11);
	ck_assert_uint_eq(l->table_entries, 12);
	/* Sorted by module: ftvmod before vmlinux. */
	ck_assert_str_eq(l->sites[0].module, "ftvmod");
	ck_assert_str_eq(l->sites[10].module, "vmlinux");
	sim_layout_free(l);
}
END_TEST

/* Two table slots of a module pointing at one function would make two
 * records of one address: capture refuses the input, naming it and both
 * sites, rather than write a layout ftv layout refuses. */
START_TEST(module_with_two_entries_for_one_function_is_refused)
{
	char *out, *in = fixture("capture/ftvmod.ko"), *bad = fixture("capture/t-dup.ko");
	FILE *f = fopen(in, "rb");
	Elf64_Ehdr eh;
	Elf64_Shdr *sh;
	uint8_t *d;
	long n;
	int done = 0;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	d = malloc(n);
	ck_assert(fread(d, 1, n, f) == (size_t)n);
	fclose(f);
	memcpy(&eh, d, sizeof(eh));
	sh = malloc(eh.e_shnum * sizeof(*sh));
	memcpy(sh, d + eh.e_shoff, eh.e_shnum * sizeof(*sh));
	/* The second relocation of the table becomes a copy of the first. */
	for (unsigned i = 1; i < eh.e_shnum; i++) {
		const char *name = (const char *)d + sh[eh.e_shstrndx].sh_offset +
				   sh[i].sh_name;
		Elf64_Rela r[2];

		if (sh[i].sh_type != SHT_RELA ||
		    strcmp(name, ".rela__patchable_function_entries"))
			continue;
		ck_assert_uint_ge(sh[i].sh_size, sizeof(r));
		memcpy(r, d + sh[i].sh_offset, sizeof(r));
		r[1].r_info = r[0].r_info;
		r[1].r_addend = r[0].r_addend;
		memcpy(d + sh[i].sh_offset, r, sizeof(r));
		done = 1;
	}
	ck_assert(done);
	f = fopen(bad, "wb");
	ck_assert(f && fwrite(d, 1, n, f) == (size_t)n);
	fclose(f);
	ck_assert_int_eq(capture(&out, bad, "-o", fixture("capture/t-dup.layout"),
				 NULL, NULL, NULL), 2);
	ck_assert_msg(strstr(out, "t-dup.ko: the sites of ftvmod_work (ftvmod/.text+0x0) and ftvmod_work (ftvmod/.text+0x0) patch the same words") &&
		      one_line(out), "%s", out);
	free(out);
	free(sh);
	free(d);
	remove(bad);
}
END_TEST

/* Bad inputs: exit 2 and exactly one line naming the culprit. */
struct bad_input {
	const char *file;   /* under FTV_BUILD, or a literal path with '/' first */
	const char *second; /* another input, or NULL */
	const char *expect;
};

static const struct bad_input bad_inputs[] = {
	{ "capture/no-such-file", NULL, "no-such-file: cannot open" },
	{ "capture/vmlinux-nomcount", NULL, "no __start_mcount_loc/__stop_mcount_loc symbols" },
	{ "capture/ftvmod.ko", "capture/ftvmod-other.ko",
	  "ftvmod-other.ko: kernel 6.2.0-other, but the other inputs are from kernel 6.1.0-ftvtest" },
	{ "capture/t-text.bin", NULL, "t-text.bin: not an ELF file" },
	{ "capture/t-trunc.bin", NULL, "t-trunc.bin: section header table" },
	{ "ftv-tests", NULL, "is neither EM_AARCH64 nor EM_RISCV" },
	{ "corpus/rv64/callbacks.o", NULL,
	  "callbacks.o: a riscv64 file, but ftv reads the callsites of arm64 kernels only" },
};

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

static void make_bad_files(void)
{
	char *buf = malloc(4096);
	FILE *f = fopen(fixture("capture/vmlinux-rela"), "rb");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, 4096, f);
	fclose(f);
	ck_assert_uint_eq(n, 4096);
	/* The ELF header survives; the section headers are cut off. */
	write_file(fixture("capture/t-trunc.bin"), buf, 4096);
	write_file(fixture("capture/t-text.bin"), "hello\n", 6);
	free(buf);
}

START_TEST(bad_input_is_one_line_and_exit_2)
{
	const struct bad_input *b = &bad_inputs[_i];
	char *out;
	int rc;

	make_bad_files();
	rc = capture(&out, fixture(b->file), b->second ? fixture(b->second) : "-o",
		     b->second ? "-o" : fixture("capture/t-bad.layout"),
		     b->second ? fixture("capture/t-bad.layout") : NULL, NULL, NULL);
	ck_assert_msg(rc == 2, "case %d: exit %d: %s", _i, rc, out);
	ck_assert_msg(strstr(out, b->expect), "case %d: %s", _i, out);
	ck_assert_msg(!strncmp(out, "ftv capture: ", 13) && one_line(out),
		      "case %d: %s", _i, out);
	free(out);
}
END_TEST

START_TEST(usage_errors_exit_2)
{
	char *out;

	ck_assert_int_eq(capture(&out, fixture("capture/vmlinux-rela"), NULL, NULL,
				 NULL, NULL, NULL), 2);
	ck_assert_ptr_nonnull(strstr(out, "usage: ftv capture"));
	free(out);
	ck_assert_int_eq(capture(&out, "--kallsyms", "x", "-o", "y", NULL, NULL), 2);
	free(out);
	ck_assert_int_eq(capture(&out, "--bogus", "-o", "y", NULL, NULL, NULL), 2);
	free(out);
}
END_TEST

/* A live arm64 system with CALL_OPS, in the two files' formats. */
static const char kallsyms[] =
	"ffff800080000000 T _text\n"
	"ffff800080010000 T _stext\n"
	"ffff800080010008 T gic_handle_irq\n"
	"ffff800080010090 t gic_eoi\n"
	"ffff8000800100a8 T do_bti_thing\n"
	"ffff800080010100 T _etext\n"
	"ffff800080e00000 D some_data\n"
	"ffff800081e70000 B _end\n"
	"ffff80007b000008 t mod_fn\t[ftvmod]\n"
	"ffff80007b000040 t mod_other\t[ftvmod]\n"
	"ffff80007b000080 d mod_data\t[ftvmod]\n";
static const char filter_addrs[] =
	"ffff80008001000c gic_handle_irq\n"
	"ffff800080010094 gic_eoi\n"
	"ffff8000800100b0 do_bti_thing\n"
	"ffff80007b00000c mod_fn [ftvmod]\n";

static int live(char **out, const char *k, const char *fa, bool call_ops,
		const char *lay)
{
	char *argv[] = { (char *)ftv_test_env("FTV"), "capture", "--filter-addrs",
			 fixture("capture/t-filter"), "--kallsyms",
			 fixture("capture/t-kallsyms"), "-o", (char *)lay,
			 call_ops ? "--call-ops" : NULL, NULL };

	write_file(fixture("capture/t-kallsyms"), k, strlen(k));
	write_file(fixture("capture/t-filter"), fa, strlen(fa));
	return ftv_test_run(argv, out);
}

START_TEST(live_system_sites_take_sizes_from_kallsyms)
{
	char *out, *text, *lay = fixture("capture/t-live.layout");
	FILE *f;
	long n;

	ck_assert_int_eq(live(&out, kallsyms, filter_addrs, true, lay), 0);
	ck_assert_msg(strstr(out, "ftv capture: 4 sites (callops 3, callops-bti 1) "
			     "of kernel -"), "%s", out);
	free(out);
	f = fopen(lay, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	text = calloc(1, n + 1);
	ck_assert_int_eq(fread(text, 1, n, f), n);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(text,
		"# fields: entry ip func faddr fsize module kind words\n"
		"ffff80007b000000 ffff80007b00000c mod_fn ffff80007b000008 38 ftvmod callops -\n"
		"ffff800080010000 ffff80008001000c gic_handle_irq ffff800080010008 88 vmlinux callops -\n"
		"ffff800080010088 ffff800080010094 gic_eoi ffff800080010090 18 vmlinux callops -\n"
		"ffff8000800100a0 ffff8000800100b0 do_bti_thing ffff8000800100a8 58 vmlinux callops-bti -\n"));
	ck_assert_ptr_nonnull(strstr(text, "# table-entries: -\n"));
	/* kallsyms' _text and _end: the image the module region is around */
	ck_assert_ptr_nonnull(strstr(text, "# image: ffff800080000000 ffff800081e70000\n"));
	free(text);
	sim_layout_free(load(lay));
}
END_TEST

START_TEST(live_system_without_call_ops_has_unknown_kinds)
{
	char *out, *lay = fixture("capture/t-live2.layout");
	struct sim_layout *l;
	const struct sim_layout_site *s;

	ck_assert_int_eq(live(&out, kallsyms, filter_addrs, false, lay), 0);
	free(out);
	l = load(lay);
	s = by_func(l, "do_bti_thing");
	ck_assert_int_eq(s->kind, SIM_LAYOUT_UNKNOWN);
	ck_assert(!s->has_entry && s->has_ip);
	ck_assert_uint_eq(s->ip, 0xffff8000800100b0ULL);
	sim_layout_free(l);
}
END_TEST

START_TEST(live_system_bad_files_name_file_and_line)
{
	static const struct { const char *k, *fa, *expect; } cases[] = {
		{ kallsyms, "ffff80008001000c gic_eoi\n",
		  "t-filter:1: ffff80008001000c gic_eoi: kallsyms has another function there" },
		{ kallsyms, "ffff80008001000c gic_handle_irq\nzzzz gic_eoi\n",
		  "t-filter:2: expected 'ADDR FUNC [MOD]'" },
		{ kallsyms, "ffff80007b00000c mod_fn [ftvmod\n",
		  "t-filter:1: bad function name or [module]" },
		{ kallsyms, "ffff80007b00000c mod_fn [other]\n",
		  "no text symbol of that module covers it" },
		{ "0000000000000000 T _stext\n0000000000000000 T gic_handle_irq\n",
		  filter_addrs, "t-kallsyms: every address is 0 (kptr_restrict" },
		{ "ffff800080010000 T\n", filter_addrs, "t-kallsyms:1: expected 'ADDR TYPE NAME [MOD]'" },
		{ "ffff800080010000 T _stext\nffff800080010008 TT x\n", filter_addrs,
		  "t-kallsyms:2: expected" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *out;
		int rc = live(&out, cases[i].k, cases[i].fa, true,
			      fixture("capture/t-live-bad.layout"));

		ck_assert_msg(rc == 2, "case %zu: exit %d: %s", i, rc, out);
		ck_assert_msg(strstr(out, cases[i].expect) && one_line(out),
			      "case %zu: %s", i, out);
		free(out);
	}
}
END_TEST

START_TEST(layout_command_checks_and_summarises)
{
	char *out, *lay = fixture("capture/t-cmd.layout"), *bad = fixture("capture/t-cmd-bad.layout");
	char *argv[] = { (char *)ftv_test_env("FTV"), "layout", lay, NULL };
	char *argv_bad[] = { (char *)ftv_test_env("FTV"), "layout", bad, NULL };
	FILE *f;

	ck_assert_int_eq(capture(&out, fixture("capture/vmlinux-rela"), "-o", lay,
				 NULL, NULL, NULL), 0);
	free(out);
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "kernel 6.1.0-ftvtest, arch arm64, addresses absolute\n"
			     "sites: 9 in 1 module runs, 1 text ranges\n"
			     "table: 10 entries, 1 null\n"
			     "callops      1\ncallops-bti  2\ncallops-pac  1\n"
			     "args         2\nmcount       1\nunknown      2\n"), "%s", out);
	free(out);
	f = fopen(bad, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# ftv-layout 1\n# source: x\n# bogus: 1\n", f);
	fclose(f);
	ck_assert_int_eq(ftv_test_run(argv_bad, &out), 2);
	ck_assert_msg(strstr(out, "ftv layout: ") && strstr(out, "t-cmd-bad.layout:3:3: "
			     "unknown header key 'bogus'") && one_line(out), "%s", out);
	free(out);
}
END_TEST

static Suite *capture_suite(void)
{
	Suite *s = suite_create("capture");
	TCase *tc = tcase_create("capture");

	tcase_add_test(tc, vmlinux_sites_carry_the_compilers_layout_kinds);
	tcase_add_test(tc, vmlinux_link_styles_capture_the_same_sites);
	tcase_add_test(tc, module_ko_and_ko_xz_capture_section_relative_sites);
	tcase_add_test(tc, module_ko_zst_and_ko_gz_capture_the_same_sites);
	tcase_add_test(tc, module_capture_says_how_the_loader_lays_it_out);
	tcase_add_test(tc, captured_kernel_and_module_replay_together);
	tcase_add_test(tc, vmlinux_and_module_together_make_a_mixed_layout);
	tcase_add_loop_test(tc, bad_input_is_one_line_and_exit_2, 0,
			    sizeof(bad_inputs) / sizeof(bad_inputs[0]));
	tcase_add_test(tc, module_with_two_entries_for_one_function_is_refused);
	tcase_add_test(tc, usage_errors_exit_2);
	tcase_add_test(tc, live_system_sites_take_sizes_from_kallsyms);
	tcase_add_test(tc, live_system_without_call_ops_has_unknown_kinds);
	tcase_add_test(tc, live_system_bad_files_name_file_and_line);
	tcase_add_test(tc, layout_command_checks_and_summarises);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(capture, capture_suite)
