/* The riscv64 loader (sim/arch_riscv64.c, sim/reloc_riscv64.c,
 * sim/align_riscv64.c) against ground truth:
 *  - riscv64-linux-gnu-ld --no-relax links the same objects with every
 *    section at the address ftv chose (a generated linker script); the
 *    linked bytes must equal what ftv wrote, for the hand-written object
 *    holding every relocation type and for the whole rv64/rv64-norvc
 *    corpus (ALIGN deletion included: ld performs it even without relax);
 *  - pyelftools' count of __patchable_function_entries entries equals
 *    ftv's site count for every corpus object;
 *  - corrupt or unreachable input is a one-line error and exit 2. */
#include "tests/suite.h"

#include "sim/aspace.h"
#include "sim/image.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RV_SETS_N 2
static const char *const rv_sets[RV_SETS_N] = { "rv64", "rv64-norvc" };
static const char *const rv_names[] = { "callbacks", "driver", "fsm",
					"klib", "list", "recurse" };
#define RV_NNAMES (sizeof(rv_names) / sizeof(rv_names[0]))

static void asm_path(char *b, size_t n, const char *name)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "corpus/asm-riscv/%s.o", name);
	ftv_test_path(b, n, "FTV_BUILD", rel);
}

struct loaded {
	struct sim_aspace *as;
	struct sim_image *img;
};

/* Loads paths (modules where mod[i]) into a new image; returns the link
 * status and leaves the error in err. */
static int load(struct loaded *l, char paths[][512], const int *mod, int n,
		int stub, struct ftv_err *err)
{
	struct sim_load_opts o = { 0 };

	o.stub_undefined = stub;
	l->as = sim_aspace_new();
	ck_assert_ptr_nonnull(l->as);
	l->img = sim_image_new(l->as, &o);
	ck_assert_ptr_nonnull(l->img);
	for (int i = 0; i < n; i++)
		if (sim_image_add_file(l->img, paths[i], mod ? mod[i] : 0, err))
			return -1;
	return sim_image_link(l->img, err);
}

static void unload(struct loaded *l)
{
	sim_image_free(l->img);
	sim_aspace_free(l->as);
}

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *d;
	long sz;

	ck_assert_msg(f != NULL, "%s", path);
	fseek(f, 0, SEEK_END);
	sz = ftell(f);
	fseek(f, 0, SEEK_SET);
	d = malloc(sz ? sz : 1);
	ck_assert(d && fread(d, 1, sz, f) == (size_t)sz);
	fclose(f);
	*n = sz;
	return d;
}

/* Writes d[0..n) to a new temporary file named in dst (64 bytes) and
 * frees d. */
static void write_temp(uint8_t *d, size_t n, char *dst)
{
	FILE *f;
	int fd;

	strcpy(dst, "/tmp/ftv-rvbad-XXXXXX");
	fd = mkstemp(dst);
	ck_assert(fd >= 0);
	f = fdopen(fd, "wb");
	ck_assert(f && fwrite(d, 1, n, f) == n);
	fclose(f);
	free(d);
}

/* The section of a linked ELF named name, or NULL. */
static const Elf64_Shdr *elf_section(const uint8_t *d, size_t n,
				     const char *name)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)d;
	const Elf64_Shdr *sh, *str;

	ck_assert(n > sizeof(*eh) && eh->e_shoff + eh->e_shnum * sizeof(*sh) <= n);
	sh = (const Elf64_Shdr *)(d + eh->e_shoff);
	str = &sh[eh->e_shstrndx];
	for (unsigned i = 1; i < eh->e_shnum; i++)
		if (!strcmp((const char *)d + str->sh_offset + sh[i].sh_name, name))
			return &sh[i];
	return NULL;
}

/* Links the loaded objects with GNU ld, each loaded section as its own
 * output section at the address ftv gave it, and compares every byte.
 * Returns the number of sections compared. */
static size_t compare_with_ld(struct loaded *l)
{
	char script[] = "/tmp/ftv-rvld-XXXXXX", out[64];
	FILE *f;
	int fd = mkstemp(script);
	size_t nobj = sim_image_nobjects(l->img), ncmp = 0, n;
	char **argv = calloc(nobj + 17, sizeof(*argv));
	char *msg;
	uint8_t *d;
	int a = 0;

	ck_assert(fd >= 0 && argv);
	snprintf(out, sizeof(out), "%s.out", script);
	f = fdopen(fd, "w");
	fprintf(f, "SECTIONS {\n");
	for (size_t i = 0; i < nobj; i++) {
		const struct sim_object_info *o = sim_image_object(l->img, i);

		for (size_t k = 0; k < o->nsections; k++)
			fprintf(f, "  o%zus%zu 0x%llx : { %s(%s) }\n", i, k,
				(unsigned long long)o->sections[k].addr,
				o->path, o->sections[k].name);
	}
	fprintf(f, "}\n");
	fclose(f);
	argv[a++] = "/usr/bin/env"; /* ftv_test_run does not search PATH */
	argv[a++] = "riscv64-linux-gnu-ld";
	argv[a++] = "--no-relax";
	argv[a++] = "-nostdlib";
	argv[a++] = "-e0";
	argv[a++] = "-T";
	argv[a++] = script;
	argv[a++] = "-o";
	argv[a++] = out;
	for (size_t i = 0; i < nobj; i++)
		argv[a++] = (char *)sim_image_object(l->img, i)->path;
	ck_assert_msg(ftv_test_run(argv, &msg) == 0, "ld: %s", msg);
	free(msg);
	d = slurp(out, &n);
	for (size_t i = 0; i < nobj; i++) {
		const struct sim_object_info *o = sim_image_object(l->img, i);

		for (size_t k = 0; k < o->nsections; k++) {
			const struct sim_loaded_section *s = &o->sections[k];
			const Elf64_Shdr *sh;
			char name[64];
			uint8_t *mine;

			if (s->nobits || !s->size)
				continue;
			snprintf(name, sizeof(name), "o%zus%zu", i, k);
			sh = elf_section(d, n, name);
			ck_assert_msg(sh != NULL, "%s %s: not in ld's output",
				      o->path, s->name);
			ck_assert_msg(sh->sh_addr == s->addr &&
				      sh->sh_size == s->size,
				      "%s %s: ld 0x%llx+0x%llx, ftv 0x%llx+0x%llx",
				      o->path, s->name,
				      (unsigned long long)sh->sh_addr,
				      (unsigned long long)sh->sh_size,
				      (unsigned long long)s->addr,
				      (unsigned long long)s->size);
			mine = sim_ptr(l->as, s->addr, s->size);
			ck_assert(mine && sh->sh_offset + sh->sh_size <= n);
			for (uint64_t b = 0; b < s->size; b++)
				ck_assert_msg(mine[b] == d[sh->sh_offset + b],
					      "%s %s+0x%llx: ftv 0x%02x, ld 0x%02x",
					      o->path, s->name,
					      (unsigned long long)b, mine[b],
					      d[sh->sh_offset + b]);
			ncmp++;
		}
	}
	free(d);
	free(argv);
	unlink(script);
	unlink(out);
	return ncmp;
}

START_TEST(rv_relocations_match_gnu_ld)
{
	char p[2][512];
	struct loaded l;
	struct ftv_err err = { "" };
	uint64_t rv_back, rv_start;

	asm_path(p[0], sizeof(p[0]), "relocs");
	asm_path(p[1], sizeof(p[1]), "abs");
	ck_assert_msg(load(&l, p, NULL, 2, 0, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(sim_image_arch(l.img), FTV_ARCH_RISCV64);
	/* .text, .text.far, .rodata, .data of relocs.o */
	ck_assert_uint_ge(compare_with_ld(&l), 4);
	/* ALIGN: rv_back follows a `.align 4`, so ftv deleted padding. */
	rv_start = sim_image_lookup(l.img, "rv_start");
	rv_back = sim_image_lookup(l.img, "rv_back");
	ck_assert_uint_ne(rv_start, 0);
	ck_assert_uint_eq(rv_back & 15, 0);
	unload(&l);
}
END_TEST

static void set_paths(char p[][512], const char *set, size_t *n)
{
	char rel[128];

	*n = 0;
	for (size_t i = 0; i < RV_NNAMES; i++) {
		snprintf(rel, sizeof(rel), "corpus/%s/%s.o", set, rv_names[i]);
		ftv_test_path(p[(*n)++], 512, "FTV_BUILD", rel);
	}
	for (int r = 1; r <= 3; r++) {
		snprintf(rel, sizeof(rel), "corpus/random-%s/rand%d.o", set, r);
		ftv_test_path(p[(*n)++], 512, "FTV_BUILD", rel);
	}
}

START_TEST(rv_corpus_links_like_gnu_ld)
{
	char p[RV_NNAMES + 3][512];
	size_t n;
	struct loaded l;
	struct ftv_err err = { "" };

	set_paths(p, rv_sets[_i], &n);
	ck_assert_msg(load(&l, p, NULL, n, 0, &err) == 0, "%s", err.msg);
	ck_assert_uint_ge(compare_with_ld(&l), n);
	unload(&l);
}
END_TEST

/* Entries of __patchable_function_entries per object, by pyelftools. */
static const char pfe_count_py[] =
	"import sys\n"
	"from elftools.elf.elffile import ELFFile\n"
	"for p in sys.argv[1:]:\n"
	"    e = ELFFile(open(p, 'rb'))\n"
	"    n = sum(s.num_relocations() for s in e.iter_sections()\n"
	"            if s.name == '.rela__patchable_function_entries')\n"
	"    print(n)\n";

START_TEST(rv_site_counts_match_pyelftools)
{
	char p[RV_NNAMES + 3][512];
	char *argv[RV_NNAMES + 8], *out, *line;
	size_t n, total = 0;
	int a = 0;

	set_paths(p, rv_sets[_i], &n);
	argv[a++] = (char *)ftv_test_env("FTV_PYTHON");
	argv[a++] = "-c";
	argv[a++] = (char *)pfe_count_py;
	for (size_t i = 0; i < n; i++)
		argv[a++] = p[i];
	argv[a] = NULL;
	ck_assert_msg(ftv_test_run(argv, &out) == 0, "%s", out);
	line = out;
	for (size_t i = 0; i < n; i++) {
		struct loaded l;
		struct ftv_err err = { "" };
		unsigned long want = strtoul(line, &line, 10);

		ck_assert_msg(load(&l, &p[i], NULL, 1, 1, &err) == 0, "%s",
			      err.msg);
		ck_assert_msg(sim_image_nsites(l.img) == want,
			      "%s: ftv %zu sites, pyelftools %lu entries", p[i],
			      sim_image_nsites(l.img), want);
		total += want;
		unload(&l);
	}
	ck_assert_uint_gt(total, 100);
	free(out);
}
END_TEST

/* Contract 2: literal = func-8, mov_addr = func (AUIPC), addr = func+4
 * (JALR <-> NOP), the 16 bytes are the set's NOPs, and -falign-functions=8
 * keeps the literal of every ordinary .text function 8-aligned. */
START_TEST(rv_sites_follow_the_call_ops_layout)
{
	char p[1][512], rel[128];
	struct loaded l;
	struct ftv_err err = { "" };
	int rvc = _i == 0;

	snprintf(rel, sizeof(rel), "corpus/%s/fsm.o", rv_sets[_i]);
	ftv_test_path(p[0], sizeof(p[0]), "FTV_BUILD", rel);
	ck_assert_msg(load(&l, p, NULL, 1, 1, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(sim_image_nsites(l.img), 4);
	for (size_t i = 0; i < sim_image_nsites(l.img); i++) {
		const struct sim_site *s = sim_image_site(l.img, i);
		const struct sim_symbol *fs = sim_sym_at(l.as, s->func);

		ck_assert_int_eq(s->kind, FTV_SITE_RISCV_CALL_OPS);
		ck_assert_uint_eq(s->literal, s->func - 8);
		ck_assert_uint_eq(s->entry, s->literal);
		ck_assert_uint_eq(s->mov_addr, s->func);
		ck_assert_uint_eq(s->addr, s->func + 4);
		ck_assert(fs && fs->addr == s->func && !strcmp(fs->name, s->funcname));
		ck_assert(s->aligned && !s->aligned_by_chance);
		for (uint64_t a = s->literal; a < s->func + 8; a += 4) {
			uint32_t w;

			ck_assert(!sim_read32(l.as, a, &w));
			ck_assert_uint_eq(w, rvc ? 0x00010001u : 0x00000013u);
		}
	}
	unload(&l);
}
END_TEST

/* GCC 12 does not apply -falign-functions to cold functions
 * (.text.unlikely keeps sh_addralign 2): their sites are reported. */
START_TEST(rv_cold_functions_are_reported_misaligned_or_by_chance)
{
	char p[1][512];
	struct loaded l;
	struct ftv_err err = { "" };
	size_t flagged = 0;

	ftv_test_path(p[0], sizeof(p[0]), "FTV_BUILD",
		      "corpus/random-rv64/rand1.o");
	ck_assert_msg(load(&l, p, NULL, 1, 1, &err) == 0, "%s", err.msg);
	for (size_t i = 0; i < sim_image_nsites(l.img); i++) {
		const struct sim_site *s = sim_image_site(l.img, i);

		ck_assert_int_eq(s->aligned, !(s->literal & 7));
		if (!s->aligned || s->aligned_by_chance) {
			ck_assert_str_eq(s->section, ".text.unlikely");
			flagged++;
		}
	}
	ck_assert_uint_gt(flagged, 0);
	for (size_t i = 0, mis = 0; i < sim_image_ndiags(l.img); i++)
		if (sim_image_diag(l.img, i)->kind == SIM_DIAG_MISALIGNED)
			ck_assert(strstr(sim_image_diag(l.img, i)->text,
					 "Misaligned patch-site ") && ++mis);
	unload(&l);
}
END_TEST

/* Relocations of non-ALLOC sections per object, by pyelftools. */
static const char nonalloc_relocs_py[] =
	"import sys\n"
	"from elftools.elf.elffile import ELFFile\n"
	"e = ELFFile(open(sys.argv[1], 'rb'))\n"
	"n = 0\n"
	"for s in e.iter_sections():\n"
	"    if s['sh_type'] == 'SHT_RELA':\n"
	"        t = e.get_section(s['sh_info'])\n"
	"        if not t['sh_flags'] & 2:\n"
	"            n += s.num_relocations()\n"
	"print(n)\n";

/* DWARF's ADD/SUB/SET relocations live in .rela.debug_*: counted, not
 * applied (the sections are not loaded), while the loaded bytes still
 * match GNU ld. */
START_TEST(rv_debug_relocations_are_counted_not_applied)
{
	char p[1][512], *out;
	char *argv[] = { (char *)ftv_test_env("FTV_PYTHON"), "-c",
			 (char *)nonalloc_relocs_py, p[0], NULL };
	struct loaded l;
	struct ftv_err err = { "" };
	const struct sim_object_info *o;
	unsigned long want;

	ftv_test_path(p[0], sizeof(p[0]), "FTV_BUILD", "corpus/rv64-debug/list.o");
	ck_assert_msg(ftv_test_run(argv, &out) == 0, "%s", out);
	want = strtoul(out, NULL, 10);
	free(out);
	ck_assert_msg(load(&l, p, NULL, 1, 1, &err) == 0, "%s", err.msg);
	o = sim_image_object(l.img, 0);
	ck_assert_uint_gt(want, 10);
	ck_assert_uint_eq(o->nrelocs_skipped, want);
	ck_assert_uint_gt(o->nrelsecs_skipped, 0);
	unload(&l);
	/* Linked alone it has undefined symbols: compare it with klib. */
	{
		char q[2][512];

		strcpy(q[0], p[0]);
		ftv_test_path(q[1], sizeof(q[1]), "FTV_BUILD", "corpus/rv64/klib.o");
		ck_assert_msg(load(&l, q, NULL, 2, 0, &err) == 0, "%s", err.msg);
		ck_assert_uint_ge(compare_with_ld(&l), 2);
		unload(&l);
	}
}
END_TEST

START_TEST(rv_undefined_symbols_get_ebreak_stubs)
{
	char p[1][512];
	struct loaded l;
	struct ftv_err err = { "" };
	uint64_t a;
	uint32_t w;
	const char *name;

	ftv_test_path(p[0], sizeof(p[0]), "FTV_BUILD", "corpus/rv64/driver.o");
	ck_assert_msg(load(&l, p, NULL, 1, 1, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(sim_image_nstubs(l.img), 0);
	name = sim_image_stub_get(l.img, 0, &a);
	ck_assert(!sim_read32(l.as, a, &w));
	ck_assert_uint_eq(w, SIM_RV_EBREAK);
	ck_assert_str_eq(sim_image_stub_name(l.img, a), name);
	unload(&l);
}
END_TEST

START_TEST(rv_and_arm64_objects_do_not_mix)
{
	char p[2][512];
	struct loaded l;
	struct ftv_err err = { "" };

	ftv_test_path(p[0], sizeof(p[0]), "FTV_BUILD", "corpus/rv64/fsm.o");
	ftv_test_path(p[1], sizeof(p[1]), "FTV_BUILD", "corpus/callops/fsm.o");
	ck_assert_int_ne(load(&l, p, NULL, 2, 1, &err), 0);
	ck_assert_msg(strstr(err.msg, p[1]) && strstr(err.msg, "riscv64") &&
		      strstr(err.msg, "arm64"), "%s", err.msg);
	unload(&l);
}
END_TEST

/* Copies src to a temporary file with the type of the first relocation
 * of type `from` in section `relsec` replaced by `to`. */
static void patch_reloc_type(const char *src, char *dst, const char *relsec,
			     unsigned from, unsigned to)
{
	size_t n;
	uint8_t *d = slurp(src, &n);
	const Elf64_Shdr *sh = elf_section(d, n, relsec);
	int done = 0;

	ck_assert_ptr_nonnull(sh);
	for (uint64_t o = 0; o + sizeof(Elf64_Rela) <= sh->sh_size && !done;
	     o += sizeof(Elf64_Rela)) {
		Elf64_Rela r;

		memcpy(&r, d + sh->sh_offset + o, sizeof(r));
		if (ELF64_R_TYPE(r.r_info) == from) {
			r.r_info = ELF64_R_INFO(ELF64_R_SYM(r.r_info), to);
			memcpy(d + sh->sh_offset + o, &r, sizeof(r));
			done = 1;
		}
	}
	ck_assert(done);
	write_temp(d, n, dst);
}

static void expect_load_error(char *const files[], const char *want1,
			      const char *want2)
{
	char *argv[8] = { (char *)ftv_test_env("FTV"), "load" }, *out;
	int a = 2;

	for (; *files; files++)
		argv[a++] = *files;
	argv[a] = NULL;
	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	/* one line, from the command, naming what is wrong */
	ck_assert_msg(!strncmp(out, "ftv load: ", 10) &&
		      strchr(out, '\n') == out + strlen(out) - 1 &&
		      strstr(out, want1) && strstr(out, want2), "%s", out);
	free(out);
}

START_TEST(rv_unknown_relocation_type_is_a_one_line_error)
{
	char src[512], abs[512], bad[64];

	asm_path(src, sizeof(src), "relocs");
	asm_path(abs, sizeof(abs), "abs");
	patch_reloc_type(src, bad, ".rela.text", R_RISCV_JAL, 99);
	expect_load_error((char *[]){ bad, abs, NULL },
			  "R_RISCV_<unknown 99>", ".text+0x");
	unlink(bad);
	/* A TLS type is named and refused, not skipped. */
	patch_reloc_type(src, bad, ".rela.text", R_RISCV_JAL,
			 R_RISCV_TPREL_HI20);
	expect_load_error((char *[]){ bad, abs, NULL }, "R_RISCV_TPREL_HI20",
			  "not supported");
	unlink(bad);
}
END_TEST

/* The ALIGN deletion is section-relative, so it is only exact if the
 * section is placed at a multiple of the alignment: an object whose
 * sh_addralign is below one of its ALIGNs is refused, naming both. */
START_TEST(rv_align_beyond_section_alignment_is_a_one_line_error)
{
	char src[512], abs[512], bad[64];
	size_t n;
	uint8_t *d;
	const Elf64_Ehdr *eh;
	Elf64_Shdr *sh;

	asm_path(src, sizeof(src), "relocs");
	asm_path(abs, sizeof(abs), "abs");
	d = slurp(src, &n);
	eh = (const Elf64_Ehdr *)d;
	sh = (Elf64_Shdr *)(uintptr_t)elf_section(d, n, ".text");
	ck_assert(sh && sh->sh_addralign == 16 && eh->e_machine == EM_RISCV);
	sh->sh_addralign = 2;
	write_temp(d, n, bad);
	expect_load_error((char *[]){ bad, abs, NULL }, "R_RISCV_ALIGN to 8 bytes",
			  "sh_addralign 2");
	unlink(bad);
}
END_TEST

START_TEST(rv_lo12_without_hi20_is_a_one_line_error)
{
	char src[512], abs[512], bad[64];

	asm_path(src, sizeof(src), "relocs");
	asm_path(abs, sizeof(abs), "abs");
	patch_reloc_type(src, bad, ".rela.text", R_RISCV_PCREL_HI20,
			 R_RISCV_NONE);
	expect_load_error((char *[]){ bad, abs, NULL },
			  "R_RISCV_PCREL_LO12_I against '.Lpc1'",
			  "no matching R_RISCV_PCREL_HI20");
	unlink(bad);
}
END_TEST

START_TEST(rv_out_of_range_branch_is_a_one_line_error)
{
	char src[512], abs[512], far[512];

	asm_path(src, sizeof(src), "relocs");
	asm_path(abs, sizeof(abs), "abs");
	asm_path(far, sizeof(far), "far_branch");
	expect_load_error((char *[]){ src, abs, "--module", far, NULL },
			  "R_RISCV_BRANCH against 'rv_start'", "out of range");
}
END_TEST

START_TEST(rv_load_prints_sites_in_riscv_disassembly)
{
	char obj[512], *out;
	char *argv[] = { (char *)ftv_test_env("FTV"), "load", "--sites",
			 "--stub-undefined", obj, NULL };

	ftv_test_path(obj, sizeof(obj), "FTV_BUILD", "corpus/rv64/fsm.o");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "riscv_call_ops on_start+0x4/") &&
		      strstr(out, "[c.nop; c.nop; c.nop; c.nop | c.nop; c.nop; c.nop; c.nop]"),
		      "%s", out);
	free(out);
	ftv_test_path(obj, sizeof(obj), "FTV_BUILD", "corpus/rv64-norvc/fsm.o");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(strstr(out, "[nop; nop | nop; nop]"), "%s", out);
	free(out);
}
END_TEST

/* GCC's section anchors: a local label past the end of .rodata
 * (`.set .LANCHORn, . + 4096`), used with a negative addend, loads and
 * relocates to the byte it means; the check moved from the symbol (which
 * refused the object) to symbol + addend at relocation time, which still
 * refuses an addend that leaves the section. */
START_TEST(rv_label_past_its_section_end_relocates_within_it)
{
	char p[1][512], bad[64];
	struct loaded l;
	struct ftv_err err = { "" };
	uint64_t ptr = 0, v = 0;
	const Elf64_Shdr *rd;
	size_t n;
	uint8_t *d;
	Elf64_Rela r;

	asm_path(p[0], sizeof(p[0]), "anchor_past_end");
	ck_assert_msg(load(&l, p, NULL, 1, 0, &err) == 0, "%s", err.msg);
	ck_assert(!sim_read64(l.as, sim_image_lookup(l.img, "anchor_ptr"), &ptr));
	ck_assert(!sim_read64(l.as, ptr, &v));
	ck_assert_uint_eq(v, 0x2222222222222222ull); /* table + 8 */
	unload(&l);

	/* the same relocation with addend -8: .rodata + 0x1008, outside */
	d = slurp(p[0], &n);
	rd = elf_section(d, n, ".rela.data");
	ck_assert(rd && rd->sh_size == sizeof(r));
	memcpy(&r, d + rd->sh_offset, sizeof(r));
	ck_assert_int_eq(r.r_addend, -4104);
	r.r_addend = -8;
	memcpy(d + rd->sh_offset, &r, sizeof(r));
	write_temp(d, n, bad);
	expect_load_error((char *[]){ bad, NULL }, "R_RISCV_64 against '.LANCHOR_end'-8",
			  "points outside .rodata (size 0x10)");
	unlink(bad);
}
END_TEST

static Suite *riscv64_loader_suite(void)
{
	Suite *s = suite_create("riscv64_loader");
	TCase *t = tcase_create("rv_loader");

	tcase_set_timeout(t, 60);
	tcase_add_test(t, rv_relocations_match_gnu_ld);
	tcase_add_loop_test(t, rv_corpus_links_like_gnu_ld, 0, RV_SETS_N);
	tcase_add_loop_test(t, rv_site_counts_match_pyelftools, 0, RV_SETS_N);
	tcase_add_loop_test(t, rv_sites_follow_the_call_ops_layout, 0,
			    RV_SETS_N);
	tcase_add_test(t, rv_cold_functions_are_reported_misaligned_or_by_chance);
	tcase_add_test(t, rv_debug_relocations_are_counted_not_applied);
	tcase_add_test(t, rv_undefined_symbols_get_ebreak_stubs);
	tcase_add_test(t, rv_and_arm64_objects_do_not_mix);
	tcase_add_test(t, rv_unknown_relocation_type_is_a_one_line_error);
	tcase_add_test(t, rv_lo12_without_hi20_is_a_one_line_error);
	tcase_add_test(t, rv_align_beyond_section_alignment_is_a_one_line_error);
	tcase_add_test(t, rv_out_of_range_branch_is_a_one_line_error);
	tcase_add_test(t, rv_load_prints_sites_in_riscv_disassembly);
	tcase_add_test(t, rv_label_past_its_section_end_relocates_within_it);
	suite_add_tcase(s, t);
	return s;
}
FTV_SUITE(riscv64_loader, riscv64_loader_suite)
