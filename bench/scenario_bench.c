/* make bench, part 3: fuzzing-like throughput. Each conformance scenario is
 * run three times through scenario_run() (world built, operations applied
 * while its CPUs run, every check on); the median wall time gives verified
 * transitions (site state changes the checks watched being applied) and
 * interleaving steps per second. Everything runs on one host thread, so the
 * rates are per core.
 *
 *   scenario_bench CORPUS_DIR TRAMP_DIR FILE.scn...
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/machine.h"
#include "util/err.h"
#include "verify/scenario.h"

#define REPS 3

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int bad = 0;

	if (argc < 4) {
		fprintf(stderr, "usage: %s CORPUS_DIR TRAMP_DIR FILE.scn...\n", argv[0]);
		return 2;
	}
	bench_machine(stdout);
	printf("scenario throughput (median of %d runs, wall time, 1 host thread)\n",
	       REPS);
	printf("  %-22s %5s %7s %9s %8s %12s %9s %13s %11s\n", "scenario", "cpus",
	       "plans", "trans", "steps", "tracer-calls", "wall(s)", "trans/s/core",
	       "steps/s");
	for (int i = 3; i < argc; i++) {
		struct scn_result res;
		struct ftv_err err;
		double t[REPS];
		static struct scenario s;

		for (int r = 0; r < REPS; r++) {
			double t0;

			if (scenario_load(argv[i], &s, &err)) {
				fprintf(stderr, "scenario_bench: %s\n", err.msg);
				return 2;
			}
			t0 = bench_wall();
			if (scenario_run(&s, argv[1], argv[2], NULL, &res, &err)) {
				fprintf(stderr, "scenario_bench: %s\n", err.msg);
				return 2;
			}
			t[r] = bench_wall() - t0;
			if (!res.verdict_ok) {
				fprintf(stderr, "scenario_bench: %s: unexpected verdict (%s)\n",
					argv[i], res.kinds[0] ? res.kinds : "no violation");
				bad = 1;
			}
		}
		qsort(t, REPS, sizeof(t[0]), cmp);
		printf("  %-22s %5u %7" PRIu64 " %9" PRIu64 " %8" PRIu64 " %12" PRIu64
		       " %9.3f %13.0f %11.0f\n", s.name, s.cfg.exec.ncpus,
		       res.stats.plans, res.stats.transitions, res.stats.steps,
		       res.stats.tracer_calls, t[REPS / 2],
		       (double)res.stats.transitions / t[REPS / 2],
		       (double)res.stats.steps / t[REPS / 2]);
	}
	return bad;
}
