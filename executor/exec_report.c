/* Words and writes as violations print them. Disassembly and the CMODX
 * classification come from the encoders (branch enc: a64_disasm,
 * a64_cmodx_safe: the project's one table of encodings); they are weak
 * references so the executor links before that part is merged. */
#include "executor/exec_int.h"

#include <stdio.h>

int a64_disasm(uint32_t word, uint64_t pc, char *buf, size_t n)
	__attribute__((weak));
int a64_cmodx_safe(uint32_t old, uint32_t new) __attribute__((weak));

void xr_insn(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[96];

	d[0] = 0;
	if (a64_disasm)
		a64_disasm(w, pc, d, sizeof(d));
	if (d[0])
		snprintf(buf, n, "%08x (%s)", w, d);
	else
		snprintf(buf, n, "%08x", w);
}

/* 1 safe, 0 not on the Arm ARM B2.2.5 list, -1 no classifier linked. */
int xr_cmodx_safe(uint32_t old, uint32_t new)
{
	if (!a64_cmodx_safe)
		return -1;
	return a64_cmodx_safe(old, new) ? 1 : 0;
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
