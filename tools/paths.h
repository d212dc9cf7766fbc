/* Where the commands find the built corpus and trampolines: next to the ftv
 * binary (build/corpus, build/trampolines) unless --build DIR says. */
#ifndef FTV_TOOLS_PATHS_H
#define FTV_TOOLS_PATHS_H

struct ftv_paths {
	char build[4096];
	char corpus[4200];
	char tramp[4200];
};

void ftv_paths_default(struct ftv_paths *p, const char *argv0);
/* Handles "--build DIR"; returns 1 when it consumed the option. */
int ftv_paths_option(struct ftv_paths *p, const char *opt, const char *val);

#endif
