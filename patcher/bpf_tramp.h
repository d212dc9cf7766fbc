/* BPF trampoline images and their lifetime (kernel/bpf/trampoline.c): what
 * bpf_trampoline_update() does to the direct call of a traced function and
 * to the image it replaces. docs/bpf-trampoline.md has the model. */
#ifndef FTV_PATCHER_BPF_TRAMP_H
#define FTV_PATCHER_BPF_TRAMP_H

#include <stdint.h>

#include "patcher/ftrace_core.h"
#include "patcher/plan.h"
#include "util/err.h"

/* struct bpf_tramp_image, as much of it as the lifetime needs: the
 * executable image [image, image + size), its im->ip_after_call (the NOP
 * after the call of the original function) and im->ip_epilogue (the
 * __bpf_tramp_exit() call), and im->pcref's per-CPU counts (one 64-bit
 * word per CPU from pcref on; 0 when the image calls no original function
 * and so takes no reference). */
struct bpf_tramp_image {
	uint64_t image, size;
	uint64_t ip_after_call, ip_epilogue;
	uint64_t pcref;
};

/* bpf_trampoline_update() for the direct ops of one traced function:
 * cur (or NULL: none attached) replaced by next (or NULL: total == 0, the
 * last program detached). register_ftrace_direct() the first time,
 * modify_ftrace_direct() after, unregister_ftrace_direct() at the end;
 * then bpf_tramp_image_put(cur) until cur is freed. ncpus: how many
 * per-CPU counts the image's percpu_ref has. */
int bpf_trampoline_update(struct ftrace_core *c, struct ftrace_ops *ops,
			  const struct bpf_tramp_image *cur,
			  const struct bpf_tramp_image *next, unsigned ncpus,
			  struct plan *p, struct ftv_err *err);

#endif
