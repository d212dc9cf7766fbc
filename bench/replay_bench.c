/* make bench, the replay figure (issue 7): wall time and peak memory of
 * `ftv replay` over the Debian kernel layout on 4 emulated CPUs, every
 * batch, as the median of several runs. Each run is a child process, so its
 * peak RSS (wait4's ru_maxrss) is its own and not the bench's.
 *
 *   replay_bench FTV LAYOUT RUNS [ftv replay options...]
 *
 * ftv replay runs its batches on threads (--jobs, by default one per
 * core), so the run is one process and its peak RSS is the whole
 * replay's.
 *
 * With --batches K among the options (make bench-quick) only the first K
 * batches run, and the wall time of the whole replay is projected from
 * theirs: the setup before the first batch (the layout read and mapped,
 * the report's setup_s) once, the batches' time batches_total / K times
 * (an estimate, said so on the target line). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/child.h"
#include "bench/machine.h"
#include "bench/targets.h"

#define MAX_RUNS 16
#define MAX_ARGS 32
#define TARGET_WALL 10.0  /* s, the whole layout on 4 CPUs */
#define TARGET_RSS 256.0  /* MiB */

/* A number field of the report's JSON object, or -1. */
static double json_num(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	char line[8192], pat[64];
	double v = -1;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, pat);

		if (p)
			v = strtod(p + strlen(pat), NULL);
	}
	if (f)
		fclose(f);
	return v;
}

int main(int argc, char **argv)
{
	char *args[MAX_ARGS];
	double wall[MAX_RUNS], cpu[MAX_RUNS], rss[MAX_RUNS];
	char out_path[] = "/tmp/ftv-replay-bench-XXXXXX";
	int runs, n = 0, fd;

	if (argc < 4 || (runs = atoi(argv[3])) < 1 || runs > MAX_RUNS ||
	    argc - 4 + 5 > MAX_ARGS) {
		fprintf(stderr, "usage: %s FTV LAYOUT RUNS [options...]\n", argv[0]);
		return 2;
	}
	args[n++] = argv[1];
	args[n++] = "replay";
	for (int i = 4; i < argc; i++)
		args[n++] = argv[i];
	args[n++] = "--json";
	args[n++] = argv[2];
	args[n] = NULL;
	fd = mkstemp(out_path);
	if (fd < 0)
		return 2;
	close(fd);
	bench_machine(stdout);
	printf("replay of %s (ftv replay", argv[2]);
	for (int i = 4; i < argc; i++)
		printf(" %s", argv[i]);
	printf("), %d runs:\n", runs);
	fflush(stdout);
	for (int r = 0; r < runs; r++) {
		long kb;
		int rc = bench_child(args, out_path, 1, &cpu[r], &wall[r], &kb);

		if (rc != 0) {
			fprintf(stderr, "replay_bench: run %d exited %d (report in %s)\n",
				r, rc, out_path);
			return 1;
		}
		rss[r] = (double)kb;
		printf("  run %d: %.1f s wall, %.1f s CPU, peak RSS %.0f MiB\n", r,
		       wall[r], cpu[r], rss[r] / 1024);
		fflush(stdout);
	}
	qsort(wall, runs, sizeof(double), bench_cmp_double);
	qsort(cpu, runs, sizeof(double), bench_cmp_double);
	qsort(rss, runs, sizeof(double), bench_cmp_double);
	printf("replay median: %.1f s wall, %.1f s CPU, peak RSS %.0f MiB\n",
	       wall[runs / 2], cpu[runs / 2], rss[runs / 2] / 1024);
	{
		double done = json_num(out_path, "batches");
		double total = json_num(out_path, "batches_total");
		double setup = json_num(out_path, "setup_s");
		double inner = json_num(out_path, "wall_s");
		char note[128];

		if (done > 0 && total > done) {
			/* the batches' share of the wall time, scaled */
			double batches = inner > setup && setup >= 0 ? inner - setup
								      : inner;
			double proj = wall[runs / 2] + batches * (total / done - 1);

			printf("projected for all %.0f batches: %.1f s wall\n",
			       total, proj);
			snprintf(note, sizeof(note),
				 "projected from %.0f of %.0f batches", done,
				 total);
			bench_target("replay, Debian layout, 4 CPUs: wall", proj,
				     "s", BENCH_BELOW, TARGET_WALL, note);
			snprintf(note, sizeof(note), "%.0f of %.0f batches",
				 done, total);
		} else {
			snprintf(note, sizeof(note), "median of %d runs", runs);
			bench_target("replay, Debian layout, 4 CPUs: wall",
				     wall[runs / 2], "s", BENCH_BELOW,
				     TARGET_WALL, note);
		}
		bench_target("replay, Debian layout, 4 CPUs: peak RSS",
			     rss[runs / 2] / 1024, "MiB", BENCH_AT_MOST,
			     TARGET_RSS, note);
	}
	printf("last run's report:\n");
	fflush(stdout);
	FILE *f = fopen(out_path, "r");
	char line[1024];

	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		fclose(f);
	unlink(out_path);
	return 0;
}
