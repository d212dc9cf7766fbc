/* Compressed outputs, the write side of util/decompress.h: xz -9 (CRC64),
 * zstd -19 (with its checksum) or gzip -9, deterministic for the same
 * input (no time stamp, no file name in the gzip header). */
#ifndef FTV_UTIL_COMPRESS_H
#define FTV_UTIL_COMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/decompress.h"
#include "util/err.h"

/* Writes in[0..n) to out compressed in format f (FTV_Z_NONE: as is);
 * path names out in messages. */
int ftv_compress_write(FILE *out, enum ftv_zfmt f, const uint8_t *in,
		       size_t n, const char *path, struct ftv_err *err);

#endif
