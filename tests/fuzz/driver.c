/* Replays saved inputs through a harness's LLVMFuzzerTestOneInput, without
 * libFuzzer or clang: `make check` runs it over the harness's seeds and
 * regression corpus (tests/fuzz/{corpus,regress}/NAME).
 *
 *   build/fuzz/replay-NAME DIR|FILE...
 *
 * Inputs in a directory run in name order (deterministic). Prints
 * "NAME: N inputs replayed"; an input that crashes is named on stderr
 * before the crash report (a signal or a sanitizer's). */
#define _GNU_SOURCE /* asprintf */
#include "tests/fuzz/harness.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_UNDEFINED__)
#define FUZZ_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_SANITIZED 1
#endif
#endif
#ifdef FUZZ_SANITIZED
#include <sanitizer/common_interface_defs.h>
#endif

static const char *current;

static void say_current(void)
{
	static const char pre[] = "replay: crash on input ";

	if (!current)
		return;
	/* async-signal-safe: write(2) only */
	if (write(2, pre, sizeof(pre) - 1) < 0 || write(2, current, strlen(current)) < 0 ||
	    write(2, "\n", 1) < 0)
		return;
}

static void on_signal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				abort();
		}
		n = fread(buf + len, 1, cap - len, f);
		if (!n)
			break;
		len += n;
	}
	fclose(f);
	/* the exact size: a read past the input is the sanitizers' to see */
	{
		uint8_t *exact = malloc(len ? len : 1);

		if (!exact)
			abort();
		memcpy(exact, buf, len);
		free(buf);
		current = path;
		LLVMFuzzerTestOneInput(exact, len);
		current = NULL;
		free(exact);
	}
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Returns the number of inputs, or -1. */
static long replay_path(const char *path)
{
	struct stat st;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	long count = 0;
	DIR *d;

	if (stat(path, &st)) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path) ? -1 : 1;
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "replay: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue; /* ., .. and .gitignore-like files */
		if (n == cap) {
			cap = cap ? cap * 2 : 256;
			names = realloc(names, cap * sizeof(*names));
			if (!names)
				abort();
		}
		if (asprintf(&names[n], "%s/%s", path, e->d_name) < 0)
			abort();
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		long r = replay_path(names[i]);

		if (r < 0)
			count = -1;
		else if (count >= 0)
			count += r;
		free(names[i]);
	}
	free(names);
	return count;
}

int main(int argc, char **argv)
{
	const char *name = strrchr(argv[0], '/');
	long total = 0;

	name = name ? name + 1 : argv[0];
	if (!strncmp(name, "replay-", 7))
		name += 7;
	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
		return 2;
	}
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGABRT, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGILL, on_signal);
#ifdef FUZZ_SANITIZED
	__sanitizer_set_death_callback(say_current);
#endif
	for (int i = 1; i < argc; i++) {
		long r = replay_path(argv[i]);

		if (r < 0)
			return 2;
		total += r;
	}
	printf("%s: %ld inputs replayed\n", name, total);
	return 0;
}
