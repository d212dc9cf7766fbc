/* ftv: the command front end. Each subcommand lives in tools/cmd_*.c and
 * registers itself with FTV_COMMAND; this file only dispatches. */
#include "tools/help.h"
#include "util/cmd.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const struct ftv_command *c;

	if (argc < 2) {
		ftv_list_commands(stderr);
		return FTV_EXIT_USAGE;
	}
	/* ftv --help [COMMAND], ftv -h: as ftv help */
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		argv[1] = "help";
	else if (!strcmp(argv[1], "--version"))
		argv[1] = "version";
	c = ftv_command_find(argv[1]);
	if (!c) {
		fprintf(stderr, "ftv: unknown command '%s' (see 'ftv help')\n", argv[1]);
		return FTV_EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
