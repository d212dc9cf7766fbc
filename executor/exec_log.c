/* The record of a run (exec_log.h): writes, trace, observations, violations
 * and the trace hash. */
#include "executor/exec_log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/vec.h"

const char *exec_viol_name(enum exec_viol_kind k)
{
	static const char *const n[] = { "torn", "cmodx", "stale-data",
					 "fault", "stuck", "pair", "patch-window",
					 "not-visible" };

	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
}

void xl_init(struct xlog *l, uint64_t record_max, int *oom)
{
	l->record_max = record_max ? record_max : 1ULL << 20;
	l->oom = oom;
}

void xl_free(struct xlog *l)
{
	free(l->wr);
	free(l->ev);
	free(l->obs);
	free(l->viol);
}

void xl_reset(struct xlog *l)
{
	l->nwr = l->nwr_init;
	l->plans_closed = 0;
	l->nev = 0;
	l->nobs = 0;
	l->step = 0;
}

int xl_write(struct xlog *l, uint64_t addr, uint64_t val, unsigned size,
	     int plan, int step, int cpu, const char *what)
{
	struct exec_write w = { addr, val, size, plan, step, cpu, what };

	if (VEC_PUSH(l->wr, l->nwr, l->capwr, w)) {
		*l->oom = 1;
		return -1;
	}
	return (int)l->nwr - 1;
}

const struct exec_write *xl_write_get(const struct xlog *l, int wid)
{
	if (wid < 0 || (size_t)wid >= l->nwr)
		return NULL;
	return &l->wr[wid];
}

void xl_mark_initial(struct xlog *l)
{
	l->nwr_init = l->nwr;
}

void xl_event(struct xlog *l, int agent, enum exec_ev_kind kind, uint64_t a,
	      uint64_t b)
{
	struct exec_event e = { l->step, agent, kind, a, b };

	if (l->nev >= l->record_max) {
		l->dropped++;
		return;
	}
	if (VEC_PUSH(l->ev, l->nev, l->capev, e))
		*l->oom = 1;
}

void xl_obs(struct xlog *l, enum exec_obs_kind kind, int cpu, uint64_t addr,
	    uint64_t val, int w0, int w1)
{
	struct exec_obs o = { kind, cpu, l->step, addr, val, { w0, w1 } };

	if (l->nobs >= l->record_max) {
		l->dropped++;
		return;
	}
	if (VEC_PUSH(l->obs, l->nobs, l->capobs, o))
		*l->oom = 1;
}

void xl_violation(struct xlog *l, enum exec_viol_kind kind, int cpu,
		  uint64_t addr, const char *fmt, ...)
{
	struct exec_violation *v;
	va_list ap;

	/* One report per kind, CPU and address per run is enough to act on. */
	for (size_t i = 0; i < l->nviol; i++)
		if (l->viol[i].kind == kind && l->viol[i].cpu == cpu &&
		    l->viol[i].addr == addr && l->viol[i].run == l->run)
			return;
	if (VEC_RESERVE(l->viol, l->capviol, l->nviol + 1)) {
		*l->oom = 1;
		return;
	}
	v = &l->viol[l->nviol++];
	v->kind = kind;
	v->cpu = cpu;
	v->step = l->step;
	v->addr = addr;
	v->run = l->run;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
}

static uint64_t fnv(uint64_t h, uint64_t v)
{
	for (int i = 0; i < 8; i++) {
		h ^= (v >> (8 * i)) & 0xff;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t xl_hash(const struct xlog *l)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < l->nev; i++) {
		h = fnv(h, l->ev[i].step);
		h = fnv(h, (uint64_t)(int64_t)l->ev[i].agent);
		h = fnv(h, l->ev[i].kind);
		h = fnv(h, l->ev[i].a);
		h = fnv(h, l->ev[i].b);
	}
	for (size_t i = 0; i < l->nobs; i++) {
		h = fnv(h, l->obs[i].addr);
		h = fnv(h, l->obs[i].val);
		h = fnv(h, (uint64_t)l->obs[i].wid[0] << 32 |
				   (uint32_t)l->obs[i].wid[1]);
	}
	return h;
}
