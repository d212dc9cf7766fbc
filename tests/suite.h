/* Every test file under tests/ registers its Check suite(s) with FTV_SUITE; the one
 * runner (tests/check_main.c) runs them all. Environment for tests:
 *   FTV        path of the built ftv binary (for command-line tests)
 *   FTV_BUILD  the build directory (corpus objects, generated vectors)
 *   FTV_TOP    the source tree */
#ifndef FTV_TESTS_SUITE_H
#define FTV_TESTS_SUITE_H

#include <check.h>

struct ftv_suite {
	const char *name;
	Suite *(*make)(void);
	struct ftv_suite *next;
};

void ftv_suite_register(struct ftv_suite *s);

#define FTV_SUITE(NAME, FN)                                                    \
	static struct ftv_suite ftv_suite_##NAME = { #NAME, FN, 0 };           \
	__attribute__((constructor)) static void ftv_suite_reg_##NAME(void)    \
	{                                                                      \
		ftv_suite_register(&ftv_suite_##NAME);                         \
	}

/* Helpers shared by tests. */
const char *ftv_test_env(const char *name); /* aborts the test if unset */
/* Runs argv (NULL-terminated) capturing stdout+stderr into *out (malloc'd,
 * NUL-terminated); returns the exit status, or -1 if it did not exit. */
int ftv_test_run(char *const argv[], char **out);
/* A whole file, NUL-terminated (malloc'd); aborts the test if unreadable. */
char *ftv_test_slurp(const char *path);
/* Writes text to a new /tmp/ftv-test-XXXXXX.scn, its name into path (the
 * caller unlinks it). */
void ftv_test_scn(char *path, size_t n, const char *text);
/* Path under a directory named by an environment variable. */
void ftv_test_path(char *buf, size_t n, const char *env, const char *rel);
/* A new file under /tmp holding text; its name into path (at least 32
 * bytes). The caller unlinks it. */
void ftv_test_tmpfile(char *path, size_t n, const char *text);
/* The raw value of "key" in a --json line (up to the next , or }), at
 * most n - 1 bytes; "" when the key is not there. */
void ftv_test_json_field(const char *out, const char *key, char *val, size_t n);

#endif
