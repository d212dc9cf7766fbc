/* Command-line options from one table per command, parsed with libc's
 * getopt_long. The same table gives `ftv CMD --help`, the command's man page
 * section and its completion words, so an option exists in all four places
 * or none.
 *
 *   struct ftv_getopt g;
 *   int o;
 *
 *   ftv_getopt_init(&g, argc, argv);
 *   while ((o = ftv_getopt(&g)) > 0) {
 *           switch (o) {
 *           case O_CPUS:
 *                   if (ftv_opt_unsigned(&g, 1, 32, &cpus))
 *                           return FTV_EXIT_USAGE;
 *                   break;
 *           case FTV_OPT_ARG: files[n++] = g.val; break;
 *           }
 *   }
 *   if (o < 0)
 *           return g.exit;   (--help printed: 0; a bad option: 2)
 *
 * Arguments come back in command-line order (getopt's RETURN_IN_ORDER):
 * options as their key, everything else as FTV_OPT_ARG with g.val, also
 * after "--". Every command has -h/--help. Every message names the command
 * and the option, one line on stderr:
 *   ftv fuzz: unrecognized option '--frob'
 *   ftv fuzz: option '--seed' needs a value
 *   ftv scenario: --cpus: '0' is not a number from 1 to 32 */
#ifndef FTV_UTIL_OPT_H
#define FTV_UTIL_OPT_H

#include "util/cmd.h"

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

/* Completion of a value that names a file or a directory. */
#define FTV_WORDS_FILE "\001file"
#define FTV_WORDS_DIR "\001dir"

struct ftv_opt {
	const char *name; /* "seed" for --seed */
	int key;          /* a short option letter ('o' for -o) or an id >= 256 */
	const char *arg;  /* the value's name in help ("S", "FILE"); NULL: a flag */
	const char *help; /* one line */
	/* completion of the value: words apart by spaces, or FTV_WORDS_FILE,
	 * FTV_WORDS_DIR; or word(i), the i-th word of a list known at run
	 * time (NULL after the last). Neither: nothing to offer. */
	const char *words;
	const char *(*word)(unsigned i);
};

/* What ftv_getopt returns besides an option's key. */
enum { FTV_OPT_STOP = -1, FTV_OPT_END = 0, FTV_OPT_ARG = 1 };

#define FTV_OPT_MAX 48

struct ftv_getopt {
	const struct ftv_command *cmd;
	int argc;
	char **argv;
	const struct ftv_opt *opt; /* the option just returned */
	const char *val;           /* its value, or the argument (FTV_OPT_ARG) */
	int exit;                  /* the command's exit code after FTV_OPT_STOP */
	int rest;                  /* after "--": argv[rest...] are arguments */
	struct option longopts[FTV_OPT_MAX + 2];
	char shortopts[3 * FTV_OPT_MAX + 8];
};

/* argv[0] names the command (as registered). */
void ftv_getopt_init(struct ftv_getopt *g, int argc, char **argv);
/* The next option's key, FTV_OPT_ARG, FTV_OPT_END, or FTV_OPT_STOP when the
 * command must return g->exit now (help printed, or a message printed). */
int ftv_getopt(struct ftv_getopt *g);

/* Values of the option just returned. Each prints one line naming command,
 * option and value and returns -1 when the value is bad. */
int ftv_opt_u64(struct ftv_getopt *g, uint64_t lo, uint64_t hi, uint64_t *out);
int ftv_opt_unsigned(struct ftv_getopt *g, unsigned lo, unsigned hi, unsigned *out);
int ftv_opt_seconds(struct ftv_getopt *g, double *out);
/* "ftv CMD: --OPT: 'VAL' is not one of a, b, c" from the option's words;
 * returns FTV_EXIT_USAGE. */
int ftv_opt_bad_choice(struct ftv_getopt *g);
/* "ftv CMD: --OPT: 'VAL' " and the rest; returns FTV_EXIT_USAGE. */
int ftv_opt_bad(struct ftv_getopt *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "ftv CMD: " and the message on stderr; returns FTV_EXIT_USAGE. */
int ftv_cmd_error(const struct ftv_command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A command line the options parsed but that lacks something (or has too
 * much): "ftv CMD: missing FILE; usage: ftv CMD [OPTION]... FILE...";
 * returns FTV_EXIT_USAGE. */
int ftv_usage_error(const struct ftv_command *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "ftv CMD [OPTION]... ARGS" */
void ftv_command_synopsis(const struct ftv_command *c, char *buf, size_t n);
/* Usage, summary, every option with its line, the prose. */
void ftv_command_help(const struct ftv_command *c, FILE *f);
/* The option's words, one at a time: i from 0 until NULL. */
const char *ftv_opt_word(const struct ftv_opt *o, unsigned i, char *buf, size_t n);
/* The option list of a command, with -h/--help at the end. */
const struct ftv_opt *ftv_opt_help(void);

#endif
