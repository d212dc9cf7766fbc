/* ftv: the command front end. Each subcommand lives in tools/cmd_*.c and
 * registers itself with FTV_COMMAND; this file only dispatches. */
#include "util/cmd.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static void list_commands(FILE *f)
{
	fprintf(f, "usage: ftv COMMAND [ARGS...]\n\ncommands:\n");
	for (const struct ftv_command *c = ftv_command_first(); c; c = c->next)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f, "\n'ftv help COMMAND' shows a command's usage.\n"
		   "exit status: 0 ok, 1 a violation was found, 2 bad usage or input\n");
}

int main(int argc, char **argv)
{
	const struct ftv_command *c;

	if (argc < 2) {
		list_commands(stderr);
		return FTV_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") ||
	    !strcmp(argv[1], "-h")) {
		if (argc > 2 && (c = ftv_command_find(argv[2]))) {
			printf("ftv %s: %s\nusage: ftv %s %s\n", c->name,
			       c->summary, c->name, c->usage);
			return FTV_EXIT_OK;
		}
		list_commands(stdout);
		return argc > 2 ? FTV_EXIT_USAGE : FTV_EXIT_OK;
	}
	c = ftv_command_find(argv[1]);
	if (!c) {
		fprintf(stderr, "ftv: unknown command '%s' (see 'ftv help')\n",
			argv[1]);
		return FTV_EXIT_USAGE;
	}
	return c->run(argc - 1, argv + 1);
}
