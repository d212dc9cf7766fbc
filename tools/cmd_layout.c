/* ftv layout: check a layout file strictly and summarise it. */
#include "layout/layout.h"
#include "tools/paths.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"

#include <stdio.h>
#include <string.h>

static int cmd_layout(int argc, char **argv)
{
	size_t n[SIM_LAYOUT_NKINDS] = { 0 }, mods = 0;
	const char *last = NULL, *path = NULL;
	struct ftv_paths paths;
	char buf[4200];
	struct sim_layout *l;
	struct ftv_getopt g;
	struct ftv_err err;
	int o;

	ftv_paths_default(&paths, argv[0]);
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		if (path)
			return ftv_usage_error(g.cmd, "one LAYOUT only, not also '%s'", g.val);
		path = g.val;
	}
	if (o < 0)
		return g.exit;
	if (!path)
		return ftv_usage_error(g.cmd, "missing LAYOUT");
	/* a name alone: the installed layout */
	path = ftv_paths_input(paths.layouts, path, ".layout.xz", buf, sizeof(buf), &err);
	l = path ? sim_layout_load(path, &err) : NULL;
	if (!l) {
		fprintf(stderr, "ftv layout: %s\n", err.msg);
		return FTV_EXIT_USAGE;
	}
	for (size_t i = 0; i < l->nsites; i++) {
		n[l->sites[i].kind]++;
		/* Sites are sorted by module when ftv wrote the file. */
		if (last != l->sites[i].module)
			mods++;
		last = l->sites[i].module;
	}
	printf("%s: kernel %s, arch %s, addresses %s\n", path, l->kernel,
	       l->arch, sim_layout_addresses(l));
	printf("sites: %zu in %zu module runs, %zu text ranges\n", l->nsites,
	       mods, l->ntexts);
	if (l->has_table)
		printf("table: %llu entries, %llu null\n",
		       (unsigned long long)l->table_entries,
		       (unsigned long long)l->table_null);
	for (int k = 0; k < SIM_LAYOUT_NKINDS; k++)
		printf("%-12s %zu\n", sim_layout_kind_name(k), n[k]);
	if (l->has_image)
		printf("image: [0x%016llx, 0x%016llx), _text to _end, %llu KiB\n",
		       (unsigned long long)l->image_start,
		       (unsigned long long)l->image_end,
		       (unsigned long long)(l->image_end - l->image_start) >> 10);
	if (l->nmodules) {
		size_t file = 0, plt = 0;

		for (size_t i = 0; i < l->nmodules; i++) {
			file += l->modules[i].has_mem;
			plt += l->modules[i].plt_kind != SIM_PLT_UNKNOWN;
		}
		printf("modules: %zu described, %zu read from their files (laid out "
		       "for the loader), %zu loaded, %zu with their ftrace PLT\n",
		       l->nmodules, file, l->nmodules - file, plt);
	}
	sim_layout_free(l);
	return FTV_EXIT_OK;
}

FTV_COMMAND(layout, cmd_layout,
	    .summary = "check a layout file and summarise it",
	    .args = "LAYOUT[.xz]",
	    .words = FTV_WORDS_FILE,
	    .doc = "Reads a layout file (written by 'ftv capture', optionally xz-compressed)\n"
		   "with the strict parser that 'ftv replay' uses, and prints its kernel,\n"
		   "arch, address kind, the number of callsites of each kind, the kernel\n"
		   "image and the modules it describes. Any malformed line is reported\n"
		   "as FILE:LINE:COLUMN.\n")
