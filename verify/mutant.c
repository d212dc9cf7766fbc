#include "verify/mutant.h"

#include <string.h>

#include "patcher/ftrace_core.h"

const struct ftv_mutant ftv_mutants[] = {
	{ "none", ARM64_MUT_NONE, 0, "the correct backend and core" },
	{ "bl-before-literal", ARM64_MUT_BL_BEFORE_LITERAL, 0,
	  "make_call writes the BL before the ops literal" },
	{ "skip-literal-on-modify", ARM64_MUT_SKIP_LITERAL_ON_MODIFY, 0,
	  "modify_call leaves the old ops in the literal" },
	{ "misaligned-literal", ARM64_MUT_MISALIGNED_LITERAL, 0,
	  "sites whose literal is not 8-byte aligned are patched (torn ops)" },
	{ "live-mov-patch", ARM64_MUT_LIVE_MOV_PATCH, 0,
	  "MOV X9, LR is written at make_call, while CPUs run the site" },
	{ "no-range-check", ARM64_MUT_NO_RANGE_CHECK, 0,
	  "out-of-range BL targets are truncated instead of using a PLT" },
	{ "free-without-quiescence", ARM64_MUT_NONE, FTRACE_MUT_DROP_QUIESCE,
	  "an unregistered ops is freed without waiting for a quiescent point" },
	{ "no-publish-barrier", ARM64_MUT_NONE, FTRACE_MUT_NO_PUBLISH_BARRIER,
	  "a new ops is linked into the list without a barrier after its fields" },
	{ "publish-table-early", ARM64_MUT_NONE, FTRACE_MUT_PUBLISH_TABLE_EARLY,
	  "a filter table's pointer is stored before the table is written" },
	{ "free-before-unpatch", ARM64_MUT_NONE, FTRACE_MUT_FREE_BEFORE_UNPATCH,
	  "an ops is freed before the sites stop using it" },
	{ NULL, ARM64_MUT_NONE, 0, NULL },
};

const struct ftv_mutant *ftv_mutant_find(const char *name)
{
	for (const struct ftv_mutant *m = ftv_mutants; m->name; m++)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}
