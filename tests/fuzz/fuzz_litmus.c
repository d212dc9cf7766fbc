/* Litmus files as `ftv litmus` reads and runs them: any bytes through
 * litmus_load, the parser with its assembler of the threads' code and its
 * checks of labels, registers and conditions, then, for what parses,
 * litmus_run under small budgets (a few runs, a fraction of a second,
 * the memory budget): the address space, the executor, the fetch model and
 * the final states. The input becomes a file in memory (memfd), since the
 * parser reads a path. A run's error is an answer; its promises (a
 * complete exploration names no budget, a witness is a finished run that
 * satisfied the condition) are checked. */
#define _GNU_SOURCE /* memfd_create */
#include "tests/fuzz/harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "litmus/litmus.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	struct litmus *lt;
	struct ftv_err err;
	struct litmus_result res;
	/* small: a replay of the seeds in make check stays quick */
	const struct litmus_opts opts = { .max_runs = 64, .time_ms = 200,
					  .mem_mb = 512, .dic = -1, .idc = -1 };

	if (fd < 0) {
		fd = memfd_create("fuzz.litmus", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	lt = litmus_load(path, &err);
	if (!lt)
		return 0;
	if (!litmus_run(lt, &opts, &res, &err)) {
		if (res.complete && res.budget != LT_BUDGET_NONE)
			fuzz_fail("complete exploration cut by a budget");
		if (res.witnesses > res.finished || res.finished > res.runs ||
		    res.allowed != (res.witnesses > 0))
			fuzz_fail("%llu witnesses, %llu finished, %llu runs, allowed %d",
				  (unsigned long long)res.witnesses,
				  (unsigned long long)res.finished,
				  (unsigned long long)res.runs, res.allowed);
		litmus_result_free(&res);
	}
	litmus_free(lt);
	return 0;
}
