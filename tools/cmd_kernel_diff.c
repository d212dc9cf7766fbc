/* ftv kernel-diff: Linux's own arm64 ftrace backend, built by `make
 * kernel`, against ftv's model of it (kernel/kdiff.h). */
#include "kernel/kdiff.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_KERNEL = 256, O_OBJECT, O_VERBOSE };

static const struct ftv_opt kdiff_opts[] = {
	{ .name = "kernel", .key = O_KERNEL, .arg = "DIR",
	  .help = "a make kernel build (KERNEL_OUT, e.g. build/kernel/6.12)", .words = FTV_WORDS_DIR },
	{ .name = "object", .key = O_OBJECT, .arg = "FILE",
	  .help = "an object whose patch sites to use (repeatable; default: the corpus's callops set)",
	  .words = FTV_WORDS_FILE },
	{ .name = "verbose", .key = O_VERBOSE,
	  .help = "also print both sequences of each transition kind's first site" },
	{ 0 }
};

/* the corpus's CALL_OPS objects, the default sites */
static size_t corpus(const char *argv0, char **objs, size_t max)
{
	struct ftv_paths p;
	char dir[4300];
	struct dirent *de;
	DIR *dp;
	size_t n = 0;

	ftv_paths_default(&p, argv0);
	snprintf(dir, sizeof(dir), "%s/callops", p.corpus);
	if (!(dp = opendir(dir)))
		return 0;
	while ((de = readdir(dp)) && n < max) {
		size_t l = strlen(de->d_name);

		if (l > 2 && !strcmp(de->d_name + l - 2, ".o") &&
		    (objs[n] = malloc(strlen(dir) + l + 2)))
			sprintf(objs[n++], "%s/%s", dir, de->d_name);
	}
	closedir(dp);
	/* a stable order: the link order decides addresses */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(objs[j - 1], objs[j]) > 0; j--) {
			char *t = objs[j];

			objs[j] = objs[j - 1];
			objs[j - 1] = t;
		}
	return n;
}

static int cmd_kernel_diff(int argc, char **argv)
{
	const char *dir = NULL;
	char *objs[64];
	size_t n = 0, given = 0;
	struct ftv_getopt g;
	struct ftv_err err = { "" };
	int o, rc, verbose = 0;

	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_KERNEL:
			dir = g.val;
			break;
		case O_VERBOSE:
			verbose = 1;
			break;
		case O_OBJECT:
			if (n == 64)
				return ftv_usage_error(g.cmd, "at most 64 objects");
			objs[n++] = (char *)g.val;
			given = n;
			break;
		default:
			return ftv_usage_error(g.cmd, "unexpected argument '%s'", g.val);
		}
	}
	if (o < 0)
		return g.exit;
	if (!dir)
		return ftv_usage_error(g.cmd, "missing --kernel DIR (build one with: make kernel)");
	if (!n && !(n = corpus(argv[0], objs, 64))) {
		fprintf(stderr, "ftv kernel-diff: no corpus objects found (make, or --object FILE)\n");
		return FTV_EXIT_USAGE;
	}
	rc = kdiff_run(dir, objs, n, stdout, verbose, &err);
	if (rc == FTV_EXIT_USAGE)
		fprintf(stderr, "ftv kernel-diff: %s\n", err.msg);
	for (size_t i = given; i < n; i++)
		free(objs[i]);
	return rc;
}

FTV_COMMAND_NAMED(kernel_diff, "kernel-diff", cmd_kernel_diff,
	.summary = "compare Linux's own arm64 ftrace backend with ftv's model",
	.opts = kdiff_opts,
	.doc = "Loads the objects a 'make kernel' build left in DIR (entry-ftrace.o, ftrace.o,\n"
	       "patching.o, lib/insn.o, mm/cache.o) as a kernel, runs the real\n"
	       "ftrace_init_nop, ftrace_make_call, ftrace_modify_call (also to direct\n"
	       "trampolines in and out of BL range), ftrace_make_nop, ftrace_update_ftrace_func\n"
	       "and the graph caller on one emulated CPU for every patch site of the objects,\n"
	       "and compares the stores, barriers and cache maintenance they make with the\n"
	       "plan ftv's arm64 CALL_OPS backend makes for the same transition.\n"
	       "\n"
	       "Prints one line per transition kind: same, understood (a documented\n"
	       "difference, listed after the lines with the kernel source that justifies\n"
	       "it), or DIFFERENT with the first difference and both sequences. Exit 1 on\n"
	       "any difference not understood, 2 on bad input (a missing object: run make\n"
	       "kernel). See docs/kernel.md.\n")
