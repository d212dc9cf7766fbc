/* The RISC-V call-pair hazard (issue #8): a call site is two words,
 * `auipc t0, hi` at A-4 and `jalr t0, lo(t0)` at A. Ziccif makes each word's
 * fetch atomic but nothing orders the two fetches, and a hart may be
 * preempted (or stopped by stop_machine()) between them for as long as the
 * scheduler likes. If the site is rewritten meanwhile (the pre-6.16 "pair"
 * scheme rewrites both words), the hart executes an AUIPC of one
 * generation with a JALR of another and jumps to hi_old + lo_new.
 *
 * The check, on every fetch of a JALR at a watched word A: if the same CPU
 * executed an AUIPC at A-4 (also watched) immediately before, whose rd is
 * the JALR's rs1, the AUIPC it executed must be the one the JALR was
 * written to pair with: the newest write to A-4 by the JALR's plan or any
 * earlier plan (the initial contents if none), i.e. what coherent memory
 * held at A-4 once that plan had written everything. The 6.16 "atomic"
 * scheme writes the AUIPC once (ftrace_init_nop) and then toggles only the
 * JALR word, so it never fires there. */
#include "executor/exec_int.h"
#include "encoders/riscv.h"

#include <stdio.h>

/* The write to `addr` that a JALR write `wid` was made to pair with. */
static int partner_write(struct ftv_exec *ex, struct winsn *a4, int wid)
{
	int plan = ex->wr[wid].plan, best = a4->coh[0];

	/* Writes to one word are issued in coherence order, and write ids
	 * grow in issue order; buffered ones count (the plan made them). */
	for (size_t i = 0; i < ex->nwr; i++) {
		const struct exec_write *w = &ex->wr[i];

		if (w->addr == a4->addr && w->size == 4 && w->plan >= 0 &&
		    plan >= 0 && w->plan <= plan)
			best = (int)i;
	}
	return best;
}

void xp_pair_check(struct ftv_exec *ex, struct xcpu *c, struct winsn *w,
		   int wid)
{
	struct rv_insn jalr, exe, want;
	struct winsn *a4;
	uint64_t rs1 = 0, auipc_pc = w->addr - 4, got_t, want_t;
	uint32_t val = (uint32_t)ex->wr[wid].val, wantv;
	char where[128], se[128], sj[128], sw[128], de[160], dj[160], dw[160];
	char intended[96];
	int pw;

	if (!c->prev_ok || c->prev_addr != auipc_pc)
		return;
	if (rv_decode(val, w->addr, &jalr) || jalr.op != RV_OP_JALR)
		return;
	if (rv_decode(c->prev_val, auipc_pc, &exe) || exe.op != RV_OP_AUIPC ||
	    exe.rd != jalr.rs1 || exe.rd == 0)
		return;
	/* "Immediately before": rs1 still holds what that AUIPC computed
	 * (an AUIPC is no branch, so its successor is A unless the CPU went
	 * elsewhere and came back, which would have overwritten or kept
	 * this value; an equal value consumes the same high part). */
	uc_reg_read(c->uc, ex->arch->regs[jalr.rs1], &rs1);
	got_t = auipc_pc + (uint64_t)(exe.imm * 4096);
	if (rs1 != got_t)
		return;
	/* A JALR stored by a CPU is no plan's: nothing to pair it with. */
	if (ex->wr[wid].plan < 0 && ex->wr[wid].cpu >= 0)
		return;
	a4 = xm_insn(ex, auipc_pc);
	if (!a4)
		return;
	pw = partner_write(ex, a4, wid);
	wantv = (uint32_t)ex->wr[pw].val;
	if (wantv == c->prev_val)
		return;
	got_t = (got_t + (uint64_t)jalr.imm) & ~1ULL;
	if (!rv_decode(wantv, auipc_pc, &want) && want.op == RV_OP_AUIPC) {
		want_t = (auipc_pc + (uint64_t)(want.imm * 4096) +
			  (uint64_t)jalr.imm) & ~1ULL;
		snprintf(intended, sizeof(intended), "0x%llx",
			 (unsigned long long)want_t);
	} else {
		snprintf(intended, sizeof(intended),
			 "none (the JALR's partner is no AUIPC)");
	}
	sim_symbolize(ex->as, w->addr, where, sizeof(where), 0);
	xr_insn(ex, c->prev_val, auipc_pc, se, sizeof(se));
	xr_insn(ex, val, w->addr, sj, sizeof(sj));
	xr_insn(ex, wantv, auipc_pc, sw, sizeof(sw));
	xr_write_desc(ex, c->prev_wid, de, sizeof(de));
	xr_write_desc(ex, wid, dj, sizeof(dj));
	xr_write_desc(ex, pw, dw, sizeof(dw));
	xc_violation(ex, EXEC_V_PAIR, (int)c->idx, w->addr,
		     "pair: cpu%u step %llu executed AUIPC %s from %s, then fetched JALR %s at %s from %s, "
		     "which was written to pair with AUIPC %s from %s: the call mixes two generations "
		     "of the site and jumps to 0x%llx instead of %s",
		     c->idx, (unsigned long long)ex->step, se, de, sj, where,
		     dj, sw, dw, (unsigned long long)got_t, intended);
}
