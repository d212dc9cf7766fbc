/* ftv litmus FILE...: run litmus tests of the fetch model exhaustively and
 * compare each verdict with the one the file (or a kinds file) expects. */
#include "litmus/litmus.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_MAX_RUNS = 256, O_HERD, O_KINDS, O_TIME_LIMIT, O_MAX_MEM, O_JSON,
       O_REDUCE };

static const struct ftv_opt litmus_opts[] = {
	{ .name = "verbose", .key = 'v',
	  .help = "print a run that satisfies the condition, when one does" },
	{ .name = "herd", .key = O_HERD,
	  .help = "print herd7's output (Test, States, Observation...) instead of ftv's line" },
	{ .name = "json", .key = O_JSON,
	  .help = "one JSON object per test instead of ftv's line" },
	{ .name = "kinds", .key = O_KINDS, .arg = "FILE", .words = FTV_WORDS_FILE,
	  .help = "expected verdicts, lines 'NAME Allowed|Forbidden|Required'" },
	{ .name = "max-runs", .key = O_MAX_RUNS, .arg = "N",
	  .help = "explore at most N runs per test (default 1000000); fewer is INCOMPLETE" },
	{ .name = "time-limit", .key = O_TIME_LIMIT, .arg = "S",
	  .help = "stop a test after S seconds of CPU time (default 10; 0: none)" },
	{ .name = "max-mem", .key = O_MAX_MEM, .arg = "MIB",
	  .help = "stop a test whose memory passes MIB MiB (default 1024)" },
	{ .name = "reduce", .key = O_REDUCE, .arg = "WHEN",
	  .help = "end a run at a state an earlier run met: auto (3 threads or more, or a plain walk past 20000 runs; the default), on, off",
	  .words = "auto on off" },
	{ 0 },
};

/* On a terminal: one line, rewritten, saying how far a test has got. */
static void progress(const struct litmus *lt, uint64_t runs,
		     uint64_t elapsed_ms, void *arg)
{
	(void)arg;
	fprintf(stderr, "\r%-32s %llu runs, %.1f s ", litmus_name(lt),
		(unsigned long long)runs, (double)elapsed_ms / 1000);
	fflush(stderr);
}

static int cmd_litmus(int argc, char **argv)
{
	struct litmus_opts lo = { .max_runs = 1000000, .time_ms = 10000,
				  .dic = -1, .idc = -1 };
	struct litmus_kinds *kinds = NULL;
	int mismatches = 0, bad = 0, herd = 0, json = 0, nfiles = 0, unsupported = 0;
	int tty, o;
	const char **files = calloc((size_t)argc, sizeof(*files));
	struct ftv_paths paths;
	struct ftv_getopt g;
	struct ftv_err err;
	uint64_t v;

	if (!files)
		return FTV_EXIT_USAGE;
	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case 'v':
			lo.want_witness = 1;
			break;
		case O_HERD:
			herd = 1;
			break;
		case O_JSON:
			json = 1;
			break;
		case O_KINDS:
			litmus_kinds_free(kinds);
			kinds = litmus_kinds_load(g.val, &err);
			if (!kinds) {
				fprintf(stderr, "ftv litmus: %s\n", err.msg);
				o = -1;
				g.exit = FTV_EXIT_USAGE;
			}
			break;
		case O_MAX_RUNS:
			if (ftv_opt_u64(&g, 1, UINT64_MAX, &lo.max_runs))
				o = -1;
			break;
		case O_TIME_LIMIT:
			if (ftv_opt_u64(&g, 0, UINT64_MAX / 1000, &v))
				o = -1;
			lo.time_ms = v * 1000;
			break;
		case O_MAX_MEM:
			if (ftv_opt_u64(&g, 1, 1 << 20, &lo.mem_mb))
				o = -1;
			break;
		case O_REDUCE:
			if (!strcmp(g.val, "auto"))
				lo.reduce = LT_REDUCE_AUTO;
			else if (!strcmp(g.val, "on"))
				lo.reduce = LT_REDUCE_ON;
			else if (!strcmp(g.val, "off"))
				lo.reduce = LT_REDUCE_OFF;
			else {
				ftv_opt_bad_choice(&g);
				o = -1;
			}
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
		if (o < 0) {
			g.exit = FTV_EXIT_USAGE;
			break;
		}
	}
	if (o < 0 || !nfiles) {
		free(files);
		litmus_kinds_free(kinds);
		return o < 0 ? g.exit : ftv_usage_error(g.cmd, "missing FILE");
	}
	tty = isatty(2);
	if (tty)
		lo.progress = progress;
	for (int i = 0; i < nfiles; i++) {
		struct litmus_result res;
		char buf[4200];
		/* a name alone: the installed test */
		const char *path = ftv_paths_input(paths.litmus, files[i], ".litmus", buf,
						   sizeof(buf), &err);
		struct litmus *lt = path ? litmus_load(path, &err) : NULL;

		if (lt && litmus_unsupported(lt)) {
			/* a verdict of its own: not decided, not an error */
			if (tty)
				fprintf(stderr, "\r\033[K");
			if (json)
				litmus_print_json_unsupported(stdout, lt);
			else
				printf("%-32s unsupported: %s\n", litmus_name(lt),
				       litmus_unsupported(lt));
			fflush(stdout);
			litmus_free(lt);
			unsupported++;
			continue;
		}
		if (lt && kinds && litmus_kinds_get(kinds, litmus_name(lt)) >= 0)
			litmus_set_expected(lt, litmus_kinds_get(kinds, litmus_name(lt)));
		if (!lt || litmus_run(lt, &lo, &res, &err)) {
			if (tty)
				fprintf(stderr, "\r\033[K");
			fprintf(stderr, "ftv litmus: %s\n", err.msg);
			litmus_free(lt);
			bad = 1;
			continue;
		}
		if (tty)
			fprintf(stderr, "\r\033[K");
		if (json)
			litmus_print_json(stdout, lt, &res);
		else if (herd)
			litmus_print_herd(stdout, lt, &res);
		else
			litmus_print_line(stdout, lt, &res);
		/* a mismatch, or a verdict a budget left unproven */
		if (litmus_verdict_ok(lt, &res) == LT_MISMATCH ||
		    litmus_verdict_ok(lt, &res) == LT_UNPROVEN)
			mismatches++;
		if (lo.want_witness && res.witness && !json)
			printf("  a run satisfying the condition:\n%s", res.witness);
		fflush(stdout);
		litmus_result_free(&res);
		litmus_free(lt);
	}
	free(files);
	litmus_kinds_free(kinds);
	if (bad)
		return FTV_EXIT_USAGE;
	if (mismatches)
		return FTV_EXIT_VIOLATION;
	return unsupported ? FTV_EXIT_INCOMPLETE : FTV_EXIT_OK;
}
FTV_COMMAND(litmus, cmd_litmus,
	    .summary = "run litmus tests of the instruction-fetch model",
	    .args = "FILE...",
	    .opts = litmus_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Runs each litmus test exhaustively against ftv's fetch model: every\n"
		   "interleaving and every fetch choice. Files are in herd7's AArch64\n"
		   "syntax (herdtools7's catalogue/aarch64-ifetch) or ftv's own (corpus/\n"
		   "litmus/, riscv64 too). Prints Allowed, Forbidden or Required against\n"
		   "the verdict the file or --kinds expects, or with --herd herd7's own\n"
		   "output (mcompare7 reads it). Forbidden holds only when every run was\n"
		   "explored; a test stopped by --max-runs, --time-limit or --max-mem is\n"
		   "INCOMPLETE (budget). A test using a construct of herd's language ftv\n"
		   "does not model (arrays, filters, other variants or page table\n"
		   "entries, ...) is `NAME unsupported: FILE:LINE: construct` and is not\n"
		   "run (exit 3 when nothing else failed); a syntax error is one line\n"
		   "naming the file and line (exit 2).\n")
