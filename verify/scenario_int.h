/* What the scenario files share (verify/scenario.c runs scenarios,
 * verify/scenario_lang.c reads and writes them). */
#ifndef FTV_VERIFY_SCENARIO_INT_H
#define FTV_VERIFY_SCENARIO_INT_H

#include "patcher/ftrace_verbs.h"
#include "verify/scenario.h"

/* The world as the ftrace verbs' target (ops NAME TRACER, filter, ...). */
const struct ftrace_target *scenario_target(void);
/* An operation's arguments, as the verb reads them: how many into av. */
int scenario_op_args(const struct scn_op *op, char **av);

#endif
