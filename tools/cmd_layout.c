/* ftv layout: check a layout file strictly and summarise it. */
#include "layout/layout.h"
#include "util/cmd.h"
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static int cmd_layout(int argc, char **argv)
{
	size_t n[SIM_LAYOUT_NKINDS] = { 0 }, mods = 0;
	const char *last = NULL;
	struct sim_layout *l;
	struct ftv_err err;

	if (argc != 2)
		return ftv_usage(argv[0]);
	l = sim_layout_load(argv[1], &err);
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
	printf("%s: kernel %s, arch %s, addresses %s\n", argv[1], l->kernel,
	       l->arch, sim_layout_addresses(l));
	printf("sites: %zu in %zu module runs, %zu text ranges\n", l->nsites,
	       mods, l->ntexts);
	if (l->has_table)
		printf("table: %llu entries, %llu null\n",
		       (unsigned long long)l->table_entries,
		       (unsigned long long)l->table_null);
	for (int k = 0; k < SIM_LAYOUT_NKINDS; k++)
		printf("%-12s %zu\n", sim_layout_kind_name(k), n[k]);
	sim_layout_free(l);
	return FTV_EXIT_OK;
}

FTV_COMMAND(layout, "check a layout file and summarise it", "LAYOUT[.xz]",
	    cmd_layout)
