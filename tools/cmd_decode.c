/* ftv decode [--arch arm64|riscv64] [--pc ADDR] WORD...: one line per word,
 *
 *   0x94000400  bl 0x2000                       bl -> 0x2000   cmodx-safe
 *
 * the word, its disassembly (ftv's own text, else Capstone's), ftv's
 * classification (table key, target of pc-relative forms; "unknown" when
 * ftv's table does not know the word) and whether the word may be patched
 * while another CPU executes it (Arm ARM B2.2.5). Successive words sit at
 * successive addresses from --pc. Words are hex, with or without 0x. */
#include "encoders/a64.h"
#include "encoders/riscv.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/num.h"
#include "util/opt.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned decode_a64(uint32_t word, uint64_t pc)
{
	char text[A64_TEXT_MAX], cls[64];
	struct a64_insn in;

	a64_disasm(word, pc, text, sizeof(text));
	if (a64_decode(word, pc, &in)) {
		snprintf(cls, sizeof(cls), "unknown");
	} else if (a64_descs[in.id].flags & (A64_BRANCH | A64_PCREL)) {
		snprintf(cls, sizeof(cls), "%s -> 0x%" PRIx64, a64_descs[in.id].key, in.target);
	} else {
		snprintf(cls, sizeof(cls), "%s", a64_descs[in.id].key);
	}
	printf("0x%08x  %-34s %-30s %s\n", word, text, cls,
	       a64_cmodx_class(word) ? "cmodx-safe" : "cmodx-unsafe");
	return 4;
}

/* An instruction word in hex, with or without 0x (objdump prints them
 * bare): "0x94000400" or "94000400". */
static int parse_word(const char *s, uint32_t *word)
{
	char buf[16];
	uint64_t v;

	if (strncmp(s, "0x", 2) && strncmp(s, "0X", 2)) {
		if (strlen(s) > 8)
			return -1;
		snprintf(buf, sizeof(buf), "0x%s", s);
		s = buf;
	}
	if (ftv_parse_u64(s, &v) || v > 0xffffffffULL)
		return -1;
	*word = (uint32_t)v;
	return 0;
}

/* RISC-V: ftv's own decoder (Capstone 4 has no RISC-V); a 16-bit
 * compressed word advances the pc by 2. */
static unsigned decode_rv(uint32_t word, uint64_t pc)
{
	char line[192];
	int nbytes = 4;

	rv_report_line(word, pc, line, sizeof(line), &nbytes);
	puts(line);
	return nbytes == 2 ? 2 : 4;
}

/* The architectures `decode` knows: the one place to add a backend. Each
 * prints one line and returns the size of the instruction decoded. */
static const struct {
	const char *name;
	unsigned (*decode)(uint32_t word, uint64_t pc);
} arches[] = {
	{ "arm64", decode_a64 },
	{ "riscv64", decode_rv },
};

enum { O_ARCH = 256, O_PC };

static const struct ftv_opt decode_opts[] = {
	{ .name = "arch", .key = O_ARCH, .arg = "A",
	  .help = "the instruction set: arm64 (default) or riscv64",
	  .words = "arm64 riscv64" },
	{ .name = "pc", .key = O_PC, .arg = "ADDR",
	  .help = "the first word's address; the next ones follow (default 0)" },
	{ 0 },
};

static int cmd_decode(int argc, char **argv)
{
	size_t a = 0;
	uint64_t pc = 0;
	uint32_t word;
	struct ftv_getopt g;
	const char **words = calloc((size_t)argc, sizeof(*words));
	int n = 0, o, rc = FTV_EXIT_USAGE;

	if (!words)
		return FTV_EXIT_USAGE;
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_ARCH:
			for (a = 0; a < sizeof(arches) / sizeof(arches[0]); a++)
				if (!strcmp(g.val, arches[a].name))
					break;
			if (a == sizeof(arches) / sizeof(arches[0])) {
				ftv_opt_bad_choice(&g);
				goto out;
			}
			break;
		case O_PC:
			if (ftv_opt_u64(&g, 0, UINT64_MAX, &pc))
				goto out;
			break;
		case FTV_OPT_ARG:
			words[n++] = g.val;
			break;
		}
	}
	if (o < 0) {
		rc = g.exit;
		goto out;
	}
	if (!n) {
		rc = ftv_usage_error(g.cmd, "missing WORD");
		goto out;
	}
	/* validate every word before printing any */
	for (int i = 0; i < n; i++)
		if (parse_word(words[i], &word)) {
			fprintf(stderr, "ftv decode: '%s' is not a 32-bit instruction word\n",
				words[i]);
			goto out;
		}
	if (!arches[a].decode) {
		fprintf(stderr, "ftv decode: --arch %s is not built in\n", arches[a].name);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		parse_word(words[i], &word);
		pc += arches[a].decode(word, pc);
	}
	rc = FTV_EXIT_OK;
out:
	free(words);
	return rc;
}
FTV_COMMAND(decode, cmd_decode,
	    .summary = "decode instruction words: text, class, cmodx safety",
	    .args = "WORD...",
	    .opts = decode_opts,
	    .doc = "Prints one line per word: the word, its disassembly (ftv's own text,\n"
		   "else Capstone's), ftv's classification (the table key and the target\n"
		   "of pc-relative forms, 'unknown' when ftv's table does not know the\n"
		   "word), and whether the word may be patched while another CPU executes\n"
		   "it (cmodx-safe; Arm ARM B2.2.5). Words are hex, with or without 0x.\n")
