/* Errors are returned, not printed deep inside: a function that can fail takes
 * a struct ftv_err and fills it with one line naming the file, offset or
 * symbol at fault. The command front end prints it and picks the exit code. */
#ifndef FTV_UTIL_ERR_H
#define FTV_UTIL_ERR_H

#include <stdarg.h>

/* Exit codes shared by every command: the table ftv_exits says what each
 * means, and `ftv help` and the man page print it. */
enum { FTV_EXIT_OK = 0, FTV_EXIT_VIOLATION = 1, FTV_EXIT_USAGE = 2,
       FTV_EXIT_INCOMPLETE = 3, FTV_EXIT_INTERRUPTED = 130 };

struct ftv_exit_desc {
	int code;
	const char *meaning;
};
/* Every code, in order, ending with { -1, NULL }. */
extern const struct ftv_exit_desc ftv_exits[];

struct ftv_err {
	char msg[512];
};

/* Sets the message (printf style) and returns -1, so callers can write
 * `return ftv_errf(err, "...")`. A NULL err is allowed and ignored. */
int ftv_errf(struct ftv_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int ftv_verrf(struct ftv_err *err, const char *fmt, va_list ap);

/* Prefixes an existing message, e.g. with the file name: "a.o: <msg>". */
int ftv_err_prefix(struct ftv_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
