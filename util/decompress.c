#include "util/decompress.h"

#include "util/vec.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
static const uint8_t zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };
static const uint8_t gzip_magic[2] = { 0x1f, 0x8b };

enum ftv_zfmt ftv_z_detect(const uint8_t *p, size_t n)
{
	if (n >= sizeof(xz_magic) && !memcmp(p, xz_magic, sizeof(xz_magic)))
		return FTV_Z_XZ;
	if (n >= sizeof(zstd_magic) && !memcmp(p, zstd_magic, sizeof(zstd_magic)))
		return FTV_Z_ZSTD;
	if (n >= sizeof(gzip_magic) && !memcmp(p, gzip_magic, sizeof(gzip_magic)))
		return FTV_Z_GZIP;
	return FTV_Z_NONE;
}

static int ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a > b && !strcmp(s + a - b, suf);
}

enum ftv_zfmt ftv_z_claimed(const char *path)
{
	if (ends_with(path, ".xz"))
		return FTV_Z_XZ;
	if (ends_with(path, ".zst"))
		return FTV_Z_ZSTD;
	if (ends_with(path, ".gz"))
		return FTV_Z_GZIP;
	return FTV_Z_NONE;
}

const char *ftv_z_name(enum ftv_zfmt f)
{
	switch (f) {
	case FTV_Z_XZ:
		return "xz";
	case FTV_Z_ZSTD:
		return "zstd";
	case FTV_Z_GZIP:
		return "gzip";
	case FTV_Z_NONE:
		break;
	}
	return "uncompressed";
}

int ftv_z_identify(const char *path, const uint8_t *p, size_t n,
		   enum ftv_zfmt *f, struct ftv_err *err)
{
	enum ftv_zfmt claim = ftv_z_claimed(path);

	*f = ftv_z_detect(p, n);
	if (claim == FTV_Z_NONE || claim == *f)
		return 0;
	if (*f != FTV_Z_NONE)
		return ftv_errf(err, "%s: named as %s but holds %s data (magic at offset 0)",
				path, ftv_z_name(claim), ftv_z_name(*f));
	if (n < 4)
		return ftv_errf(err, "%s: named as %s but holds %zu byte%s, too short for %s magic",
				path, ftv_z_name(claim), n, n == 1 ? "" : "s",
				ftv_z_name(claim));
	return ftv_errf(err, "%s: named as %s but is not %s data (it starts with %02x %02x %02x %02x)",
			path, ftv_z_name(claim), ftv_z_name(claim), p[0], p[1],
			p[2], p[3]);
}

/* The output buffer: grows by doubling up to max + 1 bytes, so that one
 * byte more than allowed is seen and refused. */
struct zout {
	uint8_t *buf;
	size_t cap, used, max;
};

/* Room for more output: 0, or -1 (err set) when the limit is reached or
 * memory runs out. */
static int zout_grow(struct zout *o, const char *path, const char *fmt,
		     struct ftv_err *err)
{
	size_t need = o->cap ? o->cap * 2 : 65536;

	if (o->cap > o->max)
		return ftv_errf(err, "%s: %s data expands beyond %zu bytes", path,
				fmt, o->max);
	if (need > o->max + 1 || need < o->cap)
		need = o->max + 1;
	if (VEC_RESERVE(o->buf, o->cap, need))
		return ftv_errf(err, "%s: out of memory decoding %s data", path, fmt);
	return 0;
}

static int corrupt(const char *path, const char *fmt, size_t at,
		   const char *why, struct ftv_err *err)
{
	return ftv_errf(err, "%s: corrupt %s data at input offset 0x%zx (%s)",
			path, fmt, at, why);
}

/* ---- xz ---------------------------------------------------------------- */

static lzma_ret xz_run(const uint8_t *in, size_t n, uint32_t flags,
		       struct zout *o, size_t *at, const char *path,
		       struct ftv_err *err, int *grow_failed)
{
	lzma_stream s = LZMA_STREAM_INIT;
	lzma_ret r;

	*grow_failed = 0;
	r = lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED | flags);
	if (r != LZMA_OK)
		return r;
	s.next_in = in;
	s.avail_in = n;
	o->used = 0;
	for (;;) {
		if (o->used == o->cap && zout_grow(o, path, "xz", err)) {
			*grow_failed = 1;
			break;
		}
		s.next_out = o->buf + o->used;
		s.avail_out = o->cap - o->used;
		r = lzma_code(&s, LZMA_FINISH);
		o->used = o->cap - s.avail_out;
		if (r != LZMA_OK || s.avail_out)
			break;
	}
	*at = n - s.avail_in;
	lzma_end(&s);
	return r;
}

static int xz_decode(const char *path, const uint8_t *in, size_t n,
		     struct zout *o, struct ftv_err *err)
{
	size_t at;
	int gf;
	lzma_ret r = xz_run(in, n, 0, o, &at, path, err, &gf);
	const char *why;

	if (gf)
		return -1;
	if (r == LZMA_STREAM_END)
		return 0;
	switch (r) {
	case LZMA_OK:
	case LZMA_BUF_ERROR:
		/* LZMA_FINISH with all input given: the input ended early. */
		why = "truncated";
		break;
	case LZMA_DATA_ERROR: {
		/* liblzma reports a wrong Check as a data error; the data
		 * decoding cleanly without the Check says which it was. */
		size_t at2;
		struct ftv_err e2;

		why = xz_run(in, n, LZMA_IGNORE_CHECK, o, &at2, path, &e2, &gf) ==
		      LZMA_STREAM_END ? "bad checksum" : "data error";
		break;
	}
	case LZMA_FORMAT_ERROR:
		why = "bad format";
		break;
	case LZMA_OPTIONS_ERROR:
		why = "unsupported options";
		break;
	case LZMA_MEM_ERROR:
		why = "out of memory";
		break;
	default:
		why = "decoder error";
		break;
	}
	return corrupt(path, "xz", at, why, err);
}

/* ---- zstd -------------------------------------------------------------- */

static const char *zstd_why(size_t r)
{
	switch (ZSTD_getErrorCode(r)) {
	case ZSTD_error_checksum_wrong:
		return "bad checksum";
	case ZSTD_error_prefix_unknown:
		return "not a zstd frame";
	case ZSTD_error_corruption_detected:
	case ZSTD_error_srcSize_wrong:
	case ZSTD_error_dictionary_corrupted:
		return "data error";
	case ZSTD_error_frameParameter_unsupported:
		return "unsupported frame parameters";
	case ZSTD_error_frameParameter_windowTooLarge:
		return "window too large";
	case ZSTD_error_memory_allocation:
		return "out of memory";
	default:
		return ZSTD_getErrorName(r);
	}
}

static int zstd_decode(const char *path, const uint8_t *in, size_t n,
		       struct zout *o, struct ftv_err *err)
{
	ZSTD_DStream *d = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t r = 1;
	int rc = 0;

	if (!d || ZSTD_isError(ZSTD_initDStream(d))) {
		ZSTD_freeDStream(d);
		return ftv_errf(err, "%s: cannot start the zstd decoder", path);
	}
	for (;;) {
		ZSTD_outBuffer ob;

		if (o->used == o->cap && zout_grow(o, path, "zstd", err)) {
			rc = -1;
			break;
		}
		ob.dst = o->buf;
		ob.size = o->cap;
		ob.pos = o->used;
		/* Returns 0 at the end of each frame; called again with
		 * input left, it starts the next one. */
		r = ZSTD_decompressStream(d, &ob, &ib);
		o->used = ob.pos;
		if (ZSTD_isError(r)) {
			rc = corrupt(path, "zstd", ib.pos, zstd_why(r), err);
			break;
		}
		if (ib.pos == ib.size && (r == 0 || ob.pos < ob.size)) {
			/* All input used: either the last frame ended, or
			 * the decoder still waits for more of it. */
			if (r)
				rc = corrupt(path, "zstd", ib.pos, "truncated", err);
			break;
		}
	}
	ZSTD_freeDStream(d);
	return rc;
}

/* ---- gzip -------------------------------------------------------------- */

static const char *gzip_why(const z_stream *z)
{
	const char *m = z->msg ? z->msg : "";

	if (!strcmp(m, "incorrect data check"))
		return "bad checksum";
	if (!strcmp(m, "incorrect length check"))
		return "bad length";
	if (!strcmp(m, "header crc mismatch"))
		return "bad header checksum";
	if (!strcmp(m, "incorrect header check") ||
	    !strcmp(m, "unknown compression method") ||
	    !strcmp(m, "unknown header flags set"))
		return "bad header";
	return "data error";
}

static int gzip_decode(const char *path, const uint8_t *in, size_t n,
		       struct zout *o, struct ftv_err *err)
{
	z_stream z;
	size_t pos = 0;
	int rc = 0;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip wrapper (RFC 1952), not raw zlib. */
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return ftv_errf(err, "%s: cannot start the gzip decoder", path);
	for (;;) {
		size_t in_avail = n - pos, out_avail;
		int r;

		if (o->used == o->cap && zout_grow(o, path, "gzip", err)) {
			rc = -1;
			break;
		}
		out_avail = o->cap - o->used;
		/* zlib counts in uInt: feed at most 1 GiB per call. */
		z.next_in = (Bytef *)(uintptr_t)(in + pos);
		z.avail_in = in_avail > (1u << 30) ? 1u << 30 : (uInt)in_avail;
		z.next_out = o->buf + o->used;
		z.avail_out = out_avail > (1u << 30) ? 1u << 30 : (uInt)out_avail;
		r = inflate(&z, Z_NO_FLUSH);
		pos = (const uint8_t *)z.next_in - in;
		o->used = z.next_out - o->buf;
		if (r == Z_STREAM_END) {
			if (pos == n)
				break;
			/* Another member follows (gzip -d reads them all). */
			if (ftv_z_detect(in + pos, n - pos) == FTV_Z_GZIP) {
				inflateReset(&z);
				continue;
			}
			rc = ftv_errf(err, "%s: %zu bytes of trailing data after the gzip data at offset 0x%zx",
				      path, n - pos, pos);
			break;
		}
		if (r == Z_OK)
			continue;
		if (r == Z_BUF_ERROR) {
			if (o->used == o->cap)
				continue; /* more room, then go on */
			if (pos == n) {
				rc = corrupt(path, "gzip", pos, "truncated", err);
				break;
			}
		}
		rc = corrupt(path, "gzip", pos,
			     r == Z_MEM_ERROR ? "out of memory" : gzip_why(&z),
			     err);
		break;
	}
	inflateEnd(&z);
	return rc;
}

int ftv_decompress(const char *path, enum ftv_zfmt f, const uint8_t *in,
		   size_t n, size_t max, uint8_t **out, size_t *outlen,
		   struct ftv_err *err)
{
	struct zout o = { .max = max };
	int rc;

	*out = NULL;
	*outlen = 0;
	switch (f) {
	case FTV_Z_XZ:
		rc = xz_decode(path, in, n, &o, err);
		break;
	case FTV_Z_ZSTD:
		rc = zstd_decode(path, in, n, &o, err);
		break;
	case FTV_Z_GZIP:
		rc = gzip_decode(path, in, n, &o, err);
		break;
	default:
		rc = ftv_errf(err, "%s: not compressed", path);
		break;
	}
	if (!rc && o.used > max)
		rc = ftv_errf(err, "%s: %s data expands beyond %zu bytes", path,
			      ftv_z_name(f), max);
	if (rc) {
		free(o.buf);
		return -1;
	}
	*out = o.buf ? o.buf : malloc(1);
	*outlen = o.used;
	if (!*out)
		return ftv_errf(err, "%s: out of memory", path);
	return 0;
}

int ftv_read_file(const char *path, size_t max, uint8_t **out,
		  size_t *outlen, struct ftv_err *err)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL, *dec;
	size_t len = 0, cap = 0, r;
	enum ftv_zfmt fmt;
	int rc = 0;

	*out = NULL;
	*outlen = 0;
	if (!f)
		return ftv_errf(err, "%s: cannot open: %s", path, strerror(errno));
	do {
		if (VEC_RESERVE(buf, cap, len + 65536)) {
			rc = ftv_errf(err, "%s: out of memory", path);
			break;
		}
		r = fread(buf + len, 1, cap - len, f);
		len += r;
		if (len > max) {
			rc = ftv_errf(err, "%s: larger than %zu bytes", path, max);
			break;
		}
	} while (r);
	if (!rc && ferror(f))
		rc = ftv_errf(err, "%s: read failed: %s", path, strerror(errno));
	fclose(f);
	if (!rc)
		rc = ftv_z_identify(path, buf, len, &fmt, err);
	if (rc) {
		free(buf);
		return -1;
	}
	if (fmt == FTV_Z_NONE) {
		*out = buf;
		*outlen = len;
		return 0;
	}
	rc = ftv_decompress(path, fmt, buf, len, max, &dec, outlen, err);
	free(buf);
	if (rc)
		return -1;
	*out = dec;
	return 0;
}
