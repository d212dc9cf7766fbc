/* make bench, part 4: what building a world costs (world_new: load, link,
 * init_nop, the executor's engines and snapshot, the calibration round),
 * per scenario's scheme and CPU count. Each build runs in a child process
 * of its own so that its peak RSS (wait4's ru_maxrss) is the build's and
 * nothing else's; a child that only parses the scenario gives the process's
 * own baseline. Median of three wall times; the RSS is the largest of the
 * three.
 *
 *   world_bench CORPUS_DIR TRAMP_DIR FILE.scn...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/machine.h"
#include "util/err.h"
#include "verify/scenario.h"

#define REPS 3

/* In the child: parse, and with build set, build and free the world.
 * Writes the build's wall time to fd. */
static int child(const char *path, const char *corpus, const char *tramp,
		 int build, int fd)
{
	static struct scenario_world sw;
	static struct scenario s;
	struct ftv_err err;
	struct world *w;
	double t0, t = 0;

	if (scenario_load(path, &s, &err)) {
		fprintf(stderr, "world_bench: %s\n", err.msg);
		return 2;
	}
	if (scenario_world_config(&s, corpus, tramp, 0, &sw, &err)) {
		fprintf(stderr, "world_bench: %s\n", err.msg);
		return 2;
	}
	if (build) {
		t0 = bench_wall();
		if (world_new(&sw.cfg, &w, &err)) {
			fprintf(stderr, "world_bench: %s: %s\n", path, err.msg);
			return 2;
		}
		t = bench_wall() - t0;
		world_free(w);
	}
	if (write(fd, &t, sizeof(t)) != (ssize_t)sizeof(t))
		return 2;
	return 0;
}

/* One child; *rss_kb its peak RSS. Returns the wall time, or -1. */
static double measure(const char *path, const char *corpus, const char *tramp,
		      int build, long *rss_kb)
{
	int fds[2], status;
	struct rusage ru;
	double t = -1;
	pid_t pid;

	fflush(stdout);
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		close(fds[0]);
		_exit(child(path, corpus, tramp, build, fds[1]));
	}
	close(fds[1]);
	if (read(fds[0], &t, sizeof(t)) != (ssize_t)sizeof(t))
		t = -1;
	close(fds[0]);
	if (wait4(pid, &status, 0, &ru) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;
	*rss_kb = ru.ru_maxrss;
	return t;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s CORPUS_DIR TRAMP_DIR FILE.scn...\n",
			argv[0]);
		return 2;
	}
	bench_machine(stdout);
	printf("world creation (world_new; median of %d, each in its own process)\n",
	       REPS);
	printf("  %-16s %-8s %4s %9s %12s %12s\n", "scenario", "scheme", "cpus",
	       "build(s)", "peak RSS(MB)", "baseline(MB)");
	for (int i = 3; i < argc; i++) {
		static struct scenario s;
		struct ftv_err err;
		double t[REPS];
		long rss = 0, base = 0;

		if (scenario_load(argv[i], &s, &err)) {
			fprintf(stderr, "world_bench: %s\n", err.msg);
			return 2;
		}
		if (measure(argv[i], argv[1], argv[2], 0, &base) < 0)
			return 2;
		for (int r = 0; r < REPS; r++) {
			long kb = 0;

			t[r] = measure(argv[i], argv[1], argv[2], 1, &kb);
			if (t[r] < 0)
				return 2;
			if (kb > rss)
				rss = kb;
		}
		qsort(t, REPS, sizeof(t[0]), bench_cmp_double);
		printf("  %-16s %-8s %4u %9.3f %12.1f %12.1f\n", s.name,
		       ftv_scheme_corpus_set(s.cfg.scheme), s.cfg.exec.ncpus,
		       t[REPS / 2], rss / 1024.0, base / 1024.0);
	}
	return 0;
}
