/* bpf_trampoline_update() and bpf_tramp_image_put() (kernel/bpf/
 * trampoline.c, Linux 5.12 on: e21d2b92354b "bpf: Fix fexit trampoline"),
 * as one plan of the ftrace agent: the direct call moved, then the old
 * image's release, which the kernel runs as a chain of callbacks
 * (call_rcu_tasks, percpu_ref_kill, call_rcu_tasks, schedule_work) and the
 * plan as waits of the same patcher (a later update waits behind them;
 * the kernel's would not). */
#include "patcher/bpf_tramp.h"

#include "patcher/ftrace_internal.h"

/* The image's release. The fix: patch the image so that a task returning
 * from the original function skips the fexit programs (ip_after_call: NOP
 * -> B ip_epilogue); call_rcu_tasks() waits for every task that was in the
 * image's first instructions, before __bpf_tramp_enter(), to have taken
 * its reference; percpu_ref_kill() then waits until every task that took
 * one has put it in __bpf_tramp_exit() (the sum of the per-CPU counts is
 * 0: __bpf_tramp_image_release); a second call_rcu_tasks() waits for the
 * epilogue after __bpf_tramp_exit(); bpf_tramp_image_free() frees it.
 *
 * Before the fix (FTRACE_MUT_BPF_EARLY_FREE): bpf_trampoline_update()
 * (5.5 to 5.11) reused or freed the old image after synchronize_rcu_tasks()
 * alone. RCU Tasks' quiescent states are voluntary context switches: a
 * task sleeping in the original function, called from the fexit image,
 * has its return address in the image and counts as quiescent, so the
 * image goes while the task will still return into it. */
static int image_put(struct ftrace_core *c, const struct bpf_tramp_image *im,
		     unsigned ncpus, struct plan *p, struct ftv_err *err)
{
	if (c->cfg.mutants & FTRACE_MUT_BPF_EARLY_FREE) {
		if (plan_simple(p, PLAN_QUIESCE, -1, "synchronize_rcu_tasks() (old image)") ||
		    plan_free_mem(p, im->image, im->size, -1, "bpf_jit_free_exec(old image)"))
			return core_oom(err);
		return 0;
	}
	if (im->pcref) {
		if (c->cfg.arch->bpf_text_poke(c->cfg.arch_ctx, im->ip_after_call,
					       im->ip_epilogue, p, err))
			return -1;
		if (plan_simple(p, PLAN_QUIESCE, -1,
				"call_rcu_tasks(__bpf_tramp_image_put_rcu_tasks)"))
			return core_oom(err);
		for (unsigned cpu = 0; cpu < ncpus; cpu++) {
			struct plan_step s = {
				.op = PLAN_WAIT_ZERO, .addr = im->pcref + 8ULL * cpu, .rec = -1,
				.what = "percpu_ref_kill(&im->pcref): a CPU's count",
			};

			if (plan_push(p, &s))
				return core_oom(err);
		}
	} else if (plan_simple(p, PLAN_QUIESCE, -1,
			       "call_rcu_tasks_trace(__bpf_tramp_image_put_rcu_tasks)")) {
		return core_oom(err);
	}
	if (plan_simple(p, PLAN_QUIESCE, -1, "call_rcu_tasks(__bpf_tramp_image_put_rcu)") ||
	    plan_free_mem(p, im->image, im->size, -1, "bpf_tramp_image_free(im)"))
		return core_oom(err);
	return 0;
}

int bpf_trampoline_update(struct ftrace_core *c, struct ftrace_ops *ops,
			  const struct bpf_tramp_image *cur,
			  const struct bpf_tramp_image *next, unsigned ncpus,
			  struct plan *p, struct ftv_err *err)
{
	int ret;

	if (!c->cfg.arch->bpf_text_poke)
		return ftv_errf(err, "ftrace: arch %s has no BPF trampolines in ftv",
				c->cfg.arch->name);
	if (!cur && !next)
		return ftv_errf(err, "bpf: no trampoline image attached to detach");
	/* modify_fentry / register_fentry / unregister_fentry, ftrace-managed */
	if (!next)
		ret = ftrace_unregister_direct(c, ops, p, err);
	else if (cur)
		ret = ftrace_modify_direct(c, ops, next->image, p, err);
	else
		ret = ftrace_register_direct(c, ops, next->image, p, err);
	if (ret || c->bug || !cur)
		return ret;
	return image_put(c, cur, ncpus, p, err);
}
