/* Words and writes as violations print them. Disassembly and the CMODX
 * classification come from the encoders (the project's one table of
 * encodings). */
#include "executor/exec_int.h"
#include "encoders/a64.h"
#include "encoders/riscv.h"

#include <stdio.h>

void xr_a64_insn(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[A64_TEXT_MAX];

	if (a64_disasm(w, pc, d, sizeof(d)) > 0)
		snprintf(buf, n, "%08x (%s)", w, d);
	else
		snprintf(buf, n, "%08x", w);
}

/* A 16-bit encoding prints as its 4 hex digits (the parcel that follows it
 * is another instruction). */
void xr_rv_insn(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[96];
	int nb = 4;

	rv_disasm(w, pc, d, sizeof(d), &nb);
	if (nb == 2)
		snprintf(buf, n, "%04x (%s)", w & 0xffffu, d);
	else
		snprintf(buf, n, "%08x (%s)", w, d);
}

/* A watched word whose first half is a 16-bit instruction holds two: the
 * compiler's entry c.nop pairs, "00010001 (c.nop; c.nop)". */
void xr_rv_word(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d0[96], d1[96];
	int nb = 4;

	rv_disasm(w, pc, d0, sizeof(d0), &nb);
	if (nb == 4) {
		snprintf(buf, n, "%08x (%s)", w, d0);
		return;
	}
	rv_disasm(w >> 16, pc + 2, d1, sizeof(d1), &nb);
	if (nb == 2)
		snprintf(buf, n, "%08x (%s; %s)", w, d0, d1);
	else /* a 32-bit instruction starts in the second half */
		snprintf(buf, n, "%08x (%s; ...)", w, d0);
}

void xr_word(struct ftv_exec *ex, uint32_t w, uint64_t pc, char *buf,
	     size_t n)
{
	ex->arch->word(w, pc, buf, n);
}

void xr_insn(struct ftv_exec *ex, uint32_t w, uint64_t pc, char *buf,
	     size_t n)
{
	ex->arch->insn(w, pc, buf, n);
}

/* 1: both words are on the Arm ARM B2.2.5 list, 0: not. */
int xr_a64_cmodx_safe(uint32_t old, uint32_t new)
{
	return a64_cmodx_safe(old, new) ? 1 : 0;
}

/* Ziccif: a naturally aligned 4-byte fetch is single-copy atomic, so a hart
 * fetching a watched word (exec_watch_insn refuses unaligned ones on riscv)
 * sees the whole old or the whole new word, whatever they are. Whether the
 * kernel's scheme only changes the JALR slot (rv_patchable_word_safe) is a
 * property of the sequence, not of the hardware: a mixed AUIPC + JALR is
 * what the pair check reports. */
int xr_rv_cmodx_safe(uint32_t old, uint32_t new)
{
	(void)old;
	(void)new;
	return 1;
}

void xr_write_desc(struct ftv_exec *ex, int wid, char *buf, size_t n)
{
	const struct exec_write *w = exec_write_get(ex, wid);

	if (!w)
		snprintf(buf, n, "write #%d", wid);
	else if (w->plan >= 0)
		snprintf(buf, n, "write #%d (plan %d step %d \"%s\")", wid,
			 w->plan, w->step, w->what ? w->what : "");
	else if (w->cpu >= 0)
		snprintf(buf, n, "write #%d (store by cpu%d)", wid, w->cpu);
	else
		snprintf(buf, n, "write #%d (initial)", wid);
}

void exec_trace_print(struct ftv_exec *ex, FILE *f)
{
	size_t n;
	const struct exec_event *ev = exec_trace(ex, &n);

	for (size_t i = 0; i < n; i++) {
		const struct exec_event *e = &ev[i];
		char who[16], a[128], b[128], w[160];
		const struct exec_write *wr;
		size_t plan, step;

		if (e->agent >= 0)
			snprintf(who, sizeof(who), "cpu%d", e->agent);
		else
			snprintf(who, sizeof(who), "%s",
				 e->agent == -1 ? "patcher" : "sbuf");
		switch (e->kind) {
		case EXEC_EV_CPU:
			sim_symbolize(ex->as, e->a, a, sizeof(a), 0);
			sim_symbolize(ex->as, e->b, b, sizeof(b), 0);
			fprintf(f, "%6llu %-8s run    %s -> %s\n",
				(unsigned long long)e->step, who, a, b);
			break;
		case EXEC_EV_FETCH:
			sim_symbolize(ex->as, e->a, a, sizeof(a), 0);
			xr_word(ex, (uint32_t)e->b, e->a, b, sizeof(b));
			fprintf(f, "%6llu %-8s fetch  %s: %s\n",
				(unsigned long long)e->step, who, a, b);
			break;
		case EXEC_EV_PLAN:
			plan = (size_t)(e->a >> 32);
			step = (size_t)(uint32_t)e->a;
			fprintf(f, "%6llu %-8s plan %zu step %zu: %s",
				(unsigned long long)e->step, who, plan, step,
				plan_op_name((enum plan_op)e->b));
			if (plan < ex->nplans && step < ex->plans[plan].p.n &&
			    ex->plans[plan].p.steps[step].what)
				fprintf(f, " \"%s\"",
					ex->plans[plan].p.steps[step].what);
			fputc('\n', f);
			break;
		case EXEC_EV_DRAIN:
			wr = exec_write_get(ex, (int)e->b);
			sim_symbolize(ex->as, e->a, a, sizeof(a), 0);
			xr_write_desc(ex, (int)e->b, w, sizeof(w));
			fprintf(f, "%6llu %-8s visible %s <- 0x%llx, %s\n",
				(unsigned long long)e->step, who, a,
				(unsigned long long)(wr ? wr->val : 0), w);
			break;
		}
	}
}
