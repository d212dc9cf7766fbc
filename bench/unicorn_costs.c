/* make bench: what Unicorn 2.0.1 itself costs per operation on this
 * machine, on an arm64 engine with no executor around it: an instruction
 * with no hooks, with one code hook and with one block hook over every
 * address; a load with no hooks and with a memory hook over an unrelated
 * region; a store; a uc_emu_start turn of 18 instructions stopped by a code
 * hook; a translation dropped and made again. These are the floor the
 * executor's and the fuzzer's figures should be read against.
 *
 * Run: build/bench/unicorn_costs [--quick]   (--quick: ~10x fewer
 * iterations). Prints one table: medians of 5 rounds, costs per operation
 * and rates per second of process CPU time. A load's and a store's cost is
 * what they cost beyond an `add` in the same loop (both loops timed in each
 * round, the difference taken per round).
 *
 * Stores: Unicorn 2.0.1 sends every store to RAM through the slow path
 * (store_helper, notdirty_write, page_collection_lock), whether or not code
 * was translated from the page: unicorn-engine/unicorn issue 1970, fixed
 * upstream after 2.0.1 (PR 2031, and PR 2337: the not-dirty flag only on
 * executable pages). That is why the store row is tens of times the load
 * row. */
#include "bench/machine.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#define CODE 0x10000ULL  /* the loop, one page, R+X */
#define DATA 0x20000ULL  /* loads and stores, R+W */
#define OTHER 0x30000ULL /* the memory hooks' unrelated region */
#define PAGE 0x1000ULL

#define BODY 16            /* the loop's 16 words under test */
#define LOOP (BODY + 2)    /* + subs + b.ne: instructions per trip */
#define END (CODE + 4 * LOOP)
#define NO_STOP 1ULL       /* an until no instruction has */
#define REMOVED (CODE + 4 * 5) /* the word the retranslation row drops */
#define REPS 5

/* Encodings (A64, little-endian words). */
#define ADD_X1_1 0x91000421u   /* add  x1, x1, #1 */
#define SUBS_X0_1 0xf1000400u  /* subs x0, x0, #1 */
#define LDR_X2_X2 0xf9400042u  /* ldr  x2, [x2] */
#define STR_X3_X2_8 0xf9000443u /* str  x3, [x2, #8] */
#define STORED 0x5a5a5a5a12345678ULL /* x3 */

/* b.ne <pc + 4 * words> */
static uint32_t b_ne(int32_t words)
{
	return 0x54000000u | (((uint32_t)words & 0x7ffffu) << 5) | 0x1u;
}

enum hook { H_NONE, H_CODE, H_BLOCK, H_READ, H_WRITE, H_STOP };

/* Trips (or turns) per run: make bench's, or --quick's. */
static uint64_t n_insn = 2000000, n_code = 400000, n_load = 1000000,
		n_slow = 200000, n_turn = 100000, n_retr = 10000;

static void check(uc_err e, const char *what)
{
	if (e != UC_ERR_OK) {
		fprintf(stderr, "unicorn_costs: %s: %s\n", what, uc_strerror(e));
		exit(1);
	}
}

static void empty_code(uc_engine *uc, uint64_t addr, uint32_t size,
		       void *data)
{
	(void)uc, (void)addr, (void)size, (void)data;
}

static void empty_mem(uc_engine *uc, uc_mem_type type, uint64_t addr,
		      int size, int64_t value, void *data)
{
	(void)uc, (void)type, (void)addr, (void)size, (void)value, (void)data;
}

/* A scheduler's stop: before the loop's first instruction on its second
 * visit, i.e. after one trip of LOOP instructions. */
static int seen;

static void stop_code(uc_engine *uc, uint64_t addr, uint32_t size,
		      void *data)
{
	(void)size, (void)data;
	if (addr == CODE && ++seen == 2)
		uc_emu_stop(uc);
}

/* An engine holding the loop: BODY copies of `word`, subs x0, b.ne; x2
 * points at DATA, whose first word points at itself. */
static uc_engine *engine(uint32_t word, enum hook h)
{
	uint32_t code[LOOP];
	uint64_t self = DATA, x2 = DATA, x3 = STORED;
	uc_engine *uc;
	uc_hook hh;

	for (int i = 0; i < BODY; i++)
		code[i] = word;
	code[BODY] = SUBS_X0_1;
	code[BODY + 1] = b_ne(-(BODY + 1));
	check(uc_open(UC_ARCH_ARM64, UC_MODE_ARM, &uc), "uc_open");
	check(uc_mem_map(uc, CODE, PAGE, UC_PROT_READ | UC_PROT_EXEC), "map");
	check(uc_mem_map(uc, DATA, PAGE, UC_PROT_READ | UC_PROT_WRITE), "map");
	check(uc_mem_map(uc, OTHER, PAGE, UC_PROT_READ | UC_PROT_WRITE), "map");
	check(uc_mem_write(uc, CODE, code, sizeof(code)), "write");
	check(uc_mem_write(uc, DATA, &self, sizeof(self)), "write");
	check(uc_reg_write(uc, UC_ARM64_REG_X2, &x2), "x2");
	check(uc_reg_write(uc, UC_ARM64_REG_X3, &x3), "x3");
	switch (h) {
	case H_NONE:
		break;
	case H_CODE:
		check(uc_hook_add(uc, &hh, UC_HOOK_CODE, empty_code, NULL, 1, 0),
		      "hook");
		break;
	case H_BLOCK:
		check(uc_hook_add(uc, &hh, UC_HOOK_BLOCK, empty_code, NULL, 1,
				  0), "hook");
		break;
	case H_READ:
		check(uc_hook_add(uc, &hh, UC_HOOK_MEM_READ, empty_mem, NULL,
				  OTHER, OTHER + PAGE - 1), "hook");
		break;
	case H_WRITE:
		check(uc_hook_add(uc, &hh, UC_HOOK_MEM_WRITE, empty_mem, NULL,
				  OTHER, OTHER + PAGE - 1), "hook");
		break;
	case H_STOP:
		check(uc_hook_add(uc, &hh, UC_HOOK_CODE, stop_code, NULL, 1, 0),
		      "hook");
		break;
	}
	return uc;
}

static uint64_t reg(uc_engine *uc, int r)
{
	uint64_t v = 0;

	check(uc_reg_read(uc, r, &v), "reg read");
	return v;
}

/* CPU seconds for `trips` trips of the loop of `word` under hook `h`, run
 * in one uc_emu_start to END; checks x0 and what the body did. */
static double loop(uint32_t word, enum hook h, uint64_t trips)
{
	uc_engine *uc = engine(word, h);
	uint64_t x0 = trips, stored = 0;
	double t0, t1;

	check(uc_reg_write(uc, UC_ARM64_REG_X0, &x0), "x0");
	t0 = bench_cpu();
	check(uc_emu_start(uc, CODE, END, 0, 0), "uc_emu_start");
	t1 = bench_cpu();
	check(uc_mem_read(uc, DATA + 8, &stored, sizeof(stored)), "read");
	if (reg(uc, UC_ARM64_REG_X0) != 0 ||
	    (word == ADD_X1_1 && reg(uc, UC_ARM64_REG_X1) != BODY * trips) ||
	    (word == LDR_X2_X2 && reg(uc, UC_ARM64_REG_X2) != DATA) ||
	    (word == STR_X3_X2_8 && stored != STORED)) {
		fprintf(stderr, "unicorn_costs: loop of %08x ended with x0 %llu, not 0, or its body's effect missing\n",
			word, (unsigned long long)reg(uc, UC_ARM64_REG_X0));
		exit(1);
	}
	uc_close(uc);
	return t1 - t0;
}

/* CPU seconds for `n` turns, each a uc_emu_start of one trip (LOOP
 * instructions) stopped by the code hook; with `drop`, each turn after
 * uc_ctl_remove_cache over one word of the loop's block. */
static double turns(uint64_t n, int drop)
{
	uc_engine *uc = engine(ADD_X1_1, H_STOP);
	uint64_t x0 = n + 1;
	double t0, t1;

	check(uc_reg_write(uc, UC_ARM64_REG_X0, &x0), "x0");
	t0 = bench_cpu();
	for (uint64_t i = 0; i < n; i++) {
		if (drop)
			check(uc_ctl_remove_cache(uc, REMOVED, REMOVED + 4),
			      "uc_ctl_remove_cache");
		seen = 0;
		check(uc_emu_start(uc, CODE, NO_STOP, 0, 0), "uc_emu_start");
	}
	t1 = bench_cpu();
	if (reg(uc, UC_ARM64_REG_X0) != 1 || reg(uc, UC_ARM64_REG_PC) != CODE ||
	    reg(uc, UC_ARM64_REG_X1) != BODY * n) {
		fprintf(stderr, "unicorn_costs: %llu turns ended with x0 %llu, not 1 (pc 0x%llx)\n",
			(unsigned long long)n,
			(unsigned long long)reg(uc, UC_ARM64_REG_X0),
			(unsigned long long)reg(uc, UC_ARM64_REG_PC));
		exit(1);
	}
	uc_close(uc);
	return t1 - t0;
}

enum row { R_INSN, R_CODE, R_BLOCK, R_LOAD, R_LOAD_R, R_LOAD_W, R_STORE,
	   R_TURN, R_RETR, NROWS };

static const struct {
	const char *name, *unit, *what;
	double scale; /* seconds to the unit */
} rows[NROWS] = {
	[R_INSN] = { "instruction, no hooks", "ns", "loop of 16 add + subs + b.ne, one uc_emu_start", 1e9 },
	[R_CODE] = { "instruction, code hook", "ns", "the same, one UC_HOOK_CODE over every address, empty callback", 1e9 },
	[R_BLOCK] = { "instruction, block hook", "ns", "the same, one UC_HOOK_BLOCK over every address, empty callback", 1e9 },
	[R_LOAD] = { "load, no hooks", "ns", "ldr x2, [x2] (x2 points at itself) beyond an add, 16 a trip", 1e9 },
	[R_LOAD_R] = { "load, read hook elsewhere", "ns", "the same, one UC_HOOK_MEM_READ over an unrelated page", 1e9 },
	[R_LOAD_W] = { "load, write hook elsewhere", "ns", "the same, one UC_HOOK_MEM_WRITE over an unrelated page", 1e9 },
	[R_STORE] = { "store, no hooks", "ns", "str x3, [x2, #8] to a data page beyond an add, 16 a trip", 1e9 },
	[R_TURN] = { "turn", "us", "uc_emu_start of 18 instructions stopped by a code hook's uc_emu_stop", 1e6 },
	[R_RETR] = { "retranslation", "us", "uc_ctl_remove_cache over one word of the hot block, beyond a turn", 1e6 },
};

int main(int argc, char **argv)
{
	double v[NROWS][REPS], med[NROWS];
	unsigned major, minor;

	if (argc == 2 && !strcmp(argv[1], "--quick")) {
		n_insn /= 10, n_code /= 10, n_load /= 10;
		n_slow /= 10, n_turn /= 10, n_retr /= 10;
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [--quick]\n", argv[0]);
		return 2;
	}
	bench_machine(stdout);
	for (int i = 0; i < REPS; i++) {
		double add_slow = loop(ADD_X1_1, H_NONE, n_slow);
		double add_load = loop(ADD_X1_1, H_NONE, n_load);

		v[R_INSN][i] = loop(ADD_X1_1, H_NONE, n_insn) / (LOOP * n_insn);
		v[R_CODE][i] = loop(ADD_X1_1, H_CODE, n_code) / (LOOP * n_code);
		v[R_BLOCK][i] = loop(ADD_X1_1, H_BLOCK, n_insn) /
				(LOOP * n_insn);
		v[R_LOAD][i] = (loop(LDR_X2_X2, H_NONE, n_load) - add_load) /
			       (BODY * n_load);
		v[R_LOAD_R][i] = (loop(LDR_X2_X2, H_READ, n_slow) -
				  loop(ADD_X1_1, H_READ, n_slow)) /
				 (BODY * n_slow);
		v[R_LOAD_W][i] = (loop(LDR_X2_X2, H_WRITE, n_slow) -
				  loop(ADD_X1_1, H_WRITE, n_slow)) /
				 (BODY * n_slow);
		v[R_STORE][i] = (loop(STR_X3_X2_8, H_NONE, n_slow) - add_slow) /
				(BODY * n_slow);
		v[R_TURN][i] = turns(n_turn, 0) / n_turn;
		v[R_RETR][i] = (turns(n_retr, 1) - turns(n_retr, 0)) / n_retr;
	}
	uc_version(&major, &minor);
	printf("Unicorn %u.%u (headers %d.%d.%d), arm64 engine; medians of %d rounds, rates per second of process CPU time\n",
	       major, minor, UC_API_MAJOR, UC_API_MINOR, UC_API_PATCH, REPS);
	printf("%-27s %10s %12s  %s\n", "cost", "median", "per CPU s",
	       "what it measures");
	for (int r = 0; r < NROWS; r++) {
		qsort(v[r], REPS, sizeof(double), bench_cmp_double);
		med[r] = v[r][REPS / 2];
	}
	for (int r = 0; r < NROWS; r++) {
		double rate = med[r] > 0 ? 1 / med[r] : 0;
		char extra[64] = "";

		if (r == R_CODE || r == R_BLOCK)
			snprintf(extra, sizeof(extra), " (%+.2f ns over no hooks)",
				 (med[r] - med[R_INSN]) * 1e9);
		if (r == R_TURN)
			snprintf(extra, sizeof(extra),
				 " (%.2f us beyond 18 hooked instructions)",
				 (med[r] - LOOP * med[R_CODE]) * 1e6);
		printf("%-27s %7.2f %-2s %8.*f %s/s  %s%s\n", rows[r].name,
		       med[r] * rows[r].scale, rows[r].unit,
		       rate >= 1e6 ? 1 : 2, rate >= 1e6 ? rate / 1e6 : rate / 1e3,
		       rate >= 1e6 ? "M" : "k", rows[r].what, extra);
	}
	return 0;
}
