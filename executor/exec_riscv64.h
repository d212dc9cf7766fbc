/* riscv64's parts of the executor table (exec_riscv64.c), shared between
 * its files. */
#ifndef FTV_EXECUTOR_EXEC_RISCV64_H
#define FTV_EXECUTOR_EXEC_RISCV64_H

#include "executor/exec_arch.h"

/* exec_riscv64_fault.c: the instruction at fault behind a stale pc */
uint64_t xrv_fault_pc(struct xengine *e, unsigned cpu, uint64_t pc,
		      uint64_t addr);

/* exec_riscv64_pair.c: the AUIPC + JALR generation check, on each fetch */
void *xrv_pair_new(void);
void xrv_pair_free(void *ctx);
void xrv_pair_reset(void *ctx);
void xrv_pair_words(void *ctx, unsigned ncpus, const struct xlog *log,
		    struct exec_state_sink *s);
void xrv_pair_fetched(struct xmodel *m, unsigned cpu, struct winsn *w,
		      int wid);

#endif
