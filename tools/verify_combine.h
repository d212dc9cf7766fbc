/* ftv verify --combine (verify_combine.c): the verdict of each world out
 * of its shards' --json outputs. */
#ifndef FTV_TOOLS_VERIFY_COMBINE_H
#define FTV_TOOLS_VERIFY_COMBINE_H

/* Reads the files, prints one verdict per world (text, or one JSON object
 * each); returns the exit status: 0 every world verified, 1 a
 * counterexample, 3 a world incomplete (a shard missing or incomplete),
 * 2 bad input (one line on stderr). */
int verify_combine(int nfiles, const char *const *files, int json);

#endif
