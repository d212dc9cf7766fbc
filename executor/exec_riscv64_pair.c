/* The RISC-V call-pair hazard: a call site is two words,
 * `auipc t0, hi` at A-4 and `jalr t0, lo(t0)` at A. Ziccif makes each word's
 * fetch atomic but nothing orders the two fetches, and a hart may be
 * preempted (or stopped by stop_machine()) between them for as long as the
 * scheduler likes. If the site is rewritten meanwhile (the pre-6.16 "pair"
 * scheme rewrites both words), the hart executes an AUIPC of one
 * generation with a JALR of another and jumps to hi_old + lo_new.
 *
 * The check, on every fetch of a JALR at a watched word A: if the same CPU
 * executed the word at A-4 (also watched) immediately before, and that was
 * an AUIPC whose rd is the JALR's rs1 (or a word that falls through, such
 * as the NOP of a disabled site, while the JALR's partner is such an
 * AUIPC), what it executed must be the word the JALR was written to pair
 * with: the newest write to A-4 by the JALR's plan or any earlier plan (the
 * initial contents if none), i.e. what coherent memory held at A-4 once
 * that plan had written everything. The 6.16 "atomic"
 * scheme writes the AUIPC once (ftrace_init_nop) and then toggles only the
 * JALR word, so it never fires there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/riscv.h"
#include "executor/exec_model.h"
#include "executor/exec_report.h"
#include "executor/exec_riscv64.h"
#include "util/vec.h"

/* The last watched word a CPU fetched. */
struct rv_prev {
	int ok;
	uint64_t addr;
	uint32_t val;
	int wid;
};

/* Per watched JALR word (winsn.id): the partner of its JALR write wid. */
struct rv_partner {
	int ok;
	int wid, partner;
};

struct rv_pair {
	struct rv_prev prev[EXEC_MAX_CPUS];
	struct rv_partner *cache;
	size_t cap;
};

void *xrv_pair_new(void)
{
	return calloc(1, sizeof(struct rv_pair));
}

void xrv_pair_free(void *ctx)
{
	struct rv_pair *p = ctx;

	free(p->cache);
	free(p);
}

void xrv_pair_reset(void *ctx)
{
	struct rv_pair *p = ctx;

	for (unsigned c = 0; c < EXEC_MAX_CPUS; c++)
		p->prev[c].ok = 0;
	if (p->cache)
		memset(p->cache, 0, p->cap * sizeof(*p->cache));
}

/* What each CPU fetched last (the cache is a memo of the log, no state):
 * the word, and the write by what it is. */
void xrv_pair_words(void *ctx, unsigned ncpus, const struct xlog *log,
		    struct exec_state_sink *s)
{
	const struct rv_pair *p = ctx;

	/* (in the canonical order of the CPUs under symmetry, a CPU named
	 * by its position, an address moved: exec_sym.h) */
	for (unsigned j = 0; j < ncpus && j < EXEC_MAX_CPUS; j++) {
		const struct rv_prev *v = &p->prev[exec_state_cpu(s, j)];
		const struct exec_write *x;

		exec_state_word(s, (uint64_t)v->ok);
		if (!v->ok)
			continue;
		exec_state_word(s, exec_state_reloc(s, v->addr));
		exec_state_word(s, v->val);
		if (v->wid < 0 || (size_t)v->wid >= log->nwr) {
			exec_state_word(s, ~0ULL);
			continue;
		}
		x = &log->wr[v->wid];
		exec_state_word(s, exec_state_reloc(s, x->addr));
		exec_state_word(s, exec_state_reloc(s, x->val));
		exec_state_word(s, (uint64_t)x->size << 32 |
					   (uint32_t)exec_state_cpu_pos(s, x->cpu));
		exec_state_word(s, (uint64_t)(uint32_t)x->plan << 32 | (uint32_t)x->step);
	}
}

/* The write to the AUIPC word a4 that the JALR write `wid` (at w) was made
 * to pair with. Writes are issued in plan order and, per word, in
 * coherence order, so the newest one by plan <= the JALR's is the last
 * such in issue order, buffered or not. Cached per JALR word once the
 * JALR's plan has finished (no later write can change the answer): a site
 * runs the same JALR many times. */
static int partner_write(struct rv_pair *pp, const struct xlog *log,
			 struct winsn *w, struct winsn *a4, int wid)
{
	int plan = log->wr[wid].plan;
	struct rv_partner *c = NULL;

	if (!VEC_RESERVE(pp->cache, pp->cap, w->id + 1))
		c = &pp->cache[w->id]; /* else no cache: the same answer */
	if (c && c->ok && c->wid == wid)
		return c->partner;
	for (size_t i = log->nwr; plan >= 0 && i-- > 0;) {
		const struct exec_write *x = &log->wr[i];

		if (x->addr == a4->addr && x->size == 4 && x->plan >= 0 &&
		    x->plan <= plan) {
			if ((size_t)plan < log->plans_closed && c)
				*c = (struct rv_partner){ 1, wid, (int)i };
			return (int)i;
		}
	}
	return a4->coh[0].wid; /* the initial contents */
}

/* Whether control can only have fallen through from the word at A-4 to A:
 * a 4-byte word, or two 16-bit parcels, none of which may transfer control
 * (RV_CL_JUMP in the encoding table: branches, jumps, SYSTEM, c.j, c.beqz,
 * c.bnez, c.jr, c.jalr, c.ebreak, the illegal zero parcel). */
static int falls_through(uint32_t w)
{
	if ((w & 3) == 3)
		return !(rv_class(w) & RV_CL_JUMP);
	for (int i = 0; i < 2; i++, w >>= 16) {
		if ((w & 3) == 3)
			return 0; /* a 32-bit instruction straddling into A */
		if (rv_class(w) & RV_CL_JUMP)
			return 0;
	}
	return 1;
}

static void pair_check(struct xmodel *m, struct rv_pair *pp, unsigned cpu,
		       struct winsn *w, int wid)
{
	const struct rv_prev *prev = &pp->prev[cpu];
	const struct xlog *log = m->log;
	struct rv_insn jalr, exe, want;
	struct winsn *a4;
	uint64_t rs1 = 0, auipc_pc = w->addr - 4, got_t, want_t;
	uint32_t val = (uint32_t)log->wr[wid].val, wantv;
	char where[128], se[128], sj[128], sw[128], de[160], dj[160], dw[160];
	char intended[96];
	int pw, exe_auipc;

	if (!prev->ok || prev->addr != auipc_pc)
		return;
	if (rv_decode(val, w->addr, &jalr) || jalr.op != RV_OP_JALR)
		return;
	/* A JALR stored by a CPU is no plan's: nothing to pair it with. */
	if (log->wr[wid].plan < 0 && log->wr[wid].cpu >= 0)
		return;
	a4 = xm_insn(m, auipc_pc);
	if (!a4)
		return;
	pw = partner_write(pp, log, w, a4, wid);
	wantv = (uint32_t)log->wr[pw].val;
	if (wantv == prev->val)
		return;
	rs1 = xe_reg(m->eng, cpu, (int)jalr.rs1);
	exe_auipc = !rv_decode(prev->val, auipc_pc, &exe) &&
		    exe.op == RV_OP_AUIPC;
	if (exe_auipc) {
		/* "Immediately before": rs1 is that AUIPC's rd and still
		 * holds what it computed (an AUIPC falls through to A). */
		if (exe.rd != jalr.rs1 || exe.rd == 0 ||
		    rs1 != auipc_pc + (uint64_t)(exe.imm * 4096))
			return;
	} else {
		/* It ran what was there before the AUIPC (the NOPs of a
		 * disabled site) and fell through into a JALR that consumes
		 * an AUIPC result it never computed. A function's second
		 * word is no branch target, so the last watched fetch at A-4
		 * means it came from there. */
		if (!falls_through(prev->val) ||
		    rv_decode(wantv, auipc_pc, &want) ||
		    want.op != RV_OP_AUIPC || want.rd != jalr.rs1)
			return;
	}
	got_t = (rs1 + (uint64_t)jalr.imm) & ~1ULL;
	if (!rv_decode(wantv, auipc_pc, &want) && want.op == RV_OP_AUIPC) {
		want_t = (auipc_pc + (uint64_t)(want.imm * 4096) +
			  (uint64_t)jalr.imm) & ~1ULL;
		snprintf(intended, sizeof(intended), "0x%llx",
			 (unsigned long long)want_t);
	} else {
		snprintf(intended, sizeof(intended),
			 "none (the JALR's partner is no AUIPC)");
	}
	sim_symbolize(m->as, w->addr, where, sizeof(where), 0);
	m->arch->word(prev->val, auipc_pc, se, sizeof(se));
	m->arch->word(val, w->addr, sj, sizeof(sj));
	m->arch->word(wantv, auipc_pc, sw, sizeof(sw));
	xr_write_desc(log, prev->wid, de, sizeof(de));
	xr_write_desc(log, wid, dj, sizeof(dj));
	xr_write_desc(log, pw, dw, sizeof(dw));
	xl_violation(m->log, EXEC_V_PAIR, (int)cpu, w->addr,
		     "pair: cpu%u step %llu executed %s from %s, then fetched %s at %s from %s, "
		     "which was written to pair with %s from %s: the call mixes two generations "
		     "of the site and jumps to 0x%llx instead of %s",
		     cpu, (unsigned long long)log->step, se, de, sj, where,
		     dj, sw, dw, (unsigned long long)got_t, intended);
}

void xrv_pair_fetched(struct xmodel *m, unsigned cpu, struct winsn *w,
		      int wid)
{
	struct rv_pair *pp = m->arch_ctx;

	pair_check(m, pp, cpu, w, wid);
	pp->prev[cpu] = (struct rv_prev){ 1, w->addr,
					  (uint32_t)m->log->wr[wid].val, wid };
}
