/* Litmus files as `ftv litmus` reads them: any bytes through litmus_load,
 * the parser with its assembler of the threads' code and its checks of
 * labels, registers and conditions. The input becomes a file in memory
 * (memfd), since the parser reads a path. Only the parse: running a test
 * explores every interleaving, which is the executor's business and the
 * litmus tests' own. */
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

	if (fd < 0) {
		fd = memfd_create("fuzz.litmus", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	lt = litmus_load(path, &err);
	if (lt)
		litmus_free(lt);
	return 0;
}
