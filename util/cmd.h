/* Subcommands of `ftv` register themselves, one file each under tools/:
 *
 *   enum { O_ARCH = 256, O_PC };
 *   static const struct ftv_opt encode_opts[] = {
 *           { .name = "arch", .key = O_ARCH, .arg = "A",
 *             .help = "arm64 (default) or riscv64", .words = "arm64 riscv64" },
 *           { .name = "pc", .key = O_PC, .arg = "ADDR",
 *             .help = "the instruction's address (default 0)" },
 *           { 0 }
 *   };
 *   static int cmd_encode(int argc, char **argv) { ... ftv_getopt ... }
 *   FTV_COMMAND(encode, cmd_encode, .summary = "encode one instruction",
 *               .args = "'INSN'", .opts = encode_opts, .doc = "...")
 *
 * The option table (util/opt.h) is the one description of the command line:
 * getopt_long parses from it, and the help text, the man page section and
 * the shell completion are generated from it. argv[0] is the command name.
 * Return an FTV_EXIT_* code. */
#ifndef FTV_UTIL_CMD_H
#define FTV_UTIL_CMD_H

struct ftv_opt;

struct ftv_command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;          /* one line */
	const char *args;             /* the synopsis after the options: "FILE..." */
	const struct ftv_opt *opts;   /* terminated by a NULL name; NULL: none */
	const char *doc;              /* prose for --help and the man page: lines
					 of text, paragraphs apart by a blank line */
	/* completion of positional arguments: words as in struct ftv_opt */
	const char *words;
	const char *(*word)(unsigned i);
	struct ftv_command *next;
};

void ftv_command_register(struct ftv_command *cmd);
const struct ftv_command *ftv_command_find(const char *name);
const struct ftv_command *ftv_command_first(void); /* sorted by name */
/* The i-th command's name, NULL after the last (completion words). */
const char *ftv_command_word(unsigned i);

/* Prints "ftv NAME: usage: ftv NAME SYNOPSIS" to stderr and returns
 * FTV_EXIT_USAGE. */
int ftv_usage(const char *name);

#define FTV_COMMAND(NAME, FN, ...) FTV_COMMAND_NAMED(NAME, #NAME, FN, __VA_ARGS__)

/* A command whose name is no C identifier ("fuzz-merge"). */
#define FTV_COMMAND_NAMED(ID, NAME, FN, ...)                                   \
	static struct ftv_command ftv_cmd_##ID = { .name = NAME, .run = FN,    \
						   __VA_ARGS__ };              \
	__attribute__((constructor)) static void ftv_cmd_reg_##ID(void)        \
	{                                                                      \
		ftv_command_register(&ftv_cmd_##ID);                           \
	}

#endif
