/* The violation kinds (verify/violation_kind.h). The executor's kinds are
 * named by exec_viol_name (executor/exec_log.c) too: tests/
 * test_violation_kind.c checks the two agree. Its pair violation is not
 * here: it is reported as the world's pair-hazard
 * (world_exec_violation_shown). */
#include "verify/violation_kind.h"

#include <stdio.h>
#include <string.h>

static const struct violation_kind kinds[] = {
	/* the executor's (executor/exec.h, enum exec_viol_kind) */
	{ "torn", "executor", "an ops literal read whose value no single write produced",
	  NULL, "tests/test_exec.c (the executor's own tests)" },
	{ "cmodx", "executor",
	  "a CPU fetched a word while it was being changed from and to words that are "
	  "not both CMODX-safe (Arm ARM B2.2.5)", "mutant-live-mov-patch", NULL },
	{ "stale-data", "executor",
	  "a CPU fetched a new instruction, then read a literal older than it", NULL,
	  "tests/test_exec.c and tests/test_exec_verify.c" },
	{ "fault", "executor",
	  "a CPU took an exception: poisoned (freed) memory, an undefined instruction, "
	  "a branch to no code", "mutant-free-before-unpatch", NULL },
	{ "stuck", "executor, world",
	  "nobody could move (the patcher waits forever), or an update never completed "
	  "within the run's steps", NULL, "tests/test_exec_timeout.c" },
	{ "patch-window", "executor",
	  "a store through the shared patch window landed in a page another agent had "
	  "mapped there (the text_mutex not held)", "riscv-mutant-unlocked-init-literal",
	  NULL },
	{ "not-visible", "executor",
	  "a CPU executed an older word of a site after the update that changed it "
	  "returned (static_key_enable, patch_text: the caller's contract)",
	  "mutant-jump-label-no-sync", NULL },
	/* the world's checks (verify/check.c) */
	{ "bad-ip", "world", "a tracer was called with an ip that is no patch site", NULL,
	  "no scenario reaches it: a guard of the trampolines' ABI" },
	{ "bad-ops", "world", "a tracer was called with an ops ftrace never allocated",
	  NULL, "no scenario reaches it: bad-ops-literal explains the cases found" },
	{ "use-after-free", "world",
	  "a tracer was called with an ops already freed, or a CPU returned into a freed "
	  "BPF trampoline image",
	  "mutant-free-before-unpatch", NULL },
	{ "wrong-func", "world",
	  "the function that ran for an ops is not that ops' func", "tramp-func-ops", NULL },
	{ "wrong-ops", "world", "an ops was called for a function it never asked to trace",
	  "mutant-no-publish-barrier", NULL },
	{ "bad-parent", "world", "a tracer's parent_ip follows no call instruction", NULL,
	  "no scenario reaches it: a guard of the trampolines' ABI" },
	{ "count", "world",
	  "an ops registered and tracing a function throughout a call was not called "
	  "exactly once for it", "mutant-no-publish-barrier-next", NULL },
	{ "nop-ops", "world",
	  "ftrace_nop_ops ran: a CPU took a call whose ops literal was not visible yet",
	  "mutant-bl-before-literal", NULL },
	{ "graph", "world",
	  "function-graph entries and returns did not pair up on a CPU", NULL,
	  "no scenario reaches it: the graph scenarios pin that they pair up" },
	{ "bad-return", "world", "a workload call returned a value other than untraced",
	  NULL, "no scenario reaches it: every scenario run checks it" },
	{ "unfinished", "world", "a CPU did not complete its workload rounds",
	  "mutant-free-before-unpatch", NULL },
	{ "ftrace_bug", "world",
	  "ftrace_bug(): an update's validate-before-write found another word, or its "
	  "write faulted", "verify-mutant-unlocked-init-literal", NULL },
	{ "no-grace-period", "world",
	  "an ops was freed while a CPU had not passed a quiescent point since the update "
	  "that unlinked it began", "mutant-free-without-quiescence", NULL },
	/* the explanations (verify/explain*.c) and the boot (world_table.c) */
	{ "bad-ops-literal", "world",
	  "ftrace_caller read an ops literal that is no ops", "mutant-misaligned-literal",
	  NULL },
	{ "unpublished-ops", "world",
	  "a CPU reached an ops through a pointer published before the ops' fields were "
	  "visible to it", "mutant-no-publish-barrier-func", NULL },
	{ "bad-branch", "world",
	  "a patched call lands where there is no code: its target is out of the "
	  "branch's reach", "mutant-no-range-check", NULL },
	{ "pair-hazard", "world",
	  "riscv64: a CPU executed the AUIPC and JALR of one call site from two "
	  "generations of the site", "riscv-pair-hazard", NULL },
	{ "write-outside-text", "world",
	  "a boot-time write lands outside kernel or module text (a zeroed table entry "
	  "taken for a site)", "mutant-patch-zeroed-entry", NULL },
};

#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

const struct violation_kind *violation_kind_at(size_t i)
{
	return i < NKINDS ? &kinds[i] : NULL;
}

const struct violation_kind *violation_kind_find(const char *name)
{
	for (size_t i = 0; i < NKINDS; i++)
		if (!strcmp(kinds[i].name, name))
			return &kinds[i];
	return NULL;
}

const char *violation_kind_list(char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < NKINDS && at + 1 < n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "", kinds[i].name);
	return buf;
}
