/* Explaining the RISC-V call-pair hazard (issue #8, seed 002). The executor
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

/* Where AUIPC a (at pc) then JALR j land, or 0 if they are no such pair. */
static uint64_t pair_target(uint32_t a, uint32_t j, uint64_t pc)
{
	struct rv_insn ia, ij;

	if (rv_decode(a, pc, &ia) || ia.op != RV_OP_AUIPC || rv_decode(j, pc + 4, &ij) ||
	    ij.op != RV_OP_JALR)
		return 0;
	return (pc + (uint64_t)(ia.imm * 4096) + (uint64_t)ij.imm) & ~1ULL;
}

static void explain_pair(struct world *w, const struct exec_violation *v)
{
	size_t nobs;
	const struct exec_obs *obs = exec_observations(w->ex, &nobs);
	uint64_t jat = v->addr, aat = v->addr - 4;
	long oj = -1, oa;
	const struct exec_write *wa, *wj;
	uint32_t a, j, partner;
	uint64_t got, want;
	char site[160], da[96], dj[96], dp[96], sa[200], sj[200], tg[160], tw[160];

	for (long i = (long)nobs - 1; i >= 0 && oj < 0; i--)
		if (obs[i].kind == EXEC_OBS_FETCH && obs[i].cpu == v->cpu && obs[i].addr == jat &&
		    obs[i].step <= v->step)
			oj = i;
	oa = oj >= 0 ? last_fetch(obs, oj, v->cpu, aat) : -1;
	if (oj < 0 || oa < 0) {
		/* the observations were dropped (record_max): say what the
		 * executor saw */
		world_add_violation(w, "pair-hazard", v->cpu, v->step, "%s", v->msg);
		return;
	}
	wa = exec_write_get(w->ex, obs[oa].wid[0]);
	wj = exec_write_get(w->ex, obs[oj].wid[0]);
	a = (uint32_t)obs[oa].val;
	j = (uint32_t)obs[oj].val;
	partner = partner_auipc(w, aat, wj);
	rv_disasm(a, aat, da, sizeof(da), NULL);
	rv_disasm(j, jat, dj, sizeof(dj), NULL);
	rv_disasm(partner, aat, dp, sizeof(dp), NULL);
	write_desc(w, wa, sa, sizeof(sa));
	write_desc(w, wj, sj, sizeof(sj));
	got = pair_target(a, j, aat);
	want = pair_target(partner, j, aat);
	sim_symbolize(w->as, jat, site, sizeof(site), 1);
	if (got)
		sim_symbolize(w->as, got, tg, sizeof(tg), 1);
	else
		snprintf(tg, sizeof(tg), "?");
	if (want)
		sim_symbolize(w->as, want, tw, sizeof(tw), 1);
	else
		snprintf(tw, sizeof(tw), "nowhere");
	world_add_violation(w, "pair-hazard", v->cpu, v->step,
			    "cpu%d executed the call pair at %s across two generations of the "
			    "site: AUIPC 0x%08x (%s) from %s at step %llu, then JALR 0x%08x (%s) "
			    "from %s at step %llu, whose own AUIPC is 0x%08x (%s); the CPU was "
			    "between the two words while both were rewritten, and jumps to "
			    "0x%016llx (%s) instead of 0x%016llx (%s)",
			    v->cpu, site, a, da, sa, (unsigned long long)obs[oa].step, j, dj, sj,
			    (unsigned long long)obs[oj].step, partner, dp,
			    (unsigned long long)got, tg, (unsigned long long)want, tw);
}

void world_explain_riscv(struct world *w)
{
	size_t n;
	const struct exec_violation *v = exec_violations(w->ex, &n);

	for (size_t i = 0; i < n; i++)
		if (v[i].kind == EXEC_V_PAIR && v[i].cpu >= 0)
			explain_pair(w, &v[i]);
}

int world_exec_violation_shown(const struct exec_violation *v)
{
	/* a pair violation is reported as the world's pair-hazard */
	return v->kind != EXEC_V_PAIR;
}
