/* Replay of a captured kernel layout (layout/layout.h): every callsite of a
 * real kernel mapped at its captured address, init_nop'ed, then enabled and
 * disabled in batches by the arm64 CALL_OPS backend while emulated CPUs call
 * the batch's functions, with the world's checks watching (verify/world.h).
 *
 *   replay_run(&cfg, stdout, &res, &err);
 *
 * The text. The layout's text ranges (or, without any, the sites' own
 * spans) are backed by memory at their captured addresses: a range inside
 * the image's kernel.text window [SIM_KERNEL_TEXT_BASE, +32 MiB) is the
 * bottom of that region, so the trampolines, linked after it, sit right
 * after the captured text and within BL range (+/-128 MiB, Arm ARM
 * C6.2.35) of a kernel whose text is under ~100 MiB; a range elsewhere gets
 * its own region. Memory between functions stays 0 (UDF #0: a CPU sent
 * there faults). Each function gets a synthetic body: the captured words
 * of its callsite up to the patched word (the literal slot, BTI C, the two
 * NOPs) and the PACIASP/PACIBSP that follows it, then AUTIASP/AUTIBSP and
 * RET (or only RET for a leaf): it returns its first argument, untraced,
 * whatever its real code did.
 *
 * The batches. Each batch is a fresh world over the whole kernel and the
 * modules the batch has sites of (all their sites are ftrace records, all
 * init_nop'ed at boot or module load, validate failures collected) in
 * which only the batch's sites are called and checked: an ops with
 * tracer_a and a filter over the batch is registered, the CPUs call the
 * batch's functions through their call tables while the plan applies and
 * after, the ops is unregistered, the world finishes and its checks run.
 * A world per batch keeps the executor's watched words, literal hooks and
 * breakpoints to one batch (they are never removed within a world); the
 * other modules stay out of it (loading all 1,083 of Debian's in every
 * world would double each world's records and text). A batch's result
 * depends on nothing another batch did, so batches run several at once,
 * each world on a thread (--jobs, verify/replay_batch.c), and the report
 * takes their results in batch order: the same output whatever the jobs.
 *
 * Modules. A module loaded when it was captured (absolute addresses) sits
 * where it was; one read from its .ko goes where the kernel's module
 * loader would put it, in load order (layout/layout_place.h: the direct
 * window below the kernel image, then the PLT window). Each gets its
 * ftrace PLT as module_init_ftrace_plt() builds it (at the offset of its
 * .text.ftrace_trampoline; for a live capture, which does not say, right
 * after its text). Its sites are ftrace records like the kernel's,
 * init_nop'ed at load (ftrace_module_init) and enabled by
 * ftrace_module_enable before any batch; a site out of BL range of
 * ftrace_caller calls through its module's PLT (the backend's
 * ftrace_find_callable_addr()). Batches take the kernel's sites first,
 * then module after module in load order.
 *
 * What cannot be replayed is reported, not skipped silently: misaligned
 * literals (the kernel's "Misaligned patch-site"), sites out of BL range
 * of ftrace_caller (vmlinux) or of their module's PLT, modules that could
 * not be placed, layouts of other kinds than CALL_OPS, and init_nop
 * validate failures. */
#ifndef FTV_VERIFY_REPLAY_H
#define FTV_VERIFY_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

#define REPLAY_DEFAULT_BATCH 1024

struct replay_config {
	const char *layout;    /* path, .xz allowed */
	const char *tramp_dir; /* the assembled trampolines */
	unsigned ncpus;        /* 0: 4 */
	uint64_t seed;
	size_t batch;          /* sites per batch (0: REPLAY_DEFAULT_BATCH) */
	size_t max_batches;    /* 0: every batch */
	size_t first_batch;    /* start at this batch (0-based): a batch's
				  seed depends only on the run's and its
				  number, so it replays alone as in the run */
	unsigned rounds;       /* workload rounds per CPU per batch (0: 16 +
				  batch / 8) */
	unsigned calls;        /* calls per round per CPU (0: 32) */
	unsigned jobs;         /* batches run at once, each a world on a
				  thread of its own (0: the online cores);
				  the output does not depend on it */
	int json;              /* one JSON object instead of the text report */
	FILE *progress;        /* a terminal: one line rewritten as each batch
				  ends (\r, no newline), or NULL */
	/* Modules read from their files go to the PLT window, as if the
	 * direct one were full: every module site calls through its PLT. */
	int far_modules;
	const char *mutate;    /* a known bug to inject (verify/mutant.h), or
				  NULL */
};

struct replay_result {
	size_t layout_sites, table_sites;
	size_t callops_sites;  /* CALL_OPS sites with an ip */
	size_t misaligned, out_of_range, need_plt, other_kind, validate;
	size_t replayable, replayed, batches, nbatches;
	uint64_t func_calls, tracer_calls, plans, steps;
	size_t violations;
	/* modules: how many, placed how (layout/layout_place.h), their sites,
	 * those that could not be placed, those replayed through a PLT */
	size_t modules, modules_direct, modules_plt, modules_captured;
	size_t modules_unplaced, module_sites, unplaced, via_plt;
	double wall_s;
	double setup_s;        /* of wall_s, before the first batch began
				  (the layout read, placed and mapped) */
	unsigned jobs;         /* batches run at once */
	long peak_rss_kb;
	uint64_t caller;       /* ftrace_caller's address */
};

/* Runs the replay and prints its report to out. Returns 0 (violations are
 * in res->violations), or -1 with err set for bad input: an unreadable or
 * malformed layout, a site count that differs from the kernel's table,
 * text that cannot be mapped. */
int replay_run(const struct replay_config *cfg, FILE *out,
	       struct replay_result *res, struct ftv_err *err);

#endif
