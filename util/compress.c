#include "util/compress.h"

#include <errno.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

static int write_all(FILE *f, const void *p, size_t n, const char *path,
		     struct ftv_err *err)
{
	if (n && fwrite(p, 1, n, f) != n)
		return ftv_errf(err, "%s: write failed: %s", path, strerror(errno));
	return 0;
}

static int xz_write(FILE *out, const uint8_t *in, size_t len,
		    const char *path, struct ftv_err *err)
{
	lzma_stream z = LZMA_STREAM_INIT;
	uint8_t buf[1 << 16];
	lzma_ret r;

	if (lzma_easy_encoder(&z, 9, LZMA_CHECK_CRC64) != LZMA_OK)
		return ftv_errf(err, "%s: cannot start the xz encoder", path);
	z.next_in = in;
	z.avail_in = len;
	do {
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = lzma_code(&z, LZMA_FINISH);
		if (r != LZMA_OK && r != LZMA_STREAM_END) {
			lzma_end(&z);
			return ftv_errf(err, "%s: xz encoder failed (%d)", path, r);
		}
		if (write_all(out, buf, sizeof(buf) - z.avail_out, path, err)) {
			lzma_end(&z);
			return -1;
		}
	} while (r != LZMA_STREAM_END);
	lzma_end(&z);
	return 0;
}

static int zstd_write(FILE *out, const uint8_t *in, size_t len,
		      const char *path, struct ftv_err *err)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	size_t cap = ZSTD_compressBound(len), n;
	uint8_t *buf = malloc(cap ? cap : 1);
	int rc;

	if (!c || !buf) {
		ZSTD_freeCCtx(c);
		free(buf);
		return ftv_errf(err, "%s: out of memory", path);
	}
	/* The frame checksum (XXH64) lets a reader tell corruption. */
	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 19);
	ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1);
	n = ZSTD_compress2(c, buf, cap, in, len);
	if (ZSTD_isError(n))
		rc = ftv_errf(err, "%s: zstd encoder failed: %s", path,
			      ZSTD_getErrorName(n));
	else
		rc = write_all(out, buf, n, path, err);
	ZSTD_freeCCtx(c);
	free(buf);
	return rc;
}

static int gzip_write(FILE *out, const uint8_t *in, size_t len,
		      const char *path, struct ftv_err *err)
{
	z_stream z;
	uint8_t buf[1 << 16];
	size_t pos = 0;
	int r;

	memset(&z, 0, sizeof(z));
	/* 16 + MAX_WBITS: a gzip wrapper; zlib's default header has no
	 * name and time stamp 0. */
	if (deflateInit2(&z, 9, Z_DEFLATED, 16 + MAX_WBITS, 9,
			 Z_DEFAULT_STRATEGY) != Z_OK)
		return ftv_errf(err, "%s: cannot start the gzip encoder", path);
	do {
		size_t chunk = len - pos > (1u << 30) ? 1u << 30 : len - pos;

		z.next_in = (Bytef *)(uintptr_t)(in + pos);
		z.avail_in = (uInt)chunk;
		z.next_out = buf;
		z.avail_out = sizeof(buf);
		r = deflate(&z, pos + chunk == len ? Z_FINISH : Z_NO_FLUSH);
		pos = (const uint8_t *)z.next_in - in;
		if (r == Z_STREAM_ERROR) {
			deflateEnd(&z);
			return ftv_errf(err, "%s: gzip encoder failed", path);
		}
		if (write_all(out, buf, sizeof(buf) - z.avail_out, path, err)) {
			deflateEnd(&z);
			return -1;
		}
	} while (r != Z_STREAM_END);
	deflateEnd(&z);
	return 0;
}

int ftv_compress_write(FILE *out, enum ftv_zfmt f, const uint8_t *in,
		       size_t n, const char *path, struct ftv_err *err)
{
	switch (f) {
	case FTV_Z_XZ:
		return xz_write(out, in, n, path, err);
	case FTV_Z_ZSTD:
		return zstd_write(out, in, n, path, err);
	case FTV_Z_GZIP:
		return gzip_write(out, in, n, path, err);
	case FTV_Z_NONE:
		break;
	}
	return write_all(out, in, n, path, err);
}
