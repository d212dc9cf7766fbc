/* Where the fields of an ops live (patcher/ftrace_layout.h). */
#include "patcher/ftrace_layout.h"

#include <stddef.h>

#include "patcher/ftrace_abi.h"

const struct ftrace_ops_layout ftrace_ops_layout_ftv = {
	.size = FTV_OPS_SIZE, .align = FTV_OPS_ALIGN,
	.func = FTV_OPS_FUNC, .next = FTV_OPS_NEXT, .flags = FTV_OPS_FLAGS,
	.private_data = FTV_OPS_PRIVATE, .direct_call = FTV_OPS_DIRECT_CALL,
	.filter = FTV_OPS_FILTER, .nfilter = FTV_OPS_NFILTER,
	.notrace = FTV_OPS_NOTRACE, .nnotrace = FTV_OPS_NNOTRACE,
	.tramp = FTV_OPS_TRAMP, .id = FTV_OPS_ID,
};

static const struct {
	const char *name;
	size_t off;
} fields[] = {
	{ "func", offsetof(struct ftrace_ops_layout, func) },
	{ "next", offsetof(struct ftrace_ops_layout, next) },
	{ "flags", offsetof(struct ftrace_ops_layout, flags) },
	{ "private", offsetof(struct ftrace_ops_layout, private_data) },
	{ "direct_call", offsetof(struct ftrace_ops_layout, direct_call) },
	{ "filter", offsetof(struct ftrace_ops_layout, filter) },
	{ "nfilter", offsetof(struct ftrace_ops_layout, nfilter) },
	{ "notrace", offsetof(struct ftrace_ops_layout, notrace) },
	{ "nnotrace", offsetof(struct ftrace_ops_layout, nnotrace) },
	{ "trampoline", offsetof(struct ftrace_ops_layout, tramp) },
	{ "id", offsetof(struct ftrace_ops_layout, id) },
};
enum { NFIELDS = sizeof(fields) / sizeof(fields[0]) };

static uint64_t at(const struct ftrace_ops_layout *l, size_t i)
{
	return *(const uint64_t *)((const char *)l + fields[i].off);
}

const char *ftrace_ops_field_name(const struct ftrace_ops_layout *l, uint64_t off)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (at(l, i) == off)
			return fields[i].name;
	return NULL;
}

int ftrace_ops_layout_kernel(struct ftrace_ops_layout *l, uint64_t kernel_size,
			     uint64_t func, uint64_t next, uint64_t flags,
			     uint64_t private_data, uint64_t direct_call,
			     struct ftv_err *err)
{
	*l = ftrace_ops_layout_ftv;
	l->func = func;
	l->next = next;
	l->flags = flags;
	l->private_data = private_data;
	l->direct_call = direct_call;
	if (kernel_size > l->size)
		l->size = (kernel_size + l->align - 1) & ~(l->align - 1);
	/* every field is a u64: no two may share a byte */
	for (size_t i = 0; i < NFIELDS; i++) {
		if (at(l, i) + 8 > l->size || at(l, i) % 8)
			return ftv_errf(err, "ops layout: %s at %llu is outside the %llu-byte ops or misaligned",
					fields[i].name, (unsigned long long)at(l, i),
					(unsigned long long)l->size);
		for (size_t j = 0; j < i; j++)
			if (at(l, i) + 8 > at(l, j) && at(l, j) + 8 > at(l, i))
				return ftv_errf(err, "ops layout: the kernel's %s (offset %llu) overlaps ftv's %s (offset %llu)",
						fields[i].name, (unsigned long long)at(l, i),
						fields[j].name, (unsigned long long)at(l, j));
	}
	return 0;
}
