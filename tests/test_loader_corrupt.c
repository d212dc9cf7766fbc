/* Bad input never crashes the loader: a good corpus object (and a good
 * .ko.xz) is truncated at many lengths, has its header, section headers,
 * symbols and relocations corrupted field by field and then at random;
 * every variant must be refused with a one-line message naming the file
 * (or, for harmless random flips, load), never crash (also under ASan and
 * UBSan with `make SANITIZE=1 test`). */
#include "tests/suite.h"
#include "sim/image.h"
#include "util/rng.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *slurp(const char *rel, size_t *n)
{
	char path[512];
	FILE *f;
	uint8_t *d;
	long l;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", rel);
	f = fopen(path, "rb");
	ck_assert_msg(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	l = ftell(f);
	fseek(f, 0, SEEK_SET);
	d = malloc(l);
	ck_assert(d && fread(d, 1, l, f) == (size_t)l);
	fclose(f);
	*n = l;
	return d;
}

/* Loads a copy of data[0..n) as "bad.o"; returns 0 or -1, message in msg. */
static int try_load(const uint8_t *data, size_t n, int as_module,
		    char msg[512])
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_load_opts o = { .stub_undefined = 1 };
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err = { "" };
	uint8_t *copy = malloc(n ? n : 1);
	int rc;

	ck_assert(copy);
	memcpy(copy, data, n);
	rc = sim_image_add_mem(img, "bad.o", copy, n, as_module, &err);
	if (!rc)
		rc = sim_image_link(img, &err);
	sim_image_free(img);
	sim_aspace_free(as);
	snprintf(msg, 512, "%s", err.msg);
	return rc;
}

static void expect_refused(const uint8_t *data, size_t n, const char *what)
{
	char msg[512];

	ck_assert_msg(try_load(data, n, 0, msg) == -1, "%s: loaded", what);
	ck_assert_msg(!strncmp(msg, "bad.o: ", 7), "%s: message '%s'", what, msg);
	ck_assert_msg(!strchr(msg, '\n'), "%s: multi-line message", what);
}

START_TEST(good_object_loads)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	char msg[512];

	ck_assert_msg(try_load(d, n, 0, msg) == 0, "%s", msg);
	free(d);
}
END_TEST

START_TEST(truncation_at_any_length_is_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	char what[64];

	for (size_t l = 0; l < n; l += (l < 80 ? 1 : 1 + n / 150)) {
		snprintf(what, sizeof(what), "truncated at %zu", l);
		expect_refused(d, l, what);
	}
	free(d);
}
END_TEST

static Elf64_Ehdr ehdr(const uint8_t *d)
{
	Elf64_Ehdr h;

	memcpy(&h, d, sizeof(h));
	return h;
}

static Elf64_Shdr shdr(const uint8_t *d, unsigned i)
{
	Elf64_Shdr s;

	memcpy(&s, d + ehdr(d).e_shoff + i * sizeof(s), sizeof(s));
	return s;
}

/* Copies d, overwrites `len` bytes at off with v, expects refusal. */
static void poke(const uint8_t *d, size_t n, size_t off, uint64_t v, int len,
		 const char *what)
{
	uint8_t *c = malloc(n);

	memcpy(c, d, n);
	memcpy(c + off, &v, len);
	expect_refused(c, n, what);
	free(c);
}

#define SH_FIELD(i, f) (ehdr(d).e_shoff + (i) * sizeof(Elf64_Shdr) + offsetof(Elf64_Shdr, f))

START_TEST(corrupt_header_fields_are_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);

	poke(d, n, 0, 0x7f454c47, 4, "bad magic");
	poke(d, n, EI_CLASS, ELFCLASS32, 1, "ELFCLASS32");
	poke(d, n, EI_DATA, ELFDATA2MSB, 1, "big-endian");
	poke(d, n, offsetof(Elf64_Ehdr, e_machine), EM_X86_64, 2, "x86_64");
	poke(d, n, offsetof(Elf64_Ehdr, e_machine), EM_RISCV, 2, "riscv");
	poke(d, n, offsetof(Elf64_Ehdr, e_type), ET_EXEC, 2, "ET_EXEC");
	poke(d, n, offsetof(Elf64_Ehdr, e_shentsize), 32, 2, "shentsize");
	poke(d, n, offsetof(Elf64_Ehdr, e_shoff), 0xfffffffffffff000ull, 8, "huge e_shoff");
	poke(d, n, offsetof(Elf64_Ehdr, e_shoff), n - 8, 8, "e_shoff at end");
	poke(d, n, offsetof(Elf64_Ehdr, e_shnum), 0, 2, "no sections");
	poke(d, n, offsetof(Elf64_Ehdr, e_shnum), 0xffff, 2, "too many sections");
	poke(d, n, offsetof(Elf64_Ehdr, e_shstrndx), 0x7fff, 2, "bad e_shstrndx");
	poke(d, n, offsetof(Elf64_Ehdr, e_shstrndx), 1, 2, "e_shstrndx not a strtab");
	free(d);
}
END_TEST

START_TEST(corrupt_section_headers_are_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	unsigned nsec = ehdr(d).e_shnum;
	char what[96];

	for (unsigned i = 1; i < nsec; i++) {
		Elf64_Shdr s = shdr(d, i);

		snprintf(what, sizeof(what), "section %u sh_name", i);
		poke(d, n, SH_FIELD(i, sh_name), 0xfffffff, 4, what);
		snprintf(what, sizeof(what), "section %u sh_addralign", i);
		poke(d, n, SH_FIELD(i, sh_addralign), 3, 8, what);
		if (s.sh_type != SHT_NOBITS) {
			snprintf(what, sizeof(what), "section %u huge sh_offset", i);
			poke(d, n, SH_FIELD(i, sh_offset), 0xffffffffffffff00ull, 8, what);
			snprintf(what, sizeof(what), "section %u sh_offset past end", i);
			poke(d, n, SH_FIELD(i, sh_offset), n + 1, 8, what);
			if (s.sh_size) {
				snprintf(what, sizeof(what), "section %u huge sh_size", i);
				poke(d, n, SH_FIELD(i, sh_size), 0xffffffffffff0000ull, 8, what);
			}
		} else {
			snprintf(what, sizeof(what), "NOBITS %u huge sh_size", i);
			poke(d, n, SH_FIELD(i, sh_size), 0x4000000000ull, 8, what);
		}
		if (s.sh_type == SHT_SYMTAB) {
			poke(d, n, SH_FIELD(i, sh_link), 0x7fff, 4, "symtab sh_link");
			poke(d, n, SH_FIELD(i, sh_link), i, 4, "symtab links itself");
			poke(d, n, SH_FIELD(i, sh_entsize), 7, 8, "symtab entsize");
		}
		if (s.sh_type == SHT_RELA &&
		    (shdr(d, s.sh_info).sh_flags & SHF_ALLOC)) {
			snprintf(what, sizeof(what), "rela %u sh_info", i);
			poke(d, n, SH_FIELD(i, sh_info), 0x7fff, 4, what);
			snprintf(what, sizeof(what), "rela %u sh_link", i);
			poke(d, n, SH_FIELD(i, sh_link), 0, 4, what);
			snprintf(what, sizeof(what), "rela %u sh_entsize", i);
			poke(d, n, SH_FIELD(i, sh_entsize), 0, 8, what);
			snprintf(what, sizeof(what), "rela %u as SHT_REL", i);
			poke(d, n, SH_FIELD(i, sh_type), SHT_REL, 4, what);
		}
	}
	free(d);
}
END_TEST

START_TEST(corrupt_symbols_and_relocations_are_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	unsigned nsec = ehdr(d).e_shnum;
	char what[96];
	int nrel = 0;

	for (unsigned i = 1; i < nsec; i++) {
		Elf64_Shdr s = shdr(d, i);

		if (s.sh_type == SHT_SYMTAB) {
			for (size_t k = 1; k < s.sh_size / sizeof(Elf64_Sym); k += 3) {
				size_t at = s.sh_offset + k * sizeof(Elf64_Sym);

				snprintf(what, sizeof(what), "symbol %zu st_name", k);
				poke(d, n, at + offsetof(Elf64_Sym, st_name), 0xfffffff, 4, what);
				snprintf(what, sizeof(what), "symbol %zu st_shndx", k);
				poke(d, n, at + offsetof(Elf64_Sym, st_shndx), 0xff00, 2, what);
			}
		}
		if (s.sh_type != SHT_RELA ||
		    !(shdr(d, s.sh_info).sh_flags & SHF_ALLOC))
			continue;
		for (size_t k = 0; k < s.sh_size / sizeof(Elf64_Rela); k += 2) {
			size_t at = s.sh_offset + k * sizeof(Elf64_Rela);
			Elf64_Rela r;

			memcpy(&r, d + at, sizeof(r));
			snprintf(what, sizeof(what), "rela %u/%zu symbol index", i, k);
			poke(d, n, at + offsetof(Elf64_Rela, r_info),
			     ELF64_R_INFO(0xffffff, ELF64_R_TYPE(r.r_info)), 8, what);
			snprintf(what, sizeof(what), "rela %u/%zu r_offset", i, k);
			poke(d, n, at + offsetof(Elf64_Rela, r_offset),
			     shdr(d, s.sh_info).sh_size, 8, what);
			snprintf(what, sizeof(what), "rela %u/%zu unknown type", i, k);
			poke(d, n, at + offsetof(Elf64_Rela, r_info),
			     ELF64_R_INFO(ELF64_R_SYM(r.r_info), 1234), 8, what);
			nrel++;
		}
	}
	ck_assert_int_gt(nrel, 5);
	free(d);
}
END_TEST

/* A defined symbol's value and size must leave it inside its section: a
 * function with st_size 0xffffffffffff0000 used to load and print as
 * "func+0x4/0xffffffffffff0000". */
START_TEST(symbol_size_leaving_its_section_is_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	unsigned nsec = ehdr(d).e_shnum;
	Elf64_Shdr st = { 0 }, str, in;
	Elf64_Sym y = { 0 };
	size_t at = 0, val_at, size_at;
	char msg[512], want[160];
	uint8_t *c = malloc(n);

	for (unsigned i = 1; i < nsec; i++)
		if (shdr(d, i).sh_type == SHT_SYMTAB)
			st = shdr(d, i);
	ck_assert_uint_eq(st.sh_type, SHT_SYMTAB);
	str = shdr(d, st.sh_link);
	/* The first function with a size. */
	for (size_t k = 1; k < st.sh_size / sizeof(y); k++) {
		at = st.sh_offset + k * sizeof(y);
		memcpy(&y, d + at, sizeof(y));
		if (ELF64_ST_TYPE(y.st_info) == STT_FUNC && y.st_size)
			break;
	}
	ck_assert(ELF64_ST_TYPE(y.st_info) == STT_FUNC && y.st_size);
	in = shdr(d, y.st_shndx);
	val_at = at + offsetof(Elf64_Sym, st_value);
	size_at = at + offsetof(Elf64_Sym, st_size);
	snprintf(want, sizeof(want), "bad.o: symbol '%s'",
		 (const char *)d + str.sh_offset + y.st_name);

	memcpy(c, d, n);
	memcpy(c + size_at, &(uint64_t){ 0xffffffffffff0000ull }, 8);
	ck_assert_int_eq(try_load(c, n, 0, msg), -1);
	ck_assert_msg(strstr(msg, want) && strstr(msg, "size 0xffffffffffff0000 leaves its section .text"),
		      "%s", msg);
	ck_assert_msg(!strchr(msg, '\n'), "%s", msg);

	/* One byte past the end, and a value past it. */
	memcpy(c + size_at, &(uint64_t){ in.sh_size - y.st_value + 1 }, 8);
	ck_assert_int_eq(try_load(c, n, 0, msg), -1);
	ck_assert_msg(strstr(msg, want) && strstr(msg, "leaves its section"), "%s", msg);
	memcpy(c, d, n);
	memcpy(c + val_at, &(uint64_t){ in.sh_size + 4 }, 8);
	ck_assert_int_eq(try_load(c, n, 0, msg), -1);
	ck_assert_msg(strstr(msg, want) && strstr(msg, "leaves its section"), "%s", msg);

	/* Up to the section's last byte is fine. */
	memcpy(c, d, n);
	memcpy(c + size_at, &(uint64_t){ in.sh_size - y.st_value }, 8);
	ck_assert_msg(try_load(c, n, 0, msg) == 0, "%s", msg);
	free(c);
	free(d);
}
END_TEST

START_TEST(random_corruption_never_crashes)
{
	static const char *const files[] = { "corpus/callops/list.o",
					     "corpus/mod/corpmod.ko" };
	struct ftv_rng rng;
	char msg[512];

	ftv_rng_seed(&rng, 0x5eed001);
	for (size_t f = 0; f < 2; f++) {
		size_t n;
		uint8_t *d = slurp(files[f], &n);
		uint8_t *c = malloc(n);
		int refused = 0;

		for (int it = 0; it < 1500; it++) {
			int flips = 1 + ftv_rng_below(&rng, 8);

			memcpy(c, d, n);
			for (int k = 0; k < flips; k++) {
				/* bias towards the headers, where the
				 * interesting fields are */
				size_t off = ftv_rng_chance(&rng, 1, 2) ?
					ehdr(d).e_shoff + ftv_rng_below(&rng, n - ehdr(d).e_shoff) :
					ftv_rng_below(&rng, n);

				c[off] = ftv_rng_next(&rng);
			}
			if (try_load(c, n, (int)f, msg)) {
				refused++;
				ck_assert_msg(!strncmp(msg, "bad.o: ", 7) ||
					      strstr(msg, "undefined") ||
					      strstr(msg, "multiple definition") ||
					      strstr(msg, "COMMON"),
					      "message without file: %s", msg);
			}
		}
		ck_assert_int_gt(refused, 300);
		free(c);
		free(d);
	}
}
END_TEST

START_TEST(corrupt_or_truncated_xz_is_refused)
{
	size_t n;
	uint8_t *d = slurp("corpus/mod/corpmod.ko.xz", &n);
	char msg[512];

	ck_assert_msg(try_load(d, n, 1, msg) == 0, "%s", msg);
	for (size_t l = 6; l < n; l += 1 + n / 40) {
		ck_assert_int_eq(try_load(d, l, 1, msg), -1);
		ck_assert_msg(strstr(msg, "bad.o: corrupt xz data"), "%s", msg);
	}
	for (size_t off = 64; off < n - 16; off += 1 + n / 30) {
		uint8_t *c = malloc(n);

		memcpy(c, d, n);
		c[off] ^= 0x55;
		ck_assert_int_eq(try_load(c, n, 1, msg), -1);
		ck_assert_msg(strstr(msg, "bad.o: "), "%s", msg);
		free(c);
	}
	free(d);
}
END_TEST

START_TEST(load_command_exits_2_with_one_line)
{
	size_t n;
	uint8_t *d = slurp("corpus/callops/list.o", &n);
	char path[512], *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "load", path, NULL };
	FILE *f;

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "corpus/truncated-XXXXXX");
	close(mkstemp(path));
	f = fopen(path, "wb");
	ck_assert(f && fwrite(d, 1, n / 2, f) == n / 2);
	fclose(f);
	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_msg(!strncmp(out, "ftv load: ", 10) && strstr(out, path) &&
		      strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
	free(out);
	/* wrong machine */
	d[offsetof(Elf64_Ehdr, e_machine)] = EM_X86_64;
	f = fopen(path, "wb");
	ck_assert(f && fwrite(d, 1, n, f) == n);
	fclose(f);
	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_msg(strstr(out, "is neither EM_AARCH64 nor EM_RISCV") &&
		      strchr(out, '\n') == out + strlen(out) - 1, "%s", out);
	free(out);
	unlink(path);
	free(d);
}
END_TEST

static Suite *corrupt_suite(void)
{
	Suite *s = suite_create("loader_corrupt");
	TCase *tc = tcase_create("corrupt");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, good_object_loads);
	tcase_add_test(tc, truncation_at_any_length_is_refused);
	tcase_add_test(tc, corrupt_header_fields_are_refused);
	tcase_add_test(tc, corrupt_section_headers_are_refused);
	tcase_add_test(tc, corrupt_symbols_and_relocations_are_refused);
	tcase_add_test(tc, symbol_size_leaving_its_section_is_refused);
	tcase_add_test(tc, random_corruption_never_crashes);
	tcase_add_test(tc, corrupt_or_truncated_xz_is_refused);
	tcase_add_test(tc, load_command_exits_2_with_one_line);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(loader_corrupt, corrupt_suite)
