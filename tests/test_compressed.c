/* Compressed modules and layouts (util/decompress.h): a .ko.xz, .ko.zst or
 * .ko.gz made by the xz, zstd and gzip tools (mk/corpus.mk, as kbuild
 * compresses modules) loads into an image identical to the plain .ko's;
 * truncated, corrupted and mislabelled files are refused with one line
 * naming the file and what is wrong; layouts read the same way. */
#include "tests/suite.h"
#include "layout/layout.h"
#include "sim/image.h"
#include "util/compress.h"
#include "util/decompress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MOD "corpus/mod/corpmod.ko"

static const char *const zsuffix[] = { ".xz", ".zst", ".gz" };
static const char *const zname[] = { "xz", "zstd", "gzip" };

static uint8_t *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *d;
	long l;

	ck_assert_msg(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	l = ftell(f);
	fseek(f, 0, SEEK_SET);
	d = malloc(l ? l : 1);
	ck_assert(d && fread(d, 1, l, f) == (size_t)l);
	fclose(f);
	*n = l;
	return d;
}

static void spit(const char *path, const void *d, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_msg(f, "cannot create %s", path);
	ck_assert(fwrite(d, 1, n, f) == n);
	fclose(f);
}

static void build_path(char *buf, size_t n, const char *rel)
{
	ftv_test_path(buf, n, "FTV_BUILD", rel);
}

/* A scratch file under the build directory. */
static void tmp_path(char *buf, size_t n, const char *name)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "corpus/mod/t-%d-%s", (int)getpid(), name);
	build_path(buf, n, rel);
}

struct loaded {
	struct sim_aspace *as;
	struct sim_image *img;
};

static int load(struct loaded *L, const char *path, char msg[512])
{
	struct sim_load_opts o = { .stub_undefined = 1 };
	struct ftv_err err = { "" };
	int rc;

	L->as = sim_aspace_new();
	L->img = sim_image_new(L->as, &o);
	rc = sim_image_add_file(L->img, path, 1, &err);
	if (!rc)
		rc = sim_image_link(L->img, &err);
	snprintf(msg, 512, "%s", err.msg);
	return rc;
}

static void unload(struct loaded *L)
{
	sim_image_free(L->img);
	sim_aspace_free(L->as);
}

/* Loads data[0..n) as module "bad.o"; -1 and the message when refused. */
static int load_mem(const uint8_t *data, size_t n, char msg[512])
{
	struct sim_aspace *as = sim_aspace_new();
	struct sim_load_opts o = { .stub_undefined = 1 };
	struct sim_image *img = sim_image_new(as, &o);
	struct ftv_err err = { "" };
	uint8_t *copy = malloc(n ? n : 1);
	int rc;

	ck_assert(copy);
	memcpy(copy, data, n);
	rc = sim_image_add_mem(img, "bad.o", copy, n, 1, &err);
	if (!rc)
		rc = sim_image_link(img, &err);
	sim_image_free(img);
	sim_aspace_free(as);
	snprintf(msg, 512, "%s", err.msg);
	return rc;
}

static void one_line(const char *msg)
{
	ck_assert_msg(*msg && !strchr(msg, '\n'), "not one line: '%s'", msg);
}

/* Everything the image holds: regions byte for byte, symbols, sites,
 * diagnostics (paths aside), object summaries. */
static void same_image(const struct loaded *a, const struct loaded *b)
{
	ck_assert_uint_eq(sim_region_count(a->as), sim_region_count(b->as));
	for (size_t i = 0; i < sim_region_count(a->as); i++) {
		struct sim_region *ra = sim_region_get(a->as, i);
		struct sim_region *rb = sim_region_get(b->as, i);

		ck_assert_str_eq(ra->name, rb->name);
		ck_assert_uint_eq(ra->base, rb->base);
		ck_assert_uint_eq(ra->used, rb->used);
		ck_assert_msg(!memcmp(ra->host, rb->host, ra->used),
			      "region %s differs", ra->name);
	}
	ck_assert_uint_eq(sim_sym_count(a->as), sim_sym_count(b->as));
	for (size_t i = 0; i < sim_sym_count(a->as); i++) {
		const struct sim_symbol *x = sim_sym_get(a->as, i);
		const struct sim_symbol *y = sim_sym_get(b->as, i);

		ck_assert_str_eq(x->name, y->name);
		ck_assert_uint_eq(x->addr, y->addr);
		ck_assert_uint_eq(x->size, y->size);
		ck_assert_int_eq(x->type, y->type);
		ck_assert_str_eq(x->module ? x->module : "-",
				 y->module ? y->module : "-");
	}
	ck_assert_uint_gt(sim_image_nsites(a->img), 10);
	ck_assert_uint_eq(sim_image_nsites(a->img), sim_image_nsites(b->img));
	for (size_t i = 0; i < sim_image_nsites(a->img); i++) {
		const struct sim_site *x = sim_image_site(a->img, i);
		const struct sim_site *y = sim_image_site(b->img, i);

		ck_assert_uint_eq(x->addr, y->addr);
		ck_assert_uint_eq(x->entry, y->entry);
		ck_assert_int_eq(x->kind, y->kind);
		ck_assert_str_eq(x->funcname, y->funcname);
		ck_assert_str_eq(x->module, y->module);
	}
	ck_assert_uint_eq(sim_image_ndiags(a->img), sim_image_ndiags(b->img));
	for (size_t i = 0; i < sim_image_ndiags(a->img); i++)
		ck_assert_int_eq(sim_image_diag(a->img, i)->kind,
				 sim_image_diag(b->img, i)->kind);
	ck_assert_str_eq(sim_image_object(a->img, 0)->name, "corpmod");
	ck_assert_str_eq(sim_image_object(b->img, 0)->name, "corpmod");
	ck_assert_uint_eq(sim_image_object(a->img, 0)->nrelocs,
			  sim_image_object(b->img, 0)->nrelocs);
}

START_TEST(compressed_module_loads_like_the_plain_one)
{
	char plain[512], comp[520], msg[512];
	struct loaded a, b;

	build_path(plain, sizeof(plain), MOD);
	snprintf(comp, sizeof(comp), "%s%s", plain, zsuffix[_i]);
	ck_assert_msg(!load(&a, plain, msg), "%s", msg);
	ck_assert_msg(!load(&b, comp, msg), "%s: %s", comp, msg);
	same_image(&a, &b);
	unload(&a);
	unload(&b);
}
END_TEST

START_TEST(truncated_compressed_module_is_refused)
{
	char path[512], msg[512], want[64];
	size_t n;
	uint8_t *d;

	build_path(path, sizeof(path), MOD);
	strcat(path, zsuffix[_i]);
	d = slurp(path, &n);
	snprintf(want, sizeof(want), "bad.o: corrupt %s data", zname[_i]);
	/* From the end of the magic bytes on: every cut is inside the
	 * compressed stream. */
	for (size_t l = 6; l < n; l += 1 + n / 60) {
		ck_assert_int_eq(load_mem(d, l, msg), -1);
		ck_assert_msg(strstr(msg, want) && strstr(msg, "(truncated)"),
			      "cut at %zu: %s", l, msg);
		one_line(msg);
	}
	free(d);
}
END_TEST

START_TEST(corrupt_compressed_module_is_refused)
{
	char path[512], msg[512];
	size_t n;
	uint8_t *d, *c;

	build_path(path, sizeof(path), MOD);
	strcat(path, zsuffix[_i]);
	d = slurp(path, &n);
	c = malloc(n);
	for (size_t off = 12; off < n; off += 1 + n / 50) {
		memcpy(c, d, n);
		c[off] ^= 0x55;
		ck_assert_int_eq(load_mem(c, n, msg), -1);
		ck_assert_msg(!strncmp(msg, "bad.o: ", 7), "flip at %zu: %s",
			      off, msg);
		one_line(msg);
	}
	free(c);
	free(d);
}
END_TEST

/* Where each format keeps the checksum of the data: gzip's CRC-32 and
 * length are the member's last 8 bytes (RFC 1952 2.3); a zstd frame's
 * content checksum its last 4 (RFC 8878 3.1.1); xz's Check follows the
 * block, before the index, whose size the stream footer gives (.xz file
 * format 2.1.2, 3.1.7, 4). */
static size_t checksum_offset(const uint8_t *d, size_t n, int fmt)
{
	uint32_t backward;

	if (fmt == 2)
		return n - 8;
	if (fmt == 1)
		return n - 4;
	memcpy(&backward, d + n - 8, 4);
	/* corpmod.ko.xz is made with --check=crc32: 4 bytes. */
	return n - 12 - ((size_t)backward + 1) * 4 - 4;
}

START_TEST(bad_checksum_is_named)
{
	char path[512], msg[512];
	size_t n;
	uint8_t *d;

	build_path(path, sizeof(path), MOD);
	strcat(path, zsuffix[_i]);
	d = slurp(path, &n);
	d[checksum_offset(d, n, _i)] ^= 0x01;
	ck_assert_int_eq(load_mem(d, n, msg), -1);
	ck_assert_msg(strstr(msg, "(bad checksum)"), "%s", msg);
	one_line(msg);
	if (_i == 2) {
		/* gzip's ISIZE: the length modulo 2^32. */
		d[checksum_offset(d, n, _i)] ^= 0x01;
		d[n - 1] ^= 0x01;
		ck_assert_int_eq(load_mem(d, n, msg), -1);
		ck_assert_msg(strstr(msg, "(bad length)"), "%s", msg);
	}
	free(d);
}
END_TEST

START_TEST(mislabelled_module_is_refused)
{
	char plain[512], xz[520], fake[512], msg[512];
	struct loaded L;
	size_t n, nx;
	uint8_t *d, *x;

	build_path(plain, sizeof(plain), MOD);
	snprintf(xz, sizeof(xz), "%s.xz", plain);
	d = slurp(plain, &n);
	x = slurp(xz, &nx);

	/* Plain ELF called .zst. */
	tmp_path(fake, sizeof(fake), "plain.ko.zst");
	spit(fake, d, n);
	ck_assert_int_eq(load(&L, fake, msg), -1);
	unload(&L);
	ck_assert_msg(strstr(msg, "plain.ko.zst: named as zstd but is not zstd data (it starts with 7f 45 4c 46)"),
		      "%s", msg);
	unlink(fake);

	/* xz data called .gz. */
	tmp_path(fake, sizeof(fake), "xz.ko.gz");
	spit(fake, x, nx);
	ck_assert_int_eq(load(&L, fake, msg), -1);
	unload(&L);
	ck_assert_msg(strstr(msg, "xz.ko.gz: named as gzip but holds xz data"),
		      "%s", msg);
	unlink(fake);

	/* Compressed data without a suffix is still read (by its magic). */
	tmp_path(fake, sizeof(fake), "noname.ko");
	spit(fake, x, nx);
	ck_assert_msg(!load(&L, fake, msg), "%s", msg);
	unload(&L);
	unlink(fake);
	free(d);
	free(x);
}
END_TEST

START_TEST(concatenated_streams_decode_as_one_file)
{
	static const char text[] = "ftv decompress: two streams, one file\n";
	size_t half = sizeof(text) / 2, outlen;
	char *buf = NULL, path[512];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	struct ftv_err err;
	uint8_t *out;

	tmp_path(path, sizeof(path), "cat");
	ck_assert(m);
	ck_assert_int_eq(ftv_compress_write(m, FTV_Z_XZ + _i, (const uint8_t *)text,
					    half, path, &err), 0);
	ck_assert_int_eq(ftv_compress_write(m, FTV_Z_XZ + _i,
					    (const uint8_t *)text + half,
					    sizeof(text) - half, path, &err), 0);
	fclose(m);
	ck_assert_int_eq(ftv_z_detect((uint8_t *)buf, len), FTV_Z_XZ + _i);
	ck_assert_msg(!ftv_decompress(path, FTV_Z_XZ + _i, (uint8_t *)buf, len,
				      1 << 20, &out, &outlen, &err), "%s", err.msg);
	ck_assert_uint_eq(outlen, sizeof(text));
	ck_assert(!memcmp(out, text, sizeof(text)));
	free(out);
	/* The output limit: one byte less than the file is refused. */
	ck_assert_int_eq(ftv_decompress(path, FTV_Z_XZ + _i, (uint8_t *)buf, len,
					sizeof(text) - 1, &out, &outlen, &err), -1);
	ck_assert_msg(strstr(err.msg, "data expands beyond"), "%s", err.msg);
	/* Bytes after the last stream that are not another one. */
	buf = realloc(buf, len + 3);
	memcpy(buf + len, "abc", 3);
	ck_assert_int_eq(ftv_decompress(path, FTV_Z_XZ + _i, (uint8_t *)buf,
					len + 3, 1 << 20, &out, &outlen, &err), -1);
	one_line(err.msg);
	free(buf);
}
END_TEST

/* Layouts read the same way, compressed by ftv's writer or by the tools. */
START_TEST(compressed_layouts_read_like_the_plain_one)
{
	char fixture[512], out[512], cmd[1200], *o = NULL;
	struct ftv_err err;
	struct sim_layout *plain, *l;
	char *argv[] = { (char *)ftv_test_env("FTV"), "layout", out, NULL };
	char *want = NULL;

	ftv_test_path(fixture, sizeof(fixture), "FTV_TOP",
		      "tests/data/replay-fixture.layout");
	plain = sim_layout_load(fixture, &err);
	ck_assert_msg(plain, "%s", err.msg);
	for (int k = 0; k < 3; k++) {
		for (int tool = 0; tool < 2; tool++) {
			char name[64];

			snprintf(name, sizeof(name), "fixture-%d.layout%s", tool,
				 zsuffix[k]);
			tmp_path(out, sizeof(out), name);
			if (tool) {
				snprintf(cmd, sizeof(cmd), "%s -c '%s' > '%s'",
					 k == 0 ? "xz" : k == 1 ? "zstd -q" : "gzip -n",
					 fixture, out);
				ck_assert_int_eq(system(cmd), 0);
			} else {
				ck_assert_msg(!sim_layout_save(out, plain, &err),
					      "%s", err.msg);
			}
			l = sim_layout_load(out, &err);
			ck_assert_msg(l, "%s", err.msg);
			ck_assert_uint_eq(l->nsites, plain->nsites);
			for (size_t i = 0; i < l->nsites; i++) {
				ck_assert_uint_eq(l->sites[i].entry,
						  plain->sites[i].entry);
				ck_assert_str_eq(l->sites[i].func,
						 plain->sites[i].func);
			}
			sim_layout_free(l);
			/* ftv layout prints the same summary but the name. */
			ck_assert_int_eq(ftv_test_run(argv, &o), 0);
			ck_assert_ptr_nonnull(strchr(o, '\n'));
			if (!want)
				want = strdup(strchr(o, '\n'));
			ck_assert_str_eq(strchr(o, '\n'), want);
			free(o);
			unlink(out);
		}
	}
	free(want);
	sim_layout_free(plain);
}
END_TEST

START_TEST(truncated_compressed_layout_is_one_line_exit_2)
{
	char fixture[512], out[512], *o = NULL;
	struct ftv_err err;
	struct sim_layout *plain;
	char *argv[] = { (char *)ftv_test_env("FTV"), "layout", out, NULL };
	char name[64], want[96];
	uint8_t *d;
	size_t n;

	ftv_test_path(fixture, sizeof(fixture), "FTV_TOP",
		      "tests/data/replay-fixture.layout");
	plain = sim_layout_load(fixture, &err);
	ck_assert_msg(plain, "%s", err.msg);
	snprintf(name, sizeof(name), "cut.layout%s", zsuffix[_i]);
	tmp_path(out, sizeof(out), name);
	ck_assert_msg(!sim_layout_save(out, plain, &err), "%s", err.msg);
	d = slurp(out, &n);
	spit(out, d, n - 5);
	ck_assert_int_eq(ftv_test_run(argv, &o), 2);
	snprintf(want, sizeof(want), "%s: corrupt %s data at input offset", name,
		 zname[_i]);
	ck_assert_msg(strstr(o, want) && strstr(o, "truncated") &&
		      strchr(o, '\n') == o + strlen(o) - 1, "%s", o);
	free(o);
	unlink(out);
	free(d);
	sim_layout_free(plain);
}
END_TEST

static Suite *compressed_suite(void)
{
	Suite *s = suite_create("compressed");
	TCase *tc = tcase_create("compressed");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, compressed_module_loads_like_the_plain_one, 0, 3);
	tcase_add_loop_test(tc, truncated_compressed_module_is_refused, 0, 3);
	tcase_add_loop_test(tc, corrupt_compressed_module_is_refused, 0, 3);
	tcase_add_loop_test(tc, bad_checksum_is_named, 0, 3);
	tcase_add_test(tc, mislabelled_module_is_refused);
	tcase_add_loop_test(tc, concatenated_streams_decode_as_one_file, 0, 3);
	tcase_add_test(tc, compressed_layouts_read_like_the_plain_one);
	tcase_add_loop_test(tc, truncated_compressed_layout_is_one_line_exit_2, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}
FTV_SUITE(compressed, compressed_suite)
