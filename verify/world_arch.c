/* The tables of what a world can model: its architectures (one
 * struct world_archdesc each, verify/world_<arch>.c) and their schemes, and
 * the scheme queries the command line and the scenarios use. Adding an
 * architecture adds one line to each table here. */
#include "verify/world_int.h"

#include <stdio.h>
#include <string.h>

extern const struct world_archdesc world_arm64;
extern const struct world_archdesc world_riscv64;
extern const struct world_schemedesc world_scheme_callops, world_scheme_tramp,
	world_scheme_mcount, world_scheme_mcount_ops, world_scheme_mcount_tasks,
	world_scheme_tramp_tasks,
	world_scheme_pair, world_scheme_atomic, world_scheme_kernel;

static const struct world_archdesc *const archs[] = {
	[FTV_ARCH_ARM64] = &world_arm64,
	[FTV_ARCH_RISCV64] = &world_riscv64,
};

static const struct world_schemedesc *const schemes[FTV_SCHEME_COUNT] = {
	[FTV_SCHEME_CALLOPS] = &world_scheme_callops,
	[FTV_SCHEME_TRAMP] = &world_scheme_tramp,
	[FTV_SCHEME_MCOUNT] = &world_scheme_mcount,
	[FTV_SCHEME_MCOUNT_OPS] = &world_scheme_mcount_ops,
	[FTV_SCHEME_MCOUNT_TASKS] = &world_scheme_mcount_tasks,
	[FTV_SCHEME_TRAMP_TASKS] = &world_scheme_tramp_tasks,
	[FTV_SCHEME_PAIR] = &world_scheme_pair,
	[FTV_SCHEME_ATOMIC] = &world_scheme_atomic,
	[FTV_SCHEME_KERNEL] = &world_scheme_kernel,
};

const struct world_archdesc *world_archdesc(enum ftv_arch a)
{
	return (unsigned)a < sizeof(archs) / sizeof(archs[0]) ? archs[a] : archs[0];
}

const struct world_archdesc *world_arch_at(size_t i)
{
	return i < sizeof(archs) / sizeof(archs[0]) ? archs[i] : NULL;
}

const struct world_schemedesc *world_schemedesc(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? schemes[s] : NULL;
}

int ftv_scheme_parse(const char *s, enum ftv_scheme *out)
{
	for (int i = 0; i < FTV_SCHEME_COUNT; i++)
		if (!strcmp(s, schemes[i]->name)) {
			*out = i;
			return 0;
		}
	return -1;
}

const char *ftv_scheme_name(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? schemes[s]->name : "?";
}

const char *ftv_scheme_corpus_set(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? schemes[s]->corpus_set : "?";
}

enum ftv_arch ftv_scheme_arch(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? schemes[s]->arch : archs[0]->arch;
}

unsigned ftv_scheme_fuzz_flags(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? schemes[s]->fuzz : 0;
}

enum ftv_scheme ftv_arch_default_scheme(enum ftv_arch a)
{
	return world_archdesc(a)->default_scheme;
}

const char *ftv_arch_schemes(enum ftv_arch a)
{
	return world_archdesc(a)->scheme_names;
}

const char *ftv_all_schemes(char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (size_t i = 0; i < sizeof(archs) / sizeof(archs[0]) && k < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "; " : "",
				      archs[i]->scheme_names);
	return buf;
}

int ftv_scheme_check_arch(enum ftv_scheme s, enum ftv_arch a, struct ftv_err *err)
{
	if (ftv_scheme_arch(s) == a)
		return 0;
	return ftv_errf(err, "scheme %s is %s's, not %s's (%s schemes: %s)", ftv_scheme_name(s),
			ftv_arch_name(ftv_scheme_arch(s)), ftv_arch_name(a), ftv_arch_name(a),
			ftv_arch_schemes(a));
}
