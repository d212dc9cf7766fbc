/* The time guard of a free-running turn (exec_watchdog.c): one thread
 * per executor that calls stop(arg) when an armed turn runs past its
 * deadline (a last resort: the instruction budget decides a turn). */
#ifndef FTV_EXECUTOR_EXEC_WATCHDOG_H
#define FTV_EXECUTOR_EXEC_WATCHDOG_H

#include <stdint.h>

struct xwatchdog;

/* Arms *wd (started on first use) for one turn: -1 if no watchdog thread
 * could be started (the caller falls back to another timeout). */
int xw_arm(struct xwatchdog **wd, void (*stop)(void *arg), void *arg,
	   uint64_t timeout_us);
/* 1 if the turn ran out of time and stop was called. */
int xw_disarm(struct xwatchdog *wd);
void xw_free(struct xwatchdog **wd);

#endif
