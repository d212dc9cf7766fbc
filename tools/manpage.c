/* ftv.1's commands section, from the option tables: `make` runs
 * `ftv help --man` and puts it into docs/ftv.1.in, the hand-written rest. */
#include "tools/help.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"
#include "patcher/ftrace_verbs.h"
#include "verify/scenario.h"
#include "verify/violation_kind.h"

#include <stdio.h>
#include <string.h>

/* Text for roff: backslashes and hyphens escaped, and a line that would
 * start with a control character protected. */
static void roff(FILE *f, const char *s, size_t n, int line_start)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (line_start && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", f);
		line_start = s[i] == '\n';
		if (s[i] == '\\')
			fputs("\\e", f);
		else if (s[i] == '-')
			fputs("\\-", f);
		else
			fputc(s[i], f);
	}
}

static void roff_str(FILE *f, const char *s, int line_start)
{
	roff(f, s, strlen(s), line_start);
}

/* The prose: its lines as they are, a blank line a new paragraph. */
static void roff_doc(FILE *f, const char *doc)
{
	while (*doc) {
		size_t n = strcspn(doc, "\n");

		if (!n)
			fputs(".PP\n", f);
		else {
			roff(f, doc, n, 1);
			fputc('\n', f);
		}
		doc += n + (doc[n] == '\n');
	}
}

static void man_option(FILE *f, const struct ftv_opt *o)
{
	char w[128];
	const char *s;

	fputs(".TP\n", f);
	if (o->key > 0 && o->key < 256)
		fprintf(f, "\\fB\\-%c\\fR, ", o->key);
	fputs("\\fB\\-\\-", f);
	roff_str(f, o->name, 0);
	fputs("\\fR", f);
	if (o->arg) {
		fputs(" \\fI", f);
		roff_str(f, o->arg, 0);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_str(f, o->help, 1);
	fputc('\n', f);
	/* a list known only at run time (mutants, schemes): name them */
	if (o->word && (s = ftv_opt_word(o, 0, w, sizeof(w)))) {
		fputs("One of:", f);
		for (unsigned i = 0; (s = ftv_opt_word(o, i, w, sizeof(w))); i++) {
			fputs(i ? ", " : " ", f);
			roff_str(f, s, 0);
		}
		fputs(".\n", f);
	}
}

void ftv_man_commands(FILE *f)
{
	char syn[512];

	fputs(".SH COMMANDS\n", f);
	for (const struct ftv_command *c = ftv_command_first(); c; c = c->next) {
		ftv_command_synopsis(c, syn, sizeof(syn));
		fputs(".SS \"", f);
		roff_str(f, syn, 0);
		fputs("\"\n", f);
		if (c->summary) {
			roff_str(f, c->summary, 1);
			fputs(".\n", f);
		}
		if (c->doc) {
			fputs(".PP\n", f);
			roff_doc(f, c->doc);
		}
		if (!c->opts || !c->opts[0].name)
			continue;
		fputs(".PP\nOptions:\n.RS\n", f);
		for (const struct ftv_opt *o = c->opts; o->name; o++)
			man_option(f, o);
		fputs(".RE\n", f);
	}
	/* the exit codes' table (util/err.h), the section's first part */
	fputs(".SH \"EXIT STATUS\"\n", f);
	for (const struct ftv_exit_desc *e = ftv_exits; e->meaning; e++) {
		fprintf(f, ".TP\n.B %d\n", e->code);
		roff_str(f, e->meaning, 1);
		fputs(".\n", f);
	}
	ftv_man_violations(f);
}

void ftv_man_violations(FILE *f)
{
	const struct violation_kind *k;

	fputs(".SH VIOLATIONS\n", f);
	roff_str(f, "Every report names each violation by its kind, the word a scenario's "
		 "expect violation line lists. The layer that finds it, what it means, and "
		 "the bundled scenario that shows it:\n", 1);
	for (size_t i = 0; (k = violation_kind_at(i)); i++) {
		fputs(".TP\n\\fB", f);
		roff_str(f, k->name, 0);
		fputs("\\fR (", f);
		roff_str(f, k->layer, 0);
		fputs(")\n", f);
		roff_str(f, k->meaning, 1);
		if (k->scenario) {
			fputs(" (\\fBftv scenario ", f);
			roff_str(f, k->scenario, 0);
			fputs("\\fR)", f);
		}
		fputs(".\n", f);
	}
}

/* An item: the word in bold, its arguments in italics, then text. */
static void man_item(FILE *f, const char *word, const char *args, const char *text)
{
	fputs(".TP\n\\fB", f);
	roff_str(f, word, 0);
	fputs("\\fR", f);
	if (args && args[0]) {
		fputs(" \\fI", f);
		roff_str(f, args, 0);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_str(f, text, 1);
	fputs(".\n", f);
}

void ftv_man_scenario(FILE *f)
{
	const struct scn_keyword *k;
	const struct ftrace_verb *v;

	fputs(".SH KEYWORDS\n", f);
	roff_str(f, "In the order ftv writes them (findings, counterexamples); a file may "
		 "give them in any order, the operations in the order they are performed.\n",
		 1);
	for (size_t i = 0; (k = scenario_keyword_at(i)); i++)
		man_item(f, k->name, k->args, k->help);
	fputs(".SH OPERATIONS\n", f);
	roff_str(f, "The ftrace verbs, shared with the core scripts "
		 "(patcher/ftrace_verbs.h); NAME is an ops created by ops.\n", 1);
	for (size_t i = 0; (v = ftrace_verb_at(i)); i++)
		if (scenario_verb_ok(v))
			man_item(f, v->name, v->usage ? v->usage : "NAME TRACER", v->help);
}
