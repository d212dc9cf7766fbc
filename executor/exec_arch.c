/* The executor's architectures: one table each (exec_arch.h). */
#include "executor/exec_arch.h"

const struct xarch *xarch_get(enum ftv_arch a)
{
	switch (a) {
	case FTV_ARCH_ARM64:
		return &xarch_arm64;
	case FTV_ARCH_RISCV64:
		return &xarch_riscv64;
	}
	return NULL;
}
