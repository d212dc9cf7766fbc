/* The machine line, the clocks and the medians' sort of the bench
 * programs. */
#include "bench/machine.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

void bench_machine(FILE *out)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], model[256] = "unknown";

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, "model name", 10) || !colon)
			continue;
		snprintf(model, sizeof(model), "%s", colon + 2);
		model[strcspn(model, "\n")] = 0;
		break;
	}
	if (f)
		fclose(f);
	fprintf(out, "machine: %ld cores, %s\n", sysconf(_SC_NPROCESSORS_ONLN),
		model);
}

double bench_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double bench_cpu(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}
