/* exec_verify's prefix restore (exec_verify_config.prefix_restore; the
 * saved states are exec_save.h's).
 *
 * Each run of the walk repeats the run before up to its branch point (the
 * depth xd_next backed up to, xd_depth) and takes a new step there. A
 * run saves the executor's and the caller's state at its branch point,
 * before the pick of the new step; the saves form a stack by depth (in
 * the depth-first order the next branch points lie at or below the last
 * one until the walk backs above it, when the saves below are dropped).
 * A run starts from the deepest save at or above its branch point and
 * replays only the steps between (xd_resume keeps the walk's record of
 * the steps before it: the run before's), instead of resetting and
 * replaying from the first step. An engine recycle (xe_recycle), a walk
 * that starts over (new scheduling points) and a restore that fails drop
 * every save; a state the executor cannot save (xsv_saveable) is not
 * saved, and its runs replay from the reset as without.
 *
 * prefix_check makes every run that could start from a save do both: the
 * save restored and replayed to the branch point, its fingerprint taken
 * there (xsv_fingerprint: every byte the save describes, memory, the
 * caller's fingerprint), then the reset
 * and the replay from the first step as the walk without restores would,
 * whose state at the branch point must have the same fingerprint. (The
 * fingerprint reads all of memory, not only the pages on the dirty lists
 * as xst_hash does: the probe's restore rearms the lists once more than
 * the walk would, and the pages kept writable differ; what the lists
 * hold after a restore is the walks' comparison to show,
 * tests/test_verify_prefix.c.) */
#include "executor/exec_verify_prefix.h"

#include <stdlib.h>
#include <string.h>

#include "executor/exec_int.h"
#include "util/vec.h"

void xpr_init(struct xprefix *p, struct ftv_exec *ex,
	      const struct exec_verify_hooks *h, int on, int check)
{
	memset(p, 0, sizeof(*p));
	p->ex = ex;
	p->h = h;
	p->on = on && h->save && h->restore && xsv_saveable(ex);
	p->check = check;
}

/* Drops the saves deeper than depth: the walk has backed above them. */
static void drop_below(struct xprefix *p, size_t depth)
{
	while (p->n && p->slot[p->n - 1].depth > depth)
		p->n--;
}

void xpr_clear(struct xprefix *p)
{
	p->n = 0;
}

void xpr_free(struct xprefix *p)
{
	for (size_t i = 0; i < p->cap; i++) {
		xsv_free(&p->slot[i].sv);
		if (p->slot[i].world && p->h->drop)
			p->h->drop(p->slot[i].world, p->h->arg);
	}
	free(p->slot);
	xsv_free(&p->tmp);
	memset(p, 0, sizeof(*p));
}

static void fingerprint(struct xprefix *p, struct ftv_exec *ex, uint64_t f[4])
{
	xsv_fingerprint(ex, &p->tmp, f);
	f[3] = p->h->fingerprint ? p->h->fingerprint(ex, p->h->arg) : 0;
}

/* At the top of step `want` (exec_int.h, save_fn). */
static int at_branch(struct ftv_exec *ex, void *arg)
{
	struct xprefix *p = arg;
	struct xpslot *s;

	if (p->probe) {
		/* prefix_check's run from the save: its fingerprint, and
		 * the run ends here */
		fingerprint(p, ex, p->fp);
		p->fp_ok = 1;
		return 1;
	}
	if (p->fp_ok) {
		uint64_t f[4];

		fingerprint(p, ex, f);
		if (f[0] != p->fp[0])
			p->mismatch = 1;
		else if (f[1] != p->fp[1] || f[2] != p->fp[2])
			p->mismatch = 2;
		else if (f[3] != p->fp[3])
			p->mismatch = 3;
		p->fp_ok = 0;
	}
	if (p->n && p->slot[p->n - 1].depth >= ex->save_at)
		return 0;
	if (!xsv_saveable(ex))
		return 0;
	if (VEC_RESERVE(p->slot, p->cap, p->n + 1))
		return 0;
	s = &p->slot[p->n];
	if (xsv_save(ex, &s->sv) || p->h->save(ex, &s->world, p->h->arg))
		return 0;
	s->depth = ex->save_at;
	p->n++;
	return 0;
}

int xpr_start(struct xprefix *p, size_t depth, uint64_t *s0,
	      struct exec_verify_split *sp)
{
	struct ftv_exec *ex = p->ex;
	struct xpslot *s;

	p->probe = 0;
	ex->save_at = UINT64_MAX;
	ex->save_fn = NULL;
	if (!p->on)
		return 0;
	ex->save_at = depth;
	ex->save_fn = at_branch;
	ex->save_arg = p;
	drop_below(p, depth);
	if (!p->n)
		return 0;
	s = &p->slot[p->n - 1];
	if (xsv_restore(ex, &s->sv) || p->h->restore(ex, s->world, p->h->arg)) {
		/* the executor changed under the save: from the reset, and
		 * saves from then on */
		xpr_clear(p);
		return 0;
	}
	*s0 = s->depth;
	sp->restores++;
	p->probe = p->check;
	if (!p->check)
		sp->skipped += s->depth;
	return 1;
}

int xpr_checked(struct xprefix *p, size_t run, struct ftv_err *err)
{
	static const char *const part[] = {
		"the executor's saved state (registers, model, log, plans, store buffers)",
		"memory",
		"the caller's state",
	};
	int m = p->mismatch;

	p->mismatch = 0;
	p->fp_ok = 0;
	if (!m)
		return 0;
	return ftv_errf(err, "prefix restore: run %zu differs at its branch point from the "
			"replay from the reset: %s", run, part[m - 1]);
}
