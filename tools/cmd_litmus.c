/* ftv litmus FILE...: run litmus tests of the fetch model exhaustively and
 * compare each verdict with the one the file (or a kinds file) expects. */
#include "litmus/litmus.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	struct litmus_opts o = { .max_runs = 1000000, .time_ms = 10000,
				 .dic = -1, .idc = -1 };
	struct litmus_kinds *kinds = NULL;
	int first = 1, mismatches = 0, bad = 0, herd = 0, tty;
	uint64_t v;

	while (first < argc && argv[first][0] == '-') {
		const char *a = argv[first], *arg = first + 1 < argc ? argv[first + 1] : NULL;

		if (!strcmp(a, "-v")) {
			o.want_witness = 1;
			first++;
		} else if (!strcmp(a, "--herd")) {
			herd = 1;
			first++;
		} else if (!strcmp(a, "--max-runs") && arg &&
			   !ftv_parse_u64(arg, &o.max_runs) && o.max_runs) {
			first += 2;
		} else if (!strcmp(a, "--time-limit") && arg &&
			   !ftv_parse_u64(arg, &v)) {
			o.time_ms = v * 1000; /* seconds; 0: no limit */
			first += 2;
		} else if (!strcmp(a, "--max-mem") && arg &&
			   !ftv_parse_u64(arg, &o.mem_mb) && o.mem_mb) {
			first += 2;
		} else if (!strcmp(a, "--kinds") && arg && !kinds) {
			struct ftv_err err;

			kinds = litmus_kinds_load(arg, &err);
			if (!kinds) {
				fprintf(stderr, "ftv litmus: %s\n", err.msg);
				return FTV_EXIT_USAGE;
			}
			first += 2;
		} else {
			litmus_kinds_free(kinds);
			return ftv_usage("litmus");
		}
	}
	if (first >= argc) {
		litmus_kinds_free(kinds);
		return ftv_usage("litmus");
	}
	tty = isatty(2);
	if (tty)
		o.progress = progress;
	for (int i = first; i < argc; i++) {
		struct ftv_err err;
		struct litmus_result res;
		struct litmus *lt = litmus_load(argv[i], &err);
		int ok;

		if (lt && kinds && litmus_kinds_get(kinds, litmus_name(lt)) >= 0)
			litmus_set_expected(lt, litmus_kinds_get(kinds, litmus_name(lt)));
		if (!lt || litmus_run(lt, &o, &res, &err)) {
			if (tty)
				fprintf(stderr, "\r\033[K");
			fprintf(stderr, "ftv litmus: %s\n", err.msg);
			litmus_free(lt);
			bad = 1;
			continue;
		}
		if (tty)
			fprintf(stderr, "\r\033[K");
		if (herd)
			litmus_print_herd(stdout, lt, &res);
		else
			litmus_print_line(stdout, lt, &res);
		ok = litmus_verdict_ok(lt, &res);
		if (!ok)
			mismatches++;
		if (o.want_witness && res.witness)
			printf("  a run satisfying exists:\n%s", res.witness);
		fflush(stdout);
		litmus_result_free(&res);
		litmus_free(lt);
	}
	litmus_kinds_free(kinds);
	if (bad)
		return FTV_EXIT_USAGE;
	return mismatches ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
}
FTV_COMMAND(litmus, "run litmus tests (ftv or herd7 syntax) of the instruction-fetch model",
	    "[-v] [--herd] [--kinds FILE] [--max-runs N] [--time-limit S] [--max-mem MIB] FILE...",
	    cmd_litmus)
