/* The pcs that need attention before they execute (exec_int.h). */
#include "executor/exec_int.h"

#include <stdlib.h>
#include <string.h>

#include "executor/exec_pages.h"
#include "util/vec.h"

struct xspecial *xsp_get(struct xspecials *sp, uint64_t pc,
			 struct ftv_err *err)
{
	struct xspecial *s = xsp_at(sp, pc);
	size_t i;

	if (s)
		return s;
	if (VEC_RESERVE(sp->v, sp->cap, sp->n + 1)) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	for (i = sp->n; i > 0 && sp->v[i - 1].pc > pc; i--)
		sp->v[i] = sp->v[i - 1];
	memset(&sp->v[i], 0, sizeof(sp->v[i]));
	sp->v[i].pc = pc;
	sp->n++;
	xe_mark_pc(sp->eng, pc);
	return &sp->v[i];
}

int xsp_add_break(struct xspecials *sp, uint64_t pc, exec_break_fn fn,
		  void *arg, unsigned flags, struct ftv_err *err)
{
	struct xspecial *s = xsp_get(sp, pc, err);
	struct xbreak b = { fn, arg, flags };

	if (!s)
		return -1;
	if (VEC_PUSH(s->brk, s->nbrk, s->capbrk, b))
		return ftv_errf(err, "out of memory");
	s->flags |= SP_BREAK | (flags & EXEC_BREAK_WINDOW ? SP_WINDOW : 0);
	return 0;
}

/* The word w at addr, if the model acts on it: marked. */
static int classify(struct xspecials *sp, uint64_t addr, uint32_t w, int branches,
		    struct ftv_err *err)
{
	struct xengine *e = sp->eng;
	struct xspecial *s;
	unsigned flag;
	int reg;

	if (w == 0)
		return 0;
	if (e->arch->sysop(w, &reg) != XS_NONE)
		flag = SP_SYSOP;
	else if (branches && e->arch->is_cond_branch && e->arch->is_cond_branch(w))
		flag = SP_BRANCH;
	else
		return 0;
	s = xsp_get(sp, addr, err);
	if (!s)
		return -1;
	s->flags |= flag;
	return 0;
}

int xsp_scan_sysops(struct xspecials *sp, int branches, struct ftv_err *err)
{
	struct xengine *e = sp->eng;

	for (size_t ri = 0; ri < e->nregions; ri++) {
		struct sim_region *r = sim_region_get(e->as, ri);
		uint8_t *nz;

		if (!(r->perms & SIM_X))
			continue;
		nz = malloc(r->size / XPG_SIZE);
		if (!nz)
			return ftv_errf(err, "out of memory");
		xpg_nonzero(r->host, r->size, nz);
		/* Every possible instruction start: a hook at a parcel that
		 * is never executed as one is never called. */
		for (uint64_t off = 0; off + 4 <= r->size;
		     off += e->arch->insn_align) {
			uint64_t pg = off / XPG_SIZE;
			uint32_t w = 0;

			/* Every word wholly inside an all-zero page is 0,
			 * and is not read (a read of a page never written
			 * faults it in: every page of the text regions, on
			 * every executor). A 2-aligned arch's last word
			 * there reaches into the next page: its low half is
			 * 0. */
			if (off % XPG_SIZE == 0 && !nz[pg]) {
				uint64_t last = off + XPG_SIZE - 2;

				if (e->arch->insn_align < 4 && last + 4 <= r->size &&
				    nz[pg + 1]) {
					uint16_t hi;

					memcpy(&hi, r->host + last + 2, 2);
					w = (uint32_t)hi << 16;
				}
				off += XPG_SIZE - e->arch->insn_align;
				if (w && classify(sp, r->base + last, w, branches, err)) {
					free(nz);
					return -1;
				}
				continue;
			}
			memcpy(&w, r->host + off, 4);
			if (classify(sp, r->base + off, w, branches, err)) {
				free(nz);
				return -1;
			}
		}
		free(nz);
	}
	return 0;
}

void xsp_free(struct xspecials *sp)
{
	for (size_t i = 0; i < sp->n; i++)
		free(sp->v[i].brk);
	free(sp->v);
}
