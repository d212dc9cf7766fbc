/* The loader's architecture tables, by enum ftv_arch (sim/arch.h). */
#include "sim/arch.h"

static const struct sim_arch *const arches[] = {
	[FTV_ARCH_ARM64] = &sim_arch_arm64,
	[FTV_ARCH_RISCV64] = &sim_arch_riscv64,
};

const struct sim_arch *sim_arch_get(enum ftv_arch a)
{
	return arches[a];
}
