/* Where the commands find the built corpus and trampolines: next to the ftv
 * binary (build/corpus, build/trampolines) unless --build DIR says. */
#ifndef FTV_TOOLS_PATHS_H
#define FTV_TOOLS_PATHS_H

#include "util/opt.h"

struct ftv_paths {
	char build[4096];
	char corpus[4200];
	char tramp[4200];
};

void ftv_paths_default(struct ftv_paths *p, const char *argv0);
/* --build DIR */
void ftv_paths_set_build(struct ftv_paths *p, const char *dir);

/* The option-table entry of --build, shared by the commands that run
 * worlds; its key is FTV_OPT_BUILD. */
#define FTV_OPT_BUILD 0x4000
#define FTV_PATHS_OPTION                                                       \
	{ .name = "build", .key = FTV_OPT_BUILD, .arg = "DIR",                 \
	  .help = "corpus objects and trampolines from DIR/corpus and "        \
		  "DIR/trampolines",                                           \
	  .words = FTV_WORDS_DIR }

#endif
