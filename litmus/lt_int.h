/* Litmus internals shared by litmus/lt_*.c: the parsed test (both syntaxes
 * read into this one shape), the per-arch table, the parse helpers. Not for
 * other parts of ftv: they use litmus/litmus.h. */
#ifndef FTV_LITMUS_LT_INT_H
#define FTV_LITMUS_LT_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "litmus/litmus.h"
#include "util/arch.h"
#include "util/err.h"

#define LT_MAX_THREADS 8
#define LT_MAX_INSNS 256     /* per code block (thread body or handler) */
#define LT_NAME 48
#define LT_TEXT 128
#define LT_THREAD_SPAN 0x1000ULL /* each thread's code: its own 4 KiB */
#define LT_HANDLER_OFF 0x800ULL  /* its fault handler, in the upper half */

/* What differs between the architectures a litmus test can be written
 * for (lt_arch.c): the assembler, the register names, the branch that
 * ends a block of code. */
struct lt_arch {
	enum ftv_arch arch;
	const char *name;        /* "arm64" */
	const char *herd_name;   /* herd's header word: "AArch64" */
	int nregs;               /* general registers 0..nregs-1 */
	/* One instruction at pc; *nbytes 4 (or 2, compressed). */
	int (*assemble)(const char *text, uint64_t pc, uint32_t *word,
			struct ftv_err *err);
	/* "x5" / "w5" (case-insensitive), riscv ABI names: reg, is32. */
	int (*parse_reg)(const char *s, int *reg, int *is32);
	/* herd's spelling of a register in states: "X5", "W5". */
	void (*reg_name)(int reg, int is32, char *buf, size_t n);
	/* An unconditional branch from pc to target. */
	int (*branch)(uint64_t pc, uint64_t target, uint32_t *word,
		      struct ftv_err *err);
	/* Text of a word, for states and reports. */
	int (*disasm)(uint32_t word, uint64_t pc, char *buf, size_t n);
	/* Optional: the exec_order_point()s of a thread's code, mark[i]
	 * LT_DEP_* bits: the load or store at word i has an address computed
	 * from a value the thread loaded before (straight through the code,
	 * registers only), it is a load, it is a DC with such an address. */
	void (*addr_deps)(const uint32_t *words, unsigned n, uint64_t base,
			  unsigned char *mark);
};
enum { LT_DEP_CTRL = 1, LT_DEP_LOAD = 2, LT_DEP_DC = 4 };
const struct lt_arch *lt_arch_get(enum ftv_arch a);
/* By herd header word ("AArch64") or ftv name ("arm64"), or NULL. */
const struct lt_arch *lt_arch_find(const char *name);

enum lt_vkind {
	LV_NUM,   /* a number */
	LV_CODE,  /* the address of a code label, Pn:label */
	LV_LOC,   /* the address of a data location */
	LV_INSN,  /* an instruction's word (assembled at its label's pc) */
};

struct lt_val {
	enum lt_vkind kind;
	uint64_t num;
	int thread;             /* LV_CODE, LV_INSN with has_at */
	char name[LT_NAME];     /* label or location */
	char text[LT_TEXT];     /* LV_INSN */
	int has_at;
	int line;
};

struct lt_insn {
	char text[LT_TEXT];
	int line;
};

/* A thread's code, or its fault handler's. */
struct lt_block {
	struct lt_insn insn[LT_MAX_INSNS];
	unsigned n;
	int present;
};

struct lt_label {
	int thread;
	int handler;            /* in the thread's fault handler */
	char name[LT_NAME];
	unsigned index;         /* instruction index it precedes */
};

struct lt_init {
	int thread, reg, is32;  /* reg -1: memory location `loc` */
	char loc[LT_NAME];
	struct lt_val v;
};

/* Conditions: a tree of nodes in struct litmus's cond array. */
enum lt_ckind {
	LC_REG,    /* T:reg = v */
	LC_MEM,    /* [loc] = v */
	LC_FETCH,  /* T:fetch(Pn:label) = insn (ftv syntax) */
	LC_FAULT,  /* fault(Pn:label) or fault(Pn:label, kind): a fault there */
	LC_TRUE, LC_FALSE,
	LC_AND, LC_OR, LC_NOT,
};

struct lt_cond {
	enum lt_ckind kind;
	int thread, reg, is32;  /* LC_REG; LC_FETCH, LC_FAULT: thread */
	char loc[LT_NAME];      /* LC_MEM */
	int lthread;            /* LC_FETCH, LC_FAULT: Pn:label */
	char label[LT_NAME];
	char fault[LT_NAME];    /* LC_FAULT: herd's fault kind, or "" */
	struct lt_val v;
	int a, b;               /* children (LC_AND, LC_OR; LC_NOT: a) */
	int line;
};

/* What a final state reports: the registers and locations the condition
 * (and herd's `locations [...]`) names. */
struct lt_obs {
	int kind;               /* LC_REG, LC_MEM or LC_FAULT */
	int thread, reg, is32;
	char loc[LT_NAME];
	int lthread;            /* LC_FAULT */
	char label[LT_NAME];
	char fault[LT_NAME];
	int vkind;              /* how to print: LV_NUM, LV_CODE, LV_LOC, LV_INSN */
};

enum lt_quant { LQ_EXISTS, LQ_NOT_EXISTS, LQ_FORALL };
enum lt_syntax { LT_SYNTAX_FTV, LT_SYNTAX_HERD };

#define LT_MAX_ITEMS 128

struct litmus {
	char path[256];
	char name[128];
	enum lt_syntax syntax;
	const struct lt_arch *arch;
	int expect;             /* LT_K_* or -1 */
	int dic, idc;           /* CTR_EL0.DIC/IDC the test asks for */
	int nthreads;
	struct lt_block code[LT_MAX_THREADS];
	struct lt_block handler[LT_MAX_THREADS];
	struct lt_label label[LT_MAX_ITEMS];
	int nlabel;
	struct lt_init init[LT_MAX_ITEMS];
	int ninit;
	struct lt_cond cond[LT_MAX_ITEMS];
	int ncond;
	int root;               /* condition tree root, -1 none */
	enum lt_quant quant;
	struct lt_obs obs[LT_MAX_ITEMS];
	int nobs;
	char loc[LT_MAX_ITEMS][LT_NAME];
	unsigned loc_size[LT_MAX_ITEMS]; /* 4 or 8 bytes (typed), 0 untyped */
	/* herd's pte_V=(oa:phy_P): virtual name V maps to P's memory. A code
	 * label V keeps its address and location P moves there; a location
	 * V moves to P. */
	struct lt_alias {
		char va[LT_NAME], pa[LT_NAME];
		int line;
	} alias[LT_MAX_ITEMS];
	int nalias;
	int nloc;
	int cur_line;           /* while parsing */
	/* A construct of herd's syntax ftv does not model: set by
	 * lt_unsupported while parsing, the test is then not run. */
	int unsup;
	char unsup_msg[512];    /* the message, with its file and line */
};

/* lt_parse.c: pieces both syntaxes share. */
int lt_is_ident_start(int c);
int lt_is_ident(int c);
/* "Pn:label" -> thread and label. */
int lt_parse_code_ref(const char *s, int *thread, char *label);
/* Registers a data location (its index), -1 when the table is full. */
int lt_add_loc(struct litmus *lt, const char *name);
int lt_find_loc(const struct litmus *lt, const char *name);
/* A value: a number, Pn:label, a location name, insn "text" [at Pn:label]
 * (ftv) or instr:"text" / a bare NOP (herd). */
int lt_parse_value(struct litmus *lt, char *s, struct lt_val *v,
		   struct ftv_err *err);
/* "T:reg" -> thread, reg */
int lt_parse_thread_reg(const struct litmus *lt, const char *s, int *thread,
			int *reg, int *is32);
/* Adds a label before the next instruction of a block. */
int lt_add_label(struct litmus *lt, int thread, int handler, const char *name,
		 struct ftv_err *err);
int lt_add_insn(struct litmus *lt, int thread, int handler, const char *text,
		struct ftv_err *err);
/* The condition: quantifier already read, s the proposition. */
int lt_parse_prop(struct litmus *lt, const char *s, struct ftv_err *err);
/* A construct of herd's language that ftv cannot model (not a syntax
 * error): the message goes to err, the test is marked, and litmus_load
 * returns it with litmus_unsupported() saying why. Returns -1. */
int lt_unsupported(struct litmus *lt, struct ftv_err *err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Adds an observed register or location (once). */
int lt_add_obs(struct litmus *lt, const struct lt_obs *o);

/* lt_ftv.c, lt_herd.c: read a file in that syntax into lt. */
int lt_read_ftv(struct litmus *lt, FILE *f, struct ftv_err *err);
int lt_read_herd(struct litmus *lt, FILE *f, struct ftv_err *err);

/* herd's syntax: an instruction ftv's assembler does not know (herd's
 * whole AArch64 against the subset ftv models) makes the test
 * unsupported (lt_unsupported); other errors are left to the run. */
int lt_check_insns(struct litmus *lt, struct ftv_err *err);

/* Layout of a test in the address space (lt_run.c). */
uint64_t lt_block_base(int thread, int handler);
/* A value of the init block or the condition: a number, a location's or
 * a label's address, an instruction's word. */
int lt_resolve_value(const struct litmus *lt, const struct lt_val *v,
		     uint64_t *out, struct ftv_err *err);
int lt_find_label(const struct litmus *lt, int thread, const char *name,
		  uint64_t *addr);
uint64_t lt_loc_addr(const struct litmus *lt, const char *name);

#endif
