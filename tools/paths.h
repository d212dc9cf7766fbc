/* Where the commands find their data: the corpus objects, the assembled
 * trampolines and tracers, the scenarios and the litmus tests. In order:
 *
 *   --build DIR         DIR/corpus and DIR/trampolines (a build tree)
 *   FTV_DATADIR=DIR     an installed tree: DIR/corpus, DIR/trampolines,
 *                       DIR/scenarios, DIR/litmus, DIR/layouts
 *   FTV_BUILD=DIR       a build tree (the test suite sets it)
 *   BIN/../share/ftv    installed: ftv in PREFIX/bin, data in
 *                       PREFIX/share/ftv (`make install`), wherever
 *                       PREFIX and DESTDIR put them
 *   BIN                 a build tree: ftv is build/ftv
 *
 * In a build tree the scenarios, litmus tests and layouts are the source
 * tree's (FTV_TOP/corpus/..., else found above the build directory). */
#ifndef FTV_TOOLS_PATHS_H
#define FTV_TOOLS_PATHS_H

#include "util/err.h"
#include "util/opt.h"

#include <stddef.h>

struct ftv_paths {
	char corpus[4200];    /* <corpus>/<set>/<name>.o */
	char tramp[4200];     /* entry-*.o, tracers.o, ...; riscv64/ */
	char scenarios[4200]; /* *.scn: conform's default, scenario NAME */
	char litmus[4200];    /* *.litmus: litmus NAME */
	char layouts[4200];   /* *.layout[.xz]: replay NAME */
};

void ftv_paths_default(struct ftv_paths *p, const char *argv0);
/* --build DIR */
void ftv_paths_set_build(struct ftv_paths *p, const char *dir);

/* A file argument: arg itself when it exists or names a directory path
 * (has a '/'); else dir/arg or dir/arg.ext when that exists, else the same
 * in dir's subdirectories (the first by name), so `ftv scenario
 * callops-basic` and `ftv litmus MP.RF+cachesync+ctrl-isb` (litmus/herd/)
 * run the installed file from anywhere.
 * Returns arg or buf. */
const char *ftv_paths_find(const char *dir, const char *arg, const char *ext, char *buf,
			   size_t n);
/* The same for an input the command is about to read, checked: NULL and
 * one line in err when it is not there (saying where it looked), is a
 * directory, cannot be read (why) or is empty. */
const char *ftv_paths_input(const char *dir, const char *arg, const char *ext, char *buf,
			    size_t n, struct ftv_err *err);

/* The option-table entries of --build and --kernel, shared by the commands that run
 * worlds; its key is FTV_OPT_BUILD. */
#define FTV_OPT_BUILD 0x4000
/* --kernel DIR: world_kernel_dir_set (verify/world.h) */
#define FTV_OPT_KERNEL 0x4001
#define FTV_PATHS_OPTION                                                       \
	{ .name = "build", .key = FTV_OPT_BUILD, .arg = "DIR",                 \
	  .help = "corpus objects and trampolines from DIR/corpus and "        \
		  "DIR/trampolines",                                           \
	  .words = FTV_WORDS_DIR },                                            \
	{ .name = "kernel", .key = FTV_OPT_KERNEL, .arg = "DIR",               \
	  .help = "scheme kernel: the make kernel build in DIR (default "      \
		  "the build tree's kernel/6.12)",                             \
	  .words = FTV_WORDS_DIR }

/* --object PATH and --call F1,F2 of the commands that run scenario files
 * (scenario, verify): as 'object' and 'call' lines would. */
#define FTV_USER_CODE_OPTIONS(OBJECT_KEY, CALL_KEY)                            \
	{ .name = "object", .key = OBJECT_KEY, .arg = "PATH",                  \
	  .help = "add your own object or module to every scenario, as an "   \
		  "'object PATH' line would (repeatable)",                     \
	  .words = FTV_WORDS_FILE },                                           \
	{ .name = "call", .key = CALL_KEY, .arg = "F1,F2...",                  \
	  .help = "the functions of the objects given by path the workload "  \
		  "calls, as a 'call' line would" }

/* --litmus FILE and --litmus-fixed FILE of scenario, verify and fuzz
 * --replay (verify/litmus_export.h): the violation as a herd7 test. */
#define FTV_LITMUS_OPTIONS(LITMUS_KEY, FIXED_KEY)                               \
	{ .name = "litmus", .key = LITMUS_KEY, .arg = "FILE",                  \
	  .help = "write the violation as a herd7 AArch64 litmus test to FILE", \
	  .words = FTV_WORDS_FILE },                                           \
	{ .name = "litmus-fixed", .key = FIXED_KEY, .arg = "FILE",             \
	  .help = "with --litmus: the same test with the corrected backend's " \
		  "plans to FILE",                                             \
	  .words = FTV_WORDS_FILE }
/* 0, or the usage error of --litmus-fixed without --litmus. */
int ftv_litmus_opts_check(const struct ftv_command *c, const char *litmus,
			  const char *fixed);

#endif
