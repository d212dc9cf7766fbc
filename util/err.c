#include "util/err.h"

#include <stdio.h>
#include <string.h>

int ftv_verrf(struct ftv_err *err, const char *fmt, va_list ap)
{
	if (err)
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	return -1;
}

int ftv_errf(struct ftv_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftv_verrf(err, fmt, ap);
	va_end(ap);
	return -1;
}

int ftv_err_prefix(struct ftv_err *err, const char *fmt, ...)
{
	char prefix[256], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* truncation of an over-long message is acceptable */
	size_t n = strlen(prefix);

	if (n > sizeof(err->msg) - 3)
		n = sizeof(err->msg) - 3;
	memcpy(err->msg, prefix, n);
	memcpy(err->msg + n, ": ", 2);
	memcpy(err->msg + n + 2, old, sizeof(err->msg) - n - 3);
	err->msg[sizeof(err->msg) - 1] = 0;
	return -1;
}

const struct ftv_exit_desc ftv_exits[] = {
	{ FTV_EXIT_OK, "ok: it ran and found nothing wrong (every verdict as expected)" },
	{ FTV_EXIT_VIOLATION, "a violation was found, or a verdict differs from the one "
			      "expected" },
	{ FTV_EXIT_USAGE, "bad usage or input (one line on stderr names it), or a run "
			  "that verified nothing (vacuous)" },
	{ FTV_EXIT_INCOMPLETE, "incomplete: a bound or budget (executions, time, steps) "
			       "ended it before a verdict; not a proof" },
	{ FTV_EXIT_INTERRUPTED, "interrupted by SIGINT (143: SIGTERM) after printing what "
				"it had; fuzz, with nothing found, dies of the signal" },
	{ -1, NULL },
};
