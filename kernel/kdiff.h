/* ftv kernel-diff: Linux's own arm64 ftrace backend against ftv's model
 * of it (patcher/arm64.c), transition by transition (docs/kernel.md).
 *
 * For every patch site of the objects given, each transition ftv's core
 * asks of the backend (ktrans.c: init_nop, make_call, modify_call, the
 * direct calls in and out of BL range, make_nop; once: update_ftrace_func
 * and the graph caller) runs the real backend on the kernel CPU
 * (kernel/kern.h), and the events it logs are compared with the plan
 * arm64_ftrace_callops builds for the same transition, turned into the
 * kernel's terms (kdiff_from_plan):
 *
 *   PLAN_WRITE_INSN/DATA64  a store of 4/8 bytes; validated: a read of the
 *                           old word first, in the same step
 *   PLAN_CACHE_CLEAN/ICACHE_INVAL  DC CVAU / IC IVAU of the cache line
 *   PLAN_DSB/DMB/ISB        the barrier ("dsb ishst" when its text says so)
 *
 * The comparison (kdiff_compare) looks at what the model relies on:
 *   1. the accesses, in order: stores (size, address, value), reads
 *      (size, address, value), DC CVAU and IC IVAU by cache line. Any
 *      mismatch is a difference.
 *   2. the barriers between two consecutive accesses: each barrier of the
 *      model must be matched by one at least as strong in the kernel
 *      (DSB ISH/SY >= DSB ISHST, any DSB >= DMB). A model barrier the
 *      kernel lacks is a difference: the model would verify ordering the
 *      kernel does not provide.
 * What the kernel does beyond the model, and the model's one-step
 * validation, are the understood differences (one table, kdiff.c, each
 * with the kernel source line that justifies it): they make the model
 * weaker than the kernel, never stronger. */
#ifndef FTV_KERNEL_KDIFF_H
#define FTV_KERNEL_KDIFF_H

#include <stddef.h>
#include <stdio.h>

#include "kernel/kevent.h"
#include "patcher/plan.h"
#include "util/err.h"

enum kdiff_verdict { KDIFF_SAME, KDIFF_UNDERSTOOD, KDIFF_DIFFERENT };

/* The understood differences (bits of struct kdiff_result.understood). */
enum {
	KDIFF_U_VALIDATE_UNLOCKED = 1u << 0,
	KDIFF_U_FIXMAP_BARRIERS = 1u << 1,
	KDIFF_NU = 2,
};

struct kdiff_understood {
	const char *name;
	const char *kernel;  /* what the kernel does */
	const char *model;   /* what the model does */
	const char *source;  /* the kernel source line */
	const char *decision;
};
const struct kdiff_understood *kdiff_understood_get(unsigned bit_index);

struct kdiff_result {
	enum kdiff_verdict verdict;
	unsigned understood;  /* KDIFF_U_* seen */
	char first[400];      /* DIFFERENT: the first difference */
};

/* The plan's steps in the kernel's terms (appended to out). */
int kdiff_from_plan(const struct plan *p, struct kev_log *out);
/* Compares the kernel's events with the model's (both in order). */
void kdiff_compare(const struct kev_log *kernel, const struct kev_log *model,
		   struct kdiff_result *r);
/* "str64 0x.. = 0x..; dsb ishst; ..." of the events that count (accesses,
 * barriers, locks and fixmap events), at most n bytes. */
char *kdiff_format(const struct kev_log *l, char *buf, size_t n);

/* The whole command: the build in dir, the sites of objs (default: none
 * given: the caller passes the corpus). Prints one line per transition
 * kind and the understood table to out; returns FTV_EXIT_OK when every
 * line is same or understood, FTV_EXIT_VIOLATION otherwise,
 * FTV_EXIT_USAGE (err set) on bad input. verbose: also both sequences
 * of each kind's first site. */
int kdiff_run(const char *dir, char *const *objs, size_t nobjs, FILE *out,
	      int verbose, struct ftv_err *err);

#endif
