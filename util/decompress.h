/* Compressed inputs, decoded in-process: xz (liblzma), zstd (libzstd) and
 * gzip (zlib), the three formats the kernel installs modules in
 * (CONFIG_MODULE_COMPRESS_XZ/ZSTD/GZIP: .ko.xz, .ko.zst, .ko.gz). The
 * format is told by the data's magic bytes; a name that claims another
 * format is an error. Every failure is one line naming the file and what
 * is wrong: truncated, a bad checksum, corrupt data, trailing bytes, too
 * large, or not the format its name says. */
#ifndef FTV_UTIL_DECOMPRESS_H
#define FTV_UTIL_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

enum ftv_zfmt {
	FTV_Z_NONE, /* not compressed */
	FTV_Z_XZ,   /* FD '7' 'z' 'X' 'Z' 00 (.xz file format 1.2.0, 2.1.1.1) */
	FTV_Z_ZSTD, /* 28 B5 2F FD (RFC 8878, 3.1.1) */
	FTV_Z_GZIP, /* 1F 8B (RFC 1952, 2.3.1) */
};

/* The format whose magic bytes begin p[0..n). */
enum ftv_zfmt ftv_z_detect(const uint8_t *p, size_t n);
/* The format a file name claims by its suffix: .xz, .zst or .gz. */
enum ftv_zfmt ftv_z_claimed(const char *path);
/* "xz", "zstd", "gzip" or "uncompressed". */
const char *ftv_z_name(enum ftv_zfmt f);

/* The format of p[0..n), checked against the name: "m.ko.zst" holding
 * gzip or plain data is an error. Returns 0 and sets *f, or -1. */
int ftv_z_identify(const char *path, const uint8_t *p, size_t n,
		   enum ftv_zfmt *f, struct ftv_err *err);

/* Decodes in[0..n), compressed in format f (not FTV_Z_NONE), into a
 * malloc'd buffer (*out, *outlen). Concatenated streams, frames or members
 * decode as one file, as the xz, zstd and gzip tools read them. More than
 * max bytes of output is an error (a guard against decompression bombs).
 * Messages name path and the input offset where decoding stopped. */
int ftv_decompress(const char *path, enum ftv_zfmt f, const uint8_t *in,
		   size_t n, size_t max, uint8_t **out, size_t *outlen,
		   struct ftv_err *err);

/* Reads a whole file (a regular file, a pipe...) into a malloc'd buffer,
 * decoded when ftv_z_identify says it is compressed; at most max bytes
 * read and at most max bytes decoded. */
int ftv_read_file(const char *path, size_t max, uint8_t **out,
		  size_t *outlen, struct ftv_err *err);

#endif
