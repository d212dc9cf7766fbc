/* ftv litmus FILE...: run litmus tests of the fetch model exhaustively and
 * compare each verdict with the one the file expects. */
#include "litmus/litmus.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmd_litmus(int argc, char **argv)
{
	uint64_t max_runs = 1000000;
	int first = 1, mismatches = 0, bad = 0, verbose = 0;

	while (first < argc && argv[first][0] == '-') {
		if (!strcmp(argv[first], "-v")) {
			verbose = 1;
			first++;
		} else if (!strcmp(argv[first], "--max-runs") &&
			   first + 1 < argc &&
			   !ftv_parse_u64(argv[first + 1], &max_runs) &&
			   max_runs) {
			first += 2;
		} else {
			return ftv_usage("litmus");
		}
	}
	if (first >= argc)
		return ftv_usage("litmus");
	for (int i = first; i < argc; i++) {
		struct ftv_err err;
		struct litmus_result res;
		struct litmus *lt = litmus_load(argv[i], &err);
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
	if (bad)
		return FTV_EXIT_USAGE;
	return mismatches ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
}
FTV_COMMAND(litmus, "run litmus tests of the instruction-fetch model",
	    "[-v] [--max-runs N] FILE...", cmd_litmus)
