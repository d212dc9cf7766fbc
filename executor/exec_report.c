/* Writes and data locations as violations and traces name them
 * (exec_report.h). */
#include "executor/exec_report.h"

#include <stdio.h>

void xr_write_desc(const struct xlog *l, int wid, char *buf, size_t n)
{
	const struct exec_write *w = xl_write_get(l, wid);

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

void xr_data_where(struct sim_aspace *as, uint64_t addr, char *buf, size_t n)
{
	const struct sim_symbol *s = sim_sym_at(as, addr);

	if (!s) {
		s = sim_sym_at(as, addr + 8);
		if (s && s->addr == addr + 8) {
			snprintf(buf, n, "%s-0x8", s->name);
			return;
		}
	}
	sim_symbolize(as, addr, buf, n, 0);
}
