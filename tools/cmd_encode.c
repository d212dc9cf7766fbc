/* ftv encode [--arch arm64|riscv64] [--pc ADDR] 'INSN': one instruction in
 * GNU as syntax to its 32-bit word, printed as 0x%08x. The first arch of
 * the table is the default. */
#include "encoders/a64.h"
#include "encoders/riscv.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"

#include <stdio.h>
#include <string.h>

/* The architectures `encode` knows: the one place to add a backend. */
static const struct {
	const char *name;
	int (*assemble)(const char *text, uint64_t pc, uint32_t *word, struct ftv_err *err);
} arches[] = {
	{ "arm64", a64_assemble },
	{ "riscv64", rv_assemble_word },
};

enum { O_ARCH = 256, O_PC };

static const struct ftv_opt encode_opts[] = {
	{ .name = "arch", .key = O_ARCH, .arg = "A",
	  .help = "the instruction set: arm64 (default) or riscv64",
	  .words = "arm64 riscv64" },
	{ .name = "pc", .key = O_PC, .arg = "ADDR",
	  .help = "the instruction's address, for pc-relative targets (default 0)" },
	{ 0 },
};

static int cmd_encode(int argc, char **argv)
{
	size_t a = 0;
	const char *text = NULL;
	uint64_t pc = 0;
	struct ftv_err err = { "" };
	struct ftv_getopt g;
	uint32_t word;
	int o;

	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_ARCH:
			for (a = 0; a < sizeof(arches) / sizeof(arches[0]); a++)
				if (!strcmp(g.val, arches[a].name))
					break;
			if (a == sizeof(arches) / sizeof(arches[0])) {
				ftv_opt_bad_choice(&g);
				return FTV_EXIT_USAGE;
			}
			break;
		case O_PC:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &pc))
				return FTV_EXIT_USAGE;
			break;
		case FTV_OPT_ARG:
			if (text)
				return ftv_usage_error(g.cmd, "one instruction only, not also "
						       "'%s' (quote it)", g.val);
			text = g.val;
			break;
		}
	}
	if (o < 0)
		return g.exit;
	if (!text)
		return ftv_usage_error(g.cmd, "missing 'INSN'");
	if (!arches[a].assemble) {
		fprintf(stderr, "ftv encode: --arch %s is not built in\n", arches[a].name);
		return FTV_EXIT_USAGE;
	}
	if (arches[a].assemble(text, pc, &word, &err)) {
		fprintf(stderr, "ftv encode: %s\n", err.msg);
		return FTV_EXIT_USAGE;
	}
	printf("0x%08x\n", word);
	return FTV_EXIT_OK;
}
FTV_COMMAND(encode, cmd_encode,
	    .summary = "encode one instruction (GNU as syntax) to its word",
	    .args = "'INSN'",
	    .opts = encode_opts,
	    .doc = "Assembles one instruction written as GNU as writes it and prints its\n"
		   "32-bit word as 0x%08x. Branch and adr targets are absolute addresses,\n"
		   "encoded relative to --pc. The encoder is ftv's own table\n"
		   "(encoders/), the one the patcher and the checks use.\n")
