/* What every backend's table shares: looking up its mutants. */
#include "patcher/ftrace_arch.h"

#include <string.h>

const struct ftrace_arch_mutant *ftrace_arch_mutant_find(const struct ftrace_arch_mutant *table,
							 const char *name)
{
	for (const struct ftrace_arch_mutant *m = table; m && m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}
