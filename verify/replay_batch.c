/* The batches of a replay (verify/replay.h): each one a world of its own,
 * run by up to --jobs threads at once. A batch's result depends only on
 * the map, its members and its seed, never on what another batch did or
 * on which thread ran it: the report merges the results in batch order
 * (verify/replay.c), so the output is the same whatever the jobs.
 *
 * What the batches share is read-only while they run, except what the
 * first batch of the run learns (where ftrace_caller is, and so which
 * sites are out of its reach): that one runs alone, before the others
 * start. A site init_nop refuses is found by every world that has its
 * record (all of the kernel's, and the batch's modules'), so each batch
 * leaves out the sites its own world refused; the report collects the
 * refusals batch after batch. */
#include "verify/replay_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "verify/mutant.h"

/* A thread's buffers for the batches it runs. */
struct replay_scratch {
	unsigned char *active;     /* per map record: a member */
	unsigned char *refused;    /* per map record: refused by init_nop */
	unsigned char *bactive;    /* per world record: a member */
	unsigned char *mod_loaded; /* per module: loaded in the world */
	struct sim_site *bsites;   /* the world's records */
	uint64_t *ips;
	size_t nbsites;
	int world_modules;
};

static void scratch_free(struct replay_scratch *s)
{
	free(s->active);
	free(s->refused);
	free(s->bactive);
	free(s->mod_loaded);
	free(s->bsites);
	free(s->ips);
	memset(s, 0, sizeof(*s));
}

static int scratch_init(struct replay_scratch *s, const struct replay_map *m,
			struct ftv_err *err)
{
	size_t n = m->nsites ? m->nsites : 1;

	memset(s, 0, sizeof(*s));
	s->active = calloc(n, 1);
	s->refused = calloc(n, 1);
	s->bactive = calloc(n, 1);
	s->mod_loaded = calloc(m->place.nmods ? m->place.nmods : 1, 1);
	s->bsites = calloc(n, sizeof(*s->bsites));
	s->ips = calloc(n, sizeof(*s->ips));
	if (!s->active || !s->refused || !s->bactive || !s->mod_loaded ||
	    !s->bsites || !s->ips) {
		scratch_free(s);
		return ftv_errf(err, "out of memory");
	}
	return 0;
}

/* The record whose ip is ip (sites are in layout order: by address). */
long replay_site_at_ip(const struct replay_map *m, uint64_t ip)
{
	size_t lo = 0, hi = m->nsites;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (m->sites[mid].addr == ip)
			return (long)mid;
		if (m->sites[mid].addr < ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/* The first world tells where ftrace_caller landed, which is the same in
 * every world of the run. */
static void learn_caller(struct replay_batches *bs, struct world *w)
{
	struct replay_map *m = bs->m;

	bs->caller = w->caller;
	bs->have_caller = 1;
	/* ftrace_find_callable_addr(): out of BL range of ftrace_caller, a
	 * module's site calls its module's PLT, if that is in range. */
	for (size_t i = 0; i < m->nsites; i++) {
		size_t li = m->site_of[i];
		const struct sim_site *s = &m->sites[i];

		if (m->status[li] != RS_OK || m->rd->call_reaches(s->addr, w->caller))
			continue;
		if (s->module && s->plt && m->rd->call_reaches(s->addr, s->plt))
			bs->via_plt++;
		else
			m->status[li] = s->module ? RS_MODULE : RS_RANGE;
	}
}

/* The records of the batch's world: the kernel's, and those of every
 * module the batch has sites of (the modules loaded in that world); the
 * others' modules are not loaded there. */
static void batch_records(struct replay_scratch *x, const struct replay_map *m,
			  const size_t *members, size_t n)
{
	memset(x->active, 0, m->nsites ? m->nsites : 1);
	memset(x->mod_loaded, 0, m->place.nmods ? m->place.nmods : 1);
	for (size_t i = 0; i < n; i++) {
		int mi = m->mod_of[m->site_of[members[i]]];

		x->active[members[i]] = 1;
		if (mi >= 0)
			x->mod_loaded[mi] = 1;
	}
	x->nbsites = 0;
	x->world_modules = 0;
	for (size_t i = 0; i < m->nsites; i++) {
		int mi = m->mod_of[m->site_of[i]];

		if (mi >= 0 && !x->mod_loaded[mi])
			continue;
		x->world_modules |= mi >= 0;
		x->bsites[x->nbsites] = m->sites[i];
		x->bactive[x->nbsites++] = x->active[i];
	}
}

/* The sites init_nop refused in this world, kept for the report and
 * marked so that the batch leaves them out. */
static int keep_boot_failures(struct replay_scratch *x, const struct replay_map *m,
			      struct world *w, struct replay_batch_result *r,
			      struct ftv_err *err)
{
	const struct world_boot_failure *bf;
	size_t nbf = world_boot_failures(w, &bf);

	memset(x->refused, 0, m->nsites ? m->nsites : 1);
	if (!nbf)
		return 0;
	r->bf = malloc(nbf * sizeof(*r->bf));
	if (!r->bf)
		return ftv_errf(err, "out of memory");
	memcpy(r->bf, bf, nbf * sizeof(*r->bf));
	r->nbf = nbf;
	for (size_t i = 0; i < nbf; i++) {
		long si = replay_site_at_ip(m, bf[i].ip);

		if (si >= 0)
			x->refused[si] = 1;
	}
	return 0;
}

static int plans_done(const struct world *w)
{
	for (size_t i = 0; i < w->nplans; i++)
		if (!w->run.plan[i].done)
			return 0;
	return 1;
}

/* Batch b: records members[0..n-1] of the map (sites[] indices). */
static int run_batch(struct replay_batches *bs, struct replay_scratch *x,
		     size_t b, const size_t *members, size_t n,
		     struct replay_batch_result *r, struct ftv_err *err)
{
	const struct replay_config *c = bs->cfg;
	const struct replay_map *m = bs->m;
	struct world_config wc = { 0 };
	struct world *w;
	struct ftrace_ops *ops;
	struct world_stats st;
	struct ftv_rng rng, child;
	size_t nips = 0;
	FILE *vout;
	int ret = -1;

	batch_records(x, m, members, n);
	/* Every batch's seed derives from the run's and the batch number, so
	 * one batch replays alone with the same --seed. */
	ftv_rng_seed(&rng, c->seed);
	ftv_rng_fork(&rng, &child, 0x7e91a7 + b);
	wc.scheme = FTV_SCHEME_CALLOPS;
	wc.tramp_dir = c->tramp_dir;
	wc.exec.ncpus = c->ncpus ? c->ncpus : 4;
	wc.exec.policy = EXEC_RANDOM;
	wc.exec.seed = ftv_rng_next(&child);
	wc.exec.quiet_obs = 1;
	/* never reset: no snapshot, the CPUs' text copy-on-write */
	wc.exec.once = 1;
	wc.mutant_name = "none";
	ftv_mutant_apply(bs->mutant, &wc);
	/* The enable and the disable of n sites take a number of patcher
	 * steps proportional to n; the CPUs, which share the steps with the
	 * patcher, must still be calling when the BLs land: rounds grow with
	 * the batch. */
	wc.rounds = c->rounds ? c->rounds : 16 + (unsigned)(n / 8);
	wc.calls = c->calls ? c->calls : 32;
	wc.callable_prefix = ""; /* every synthetic body takes integers */
	wc.sites = x->bsites;
	wc.nsites = x->nbsites;
	wc.site_active = x->bactive;
	wc.keep_boot_failures = 1;

	w = world_alloc(&wc, err);
	if (!w)
		return -1;
	if (replay_load(w, m, x->mod_loaded, err) || world_setup(w, err))
		goto out;
	if (!bs->have_caller)
		learn_caller(bs, w);
	if (keep_boot_failures(x, m, w, r, err))
		goto out;
	/* The modules were loaded (init_nop'ed) with the kernel; each one's
	 * ftrace_module_enable() ran before its init, with no ops yet. */
	if (x->world_modules && world_enable_modules(w, NULL, err))
		goto out;
	for (size_t i = 0; i < n; i++)
		if (m->status[m->site_of[members[i]]] == RS_OK && !x->refused[members[i]])
			x->ips[nips++] = m->sites[members[i]].addr;
	if (!nips) {
		ret = 0;
		goto out;
	}
	ops = world_ops(w, "replay", "tracer_a", err);
	if (!ops || world_set_filter_ips(w, ops, x->ips, nips, err) ||
	    world_register(w, ops, err))
		goto out;
	/* The CPUs call the batch while the enable applies, then with every
	 * site of the batch traced, then while the disable applies. */
	for (int k = 0; k < 1000 && !plans_done(w); k++)
		if (world_run(w, 20000, err))
			goto out;
	if (world_run(w, 4000, err) || world_unregister(w, ops, err) ||
	    world_finish(w, 50000000, err))
		goto out;
	vout = open_memstream(&r->report, &r->nreport);
	if (!vout) {
		ftv_errf(err, "out of memory");
		goto out;
	}
	r->violations = world_report(w, vout);
	fclose(vout);
	r->replayed = nips;
	world_stats(w, &st);
	r->func_calls = st.func_calls;
	r->tracer_calls = st.tracer_calls;
	r->plans = st.plans;
	r->steps = st.steps;
	ret = 0;
out:
	world_free(w);
	return ret;
}

void replay_batch_result_free(struct replay_batch_result *r)
{
	free(r->report);
	free(r->bf);
	memset(r, 0, sizeof(*r));
}

/* The threads' shared state: the next batch to take, and the results. */
struct replay_pool {
	struct replay_batches *bs;
	size_t next, end;
	int stop;               /* a batch failed: take no more */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct replay_batch_result *res; /* indexed by batch - first */
	size_t first;
};

static void batch_members(const struct replay_batches *bs, size_t b,
			  const size_t **members, size_t *n)
{
	size_t first = b * bs->batch;

	*members = bs->elig + first;
	*n = bs->nelig - first < bs->batch ? bs->nelig - first : bs->batch;
}

/* Runs batch b into its result slot (its ret and err say how it went)
 * and says it is done. */
static void pool_run_one(struct replay_pool *p, struct replay_scratch *x, size_t b)
{
	struct replay_batch_result *r = &p->res[b - p->first];
	const size_t *members;
	size_t n;

	batch_members(p->bs, b, &members, &n);
	r->ret = run_batch(p->bs, x, b, members, n, r, &r->err);
	pthread_mutex_lock(&p->mu);
	r->done = 1;
	if (r->ret)
		p->stop = 1;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void *pool_worker(void *arg)
{
	struct replay_pool *p = arg;
	struct replay_scratch x;
	struct ftv_err err;
	int ok = !scratch_init(&x, p->bs->m, &err);

	for (;;) {
		size_t b;

		pthread_mutex_lock(&p->mu);
		if (p->stop || p->next >= p->end) {
			pthread_mutex_unlock(&p->mu);
			break;
		}
		b = p->next++;
		pthread_mutex_unlock(&p->mu);
		if (!ok) {
			struct replay_batch_result *r = &p->res[b - p->first];

			r->ret = -1;
			r->err = err;
			pthread_mutex_lock(&p->mu);
			r->done = 1;
			p->stop = 1;
			pthread_cond_broadcast(&p->cv);
			pthread_mutex_unlock(&p->mu);
			break;
		}
		pool_run_one(p, &x, b);
	}
	scratch_free(&x);
	return NULL;
}

int replay_batches_run(struct replay_batches *bs, size_t first, size_t end,
		       unsigned jobs, replay_merge_fn merge, void *ctx,
		       struct ftv_err *err)
{
	struct replay_pool p = { .bs = bs, .first = first, .end = end };
	pthread_t th[REPLAY_MAX_JOBS];
	unsigned nth = 0;
	struct replay_scratch x;
	int ret = 0;

	if (first >= end)
		return 0;
	p.res = calloc(end - first, sizeof(*p.res));
	if (!p.res)
		return ftv_errf(err, "out of memory");
	if (scratch_init(&x, bs->m, err)) {
		free(p.res);
		return -1;
	}
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	/* The first batch alone: it learns where ftrace_caller is, which
	 * the others read. */
	p.next = first + 1;
	pool_run_one(&p, &x, first);
	if (jobs > REPLAY_MAX_JOBS)
		jobs = REPLAY_MAX_JOBS;
	for (unsigned i = 1; i < jobs && !p.res[0].ret && p.next + nth < end; i++) {
		if (pthread_create(&th[nth], NULL, pool_worker, &p))
			break;
		nth++;
	}
	/* This thread runs batches too, and merges the results in batch
	 * order as they come. */
	for (size_t b = first; b < end; b++) {
		struct replay_batch_result *r = &p.res[b - first];

		pthread_mutex_lock(&p.mu);
		while (!r->done) {
			if (!p.stop && p.next < p.end) {
				size_t mine = p.next++;

				pthread_mutex_unlock(&p.mu);
				pool_run_one(&p, &x, mine);
				pthread_mutex_lock(&p.mu);
				continue;
			}
			pthread_cond_wait(&p.cv, &p.mu);
		}
		pthread_mutex_unlock(&p.mu);
		if (r->ret) {
			*err = r->err;
			ret = -1;
			break;
		}
		if (merge(ctx, b, r, err)) {
			ret = -1;
			break;
		}
		replay_batch_result_free(r);
	}
	pthread_mutex_lock(&p.mu);
	p.stop = 1;
	pthread_mutex_unlock(&p.mu);
	for (unsigned i = 0; i < nth; i++)
		pthread_join(th[i], NULL);
	for (size_t b = first; b < end; b++)
		replay_batch_result_free(&p.res[b - first]);
	free(p.res);
	scratch_free(&x);
	pthread_mutex_destroy(&p.mu);
	pthread_cond_destroy(&p.cv);
	return ret;
}
