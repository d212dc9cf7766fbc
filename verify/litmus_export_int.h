/* The derivation of --litmus tests (litmus_export.c) and their text
 * (litmus_export_text.c): what the two share. */
#ifndef FTV_VERIFY_LITMUS_EXPORT_INT_H
#define FTV_VERIFY_LITMUS_EXPORT_INT_H

#include <stdint.h>
#include <stdio.h>

#include "patcher/plan.h"
#include "util/err.h"

struct world;
struct ftv_exec;

#define LX_LOCS 8
#define LX_VALS 8
#define LX_OBS 8
/* A load at p - LX_PTR_BELOW .. p + LX_PTR_SPAN after a load that
 * returned p reads a field of what p points to (or the header before it:
 * a filter table's count precedes its entries): an address dependency. */
#define LX_PTR_SPAN 0x200
#define LX_PTR_BELOW 0x10
#define LX_WAITS 8

/* The handshakes of an update that waits for the observer: a grace
 * period (PLAN_QUIESCE: synchronize_rcu_tasks()) on the flag `cs` P1
 * sets when it enters its read-side critical section and clears when it
 * leaves it, a reference count (PLAN_WAIT_ZERO: percpu_ref_kill()'s
 * wait) on the flag `ref` P1 holds from the start and drops at its end,
 * stop_machine() (PLAN_STOP_MACHINE: the patching CPU waits for every
 * other to reach its stop point, multi_cpu_stop() in
 * kernel/stop_machine.c) on the flag `stop` P1 holds while it runs and
 * clears when it reaches that point, after its accesses. */
enum { LX_GP, LX_REF, LX_SM, LX_NHS };

struct lx_loc {
	uint64_t addr;
	int insn;           /* a fetched word (else a loaded location) */
	int half;           /* 0: whole; 1, 2: low, high 32 bits of a
			       misaligned 64-bit literal */
	uint64_t val[LX_VALS];
	int nval;           /* val[0] is the first value */
	int dep;            /* loaded through loc[dep]'s value (else -1) */
	int dead;           /* every value written is its first: no event */
	int seen;           /* the rank of the value the CPU saw */
	int reg;            /* P1's register holding what it saw */
};

struct lx {
	struct world *w;
	struct world *twin; /* the corrected plans' world, or NULL */
	int cpu;
	uint64_t step;
	uint64_t found;     /* the executor's step when a check found it */
	const char *kind, *msg;
	struct lx_loc loc[LX_LOCS];
	int nloc;
	int order[LX_OBS];  /* P1's accesses: loc indices in program order */
	int norder;
	/* the violation is an old word run after its update returned: P1
	 * reads the flag `done` P0 sets when it does (in done_reg) */
	int done, done_reg;
	/* P1's loads are of locations only the twin's plans write, their
	 * values reconstructed (litmus_export.c, twin_loads): P1 reads
	 * `done` with acquire */
	int twin_obs;
	int hs[LX_NHS];     /* the handshakes the test has */
	uint64_t vaddr;     /* the violation's address (a fault's), or 0 */
};


/* One test's text: both threads and the init block. */
struct lx_out {
	FILE *f;
	char init[3][2048];   /* P0's, P1's and the locations' init items */
	char code[2][64][40]; /* each thread's instructions */
	int ncode[2];
	int reg[2];           /* next free register */
	int wreg[LX_WAITS];   /* P0's registers of its handshake reads */
	int nw;
};

/* litmus_export_loc.c: the rank of v among l's values (added), -1 when
 * full */
int lx_add_val(struct lx_loc *l, uint64_t v);
/* l's part of a value stored at its address (a half of a misaligned
 * literal's) */
uint64_t lx_part(const struct lx_loc *l, uint64_t v);
/* the value a freed location (insn: of text) reads */
uint64_t lx_poison(int insn);
/* 1 with *v the value step s stores to l (its part of it), else 0 */
int lx_step_value(const struct lx_loc *l, const struct plan_step *s, uint64_t *v);

/* litmus_export_text.c: an item of thread t's init (t 2: the
 * locations'), an instruction of thread t, both threads' columns */
void lx_init_item(struct lx_out *o, int t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void lx_ins(struct lx_out *o, int t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void lx_print_code(const struct lx_out *o, FILE *f);
/* litmus_export_loc.c: the first value of the location at addr (the
 * executor's record of its initial contents), else dflt */
uint64_t lx_first_value(struct ftv_exec *ex, uint64_t addr, uint64_t dflt);
/* litmus_export_race.c: the violation is two updaters' (ftrace_bug: one's
 * validate-before-write found a word the other's update explains), the
 * test two patcher threads; 1 when it is not such a race (err says why,
 * or is left as it was when no validation failed), -1 when a file cannot
 * be written */
int lx_race_export(struct world *w, struct world *twin, const char *path,
		   const char *fixed_path, const char *name, const char *cmd,
		   struct ftv_err *err);
/* litmus_export_text.c: 1 if p writes or frees a location of the test;
 * then *sync if it holds the IPI, hs[] the handshakes it waits on */
int lx_touches(const struct lx *x, const struct plan *p, int *sync, int *hs);
/* both threads of the test with pw's plans */
void lx_build(struct lx *x, struct world *pw, struct lx_out *o);
/* o as the file path, the test named name (fixed: the corrected plans'
 * twin), from cmd (a comment) */
int lx_write(struct lx *x, const struct lx_out *o, const char *path, const char *name,
	     const char *cmd, int fixed, struct ftv_err *err);

#endif
