/* Explaining faults. The executor reports that a CPU faulted and where;
 * the world knows what the code there was doing, so it says why, in the
 * kernel developer's terms: a jump through freed memory (POISON_FREE), an
 * ops pointer that is no ops (a literal read across two halves), a BL whose
 * offset was truncated. */
#include "verify/world_int.h"

#include <string.h>

#include "encoders/a64.h"

#define POISON_FREE64 0x6b6b6b6b6b6b6b6bULL

static const char *freed_ops(struct world *w, char *buf, size_t n)
{
	buf[0] = 0;
	for (size_t i = 0; i < w->nops; i++)
		if (w->ops[i].freed) {
			size_t l = strlen(buf);

			snprintf(buf + l, n - l, "%s%s", l ? ", " : "", w->ops[i].name);
		}
	return buf[0] ? buf : "none";
}

static void explain_fault(struct world *w, const struct exec_violation *v)
{
	struct ftv_exec *ex = w->ex;
	unsigned c = (unsigned)v->cpu;
	uint64_t pc = v->addr, lr = exec_cpu_reg(ex, c, w->ad->reg_ra);
	uint64_t link = exec_cpu_reg(ex, c, w->ad->reg_link);
	uint64_t x11 = exec_cpu_reg(ex, c, w->ad->reg_ops);
	int arm = w->sd->arch == FTV_ARCH_ARM64;
	uint64_t op_loaded = sim_image_lookup(w->img, "ftrace_caller_op_loaded");
	char b1[160], b2[160], b3[256];
	uint32_t word;

	if (pc == POISON_FREE64 || (pc >> 32) == (POISON_FREE64 >> 32)) {
		world_add_violation(w, "use-after-free", (int)c, v->step,
				    "cpu%u branched to 0x%016llx (POISON_FREE): a function "
				    "pointer was loaded from freed memory; ops freed so far: %s",
				    c, (unsigned long long)pc, freed_ops(w, b3, sizeof(b3)));
		return;
	}
	if (op_loaded && pc == op_loaded) {
		uint64_t site = link - 4, slot = w->ad->literal_slot(link);
		int ri = world_rec_at_ip(w, site);

		if (x11 == POISON_FREE64) {
			world_add_violation(w, "use-after-free", (int)c, v->step,
					    "ftrace_caller at %s loaded ops 0x%016llx from the "
					    "literal of a site whose ops was freed (%s)",
					    sim_symbolize(w->as, site, b1, sizeof(b1), 1),
					    (unsigned long long)x11, freed_ops(w, b3, sizeof(b3)));
			return;
		}
		world_add_violation(w, "bad-ops-literal", (int)c, v->step,
				    "ftrace_caller called from %s read ops 0x%016llx at %s "
				    "(%s), which is no ops%s", sim_symbolize(w->as, site, b1, sizeof(b1), 1),
				    (unsigned long long)x11,
				    sim_symbolize(w->as, slot, b2, sizeof(b2), 0),
				    arm ? "the doubleword below LR aligned down to 8"
					: "t0 - 16, the literal before the function",
				    ri >= 0 && (w->recs[ri].literal & 7)
					    ? ": the site's literal at func-8 is not 8-byte aligned "
					      "(Misaligned patch-site), so the trampoline reads "
					      "across it and a 64-bit swap of it is not atomic"
					    : "");
		return;
	}
	/* Came from a patched BL whose target is no code? The word this CPU
	 * fetched there, not what memory holds now. */
	if (arm && !exec_last_fetch(ex, c, lr - 4, &word) && a64_is_bl(word)) {
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
}

void world_explain_faults(struct world *w)
{
	size_t n;
	const struct exec_violation *v = exec_violations(w->ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].kind == EXEC_V_FAULT && v[i].cpu >= 0)
			explain_fault(w, &v[i]);
}
