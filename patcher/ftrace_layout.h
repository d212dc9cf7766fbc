/* Where the fields of an ops live in emulated memory (issue 26).
 *
 * ftv's own trampolines read struct ftv_ops (patcher/ftrace_abi.h). A world
 * whose CPUs enter the kernel's real ftrace_caller (scheme kernel) needs
 * the fields that code reads where the build put them: func and
 * direct_call (arch/arm64/kernel/entry-ftrace.S loads them at
 * FTRACE_OPS_FUNC and FTRACE_OPS_DIRECT_CALL of asm-offsets.h), and, for
 * the kernel's own idea of the struct, next, flags and private
 * (struct ftrace_ops in include/linux/ftrace.h, offsets from the build's
 * DWARF: kernel/kimage.c kern_layout). The remaining fields are ftv's
 * list function's (its filter and notrace tables, the per-ops trampoline,
 * the id its logs name), kept at ftv's offsets where they overlap none of
 * those. Flag values stay ftv's FTV_OPS_FL_*: only ftv's list function
 * reads them. */
#ifndef FTV_PATCHER_FTRACE_LAYOUT_H
#define FTV_PATCHER_FTRACE_LAYOUT_H

#include <stdint.h>

#include "util/err.h"

struct ftrace_ops_layout {
	uint64_t size, align;
	/* the kernel's struct ftrace_ops */
	uint64_t func, next, flags, private_data, direct_call;
	/* ftv's list function's own */
	uint64_t filter, nfilter, notrace, nnotrace, tramp, id;
};

/* struct ftv_ops: FTV_OPS_* */
extern const struct ftrace_ops_layout ftrace_ops_layout_ftv;

/* ftv's layout with the kernel's fields moved to the offsets given, the
 * size grown to kernel_size when larger; -1 with err naming the two fields
 * that would overlap. */
int ftrace_ops_layout_kernel(struct ftrace_ops_layout *l, uint64_t kernel_size,
			     uint64_t func, uint64_t next, uint64_t flags,
			     uint64_t private_data, uint64_t direct_call,
			     struct ftv_err *err);

/* "func", "direct_call", ... of the field at offset off, or NULL. */
const char *ftrace_ops_field_name(const struct ftrace_ops_layout *l, uint64_t off);

#endif
