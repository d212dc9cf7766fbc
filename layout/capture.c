/* The choice between vmlinux and module for one ELF input. */
#include "layout/capture.h"

#include "sim/elf.h"

int sim_capture_elf(struct sim_layout *l, const char *path,
		    struct ftv_err *err)
{
	struct sim_elf e;
	int rc;

	if (sim_elf_open(&e, path, err))
		return -1;
	if (e.eh.e_type == ET_REL)
		rc = sim_capture_kmod_elf(l, &e, err);
	else if (e.eh.e_type == ET_DYN || e.eh.e_type == ET_EXEC)
		rc = sim_capture_vmlinux_elf(l, &e, err);
	else
		rc = ftv_errf(err, "%s: ELF type %u is neither a vmlinux nor a "
			      "module", path, e.eh.e_type);
	sim_elf_free(&e);
	return rc;
}
