/* Subcommands of `ftv` register themselves, one file each under tools/:
 *
 *   static int cmd_encode(int argc, char **argv) { ... }
 *   FTV_COMMAND(encode, "encode one instruction", "[--arch A] [--pc ADDR] 'INSN'", cmd_encode)
 *
 * argv[0] is the command name. Return an FTV_EXIT_* code. */
#ifndef FTV_UTIL_CMD_H
#define FTV_UTIL_CMD_H

struct ftv_command {
	const char *name;
	const char *summary;
	const char *usage;
	int (*run)(int argc, char **argv);
	struct ftv_command *next;
};

void ftv_command_register(struct ftv_command *cmd);
const struct ftv_command *ftv_command_find(const char *name);
const struct ftv_command *ftv_command_first(void); /* sorted by name */

/* Prints "ftv NAME: usage: ftv NAME USAGE" to stderr and returns FTV_EXIT_USAGE. */
int ftv_usage(const char *name);

#define FTV_COMMAND(NAME, SUMMARY, USAGE, FN)                                  \
	static struct ftv_command ftv_cmd_##NAME = { #NAME, SUMMARY, USAGE,    \
						     FN, 0 };                  \
	__attribute__((constructor)) static void ftv_cmd_reg_##NAME(void)      \
	{                                                                      \
		ftv_command_register(&ftv_cmd_##NAME);                         \
	}

#endif
