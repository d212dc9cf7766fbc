/* ftv encode [--arch arm64|riscv64] [--pc ADDR] 'INSN': one instruction in
 * GNU as syntax to its 32-bit word, printed as 0x%08x. */
#include "encoders/a64.h"
#include "encoders/riscv.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"

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

static int cmd_encode(int argc, char **argv)
{
	const char *arch = "arm64", *text = NULL;
	uint64_t pc = 0;
	struct ftv_err err = { "" };
	uint32_t word;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--arch") && i + 1 < argc) {
			arch = argv[++i];
		} else if (!strcmp(argv[i], "--pc") && i + 1 < argc) {
			if (ftv_parse_u64(argv[++i], &pc)) {
				fprintf(stderr, "ftv encode: bad --pc '%s'\n", argv[i]);
				return FTV_EXIT_USAGE;
			}
		} else if (!strncmp(argv[i], "--", 2) || text) {
			return ftv_usage("encode");
		} else {
			text = argv[i];
		}
	}
	if (!text)
		return ftv_usage("encode");
	for (size_t a = 0; a < sizeof(arches) / sizeof(arches[0]); a++) {
		if (strcmp(arch, arches[a].name))
			continue;
		if (!arches[a].assemble) {
			fprintf(stderr, "ftv encode: --arch %s is not built in\n", arch);
			return FTV_EXIT_USAGE;
		}
		if (arches[a].assemble(text, pc, &word, &err)) {
			fprintf(stderr, "ftv encode: %s\n", err.msg);
			return FTV_EXIT_USAGE;
		}
		printf("0x%08x\n", word);
		return FTV_EXIT_OK;
	}
	fprintf(stderr, "ftv encode: unknown --arch '%s' (arm64 or riscv64)\n", arch);
	return FTV_EXIT_USAGE;
}
FTV_COMMAND(encode, "encode one instruction (GNU as syntax) to its word",
	    "[--arch arm64|riscv64] [--pc ADDR] 'INSN'", cmd_encode)
