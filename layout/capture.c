/* What every capture shares: one kernel release per layout, the list of
 * inputs in the source header, and the choice between vmlinux and module. */
#define _GNU_SOURCE /* asprintf */
#include "layout/capture.h"
#include "layout/capture_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sim_capture_set_kernel(struct sim_layout *l, const char *release,
			   const char *path, struct ftv_err *err)
{
	if (!release || !strcmp(release, "-"))
		return 0;
	if (l->kernel && strcmp(l->kernel, "-") && strcmp(l->kernel, release))
		return ftv_errf(err, "%s: kernel %s, but the other inputs are "
				"from kernel %s", path, release, l->kernel);
	sim_layout_set(l, &l->kernel, release);
	return 0;
}

void sim_capture_add_source(struct sim_layout *l, const char *what)
{
	char *s;

	if (asprintf(&s, "%s%s%s", l->source ? l->source : "",
		     l->source ? "; " : "", what) < 0)
		abort();
	/* One header line of printable ASCII whatever the file names hold. */
	for (char *p = s; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
	sim_layout_set(l, &l->source, s);
	free(s);
}

int sim_capture_elf(struct sim_layout *l, const char *path,
		    struct ftv_err *err)
{
	struct cap_elf e;
	int rc;

	if (cap_elf_open(&e, path, err))
		return -1;
	if (e.eh->e_type == ET_REL)
		rc = cap_capture_kmod(l, &e, err);
	else if (e.eh->e_type == ET_DYN || e.eh->e_type == ET_EXEC)
		rc = cap_capture_vmlinux(l, &e, err);
	else
		rc = ftv_errf(err, "%s: ELF type %u is neither a vmlinux nor a "
			      "module", path, e.eh->e_type);
	cap_elf_close(&e);
	return rc;
}
