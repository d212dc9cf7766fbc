/* How violations and traces name writes and watched data locations
 * (exec_report.c); words print through the arch table (xarch.word and
 * xarch.insn). */
#ifndef FTV_EXECUTOR_EXEC_REPORT_H
#define FTV_EXECUTOR_EXEC_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "executor/exec_log.h"
#include "sim/aspace.h"

/* "write #7 (plan 2 step 1 \"make_call: auipc\")", "(store by cpu1)",
 * "(initial)". */
void xr_write_desc(const struct xlog *l, int wid, char *buf, size_t n);
/* A data location by symbol; a CALL_OPS literal, which sits just before its
 * function, is "func-0x8". */
void xr_data_where(struct sim_aspace *as, uint64_t addr, char *buf, size_t n);

#endif
