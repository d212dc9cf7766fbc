/* Which functions of a user's object the workload may call, and with what.
 *
 * The random units' r<N>_f<M> take and return integers by construction; a
 * function from someone's kernel tree or a distribution's module may take
 * pointers, call other kernel functions (bound to trap stubs when they are
 * not loaded), read `current` or per-CPU data, keep state between calls. The
 * workload must only make calls whose untraced result it can predict, or a
 * fault, a loop or a changed global would be reported against the
 * patching. So each candidate is probed before the run, the way the
 * workload would call it, on one emulated CPU of its own with every patch
 * site still a NOP:
 *
 *   - with six argument vectors: (0, 0, 0), (1, 2, 3), three integers
 *     below 1000 from the world's seed, and three with a pointer P to a
 *     zeroed read-only buffer of WORLD_PROBE_ZERO_SIZE bytes: (P, P, P),
 *     (0, P, 64) (a checksum's seed, buffer and length) and (P, 64, 0) (a
 *     buffer and its length). A NULL pointer is a valid argument for many
 *     kernel functions, which return early on it; a function that only
 *     reads its buffer can be called with P;
 *   - each call must return to its caller within PROBE_STEPS turns of
 *     PROBE_QUANTUM instructions, without a fault (an undefined symbol's
 *     trap stub, an unmapped address: `current` and per-CPU bases are 0
 *     here), and without a single store but to its own stack: its
 *     executor maps every other region read-only (exec_config.ro_data),
 *     so a lock taken and released or a zero stored over a zero, which
 *     would race with another CPU calling it or reading what it wrote, is
 *     a fault; the regions are also compared before and after;
 *   - called again, it must return the same value.
 *
 * A function some vector passes is callable with the vectors that passed;
 * the workload draws each call's arguments among them. Since no callable
 * function writes memory, what each returns cannot depend on what the
 * others did: its traced result must be its untraced one, as for the random
 * units. */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#define PROBE_QUANTUM 1024
#define PROBE_VECTORS_USED 6
#define PROBE_STEPS 64

struct probe_region {
	struct sim_region *r;
	uint8_t *copy;
	uint64_t len;
};

struct wprobe_ctx {
	struct ftv_exec *ex;
	struct probe_region *reg;
	size_t nreg;
	uint64_t sp;
	struct ftv_rng rng;
};

/* The memory a call may not change: [base, base + used) of every region
 * that is neither text nor a stack. */
static int snapshot(struct world *w, struct wprobe_ctx *p, struct ftv_err *err)
{
	size_t n = sim_region_count(w->as);

	p->reg = calloc(n ? n : 1, sizeof(*p->reg));
	if (!p->reg)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < n; i++) {
		struct sim_region *r = sim_region_get(w->as, i);

		/* read-only data too: the executor maps every region
		 * writable, so a store to .rodata or to the probe's buffer
		 * would land */
		if ((r->perms & SIM_X) || r->kind == SIM_REGION_STACK || !r->used)
			continue;
		p->reg[p->nreg].r = r;
		p->reg[p->nreg].len = r->used < r->size ? r->used : r->size;
		p->reg[p->nreg].copy = malloc(p->reg[p->nreg].len);
		if (!p->reg[p->nreg].copy)
			return ftv_errf(err, "out of memory");
		memcpy(p->reg[p->nreg].copy, r->host, p->reg[p->nreg].len);
		p->nreg++;
	}
	return 0;
}

/* The first byte a call changed (and puts everything back), or 0. */
static uint64_t changed(struct wprobe_ctx *p)
{
	uint64_t at = 0;

	for (size_t i = 0; i < p->nreg; i++) {
		struct probe_region *pr = &p->reg[i];

		if (!memcmp(pr->copy, pr->r->host, pr->len))
			continue;
		for (uint64_t k = 0; k < pr->len && !at; k++)
			if (pr->copy[k] != pr->r->host[k])
				at = pr->r->base + k;
		memcpy(pr->r->host, pr->copy, pr->len);
	}
	return at;
}

int world_probe_map(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;
	int any = c->call_list != NULL;

	for (unsigned i = 0; i < c->nobjects; i++)
		any |= c->probe_object[i];
	for (unsigned i = 0; i < c->nmodules; i++)
		any |= c->probe_module[i];
	if (!any)
		return 0;
	w->probe_zero = sim_map(w->as, "probe.zero", WORLD_PROBE_ZERO, WORLD_PROBE_ZERO_SIZE,
				SIM_R, SIM_REGION_DATA, err);
	/* all of it in use: the probe compares it before and after a call */
	if (!w->probe_zero || !sim_region_alloc(w->probe_zero, WORLD_PROBE_ZERO_SIZE, 64, err))
		return -1;
	return 0;
}

/* A probed object whose functions cannot be traced by the scheme: no patch
 * site at all, or sites of another kind. */
static int check_sites(struct world *w, const char *path, struct ftv_err *err)
{
	size_t nkind[FTV_SITE_NKINDS] = { 0 }, any = 0;
	enum ftv_site_kind other = w->sd->kind;
	char schemes[160] = "";

	for (size_t i = 0; i < sim_image_nsites(w->img); i++) {
		const struct sim_site *s = sim_image_site(w->img, i);

		if (!s->object || strcmp(s->object, path))
			continue;
		any++;
		if ((unsigned)s->kind < FTV_SITE_NKINDS)
			nkind[s->kind]++;
	}
	if (!any)
		return ftv_errf(err, "%s: no patch site: none of its functions can be traced "
				"(built without -fpatchable-function-entry or -pg, or notrace)", path);
	if (nkind[w->sd->kind])
		return 0;
	for (int l = 0; l < FTV_SITE_NKINDS; l++)
		if (nkind[l] > nkind[other] || other == w->sd->kind)
			other = (enum ftv_site_kind)l;
	for (int sc = 0; sc < FTV_SCHEME_COUNT; sc++) {
		const struct world_schemedesc *d = world_schemedesc((enum ftv_scheme)sc);

		if (d && d->kind == other)
			snprintf(schemes + strlen(schemes), sizeof(schemes) - strlen(schemes),
				 "%s%s", schemes[0] ? ", " : "", d->name);
	}
	return ftv_errf(err, "%s: its %zu patch sites are %s sites; scheme %s patches %s sites "
			"(schemes for %s: %s)", path, any, ftv_site_kind_name(other),
			w->sd->name, ftv_site_kind_name(w->sd->kind),
			ftv_site_kind_name(other), schemes[0] ? schemes : "none");
}

int world_probe_check(struct world *w, struct ftv_err *err)
{
	const struct world_config *c = &w->cfg;

	if (c->sites)
		return 0;
	for (unsigned i = 0; i < c->nobjects; i++)
		if (c->probe_object[i] && check_sites(w, c->objects[i], err))
			return -1;
	for (unsigned i = 0; i < c->nmodules; i++)
		if (c->probe_module[i] && check_sites(w, c->modules[i], err))
			return -1;
	return 0;
}

void world_probe_free(struct world *w)
{
	struct wprobe_ctx *p = w->probe_ctx;

	if (!p)
		return;
	if (p->ex)
		exec_free(p->ex);
	for (size_t i = 0; i < p->nreg; i++)
		free(p->reg[i].copy);
	free(p->reg);
	free(p);
	w->probe_ctx = NULL;
}

static int probe_start(struct world *w, struct ftv_err *err)
{
	struct exec_config ec = { .arch = w->sd->arch, .ncpus = 1, .seed = 1,
				  .policy = EXEC_RANDOM, .quantum = PROBE_QUANTUM,
				  .quiet_obs = 1, .ro_data = 1 };
	struct wprobe_ctx *p = calloc(1, sizeof(*p));

	if (!p)
		return ftv_errf(err, "out of memory");
	w->probe_ctx = p;
	if (!w->probe && !(w->probe = calloc(w->nrecs ? w->nrecs : 1, sizeof(*w->probe))))
		return ftv_errf(err, "out of memory");
	if (snapshot(w, p, err))
		return -1;
	p->ex = exec_new(w->as, &ec, err);
	if (!p->ex)
		return -1;
	/* the stack no CPU of the run uses */
	p->sp = SIM_STACK_BASE + (EXEC_MAX_CPUS + 1) * WORLD_STACK_SIZE - 64;
	ftv_rng_fork(&w->rng, &p->rng, 0x9b0be);
	return 0;
}

/* One call of func with args: 0 and *ret, or 1 with why. */
static int call(struct world *w, uint64_t func, const uint64_t *args, uint64_t *ret,
		char *why, size_t n)
{
	struct wprobe_ctx *p = w->probe_ctx;
	size_t nv0, nv;
	const struct exec_violation *v;
	uint64_t at;
	struct ftv_err err;
	char b[160];

	uint64_t steps = exec_steps(p->ex);

	exec_violations(p->ex, &nv0);
	if (exec_cpu_setup(p->ex, 0, func, p->sp, args, 3, w->workload_done, &err)) {
		snprintf(why, n, "%.390s", err.msg);
		return 1;
	}
	/* returns to ftv_workload_done, where the CPU counts as done */
	exec_cpu_set_reg(p->ex, 0, w->ad->reg_ra, w->workload_done);
	exec_cpu_set_reg(p->ex, 0, w->ad->reg_pcpu, 0);
	if (exec_run(p->ex, PROBE_STEPS, &err)) {
		snprintf(why, n, "%.390s", err.msg);
		changed(p);
		return 1;
	}
	v = exec_violations(p->ex, &nv);
	at = changed(p);
	if (!exec_cpu_done(p->ex, 0)) {
		uint64_t pc = exec_cpu_reg(p->ex, 0, 32);
		const char *stub = sim_image_stub_name(w->img, pc);

		if (stub) {
			snprintf(why, n, "calls %s, which is not loaded", stub);
		} else if (exec_steps(p->ex) - steps >= PROBE_STEPS) {
			snprintf(why, n, "runs more than %u instructions (now at %s)",
				 PROBE_QUANTUM * PROBE_STEPS, sim_symbolize(w->as, pc, b, sizeof(b), 0));
		} else {
			/* the fault's report (the executor reports a fault at
			 * one address once) */
			snprintf(why, n, "faults at %s", sim_symbolize(w->as, pc, b, sizeof(b), 0));
			for (size_t i = nv; i-- > 0;)
				if (v[i].kind == EXEC_V_FAULT && (i >= nv0 || v[i].addr == pc)) {
					const char *m = strstr(v[i].msg, ": fault at ");

					m = m ? m + 2 : v[i].msg;
					/* a store to read-only memory (its
					 * argument buffer, rodata) */
					snprintf(why, n, "%s%.380s",
						 strstr(m, "WRITE_PROT") ? "writes memory: " : "", m);
					break;
				}
		}
		return 1;
	}
	if (at) {
		if (at >= WORLD_PROBE_ZERO && at < WORLD_PROBE_ZERO + WORLD_PROBE_ZERO_SIZE)
			snprintf(why, n, "writes memory at 0x%llx, in the buffer it was given",
				 (unsigned long long)at);
		else
			snprintf(why, n, "writes memory at %s",
				 sim_symbolize(w->as, at, b, sizeof(b), 0));
		return 1;
	}
	*ret = exec_cpu_reg(p->ex, 0, w->ad->reg_arg0);
	return 0;
}

int world_probe(struct world *w, size_t ri, struct ftv_err *err)
{
	struct wrec *r = &w->recs[ri];
	struct wprobe *pr;
	const uint64_t z = WORLD_PROBE_ZERO;
	uint64_t vec[PROBE_VECTORS][3] = { { 0, 0, 0 }, { 1, 2, 3 }, { 0, 0, 0 },
					   { z, z, z }, { 0, z, 64 }, { z, 64, 0 } };
	char why[400] = "";

	if (!w->probe_zero)
		return ftv_errf(err, "the call probe's buffer is not mapped");
	if (!w->probe_ctx && probe_start(w, err))
		return -1;
	pr = &w->probe[ri];
	if (pr->state)
		return pr->state == WPROBE_OK ? 0 : 1;
	for (int a = 0; a < 3; a++)
		vec[2][a] = ftv_rng_below(&((struct wprobe_ctx *)w->probe_ctx)->rng, 1000);
	for (int k = 0; k < PROBE_VECTORS; k++) {
		uint64_t r1, r2;

		if (call(w, r->func, vec[k], &r1, why, sizeof(why)))
			continue;
		if (call(w, r->func, vec[k], &r2, why, sizeof(why)))
			continue;
		if (r1 != r2) {
			snprintf(why, sizeof(why), "returns 0x%llx, then 0x%llx for the same arguments",
				 (unsigned long long)r1, (unsigned long long)r2);
			continue;
		}
		memcpy(pr->args[pr->nvec++], vec[k], sizeof(vec[k]));
	}
	pr->state = pr->nvec ? WPROBE_OK : WPROBE_REFUSED;
	snprintf(pr->why, sizeof(pr->why), "%.199s", why);
	return pr->state == WPROBE_OK ? 0 : 1;
}

void world_probe_summary(const struct world *w, char *buf, size_t n)
{
	static const struct {
		const char *prefix, *what, *one;
	} kinds[] = {
		{ "calls ", "call functions that are not loaded", "calls a function that is not loaded" },
		{ "fault", "fault", "faults" },
		{ "writes memory", "write memory", "writes memory" },
		{ "runs more", "run too long", "runs too long" },
		{ "returns ", "return different values", "returns different values" },
	};
	unsigned count[sizeof(kinds) / sizeof(kinds[0]) + 1] = { 0 }, probed = 0, refused = 0;
	char stubs[200] = "";
	size_t example = (size_t)-1, l;
	int more = 0;

	buf[0] = 0;
	if (!w->probe)
		return;
	for (size_t i = 0; i < w->nrecs; i++) {
		const struct wprobe *p = &w->probe[i];
		size_t k;

		if (!p->state)
			continue;
		probed++;
		if (p->state == WPROBE_OK)
			continue;
		refused++;
		if (example == (size_t)-1)
			example = i;
		for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strncmp(p->why, kinds[k].prefix, strlen(kinds[k].prefix)))
				break;
		count[k]++;
		/* the first few functions they call that are missing */
		if (k == 0) {
			char name[64];

			if (sscanf(p->why, "calls %63[^,]", name) != 1 || strstr(stubs, name))
				continue;
			if (strlen(stubs) < 120)
				snprintf(stubs + strlen(stubs), sizeof(stubs) - strlen(stubs), "%s%s",
					 stubs[0] ? ", " : "", name);
			else
				more = 1;
		}
	}
	if (!refused)
		return;
	snprintf(buf, n, "%u of the %u functions probed cannot be called:", refused, probed);
	for (size_t k = 0; k <= sizeof(kinds) / sizeof(kinds[0]); k++) {
		if (!count[k])
			continue;
		l = strlen(buf);
		snprintf(buf + l, n - l, " %u %s%s%s%s,", count[k],
			 k == sizeof(kinds) / sizeof(kinds[0]) ? "other"
			 : count[k] == 1 ? kinds[k].one : kinds[k].what,
			 k == 0 ? " (" : "", k == 0 ? stubs : "",
			 k == 0 ? (more ? ", ...)" : ")") : "");
	}
	l = strlen(buf);
	if (l && buf[l - 1] == ',')
		buf[--l] = 0;
	snprintf(buf + l, n - l, "; e.g. %s: %s", w->recs[example].name ? w->recs[example].name : "?",
		 w->probe[example].why);
}
