#include "tools/paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void set_build(struct ftv_paths *p, const char *dir)
{
	snprintf(p->build, sizeof(p->build), "%s", dir);
	snprintf(p->corpus, sizeof(p->corpus), "%s/corpus", dir);
	snprintf(p->tramp, sizeof(p->tramp), "%s/trampolines", dir);
}

void ftv_paths_default(struct ftv_paths *p, const char *argv0)
{
	char exe[4096];
	ssize_t n;
	const char *env = getenv("FTV_BUILD");

	(void)argv0;
	if (env && *env) {
		set_build(p, env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		set_build(p, exe);
		return;
	}
	set_build(p, "build");
}

void ftv_paths_set_build(struct ftv_paths *p, const char *dir)
{
	set_build(p, dir);
}
