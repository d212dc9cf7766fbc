/* ftv capture: a kernel's ftrace callsites into a layout file. */
#include "layout/capture.h"
#include "layout/layout.h"
#include "util/cmd.h"
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void summary(const struct sim_layout *l, const char *out)
{
	size_t n[SIM_LAYOUT_NKINDS] = { 0 };

	for (size_t i = 0; i < l->nsites; i++)
		n[l->sites[i].kind]++;
	fprintf(stderr, "ftv capture: %zu sites (", l->nsites);
	for (int k = 0, first = 1; k < SIM_LAYOUT_NKINDS; k++) {
		if (!n[k])
			continue;
		fprintf(stderr, "%s%s %zu", first ? "" : ", ",
			sim_layout_kind_name(k), n[k]);
		first = 0;
	}
	fprintf(stderr, ") of kernel %s", l->kernel ? l->kernel : "-");
	if (l->has_table)
		fprintf(stderr, ", table %llu entries (%llu null)",
			(unsigned long long)l->table_entries,
			(unsigned long long)l->table_null);
	fprintf(stderr, " -> %s\n", out);
}

/* Never write a layout ftv could not read back: whatever odd input got
 * past the readers is caught here by the strict parser. */
static int self_check(const struct sim_layout *l, struct ftv_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	struct sim_layout *back;
	int rc;

	if (!m)
		return ftv_errf(err, "out of memory");
	rc = sim_layout_write(m, l, err);
	fclose(m);
	if (!rc) {
		back = sim_layout_parse(text, len, "captured layout", err);
		rc = back ? 0 : ftv_err_prefix(err, "the inputs give a layout "
					      "that does not check");
		sim_layout_free(back);
	}
	free(text);
	return rc;
}

static int cmd_capture(int argc, char **argv)
{
	const char *out = NULL, *filter = NULL, *kallsyms = NULL;
	const char **files = calloc(argc, sizeof(*files));
	int nfiles = 0, call_ops = 0, rc = FTV_EXIT_USAGE;
	struct sim_layout *l;
	struct ftv_err err;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") || !strcmp(a, "--filter-addrs") ||
		    !strcmp(a, "--kallsyms")) {
			if (i + 1 >= argc)
				goto usage;
			if (!strcmp(a, "-o"))
				out = argv[++i];
			else if (!strcmp(a, "--filter-addrs"))
				filter = argv[++i];
			else
				kallsyms = argv[++i];
		} else if (!strcmp(a, "--call-ops")) {
			call_ops = 1;
		} else if (a[0] == '-' && a[1]) {
			goto usage;
		} else {
			files[nfiles++] = a;
		}
	}
	if (!files || !out || (!nfiles && !filter) || !filter != !kallsyms ||
	    (call_ops && !filter))
		goto usage;

	l = sim_layout_new();
	sim_layout_set(l, &l->arch, "arm64");
	for (int i = 0; i < nfiles; i++)
		if (sim_capture_elf(l, files[i], &err))
			goto fail;
	if (filter && sim_capture_live(l, filter, kallsyms, call_ops, &err))
		goto fail;
	sim_layout_sort(l);
	if (self_check(l, &err))
		goto fail;
	if (sim_layout_save(out, l, &err))
		goto fail;
	summary(l, out);
	sim_layout_free(l);
	free(files);
	return FTV_EXIT_OK;
fail:
	fprintf(stderr, "ftv capture: %s\n", err.msg);
	sim_layout_free(l);
	free(files);
	return rc;
usage:
	free(files);
	return ftv_usage(argv[0]);
}

FTV_COMMAND(capture, "record a kernel's ftrace callsites as a layout file",
	    "[--filter-addrs FILE --kallsyms FILE [--call-ops]] [VMLINUX|MODULE.ko[.xz]]... -o LAYOUT[.xz]",
	    cmd_capture)
