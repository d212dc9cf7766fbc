/* Seed 000's overhead table: each row's ftrace state built by the real core
 * and arm64 backend in a verify world, then the sample's loop counted
 * instruction by instruction on an engine of its own. See overhead.h. */
#include "bench/overhead.h"

#include <stdio.h>
#include <string.h>
#include <unicorn/unicorn.h>

#include "patcher/ftrace_abi.h"
#include "sim/aspace.h"

/* Seed 000's rows: irrelevant tracers alone, one relevant tracer among
 * irrelevant ones, then relevant tracers alone. */
const struct ovh_row ovh_rows[] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 10 }, { 0, 100 },
	{ 1, 1 }, { 1, 2 }, { 1, 10 }, { 1, 100 },
	{ 1, 0 }, { 2, 0 }, { 10, 0 }, { 100, 0 },
};
const unsigned ovh_nrows = sizeof(ovh_rows) / sizeof(ovh_rows[0]);

#define OVH_TRACEE "ftv_bench_tracee"
#define OVH_OTHER  "ftv_bench_other"
#define OVH_MAX_OPS 100

/* Scheduler steps to apply the updates of one row (up to 100 registrations
 * or unregistrations, with the CPU idle). */
#define OVH_FINISH_STEPS 50000000ULL

struct counter {
	uint64_t n, stop;
	uint64_t tracer[2];  /* entries of ftv_tracer_a (relevant), _b */
	uint64_t entered[2]; /* how often each was entered */
};

/* A tracer is entered by a branch, so a translation block (and an
 * instruction) starts at its entry exactly once per call. */
static void count_tracers(struct counter *c, uint64_t addr)
{
	for (int k = 0; k < 2; k++)
		c->entered[k] += addr == c->tracer[k];
}

/* A translation block runs whole unless something faults inside it, and a
 * fault ends the measurement anyway: summing block sizes counts exactly
 * what the per-instruction hook counts, at a fraction of the cost. */
static void count_block(uc_engine *uc, uint64_t addr, uint32_t size, void *arg)
{
	struct counter *c = arg;

	(void)uc;
	if (addr != c->stop)
		c->n += size / 4;
	count_tracers(c, addr);
}

static void count_insn(uc_engine *uc, uint64_t addr, uint32_t size, void *arg)
{
	struct counter *c = arg;

	(void)uc;
	(void)size;
	if (addr != c->stop)
		c->n++;
	count_tracers(c, addr);
}

static int sym_addr(struct sim_aspace *as, const char *name, uint64_t *out,
		    struct ftv_err *err)
{
	const struct sim_symbol *s = sim_sym_lookup(as, name);

	if (!s)
		return ftv_errf(err, "bench: symbol %s not found in the loaded objects",
				name);
	*out = s->addr;
	return 0;
}

/* Runs ftv_bench_loop(calls) on a fresh engine over the world's memory (the
 * words and literals the plans wrote) and counts its instructions. The
 * tracers find a per-CPU area with no log (capacity 0), so each returns
 * straight away like the sample's empty tracer function. */
static int run_loop(struct world *w, uint64_t calls, int per_insn,
		    struct ovh_measure *out, struct ftv_err *err)
{
	struct sim_aspace *as = world_aspace(w);
	struct sim_region *percpu = sim_region_named(as, "percpu");
	struct sim_region *stacks = sim_region_named(as, "stacks");
	struct counter cnt = { 0 };
	uint64_t loop = 0, pcpu, sp, pc = 0;
	uc_engine *uc;
	uc_hook h;
	uc_err e;
	int ret = -1;

	if (sym_addr(as, "ftv_bench_loop", &loop, err) ||
	    sym_addr(as, "ftv_bench_stop", &cnt.stop, err) ||
	    sym_addr(as, "ftv_tracer_a", &cnt.tracer[0], err) ||
	    sym_addr(as, "ftv_tracer_b", &cnt.tracer[1], err))
		return -1;
	if (!percpu || !stacks)
		return ftv_errf(err, "bench: the world has no percpu or stacks region");
	pcpu = sim_region_alloc(percpu, FTV_PCPU_SIZE, 64, err);
	if (!pcpu)
		return -1;
	for (unsigned off = 0; off < FTV_PCPU_SIZE; off += 8)
		sim_write64(as, pcpu + off, 0);
	/* the top of the last stack slot, which no world CPU uses */
	sp = stacks->base + stacks->size - 64;
	e = uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc);
	if (e != UC_ERR_OK)
		return ftv_errf(err, "bench: uc_open: %s", uc_strerror(e));
	for (size_t i = 0; i < sim_region_count(as); i++) {
		struct sim_region *r = sim_region_get(as, i);

		e = uc_mem_map_ptr(uc, r->base, r->size, UC_PROT_ALL, r->host);
		if (e != UC_ERR_OK) {
			ftv_errf(err, "bench: map %s: %s", r->name, uc_strerror(e));
			goto out;
		}
	}
	e = uc_hook_add(uc, &h, per_insn ? UC_HOOK_CODE : UC_HOOK_BLOCK,
			per_insn ? (void *)count_insn : (void *)count_block, &cnt,
			1, 0);
	if (e != UC_ERR_OK) {
		ftv_errf(err, "bench: hook: %s", uc_strerror(e));
		goto out;
	}
	uc_reg_write(uc, UC_ARM64_REG_X0, &calls);
	uc_reg_write(uc, UC_ARM64_REG_SP, &sp);
	uc_reg_write(uc, UC_ARM64_REG_X30, &cnt.stop);
	uc_reg_write(uc, UC_ARM64_REG_TPIDR_EL1, &pcpu);
	e = uc_emu_start(uc, loop, cnt.stop, 0, 0);
	uc_reg_read(uc, UC_ARM64_REG_PC, &pc);
	if (e != UC_ERR_OK || pc != cnt.stop) {
		char where[160];

		ftv_errf(err, "bench: the loop stopped at %s: %s",
			 sim_symbolize(as, pc, where, sizeof(where), 0),
			 e != UC_ERR_OK ? uc_strerror(e) : "not at ftv_bench_stop");
		goto out;
	}
	out->insns = cnt.n;
	out->relevant_calls = cnt.entered[0];
	out->irrelevant_calls = cnt.entered[1];
	ret = 0;
out:
	uc_close(uc);
	return ret;
}

/* The world of one scheme, with the ops registered now. */
struct ovh_world {
	struct world *w;
	struct ftrace_ops *ops[2][OVH_MAX_OPS]; /* [0] relevant, [1] irrelevant */
	unsigned n[2];
	unsigned seq;                           /* ops names are never reused */
	char obj[4096];                         /* the tracee object's path */
};

static int new_world(const struct ovh_env *env, enum ftv_scheme scheme,
		     struct ovh_world *ow, struct ftv_err *err)
{
	struct world_config cfg;

	memset(ow, 0, sizeof(*ow));
	memset(&cfg, 0, sizeof(cfg));
	snprintf(ow->obj, sizeof(ow->obj), "%s/%s/tracee.o", env->tracee_dir,
		 ftv_scheme_corpus_set(scheme));
	cfg.scheme = scheme;
	cfg.objects[0] = ow->obj;
	cfg.nobjects = 1;
	cfg.tramp_dir = env->tramp_dir;
	cfg.exec.ncpus = 1;
	cfg.exec.policy = EXEC_RANDOM;
	cfg.exec.seed = 1;
	cfg.mutant_name = "none";
	/* The world's own workload (one call of the tracee) only has to
	 * finish; the measured loop runs afterwards on its own engine. */
	cfg.rounds = 1;
	cfg.calls = 1;
	cfg.callable_prefix = OVH_TRACEE;
	return world_new(&cfg, &ow->w, err);
}

/* Registers (the sample's ops are each registered on their own) or
 * unregisters the newest ops of a kind until n of them are registered. */
static int set_count(struct ovh_world *ow, int kind, unsigned n,
		     struct ftv_err *err)
{
	if (n > OVH_MAX_OPS)
		return ftv_errf(err, "bench: at most %d ops of a kind", OVH_MAX_OPS);
	while (ow->n[kind] < n) {
		char name[32];
		struct ftrace_ops *ops;

		snprintf(name, sizeof(name), "%s%u", kind ? "irrelevant" : "relevant",
			 ow->seq++);
		ops = world_ops(ow->w, name, kind ? "tracer_b" : "tracer_a", err);
		if (!ops || world_set_filter(ow->w, ops, kind ? OVH_OTHER : OVH_TRACEE, err) ||
		    world_register(ow->w, ops, err))
			return -1;
		ow->ops[kind][ow->n[kind]++] = ops;
	}
	while (ow->n[kind] > n)
		if (world_unregister(ow->w, ow->ops[kind][--ow->n[kind]], err))
			return -1;
	return 0;
}

/* Applies every queued plan (the CPU is idle by now) and insists that each
 * completed and the verifier saw nothing wrong. */
static int settle(struct ovh_world *ow, enum ftv_scheme scheme, int last,
		  struct ftv_err *err)
{
	struct ftv_exec *ex = world_exec(ow->w);
	const struct exec_plan_result *r;
	size_t nx;

	if (last ? world_finish(ow->w, OVH_FINISH_STEPS, err)
		 : world_run(ow->w, OVH_FINISH_STEPS, err))
		return -1;
	for (int id = 0; (r = exec_plan_result(ex, id)); id++)
		if (r->status != EXEC_PLAN_DONE)
			return ftv_errf(err, "bench: %s (%u,%u): plan %d did not complete",
					ftv_scheme_name(scheme), ow->n[0], ow->n[1], id);
	exec_violations(ex, &nx);
	if (nx + world_nviolations(ow->w)) {
		world_report(ow->w, stderr);
		return ftv_errf(err, "bench: %s (%u,%u): the verifier found %zu violations "
				"while building the state", ftv_scheme_name(scheme),
				ow->n[0], ow->n[1], nx + world_nviolations(ow->w));
	}
	return 0;
}

/* The tracee's patched word and literal now, and the loop's count. */
static int measure_now(struct ovh_world *ow, const struct ovh_env *env,
		       uint64_t calls, struct ovh_measure *out,
		       struct ftv_err *err)
{
	struct ftrace_core *core = world_core(ow->w);
	struct sim_aspace *as = world_aspace(ow->w);
	const struct sim_symbol *t = sim_sym_lookup(as, OVH_TRACEE);
	const struct ftrace_rec *rec = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; t && i < ftrace_core_nrecs(core); i++)
		if (ftrace_core_rec(core, i)->site.func == t->addr)
			rec = ftrace_core_rec(core, i);
	if (!rec)
		return ftv_errf(err, "bench: no ftrace record for %s", OVH_TRACEE);
	sim_read32(as, rec->site.ip, &out->site_word);
	if (rec->site.literal)
		sim_read64(as, rec->site.literal, &out->literal);
	out->list_ops = ftrace_core_list_ops(core);
	out->calls = calls;
	if (run_loop(ow->w, calls, env->per_insn, out, err))
		return -1;
	/* What the rows are about: every relevant tracer ran once per call,
	 * no irrelevant one ever did. */
	if (out->relevant_calls != (uint64_t)ow->n[0] * calls || out->irrelevant_calls)
		return ftv_errf(err, "bench: (%u,%u): %llu relevant and %llu irrelevant "
				"tracer calls for %llu calls", ow->n[0], ow->n[1],
				(unsigned long long)out->relevant_calls,
				(unsigned long long)out->irrelevant_calls,
				(unsigned long long)calls);
	return 0;
}

int ovh_measure(const struct ovh_env *env, enum ftv_scheme scheme,
		unsigned relevant, unsigned irrelevant, uint64_t calls,
		struct ovh_measure *out, struct ftv_err *err)
{
	struct ovh_world ow;
	int ret = -1;

	if (new_world(env, scheme, &ow, err))
		return -1;
	if (!set_count(&ow, 0, relevant, err) && !set_count(&ow, 1, irrelevant, err) &&
	    !settle(&ow, scheme, 1, err))
		ret = measure_now(&ow, env, calls, out, err);
	world_free(ow.w);
	return ret;
}

/* The order in which one world visits the rows: irrelevant tracers are
 * added up to 100, one relevant tracer joins them, the irrelevant ones
 * leave again, and relevant tracers are added. Every row is reached by
 * register/unregister updates of the real core, and the core computes each
 * record's state from the registered ops alone, so the state of a row does
 * not depend on the path (the Check test compares a row with a fresh
 * world's). */
static const struct ovh_row path[] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 10 }, { 0, 100 },
	{ 1, 100 }, { 1, 10 }, { 1, 2 }, { 1, 1 }, { 1, 0 },
	{ 2, 0 }, { 10, 0 }, { 100, 0 },
};

int ovh_measure_rows(const struct ovh_env *env, enum ftv_scheme scheme,
		     uint64_t calls, struct ovh_measure *out,
		     struct ftv_err *err)
{
	const unsigned npath = sizeof(path) / sizeof(path[0]);
	struct ovh_world ow;
	int ret = -1;

	if (new_world(env, scheme, &ow, err))
		return -1;
	for (unsigned p = 0; p < npath; p++) {
		unsigned r;

		for (r = 0; r < ovh_nrows; r++)
			if (ovh_rows[r].relevant == path[p].relevant &&
			    ovh_rows[r].irrelevant == path[p].irrelevant)
				break;
		if (set_count(&ow, 0, path[p].relevant, err) ||
		    set_count(&ow, 1, path[p].irrelevant, err) ||
		    settle(&ow, scheme, p + 1 == npath, err) ||
		    measure_now(&ow, env, calls, &out[r], err))
			goto out;
	}
	ret = 0;
out:
	world_free(ow.w);
	return ret;
}
