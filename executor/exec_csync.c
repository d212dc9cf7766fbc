/* A context synchronisation event on one CPU requested from outside the
 * instruction stream: the model of an exception return or a context switch
 * (which the kernel's synchronize_rcu_tasks quiescent points imply). */
#include "executor/exec_int.h"

int exec_cpu_context_sync(struct ftv_exec *ex, unsigned cpu)
{
	if (cpu >= ex->cfg.ncpus)
		return -1;
	xm_context_sync(ex, &ex->cpu[cpu]);
	return 0;
}
