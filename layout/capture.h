/* `ftv capture`: the ftrace callsites of a real kernel, read from its
 * vmlinux, its modules or a live system, into a layout (layout/layout.h).
 * Each function appends sites, text ranges and table counts to l, merges
 * the kernel release and the architecture (inputs of two kernels are an
 * error) and appends the input's description to l->source. */
#ifndef FTV_LAYOUT_CAPTURE_H
#define FTV_LAYOUT_CAPTURE_H

#include <stdbool.h>

#include "layout/layout.h"
#include "util/err.h"

struct sim_elf;

/* A linked vmlinux (ET_DYN/ET_EXEC) with its .symtab: the mcount_loc table
 * between __start_mcount_loc and __stop_mcount_loc. */
int sim_capture_vmlinux(struct sim_layout *l, const char *path,
			struct ftv_err *err);
/* A kernel module (.ko, .ko.xz, .ko.zst or .ko.gz): its
 * __patchable_function_entries, as section-relative offsets (the module is
 * not loaded). */
int sim_capture_kmod(struct sim_layout *l, const char *path,
		     struct ftv_err *err);
/* Either of the two above, chosen by the ELF type. */
int sim_capture_elf(struct sim_layout *l, const char *path,
		    struct ftv_err *err);
/* The same two on a file already open (sim/elf.h). */
int sim_capture_vmlinux_elf(struct sim_layout *l, const struct sim_elf *e,
			    struct ftv_err *err);
int sim_capture_kmod_elf(struct sim_layout *l, const struct sim_elf *e,
			 struct ftv_err *err);
/* A live system: /sys/kernel/tracing/available_filter_functions_addrs
 * ("ADDR FUNC [MOD]") and /proc/kallsyms (read as root). call_ops says the
 * kernel has CONFIG_DYNAMIC_FTRACE_WITH_CALL_OPS (the files cannot tell);
 * without it the kinds are "unknown". The files do not say the
 * architecture either: l->arch does (arm64 when unset). */
int sim_capture_live(struct sim_layout *l, const char *filter_addrs,
		     const char *kallsyms, bool call_ops, struct ftv_err *err);

#endif
