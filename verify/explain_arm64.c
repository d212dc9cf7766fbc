/* Explaining an arm64 fault (struct world_archdesc.explain_fault): a CPU
 * that came from a patched BL whose offset was truncated, so that it lands
 * where there is no code instead of going through the module's PLT. */
#include "verify/world_int.h"

#include "encoders/a64.h"
#include "patcher/arm64.h"

void arm64_explain_fault(struct world *w, const struct exec_violation *v)
{
	unsigned c = (unsigned)v->cpu;
	uint64_t pc = v->addr, lr = exec_cpu_reg(w->ex, c, w->ad->reg_ra);
	char b1[160];
	uint32_t word;

	/* The word this CPU fetched at the site, not what memory holds now. */
	if (exec_last_fetch(w->ex, c, lr - 4, &word) || !a64_is_bl(word))
		return;
	uint64_t t = 0;

	a64_branch_target(word, lr - 4, &t);
	if (t == pc && world_rec_at_ip(w, lr - 4) >= 0) {
		char dis[64];

		a64_disasm(word, lr - 4, dis, sizeof(dis));
		world_add_violation(w, "bad-branch", (int)c, v->step,
				    "the patched word at %s is 0x%08x (%s), which lands "
				    "at 0x%016llx where there is no code: ftrace_caller "
				    "(0x%016llx) is %s the BL's +/-128 MiB reach, so the "
				    "offset was truncated instead of going through the "
				    "module's PLT", sim_symbolize(w->as, lr - 4, b1, sizeof(b1), 1),
				    word, dis, (unsigned long long)pc,
				    (unsigned long long)w->caller,
				    arm64_bl_in_range(lr - 4, w->caller) ? "within" : "beyond");
	}
}
