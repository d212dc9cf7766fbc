#include "util/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The most suffixes tried before giving up (x-1 ... x-999). */
#define OUTFILE_MAX_SUFFIX 999

int outfile_check(const char *path, struct ftv_err *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!*path)
		return ftv_errf(err, "empty file name");
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return ftv_errf(err, "%s: is a directory", path);
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (stat(dir, &st))
		return ftv_errf(err, "%s: directory %s: %s", path, dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ftv_errf(err, "%s: %s is not a directory", path, dir);
	if (access(dir, W_OK | X_OK))
		return ftv_errf(err, "%s: directory %s is not writable: %s", path, dir,
				strerror(errno));
	return 0;
}

/* path with "-k" before its extension (the last '.' of the last
 * component, if it is not the first character). */
static void suffixed(char *buf, size_t n, const char *path, unsigned k)
{
	const char *base = strrchr(path, '/'), *dot;

	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base)
		dot = path + strlen(path);
	snprintf(buf, n, "%.*s-%u%s", (int)(dot - path), path, k, dot);
}

FILE *outfile_create(const char *path, char *used, size_t n, struct ftv_err *err)
{
	struct stat st;
	FILE *f;
	int fd;

	/* a device or a FIFO is not a file to keep: write into it */
	if (!stat(path, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		snprintf(used, n, "%s", path);
		f = fopen(path, "w");
		if (!f)
			ftv_errf(err, "%s: %s", path, strerror(errno));
		return f;
	}
	for (unsigned k = 0; k <= OUTFILE_MAX_SUFFIX; k++) {
		if (k)
			suffixed(used, n, path, k);
		else
			snprintf(used, n, "%s", path);
		/* O_EXCL: never clobber a file another process made meanwhile */
		fd = open(used, O_WRONLY | O_CREAT | O_EXCL, 0644);
		if (fd >= 0) {
			f = fdopen(fd, "w");
			if (!f) {
				ftv_errf(err, "%s: %s", used, strerror(errno));
				close(fd);
				unlink(used);
			}
			return f;
		}
		if (errno != EEXIST) {
			ftv_errf(err, "%s: %s", used, strerror(errno));
			return NULL;
		}
	}
	ftv_errf(err, "%s: it and %u suffixed names exist already", path, OUTFILE_MAX_SUFFIX);
	return NULL;
}

int outfile_close(FILE *f, const char *used, struct ftv_err *err)
{
	struct stat st;
	int bad = ferror(f), e = errno;

	if (fclose(f) && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad)
		return 0;
	if (!stat(used, &st) && S_ISREG(st.st_mode))
		unlink(used);
	return ftv_errf(err, "%s: %s", used, strerror(e ? e : EIO));
}

int outfile_replace(const char *used, const char *text, struct ftv_err *err)
{
	char tmp[4200];
	struct stat st;
	FILE *f;
	int fd;

	if (stat(used, &st) || !S_ISREG(st.st_mode))
		return ftv_errf(err, "%s: not a regular file to replace", used);
	snprintf(tmp, sizeof(tmp), "%s.tmp-XXXXXX", used);
	fd = mkstemp(tmp);
	if (fd < 0)
		return ftv_errf(err, "%s: %s", tmp, strerror(errno));
	fchmod(fd, 0644);
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return ftv_errf(err, "%s: %s", tmp, strerror(errno));
	}
	fputs(text, f);
	if (outfile_close(f, tmp, err))
		return -1;
	/* rename(2) is atomic: a reader, or a signal now, finds the old
	 * file or the new one, whole */
	if (rename(tmp, used)) {
		unlink(tmp);
		return ftv_errf(err, "%s: %s", used, strerror(errno));
	}
	return 0;
}
