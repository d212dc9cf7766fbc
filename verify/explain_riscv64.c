/* Explaining the RISC-V call-pair hazard of the CALL_OPS schemes (a hart
 * stopped or preempted between AUIPC and JALR while both are rewritten,
 * the reason Linux 6.16 patches only the JALR word). The executor
 * reports EXEC_V_PAIR: a CPU executed `auipc t0, hi` of one generation of a
 * call site and `jalr t0, lo(t0)` of another. The world says it in the
 * kernel developer's terms, as the violation kind "pair-hazard": which
 * function, which ftrace update rewrote the pair while the CPU sat between
 * its two words (stopped by stop_machine() there, or preempted), the two
 * words it executed and the writes they came from, and where the mixed
 * call lands instead of where either generation meant to go. */
#include "verify/world_int.h"

#include <string.h>

#include "encoders/riscv.h"

/* The newest fetch observation of cpu at addr at or before index `before`
 * (exclusive), or -1. */
static long last_fetch(const struct exec_obs *obs, long before, int cpu, uint64_t addr)
{
	for (long i = before - 1; i >= 0; i--)
		if (obs[i].kind == EXEC_OBS_FETCH && obs[i].cpu == cpu && obs[i].addr == addr)
			return i;
	return -1;
}

static void write_desc(struct world *w, const struct exec_write *wr, char *buf, size_t n)
{
	if (!wr)
		snprintf(buf, n, "an unknown write");
	else if (wr->plan >= 0) {
		const char *op = "?";

		for (size_t i = 0; i < w->nplans; i++)
			if (w->plans[i].id == wr->plan)
				op = w->plans[i].what;
		snprintf(buf, n, "\"%s\" of %s (plan %d step %d)", wr->what ? wr->what : "?",
			 op, wr->plan, wr->step);
	} else if (wr->cpu >= 0)
		snprintf(buf, n, "a store by cpu%d", wr->cpu);
	else
		snprintf(buf, n, "boot (ftrace_init_nop)");
}

/* The AUIPC a JALR write was made to pair with: the newest write to the
 * AUIPC word by the JALR's plan or an earlier one, else the word as boot
 * left it. */
static uint32_t partner_auipc(struct world *w, uint64_t at, const struct exec_write *jw)
{
	uint32_t v = 0;

	sim_read32(w->as, at, &v); /* fallback: memory now */
	for (int id = 0;; id++) {
		const struct exec_write *x = exec_write_get(w->ex, id);

		if (!x)
			break;
		if (x->addr != at || x->size != 4)
			continue;
		if (x->plan < 0 && x->cpu < 0)
			v = (uint32_t)x->val; /* the initial contents */
		else if (x->plan >= 0 && jw && jw->plan >= 0 && x->plan <= jw->plan)
			v = (uint32_t)x->val;
	}
	return v;
}

/* Where AUIPC a (at pc) then JALR j land, or 0 if they are no such pair
 * (the JALR's base must be the AUIPC's rd). */
static uint64_t pair_target(uint32_t a, uint32_t j, uint64_t pc)
{
	struct rv_insn ia, ij;

	if (rv_decode(a, pc, &ia) || ia.op != RV_OP_AUIPC || rv_decode(j, pc + 4, &ij) ||
	    ij.op != RV_OP_JALR || ij.rs1 != ia.rd)
		return 0;
	return (pc + (uint64_t)(ia.imm * 4096) + (uint64_t)ij.imm) & ~1ULL;
}

/* Reports that cpu executed the word of observation oa at a site's AUIPC
 * address, then the JALR of observation oj, from different generations. */
static void report_mixed(struct world *w, int cpu, uint64_t step, const struct exec_obs *oa,
			 const struct exec_obs *oj)
{
	uint64_t jat = oj->addr, aat = oj->addr - 4, got, want;
	const struct exec_write *wa = exec_write_get(w->ex, oa->wid[0]);
	const struct exec_write *wj = exec_write_get(w->ex, oj->wid[0]);
	uint32_t a = (uint32_t)oa->val, j = (uint32_t)oj->val, partner;
	struct rv_insn ia;
	char site[160], da[96], dj[96], dp[96], sa[200], sj[200], tg[200], tw[160];

	partner = partner_auipc(w, aat, wj);
	rv_disasm(a, aat, da, sizeof(da), NULL);
	rv_disasm(j, jat, dj, sizeof(dj), NULL);
	rv_disasm(partner, aat, dp, sizeof(dp), NULL);
	write_desc(w, wa, sa, sizeof(sa));
	write_desc(w, wj, sj, sizeof(sj));
	got = pair_target(a, j, aat);
	want = pair_target(partner, j, aat);
	sim_symbolize(w->as, jat, site, sizeof(site), 1);
	if (got) {
		char sym[160];

		sim_symbolize(w->as, got, sym, sizeof(sym), 1);
		snprintf(tg, sizeof(tg), "0x%016llx (%s)", (unsigned long long)got,
			 strncmp(sym, "0x", 2) ? sym : "no function there");
	} else if (!rv_decode(a, aat, &ia) && ia.op == RV_OP_AUIPC) {
		snprintf(tg, sizeof(tg), "?");
	} else {
		/* a NOP ran where the AUIPC had to: t0 is what it was; the
		 * CPU's next fault, if it took one, is where that led */
		size_t nx;
		const struct exec_violation *xv = exec_violations(w->ex, &nx);
		struct rv_insn ij;
		const struct exec_violation *fault = NULL;

		for (size_t i = 0; i < nx && !fault; i++)
			if (xv[i].kind == EXEC_V_FAULT && xv[i].cpu == cpu && xv[i].step >= oj->step)
				fault = &xv[i];
		if (fault && !rv_decode(j, jat, &ij) && ij.op == RV_OP_JALR)
			snprintf(tg, sizeof(tg), "0x%016llx, the stale t0 0x%llx plus %lld (no "
				 "AUIPC set it), where it faults,",
				 (unsigned long long)fault->addr,
				 (unsigned long long)(fault->addr - (uint64_t)ij.imm),
				 (long long)ij.imm);
		else
			snprintf(tg, sizeof(tg), "wherever the stale t0 points (no AUIPC set it)");
	}
	if (want)
		sim_symbolize(w->as, want, tw, sizeof(tw), 1);
	else
		snprintf(tw, sizeof(tw), "nowhere");
	world_add_violation(w, "pair-hazard", cpu, step,
			    "cpu%d executed the call pair at %s across two generations of the "
			    "site: 0x%08x (%s) from %s at step %llu, then JALR 0x%08x (%s) "
			    "from %s at step %llu, whose own AUIPC is 0x%08x (%s): both words "
			    "changed between the CPU's two fetches, and the call jumps to "
			    "%s instead of 0x%016llx (%s)",
			    cpu, site, a, da, sa, (unsigned long long)oa->step, j, dj, sj,
			    (unsigned long long)oj->step, partner, dp, tg,
			    (unsigned long long)want, tw);
}

/* The executor's EXEC_V_PAIR: an AUIPC of one generation, or the NOP of a
 * disabled site, then a JALR of another. */
static void explain_pair(struct world *w, const struct exec_violation *v)
{
	size_t nobs;
	const struct exec_obs *obs = exec_observations(w->ex, &nobs);
	long oj = -1, oa;

	for (long i = (long)nobs - 1; i >= 0 && oj < 0; i--)
		if (obs[i].kind == EXEC_OBS_FETCH && obs[i].cpu == v->cpu &&
		    obs[i].addr == v->addr && obs[i].step <= v->step)
			oj = i;
	oa = oj >= 0 ? last_fetch(obs, oj, v->cpu, v->addr - 4) : -1;
	if (oj < 0 || oa < 0) {
		/* the observations were dropped (record_max): say what the
		 * executor saw */
		world_add_violation(w, "pair-hazard", v->cpu, v->step, "%s", v->msg);
		return;
	}
	report_mixed(w, v->cpu, v->step, &obs[oa], &obs[oj]);
}

/* struct world_archdesc.explain: incremental, a world may ask during the
 * run (stop_early) and again at the end. */
void riscv64_explain_pairs(struct world *w)
{
	size_t n;
	const struct exec_violation *v = exec_violations(w->ex, &n);

	for (size_t i = w->run.xv_explained; i < n; i++)
		if (v[i].kind == EXEC_V_PAIR && v[i].cpu >= 0)
			explain_pair(w, &v[i]);
	w->run.xv_explained = n;
}
