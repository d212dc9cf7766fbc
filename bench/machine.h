/* What the bench ran on, printed before its figures. */
#ifndef FTV_BENCH_MACHINE_H
#define FTV_BENCH_MACHINE_H

#include <stdio.h>

/* "machine: 2 cores, <model name from /proc/cpuinfo>" */
void bench_machine(FILE *out);
/* Wall-clock seconds (CLOCK_MONOTONIC). */
double bench_wall(void);

#endif
