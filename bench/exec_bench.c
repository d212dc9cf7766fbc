/* make bench: emulated instructions per second of the executor with 1, 2, 4
 * and 8 CPUs calling a function in a loop while its CALL_OPS-style site is
 * occasionally toggled NOP <-> BL (with cache maintenance and an IPI), next
 * to the same code free-running in one engine with no hooks at all. Prints
 * the machine, the median of several runs of each, the ratio and peak RSS.
 * Rates are per second of process CPU time. */
#include "encoders/a64.h"
#include "executor/exec.h"
#include "patcher/plan.h"
#include "sim/aspace.h"
#include "bench/machine.h"
#include "bench/targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unicorn/unicorn.h>
#include <unistd.h>

#define T SIM_KERNEL_TEXT_BASE
#define INNER 64               /* inner loop trips per call */
#define MAX_REPS 7
#define TARGET 50.0            /* % of free-running at sparse events */

/* Calls per CPU and rounds: make bench's, or --quick's (make bench-quick). */
static unsigned long long iters = 400000;
static int reps = MAX_REPS;

/* Per call with the site a NOP: loop 3 + func 4 + mov 1 + INNER * 4 + ret. */
#define INSNS_PER_CALL (3 + 4 + 4ULL * INNER + 1)

struct layout {
	uint64_t loop, end, func, site, tramp, lit;
};

static void put(struct sim_aspace *as, uint64_t *pc, const char *text)
{
	struct ftv_err err;
	uint32_t w;

	if (a64_assemble(text, *pc, &w, &err)) {
		fprintf(stderr, "bench: %s: %s\n", text, err.msg);
		exit(2);
	}
	sim_write32(as, *pc, w);
	*pc += 4;
}

static struct sim_aspace *build(struct layout *l)
{
	struct sim_aspace *as = sim_aspace_new();
	char buf[96];
	uint64_t pc;

	sim_map(as, "text", T, 0x4000, SIM_R | SIM_X, SIM_REGION_TEXT, NULL);
	sim_map(as, "stack", SIM_STACK_BASE, 0x10000, SIM_R | SIM_W,
		SIM_REGION_STACK, NULL);
	l->loop = T;
	l->func = T + 0x100;
	l->site = l->func + 4;
	l->lit = l->func - 8;
	l->tramp = T + 0x400;
	pc = l->loop;
	snprintf(buf, sizeof(buf), "bl 0x%llx", (unsigned long long)l->func);
	put(as, &pc, buf);
	put(as, &pc, "sub x20, x20, #1");
	snprintf(buf, sizeof(buf), "cbnz x20, 0x%llx", (unsigned long long)l->loop);
	put(as, &pc, buf);
	l->end = pc;
	sim_write64(as, l->lit, SIM_DATA_BASE);
	pc = l->func;
	put(as, &pc, "mov x9, x30");
	put(as, &pc, "nop");
	put(as, &pc, "mov x30, x9");
	snprintf(buf, sizeof(buf), "mov x0, #%d", INNER);
	put(as, &pc, buf);
	put(as, &pc, "add x1, x1, #3");
	put(as, &pc, "add x2, x2, #5");
	put(as, &pc, "sub x0, x0, #1");
	snprintf(buf, sizeof(buf), "cbnz x0, 0x%llx",
		 (unsigned long long)(pc - 12));
	put(as, &pc, buf);
	put(as, &pc, "ret");
	pc = l->tramp;
	put(as, &pc, "ldur x10, [x30, #-16]");
	put(as, &pc, "add x21, x21, #1"); /* counts the calls it takes */
	put(as, &pc, "ret");
	sim_sym_add(as, "func", l->func, 0x40, SIM_SYM_FUNC, NULL);
	return as;
}

/* One engine, no hooks: the ceiling. It makes as many calls as the
 * executor run it is compared with (ncpus times a CPU's), just before it:
 * timed once per round for one CPU's calls (25 ms against up to 400 ms),
 * its rate moved by 15% from one make bench to the next. */
static double free_running(unsigned ncpus)
{
	struct layout l;
	struct sim_aspace *as = build(&l);
	uc_engine *uc;
	uint64_t calls = ncpus * iters, x20 = calls, sp = SIM_STACK_BASE + 0x1000;
	double t0, t1;

	uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc);
	for (size_t i = 0; i < sim_region_count(as); i++) {
		struct sim_region *r = sim_region_get(as, i);

		uc_mem_map_ptr(uc, r->base, r->size, UC_PROT_ALL, r->host);
	}
	uc_reg_write(uc, UC_ARM64_REG_X20, &x20);
	uc_reg_write(uc, UC_ARM64_REG_SP, &sp);
	t0 = bench_cpu();
	if (uc_emu_start(uc, l.loop, l.end, 0, 0) != UC_ERR_OK) {
		fprintf(stderr, "bench: free-running engine faulted\n");
		exit(1);
	}
	t1 = bench_cpu();
	uc_close(uc);
	sim_aspace_free(as);
	return (double)(calls * INSNS_PER_CALL) / (t1 - t0);
}

struct exec_result {
	double ips;
	uint64_t patches, fetches, viol;
};

static struct exec_result executor(unsigned ncpus, uint64_t seed,
				   unsigned every)
{
	struct exec_config cfg = { .ncpus = ncpus, .policy = EXEC_RANDOM,
				   .seed = seed, .quiet_obs = 1 };
	struct exec_result r = { 0 };
	struct layout l;
	struct sim_aspace *as = build(&l);
	struct ftv_err err;
	struct ftv_exec *ex = exec_new(as, &cfg, &err);
	struct exec_stats st;
	uint64_t tramp_calls = 0, insns;
	uint32_t nop = a64_gen_nop(), bl;
	int on = 0, last = -1;
	double t0, t1;
	size_t nv;

	if (!ex || a64_gen_branch(l.site, l.tramp, 1, &bl, &err)) {
		fprintf(stderr, "bench: %s\n", err.msg);
		exit(2);
	}
	for (unsigned i = 0; i < ncpus; i++) {
		uint64_t arg = 0;

		exec_cpu_setup(ex, i, l.loop, SIM_STACK_BASE + 0x1000 * (i + 1),
			       &arg, 1, l.end, &err);
		exec_cpu_set_reg(ex, i, 20, iters);
		exec_cpu_quiescent(ex, i, l.loop, &err);
	}
	exec_watch_insn(ex, l.site, &err);
	exec_watch_data64(ex, l.lit, &err);
	t0 = bench_cpu();
	for (;;) {
		int done = 1;
		struct plan p;

		exec_run(ex, every, &err);
		for (unsigned i = 0; i < ncpus; i++)
			done &= exec_cpu_done(ex, i);
		if (done)
			break;
		if (last >= 0 && exec_plan_result(ex, last)->status !=
					 EXEC_PLAN_DONE)
			continue;
		/* A patch event: ftrace_make_call / ftrace_make_nop. */
		plan_init(&p);
		plan_write_insn(&p, l.site, on ? bl : nop, on ? nop : bl, 1, 0,
				on ? "make_nop" : "make_call");
		plan_cache_sync(&p, l.site, 4, 0);
		plan_simple(&p, PLAN_SYNC_ALL, 0, "kick_all_cpus_sync");
		last = exec_submit(ex, &p, NULL, NULL, &err);
		plan_free(&p);
		on = !on;
		r.patches++;
	}
	t1 = bench_cpu();
	for (unsigned i = 0; i < ncpus; i++)
		tramp_calls += exec_cpu_reg(ex, i, 21);
	exec_get_stats(ex, &st);
	exec_violations(ex, &nv);
	insns = ncpus * iters * INSNS_PER_CALL + 3 * tramp_calls;
	r.ips = (double)insns / (t1 - t0);
	r.fetches = st.fetches;
	r.viol = nv;
	exec_free(ex);
	sim_aspace_free(as);
	return r;
}

int main(int argc, char **argv)
{
	static const unsigned cpus[] = { 1, 2, 4, 8 };
	/* Scheduler steps between patch events: frequent, then sparse. */
	static const unsigned every[] = { 40, 120 };
	enum { NK = sizeof(cpus) / sizeof(cpus[0]), NE = 2 };
	double fr[MAX_REPS * NE * NK], v[NE][NK][MAX_REPS], ratio[NE][NK][MAX_REPS];
	int nfr = 0;
	struct exec_result r[NE][NK];
	struct rusage ru;

	/* --cpus N: that row alone (a profile of it: docs/bench-scale.md) */
	unsigned only = 0;

	for (int a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--quick")) {
			iters = 50000;
			reps = 3;
		} else if (!strcmp(argv[a], "--cpus") && a + 1 < argc &&
			   (only = (unsigned)atoi(argv[a + 1])) > 0) {
			a++;
		} else {
			fprintf(stderr, "usage: %s [--quick] [--cpus 1|2|4|8]\n", argv[0]);
			return 2;
		}
	}
	for (int k = 0; only && k < NK && cpus[k] != only; k++)
		if (k == NK - 1) {
			fprintf(stderr, "bench: --cpus %u: one of 1, 2, 4, 8\n", only);
			return 2;
		}
	bench_machine(stdout);
	printf("workload: %llu calls per CPU, %llu instructions per call; the site is toggled NOP <-> BL (cache maintenance + IPI) every %u or %u scheduler steps\n",
	       (unsigned long long)iters, (unsigned long long)INSNS_PER_CALL,
	       every[0], every[1]);
	printf("medians of %d rounds; rates per second of process CPU time; each executor run is timed right after the free-running engine making as many calls, and the ratio is taken per pair\n",
	       reps);
	for (int i = 0; i < reps; i++)
		for (int e = 0; e < NE; e++)
			for (int k = 0; k < NK; k++) {
				double f;

				if (only && cpus[k] != only)
					continue;
				f = free_running(cpus[k]);

				fr[nfr++] = f;
				r[e][k] = executor(cpus[k], 1 + (uint64_t)i,
						   every[e]);
				v[e][k][i] = r[e][k].ips;
				ratio[e][k][i] = r[e][k].ips / f;
			}
	qsort(fr, (size_t)nfr, sizeof(fr[0]), bench_cmp_double);
	printf("%-30s %10.1f M insn/s\n", "free-running, 1 engine",
	       fr[nfr / 2] / 1e6);
	for (int e = 0; e < NE; e++)
		for (int k = 0; k < NK; k++) {
			char name[64];

			if (only && cpus[k] != only)
				continue;

			qsort(v[e][k], reps, sizeof(double), bench_cmp_double);
			qsort(ratio[e][k], reps, sizeof(double), bench_cmp_double);
			snprintf(name, sizeof(name), "executor, %u CPU%s, every %u",
				 cpus[k], cpus[k] > 1 ? "s" : "", every[e]);
			printf("%-30s %10.1f M insn/s  %5.1f%% of free-running  (%llu patch events, %llu watched fetches, %llu violations)\n",
			       name, v[e][k][reps / 2] / 1e6,
			       100.0 * ratio[e][k][reps / 2],
			       (unsigned long long)r[e][k].patches,
			       (unsigned long long)r[e][k].fetches,
			       (unsigned long long)r[e][k].viol);
			if (e == NE - 1) {
				char note[160];
				double pc = 100.0 * ratio[e][k][reps / 2];

				/* Short: what the profile showed (docs/
				 * bench-scale.md, "The instruction budget's
				 * price"). */
				snprintf(note, sizeof(note),
					 "patch event every %u steps%s",
					 every[e], pc < TARGET ?
					 "; short: the turn budget's call per block (4 instructions here), docs/bench-scale.md" :
					 "");
				snprintf(name, sizeof(name),
					 "executor, %u CPU%s, sparse patch events",
					 cpus[k], cpus[k] > 1 ? "s" : "");
				bench_target(name, pc,
					     "% of free-running",
					     BENCH_AT_LEAST, TARGET, note);
			}
		}
	getrusage(RUSAGE_SELF, &ru);
	printf("peak RSS: %ld MiB\n", ru.ru_maxrss / 1024);
	return 0;
}
