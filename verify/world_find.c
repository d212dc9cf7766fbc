/* Finding a world's records, ops and time from what a CPU holds: the
 * lookups every check makes on every tracer call. */
#include "verify/world_int.h"

int world_rec_at_ip(const struct world *w, uint64_t ip)
{
	size_t lo = 0, hi = w->nrecs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (w->recs[mid].ip == ip)
			return (int)mid;
		if (w->recs[mid].ip < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

int world_rec_at_func(const struct world *w, uint64_t func)
{
	/* Every function has one site, so records sorted by ip are sorted by
	 * function too (make_core checks): a kernel's 44k sites need the
	 * binary search on every traced call. */
	if (w->func_sorted) {
		size_t lo = 0, hi = w->nrecs;

		while (lo < hi) {
			size_t mid = (lo + hi) / 2;

			if (w->recs[mid].func == func)
				return (int)mid;
			if (w->recs[mid].func < func)
				lo = mid + 1;
			else
				hi = mid;
		}
		return -1;
	}
	for (size_t i = 0; i < w->nrecs; i++)
		if (w->recs[i].func == func)
			return (int)i;
	return -1;
}

struct wops *world_ops_at(struct world *w, uint64_t addr)
{
	for (size_t i = 0; i < w->nops; i++)
		if (w->ops[i].addr == addr)
			return &w->ops[i];
	return NULL;
}

uint64_t world_step(struct world *w)
{
	return exec_steps(w->ex);
}
