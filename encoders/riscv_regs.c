/* RISC-V integer register names: xN and the ABI names of the RISC-V ELF
 * psABI ("Integer Register Convention"); fp is another name for s0. */
#include "encoders/riscv.h"

#include <stdlib.h>
#include <string.h>

static const char *const abi_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2",
	"s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
	"a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

const char *rv_reg_name(unsigned reg)
{
	return reg < 32 ? abi_names[reg] : NULL;
}

int rv_reg_parse(const char *name)
{
	if (!strcmp(name, "fp"))
		return RV_REG_S0;
	for (int i = 0; i < 32; i++)
		if (!strcmp(name, abi_names[i]))
			return i;
	/* xN: decimal 0..31 without leading zeros or signs. */
	if (name[0] == 'x' && name[1] >= '0' && name[1] <= '9') {
		char *end;
		long v = strtol(name + 1, &end, 10);

		if (*end || v > 31 || (name[1] == '0' && name[2]))
			return -1;
		return (int)v;
	}
	return -1;
}
