/* Kernel services the loaded ftrace objects call, answered on the host by
 * named shims: ONE table (kernel/kshim.c), each entry naming the kernel
 * function it stands for and what it means for verification: what it
 * stores, which barriers it implies, whether it is a scheduling point.
 *
 * A shim is reached through the trap stub the loader binds the name to
 * (BRK #n, sim/image.h): the runner stops there, calls the shim with the
 * argument registers, puts its result in x0 and returns to the caller.
 * Every effect a shim has on memory or ordering is logged as an event
 * (kernel/kevent.h) before the call returns, so that a CPU of the executor
 * running the same code (issue 26) can turn the same events into steps:
 * nothing is done behind the log's back. */
#ifndef FTV_KERNEL_KSHIM_H
#define FTV_KERNEL_KSHIM_H

#include <stdint.h>

#include "kernel/kern.h"

struct kshim {
	const char *name;      /* the kernel function */
	const char *stands_for;
	const char *semantics; /* stores, barriers, scheduling point */
	/* x: the argument registers x0..x7; *ret: x0 on return. 0, or -1
	 * with err set to stop the run (the kernel would crash or hang). */
	int (*fn)(struct kern *k, const uint64_t *x, uint64_t *ret,
		  struct ftv_err *err);
};

/* The shim for name, or NULL. */
const struct kshim *kshim_find(const char *name);
/* The table, for docs and `ftv kernel-diff --shims`: entry i, NULL after
 * the last. */
const struct kshim *kshim_get(unsigned i);

/* kernel/kdata.c: sim_load_opts.bind for a struct kern (ctx), and the
 * booted value of a KD_VALUE name (0 when none). */
int kdata_bind(void *ctx, struct sim_image *img, const char *name,
	       uint64_t *value, struct ftv_err *err);
uint64_t kdata_value(const char *name);

#endif
