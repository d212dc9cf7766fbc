/* What `ftv help` prints, from the commands' option tables: the command
 * list, the man page's commands section (roff) and the bash completion. */
#ifndef FTV_TOOLS_HELP_H
#define FTV_TOOLS_HELP_H

#include <stdio.h>

void ftv_list_commands(FILE *f);
/* The .SH COMMANDS section of ftv.1: every command, its synopsis, its
 * prose and every option. */
void ftv_man_commands(FILE *f);
/* The .SH VIOLATIONS section, from the kinds' table
 * (verify/violation_kind.h); ftv_man_commands ends with it. */
void ftv_man_violations(FILE *f);
/* The KEYWORDS and OPERATIONS sections of ftv-scenario(5), from the
 * scenario language's keyword table and the ftrace verbs
 * (docs/ftv-scenario.5.in has the rest). */
void ftv_man_scenario(FILE *f);
/* A bash completion script for ftv: commands, their options, and the
 * values of the options that take one. */
void ftv_bash_completion(FILE *f);

#endif
