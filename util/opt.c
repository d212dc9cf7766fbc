#include "util/opt.h"
#include "util/err.h"
#include "util/num.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Every command's -h/--help, after its own options. */
#define KEY_HELP 'h'
static const struct ftv_opt help_opt[] = {
	{ .name = "help", .key = KEY_HELP, .help = "print this help and exit" },
	{ 0 },
};

const struct ftv_opt *ftv_opt_help(void)
{
	return help_opt;
}

static size_t nopts(const struct ftv_command *c)
{
	size_t n = 0;

	while (c->opts && c->opts[n].name)
		n++;
	return n;
}

static int is_short(int key)
{
	return key > 0 && key < 256 && isalnum(key);
}

static void add_option(struct ftv_getopt *g, size_t *nl, size_t *ns, const struct ftv_opt *o)
{
	g->longopts[*nl] = (struct option){ o->name, o->arg ? required_argument : no_argument,
					    NULL, o->key };
	(*nl)++;
	if (is_short(o->key)) {
		g->shortopts[(*ns)++] = (char)o->key;
		if (o->arg)
			g->shortopts[(*ns)++] = ':';
	}
}

void ftv_getopt_init(struct ftv_getopt *g, int argc, char **argv)
{
	size_t nl = 0, ns = 0, n;

	memset(g, 0, sizeof(*g));
	g->argc = argc;
	g->argv = argv;
	g->cmd = ftv_command_find(argv[0]);
	if (!g->cmd) {
		/* a command always parses under its registered name */
		fprintf(stderr, "ftv: no command '%s'\n", argv[0]);
		abort();
	}
	n = nopts(g->cmd);
	if (n > FTV_OPT_MAX) {
		fprintf(stderr, "ftv %s: %zu options, more than FTV_OPT_MAX\n", argv[0], n);
		abort();
	}
	/* '-': arguments in order, as key 1; ':': a missing value is ':' */
	g->shortopts[ns++] = '-';
	g->shortopts[ns++] = ':';
	for (size_t i = 0; i < n; i++)
		add_option(g, &nl, &ns, &g->cmd->opts[i]);
	add_option(g, &nl, &ns, &help_opt[0]);
	g->shortopts[ns] = 0;
	memset(&g->longopts[nl], 0, sizeof(g->longopts[nl]));
	optind = 0; /* glibc: start over, whatever parsed before */
	opterr = 0;
}

static const struct ftv_opt *by_key(const struct ftv_getopt *g, int key)
{
	for (const struct ftv_opt *o = g->cmd->opts; o && o->name; o++)
		if (o->key == key)
			return o;
	return key == KEY_HELP ? &help_opt[0] : NULL;
}

static int stop(struct ftv_getopt *g, int code)
{
	g->exit = code;
	return FTV_OPT_STOP;
}

/* getopt said '?' for a long option it could not match: unknown, or an
 * abbreviation of several. */
static int bad_long(struct ftv_getopt *g, const char *text)
{
	size_t len = strcspn(text + 2, "=");
	char list[512] = "";
	size_t used = 0;
	int matches = 0;

	for (const struct option *l = g->longopts; l->name; l++)
		if (!strncmp(l->name, text + 2, len)) {
			used += (size_t)snprintf(list + used, used < sizeof(list) ?
						 sizeof(list) - used : 0, "%s--%s",
						 matches ? ", " : "", l->name);
			matches++;
		}
	if (matches > 1)
		fprintf(stderr, "ftv %s: option '%.*s' is ambiguous (%s)\n", g->cmd->name,
			(int)len + 2, text, list);
	else
		fprintf(stderr, "ftv %s: unrecognized option '%.*s'\n", g->cmd->name,
			(int)len + 2, text);
	return stop(g, FTV_EXIT_USAGE);
}

int ftv_getopt(struct ftv_getopt *g)
{
	int c;

	g->opt = NULL;
	g->val = NULL;
	if (g->rest) {
		if (g->rest >= g->argc)
			return FTV_OPT_END;
		g->val = g->argv[g->rest++];
		return FTV_OPT_ARG;
	}
	c = getopt_long(g->argc, g->argv, g->shortopts, g->longopts, NULL);
	if (c == -1) {
		/* "--": what follows are arguments, whatever they look like */
		if (optind < g->argc) {
			g->rest = optind;
			return ftv_getopt(g);
		}
		return FTV_OPT_END;
	}
	if (c == 1) {
		g->val = optarg;
		return FTV_OPT_ARG;
	}
	if (c == ':') {
		const struct ftv_opt *o = by_key(g, optopt);

		if (o && (!is_short(optopt) || !strncmp(g->argv[optind - 1], "--", 2)))
			fprintf(stderr, "ftv %s: option '--%s' needs a value\n", g->cmd->name,
				o->name);
		else
			fprintf(stderr, "ftv %s: option '-%c' needs a value\n", g->cmd->name,
				optopt);
		return stop(g, FTV_EXIT_USAGE);
	}
	if (c == '?') {
		const char *text = g->argv[optind - 1];
		const struct ftv_opt *o = optopt ? by_key(g, optopt) : NULL;

		if (!optopt && !strncmp(text, "--", 2))
			return bad_long(g, text);
		if (o && !strncmp(text, "--", 2)) {
			fprintf(stderr, "ftv %s: option '--%s' takes no value\n", g->cmd->name,
				o->name);
			return stop(g, FTV_EXIT_USAGE);
		}
		if (isprint(optopt))
			fprintf(stderr, "ftv %s: unrecognized option '-%c'\n", g->cmd->name,
				optopt);
		else
			fprintf(stderr, "ftv %s: unrecognized option '%s'\n", g->cmd->name,
				text);
		return stop(g, FTV_EXIT_USAGE);
	}
	g->opt = by_key(g, c);
	g->val = optarg;
	if (c == KEY_HELP) {
		ftv_command_help(g->cmd, stdout);
		return stop(g, fflush(stdout) ? FTV_EXIT_USAGE : FTV_EXIT_OK);
	}
	return c;
}

/* ---- values ------------------------------------------------------------ */

int ftv_opt_bad(struct ftv_getopt *g, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ftv %s: --%s: '%s' ", g->cmd->name, g->opt ? g->opt->name : "?",
		g->val ? g->val : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	g->exit = FTV_EXIT_USAGE;
	return FTV_EXIT_USAGE;
}

int ftv_opt_u64(struct ftv_getopt *g, uint64_t lo, uint64_t hi, uint64_t *out)
{
	uint64_t v;

	if (!ftv_parse_u64(g->val, &v) && v >= lo && v <= hi) {
		*out = v;
		return 0;
	}
	if (hi == UINT64_MAX && !lo)
		ftv_opt_bad(g, "is not a number");
	else if (hi == UINT64_MAX)
		ftv_opt_bad(g, "is not a number from %llu up", (unsigned long long)lo);
	else
		ftv_opt_bad(g, "is not a number from %llu to %llu", (unsigned long long)lo,
			    (unsigned long long)hi);
	return -1;
}

int ftv_opt_unsigned(struct ftv_getopt *g, unsigned lo, unsigned hi, unsigned *out)
{
	uint64_t v;

	if (ftv_opt_u64(g, lo, hi, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

int ftv_opt_seconds(struct ftv_getopt *g, double *out)
{
	char *end;
	double v = strtod(g->val, &end);

	if (end == g->val || *end || !(v > 0) || v > 1e9) {
		ftv_opt_bad(g, "is not a number of seconds above 0");
		return -1;
	}
	*out = v;
	return 0;
}

const char *ftv_opt_word(const struct ftv_opt *o, unsigned i, char *buf, size_t n)
{
	const char *p = o->words;

	if (o->word)
		return o->word(i);
	if (!p || *p == '\001')
		return NULL;
	for (;;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			return NULL;
		if (!i--) {
			snprintf(buf, n, "%.*s", (int)len, p);
			return buf;
		}
		p += len;
	}
}

int ftv_opt_bad_choice(struct ftv_getopt *g)
{
	char list[1024] = "", w[128];
	const char *s;
	size_t used = 0;

	for (unsigned i = 0; g->opt && (s = ftv_opt_word(g->opt, i, w, sizeof(w))); i++)
		if (used < sizeof(list))
			used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
						 i ? ", " : "", s);
	return ftv_opt_bad(g, "is not one of %s", list);
}

/* ---- messages and help ------------------------------------------------- */

int ftv_cmd_error(const struct ftv_command *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ftv %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return FTV_EXIT_USAGE;
}

void ftv_command_synopsis(const struct ftv_command *c, char *buf, size_t n)
{
	snprintf(buf, n, "ftv %s%s%s%s", c->name, nopts(c) ? " [OPTION]..." : "",
		 c->args && *c->args ? " " : "", c->args ? c->args : "");
}

int ftv_usage_error(const struct ftv_command *c, const char *fmt, ...)
{
	char syn[512];
	va_list ap;

	ftv_command_synopsis(c, syn, sizeof(syn));
	fprintf(stderr, "ftv %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "; usage: %s\n", syn);
	return FTV_EXIT_USAGE;
}

int ftv_usage(const char *name)
{
	const struct ftv_command *c = ftv_command_find(name);
	char syn[512] = "";

	if (c)
		ftv_command_synopsis(c, syn, sizeof(syn));
	fprintf(stderr, "ftv %s: usage: %s\n", name, syn);
	return FTV_EXIT_USAGE;
}

/* "  -o, --output LAYOUT" or "      --seed S" */
static void opt_left(const struct ftv_opt *o, char *buf, size_t n)
{
	if (is_short(o->key))
		snprintf(buf, n, "  -%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	else
		snprintf(buf, n, "      --%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
}

/* text from column col on, folded at spaces before column 80 */
static void fold(FILE *f, const char *text, int col)
{
	int at = col;

	while (*text) {
		size_t n = strcspn(text, " ");

		if (at > col && at + 1 + (int)n > 79) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fprintf(f, "%.*s", (int)n, text);
		at += (int)n;
		text += n;
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

void ftv_command_help(const struct ftv_command *c, FILE *f)
{
	const struct ftv_opt *lists[2] = { c->opts, help_opt };
	char syn[512], left[128];
	int width = 0;

	ftv_command_synopsis(c, syn, sizeof(syn));
	fprintf(f, "usage: %s\n%s\n\noptions:\n", syn, c->summary ? c->summary : "");
	for (int l = 0; l < 2; l++)
		for (const struct ftv_opt *o = lists[l]; o && o->name; o++) {
			opt_left(o, left, sizeof(left));
			if ((int)strlen(left) > width && strlen(left) <= 26)
				width = (int)strlen(left);
		}
	for (int l = 0; l < 2; l++)
		for (const struct ftv_opt *o = lists[l]; o && o->name; o++) {
			opt_left(o, left, sizeof(left));
			if ((int)strlen(left) > width)
				fprintf(f, "%s\n%*s", left, width + 2, "");
			else
				fprintf(f, "%-*s  ", width, left);
			fold(f, o->help, width + 2);
		}
	if (c->doc && *c->doc)
		fprintf(f, "\n%s%s", c->doc, c->doc[strlen(c->doc) - 1] == '\n' ? "" : "\n");
}
