/* Explaining faults. The executor reports that a CPU faulted and where;
 * the world knows what the code there was doing, so it says why, in the
 * kernel developer's terms: a jump through freed memory (POISON_FREE), an
 * ops pointer that is no ops (a literal read across two halves), and what
 * the arch explains itself (struct world_archdesc: a BL whose offset was
 * truncated, a call pair executed across two generations). */
#include "verify/world_int.h"
#include "patcher/ftrace_abi.h"

#include <string.h>


#define POISON_FREE64 0x6b6b6b6b6b6b6b6bULL

static const char *freed_ops(struct world *w, char *buf, size_t n)
{
	buf[0] = 0;
	for (size_t i = 0; i < w->nops; i++)
		if (w->run.ops_freed[i]) {
			size_t l = strlen(buf);

			snprintf(buf + l, n - l, "%s%s", l ? ", " : "", w->ops[i].name);
		}
	return buf[0] ? buf : "none";
}

/* A CPU that branched to pc through an ops' func or direct_call it
 * loaded as pc, though the ops' field holds a function: it read the field
 * before the ops' initialisation was visible to it. 1 if explained. */
static int explain_unpublished(struct world *w, const struct exec_violation *v)
{
	const struct ftrace_ops_layout *l = ftrace_core_ops_layout(w->core);
	const struct { uint64_t off; const char *name; } fields[] = {
		{ l->func, "func" }, { l->direct_call, "direct_call" },
	};
	size_t n;
	const struct exec_obs *ob = exec_observations(w->ex, &n);
	unsigned c = (unsigned)v->cpu;
	char b1[160];

	for (size_t k = n; k-- > 0;) {
		const struct exec_obs *o = &ob[k];

		if (o->cpu != v->cpu || o->kind != EXEC_OBS_LOAD || o->step > v->step)
			continue;
		for (size_t i = 0; i < w->nops; i++)
			for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++) {
				const struct wops *op = &w->ops[i];

				if (o->addr != op->addr + fields[f].off || o->val != v->addr ||
				    (f == 0 ? !op->func : !op->direct))
					continue;
				world_add_violation(
					w, "unpublished-ops", (int)c, v->step,
					"cpu%u called 0x%llx through ops %s's %s, which it loaded "
					"at step %llu before the ops' fields were visible to it "
					"(%s is %s): it reached ops %s through a pointer published "
					"before them. add_ftrace_ops() links an ops into "
					"ftrace_ops_list with rcu_assign_pointer(), whose release "
					"orders the ops' initialisation (func, filter, next) "
					"before the pointer to it: that barrier is missing",
					c, (unsigned long long)v->addr, op->name, fields[f].name,
					(unsigned long long)o->step, fields[f].name,
					f == 0 ? sim_symbolize(w->as, op->func, b1, sizeof(b1), 0)
					       : "the direct trampoline",
					op->name);
				return 1;
			}
		/* only the CPU's last load of a function pointer of an ops
		 * says where it went */
		for (size_t i = 0; i < w->nops; i++)
			for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
				if (o->addr == w->ops[i].addr + fields[f].off)
					return 0;
	}
	return 0;
}

static void explain_fault(struct world *w, const struct exec_violation *v)
{
	struct ftv_exec *ex = w->ex;
	unsigned c = (unsigned)v->cpu;
	uint64_t pc = v->addr;
	uint64_t link = exec_cpu_reg(ex, c, w->ad->reg_link);
	uint64_t opv = exec_cpu_reg(ex, c, w->ad->reg_ops);
	uint64_t op_loaded = w->op_loaded;
	char b1[160], b2[160], b3[256];

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

		if (opv == POISON_FREE64) {
			world_add_violation(w, "use-after-free", (int)c, v->step,
					    "ftrace_caller at %s loaded ops 0x%016llx from the "
					    "literal of a site whose ops was freed (%s)",
					    sim_symbolize(w->as, site, b1, sizeof(b1), 1),
					    (unsigned long long)opv, freed_ops(w, b3, sizeof(b3)));
			return;
		}
		world_add_violation(w, "bad-ops-literal", (int)c, v->step,
				    "ftrace_caller called from %s read ops 0x%016llx at %s "
				    "(%s), which is no ops%s", sim_symbolize(w->as, site, b1, sizeof(b1), 1),
				    (unsigned long long)opv,
				    sim_symbolize(w->as, slot, b2, sizeof(b2), 0),
				    w->ad->literal_slot_what,
				    ri >= 0 && (w->recs[ri].literal & 7)
					    ? ": the site's literal at func-8 is not 8-byte aligned "
					      "(Misaligned patch-site), so the trampoline reads "
					      "across it and a 64-bit swap of it is not atomic"
					    : "");
		return;
	}
	if (pc < 0x1000 && explain_unpublished(w, v))
		return;
	if (world_bpf_explain_fault(w, v))
		return;
	if (w->ad->explain_fault)
		w->ad->explain_fault(w, v);
}

static void explain_faults(struct world *w, int complete)
{
	size_t n;
	const struct exec_violation *v = exec_violations(w->ex, &n);

	(void)complete;
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == EXEC_V_FAULT && v[i].cpu >= 0)
			explain_fault(w, &v[i]);
}

/* What only one arch's executor reports (struct world_archdesc.explain). */
static void explain_arch_poll(struct world *w)
{
	if (w->ad->explain)
		w->ad->explain(w);
}

static void explain_arch(struct world *w, int complete)
{
	(void)complete;
	explain_arch_poll(w);
}

WORLD_CHECK(explain_faults, .order = 20, .finish = explain_faults)
WORLD_CHECK(explain_arch, .order = 30, .poll = explain_arch_poll, .finish = explain_arch)
