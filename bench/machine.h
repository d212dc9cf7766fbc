/* What the bench ran on, printed before its figures, its clocks and its
 * medians' sort. */
#ifndef FTV_BENCH_MACHINE_H
#define FTV_BENCH_MACHINE_H

#include <stdio.h>

/* "machine: 2 cores, <model name from /proc/cpuinfo>" */
void bench_machine(FILE *out);
/* Wall-clock seconds (CLOCK_MONOTONIC). */
double bench_wall(void);
/* CPU seconds of this process (CLOCK_PROCESS_CPUTIME_ID): the machine is
 * shared, so wall-clock time would measure the neighbours too. */
double bench_cpu(void);
/* qsort's comparison of doubles, for medians. */
int bench_cmp_double(const void *a, const void *b);

#endif
