/* ftv capture: a kernel's ftrace callsites into a layout file. */
#include "layout/capture.h"
#include "layout/layout.h"
#include "util/cmd.h"
#include "util/err.h"
#include "util/opt.h"

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

enum { O_FILTER = 256, O_KALLSYMS, O_CALL_OPS };

static const struct ftv_opt capture_opts[] = {
	{ .name = "output", .key = 'o', .arg = "LAYOUT",
	  .help = "write the layout to LAYOUT (xz-compressed if it ends in .xz)",
	  .words = FTV_WORDS_FILE },
	{ .name = "filter-addrs", .key = O_FILTER, .arg = "FILE",
	  .help = "a live system's tracing/available_filter_functions_addrs",
	  .words = FTV_WORDS_FILE },
	{ .name = "kallsyms", .key = O_KALLSYMS, .arg = "FILE",
	  .help = "its /proc/kallsyms (with --filter-addrs)",
	  .words = FTV_WORDS_FILE },
	{ .name = "call-ops", .key = O_CALL_OPS,
	  .help = "the live kernel has DYNAMIC_FTRACE_WITH_CALL_OPS (with --filter-addrs)" },
	{ 0 },
};

static int cmd_capture(int argc, char **argv)
{
	const char *out = NULL, *filter = NULL, *kallsyms = NULL;
	const char **files = calloc((size_t)argc, sizeof(*files));
	int nfiles = 0, call_ops = 0, rc = FTV_EXIT_USAGE, o;
	struct sim_layout *l = NULL;
	struct ftv_getopt g;
	struct ftv_err err;

	if (!files)
		return FTV_EXIT_USAGE;
	ftv_getopt_init(&g, argc, argv);
	while ((o = ftv_getopt(&g)) > 0) {
		switch (o) {
		case 'o':
			out = g.val;
			break;
		case O_FILTER:
			filter = g.val;
			break;
		case O_KALLSYMS:
			kallsyms = g.val;
			break;
		case O_CALL_OPS:
			call_ops = 1;
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
	}
	if (o < 0) {
		free(files);
		return g.exit;
	}
	if (!out)
		rc = ftv_usage_error(g.cmd, "missing -o LAYOUT");
	else if (!nfiles && !filter)
		rc = ftv_usage_error(g.cmd, "nothing to capture: no VMLINUX or MODULE, "
				     "no --filter-addrs");
	else if (!filter != !kallsyms)
		rc = ftv_usage_error(g.cmd, "--filter-addrs and --kallsyms go together");
	else if (call_ops && !filter)
		rc = ftv_usage_error(g.cmd, "--call-ops describes a live system: "
				     "it needs --filter-addrs");
	else
		rc = FTV_EXIT_OK;
	if (rc) {
		free(files);
		return rc;
	}
	rc = FTV_EXIT_USAGE;
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
}

FTV_COMMAND(capture, cmd_capture,
	    .summary = "record a kernel's ftrace callsites as a layout file",
	    .args = "-o LAYOUT[.xz] [VMLINUX|MODULE.ko[.xz]]...",
	    .opts = capture_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Reads the callsites from a linked vmlinux (its __mcount_loc table,\n"
		   "relocated as the kernel does at boot) and from modules (.ko, .ko.xz),\n"
		   "or from a live system's available_filter_functions_addrs with its\n"
		   "/proc/kallsyms, and writes them as a layout file that 'ftv layout'\n"
		   "checks and 'ftv replay' replays. Inputs built for different kernel\n"
		   "releases are refused.\n")
