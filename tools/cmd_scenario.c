/* ftv scenario FILE...: run conformance scenarios one by one and print
 * each report in full (the violations, the sites, the steps). */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "verify/mutant.h"
#include "verify/scenario.h"

#include <stdio.h>
#include <string.h>

static int cmd_scenario(int argc, char **argv)
{
	struct ftv_paths paths;
	int first, status = FTV_EXIT_OK;
	uint64_t seed = 0, cpus = 0;
	int seed_set = 0, cpus_set = 0, plans = 0, arch_set = 0;
	const struct ftv_mutant *mutant = NULL;
	enum ftv_arch arch = FTV_ARCH_ARM64;

	ftv_paths_default(&paths, argv[0]);
	for (first = 1; first < argc && !strncmp(argv[first], "--", 2); first++) {
		const char *o = argv[first];

		if (!strcmp(o, "--plans")) {
			plans = 1;
			continue;
		}
		if (first + 1 >= argc)
			return ftv_usage("scenario");
		if (!strcmp(o, "--seed")) {
			if (ftv_parse_u64(argv[++first], &seed))
				return ftv_usage("scenario");
			seed_set = 1;
		} else if (!strcmp(o, "--cpus")) {
			if (ftv_parse_u64(argv[++first], &cpus) || !cpus || cpus > EXEC_MAX_CPUS)
				return ftv_usage("scenario");
			cpus_set = 1;
		} else if (!strcmp(o, "--arch")) {
			if (ftv_arch_parse(argv[++first], &arch)) {
				fprintf(stderr, "ftv scenario: unknown arch '%s' (arm64, riscv64)\n",
					argv[first]);
				return FTV_EXIT_USAGE;
			}
			arch_set = 1;
		} else if (!strcmp(o, "--mutate")) {
			mutant = ftv_mutant_find(argv[++first]);
			if (!mutant) {
				fprintf(stderr, "ftv scenario: unknown mutant '%s'\n", argv[first]);
				return FTV_EXIT_USAGE;
			}
		} else if (ftv_paths_option(&paths, o, argv[first + 1])) {
			first++;
		} else {
			return ftv_usage("scenario");
		}
	}
	if (first == argc)
		return ftv_usage("scenario");
	for (int i = first; i < argc; i++) {
		struct scenario s;
		struct scn_result res;
		struct ftv_err err;

		if (scenario_load(argv[i], &s, &err)) {
			fprintf(stderr, "ftv scenario: %s\n", err.msg);
			return FTV_EXIT_USAGE;
		}
		if (plans)
			s.cfg.plans_out = stdout;
		s.cfg.notes_out = stdout;
		if (seed_set)
			s.cfg.exec.seed = seed;
		if (cpus_set)
			s.cfg.exec.ncpus = (unsigned)cpus;
		/* --arch only checks that each file is of that arch */
		if ((arch_set && ftv_scheme_check_arch(s.cfg.scheme, arch, &err)) ||
		    ftv_mutant_check(mutant, s.cfg.scheme, &err)) {
			fprintf(stderr, "ftv scenario: %s: %s\n", argv[i], err.msg);
			return FTV_EXIT_USAGE;
		}
		ftv_mutant_apply(mutant, &s.cfg);
		printf("== %s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s\n",
		       s.name, ftv_scheme_name(s.cfg.scheme), s.cfg.exec.ncpus,
		       exec_policy_name(s.cfg.exec.policy),
		       (unsigned long long)s.cfg.exec.seed,
		       s.cfg.mutant_name ? s.cfg.mutant_name : "none");
		fflush(stdout);
		if (scenario_run(&s, paths.corpus, paths.tramp, stdout, &res, &err)) {
			fprintf(stderr, "ftv scenario: %s\n", err.msg);
			return FTV_EXIT_USAGE;
		}
		printf("%s: %llu sites, %llu plans, %llu transitions, %llu traced calls, "
		       "%llu tracer calls, %llu steps, trace %016llx, peak RSS %ld MiB\n",
		       s.name, (unsigned long long)res.stats.sites,
		       (unsigned long long)res.stats.plans,
		       (unsigned long long)res.stats.transitions,
		       (unsigned long long)res.stats.func_calls,
		       (unsigned long long)res.stats.tracer_calls,
		       (unsigned long long)res.stats.steps,
		       (unsigned long long)res.trace_hash, res.stats.peak_rss_kb / 1024);
		printf("%s: %s (%zu violations%s%s)\n", s.name,
		       res.violated ? "VIOLATION" : "no violation", res.nviolations,
		       res.kinds[0] ? ": " : "", res.kinds);
		if (res.violated)
			status = FTV_EXIT_VIOLATION;
	}
	return status;
}
FTV_COMMAND(scenario, "run scenario files and print their full reports",
	    "[--arch arm64|riscv64] [--seed S] [--cpus N] [--mutate NAME] [--plans] "
	    "[--build DIR] FILE...", cmd_scenario)
