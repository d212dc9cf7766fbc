/* arm64 litmus tests: GNU as syntax through encoders/a64_asm.c, registers
 * x0..x30 / w0..w30 (herd writes them X0, W0). */
#include "litmus/lt_int.h"
#include "encoders/a64.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static int parse_reg(const char *s, int *reg, int *is32)
{
	char *end;
	long n;

	if ((s[0] != 'x' && s[0] != 'X' && s[0] != 'w' && s[0] != 'W') ||
	    !isdigit((unsigned char)s[1]))
		return -1;
	n = strtol(s + 1, &end, 10);
	if (*end || n > 30 || (s[1] == '0' && s[2]))
		return -1;
	*reg = (int)n;
	*is32 = s[0] == 'w' || s[0] == 'W';
	return 0;
}

static void reg_name(int reg, int is32, char *buf, size_t n)
{
	snprintf(buf, n, "%c%d", is32 ? 'W' : 'X', reg);
}

static int branch(uint64_t pc, uint64_t target, uint32_t *word,
		  struct ftv_err *err)
{
	return a64_gen_branch(pc, target, 0, word, err);
}

const struct lt_arch lt_arch_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.name = "arm64",
	.herd_name = "AArch64",
	.nregs = 31,
	.assemble = a64_assemble,
	.parse_reg = parse_reg,
	.reg_name = reg_name,
	.branch = branch,
	.disasm = a64_disasm,
};
