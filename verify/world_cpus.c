/* A world's CPUs and their workload: the functions it calls (the random
 * units', the named ones, or those the call probe accepts), each CPU's
 * per-CPU data and call table, and the calibration round that records
 * what every call returns untraced. */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_abi.h"
#include "util/vec.h"

static int callable(const struct world *w, const struct wrec *r)
{
	const char *p = w->cfg.callable_prefix ? w->cfg.callable_prefix : "r";
	const char *n = r->name;

	if (r->rec < 0 || !r->active || !n)
		return 0;
	/* the static-key unit's functions (corpus/src/jumplabel.c) take
	 * integers too */
	if (!w->cfg.callable_prefix && !strncmp(n, "jl_", 3))
		return 1;
	/* and the BPF unit's (corpus/src/bpf.c) */
	if (!w->cfg.callable_prefix && !strncmp(n, "bpf_", 4))
		return 1;
	if (strncmp(n, p, strlen(p)))
		return 0;
	if (w->cfg.callable_prefix)
		return 1;
	/* the random units' functions: r<seed>_f<n>(long, long) */
	n += 1;
	while (*n >= '0' && *n <= '9')
		n++;
	if (n[0] != '_' || n[1] != 'f')
		return 0;
	for (n += 2; *n; n++)
		if (*n < '0' || *n > '9')
			return 0;
	return 1;
}

/* world_config.call: the records of the functions named, in order. */
static int named_calls(struct world *w, int *pool, struct ftv_err *err)
{
	for (unsigned k = 0; k < w->cfg.ncall; k++) {
		int found = -1;

		for (size_t i = 0; i < w->nrecs && found < 0; i++)
			if (w->recs[i].name && !strcmp(w->recs[i].name, w->cfg.call[k]))
				found = (int)i;
		if (found < 0 || !callable(w, &w->recs[found]))
			return ftv_errf(err, "call %s: no traced function of that name in "
					"the objects that takes integers", w->cfg.call[k]);
		pool[k] = found;
		w->called[found] = 1;
	}
	return 0;
}

/* Whether record i is a function of an object whose functions the probe
 * decides about (world_config.probe_object, probe_module). */
static int probed_object(const struct world *w, const struct wrec *r)
{
	const struct world_config *c = &w->cfg;

	if (!r->site || !r->site->object)
		return 0;
	for (unsigned i = 0; i < c->nobjects; i++)
		if (c->probe_object[i] && !strcmp(c->objects[i], r->site->object))
			return 1;
	for (unsigned i = 0; i < c->nmodules; i++)
		if (c->probe_module[i] && !strcmp(c->modules[i], r->site->object))
			return 1;
	return 0;
}

static void pool_add(struct world *w, int *pool, size_t *npool, size_t i)
{
	if (w->called[i])
		return;
	w->called[i] = 1;
	pool[(*npool)++] = (int)i;
}

/* Adds the functions cfg.call_list names, or else every function of the
 * probed objects, that the call probe accepts. */
static int probe_pool(struct world *w, int *pool, size_t *npool, struct ftv_err *err)
{
	const char *p = w->cfg.call_list;
	int ret = 0;

	while (p && *p && !ret) {
		size_t len = strcspn(p, ",");
		int found = 0;

		for (size_t i = 0; i < w->nrecs && !ret; i++) {
			const struct wrec *r = &w->recs[i];
			int pr;

			if (r->rec < 0 || !r->active || !r->name || strlen(r->name) != len ||
			    strncmp(r->name, p, len))
				continue;
			found = 1;
			if (r->mod >= 0 && w->mods[r->mod].late)
				ret = ftv_errf(err, "call %s: a function of the late module %s "
					       "(the workload calls it once loaded)", r->name,
					       w->mods[r->mod].name);
			else if ((pr = world_probe(w, i, err)) < 0)
				ret = -1;
			else if (pr)
				ret = ftv_errf(err, "call %s: the workload cannot call it: %s",
					       r->name, w->probe[i].why);
			else
				pool_add(w, pool, npool, i);
		}
		if (!found && !ret)
			ret = ftv_errf(err, "call %.*s: no traced function of that name (one "
				       "with a patch site init_nop accepted)", (int)len, p);
		p += len;
		p += *p == ',';
	}
	for (size_t i = 0; !w->cfg.call_list && i < w->nrecs && !ret; i++) {
		const struct wrec *r = &w->recs[i];
		int pr;

		if (r->rec < 0 || !r->active || w->called[i] || !probed_object(w, r) ||
		    (r->mod >= 0 && w->mods[r->mod].late))
			continue;
		pr = world_probe(w, i, err);
		if (pr < 0)
			ret = -1;
		else if (!pr)
			pool_add(w, pool, npool, i);
	}
	world_probe_free(w);
	return ret;
}

size_t world_callables(const struct world *w, const char **names, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; w->called && i < w->nrecs; i++) {
		int dup = 0;

		if (!w->called[i] || !w->recs[i].name)
			continue;
		for (size_t k = 0; k < n && k < max && !dup; k++)
			dup = !strcmp(names[k], w->recs[i].name);
		if (dup)
			continue;
		if (n < max)
			names[n] = w->recs[i].name;
		n++;
	}
	return n;
}

/* What the probe let the workload call, and what it refused. */
static void probe_note(const struct world *w, FILE *f)
{
	const char *names[8];
	size_t n = world_callables(w, names, 8);
	char sum[600];

	fprintf(f, "note: the workload calls %zu function%s:", n, n == 1 ? "" : "s");
	for (size_t i = 0; i < n && i < 8; i++)
		fprintf(f, "%s %s", i ? "," : "", names[i]);
	world_probe_summary(w, sum, sizeof(sum));
	fprintf(f, "%s%s%s\n", n > 8 ? ", ..." : "", sum[0] ? "; " : "", sum);
}

int world_setup_cpus(struct world *w, struct ftv_err *err)
{
	unsigned ncpus = w->cfg.exec.ncpus, ncalls = w->cfg.calls ? w->cfg.calls : 16;
	int *pool = calloc(w->nrecs > WORLD_MAX_CALLS ? w->nrecs : WORLD_MAX_CALLS,
			   sizeof(int));
	size_t npool = 0;
	struct ftv_rng rng, rng0;

	w->called = calloc(w->nrecs ? w->nrecs : 1, 1);
	if (!pool || !w->called) {
		free(pool);
		return ftv_errf(err, "out of memory");
	}
	if (w->cfg.ncall) {
		if (named_calls(w, pool, err)) {
			free(pool);
			return -1;
		}
		ncalls = w->cfg.ncall;
		npool = ncalls;
	}
	for (size_t i = 0; i < w->nrecs && !w->cfg.ncall; i++)
		if (callable(w, &w->recs[i]))
			pool_add(w, pool, &npool, i);
	if (probe_pool(w, pool, &npool, err)) {
		free(pool);
		return -1;
	}
	if (w->probe && w->cfg.notes_out && npool)
		probe_note(w, w->cfg.notes_out);
	if (!npool) {
		char sum[600];

		free(pool);
		world_probe_summary(w, sum, sizeof(sum));
		if (sum[0])
			return ftv_errf(err, "no function of the objects can be called by the "
				       "workload: %s", sum);
		return ftv_errf(err, "no callable traced function in the objects "
			       "(the workload calls the random units' r<N>_f<M>)");
	}
	ftv_rng_fork(&w->rng, &rng, 0x3017);
	rng0 = rng;
	for (unsigned c = 0; c < ncpus; c++) {
		struct wcpu *cpu = &w->cpu[c];

		/* `symmetric`: every CPU draws its calls from the same
		 * stream (the same list and arguments), and its block
		 * starts on a page of its own (world_sym.c) */
		if (w->cfg.symmetric)
			rng = rng0;
		cpu->pcpu = sim_region_alloc(w->percpu, FTV_PCPU_SIZE,
					     w->cfg.symmetric ? WORLD_SYM_ALIGN : 64, err);
		cpu->log = sim_region_alloc(w->percpu, WORLD_LOG_CAP * FTV_LOG_SIZE, 64, err);
		cpu->graph = sim_region_alloc(w->percpu, WORLD_GRAPH_DEPTH * FTV_GRAPH_SIZE, 64, err);
		cpu->work = sim_region_alloc(w->percpu, FTV_WORK_SIZE, 64, err);
		cpu->calls = sim_region_alloc(w->percpu, ncalls * FTV_CALL_SIZE, 64, err);
		if (!cpu->pcpu || !cpu->log || !cpu->graph || !cpu->work || !cpu->calls) {
			free(pool);
			return -1;
		}
		cpu->call_rec = calloc(ncalls, sizeof(int));
		if (!cpu->call_rec) {
			free(pool);
			return ftv_errf(err, "out of memory");
		}
		cpu->ncalls = ncalls;
		cpu->stack = SIM_STACK_BASE + (c + 1) * WORLD_STACK_SIZE - 64;
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_CPU, c);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_LOG_CAP, WORLD_LOG_CAP);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_LOG, cpu->log);
		sim_write64(w->as, cpu->pcpu + FTV_PCPU_GRAPH, cpu->graph);
		for (unsigned i = 0; i < ncalls; i++) {
			uint64_t e = cpu->calls + i * FTV_CALL_SIZE;
			int ri = w->cfg.ncall ? pool[i] : pool[ftv_rng_below(&rng, npool)];
			const struct wrec *r = &w->recs[ri];
			const struct wprobe *pr = w->probe ? &w->probe[ri] : NULL;

			cpu->call_rec[i] = ri;
			sim_write64(w->as, e + FTV_CALL_FN, r->func);
			if (pr && pr->state == WPROBE_OK) {
				/* one of the argument vectors the probe
				 * accepted */
				const uint64_t *v = pr->args[ftv_rng_below(&rng, pr->nvec)];

				for (int a = 0; a < 3; a++)
					sim_write64(w->as, e + FTV_CALL_ARG0 + 8 * a, v[a]);
				continue;
			}
			for (int a = 0; a < 3; a++)
				sim_write64(w->as, e + FTV_CALL_ARG0 + 8 * a,
					    ftv_rng_below(&rng, 1000));
		}
		sim_write64(w->as, cpu->work + FTV_WORK_CALLS, cpu->calls);
		sim_write64(w->as, cpu->work + FTV_WORK_NCALLS, ncalls);
	}
	free(pool);
	/* the end of the last CPU's block: what the region hands out next
	 * lies beyond it */
	if (w->cfg.symmetric &&
	    !(w->sym_end = sim_region_alloc(w->percpu, 1, WORLD_SYM_ALIGN, err)))
		return -1;
	return 0;
}

int world_start_cpus(struct world *w, struct ftv_exec *ex, unsigned rounds, int calibrate,
		      struct ftv_err *err)
{
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++) {
		struct wcpu *cpu = &w->cpu[c];

		sim_write64(w->as, cpu->work + FTV_WORK_ROUNDS, rounds);
		sim_write64(w->as, cpu->work + FTV_WORK_DONE, 0);
		sim_write64(w->as, cpu->work + FTV_WORK_CALIBRATE, calibrate);
		/* `symmetric`: no register keeps what the round before
		 * left in it (a CPU's own, its calibration's: no two CPUs
		 * alike, world_sym.c); x0..x31 (arm64: x0..x30 and sp,
		 * which exec_cpu_setup sets) */
		for (int r = 0; w->cfg.symmetric && r < 32; r++)
			exec_cpu_set_reg(ex, c, r, 0);
		if (exec_cpu_setup(ex, c, w->workload, cpu->stack, &cpu->work, 1,
				   w->workload_done, err))
			return -1;
		/* the tracers' this_cpu base: TPIDR_EL1 on arm64, tp on riscv */
		exec_cpu_set_reg(ex, c, w->ad->reg_pcpu, cpu->pcpu);
		if (w->sd->start_cpu)
			w->sd->start_cpu(w, ex, c);
		if (exec_cpu_quiescent(ex, c, w->quiescent, err) ||
		    world_bpf_start(w, ex, c, err))
			return -1;
	}
	return 0;
}

/* One round per CPU with every site disabled, recording what each call
 * returns untraced. */
int world_calibrate(struct world *w, struct ftv_exec *ex, struct ftv_err *err)
{
	/* Unpatched code, before any verdict: no time guard (its first
	 * turns translate every function, the slowest of all), the
	 * instruction budget still stops a CPU that never returns. */
	uint64_t guard = exec_set_turn_guard(ex, 0);
	int r = world_start_cpus(w, ex, 1, 1, err) || exec_run(ex, 50000000, err);

	exec_set_turn_guard(ex, guard);
	if (r)
		return -1;
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		if (!exec_cpu_done(ex, c))
			return ftv_errf(err, "cpu%u did not finish its calibration round", c);
	return 0;
}

/* The late modules' functions return untraced what they will return once
 * loaded: calibrated on a machine of its own, with the modules' sites in
 * the state ftrace_module_init will leave them in (a -pg site still calling
 * _mcount would trap), before the world's machine copies the memory with
 * the compiler's words put back. Their call-table entries stay empty until
 * the module is loaded. */
int world_calibrate_late(struct world *w, const struct exec_config *ec, struct ftv_err *err)
{
	struct plan p;
	uint64_t lit = (w->backend->flags & FTRACE_ARCH_CALL_OPS) ? ftrace_core_nop_ops(w->core) : 0;
	struct { uint64_t addr, old; int wide; } *saved = NULL;
	size_t nsaved = 0, capsaved = 0;
	struct ftv_exec *ex = NULL;
	int late = 0, ret = -1;

	plan_init(&p);
	for (size_t i = 0; i < w->nrecs; i++) {
		const struct wrec *r = &w->recs[i];
		struct ftrace_site fs = world_ftrace_site(r->site);

		if (r->rec < 0 || r->mod < 0 || !w->mods[r->mod].late)
			continue;
		late = 1;
		fs.plt = w->mods[r->mod].plt;
		if (w->backend->init_nop(w->arch_ctx, &fs, lit, &p, err))
			goto out;
	}
	if (!late) {
		ret = 0;
		goto out;
	}
	for (size_t i = 0; i < p.n; i++) {
		const struct plan_step *st = &p.steps[i];
		uint64_t old = 0;
		uint32_t w32 = 0;
		int wide = st->op == PLAN_WRITE_DATA64;

		if (st->op != PLAN_WRITE_INSN && !wide)
			continue;
		if (VEC_RESERVE(saved, capsaved, nsaved + 1)) {
			ftv_errf(err, "out of memory");
			goto out;
		}
		if (wide)
			sim_read64(w->as, st->addr, &old);
		else if (!sim_read32(w->as, st->addr, &w32))
			old = w32;
		saved[nsaved].addr = st->addr;
		saved[nsaved].old = old;
		saved[nsaved++].wide = wide;
		if (wide)
			sim_write64(w->as, st->addr, st->new);
		else
			sim_write32(w->as, st->addr, (uint32_t)st->new);
	}
	ex = exec_new(w->as, ec, err);
	if (!ex || world_calibrate(w, ex, err))
		goto out;
	exec_free(ex);
	ex = NULL;
	for (size_t i = nsaved; i-- > 0;) {
		if (saved[i].wide)
			sim_write64(w->as, saved[i].addr, saved[i].old);
		else
			sim_write32(w->as, saved[i].addr, (uint32_t)saved[i].old);
	}
	for (size_t m = 0; m < w->nmods; m++)
		if (w->mods[m].late)
			world_module_calls(w, m, 0);
	ret = 0;
out:
	if (ex)
		exec_free(ex);
	free(saved);
	plan_free(&p);
	return ret;
}
