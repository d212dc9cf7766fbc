/* make bench, time to find (issue 31): for every mutant of the catalogue
 * (verify/mutant.c; `ftv fuzz --mutate`) on each scheme it is a bug of,
 * and for the schemes whose known bugs are the kernel's own (mcount-ops:
 * the func/ops race of the ops-passing ftrace_caller; riscv64 pair: a hart
 * between the two words of a call pair), `ftv fuzz --time LIMIT` on seeds
 * FIRST..LAST, each campaign as a user runs it (its shrink included: the
 * time until the replay file is there). Per target: the median and the
 * worst CPU seconds over the seeds (a campaign that found nothing counts
 * as its whole run, and the line says so), the iterations it took, and
 * transitions per second of CPU time beside them. A line per target for
 * bench_block (worst < 5 s), and the median and worst of all.
 *
 *   find_bench FTV BUILD LIMIT FIRST LAST
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/child.h"
#include "bench/machine.h"
#include "bench/targets.h"

#define MEDIAN_TARGET 1.0 /* s */
#define WORST_TARGET 5.0  /* s */
#define MAXSEEDS 16

static const struct target {
	const char *mutant, *arch, *scheme; /* mutant NULL: the scheme's own */
	const char *objects;                /* NULL: fuzz's default objects */
} targets[] = {
	{ "bl-before-literal", "arm64", "callops", NULL },
	{ "skip-literal-on-modify", "arm64", "callops", NULL },
	{ "misaligned-literal", "arm64", "callops", NULL },
	{ "live-mov-patch", "arm64", "callops", NULL },
	{ "no-range-check", "arm64", "callops", NULL },
	{ "free-without-quiescence", "arm64", "callops", NULL },
	{ "free-before-unpatch", "arm64", "callops", NULL },
	{ "patch-zeroed-entry", "arm64", "callops", NULL },
	{ "publish-table-early", "arm64", "callops", NULL },
	{ "no-publish-barrier", "arm64", "callops", NULL },
	{ "publish-table-early", "arm64", "mcount", NULL },
	{ "no-publish-barrier", "arm64", "mcount", NULL },
	{ "atomic-rewrite-auipc", "riscv64", "atomic", NULL },
	{ "jalr-before-literal", "riscv64", "atomic", NULL },
	{ "free-without-quiescence", "riscv64", "atomic", NULL },
	{ "unlocked-init-literal", "riscv64", "atomic", NULL },
	{ NULL, "arm64", "mcount-ops", NULL },
	{ NULL, "arm64", "tramp", NULL },
	{ NULL, "riscv64", "pair", NULL },
	/* the historical bugs beyond ftrace callsites (docs/catalogue.md) */
	{ "jump-label-no-sync", "arm64", "callops", "jumplabel" },
	{ "patch-text-first-master", "arm64", "callops", "jumplabel" },
	{ "patch-text-no-fence-i", "riscv64", "atomic", "jumplabel" },
	{ "bpf-tramp-early-free", "arm64", "callops", "bpf" },
	{ "direct-batch-unlocked", "arm64", "callops", NULL },
};

int main(int argc, char **argv)
{
	char out[] = "/tmp/ftv-find-bench-XXXXXX";
	char scn[sizeof(out) + 8];
	double all[sizeof(targets) / sizeof(targets[0]) * MAXSEEDS];
	size_t nall = 0;
	unsigned first, last, missed_all = 0;
	int limit;

	if (argc != 6 || (limit = atoi(argv[3])) < 1 ||
	    (first = (unsigned)atoi(argv[4])) < 1 ||
	    (last = (unsigned)atoi(argv[5])) < first || last - first >= MAXSEEDS) {
		fprintf(stderr, "usage: %s FTV BUILD LIMIT FIRST LAST (seeds FIRST..LAST, at most %d)\n",
			argv[0], MAXSEEDS);
		return 2;
	}
	if (bench_tmp(out, scn, sizeof(scn)))
		return 2;
	bench_machine(stdout);
	printf("time to find: ftv fuzz --time %d --seed S, S = %u..%u, the shrink included; CPU seconds, and the worst wall-clock seconds\n",
	       limit, first, last);
	printf("%-40s %8s %8s %6s  %-18s %s\n", "target", "median", "worst", "found",
	       "iterations", "transitions/s/core");
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		const struct target *tg = &targets[t];
		double secs[MAXSEEDS], wall_worst = 0, cpu_sum = 0, trans = 0;
		char name[80], iters[64] = "", note[160];
		unsigned n = 0, found = 0;

		snprintf(name, sizeof(name), "%s%s%s", tg->mutant ? tg->mutant : "--scheme ",
			 tg->mutant ? " on " : "", tg->scheme);
		for (unsigned seed = first; seed <= last; seed++) {
			char seed_s[16], time_s[16];
			char *args[24] = { argv[1], "fuzz", "--build", argv[2], "--arch",
					   (char *)tg->arch, "--scheme", (char *)tg->scheme,
					   "--seed", seed_s, "--time", time_s, "--out", scn,
					   "--json" };
			size_t na = 15;
			double c, w, it = 0, tr = 0;
			int rc;

			if (tg->mutant) {
				args[na++] = "--mutate";
				args[na++] = (char *)tg->mutant;
			}
			if (tg->objects) {
				args[na++] = "--objects";
				args[na++] = (char *)tg->objects;
			}
			args[na] = NULL;
			snprintf(seed_s, sizeof(seed_s), "%u", seed);
			snprintf(time_s, sizeof(time_s), "%d", limit);
			unlink(scn);
			rc = bench_child(args, out, 0, &c, &w, NULL);
			if ((rc != 0 && rc != 1) ||
			    bench_summary_num(out, "iterations", &it) ||
			    bench_summary_num(out, "transitions", &tr)) {
				fprintf(stderr, "find_bench: %s seed %u: exit %d, no summary (%s)\n",
					name, seed, rc, out);
				return 1;
			}
			found += rc == 1;
			secs[n++] = c;
			all[nall++] = rc == 1 ? c : limit * 10.0; /* a miss: worse than any find */
			cpu_sum += c;
			trans += tr;
			if (w > wall_worst)
				wall_worst = w;
			snprintf(iters + strlen(iters), sizeof(iters) - strlen(iters), "%s%.0f%s",
				 n > 1 ? "," : "", it, rc == 1 ? "" : "!");
		}
		qsort(secs, n, sizeof(secs[0]), bench_cmp_double);
		printf("%-40s %8.2f %8.2f %3u/%-2u  %-18s %.0f  (worst wall %.1f s)\n", name,
		       secs[n / 2], secs[n - 1], found, n, iters,
		       cpu_sum > 0 ? trans / cpu_sum : 0, wall_worst);
		fflush(stdout);
		missed_all += n - found;
		snprintf(note, sizeof(note), "median %.2f s, %u/%u found, seeds %u-%u, CPU s",
			 secs[n / 2], found, n, first, last);
		{
			char tn[100];

			snprintf(tn, sizeof(tn), "find %s", name);
			bench_target(tn, found == n ? secs[n - 1] : limit * 10.0, "s worst",
				     BENCH_BELOW, WORST_TARGET, note);
		}
	}
	qsort(all, nall, sizeof(all[0]), bench_cmp_double);
	printf("all %zu campaigns: median %.2f s, worst %s%.2f s, %u found nothing\n", nall,
	       all[nall / 2], missed_all ? "(a miss) " : "", all[nall - 1], missed_all);
	bench_target("time to find, median of all", all[nall / 2], "s", BENCH_BELOW,
		     MEDIAN_TARGET, "CPU s, every target and seed");
	bench_target("time to find, worst of all", all[nall - 1], "s", BENCH_BELOW,
		     WORST_TARGET, missed_all ? "a campaign found nothing" : "CPU s");
	unlink(out);
	unlink(scn);
	return 0;
}
