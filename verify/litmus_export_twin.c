/* The --litmus-fixed twin of a world whose corrected build has no site to
 * trace (litmus_export.h, litmus_export_skipped_twin). */
#include "verify/litmus_export.h"

#include <stdlib.h>

#include "verify/world_int.h"

/* 1 if record rec's ops literal, as some step of p writes it, is not
 * 8-byte aligned. */
static int misaligned_rec(const struct world *w, int rec)
{
	for (size_t i = 0; i < w->nplans; i++)
		for (size_t k = 0; k < w->plans[i].plan.n; k++) {
			const struct plan_step *s = &w->plans[i].plan.steps[k];

			if (s->rec == rec && s->op == PLAN_WRITE_DATA64 && (s->addr & 7))
				return 1;
		}
	return 0;
}

/* The corrected backend makes no record of a site whose ops literal it
 * cannot align: ftrace_call_adjust() (arch/arm64/kernel/ftrace.c) warns
 * "Misaligned patch-site" and returns 0, and patcher/arm64.c's
 * arm64_site_usable() refuses it the same way; so its sequence never
 * writes there and the CPU keeps running the NOP ftrace_init_nop() left.
 * The twin's plans are w's, each without the steps of such a record (the
 * rest, the ops and its lists, stays as it is). */
struct world *litmus_export_skipped_twin(const struct world *w)
{
	struct world *t;
	int skipped = 0;

	if (w->ad->arch != FTV_ARCH_ARM64 || !(t = calloc(1, sizeof(*t))))
		return NULL;
	t->ad = w->ad;
	t->plans = calloc(w->nplans ? w->nplans : 1, sizeof(*t->plans));
	if (!t->plans) {
		free(t);
		return NULL;
	}
	for (size_t i = 0; i < w->nplans; i++) {
		const struct plan *p = &w->plans[i].plan;

		t->plans[i].id = w->plans[i].id;
		plan_init(&t->plans[i].plan);
		t->nplans++;
		for (size_t k = 0; k < p->n; k++) {
			if (p->steps[k].rec >= 0 && misaligned_rec(w, p->steps[k].rec)) {
				skipped = 1;
				continue;
			}
			if (plan_push(&t->plans[i].plan, &p->steps[k])) {
				litmus_export_twin_free(t);
				return NULL;
			}
		}
	}
	if (!skipped) {
		litmus_export_twin_free(t);
		return NULL;
	}
	return t;
}

void litmus_export_twin_free(struct world *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nplans; i++)
		plan_free(&t->plans[i].plan);
	free(t->plans);
	free(t);
}
