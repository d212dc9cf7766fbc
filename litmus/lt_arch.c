/* The litmus layer's arch table: one entry per architecture, each filled
 * in its own file (lt_arm64.c, lt_riscv64.c). */
#include "litmus/lt_int.h"

#include <string.h>

extern const struct lt_arch lt_arch_arm64, lt_arch_riscv64;

static const struct lt_arch *const arches[] = { &lt_arch_arm64,
						 &lt_arch_riscv64 };

const struct lt_arch *lt_arch_get(enum ftv_arch a)
{
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i]->arch == a)
			return arches[i];
	return NULL;
}

const struct lt_arch *lt_arch_find(const char *name)
{
	enum ftv_arch a;

	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i]->herd_name && !strcmp(arches[i]->herd_name, name))
			return arches[i];
	return ftv_arch_parse(name, &a) ? NULL : lt_arch_get(a);
}
