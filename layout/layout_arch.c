/* The table of layout architectures: one entry per layout/layout_<arch>.c. */
#include "layout/layout.h"

#include <stdio.h>
#include <string.h>

static const struct sim_layout_arch *const arches[] = {
	&sim_layout_arm64,
};
#define NARCHES (sizeof(arches) / sizeof(arches[0]))

const struct sim_layout_arch *sim_layout_arch_named(const char *name)
{
	for (size_t i = 0; i < NARCHES; i++)
		if (!strcmp(arches[i]->name, name))
			return arches[i];
	return NULL;
}

const struct sim_layout_arch *sim_layout_arch_of(enum ftv_arch a)
{
	for (size_t i = 0; i < NARCHES; i++)
		if (arches[i]->arch == a)
			return arches[i];
	return NULL;
}

const char *sim_layout_arch_names(char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NARCHES && k < n; i++)
		k += snprintf(buf + k, n - k, "%s%s", i ? " or " : "",
			      arches[i]->name);
	return buf;
}

const struct sim_layout_arch *sim_layout_merge_arch(struct sim_layout *l,
						    enum ftv_arch a,
						    const char *path,
						    struct ftv_err *err)
{
	const struct sim_layout_arch *t = sim_layout_arch_of(a);
	char names[64];

	if (!t) {
		ftv_errf(err, "%s: a %s file, but ftv reads the callsites of %s kernels only",
			 path, ftv_arch_name(a),
			 sim_layout_arch_names(names, sizeof(names)));
		return NULL;
	}
	if (l->arch && strcmp(l->arch, t->name)) {
		ftv_errf(err, "%s: architecture %s, but the other inputs are %s",
			 path, t->name, l->arch);
		return NULL;
	}
	sim_layout_set(l, &l->arch, t->name);
	return t;
}
