/* One child process of a bench (fuzz_bench, find_bench): run a command with
 * its standard output in a file, its standard error thrown away, and take
 * its CPU time (user + system, from wait4: the machine is shared, so CPU
 * time is the steadier figure) and its wall-clock time. */
#ifndef FTV_BENCH_CHILD_H
#define FTV_BENCH_CHILD_H

#include <stddef.h>

/* Runs argv (argv[0] a path) with stdout to out (stderr thrown away
 * unless keep_stderr); returns its exit status, or -1 if it could not be
 * run or was killed. rss_kb (may be NULL): its peak resident size. */
int bench_child(char **argv, const char *out, int keep_stderr, double *cpu,
		double *wall, long *rss_kb);

/* A new empty file named from tmpl ("/tmp/x-XXXXXX", rewritten) and, in
 * scn (size n), the same name with ".scn": the bench's campaign output
 * and replay file. 0, or -1. */
int bench_tmp(char *tmpl, char *scn, size_t n);

/* The number after "key": in the last line of path that holds
 * "\"type\":\"summary\"" (ftv fuzz --json's summary); 0, or -1 if none. */
int bench_summary_num(const char *path, const char *key, double *v);

#endif
