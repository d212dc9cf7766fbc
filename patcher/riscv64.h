/* The riscv64 ftrace backend: the four verbs of patcher/ftrace_arch.h turned
 * into plans, for the two RISC-V CALL_OPS schemes ftv models. Both use the
 * same call site, compiled with -fpatchable-function-entry=8,4 (4 c.nop,
 * RVC) or =4,2 (2 nop):
 *
 *     func-8: .quad ops           the CALL_OPS literal (8-byte aligned)
 *     func:   auipc t0, hi        \ the call: t0 = func+8 on entry to
 *     func+4: jalr  t0, lo(t0)    / the trampoline, ra untouched
 *
 * and the same trampoline (trampolines/riscv/entry-ftrace.S), which finds
 * the ops at t0-16.
 *
 *   riscv64_ftrace_pair    Linux < 6.16 with the CALL_OPS patch (2024):
 *                        NOP;NOP when disabled, both words rewritten by
 *                        every transition (two 4-byte stores: patch_text
 *                        copies 8 bytes, not atomically), under
 *                        stop_machine(). A hart stopped between the two
 *                        words can combine an old AUIPC with a new JALR.
 *   riscv64_ftrace_atomic  Linux 6.16 ("riscv: ftrace: prepare ftrace for
 *                        atomic code patching"): the AUIPC t0 to
 *                        ftrace_caller is written once by init_nop; only
 *                        the JALR <-> NOP word changes afterwards, live.
 *                        The JALR reaches +/-2 KiB around the AUIPC's base;
 *                        anything farther goes through ftrace_caller and the
 *                        ops in the literal (ops->direct_call).
 *
 * The backend knows encodings (encoders/riscv.h), never ref counts or
 * filters. Every transition's text write carries the word expected there
 * and is validated (ftrace_modify_code / __ftrace_modify_call with validate
 * = true); init_nop writes unvalidated, as the kernel's does.
 */
#ifndef FTV_PATCHER_RISCV64_H
#define FTV_PATCHER_RISCV64_H

#include <stdint.h>

#include "patcher/ftrace_arch.h"
#include "util/err.h"

/* Deliberate bugs (ftv --mutate NAME), each of which a correct verifier
 * must catch. */
enum riscv64_mutant {
	RISCV64_MUT_NONE = 0,
	/* atomic scheme: targets beyond the JALR's reach are called directly
	 * by rewriting the AUIPC live (make_call, modify_call; make_nop puts
	 * the ftrace_caller AUIPC back), without stop_machine: a hart that
	 * ran the old AUIPC then fetches the new JALR (the pair hazard). */
	RISCV64_MUT_ATOMIC_REWRITE_AUIPC,
	/* both schemes: make_call writes the call words before the ops
	 * literal, so a hart can reach ftrace_caller with ftrace_nop_ops (or
	 * the previous, maybe freed, ops) in the literal. */
	RISCV64_MUT_JALR_BEFORE_LITERAL,
	/* atomic scheme: ftrace_init_nop writes the ops literal before taking
	 * text_mutex (Linux 6.16-rc), through the patch window another task
	 * may be using */
	RISCV64_MUT_UNLOCKED_INIT_LITERAL,
	/* patch_text_cb(): the harts that waited resume without
	 * local_flush_icache_all(), the fence.i edf2d546bfd6 gave them */
	RISCV64_MUT_PATCH_TEXT_NO_FENCE_I,
	RISCV64_MUT_COUNT
};

/* The table of them (struct ftrace_arch.mutants of both riscv64
 * backends): index 0 is "none", terminated by a NULL name. */
extern const struct ftrace_arch_mutant riscv64_mutants[];


/* The backend's context (struct ftrace_core_config.arch_ctx). */
struct riscv64_ftrace_ctx {
	/* FTRACE_ADDR: where the atomic scheme's AUIPC points, and the
	 * fallback target of both schemes for far direct/per-ops targets. */
	uint64_t ftrace_caller;
	/* How the corpus was compiled: 1 for -march=rv64gc (the compiler's
	 * entry words are c.nop pairs, 0x00010001), 0 for rv64g (nop,
	 * 0x00000013). Only used as the `old` of init_nop's (unvalidated)
	 * writes, so that reports show what was replaced. */
	int rvc;
	enum riscv64_mutant mutant;
};

extern const struct ftrace_arch riscv64_ftrace_pair;
extern const struct ftrace_arch riscv64_ftrace_atomic;

/* The scheme named "pair" or "atomic" (or its ftrace_arch name,
 * "riscv64-pair" / "riscv64-atomic"), or NULL. */
const struct ftrace_arch *riscv64_ftrace_scheme(const char *name);

/* ftrace_call_adjust()'s preconditions for a RISCV_CALL_OPS site: the
 * literal 8-byte aligned (one atomic 64-bit store, FUNCTION_ALIGNMENT_8B)
 * and the entry 4-byte aligned (both patched words naturally aligned, so
 * Ziccif makes their fetch atomic). Returns 0 when usable, -1 with err set
 * ("Misaligned patch-site ..."). */
int riscv64_site_usable(const struct riscv64_ftrace_ctx *c,
		      const struct ftrace_site *s, struct ftv_err *err);

/* The atomic scheme's reach: whether `jalr t0, lo(t0)` after the
 * init-time `auipc t0, hi(ftrace_caller - func)` at func reaches target,
 * i.e. target - (func + (hi << 12)) is in -2048..2047. */
int riscv64_jalr_reaches(uint64_t func, uint64_t ftrace_caller, uint64_t target);

/* The AUIPC t0 that the atomic scheme's init_nop writes at s->func (the
 * call pair's first word for ftrace_caller). Returns 0, or -1 with err set
 * when ftrace_caller is beyond AUIPC+JALR reach (+/-2 GiB). */
int riscv64_init_auipc(const struct riscv64_ftrace_ctx *c,
		     const struct ftrace_site *s, uint32_t *auipc,
		     struct ftv_err *err);

#endif
