/* Merging sharded runs: the one mechanism under `ftv fuzz-merge` (the
 * shards of a fuzz campaign) and `ftv verify --combine` (the shards of each
 * verified world). Both read the --json outputs of `--shard I/N` runs, one
 * JSON object a line; both require the shards of one whole to be of one
 * split and one run (the same N, the same values of the fields that define
 * the run, every index below N and at most once), and both name what is
 * missing. What a missing shard means and what is summed stay the
 * caller's: a fuzz campaign without all its shards is refused (its totals
 * would describe another campaign), a world without them is "incomplete"
 * (exit 3: a verdict about part of the tree is no verdict). */
#ifndef FTV_TOOLS_SHARDS_H
#define FTV_TOOLS_SHARDS_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"
#include "util/json_read.h"

/* One shard's object and where it came from; idx/n set by the caller. */
struct shard_obj {
	const char *file;
	unsigned line;
	struct jvalue v;
	uint64_t idx, n;
};

/* Called with every non-blank line of a file, parsed: 0 when it took v
 * (it frees it later), else -1 with err set (it freed v or left it to
 * shards_read, which frees it when take returns -1). */
typedef int (*shards_take_fn)(void *ctx, const char *file, unsigned line,
			      struct jvalue *v, struct ftv_err *err);

/* Reads path: "FILE: cannot open", "FILE:LINE: a NUL byte" and
 * "FILE:LINE: not JSON (...)" are its own errors, "FILE:LINE: ..." take's.
 * `what` finishes the first two ("not the --json output of ftv fuzz").
 * Returns 0, or -1 with err set. */
int shards_read(const char *path, const char *what, shards_take_fn take, void *ctx,
		struct ftv_err *err);

/* The n shards s[] of one whole agree: each index below its N, one N, the
 * values of the fields same[] (NULL-terminated; absent in all is fine,
 * absent in some is not), each index once. `whole` names it in messages
 * ("campaign", "world"). Returns 0, or -1 with err naming both files and
 * lines. */
int shards_agree(const struct shard_obj *const *s, size_t n, const char *const *same,
		 const char *whole, struct ftv_err *err);

/* The indexes 0..total-1 no shard of s[] has, written "1, 3" (with_n:
 * "1/4, 3/4"), at most 16 then ", ..."; returns how many. */
size_t shards_missing(const struct shard_obj *const *s, size_t n, uint64_t total, int with_n,
		      char *buf, size_t len);

#endif
