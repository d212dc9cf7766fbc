/* The mutants' table: "none", the ftrace core's, then every arch's backend
 * ones, taken from the backends' own tables (struct world_archdesc.mutants)
 * when the program starts. */
#include "verify/mutant.h"

#include <string.h>

#include "patcher/ftrace_core.h"
#include "verify/world_int.h"

static const struct ftv_mutant fixed[] = {
	{ "none", "the correct backend and core", -1, 0, 0 },
	{ "free-without-quiescence",
	  "an unregistered ops is freed without waiting for a quiescent point", -1, 0,
	  FTRACE_MUT_DROP_QUIESCE },
	{ "no-publish-barrier",
	  "a new ops is linked into the list without a barrier after its fields", -1, 0,
	  FTRACE_MUT_NO_PUBLISH_BARRIER },
	{ "publish-table-early",
	  "a filter table's pointer is stored before the table is written", -1, 0,
	  FTRACE_MUT_PUBLISH_TABLE_EARLY },
	{ "free-before-unpatch", "an ops is freed before the sites stop using it", -1, 0,
	  FTRACE_MUT_FREE_BEFORE_UNPATCH },
	{ "patch-zeroed-entry",
	  "ftrace_process_locs takes a zeroed table entry (a weak function sorttable "
	  "zeroed, linux-next Feb 2025) for a call site: init_nop writes outside text",
	  -1, 0, FTRACE_MUT_PATCH_ZEROED_ENTRY },
	{ "bpf-tramp-early-free",
	  "bpf_tramp_image_put before e21d2b92354b (2021): the old fexit image freed after "
	  "synchronize_rcu_tasks() alone, with a task asleep in the function it called",
	  -1, 0, FTRACE_MUT_BPF_EARLY_FREE },
	{ "direct-batch-unlocked",
	  "update_ftrace_direct_add/del update the shared direct ops without ftrace_lock "
	  "(before 3ebc98c1ae7e, 2026): another updater patches the same sites at once",
	  -1, 0, FTRACE_MUT_DIRECT_BATCH_UNLOCKED },
};

#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))
#define MAX_MUTANTS 64

static struct ftv_mutant all[MAX_MUTANTS];
static size_t nall;

/* Filled before main(), so lookups from several threads only read it. */
__attribute__((constructor)) static void build_table(void)
{
	for (size_t i = 0; i < NFIXED; i++)
		all[nall++] = fixed[i];
	for (size_t a = 0; world_arch_at(a); a++) {
		const struct world_archdesc *ad = world_arch_at(a);

		for (const struct ftrace_arch_mutant *m = ad->mutants; m && m->name; m++)
			if (m->code && nall < MAX_MUTANTS)
				all[nall++] = (struct ftv_mutant){ m->name, m->what, (int)ad->arch,
								   m->code, 0 };
	}
}

const struct ftv_mutant *ftv_mutant_next(const struct ftv_mutant *m)
{
	if (!m)
		return nall ? &all[0] : NULL;
	return m >= all && m + 1 < all + nall ? m + 1 : NULL;
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
	cfg->backend_mutant = m->code;
	cfg->core_mutants = m->core;
	cfg->mutant_name = m->name;
}

const char *ftv_mutant_word(unsigned i)
{
	const struct ftv_mutant *m = NULL;

	do
		m = ftv_mutant_next(m);
	while (m && i--);
	return m ? m->name : NULL;
}
