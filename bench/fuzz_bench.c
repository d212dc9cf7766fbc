/* make bench, the fuzz figures (issue 18): verified transitions per second
 * of CPU time (one core's worth of work) of `ftv fuzz` for each arm64 scheme
 * and riscv64 atomic. A campaign stops at its first finding, so each scheme
 * runs campaigns of successive seeds, each a child process timed by wait4,
 * until SECONDS of CPU time are spent; a finding's shrink is kept to one
 * scenario run (--shrink-budget 1) and counted in the time.
 *
 *   fuzz_bench FTV BUILD SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/child.h"
#include "bench/machine.h"
#include "bench/targets.h"

#define TARGET 10000.0 /* verified transitions/s per core */

static const struct scheme {
	const char *name, *arch, *scheme;
} schemes[] = {
	{ "callops", "arm64", "callops" },
	{ "tramp", "arm64", "tramp" },
	{ "mcount", "arm64", "mcount" },
	{ "riscv64 atomic", "riscv64", "atomic" },
};

int main(int argc, char **argv)
{
	char out[] = "/tmp/ftv-fuzz-bench-XXXXXX";
	char scn[sizeof(out) + 8];
	int seconds;

	if (argc != 4 || (seconds = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: %s FTV BUILD SECONDS\n", argv[0]);
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
			char seed_s[16], time_s[16];
			char *args[] = { argv[1], "fuzz", "--build", argv[2],
					 "--arch", (char *)sc->arch, "--scheme",
					 (char *)sc->scheme, "--seed", seed_s,
					 "--time", time_s, "--shrink-budget", "1",
					 "--out", scn, "--json", NULL };
			double n, c, w;
			int left = (int)(seconds - cpu + 0.999), rc;

			snprintf(seed_s, sizeof(seed_s), "%u", seed);
			snprintf(time_s, sizeof(time_s), "%d", left < 1 ? 1 : left);
			rc = bench_child(args, out, 0, &c, &w, NULL);
			if ((rc != 0 && rc != 1) || bench_summary_num(out, "transitions", &n)) {
				fprintf(stderr, "fuzz_bench: %s seed %u: exit %d, no summary (%s)\n",
					sc->name, seed, rc, out);
				return 1;
			}
			findings += rc == 1;
			total += (unsigned long long)n;
			cpu += c;
			wall += w;
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
				     BENCH_AT_LEAST, TARGET, note);
		}
		fflush(stdout);
	}
	unlink(out);
	unlink(scn);
	return 0;
}
