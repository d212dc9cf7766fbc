/* ftv litmus FILE...: run litmus tests of the fetch model exhaustively and
 * compare each verdict with the one the file expects. */
#include "executor/litmus.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_MAX_RUNS = 256 };

static const struct ftv_opt litmus_opts[] = {
	{ .name = "verbose", .key = 'v',
	  .help = "print a run that satisfies the exists clause, when one does" },
	{ .name = "max-runs", .key = O_MAX_RUNS, .arg = "N",
	  .help = "explore at most N runs per test (default 1000000); fewer is INCOMPLETE" },
	{ 0 },
};

static int cmd_litmus(int argc, char **argv)
{
	uint64_t max_runs = 1000000;
	int mismatches = 0, bad = 0, verbose = 0, nfiles = 0, o;
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct ftv_paths paths;
	struct ftv_getopt g;

	if (!files)
		return FTV_EXIT_USAGE;
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case 'v':
			verbose = 1;
			break;
		case O_MAX_RUNS:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &max_runs)) {
				free(files);
				return FTV_EXIT_USAGE;
			}
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
	}
	if (o < 0 || !nfiles) {
		free(files);
		return o < 0 ? g.exit : ftv_usage_error(g.cmd, "missing FILE");
	}
	for (int i = 0; i < nfiles; i++) {
		struct ftv_err err;
		struct litmus_result res;
		char buf[4200];
		/* a name alone: the installed test */
		struct litmus *lt = litmus_load(ftv_paths_find(paths.litmus, files[i], ".litmus",
							       buf, sizeof(buf)), &err);
		const char *verdict, *expect;
		int exp;

		if (!lt || litmus_run(lt, max_runs, verbose, &res, &err)) {
			fprintf(stderr, "ftv litmus: %s\n", err.msg);
			litmus_free(lt);
			bad = 1;
			continue;
		}
		exp = litmus_expected(lt);
		verdict = res.allowed ? "Allowed" : "Forbidden";
		expect = exp < 0 ? "-" : exp ? "Allowed" : "Forbidden";
		/* Without a witness, Forbidden holds only if every run was
		 * explored. */
		int ok = exp >= 0 && exp == res.allowed &&
			 (res.allowed || res.complete);
		printf("%-32s %-9s expected %-9s %-8s (%llu runs, %llu finished, %llu witnesses%s)\n",
		       litmus_name(lt), verdict, expect,
		       ok ? "ok" : "MISMATCH", (unsigned long long)res.runs,
		       (unsigned long long)res.finished,
		       (unsigned long long)res.witnesses,
		       res.complete ? ", complete" : ", INCOMPLETE");
		if (!ok)
			mismatches++;
		if (verbose && res.witness)
			printf("  a run satisfying exists:\n%s", res.witness);
		free(res.witness);
		litmus_free(lt);
	}
	free(files);
	if (bad)
		return FTV_EXIT_USAGE;
	return mismatches ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
}
FTV_COMMAND(litmus, cmd_litmus,
	    .summary = "run litmus tests of the instruction-fetch model",
	    .args = "FILE...",
	    .opts = litmus_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Runs each litmus test (herdtools7's AArch64 syntax with ftv's\n"
		   "instruction-fetch extensions; corpus/litmus/) exhaustively against\n"
		   "ftv's fetch model and prints Allowed or Forbidden against the verdict\n"
		   "the file expects. Forbidden holds only when every run was explored\n"
		   "(complete); a run cut short by --max-runs is INCOMPLETE.\n")
