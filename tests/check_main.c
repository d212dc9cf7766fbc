/* The single Check runner: every registered suite, one summary line. A suite
 * name given as argv[1] (or CK_RUN_SUITE) runs just that suite. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct ftv_suite *suites;

void ftv_suite_register(struct ftv_suite *s)
{
	struct ftv_suite **p = &suites;

	while (*p && strcmp((*p)->name, s->name) < 0)
		p = &(*p)->next;
	s->next = *p;
	*p = s;
}

const char *ftv_test_env(const char *name)
{
	const char *v = getenv(name);

	ck_assert_msg(v && *v, "environment variable %s is not set", name);
	return v;
}

void ftv_test_path(char *buf, size_t n, const char *env, const char *rel)
{
	snprintf(buf, n, "%s/%s", ftv_test_env(env), rel);
}

char *ftv_test_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	ck_assert_msg(f, "cannot open %s", path);
	ck_assert(fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert(buf && fread(buf, 1, (size_t)n, f) == (size_t)n);
	buf[n] = 0;
	fclose(f);
	return buf;
}

void ftv_test_scn(char *path, size_t n, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, n, "/tmp/ftv-test-XXXXXX.scn");
	fd = mkstemps(path, 4);
	ck_assert(fd >= 0);
	f = fdopen(fd, "w");
	ck_assert(f);
	fputs(text, f);
	ck_assert(!fclose(f));
}

void ftv_test_tmpfile(char *path, size_t n, const char *text)
{
	int fd;
	FILE *f;

	snprintf(path, n, "/tmp/ftv-test-XXXXXX");
	fd = mkstemp(path);
	ck_assert(fd >= 0);
	f = fdopen(fd, "w");
	ck_assert(f);
	fputs(text, f);
	ck_assert(fclose(f) == 0);
}

void ftv_test_json_field(const char *out, const char *key, char *val, size_t n)
{
	char k[64];
	const char *p;
	size_t len = 0;

	snprintf(k, sizeof(k), "\"%s\":", key);
	p = strstr(out, k);
	val[0] = 0;
	if (!p)
		return;
	p += strlen(k);
	if (*p == '"')
		for (const char *q = p + 1; *q && *q != '"'; q++)
			len++;
	else
		len = strcspn(p, ",}");
	if (len >= n)
		len = n - 1;
	memcpy(val, p + (*p == '"'), len);
	val[len] = 0;
}

int ftv_test_run(char *const argv[], char **out)
{
	int fds[2], status;
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	pid_t pid;
	ssize_t r;

	ck_assert(buf && pipe(fds) == 0);
	pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		close(fds[1]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((r = read(fds[0], buf + len, cap - len - 1)) > 0) {
		len += r;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert(buf);
		}
	}
	close(fds[0]);
	buf[len] = 0;
	waitpid(pid, &status, 0);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	const char *only = argc > 1 ? argv[1] : getenv("CK_RUN_SUITE");
	int failed;

	for (struct ftv_suite *s = suites; s; s = s->next) {
		if (only && strcmp(only, s->name))
			continue;
		if (!sr)
			sr = srunner_create(s->make());
		else
			srunner_add_suite(sr, s->make());
	}
	if (!sr) {
		fprintf(stderr, "ftv-tests: no suite named '%s'\n", only ? only : "");
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
