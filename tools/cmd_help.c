/* ftv help [COMMAND]: the command list, or one command's usage and options;
 * --man, --man-scenario and --bash-completion print what `make` installs as
 * ftv(1)'s commands section, ftv-scenario(5)'s keywords and the shell
 * completion. */
#include "tools/help.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"

#include <stdio.h>

enum { O_MAN = 256, O_BASH, O_MAN_SCENARIO };

static const struct ftv_opt help_opts[] = {
	{ .name = "man", .key = O_MAN,
	  .help = "print the commands and violations sections of the man page (roff)" },
	{ .name = "man-scenario", .key = O_MAN_SCENARIO,
	  .help = "print the keywords and operations sections of ftv-scenario(5) (roff)" },
	{ .name = "bash-completion", .key = O_BASH,
	  .help = "print the bash completion script" },
	{ 0 },
};

void ftv_list_commands(FILE *f)
{
	fprintf(f, "usage: ftv COMMAND [OPTION]... [ARG]...\n\ncommands:\n");
	for (const struct ftv_command *c = ftv_command_first(); c; c = c->next)
		fprintf(f, "  %-10s %s\n", c->name, c->summary ? c->summary : "");
	fprintf(f, "\n'ftv help COMMAND' or 'ftv COMMAND --help' shows a command's options;\n"
		   "'ftv --version' the version.\n\nexit status:\n");
	for (const struct ftv_exit_desc *e = ftv_exits; e->meaning; e++)
		fprintf(f, "  %-4d %s\n", e->code, e->meaning);
}

static int cmd_help(int argc, char **argv)
{
	const struct ftv_command *c = NULL;
	struct ftv_getopt g;
	int o, what = 0;

	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case O_MAN:
		case O_MAN_SCENARIO:
		case O_BASH:
			what = o;
			break;
		case FTV_OPT_ARG:
			if (c)
				return ftv_usage_error(g.cmd, "one COMMAND only, not also '%s'",
						       g.val);
			c = ftv_command_find(g.val);
			if (!c)
				return ftv_cmd_error(g.cmd, "unknown command '%s'", g.val);
			break;
		}
	}
	if (o < 0)
		return g.exit;
	if (what == O_MAN)
		ftv_man_commands(stdout);
	else if (what == O_MAN_SCENARIO)
		ftv_man_scenario(stdout);
	else if (what == O_BASH)
		ftv_bash_completion(stdout);
	else if (c)
		ftv_command_help(c, stdout);
	else
		ftv_list_commands(stdout);
	return fflush(stdout) ? FTV_EXIT_USAGE : FTV_EXIT_OK;
}
FTV_COMMAND(help, cmd_help,
	    .summary = "list the commands, or show one command's options",
	    .args = "[COMMAND]",
	    .opts = help_opts,
	    .word = ftv_command_word)
