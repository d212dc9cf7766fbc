/* The state of a run of exec_verify's walk, hashed for stateful DPOR
 * (exec_state.h, xst_hash_walk; exec_dpor_state.h says how it is used):
 * what xst_hash covers, plus what an executor with plans keeps, plus the
 * caller's own state through exec_set_state_fn.
 *
 * Hashed beyond xst_hash:
 *  - each CPU's run state the loop and the plans read: its quiescent
 *    point's bookkeeping (asleep, parked at it, counted at the park), the
 *    window and quiet-fetch state of its turn, tail_left;
 *  - the plans: the queue (how many, the lowest unfinished one, each
 *    agent's current one), each plan's progress (next step, its grace
 *    period's wait: begun, the CPUs it waited for, and for each CPU
 *    whether it has passed a quiescent point since: qs_count <=
 *    qs_snap, the only way the counts are read), a live plan's read
 *    and the steps it led to, its result; each agent's pending cache
 *    maintenance, stop_machine(), the locks and the patch window;
 *  - the ranges the plans freed (xmodel.fr);
 *  - the arch's fetch checks' state (xarch.ctx_words: riscv64's last
 *    word each CPU fetched);
 *  - the caller's words (exec_state_word) and step numbers
 *    (exec_state_step): a step number is hashed by its rank among the
 *    state's step numbers, 0 and the current step (the executor's
 *    count): the checks only compare them with each other and with later
 *    steps (check.c: touched_since, last_plan_end), and ranks keep every
 *    such comparison while states reached by schedules of different
 *    lengths merge.
 * Not hashed, as they do not change the future: the step counters
 * themselves (log.step, stats.steps; a CPU's qs_count but as above; its
 * qs_step, exec_cpu_last_qs, is the caller's to hash if it reads it), write ids (writes are hashed by what they are, exec_state.h),
 * the trace, observations and the timeline (read only to word a violation
 * message), statistics. Not hashable, so never cut or kept: a run with a
 * violation recorded (its checks have begun to report; exec or the
 * caller's), held-back drains or CPUs (exec_config.drain_hold, cpu_hold,
 * window_hold), an arch fetch-check context without ctx_words and
 * executors without a snapshot. */
#include "executor/exec_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

void exec_set_state_fn(struct ftv_exec *ex, exec_state_fn fn, void *arg)
{
	ex->state_fn = fn;
	ex->state_arg = arg;
}

void exec_set_state_trace(struct ftv_exec *ex, FILE *out)
{
	ex->state_trace = out;
	ex->state_trace_k = 0;
}

static void push(struct exec_state_sink *s, uint64_t kind, uint64_t w)
{
	/* (the capacity checked here first: a word is pushed some hundred
	 * times a node, and the call was 2% of a stateful walk) */
	if (s->n + 2 > s->cap && VEC_RESERVE(s->w, s->cap, s->n + 2)) {
		s->bad = 1;
		return;
	}
	s->w[s->n++] = kind;
	s->w[s->n++] = w;
}

void exec_state_word(struct exec_state_sink *s, uint64_t w)
{
	push(s, 0, w);
}

void exec_state_step(struct exec_state_sink *s, uint64_t step)
{
	push(s, 1, step);
}

void exec_state_since(struct exec_state_sink *s, uint64_t step)
{
	push(s, 2, step);
}

void exec_state_unhashable(struct exec_state_sink *s)
{
	s->bad = 1;
}

unsigned exec_state_cpu(const struct exec_state_sink *s, unsigned j)
{
	return s->sym ? s->sym->pinv[j] : j;
}

int exec_state_cpu_pos(const struct exec_state_sink *s, int cpu)
{
	return s->sym && cpu >= 0 && (unsigned)cpu < s->sym->n ? s->sym->pi[cpu] : cpu;
}

uint64_t exec_state_reloc(const struct exec_state_sink *s, uint64_t v)
{
	return s->sym ? xsym_reloc(s->sym, v) : v;
}

/* A mask of CPUs, each bit at its CPU's canonical position. */
static uint64_t cpu_mask(const struct exec_state_sink *s, uint64_t m, unsigned ncpus)
{
	uint64_t out = 0;

	if (!s->sym)
		return m;
	for (unsigned c = 0; c < ncpus; c++)
		if (m >> c & 1)
			out |= 1ULL << exec_state_cpu_pos(s, (int)c);
	return out;
}

static void plans_words(struct exec_state_sink *s, const struct ftv_exec *ex)
{
	const struct xplans *ps = &ex->plans;

	exec_state_word(s, ps->n);
	exec_state_word(s, ps->cur);
	for (int a = 0; a < PLAN_AGENTS; a++) {
		exec_state_word(s, ps->acur[a]);
		exec_state_word(s, ps->pend[a].n);
		for (size_t k = 0; k < ps->pend[a].n; k++) {
			const struct xpend *p = &ps->pend[a].v[k];

			exec_state_word(s, p->addr);
			exec_state_word(s, p->idx);
			exec_state_word(s, (uint64_t)p->ic << 1 | (uint64_t)p->dmb_done);
		}
	}
	exec_state_word(s, (uint64_t)ps->stop_machine);
	for (int k = 0; k < XP_LOCKS; k++) {
		exec_state_word(s, ps->lock_id[k]);
		exec_state_word(s, (uint64_t)(int64_t)ps->lock_owner[k]);
	}
	exec_state_word(s, (uint64_t)ps->win_mapped);
	if (ps->win_mapped) {
		exec_state_word(s, ps->win_page);
		exec_state_word(s, (uint64_t)(uint32_t)ps->win_agent << 32 |
					   (uint32_t)ps->win_plan);
		exec_state_word(s, (uint64_t)(int64_t)ps->win_step);
	}
	for (size_t i = 0; i < ps->n; i++) {
		const struct xplan *xp = &ps->v[i];

		exec_state_word(s, xp->next);
		exec_state_word(s, (uint64_t)xp->res.status << 32 | (uint32_t)xp->res.step);
		exec_state_word(s, (uint64_t)xp->waiting << 1 | (uint64_t)xp->read_done);
		if (xp->waiting) {
			uint64_t passed = 0;

			exec_state_word(s, cpu_mask(s, xp->qs_block, ps->ncpus));
			for (unsigned c = 0; c < ps->ncpus; c++)
				if (ps->cpu[c].qs_count > xp->qs_snap[c])
					passed |= 1ULL << c;
			exec_state_word(s, cpu_mask(s, passed, ps->ncpus));
		}
		if (xp->live) {
			exec_state_word(s, xp->found);
			exec_state_word(s, xp->p.n);
			for (size_t k = 0; k < xp->p.n; k++) {
				const struct plan_step *st = &xp->p.steps[k];

				exec_state_word(s, (uint64_t)st->op << 32 | st->rsize);
				exec_state_word(s, st->addr);
				exec_state_word(s, st->old);
				exec_state_word(s, st->new);
				exec_state_word(s, st->len);
				exec_state_word(s, st->raddr);
			}
		}
	}
}

static void cpus_words(struct exec_state_sink *s, const struct ftv_exec *ex)
{
	for (unsigned j = 0; j < ex->cfg.ncpus; j++) {
		const struct xcpu *p = &ex->cpu[exec_state_cpu(s, j)];

		exec_state_word(s, (uint64_t)p->asleep | (uint64_t)p->parked_qs << 1 |
					   (uint64_t)p->qs_counted << 2 |
					   (uint64_t)p->in_window << 3 |
					   (uint64_t)p->window_stop << 4);
		exec_state_word(s, (uint64_t)p->quiet_left << 32 | p->tail_left);
	}
	exec_state_word(s, ex->model.nfree);
	for (size_t i = 0; i < ex->model.nfree; i++) {
		exec_state_word(s, ex->model.fr[i].lo);
		exec_state_word(s, ex->model.fr[i].hi);
		exec_state_word(s, (uint64_t)ex->model.fr[i].text);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The rank of v among the sorted distinct r[0..n). */
static uint64_t rank(const uint64_t *r, size_t n, uint64_t v)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (r[mid] < v)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int xst_hash_walk(struct ftv_exec *ex, uint64_t h[2])
{
	struct exec_state_sink *s = &ex->state_sink;
	uint64_t base[2], *r, acc[2];
	size_t nr = 0, k = 0;

	if (!ex->state_fn || ex->log.nviol || ex->cfg.drain_hold ||
	    ex->cfg.cpu_hold || ex->cfg.window_hold || !ex->eng.snap ||
	    (ex->model.arch_ctx && !ex->arch->ctx_words))
		return 0;
	s->n = 0;
	s->bad = 0;
	s->sym = NULL;
	if (ex->sym.on) {
		/* the canonical order (exec_sym.h) */
		xsym_choose(ex);
		s->sym = &ex->sym;
	}
	if (ex->model.arch_ctx)
		ex->arch->ctx_words(ex->model.arch_ctx, ex->cfg.ncpus, &ex->log, s);
	plans_words(s, ex);
	cpus_words(s, ex);
	ex->state_fn(ex, s, ex->state_arg);
	if (s->bad)
		return 0;
	/* the step numbers' ranks (with 0 and now) */
	if (VEC_RESERVE(s->w, s->cap, s->n + s->n / 2 + 2))
		return 0;
	r = s->w + s->n;
	r[nr++] = 0;
	r[nr++] = ex->stats.steps;
	for (size_t i = 0; i < s->n; i += 2)
		if (s->w[i] == 1)
			r[nr++] = s->w[i + 1];
	qsort(r, nr, sizeof(*r), cmp_u64);
	for (size_t i = 0; i < nr; i++)
		if (!k || r[k - 1] != r[i])
			r[k++] = r[i];
	for (size_t i = 0; i < s->n; i += 2) {
		uint64_t v = s->w[i + 1], at;

		if (s->w[i] == 1) {
			s->w[i + 1] = rank(r, k, v);
		} else if (s->w[i] == 2) {
			at = rank(r, k, v);
			s->w[i + 1] = 2 * at + (at < k && r[at] == v);
		}
	}
	xst_hash_sym(ex, s->sym, base);
	xst_hash_words(s->w, s->n, acc);
	h[0] = base[0] ^ acc[0];
	h[1] = base[1] + acc[1];
	return 1;
}

void xst_trace(struct ftv_exec *ex, unsigned agent)
{
	unsigned n = ex->cfg.ncpus;
	uint64_t h[2];
	char who[16], hash[40] = "-";

	if (agent < n)
		snprintf(who, sizeof(who), "cpu%u", agent);
	else
		snprintf(who, sizeof(who), "%s", agent == XS_PATCHER(n) ? "patcher"
					   : agent == XS_PATCHER_TEXT(n) ? "text" : "sbuf");
	if (xst_hash_walk(ex, h))
		snprintf(hash, sizeof(hash), "%016llx%016llx", (unsigned long long)h[0],
			 (unsigned long long)h[1]);
	/* (one write: the line stays whole beside the report) */
	fprintf(ex->state_trace, "state %llu %s %s%s\n",
		(unsigned long long)ex->state_trace_k++, who, hash,
		ex->sym.on && ex->sym.tie ? " tie" : "");
}
