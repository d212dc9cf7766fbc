#include "tools/paths.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static void set_data(struct ftv_paths *p, const char *dir)
{
	snprintf(p->corpus, sizeof(p->corpus), "%s/corpus", dir);
	snprintf(p->tramp, sizeof(p->tramp), "%s/trampolines", dir);
	snprintf(p->scenarios, sizeof(p->scenarios), "%s/scenarios", dir);
	snprintf(p->litmus, sizeof(p->litmus), "%s/litmus", dir);
	snprintf(p->layouts, sizeof(p->layouts), "%s/layouts", dir);
}

void ftv_paths_set_build(struct ftv_paths *p, const char *dir)
{
	snprintf(p->corpus, sizeof(p->corpus), "%s/corpus", dir);
	snprintf(p->tramp, sizeof(p->tramp), "%s/trampolines", dir);
}

/* A build tree's source data: FTV_TOP, else the first directory above
 * the build directory (build/ or build/san/) with corpus/scenarios. */
static void set_source(struct ftv_paths *p, const char *build)
{
	const char *top = getenv("FTV_TOP");
	char dir[4096], probe[4200];

	snprintf(dir, sizeof(dir), "%s", build);
	if (top && *top) {
		snprintf(dir, sizeof(dir), "%s", top);
	} else {
		for (int up = 0; up < 4; up++) {
			snprintf(probe, sizeof(probe), "%s/corpus/scenarios", dir);
			if (is_dir(probe))
				break;
			if (strlen(dir) + 4 >= sizeof(dir))
				break;
			strcat(dir, "/..");
		}
	}
	/* named in messages ("looked in ..."): without its ".." */
	if (realpath(dir, probe) && strlen(probe) < sizeof(dir))
		memcpy(dir, probe, strlen(probe) + 1);
	snprintf(p->scenarios, sizeof(p->scenarios), "%s/corpus/scenarios", dir);
	snprintf(p->litmus, sizeof(p->litmus), "%s/corpus/litmus", dir);
	snprintf(p->layouts, sizeof(p->layouts), "%s/corpus/layouts", dir);
}

static void set_build_tree(struct ftv_paths *p, const char *dir)
{
	ftv_paths_set_build(p, dir);
	set_source(p, dir);
}

void ftv_paths_default(struct ftv_paths *p, const char *argv0)
{
	char exe[4000], share[4096];
	const char *env;
	ssize_t n;

	(void)argv0;
	if ((env = getenv("FTV_DATADIR")) && *env) {
		set_data(p, env);
		return;
	}
	if ((env = getenv("FTV_BUILD")) && *env) {
		set_build_tree(p, env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		set_build_tree(p, "build");
		return;
	}
	exe[n] = 0;
	*strrchr(exe, '/') = 0; /* readlink gives an absolute path */
	snprintf(share, sizeof(share), "%s/../share/ftv", exe);
	snprintf(p->tramp, sizeof(p->tramp), "%s/trampolines", share);
	if (is_dir(p->tramp)) {
		set_data(p, share);
		return;
	}
	set_build_tree(p, exe);
}

/* dir/sub/arg or dir/sub/arg.ext in dir's first subdirectory (by name:
 * the same every time) that has one (corpus/litmus/herd/...). */
static int find_below(const char *dir, const char *arg, const char *ext, char *buf, size_t n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char best[256] = "", path[4400];

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || (best[0] && strcmp(e->d_name, best) >= 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!is_dir(path))
			continue;
		for (int x = 0; x < 2; x++) {
			snprintf(path, sizeof(path), "%s/%s/%s%s", dir, e->d_name, arg, x ? ext : "");
			if (!access(path, F_OK) && !is_dir(path)) {
				snprintf(best, sizeof(best), "%s", e->d_name);
				snprintf(buf, n, "%s", path);
				break;
			}
		}
	}
	closedir(d);
	return best[0] ? 0 : -1;
}

const char *ftv_paths_find(const char *dir, const char *arg, const char *ext, char *buf,
			   size_t n)
{
	if (!access(arg, F_OK) || strchr(arg, '/'))
		return arg;
	snprintf(buf, n, "%s/%s", dir, arg);
	if (!access(buf, F_OK))
		return buf;
	snprintf(buf, n, "%s/%s%s", dir, arg, ext);
	if (!access(buf, F_OK))
		return buf;
	if (!find_below(dir, arg, ext, buf, n))
		return buf;
	return arg;
}

const char *ftv_paths_input(const char *dir, const char *arg, const char *ext, char *buf,
			    size_t n, struct ftv_err *err)
{
	const char *path = ftv_paths_find(dir, arg, ext, buf, n);
	struct stat st;

	if (stat(path, &st)) {
		int e = errno;

		if (e != ENOENT || strchr(arg, '/'))
			ftv_errf(err, "%s: cannot open: %s", path, strerror(e));
		else
			ftv_errf(err, "%s: cannot open: no such file here, nor %s or %s%s in %s "
				 "or its subdirectories", arg, arg, arg, ext, dir);
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		ftv_errf(err, "%s: is a directory, not a file", path);
		return NULL;
	}
	if (access(path, R_OK)) {
		ftv_errf(err, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	if (S_ISREG(st.st_mode) && !st.st_size) {
		ftv_errf(err, "%s: is empty", path);
		return NULL;
	}
	return path;
}

int ftv_litmus_opts_check(const struct ftv_command *c, const char *litmus,
			  const char *fixed)
{
	return fixed && !litmus
		       ? ftv_usage_error(c, "--litmus-fixed FILE writes the twin of the "
					 "test --litmus FILE writes: it needs --litmus")
		       : 0;
}
