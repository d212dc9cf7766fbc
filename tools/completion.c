/* The bash completion script, from the option tables: `make` runs
 * `ftv help --bash-completion` and installs what it prints. Command names,
 * each command's options, the words of an option's value (arches, schemes,
 * mutants), files and directories where a value or an argument is a path. */
#include "tools/help.h"
#include "util/cmd.h"
#include "util/opt.h"

#include <stdio.h>
#include <string.h>

/* The words of a value or an argument as a compgen call; nothing to offer
 * is an empty reply (never the directory listing). */
static void reply(FILE *f, const char *words, const char *(*word)(unsigned))
{
	const char *s;

	if (words && !strcmp(words, FTV_WORDS_FILE)) {
		fputs("compopt -o filenames 2>/dev/null; "
		      "COMPREPLY=($(compgen -f -- \"$cur\"))", f);
		return;
	}
	if (words && !strcmp(words, FTV_WORDS_DIR)) {
		fputs("compopt -o filenames 2>/dev/null; "
		      "COMPREPLY=($(compgen -d -- \"$cur\"))", f);
		return;
	}
	if (!words && !word) {
		fputs("COMPREPLY=()", f);
		return;
	}
	fputs("COMPREPLY=($(compgen -W \"", f);
	if (word)
		for (unsigned i = 0; (s = word(i)); i++)
			fprintf(f, "%s%s", i ? " " : "", s);
	else
		fputs(words, f);
	fputs("\" -- \"$cur\"))", f);
}

static void options(FILE *f, const struct ftv_command *c)
{
	const struct ftv_opt *lists[2] = { c->opts, ftv_opt_help() };

	for (int l = 0; l < 2; l++)
		for (const struct ftv_opt *o = lists[l]; o && o->name; o++) {
			if (o->key > 0 && o->key < 256)
				fprintf(f, "-%c ", o->key);
			fprintf(f, "--%s%s", o->name, l && !o[1].name ? "" : " ");
		}
}

void ftv_bash_completion(FILE *f)
{
	fputs("# bash completion for ftv, generated from its option tables by\n"
	      "# 'ftv help --bash-completion'.\n"
	      "_ftv()\n{\n"
	      "\tlocal cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"", f);
	for (const struct ftv_command *c = ftv_command_first(); c; c = c->next)
		fprintf(f, "%s ", c->name);
	fputs("--help --version\" -- \"$cur\"))\n"
	      "\t\treturn 0\n"
	      "\tfi\n"
	      "\tcase \"${COMP_WORDS[1]}\" in\n", f);
	for (const struct ftv_command *c = ftv_command_first(); c; c = c->next) {
		fprintf(f, "\t%s)\n\t\tcase \"$prev\" in\n", c->name);
		for (const struct ftv_opt *o = c->opts; o && o->name; o++) {
			if (!o->arg)
				continue;
			fputs("\t\t", f);
			if (o->key > 0 && o->key < 256)
				fprintf(f, "-%c|", o->key);
			fprintf(f, "--%s)\n\t\t\t", o->name);
			reply(f, o->words, o->word);
			fputs("\n\t\t\treturn 0 ;;\n", f);
		}
		fputs("\t\tesac\n"
		      "\t\tcase \"$cur\" in\n"
		      "\t\t-*)\n\t\t\tCOMPREPLY=($(compgen -W \"", f);
		options(f, c);
		fputs("\" -- \"$cur\"))\n\t\t\treturn 0 ;;\n\t\tesac\n\t\t", f);
		reply(f, c->words, c->word);
		fputs("\n\t\t;;\n", f);
	}
	fputs("\tesac\n\treturn 0\n}\ncomplete -F _ftv ftv\n", f);
}
