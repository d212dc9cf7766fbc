/* Output files a command must not lose or clobber: checked before a long
 * run starts, created without overwriting what is there.
 *
 *   if (outfile_check(path, &err))                 before the campaign
 *           ...exit 2...
 *   f = outfile_create(path, used, sizeof(used), &err);   after it
 *   ...write...
 *   if (outfile_close(f, used, &err))
 *
 * A regular file already at the path is kept: the new one gets a suffix
 * before its extension (x.scn, x-1.scn, x-2.scn...) and `used` says which
 * name was taken. A path that names something other than a regular file
 * or a directory (/dev/stdout, a FIFO) is written into as it is.
 */
#ifndef FTV_UTIL_OUTFILE_H
#define FTV_UTIL_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

#include "util/err.h"

/* 0 if a file can be created at path: its directory exists, is a
 * directory and is writable, and path itself is not a directory. */
int outfile_check(const char *path, struct ftv_err *err);

/* Opens a new file for writing at path, or at the first free name with a
 * suffix when a regular file is there already; the name used goes to
 * used. NULL and err on failure. */
FILE *outfile_create(const char *path, char *used, size_t n, struct ftv_err *err);

/* Closes what outfile_create opened; on a write error (a full disk) it
 * removes the partial file, so what is left is whole or absent. */
int outfile_close(FILE *f, const char *used, struct ftv_err *err);

/* Replaces the regular file used (one outfile_create made) with text:
 * written beside it, then renamed over it, so it is whole at every
 * instant. -1 and err when it cannot (it is then left as it was). */
int outfile_replace(const char *used, const char *text, struct ftv_err *err);

#endif
