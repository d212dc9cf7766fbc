/* make bench, part 3: fuzzing-like throughput. Each conformance scenario is
 * run three times through scenario_run() (world built, operations applied
 * while its CPUs run, every check on); the median wall time gives verified
 * transitions (site state changes the checks watched being applied) and
 * interleaving steps per second. Building the world alone (load, link,
 * init_nop, calibration: world_new) is timed apart, also as a median of
 * three, so the rates are given over the whole run and over what follows
 * the build. Everything runs on one host thread: the rates are per core.
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
	printf("  trans: verified site transitions; tracer: tracer calls checked; "
	       "run-: rates over\n  total minus build, median of the three\n");
	printf("  %-16s %4s %5s %6s %6s %7s %8s %8s %9s %9s %11s %11s\n",
	       "scenario", "cpus", "plans", "trans", "steps", "tracer", "total(s)",
	       "build(s)", "trans/s", "steps/s", "run-trans/s", "run-steps/s");
	for (int i = 3; i < argc; i++) {
		struct scn_result res;
		struct ftv_err err;
		double t[REPS], b[REPS], d[REPS], run;
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
			/* the same world built alone, right after */
			{
				static struct scenario_world sw;
				struct world *w;

				if (scenario_world_config(&s, argv[1], argv[2], 0, &sw, &err)) {
					fprintf(stderr, "scenario_bench: %s\n", err.msg);
					return 2;
				}
				t0 = bench_wall();
				if (world_new(&sw.cfg, &w, &err)) {
					fprintf(stderr, "scenario_bench: %s: %s\n", argv[i], err.msg);
					return 2;
				}
				b[r] = bench_wall() - t0;
				world_free(w);
			}
			d[r] = t[r] - b[r];
			if (!res.verdict_ok) {
				fprintf(stderr, "scenario_bench: %s: unexpected verdict (%s)\n",
					argv[i], res.kinds[0] ? res.kinds : "no violation");
				bad = 1;
			}
		}
		qsort(t, REPS, sizeof(t[0]), bench_cmp_double);
		qsort(b, REPS, sizeof(b[0]), bench_cmp_double);
		qsort(d, REPS, sizeof(d[0]), bench_cmp_double);
		run = d[REPS / 2];
		printf("  %-16s %4u %5" PRIu64 " %6" PRIu64 " %6" PRIu64 " %7" PRIu64
		       " %8.3f %8.3f %9.1f %9.1f %11.1f %11.1f\n", s.name,
		       s.cfg.exec.ncpus, res.stats.plans, res.stats.transitions,
		       res.stats.steps, res.stats.tracer_calls, t[REPS / 2], b[REPS / 2],
		       (double)res.stats.transitions / t[REPS / 2],
		       (double)res.stats.steps / t[REPS / 2],
		       run > 0 ? (double)res.stats.transitions / run : 0,
		       run > 0 ? (double)res.stats.steps / run : 0);
		if (run <= 0)
			printf("  (%s: the build's time varied more than the run takes; "
			       "run- rates not measurable)\n", s.name);
	}
	return bad;
}
