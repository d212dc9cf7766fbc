/* bench/child.h */
#include "bench/child.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/machine.h"

int bench_child(char **argv, const char *out, int keep_stderr, double *cpu,
		double *wall, long *rss_kb)
{
	struct rusage ru;
	int status;
	double t0 = bench_wall();
	pid_t pid;

	fflush(stdout); /* (or the child's copy of the buffer is printed too) */
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!freopen(out, "w", stdout) ||
		    (!keep_stderr && !freopen("/dev/null", "w", stderr)))
			_exit(127);
		execv(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) != pid)
		return -1;
	*wall = bench_wall() - t0;
	*cpu = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (rss_kb)
		*rss_kb = ru.ru_maxrss;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int bench_summary_num(const char *path, const char *key, double *v)
{
	FILE *f = fopen(path, "r");
	char line[8192], pat[64];
	int found = 0;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, pat);

		if (strstr(line, "\"type\":\"summary\"") && p) {
			*v = strtod(p + strlen(pat), NULL);
			found = 1;
		}
	}
	if (f)
		fclose(f);
	return found ? 0 : -1;
}

int bench_tmp(char *tmpl, char *scn, size_t n)
{
	int fd = mkstemp(tmpl);

	if (fd < 0)
		return -1;
	close(fd);
	snprintf(scn, n, "%s.scn", tmpl);
	return 0;
}
