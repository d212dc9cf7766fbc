/* ftv replay: a captured kernel layout's callsites at their addresses,
 * init_nop'ed, enabled and disabled in batches by the arm64 CALL_OPS backend
 * while CPUs call them (verify/replay.h).
 * Exit 0: every replayable site replayed, nothing violated; 1: a violation;
 * 2: bad usage or input (unreadable layout, a site count that differs from
 * the kernel's table), or no site replayed at all (vacuous: a verdict on
 * nothing). */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"
#include "verify/mutant.h"
#include "verify/replay.h"

#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum {
	O_SEED = 256, O_CPUS, O_BATCH, O_BATCHES, O_ROUNDS, O_CALLS, O_JSON,
	O_FAR, O_MUTATE, O_FIRST, O_JOBS,
};

static const struct ftv_opt replay_opts[] = {
	{ .name = "cpus", .key = O_CPUS, .arg = "N",
	  .help = "CPUs calling the sites while they are patched (1-32, default 4)" },
	{ .name = "seed", .key = O_SEED, .arg = "S",
	  .help = "the scheduler's and the workload's seed (default 1)" },
	{ .name = "batch", .key = O_BATCH, .arg = "N",
	  .help = "sites enabled and disabled together, one world each (default 1024)" },
	{ .name = "batches", .key = O_BATCHES, .arg = "K",
	  .help = "run only K batches" },
	{ .name = "first-batch", .key = O_FIRST, .arg = "B",
	  .help = "start at batch B (from 1; a batch replays alone as in the whole run)" },
	{ .name = "jobs", .key = O_JOBS, .arg = "N",
	  .help = "batches run at once, each on a thread (1-64, default: the online "
		  "cores); the output is the same whatever N" },
	{ .name = "rounds", .key = O_ROUNDS, .arg = "R",
	  .help = "workload rounds per CPU and batch (1-1000, default 16 + batch/8)" },
	{ .name = "calls", .key = O_CALLS, .arg = "C",
	  .help = "calls per CPU and round (1-4096, default 32)" },
	{ .name = "far-modules", .key = O_FAR,
	  .help = "load the modules in the 2 GiB PLT window, as if the direct one "
		  "were full (every module site calls through its PLT)" },
	{ .name = "mutate", .key = O_MUTATE, .arg = "NAME",
	  .help = "inject the known bug NAME into the patcher (an arm64 or core one)",
	  .word = ftv_mutant_word },
	{ .name = "json", .key = O_JSON,
	  .help = "print one JSON object instead of the text report" },
	FTV_PATHS_OPTION,
	{ 0 },
};

static int cmd_replay(int argc, char **argv)
{
	struct replay_config c = { .seed = 1 };
	struct replay_result r;
	struct ftv_paths paths;
	struct ftv_getopt g;
	struct ftv_err err;
	const char *layout = NULL;
	char layout_buf[4200];
	uint64_t v;
	int o, ret;

	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_JSON:
			c.json = 1;
			break;
		case O_FAR:
			c.far_modules = 1;
			break;
		case O_MUTATE: {
			const struct ftv_mutant *m = ftv_mutant_find(g.val);
			struct ftv_err merr;

			if (!m)
				return ftv_opt_bad_choice(&g);
			if (ftv_mutant_check(m, FTV_SCHEME_CALLOPS, &merr))
				return ftv_opt_bad(&g, "is not for ftv replay: %s", merr.msg);
			c.mutate = m->name;
			break;
		}
		case FTV_OPT_KERNEL:
			world_kernel_dir_set(g.val);
			break;
		case FTV_OPT_BUILD:
			ftv_paths_set_build(&paths, g.val);
			break;
		case O_SEED:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &c.seed))
				return FTV_EXIT_USAGE;
			break;
		case O_CPUS:
			if (ftv_opt_unsigned(&g, 1, 32, &c.ncpus))
				return FTV_EXIT_USAGE;
			break;
		case O_BATCH:
			if (ftv_opt_u64(&g, 1, SIZE_MAX, &v))
				return FTV_EXIT_USAGE;
			c.batch = v;
			break;
		case O_BATCHES:
			if (ftv_opt_u64(&g, 1, SIZE_MAX, &v))
				return FTV_EXIT_USAGE;
			c.max_batches = v;
			break;
		case O_FIRST:
			if (ftv_opt_u64(&g, 1, SIZE_MAX, &v))
				return FTV_EXIT_USAGE;
			c.first_batch = v - 1;
			break;
		case O_JOBS:
			if (ftv_opt_unsigned(&g, 1, 64, &c.jobs))
				return FTV_EXIT_USAGE;
			break;
		case O_ROUNDS:
			if (ftv_opt_unsigned(&g, 1, 1000, &c.rounds))
				return FTV_EXIT_USAGE;
			break;
		case O_CALLS:
			if (ftv_opt_unsigned(&g, 1, 4096, &c.calls))
				return FTV_EXIT_USAGE;
			break;
		case FTV_OPT_ARG:
			if (layout)
				return ftv_usage_error(g.cmd, "one LAYOUT only, not also '%s'", g.val);
			layout = g.val;
			break;
		}
	}
	if (o < 0)
		return g.exit;
	if (!layout)
		return ftv_usage_error(g.cmd, "missing LAYOUT");
	/* Each batch is a world of its own; served from the heap and never
	 * trimmed, the next batch's allocations reuse the same pages instead
	 * of faulting fresh ones in. */
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	/* a name alone: the installed layout */
	c.layout = ftv_paths_input(paths.layouts, layout, ".layout.xz", layout_buf,
				   sizeof(layout_buf), &err);
	if (!c.layout) {
		fprintf(stderr, "ftv replay: %s\n", err.msg);
		return FTV_EXIT_USAGE;
	}
	/* A whole kernel takes minutes: say how far it got, on a terminal. */
	if (isatty(STDERR_FILENO))
		c.progress = stderr;
	c.tramp_dir = paths.tramp;
	ret = replay_run(&c, stdout, &r, &err);
	if (c.progress)
		fprintf(c.progress, "\r\033[K");
	if (ret) {
		fflush(stdout);
		fprintf(stderr, "ftv replay: %s\n", err.msg);
		return FTV_EXIT_USAGE;
	}
	if (r.violations)
		return FTV_EXIT_VIOLATION;
	/* a verdict on no site is no verdict (the report above says why
	 * each was not replayed) */
	if (!r.replayed) {
		fflush(stdout);
		fprintf(stderr, "ftv replay: vacuous: 0 of the layout's %zu sites replayed "
			"(%zu modules not placed, %zu sites not replayable here)\n",
			r.layout_sites, r.modules_unplaced, r.layout_sites - r.replayable);
		return FTV_EXIT_USAGE;
	}
	return FTV_EXIT_OK;
}

FTV_COMMAND(replay, cmd_replay,
	    .summary = "replay a captured kernel layout: every callsite enabled and disabled in batches",
	    .args = "LAYOUT",
	    .opts = replay_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Maps every callsite of a layout captured from a linked arm64 kernel\n"
		   "('ftv capture') at its address, with synthetic function bodies around\n"
		   "it, counts the sites against the kernel's own table, init_nop's them\n"
		   "and then enables and disables them in batches with the arm64\n"
		   "CALL_OPS backend while CPUs call them. Modules go where they were\n"
		   "captured, or (read from their .ko) where the arm64 module loader puts\n"
		   "them, each with its ftrace PLT; their sites are init_nop'ed at load\n"
		   "and replayed after the kernel's. Reports the sites that cannot be\n"
		   "patched (misaligned, out of BL range of ftrace_caller and of any\n"
		   "module PLT, modules that cannot be placed) and any violation. On a\n"
		   "terminal a progress line per batch goes to stderr.\n")
