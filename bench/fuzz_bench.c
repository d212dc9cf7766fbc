/* make bench, the fuzz figures (issue 18): verified transitions per second
 * of CPU time (one core's worth of work) of `ftv fuzz` for each arm64 scheme
 * and riscv64 atomic. A campaign stops at its first finding, so each scheme
 * runs campaigns of successive seeds, each a child process timed by wait4,
 * until SECONDS of CPU time are spent; a finding's shrink is kept to one
 * scenario run (--shrink-budget 1) and counted in the time.
 *
 * Then issue 31's kernel scheme against the model's: campaigns of the same
 * seeds 1..SEEDS and ITERATIONS each on --scheme callops and --scheme
 * kernel (the same worlds, the same transitions: only the backend's code
 * differs), and the ratio of their CPU seconds per transition, target at
 * most 2. The kernel scheme's own transitions/s line is in the first part,
 * against half the model's target (the 2x it is allowed).
 *
 *   fuzz_bench FTV BUILD SECONDS [SEEDS ITERATIONS]   (default 5 20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/child.h"
#include "bench/machine.h"
#include "bench/targets.h"

#define TARGET 10000.0 /* verified transitions/s per core */
#define KERNEL_RATIO 2.0 /* kernel scheme's cost per transition / the model's */

static const struct scheme {
	const char *name, *arch, *scheme;
	double target;
} schemes[] = {
	{ "callops", "arm64", "callops", TARGET },
	{ "tramp", "arm64", "tramp", TARGET },
	{ "mcount", "arm64", "mcount", TARGET },
	{ "riscv64 atomic", "riscv64", "atomic", TARGET },
	{ "kernel", "arm64", "kernel", TARGET / KERNEL_RATIO },
};

/* One campaign: --iterations iters (or --time secs when iters is 0);
 * its transitions, CPU and wall seconds added; returns its exit status
 * (0, or 1 for a finding), or -1 with the reason printed. */
static int campaign(char **argv, const struct scheme *sc, unsigned seed, unsigned iters,
		    int secs, const char *out, const char *scn, unsigned long long *total,
		    double *cpu, double *wall)
{
	char seed_s[16], budget_s[16];
	char *args[] = { argv[1], "fuzz", "--build", argv[2], "--arch", (char *)sc->arch,
			 "--scheme", (char *)sc->scheme, "--seed", seed_s,
			 iters ? "--iterations" : "--time", budget_s, "--shrink-budget", "1",
			 "--out", (char *)scn, "--json", NULL };
	double n, c, w;
	int rc;

	snprintf(seed_s, sizeof(seed_s), "%u", seed);
	snprintf(budget_s, sizeof(budget_s), "%u", iters ? iters : (unsigned)secs);
	rc = bench_child(args, out, 0, &c, &w, NULL);
	if ((rc != 0 && rc != 1) || bench_summary_num(out, "transitions", &n)) {
		fprintf(stderr, "fuzz_bench: %s seed %u: exit %d, no summary (%s)\n", sc->name,
			seed, rc, out);
		return -1;
	}
	*total += (unsigned long long)n;
	*cpu += c;
	*wall += w;
	return rc;
}

/* The kernel scheme's CPU per transition over the model's (callops),
 * from campaigns of the same seeds and iterations on both. */
static int kernel_ratio(char **argv, unsigned seeds, unsigned iters, const char *out,
			const char *scn)
{
	static const struct scheme pair[2] = { { "callops", "arm64", "callops", 0 },
						{ "kernel", "arm64", "kernel", 0 } };
	unsigned long long total[2] = { 0, 0 };
	double cpu[2] = { 0, 0 }, wall[2] = { 0, 0 }, per[2];
	unsigned findings[2] = { 0, 0 };
	char note[160];

	printf("kernel vs callops: seeds 1-%u, %u iterations each, the same campaigns on both schemes\n",
	       seeds, iters);
	for (unsigned seed = 1; seed <= seeds; seed++)
		for (int s = 0; s < 2; s++) {
			int rc = campaign(argv, &pair[s], seed, iters, 0, out, scn, &total[s],
					  &cpu[s], &wall[s]);

			if (rc < 0)
				return -1;
			findings[s] += rc == 1;
		}
	for (int s = 0; s < 2; s++) {
		per[s] = total[s] ? cpu[s] / total[s] : 0;
		printf("%-16s %8llu transitions in %6.2f s CPU (%6.2f s wall), %u findings: %6.1f us CPU per transition\n",
		       pair[s].name, total[s], cpu[s], wall[s], findings[s], per[s] * 1e6);
	}
	if (total[0] != total[1])
		printf("(the schemes made different transitions: a finding stopped a campaign)\n");
	printf("kernel / callops: %.2fx CPU per transition\n", per[0] > 0 ? per[1] / per[0] : 0);
	snprintf(note, sizeof(note), "seeds 1-%u x %u iterations, %.1f / %.1f s CPU", seeds, iters,
		 cpu[1], cpu[0]);
	bench_target("fuzz kernel vs callops: cost per transition", per[0] > 0 ? per[1] / per[0] : 0,
		     "x", BENCH_AT_MOST, KERNEL_RATIO, note);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	char out[] = "/tmp/ftv-fuzz-bench-XXXXXX";
	char scn[sizeof(out) + 8];
	int seconds, seeds = 5, iters = 20;

	if ((argc != 4 && argc != 6) || (seconds = atoi(argv[3])) < 1 ||
	    (argc == 6 && ((seeds = atoi(argv[4])) < 1 || (iters = atoi(argv[5])) < 1))) {
		fprintf(stderr, "usage: %s FTV BUILD SECONDS [SEEDS ITERATIONS]\n", argv[0]);
		return 2;
	}
	if (bench_tmp(out, scn, sizeof(scn)))
		return 2;
	bench_machine(stdout);
	printf("ftv fuzz, campaigns of seeds 1, 2, ... for %d s of CPU time per scheme; rates per second of CPU time\n",
	       seconds);
	for (size_t s = 0; s < sizeof(schemes) / sizeof(schemes[0]); s++) {
		const struct scheme *sc = &schemes[s];
		unsigned long long total = 0;
		double cpu = 0, wall = 0;
		unsigned seed, findings = 0;

		for (seed = 1; cpu < seconds; seed++) {
			int left = (int)(seconds - cpu + 0.999);
			int rc = campaign(argv, sc, seed, 0, left < 1 ? 1 : left, out, scn, &total,
					  &cpu, &wall);

			if (rc < 0)
				return 1;
			findings += rc == 1;
		}
		{
			char name[64], note[128];
			double rate = cpu > 0 ? total / cpu : 0;

			printf("%-16s %8llu transitions in %6.1f s CPU (%6.1f s wall), %u campaigns, %u findings: %8.0f transitions/s per core\n",
			       sc->name, total, cpu, wall, seed - 1, findings, rate);
			snprintf(name, sizeof(name), "fuzz %s", sc->name);
			snprintf(note, sizeof(note), "%.0f s CPU, %u campaigns",
				 cpu, seed - 1);
			bench_target(name, rate, "transitions/s/core",
				     BENCH_AT_LEAST, sc->target, note);
		}
		fflush(stdout);
	}
	if (kernel_ratio(argv, (unsigned)seeds, (unsigned)iters, out, scn))
		return 1;
	unlink(out);
	unlink(scn);
	return 0;
}
