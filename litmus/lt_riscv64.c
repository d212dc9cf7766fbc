/* riscv64 litmus tests (ftv syntax only): GNU as syntax through
 * encoders/riscv_asm.c, registers x0..x31 or their ABI names. */
#include "litmus/lt_int.h"
#include "encoders/riscv.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static int assemble(const char *text, uint64_t pc, uint32_t *word,
		    struct ftv_err *err)
{
	int nbytes;

	if (rv_assemble(text, pc, word, &nbytes, err))
		return -1;
	/* Every litmus instruction takes a 4-byte slot: the layout of a
	 * thread is one word per line. */
	if (nbytes != 4)
		return ftv_errf(err, "'%s': compressed instructions are not supported in litmus tests",
				text);
	return 0;
}

static int parse_reg(const char *s, int *reg, int *is32)
{
	char low[16];
	size_t i;
	int r;

	for (i = 0; s[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)s[i]);
	if (s[i])
		return -1;
	low[i] = 0;
	r = rv_reg_parse(low);
	if (r < 0)
		return -1;
	*reg = r;
	*is32 = 0;
	return 0;
}

static void reg_name(int reg, int is32, char *buf, size_t n)
{
	(void)is32;
	snprintf(buf, n, "x%d", reg);
}

static int disasm(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	rv_disasm(word, pc, buf, n, NULL);
	return (int)strlen(buf);
}

static int branch(uint64_t pc, uint64_t target, uint32_t *word,
		  struct ftv_err *err)
{
	return rv_gen_jal(pc, target, 0, word, err);
}

const struct lt_arch lt_arch_riscv64 = {
	.arch = FTV_ARCH_RISCV64,
	.name = "riscv64",
	.herd_name = NULL,
	.nregs = 32,
	.assemble = assemble,
	.parse_reg = parse_reg,
	.reg_name = reg_name,
	.branch = branch,
	.disasm = disasm,
};
