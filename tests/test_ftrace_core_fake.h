/* A recording fake arch for the ftrace core tests: every verb call is logged
 * with its arguments, and emits a few plan steps (literal write, then a
 * validated word write) so plan order can be checked. Its instruction words
 * are arbitrary tokens, not encodings: the tests only look at the log. */
#ifndef FTV_TESTS_TEST_FTRACE_CORE_FAKE_H
#define FTV_TESTS_TEST_FTRACE_CORE_FAKE_H

#include "patcher/ftrace_core.h"
#include "sim/aspace.h"

#define FAKE_MAXLOG 256
#define FAKE_NFUNC 8

/* Emulated addresses of the shared code used by the tests. */
#define FK_CALLER      0xffff800081000000ULL
#define FK_REGS_CALLER 0xffff800081000100ULL
#define FK_LIST_FUNC   0xffff800081000200ULL
#define FK_NOP_FUNC    0xffff800081000300ULL
#define FK_STUB        0xffff800081000400ULL
#define FK_DIRECT_FUNC 0xffff800081000500ULL
#define FK_ASSIST      0xffff800081000600ULL
#define FK_TRACER1     0xffff800081001000ULL
#define FK_TRACER2     0xffff800081002000ULL
#define FK_TRAMP       0xffff800081100000ULL
#define FK_DIRECT_A    0xffff800081200000ULL
#define FK_DIRECT_B    0xffff800081300000ULL

enum fake_verb { FV_INIT, FV_CALL, FV_NOP, FV_MODIFY, FV_FUNC, FV_GRAPH };

struct fake_call {
	enum fake_verb verb;
	uint64_t ip;             /* site ip, 0 for global verbs */
	uint64_t old_target, new_target, lit;
	int enable;
};

struct fake_arch {
	struct fake_call log[FAKE_MAXLOG];
	int n;
	uint64_t fail_ip; /* a verb on this ip fails */
	enum fake_verb fail_verb;
	int fail_global; /* fail_verb fails for the global verbs instead */
};

/* A model over FAKE_NFUNC functions f0..f7, 0x100 apart, CALL_OPS layout
 * (literal at func-8, patched word at func+4). */
struct fake_world {
	struct sim_aspace *as;
	struct sim_region *data;
	struct fake_arch fa;
	struct ftrace_arch arch;
	struct ftrace_core *core;
	struct plan plan;
	uint64_t func[FAKE_NFUNC], ip[FAKE_NFUNC];
	uint64_t graph_ops_var; /* FW_GLOBAL: the -pg graph entry's ops */
};

enum { FW_CALL_OPS = 1, FW_GLOBAL = 2 /* 2014 scheme, stop_machine */ };

/* mutants: FTRACE_MUT_* (DROP_QUIESCE through cfg.drop_quiesce). */
void fw_init(struct fake_world *w, int scheme, unsigned mutants);
void fw_fini(struct fake_world *w);
/* Applies the plan's data64 writes to the address space (tests read the
 * emulated structures back). */
void fw_apply_data(struct fake_world *w, size_t from);
struct ftrace_ops *fw_ops(struct fake_world *w, const char *name,
			  uint64_t func, unsigned flags, uint64_t tramp);
int fw_rec(struct fake_world *w, int f); /* record index of fN */
/* Index of the first log entry at or after `from` for (verb, ip), or -1. */
int fw_find(struct fake_world *w, int from, enum fake_verb v, uint64_t ip);
/* Index of the first plan step with this op at or after from, or -1. */
long fw_step(struct fake_world *w, size_t from, enum plan_op op);

#endif
