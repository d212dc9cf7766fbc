/* ftv replay: a captured kernel layout's callsites at their addresses,
 * init_nop'ed, enabled and disabled in batches by the arm64 CALL_OPS backend
 * while CPUs call them (verify/replay.h).
 * Exit 0: every replayable site replayed, nothing violated; 1: a violation;
 * 2: bad usage or input (unreadable layout, a site count that differs from
 * the kernel's table). */
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "verify/replay.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int cmd_replay(int argc, char **argv)
{
	struct replay_config c = { .seed = 1 };
	struct replay_result r;
	struct ftv_paths paths;
	struct ftv_err err;
	const char *layout = NULL;

	ftv_paths_default(&paths, argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i];
		uint64_t v;

		if (!strcmp(o, "--json")) {
			c.json = 1;
			continue;
		}
		if (o[0] != '-') {
			if (layout)
				return ftv_usage("replay");
			layout = o;
			continue;
		}
		if (i + 1 >= argc)
			return ftv_usage("replay");
		if (ftv_paths_option(&paths, o, argv[i + 1])) {
			i++;
			continue;
		}
		if (ftv_parse_u64(argv[i + 1], &v)) {
			fprintf(stderr, "ftv replay: %s: not a number: %s\n", o, argv[i + 1]);
			return FTV_EXIT_USAGE;
		}
		i++;
		if (!strcmp(o, "--seed"))
			c.seed = v;
		else if (!strcmp(o, "--cpus") && v >= 1 && v <= 32)
			c.ncpus = (unsigned)v;
		else if (!strcmp(o, "--batch") && v >= 1)
			c.batch = v;
		else if (!strcmp(o, "--batches") && v >= 1)
			c.max_batches = v;
		else if (!strcmp(o, "--rounds") && v >= 1 && v <= 1000)
			c.rounds = (unsigned)v;
		else if (!strcmp(o, "--calls") && v >= 1 && v <= 4096)
			c.calls = (unsigned)v;
		else
			return ftv_usage("replay");
	}
	if (!layout)
		return ftv_usage("replay");
	/* Each batch is a world whose executor copies every region (about
	 * 570 MiB with 4 CPUs); served from the heap and never trimmed, the
	 * next batch's copies reuse the same pages instead of faulting fresh
	 * ones in (about 20% of a batch's time). */
	mallopt(M_MMAP_MAX, 0);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	c.layout = layout;
	/* A whole kernel takes minutes: say how far it got, on a terminal. */
	if (isatty(STDERR_FILENO))
		c.progress = stderr;
	c.tramp_dir = paths.tramp;
	if (replay_run(&c, stdout, &r, &err)) {
		fflush(stdout);
		fprintf(stderr, "ftv replay: %s\n", err.msg);
		return FTV_EXIT_USAGE;
	}
	return r.violations ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
}

FTV_COMMAND(replay, "replay a captured kernel layout: every callsite enabled and disabled in batches",
	    "[--cpus N] [--seed S] [--batch N] [--batches K] [--rounds R] [--calls C] [--json] [--build DIR] LAYOUT",
	    cmd_replay)
