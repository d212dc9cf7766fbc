#include "verify/mutant.h"

#include <string.h>

#include "patcher/ftrace_core.h"
#include "patcher/riscv.h"

const struct ftv_mutant ftv_mutants[] = {
	{ "none", ARM64_MUT_NONE, 0, "the correct backend and core", -1, 0 },
	{ "bl-before-literal", ARM64_MUT_BL_BEFORE_LITERAL, 0,
	  "make_call writes the BL before the ops literal", FTV_ARCH_ARM64, 0 },
	{ "skip-literal-on-modify", ARM64_MUT_SKIP_LITERAL_ON_MODIFY, 0,
	  "modify_call leaves the old ops in the literal", FTV_ARCH_ARM64, 0 },
	{ "misaligned-literal", ARM64_MUT_MISALIGNED_LITERAL, 0,
	  "sites whose literal is not 8-byte aligned are patched (torn ops)", FTV_ARCH_ARM64, 0 },
	{ "live-mov-patch", ARM64_MUT_LIVE_MOV_PATCH, 0,
	  "MOV X9, LR is written at make_call, while CPUs run the site", FTV_ARCH_ARM64, 0 },
	{ "no-range-check", ARM64_MUT_NO_RANGE_CHECK, 0,
	  "out-of-range BL targets are truncated instead of using a PLT", FTV_ARCH_ARM64, 0 },
	{ "free-without-quiescence", ARM64_MUT_NONE, FTRACE_MUT_DROP_QUIESCE,
	  "an unregistered ops is freed without waiting for a quiescent point", -1, 0 },
	{ "no-publish-barrier", ARM64_MUT_NONE, FTRACE_MUT_NO_PUBLISH_BARRIER,
	  "a new ops is linked into the list without a barrier after its fields", -1, 0 },
	{ "publish-table-early", ARM64_MUT_NONE, FTRACE_MUT_PUBLISH_TABLE_EARLY,
	  "a filter table's pointer is stored before the table is written", -1, 0 },
	{ "free-before-unpatch", ARM64_MUT_NONE, FTRACE_MUT_FREE_BEFORE_UNPATCH,
	  "an ops is freed before the sites stop using it", -1, 0 },
	{ NULL, ARM64_MUT_NONE, 0, NULL, -1, 0 },
};

/* The riscv64 backend's mutants (patcher/riscv.h), as rows of this table:
 * filled on first use from riscv_mutants[], whose index 0 is "none". */
static struct ftv_mutant rv_rows[RISCV_MUT_COUNT + 1];

static const struct ftv_mutant *riscv_rows(void)
{
	if (!rv_rows[0].name) {
		size_t n = 0;

		for (const struct riscv_mutant_info *r = riscv_mutants + 1;
		     r->name && n < RISCV_MUT_COUNT; r++)
			rv_rows[n++] = (struct ftv_mutant){ r->name, ARM64_MUT_NONE, 0, r->what,
							    FTV_ARCH_RISCV64, (int)r->mutant };
	}
	return rv_rows;
}

const struct ftv_mutant *ftv_mutant_next(const struct ftv_mutant *m)
{
	const struct ftv_mutant *rv = riscv_rows();

	if (!m)
		return ftv_mutants;
	for (const struct ftv_mutant *p = ftv_mutants; p->name; p++)
		if (p == m)
			return p[1].name ? p + 1 : rv[0].name ? rv : NULL;
	for (size_t i = 0; i < RISCV_MUT_COUNT; i++)
		if (&rv_rows[i] == m)
			return rv_rows[i + 1].name ? &rv_rows[i + 1] : NULL;
	return NULL;
}

const struct ftv_mutant *ftv_mutant_find(const char *name)
{
	for (const struct ftv_mutant *m = ftv_mutant_next(NULL); m; m = ftv_mutant_next(m))
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

int ftv_mutant_check(const struct ftv_mutant *m, enum ftv_scheme s,
		     struct ftv_err *err)
{
	if (!m || m->arch < 0 || (enum ftv_arch)m->arch == ftv_scheme_arch(s))
		return 0;
	return ftv_errf(err, "mutant %s is a bug of the %s backend; scheme %s is %s's",
			m->name, ftv_arch_name((enum ftv_arch)m->arch), ftv_scheme_name(s),
			ftv_arch_name(ftv_scheme_arch(s)));
}

void ftv_mutant_apply(const struct ftv_mutant *m, struct world_config *cfg)
{
	if (!m)
		return;
	cfg->mutant = m->arm64;
	cfg->rv_mutant = m->riscv;
	cfg->core_mutants = m->core;
	cfg->mutant_name = m->name;
}
