#include "tools/paths.h"

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
	return arg;
}
