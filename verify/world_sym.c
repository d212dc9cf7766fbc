/* Whether a world's CPUs are interchangeable for the stateful walk
 * (executor/exec_sym.h says what the executor checks and why that makes
 * merging states that differ by a permutation of the CPUs sound): the
 * world's part of the argument.
 *
 * The world offers symmetry only when its scenario says `symmetric`
 * (world_cpus.c: every CPU's call list and arguments drawn once, its
 * per-CPU block on pages of its own) and:
 *  - no code of the world reads a CPU's number. The only word that holds
 *    it is the per-CPU block's FTV_PCPU_CPU (world_cpus.c), which the
 *    executor is told to ignore: the tracers read only the log and graph
 *    fields through TPIDR_EL1 / tp (trampolines/tracers.c,
 *    this_cpu_area), the workload its work block (trampolines/workload.c),
 *    the entry trampolines (trampolines/ *.S, trampolines/riscv) the
 *    stack; corpus/src/bpf.c's ftv_bpf_tramp_enter/exit read it (the
 *    image's per-CPU count array, in shared memory, indexed by it: a
 *    world with that unit linked is not symmetric), and the kernel
 *    scheme's code reads its own per-CPU data (smp_processor_id,
 *    `current` per CPU: world_kernel.c's start_cpu), so no symmetry
 *    there either;
 *  - every CPU's call table names the same functions (call_rec), its run
 *    state (world_run.cpu) is the same, its blocks are laid out alike;
 *  - the host-side checks treat the CPUs alike: world_check.c and
 *    check.c read CPU c's log into world_run.cpu[c] by the same rules
 *    for every c, and world_state.c hashes world_run.cpu in the
 *    canonical order.
 * The world's CPU-indexed run state is hashed in the walk's canonical
 * order (world_state.c); the executor checks the rest. */
#include "verify/world_int.h"

#include <stdio.h>
#include <string.h>

#include "patcher/ftrace_abi.h"

int world_set_symmetry(struct world *w, char *why, size_t nwhy)
{
	static const uint64_t cpu_word[] = { FTV_PCPU_CPU };
	unsigned n = w->cfg.exec.ncpus;
	const struct wcpu *c0 = &w->cpu[0];
	uint64_t stride;
	struct exec_sym_range r[2];

	if (!w->cfg.symmetric)
		return snprintf(why, nwhy, "the scenario does not say `symmetric`"), 0;
	if (w->sd->start_cpu || w->kcurrent)
		return snprintf(why, nwhy, "the scheme's code reads per-CPU data of its own"), 0;
	if (sim_image_lookup(w->img, "ftv_bpf_tramp_enter"))
		return snprintf(why, nwhy, "the BPF unit's code reads the CPU number"), 0;
	if (n < 2)
		return snprintf(why, nwhy, "one CPU"), 0;
	stride = w->cpu[1].pcpu - c0->pcpu;
	for (unsigned c = 0; c < n; c++) {
		const struct wcpu *p = &w->cpu[c];
		uint64_t d = c * stride;

		if (p->pcpu != c0->pcpu + d || p->log != c0->log + d ||
		    p->graph != c0->graph + d || p->work != c0->work + d ||
		    p->calls != c0->calls + d || p->ncalls != c0->ncalls ||
		    p->stack != c0->stack + c * WORLD_STACK_SIZE ||
		    memcmp(p->call_rec, c0->call_rec, p->ncalls * sizeof(*p->call_rec)) ||
		    memcmp(&w->run.cpu[c], &w->run.cpu[0], sizeof(w->run.cpu[0])))
			return snprintf(why, nwhy, "cpu%u is built unlike cpu0", c), 0;
	}
	if (w->sym_end != c0->pcpu + n * stride)
		return snprintf(why, nwhy, "the per-CPU blocks are not laid out alike"), 0;
	r[0] = (struct exec_sym_range){ c0->stack + 64 - WORLD_STACK_SIZE, WORLD_STACK_SIZE,
					NULL, 0 };
	r[1] = (struct exec_sym_range){ c0->pcpu, stride, cpu_word, 1 };
	return exec_set_symmetry(w->ex, r, 2, why, nwhy);
}

void world_trace_states(struct world *w, int on)
{
	FILE *out = w->cfg.state_trace;
	char why[200] = "--no-symmetry";

	if (!out)
		return;
	if (!on) {
		exec_set_state_trace(w->ex, NULL);
		exec_symmetry_off(w->ex);
		exec_set_state_fn(w->ex, NULL, NULL);
		fflush(out);
		return;
	}
	exec_set_state_fn(w->ex, world_state_words, w);
	if (!w->cfg.state_trace_nosym && world_set_symmetry(w, why, sizeof(why)))
		fprintf(out, "state symmetry: cpu0..cpu%u\n", w->cfg.exec.ncpus - 1);
	else
		fprintf(out, "state symmetry: none (%s)\n", why);
	exec_set_state_trace(w->ex, out);
}
