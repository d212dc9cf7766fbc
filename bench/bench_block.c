/* make bench's closing block (issue 18): one line per target, read from the
 * file the bench programs appended to (targets.h), each with its figure, the
 * target, and "met" or "short", then the machine: cores, model and load
 * average (the machine is shared; a loaded one measures low).
 *
 *   bench_block TARGETS-FILE [TITLE]
 *
 * Exit status 0 whether or not targets are met (a bench never fails on
 * speed); 2 if the file is missing or holds a malformed line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/machine.h"

#define MAXF 6

static int met(double fig, const char *cmp, double target)
{
	if (!strcmp(cmp, ">="))
		return fig >= target;
	if (!strcmp(cmp, "<"))
		return fig < target;
	return fig <= target;
}

/* Splits line at tabs into at most MAXF fields; returns how many. */
static int split(char *line, char **f)
{
	int n = 0;

	line[strcspn(line, "\n")] = 0;
	f[n++] = line;
	for (char *p = line; *p && n < MAXF; p++)
		if (*p == '\t') {
			*p = 0;
			f[n++] = p + 1;
		}
	return n;
}

static void fmt(char *buf, size_t size, double v)
{
	if (v >= 100)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.1f", v);
}

int main(int argc, char **argv)
{
	FILE *f;
	char line[1024], load[128] = "unknown";
	unsigned lineno = 0, nmet = 0, nshort = 0;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s TARGETS-FILE [TITLE]\n", argv[0]);
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		fprintf(stderr, "bench_block: %s: no targets were measured\n",
			argv[1]);
		return 2;
	}
	printf("\n=== %s ===\n", argc == 3 ? argv[2] : "targets");
	while (fgets(line, sizeof(line), f)) {
		char *fl[MAXF], a[32], b[32], *end;
		double fig, target;
		int ok;

		lineno++;
		if (split(line, fl) != MAXF) {
			fprintf(stderr, "bench_block: %s:%u: malformed line\n",
				argv[1], lineno);
			fclose(f);
			return 2;
		}
		fig = strtod(fl[1], &end);
		target = strtod(fl[4], &end);
		ok = met(fig, fl[3], target);
		ok ? nmet++ : nshort++;
		fmt(a, sizeof(a), fig);
		fmt(b, sizeof(b), target);
		printf("%-44s %9s %-22s target %2s %7s  %-5s%s%s\n", fl[0], a,
		       fl[2], fl[3], b, ok ? "met" : "short",
		       *fl[5] ? "  " : "", fl[5]);
	}
	fclose(f);
	f = fopen("/proc/loadavg", "r");
	if (f && fgets(load, sizeof(load), f)) {
		/* "1-min 5-min 15-min running/total lastpid" */
		char *p = load;

		for (int spaces = 0; *p && spaces < 3; p++)
			if (*p == ' ')
				spaces++;
		if (p > load)
			p[-1] = 0;
	}
	if (f)
		fclose(f);
	{
		char *m = NULL;
		size_t msize = 0;
		FILE *ms = open_memstream(&m, &msize);

		if (ms) {
			bench_machine(ms);
			fclose(ms);
		}
		if (m)
			m[strcspn(m, "\n")] = 0;
		printf("%s, load average %s (1, 5, 15 min, at the end)\n",
		       m ? m : "machine: unknown", load);
		free(m);
	}
	printf("%u met, %u short\n", nmet, nshort);
	return 0;
}
