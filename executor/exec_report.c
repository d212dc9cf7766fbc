/* Words and writes as violations print them. Disassembly and the CMODX
 * classification come from the encoders (the project's one table of
 * encodings). */
#include "executor/exec_int.h"
#include "encoders/a64.h"

#include <stdio.h>

void xr_insn(uint32_t w, uint64_t pc, char *buf, size_t n)
{
	char d[A64_TEXT_MAX];

	if (a64_disasm(w, pc, d, sizeof(d)) > 0)
		snprintf(buf, n, "%08x (%s)", w, d);
	else
		snprintf(buf, n, "%08x", w);
}

/* 1: both words are on the Arm ARM B2.2.5 list, 0: not. */
int xr_cmodx_safe(uint32_t old, uint32_t new)
{
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
