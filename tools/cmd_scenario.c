/* ftv scenario FILE...: run conformance scenarios one by one and print
 * each report in full (the violations, the sites, the steps). */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"
#include "verify/mutant.h"
#include "verify/scenario.h"
#include "verify/trace_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_SEED = 256, O_CPUS, O_ARCH, O_MUTATE, O_PLANS, O_TRACE, O_TRACE_TEXT, O_OBJECT,
       O_CALL };

static const struct ftv_opt scenario_opts[] = {
	{ .name = "arch", .key = O_ARCH, .arg = "A",
	  .help = "check that every file is of arch A (arm64, riscv64)",
	  .words = "arm64 riscv64" },
	{ .name = "seed", .key = O_SEED, .arg = "S",
	  .help = "the scheduler's seed instead of the file's" },
	{ .name = "cpus", .key = O_CPUS, .arg = "N",
	  .help = "N CPUs (1-32) instead of the file's" },
	{ .name = "mutate", .key = O_MUTATE, .arg = "NAME",
	  .help = "inject the known bug NAME into the patcher",
	  .word = ftv_mutant_word },
	{ .name = "object", .key = O_OBJECT, .arg = "PATH",
	  .help = "add your own object or module to every scenario, as an 'object PATH' "
		  "line would (repeatable)",
	  .words = FTV_WORDS_FILE },
	{ .name = "call", .key = O_CALL, .arg = "F1,F2...",
	  .help = "the functions of the objects given by path the workload calls, as a "
		  "'call' line would" },
	{ .name = "plans", .key = O_PLANS,
	  .help = "print every update's plan" },
	{ .name = "trace", .key = O_TRACE, .arg = "FILE",
	  .help = "write the runs' timelines to FILE as Chrome trace-event JSON (Perfetto)",
	  .words = FTV_WORDS_FILE },
	{ .name = "trace-text", .key = O_TRACE_TEXT,
	  .help = "after each report, the executor's step trace: who ran, what each fetch saw" },
	FTV_PATHS_OPTION,
	{ 0 },
};

static int cmd_scenario(int argc, char **argv)
{
	struct ftv_paths paths;
	struct ftv_getopt g;
	int status = FTV_EXIT_OK, nfiles = 0, o;
	uint64_t seed = 0;
	unsigned cpus = 0;
	int seed_set = 0, cpus_set = 0, plans = 0, arch_set = 0, trace_text = 0;
	const char *trace = NULL;
	struct trace_json *tj = NULL;
	struct ftv_err terr;
	const struct ftv_mutant *mutant = NULL;
	enum ftv_arch arch = FTV_ARCH_DEFAULT;
	const char **files = calloc((size_t)argc, sizeof(*files));
	const char **objects = calloc((size_t)argc, sizeof(*objects));
	const char **calls = calloc((size_t)argc, sizeof(*calls));
	int nobjects = 0, ncalls = 0;

	if (!files || !objects || !calls) {
		free(files);
		free(objects);
		free(calls);
		return FTV_EXIT_USAGE;
	}
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_PLANS:
			plans = 1;
			break;
		case O_TRACE:
			trace = g.val;
			break;
		case O_TRACE_TEXT:
			trace_text = 1;
			break;
		case O_OBJECT:
			objects[nobjects++] = g.val;
			break;
		case O_CALL:
			calls[ncalls++] = g.val;
			break;
		case O_SEED:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &seed))
				goto usage;
			seed_set = 1;
			break;
		case O_CPUS:
			if (ftv_opt_unsigned(&g, 1, EXEC_MAX_CPUS, &cpus))
				goto usage;
			cpus_set = 1;
			break;
		case O_ARCH:
			if (ftv_arch_parse(g.val, &arch)) {
				ftv_opt_bad_choice(&g);
				goto usage;
			}
			arch_set = 1;
			break;
		case O_MUTATE:
			mutant = ftv_mutant_find(g.val);
			if (!mutant) {
				ftv_opt_bad_choice(&g);
				goto usage;
			}
			break;
		case FTV_OPT_KERNEL:
			world_kernel_dir_set(g.val);
			break;
		case FTV_OPT_BUILD:
			ftv_paths_set_build(&paths, g.val);
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
	}
	if (o < 0 || !nfiles) {
		free(files);
		free(objects);
		free(calls);
		return o < 0 ? g.exit : ftv_usage_error(g.cmd, "missing FILE");
	}
	/* one process per scenario in the one file */
	if (trace && !(tj = trace_json_create(trace, &terr))) {
		ftv_cmd_error(g.cmd, "--trace: %s", terr.msg);
		goto usage;
	}
	for (int i = 0; i < nfiles; i++) {
		char buf[4200];
		struct scenario s;
		struct scn_result res;
		struct ftv_err err;

		/* a name alone: the installed scenario */
		const char *path = ftv_paths_find(paths.scenarios, files[i], ".scn", buf,
						  sizeof(buf));

		if (scenario_load(path, &s, &err)) {
			fprintf(stderr, "ftv scenario: %s\n", err.msg);
			goto usage;
		}
		for (int k = 0; k < nobjects; k++)
			if (scenario_add_object(&s, "", objects[k], &err)) {
				fprintf(stderr, "ftv scenario: --object: %s\n", err.msg);
				goto usage;
			}
		for (int k = 0; k < ncalls; k++)
			if (scenario_add_calls(&s, calls[k], &err)) {
				fprintf(stderr, "ftv scenario: --call: %s\n", err.msg);
				goto usage;
			}
		if (plans)
			s.cfg.plans_out = stdout;
		if (trace_text)
			s.cfg.trace_out = stdout;
		s.cfg.trace_json = tj;
		s.cfg.notes_out = stdout;
		if (seed_set)
			s.cfg.exec.seed = seed;
		if (cpus_set)
			s.cfg.exec.ncpus = (unsigned)cpus;
		/* --arch only checks that each file is of that arch */
		if ((arch_set && ftv_scheme_check_arch(s.cfg.scheme, arch, &err)) ||
		    ftv_mutant_check(mutant, s.cfg.scheme, &err)) {
			fprintf(stderr, "ftv scenario: %s: %s\n", files[i], err.msg);
			goto usage;
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
			goto usage;
		}
		if (res.explored && !res.violated) {
			/* every execution explored: the verdict was printed */
			printf("%s: %s (%llu executions)\n", s.name,
			       res.complete ? "verified" : "incomplete",
			       (unsigned long long)res.executions);
			if (!res.complete && FTV_EXIT_INCOMPLETE > status)
				status = FTV_EXIT_INCOMPLETE;
			continue;
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
	free(files);
	free(objects);
	free(calls);
	if (trace_json_finish(tj, &terr))
		return ftv_cmd_error(g.cmd, "--trace: %s", terr.msg);
	return status;
usage:
	free(files);
	free(objects);
	free(calls);
	/* what ran so far stays a valid trace */
	trace_json_finish(tj, &terr);
	return FTV_EXIT_USAGE;
}
FTV_COMMAND(scenario, cmd_scenario,
	    .summary = "run scenario files and print their full reports",
	    .args = "FILE...",
	    .opts = scenario_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Runs each scenario (a .scn file: the scheme, the corpus objects, the\n"
		   "CPUs and scheduler, and the ftrace operations to apply while the CPUs\n"
		   "call the traced functions) and prints its report: every violation\n"
		   "with the CPU, the step, the site as func+off/size and the words\n"
		   "involved, then the counters and the trace hash. The verdict the file\n"
		   "expects is not compared; 'ftv conform' does that.\n"
		   "\n"
		   "--trace FILE writes each run's timeline as Chrome trace-event JSON,\n"
		   "one process per scenario: a track per CPU (the traced functions it\n"
		   "entered, each fetch of a patched word with its disassembly, the\n"
		   "tracer calls), one for the patcher (each update's plan and its\n"
		   "steps) and one for the store buffer, with arrows from each write to\n"
		   "the fetches that saw it and the violations as instants. One\n"
		   "scheduler step is 1 ms of the timeline. Open it in ui.perfetto.dev\n"
		   "or chrome://tracing, or draw it with tools/timeline.py.\n"
		   "\n"
		   "Your own code: an 'object PATH' line (or --object PATH) loads any\n"
		   ".o, .ko, .ko.xz, .ko.zst or .ko.gz, e.g. from your kernel tree or a\n"
		   "distribution's modules, a module at boot ('enable-modules' enables\n"
		   "its sites). Its undefined symbols are bound to trap stubs. Before the\n"
		   "run each of its traced functions is called on a CPU of its own with\n"
		   "zeros, small integers and a pointer to a zeroed read-only buffer;\n"
		   "the workload calls those that return, the same value twice, without\n"
		   "a fault and without writing memory (a note lists them and says why\n"
		   "the others were refused). 'call F1,F2' (--call) names them instead.\n"
		   "An object with no patch site for the scheme, of another arch, or\n"
		   "with nothing callable is an error naming it and what is missing.\n")
