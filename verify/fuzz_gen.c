/* ftv fuzz: the traced functions, iteration seeds and the scenario
 * generator (verify/fuzz.h). */
#include "verify/fuzz.h"

#include <stdlib.h>
#include <string.h>

#include "util/rng.h"
#include "verify/fuzz_plan.h"

/* The random units' functions, r<seed>_f<n>, the static-key unit's jl_*
 * and the BPF unit's bpf_*: the ones the workload calls (verify/
 * world_cpus.c, callable()), so filtering them changes what CPUs run. */
static int random_unit_func(const char *n)
{
	if (n && (!strncmp(n, "jl_", 3) || !strncmp(n, "bpf_", 4)))
		return 1;
	if (!n || *n++ != 'r' || *n < '0' || *n > '9')
		return 0;
	while (*n >= '0' && *n <= '9')
		n++;
	if (n[0] != '_' || n[1] != 'f' || !n[2])
		return 0;
	for (n += 2; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

int fuzz_targets(struct fuzz_gen *g, const char *corpus_dir,
		 const char *tramp_dir, struct ftv_err *err)
{
	const char *set = ftv_scheme_corpus_set(g->scheme);
	struct world_config cfg;
	struct world *w;
	const struct ftrace_core *core;
	struct scenario_paths *paths = malloc(sizeof(*paths));
	const char **calls;
	size_t ncall;

	if (!paths)
		return ftv_errf(err, "out of memory");
	memset(&cfg, 0, sizeof(cfg));
	cfg.scheme = g->scheme;
	for (unsigned i = 0; i < g->nobjects; i++) {
		if (scenario_corpus_object(paths->objects[i], sizeof(paths->objects[i]),
					   corpus_dir, set, g->objects[i])) {
			free(paths);
			return ftv_errf(err, "no corpus object '%s' for scheme %s "
					"(looked in %s/%s and %s/random-%s)", g->objects[i],
					ftv_scheme_name(g->scheme), corpus_dir, set, corpus_dir, set);
		}
		cfg.objects[i] = paths->objects[i];
	}
	cfg.nobjects = g->nobjects;
	/* the modules as late ones: their records exist, nothing enables them */
	for (unsigned i = 0; i < g->nmodules; i++) {
		if (scenario_corpus_object(paths->modules[i], sizeof(paths->modules[i]),
					   corpus_dir, set, g->modules[i])) {
			free(paths);
			return ftv_errf(err, "no corpus object '%s' for scheme %s "
					"(looked in %s/%s and %s/random-%s)", g->modules[i],
					ftv_scheme_name(g->scheme), corpus_dir, set, corpus_dir, set);
		}
		cfg.modules[i] = paths->modules[i];
		cfg.module_late[i] = 1;
	}
	cfg.nmodules = g->nmodules;
	for (unsigned i = 0; i < g->nuser; i++) {
		int mod = scenario_path_is_module(g->user[i]);
		unsigned *n = mod ? &cfg.nmodules : &cfg.nobjects;

		if (*n >= WORLD_MAX_OBJECTS) {
			free(paths);
			return ftv_errf(err, "more than %d objects", WORLD_MAX_OBJECTS);
		}
		if (mod) {
			cfg.modules[*n] = g->user[i];
			cfg.probe_module[*n] = 1;
		} else {
			cfg.objects[*n] = g->user[i];
			cfg.probe_object[*n] = 1;
		}
		(*n)++;
	}
	cfg.call_list = g->call_list[0] ? g->call_list : NULL;
	cfg.tramp_dir = tramp_dir;
	cfg.exec.ncpus = 1;
	cfg.exec.seed = 1;
	cfg.rounds = 1;
	cfg.calls = 1;
	/* a backend mutant may accept sites the faithful one refuses
	 * (misaligned-literal): list what the mutated world patches */
	ftv_mutant_apply(g->mutant, &cfg);
	if (world_new(&cfg, &w, err)) {
		free(paths);
		return -1;
	}
	core = world_core(w);
	/* the corpus objects' static keys and poke sites (objects given by
	 * path keep theirs: a module's tracepoint keys are not flipped) */
	if (!g->nuser) {
		const char *keys[FUZZ_MAX_KEYS];
		size_t nk = world_jump_label_keys(w, keys, FUZZ_MAX_KEYS);

		g->nkeys = 0;
		for (size_t k = 0; k < nk && k < FUZZ_MAX_KEYS; k++)
			snprintf(g->keys[g->nkeys++], sizeof(g->keys[0]), "%s", keys[k]);
		nk = world_text_poke_sites(w, keys, FUZZ_MAX_KEYS);
		g->npokes = 0;
		for (size_t k = 0; k < nk && k < FUZZ_MAX_KEYS; k++)
			snprintf(g->pokes[g->npokes++], sizeof(g->pokes[0]), "%s", keys[k]);
		g->bpf_images = world_bpf_images(w);
	}
	ncall = world_callables(w, NULL, 0);
	calls = calloc(ncall ? ncall : 1, sizeof(*calls));
	if (!calls) {
		world_free(w);
		free(paths);
		return ftv_errf(err, "out of memory");
	}
	world_callables(w, calls, ncall);
	g->nfuncs = 0;
	for (size_t i = 0; i < ftrace_core_nrecs(core) && g->nfuncs < FUZZ_MAX_FUNCS; i++) {
		const struct ftrace_rec *r = ftrace_core_rec(core, i);
		int mod = -1, user = 0;

		/* FAILED: init_nop refused the site; DISABLED: updates never
		 * touch it, unless it is a module's, enabled when it loads. */
		if (!r || (r->flags & FTRACE_FL_FAILED) ||
		    ((r->flags & FTRACE_FL_DISABLED) && !r->site.module) ||
		    strlen(r->site.name) >= sizeof(g->funcs[0]))
			continue;
		/* a function of an object given by path the workload calls:
		 * loaded from the start, module or not */
		for (size_t k = 0; g->nuser && k < ncall && !user; k++)
			user = !strcmp(calls[k], r->site.name);
		if (!user && !random_unit_func(r->site.name))
			continue;
		for (unsigned m = 0; !user && r->site.module && m < g->nmodules; m++)
			if (!strcmp(r->site.module, g->modules[m]))
				mod = (int)m;
		if (!user && r->site.module && mod < 0)
			continue;
		g->func_mod[g->nfuncs] = (unsigned char)(mod + 1);
		snprintf(g->funcs[g->nfuncs++], sizeof(g->funcs[0]), "%s", r->site.name);
	}
	free(calls);
	world_free(w);
	free(paths);
	if (!g->nfuncs)
		return ftv_errf(err, "no traceable function the workload calls in the objects "
				"(the random units' r<N>_f<M>%s)",
				g->nuser ? ", the functions of --object the call probe accepts" : "");
	return 0;
}

uint64_t fuzz_iter_seed(uint64_t seed, uint64_t i)
{
	struct ftv_rng root, child;

	ftv_rng_seed(&root, seed);
	ftv_rng_fork(&root, &child, i);
	return ftv_rng_next(&child);
}

/* One ops as the generator tracks it, so it only emits what the ftrace API
 * accepts. */
struct gops {
	char name[8];
	const char *tracer;
	int registered, dead, direct, attached;
	int batch;       /* a shared direct ops of update_ftrace_direct_add/del */
	char filter[1024]; /* a batch ops: the functions attached now */
	unsigned hot;    /* the hot functions its filters take (plan_focus) */
};

struct gen {
	const struct fuzz_gen *g;
	struct ftv_rng rng;
	struct scenario *s;
	struct gops ops[8];
	unsigned nops, ntracer, ngraph, ndirect;
	unsigned nbpf; /* BPF images handed out (bpf-update) */
	enum gmod_state mod[FUZZ_MAX_MODULES];
	int key_on;   /* the static key's state */
	/* the objects' static keys (fuzz_gen.keys): their states and the
	 * stream that flips them */
	int jl_on[FUZZ_MAX_KEYS];
	struct ftv_rng krng;
	/* whether a direct ops is a batch one, from a stream of its own */
	struct ftv_rng brng;
	/* a focused iteration's hot functions (plan_focus), or none */
	const char *hot[5];
	unsigned nhot;
};

/* Whether operations may name traced function i now: kernel text, a
 * module loaded at boot, or a late module loaded and not unloaded. */
static int avail(const struct gen *gn, unsigned i)
{
	int m = gn->g->func_mod[i] - 1;

	return m < 0 || gn->mod[m] == GM_BOOT || gn->mod[m] == GM_LOADED;
}

static void emit(struct gen *gn, const char *verb, const char *a, const char *b)
{
	struct scn_op *op;

	if (gn->s->nops >= SCN_MAX_OPS)
		return;
	op = &gn->s->ops[gn->s->nops++];
	snprintf(op->verb, sizeof(op->verb), "%s", verb);
	snprintf(op->a, sizeof(op->a), "%s", a ? a : "");
	snprintf(op->b, sizeof(op->b), "%s", b ? b : "");
	op->line = (int)gn->s->nops;
}

/* A run of lo..hi scheduler steps after an update: short enough that the
 * CPUs are still in their rounds when the next update lands. */
static void emit_run_between(struct gen *gn, unsigned lo, unsigned hi)
{
	char n[24];

	snprintf(n, sizeof(n), "%llu", lo + (unsigned long long)ftv_rng_below(&gn->rng, hi - lo + 1));
	emit(gn, "run", n, NULL);
}

static void emit_run(struct gen *gn)
{
	emit_run_between(gn, 50, 300);
}

/* k distinct traced functions available now, comma separated; from (if
 * given) restricts the draw to the functions of another spec (notrace
 * inside a filter). */
static void subset(struct gen *gn, unsigned k, const char *from, char *out, size_t n)
{
	const char *pool[FUZZ_MAX_FUNCS];
	unsigned np = 0;
	char tmp[1024];

	if (from && *from) {
		snprintf(tmp, sizeof(tmp), "%s", from);
		for (char *t = strtok(tmp, ","); t && np < FUZZ_MAX_FUNCS; t = strtok(NULL, ","))
			for (unsigned i = 0; i < gn->g->nfuncs; i++)
				if (!strcmp(gn->g->funcs[i], t)) {
					if (avail(gn, i))
						pool[np++] = gn->g->funcs[i];
					break;
				}
	}
	if (!np)
		for (unsigned i = 0; i < gn->g->nfuncs; i++)
			if (avail(gn, i))
				pool[np++] = gn->g->funcs[i];
	if (k > np)
		k = np;
	out[0] = 0;
	for (unsigned i = 0; i < k; i++) {
		unsigned j = i + (unsigned)ftv_rng_below(&gn->rng, np - i);
		const char *t = pool[j];
		size_t l = strlen(out);

		pool[j] = pool[i];
		pool[i] = t;
		if (l + strlen(t) + 2 > n)
			break;
		snprintf(out + l, n - l, "%s%s", l ? "," : "", t);
	}
}

static unsigned filter_size(struct gen *gn)
{
	/* Mostly wide filters: the workload calls a random handful of the
	 * traced functions, so an update must rewrite many sites for some CPU
	 * to be running one of them while it changes; sometimes a few sites,
	 * the shapes CALL_OPS's unique-ops rule distinguishes (one ops: its
	 * literal; several: ftrace_list_ops). */
	return ftv_rng_chance(&gn->rng, 1, 4) ? 1 + (unsigned)ftv_rng_below(&gn->rng, 4)
					      : 8 + (unsigned)ftv_rng_below(&gn->rng, 33);
}

static void add_func(char *out, size_t n, const char *t);

/* A filter for self: half the time it shares sites with another live
 * ops' filter, so sites are traced by two ops at once and go through the
 * list ops and back (CALL_OPS's unique-ops rule: modify_call). */
static void filter_for(struct gen *gn, const struct gops *self, char *out, size_t n)
{
	const struct gops *others[8];
	unsigned no = 0, k = filter_size(gn), j;
	char rest[1024];

	for (unsigned i = 0; i < gn->nops; i++)
		if (&gn->ops[i] != self && !gn->ops[i].dead && gn->ops[i].filter[0])
			others[no++] = &gn->ops[i];
	if (!no || !ftv_rng_chance(&gn->rng, 1, 2)) {
		subset(gn, k, NULL, out, n);
		return;
	}
	j = 1 + (unsigned)ftv_rng_below(&gn->rng, k);
	subset(gn, j, others[ftv_rng_below(&gn->rng, no)]->filter, out, n);
	subset(gn, k - j, NULL, rest, sizeof(rest));
	for (char *t = strtok(rest, ","); t; t = strtok(NULL, ","))
		add_func(out, n, t);
}

/* Adds t to the comma separated list out unless it is there. */
static void add_func(char *out, size_t n, const char *t)
{
	size_t l = strlen(out);
	char buf[1024], want[64];

	snprintf(buf, sizeof(buf), ",%s,", out);
	snprintf(want, sizeof(want), ",%s,", t);
	if (strstr(buf, want) || l + strlen(t) + 2 > n)
		return;
	snprintf(out + l, n - l, "%s%s", l ? "," : "", t);
}

/* A filter for self, and in a focused iteration the hot functions self
 * takes: each with probability 1/2 when the ops is made, drawn again by a
 * quarter of its filter changes. The hot functions end up traced by two,
 * three or none of the ops; an ops mostly keeps out of the ones it does
 * not take while its filter changes (a stale table of an ops shows at a
 * site other ops share and it traces neither before nor after), and now
 * and then they change hands. */
static void filter_pick(struct gen *gn, struct gops *self, int made, char *out, size_t n)
{
	filter_for(gn, self, out, n);
	if (gn->nhot && (made || ftv_rng_chance(&gn->rng, 1, 4)))
		self->hot = (unsigned)ftv_rng_below(&gn->rng, 1u << gn->nhot);
	for (unsigned i = 0; i < gn->nhot; i++)
		if (self->hot & 1u << i)
			add_func(out, n, gn->hot[i]);
}

static void new_ops(struct gen *gn)
{
	const char *kinds[4];
	unsigned nk = 0;
	unsigned extra = ftv_scheme_fuzz_flags(gn->g->scheme);
	struct gops *o = &gn->ops[gn->nops];
	const char *tracer;

	kinds[nk++] = "tracer_a";
	kinds[nk++] = "tracer_b";
	/* the graph tracer and direct calls where the scheme has them
	 * (ftv_scheme_fuzz_flags); one graph ops at a time (the -pg scheme
	 * registers it as the global graph tracer) */
	if ((extra & FTV_SCHEME_FUZZ_GRAPH) && !gn->ngraph)
		kinds[nk++] = "graph";
	if ((extra & FTV_SCHEME_FUZZ_DIRECT) && !gn->ndirect)
		kinds[nk++] = "direct";
	tracer = kinds[ftv_rng_below(&gn->rng, nk)];
	memset(o, 0, sizeof(*o));
	o->tracer = tracer;
	if (!strcmp(tracer, "graph"))
		snprintf(o->name, sizeof(o->name), "g%u", ++gn->ngraph);
	else if (!strcmp(tracer, "direct"))
		snprintf(o->name, sizeof(o->name), "d%u", ++gn->ndirect), o->direct = 1,
		o->batch = ftv_rng_chance(&gn->brng, 1, 2);
	else
		snprintf(o->name, sizeof(o->name), "t%u", ++gn->ntracer);
	gn->nops++;
	emit(gn, "ops", o->name, tracer);
	filter_pick(gn, o, 1, o->filter, sizeof(o->filter));
	/* a batch ops' first update_ftrace_direct_add takes these */
	if (!o->batch)
		emit(gn, "filter", o->name, o->filter);
}

/* update_ftrace_direct_add/del on a batch ops (its filter: what is
 * attached): the first add attaches the functions drawn at its making,
 * later adds some more (half the time sites another ops traces, so the
 * batch and ftrace's other updates rewrite the same sites); a del takes
 * some of them away, all of them with all set (or when it draws them
 * all: the ops is unregistered then, and stays usable). */
static void batch_act(struct gen *gn, struct gops *o, int add, int all)
{
	char spec[1024], more[1024] = "", cur[1040];

	if (add && !o->attached && o->filter[0]) {
		/* (the functions of a module unloaded since are gone) */
		for (char *t = strtok(o->filter, ","); t; t = strtok(NULL, ","))
			for (unsigned i = 0; i < gn->g->nfuncs; i++)
				if (!strcmp(gn->g->funcs[i], t) && avail(gn, i))
					add_func(more, sizeof(more), t);
		o->filter[0] = 0;
	}
	if (add && !more[0]) {
		filter_for(gn, o, spec, sizeof(spec));
		snprintf(cur, sizeof(cur), ",%s,", o->filter);
		for (char *t = strtok(spec, ","); t; t = strtok(NULL, ",")) {
			char want[72];

			snprintf(want, sizeof(want), ",%s,", t);
			if (!strstr(cur, want))
				add_func(more, sizeof(more), t);
		}
		if (!more[0])
			add = 0, all = 0;
	}
	if (add) {
		emit(gn, "direct-add", o->name, more);
		snprintf(gn->s->ops[gn->s->nops - 1].c, sizeof(gn->s->ops[0].c), "%s",
			 "ftv_direct_tramp");
		for (char *t = strtok(more, ","); t; t = strtok(NULL, ","))
			add_func(o->filter, sizeof(o->filter), t);
		o->attached = 1;
		return;
	}
	if (!o->filter[0])
		return;
	if (all)
		snprintf(spec, sizeof(spec), "%s", o->filter);
	else
		subset(gn, 1 + (unsigned)ftv_rng_below(&gn->rng, 3), o->filter, spec, sizeof(spec));
	emit(gn, "direct-del", o->name, spec);
	snprintf(cur, sizeof(cur), "%s", o->filter);
	o->filter[0] = 0;
	for (char *t = strtok(cur, ","); t; t = strtok(NULL, ",")) {
		char had[1032], want[72];

		snprintf(had, sizeof(had), ",%s,", spec);
		snprintf(want, sizeof(want), ",%s,", t);
		if (!strstr(had, want))
			add_func(o->filter, sizeof(o->filter), t);
	}
	o->attached = !!o->filter[0];
}

enum act { A_NEW, A_REG, A_UNREG, A_FILTER, A_NOTRACE, A_DIRECT, A_DMOD, A_DREM };

static void act(struct gen *gn, enum act a, struct gops *o)
{
	char spec[1024];

	if (o && o->batch && (a == A_DIRECT || a == A_DMOD || a == A_DREM)) {
		batch_act(gn, o, a != A_DREM, 0);
		emit_run(gn);
		return;
	}
	switch (a) {
	case A_NEW:
		new_ops(gn);
		return;
	case A_REG:
		emit(gn, "register", o->name, NULL);
		o->registered = 1;
		break;
	case A_UNREG:
		/* a dynamic ops is freed by its unregistration */
		emit(gn, "unregister", o->name, NULL);
		o->registered = 0;
		o->dead = 1;
		break;
	case A_FILTER:
		filter_pick(gn, o, 0, o->filter, sizeof(o->filter));
		emit(gn, "filter", o->name, o->filter);
		break;
	case A_NOTRACE:
		subset(gn, 1 + (unsigned)ftv_rng_below(&gn->rng, 2), o->filter, spec, sizeof(spec));
		emit(gn, "notrace", o->name, spec);
		break;
	case A_DIRECT:
	case A_DMOD:
		if (gn->g->bpf_images) {
			/* bpf_trampoline_update(): a new image each time */
			snprintf(spec, sizeof(spec), "ftv_bpf_image%u", gn->nbpf++);
			emit(gn, "bpf-update", o->name, spec);
			o->attached = 1;
		} else if (a == A_DIRECT) {
			emit(gn, "direct", o->name, "ftv_direct_tramp");
			o->attached = 1;
		} else {
			emit(gn, "direct-modify", o->name,
			     o->attached == 1 ? "ftrace_stub_direct_tramp" : "ftv_direct_tramp");
			o->attached = o->attached == 1 ? 2 : 1;
		}
		break;
	case A_DREM:
		if (gn->g->bpf_images)
			emit(gn, "bpf-update", o->name, "-");
		else
			emit(gn, "direct-remove", o->name, NULL);
		o->attached = 0;
		o->dead = 1;
		break;
	}
	emit_run(gn);
}

/* One random action the state allows; the weights favour register and
 * filter changes, the updates that rewrite sites while CPUs run them. */
static void step(struct gen *gn)
{
	struct { enum act a; struct gops *o; unsigned w; } c[64];
	unsigned nc = 0, total = 0;
	uint64_t pick;

	/* (a focused iteration wants three ops or more on its hot
	 * functions: plan_focus) */
	if (gn->nops < 6)
		c[nc++] = (typeof(c[0])){ A_NEW, NULL, !gn->nops ? 10 : gn->nhot ? 8 : 2 };
	for (unsigned i = 0; i < gn->nops && nc + 4 < 64; i++) {
		struct gops *o = &gn->ops[i];

		if (o->dead)
			continue;
		if (o->direct) {
			/* (a BPF image is handed out once) */
			int img = !gn->g->bpf_images || gn->nbpf < gn->g->bpf_images;

			if (!o->attached && img)
				c[nc++] = (typeof(c[0])){ A_DIRECT, o, 6 };
			else if (o->attached) {
				if (img)
					c[nc++] = (typeof(c[0])){ A_DMOD, o, 4 };
				c[nc++] = (typeof(c[0])){ A_DREM, o, 2 };
			}
			continue;
		}
		if (!o->registered)
			c[nc++] = (typeof(c[0])){ A_REG, o, 6 };
		else
			c[nc++] = (typeof(c[0])){ A_UNREG, o, 2 };
		c[nc++] = (typeof(c[0])){ A_FILTER, o, o->registered ? 4 : 1 };
		c[nc++] = (typeof(c[0])){ A_NOTRACE, o, o->registered ? 2 : 1 };
	}
	for (unsigned i = 0; i < nc; i++)
		total += c[i].w;
	pick = ftv_rng_below(&gn->rng, total);
	for (unsigned i = 0; i < nc; i++) {
		if (pick < c[i].w) {
			act(gn, c[i].a, c[i].o);
			return;
		}
		pick -= c[i].w;
	}
}

/* Whether a direct ops attached now traces a function of module m: BPF
 * holds a reference on a module whose function it attaches to, so
 * delete_module fails until it is detached. */
static int module_pinned(const struct gen *gn, unsigned m)
{
	for (unsigned i = 0; i < gn->nops; i++) {
		const struct gops *o = &gn->ops[i];
		char tmp[1024];

		if (!o->direct || !o->attached || o->dead)
			continue;
		snprintf(tmp, sizeof(tmp), "%s", o->filter);
		for (char *t = strtok(tmp, ","); t; t = strtok(NULL, ","))
			for (unsigned f = 0; f < gn->g->nfuncs; f++)
				if (gn->g->func_mod[f] == m + 1 && !strcmp(gn->g->funcs[f], t))
					return 1;
	}
	return 0;
}

/* load_module while the CPUs run: the init_nop of every site (some ten
 * plan steps each, a few thousand scheduler steps for a random unit) and
 * the enable are long updates, and the module is called only once they
 * have landed, so the CPUs get a long run after it. */
/* Another task flips the static branch (a jump label): kernel text
 * patched by someone other than ftrace, at the same time. */
static void static_key(struct gen *gn)
{
	unsigned k;

	if (!gn->g->nkeys && !gn->g->npokes) {
		gn->key_on = !gn->key_on;
		emit(gn, "static-key", gn->key_on ? "on" : "off", NULL);
		return;
	}
	/* static_key_enable/disable of one of the objects' keys, or a
	 * patch_text of a poke site, and a short run while the CPUs still
	 * call them */
	k = (unsigned)ftv_rng_below(&gn->krng, gn->g->nkeys + gn->g->npokes);
	if (k < gn->g->nkeys) {
		gn->jl_on[k] = !gn->jl_on[k];
		emit(gn, "static-key", gn->jl_on[k] ? "on" : "off", gn->g->keys[k]);
	} else {
		emit(gn, "text-poke", gn->g->pokes[k - gn->g->nkeys], NULL);
	}
	emit_run_between(gn, 10, 60);
}

static void load_module(struct gen *gn, unsigned m, int key)
{
	emit(gn, "module-load", gn->g->modules[m], NULL);
	gn->mod[m] = GM_LOADED;
	if (key)
		static_key(gn);
	emit_run_between(gn, 2000, 4000);
}

static void unload_module(struct gen *gn, unsigned m)
{
	emit(gn, "module-unload", gn->g->modules[m], NULL);
	gn->mod[m] = GM_UNLOADED;
	emit_run(gn);
}

/* A focused iteration, from a stream of its own (an unfocused one is
 * drawn as before focus existed): 3/4 of the iterations without a late
 * module (whose functions the CPUs must call once it is loaded) pick 2 to
 * 5 hot functions that every ops' filter takes with probability 1/2
 * (filter_pick), and a workload every CPU calls each round: the hot
 * functions twice and 1 to 5 others once. The races on the core's data need a site
 * two or more ops trace (on CALL_OPS only such a site walks the ops list,
 * ftrace_list_ops) called while a third ops is registered or changes its
 * filter; with a 16-function workload per CPU out of a few hundred and
 * filters of a few dozen, unfocused iterations rarely build one. */
static unsigned plan_focus(struct gen *gn, uint64_t iter_seed, enum gmod_state mode)
{
	const struct fuzz_gen *g = gn->g;
	struct scenario *s = gn->s;
	const char *pool[FUZZ_MAX_FUNCS];
	unsigned np = 0, nw;
	struct ftv_rng frng;

	ftv_rng_seed(&frng, iter_seed ^ 0x666f637573656421ULL);
	if (g->nuser || mode == GM_LATE || !ftv_rng_chance(&frng, 3, 4))
		return 0;
	for (unsigned i = 0; i < g->nfuncs; i++)
		if (avail(gn, i))
			pool[np++] = g->funcs[i];
	gn->nhot = 2 + (unsigned)ftv_rng_below(&frng, 4);
	nw = gn->nhot + 1 + (unsigned)ftv_rng_below(&frng, 5);
	if (nw > np)
		nw = np;
	if (gn->nhot > nw)
		gn->nhot = nw;
	for (unsigned i = 0; i < nw; i++) {
		unsigned j = i + (unsigned)ftv_rng_below(&frng, np - i);
		const char *t = pool[j];

		pool[j] = pool[i];
		pool[i] = t;
		if (i < gn->nhot)
			gn->hot[i] = t;
	}
	/* the hot functions twice a round, the others once */
	for (unsigned i = 0; i < nw + gn->nhot && s->cfg.ncall < WORLD_MAX_CALLS; i++)
		snprintf(s->call[s->cfg.ncall++], sizeof(s->call[0]), "%s",
			 pool[i < nw ? i : i - nw]);
	/* more actions: three ops made and registered take six */
	return 4 + (unsigned)ftv_rng_below(&frng, 5);
}

static int user_modules(const struct fuzz_gen *g)
{
	for (unsigned i = 0; i < g->nuser; i++)
		if (scenario_path_is_module(g->user[i]))
			return 1;
	return 0;
}

void fuzz_generate(const struct fuzz_gen *g, uint64_t iter_seed, struct scenario *s)
{
	struct gen gn;
	struct modplan mp;
	unsigned nact;

	memset(s, 0, sizeof(*s));
	memset(&gn, 0, sizeof(gn));
	gn.g = g;
	gn.s = s;
	ftv_rng_seed(&gn.rng, iter_seed);
	snprintf(s->path, sizeof(s->path), "fuzz-%016llx", (unsigned long long)iter_seed);
	snprintf(s->name, sizeof(s->name), "fuzz-%016llx", (unsigned long long)iter_seed);
	s->cfg.scheme = g->scheme;
	for (unsigned i = 0; i < g->nobjects; i++)
		snprintf(s->objects[i], sizeof(s->objects[i]), "%s", g->objects[i]);
	s->cfg.nobjects = g->nobjects;
	for (unsigned i = 0; i < g->nuser; i++)
		snprintf(s->user_objects[i], sizeof(s->user_objects[i]), "%s", g->user[i]);
	s->nuser = g->nuser;
	snprintf(s->call_list, sizeof(s->call_list), "%s", g->call_list);
	s->cfg.exec.ncpus = g->cpus ? g->cpus : 2 + (unsigned)ftv_rng_below(&gn.rng, 3);
	/* Half the iterations take the uniform random scheduler: it lets the
	 * patcher in between any two turns of the CPUs, where PCT's
	 * priorities mostly run it after or before them. */
	switch (ftv_rng_below(&gn.rng, 4)) {
	case 0:
	case 1:
		s->cfg.exec.policy = EXEC_RANDOM;
		break;
	case 2:
		s->cfg.exec.policy = EXEC_QUANTUM;
		s->cfg.exec.quantum = 50 + (unsigned)ftv_rng_below(&gn.rng, 251);
		break;
	default:
		s->cfg.exec.policy = EXEC_PCT;
		s->cfg.exec.quantum = 50 + (unsigned)ftv_rng_below(&gn.rng, 251);
		s->cfg.exec.pct_depth = 1 + (unsigned)ftv_rng_below(&gn.rng, 4);
		break;
	}
	s->cfg.exec.seed = ftv_rng_next(&gn.rng) >> 1;
	s->cfg.exec.drain_hold = fuzz_drain_hold(iter_seed);
	if (s->cfg.exec.policy == EXEC_PCT)
		s->cfg.exec.cpu_hold = fuzz_cpu_hold(iter_seed);
	s->cfg.exec.window_hold = fuzz_window_hold(iter_seed);
	s->cfg.rounds = 60 + (unsigned)ftv_rng_below(&gn.rng, 91);
	/* once the last update has landed, the round each CPU is in and two
	 * more (every function of its workload called twice over the text
	 * as the updates left it), not the rest of its 60 to 150: a quarter
	 * of an iteration's CPU time went to rounds after the last update
	 * (docs/bench-scale.md) */
	s->cfg.exec.tail_rounds = FUZZ_TAIL_ROUNDS;
	/* the scenario default: ample for 150 rounds of 4 CPUs (a few
	 * thousand steps), and a mutant that sends CPUs astray is cut short
	 * (reported as unfinished) instead of running for minutes */
	s->steps = 100000;
	if (g->mutant && g->mutant->name && strcmp(g->mutant->name, "none")) {
		s->mutant = g->mutant;
		ftv_mutant_apply(g->mutant, &s->cfg);
	}
	s->expect_ok = 1;
	nact = 4 + (unsigned)ftv_rng_below(&gn.rng, 7);
	fuzz_plan_modules(g, iter_seed, nact, &mp);
	for (unsigned m = 0; mp.mode != GM_ABSENT && m < g->nmodules; m++) {
		snprintf(s->modules[m], sizeof(s->modules[m]), "%s", g->modules[m]);
		s->cfg.module_late[m] = mp.mode == GM_LATE;
		gn.mod[m] = mp.mode;
	}
	if (mp.mode != GM_ABSENT) {
		s->cfg.nmodules = g->nmodules;
		s->cfg.far_modules = mp.far;
	}
	nact += plan_focus(&gn, iter_seed, mp.mode);
	/* the boot modules are enabled before anything can call them (and
	 * the modules given by path are loaded at boot) */
	if (mp.mode == GM_BOOT || user_modules(g))
		emit(&gn, "enable-modules", NULL, NULL);
	if (mp.mode == GM_LATE) {
		/* the module's functions must be called for a while after
		 * its long load: more rounds, and a step budget for them (a
		 * quantum of 50 instructions makes a round some 50 steps) */
		s->cfg.rounds += 500;
		s->steps = 400000;
	}
	/* and the budget grows with the world (scenario_default_steps): 32
	 * CPUs of 580 rounds need some 430000 steps, more than either */
	if (s->steps < scenario_default_steps(&s->cfg))
		s->steps = scenario_default_steps(&s->cfg);
	/* the objects' keys: flipped from a stream of their own, so an
	 * iteration without them is drawn as before */
	ftv_rng_seed(&gn.krng, iter_seed ^ 0x6a756d706c61626cULL);
	ftv_rng_seed(&gn.brng, iter_seed ^ 0x6261746368657321ULL);
	for (unsigned i = 0; i < nact; i++) {
		for (unsigned k = 0; k < mp.nkeys; k++)
			if (mp.key_at[k] == i)
				static_key(&gn);
		for (unsigned f = 0; (g->nkeys || g->npokes) && f < 3; f++)
			if (ftv_rng_chance(&gn.krng, 1, 2))
				static_key(&gn);
		for (unsigned m = 0; m < g->nmodules; m++) {
			if (gn.mod[m] == GM_LATE && i == mp.load_at)
				load_module(&gn, m, mp.key_after_load);
			else if (gn.mod[m] == GM_LOADED && i == mp.unload_at &&
				 !module_pinned(&gn, m))
				unload_module(&gn, m);
		}
		step(&gn);
	}
	/* usually tear everything down at the end: unregistering frees the
	 * ops, which is where a missing grace period shows */
	if (ftv_rng_chance(&gn.rng, 3, 4))
		for (unsigned i = 0; i < gn.nops; i++) {
			struct gops *o = &gn.ops[i];

			if (o->registered)
				act(&gn, A_UNREG, o);
			else if (o->direct && o->attached && o->batch)
				batch_act(&gn, o, 0, 1), emit_run(&gn);
			else if (o->direct && o->attached)
				act(&gn, A_DREM, o);
		}
}
