/* One child process of a bench (fuzz_bench, find_bench): run a command with
 * its standard output in a file, its standard error thrown away, and take
 * its CPU time (user + system, from wait4: the machine is shared, so CPU
 * time is the steadier figure) and its wall-clock time. */
#ifndef FTV_BENCH_CHILD_H
#define FTV_BENCH_CHILD_H

/* Runs argv (argv[0] a path) with stdout to out; returns its exit status,
 * or -1 if it could not be run or was killed. */
int bench_child(char **argv, const char *out, double *cpu, double *wall);

/* The number after "key": in the last line of path that holds
 * "\"type\":\"summary\"" (ftv fuzz --json's summary); 0, or -1 if none. */
int bench_summary_num(const char *path, const char *key, double *v);

#endif
