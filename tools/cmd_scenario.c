/* ftv scenario FILE...: run conformance scenarios one by one and print
 * each report in full (the violations, the sites, the steps). */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/json.h"
#include "util/num.h"
#include "util/opt.h"
#include "verify/mutant.h"
#include "verify/scenario.h"
#include "verify/trace_json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_SEED = 256, O_CPUS, O_ARCH, O_MUTATE, O_PLANS, O_TRACE, O_TRACE_TEXT, O_LITMUS, O_LITMUS_FIXED, O_OBJECT,
       O_CALL, O_JSON };

/* Which of two files' statuses the command's is: OK < INCOMPLETE < USAGE
 * (vacuous) < VIOLATION. */
static int rank(int status)
{
	return status == FTV_EXIT_VIOLATION ? 3 : status == FTV_EXIT_USAGE ? 2
	       : status == FTV_EXIT_INCOMPLETE ? 1 : 0;
}

static const char *verdict(const struct scn_result *res)
{
	return res->violated ? "VIOLATION" : res->vacuous ? "vacuous"
					   : res->budget_out ? "budget exhausted" : "no violation";
}

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
	FTV_USER_CODE_OPTIONS(O_OBJECT, O_CALL),
	{ .name = "json", .key = O_JSON,
	  .help = "one JSON object per scenario (its text report in \"report\")" },
	{ .name = "plans", .key = O_PLANS,
	  .help = "print every update's plan" },
	{ .name = "trace", .key = O_TRACE, .arg = "FILE",
	  .help = "write the runs' timelines to FILE as Chrome trace-event JSON (Perfetto)",
	  .words = FTV_WORDS_FILE },
	{ .name = "trace-text", .key = O_TRACE_TEXT,
	  .help = "after each report, the executor's step trace: who ran, what each fetch saw" },
	FTV_LITMUS_OPTIONS(O_LITMUS, O_LITMUS_FIXED),
	FTV_PATHS_OPTION,
	{ 0 },
};

/* The run's counters and verdict after its report; returns its exit
 * status (verify/scenario.h: vacuous and budget_out). */
static int report(FILE *f, const struct scenario *s, const struct scn_result *res)
{
	if (res->explored && !res->violated) {
		/* every execution explored: the verdict was printed */
		fprintf(f, "%s: %s (%llu executions)\n", s->name,
			res->complete ? "verified" : "incomplete",
			(unsigned long long)res->executions);
		return res->complete ? FTV_EXIT_OK : FTV_EXIT_INCOMPLETE;
	}
	fprintf(f, "%s: %llu sites, %llu plans, %llu transitions, %llu traced calls, "
		"%llu tracer calls, %llu steps, trace %016llx, peak RSS %ld MiB\n",
		s->name, (unsigned long long)res->stats.sites,
		(unsigned long long)res->stats.plans, (unsigned long long)res->stats.transitions,
		(unsigned long long)res->stats.func_calls,
		(unsigned long long)res->stats.tracer_calls, (unsigned long long)res->stats.steps,
		(unsigned long long)res->trace_hash, res->stats.peak_rss_kb / 1024);
	fprintf(f, "%s: %s (%zu violations%s%s)\n", s->name, verdict(res), res->nviolations,
		res->kinds[0] ? ": " : "", res->kinds);
	if (res->budget_out)
		fprintf(f, "%s: budget exhausted: %s within %llu steps, the CPUs still running; "
			"what did not run is not judged (raise 'steps')\n", s->name, res->budget,
			(unsigned long long)s->steps);
	if (res->vacuous)
		fprintf(f, "%s: vacuous: %s\n", s->name, res->vacuous_why);
	return res->violated ? FTV_EXIT_VIOLATION
	       : res->vacuous ? FTV_EXIT_USAGE
	       : res->budget_out ? FTV_EXIT_INCOMPLETE : FTV_EXIT_OK;
}

/* --json: one object per scenario, the envelope of ftv fuzz's and ftv
 * verify's ("type" first), the text report in "report". */
static void json_result(const struct scenario *s, const struct scn_result *res,
			const char *text)
{
	struct json j;

	json_init(&j, stdout);
	json_begin_object(&j);
	json_key_str(&j, "type", "scenario");
	json_key_str(&j, "name", s->name);
	json_key_str(&j, "file", s->path);
	scenario_json_config(&j, s);
	json_key_str(&j, "verdict", res->explored && !res->violated
					    ? (res->complete ? "verified" : "incomplete")
					    : verdict(res));
	json_key_u64(&j, "sites", res->stats.sites);
	json_key_u64(&j, "plans", res->stats.plans);
	json_key_u64(&j, "transitions", res->stats.transitions);
	json_key_u64(&j, "traced_calls", res->stats.func_calls);
	json_key_u64(&j, "tracer_calls", res->stats.tracer_calls);
	json_key_u64(&j, "steps", res->stats.steps);
	json_key_hex(&j, "trace_hash", res->trace_hash);
	json_key_bool(&j, "violated", res->violated);
	json_key_u64(&j, "violations", res->nviolations);
	json_key_str(&j, "kinds", res->kinds);
	json_key_str(&j, "vacuous", res->vacuous ? res->vacuous_why : "");
	json_key_str(&j, "budget_exhausted", res->budget_out ? res->budget : "");
	json_key_str(&j, "report", text ? text : "");
	json_end_object(&j);
	json_newline(&j);
}

static int env_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static int cmd_scenario(int argc, char **argv)
{
	struct ftv_paths paths;
	struct ftv_getopt g;
	int status = FTV_EXIT_OK, nfiles = 0, o;
	uint64_t seed = 0;
	unsigned cpus = 0;
	int seed_set = 0, cpus_set = 0, plans = 0, arch_set = 0, trace_text = 0, json = 0, r;
	FILE *rep = stdout; /* the report: stdout, or (--json) text */
	char *text = NULL;
	size_t tlen = 0;
	const char *trace = NULL, *litmus = NULL, *litmus_fixed = NULL;
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
		case O_JSON:
			json = 1;
			break;
		case O_TRACE:
			trace = g.val;
			break;
		case O_TRACE_TEXT:
			trace_text = 1;
			break;
		case O_LITMUS:
			litmus = g.val;
			break;
		case O_LITMUS_FIXED:
			litmus_fixed = g.val;
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
	if ((r = ftv_litmus_opts_check(g.cmd, litmus, litmus_fixed))) {
		free(files);
		free(objects);
		free(calls);
		return r;
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
		const char *path = ftv_paths_input(paths.scenarios, files[i], ".scn", buf,
						   sizeof(buf), &err);

		if (!path || scenario_load(path, &s, &err)) {
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
		if (json) {
			rep = open_memstream(&text, &tlen);
			if (!rep) {
				fprintf(stderr, "ftv scenario: out of memory\n");
				goto usage;
			}
		}
		if (plans)
			s.cfg.plans_out = rep;
		if (trace_text)
			s.cfg.trace_out = rep;
		s.cfg.trace_json = tj;
		s.cfg.litmus_out = litmus;
		s.cfg.litmus_fixed_out = litmus ? litmus_fixed : NULL;
		s.cfg.notes_out = stderr;
		/* a test's view of the stateful walk's state hashes over a
		 * replay (world.h: state_trace; tests/test_verify_symmetry.c),
		 * kept out of the options: no user reads them */
		if (env_on("FTV_STATE_TRACE")) {
			s.cfg.state_trace = stderr;
			s.cfg.state_trace_nosym = env_on("FTV_VERIFY_NO_SYMMETRY");
		}
		if (seed_set)
			s.cfg.exec.seed = seed;
		if (cpus_set)
			s.cfg.exec.ncpus = (unsigned)cpus;
		if (cpus_set && !s.steps_set)
			s.steps = scenario_default_steps(&s.cfg);
		/* --arch only checks that each file is of that arch */
		if ((arch_set && ftv_scheme_check_arch(s.cfg.scheme, arch, &err)) ||
		    ftv_mutant_check(mutant, s.cfg.scheme, &err)) {
			fprintf(stderr, "ftv scenario: %s: %s\n", files[i], err.msg);
			goto usage;
		}
		ftv_mutant_apply(mutant, &s.cfg);
		fprintf(rep, "== %s: scheme %s, %u CPUs, policy %s, seed %llu, mutate %s\n",
			s.name, ftv_scheme_name(s.cfg.scheme), s.cfg.exec.ncpus,
			exec_policy_name(s.cfg.exec.policy), (unsigned long long)s.cfg.exec.seed,
			s.cfg.mutant_name ? s.cfg.mutant_name : "none");
		fflush(rep);
		if (scenario_run(&s, paths.corpus, paths.tramp, rep, &res, &err)) {
			fprintf(stderr, "ftv scenario: %s\n", err.msg);
			goto usage;
		}
		r = report(rep, &s, &res);
		if (json) {
			fclose(rep);
			rep = stdout;
			json_result(&s, &res, text);
			free(text);
			text = NULL;
		}
		/* a violation first, then vacuous (2), then incomplete */
		if (rank(r) > rank(status))
			status = r;
	}
	free(files);
	free(objects);
	free(calls);
	if (trace_json_finish(tj, &terr))
		return ftv_cmd_error(g.cmd, "--trace: %s", terr.msg);
	return status;
usage:
	if (rep != stdout)
		fclose(rep);
	free(text);
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
