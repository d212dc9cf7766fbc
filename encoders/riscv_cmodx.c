/* Which RISC-V instruction words may be rewritten while other harts run them.
 *
 * The hardware rule: with Ziccif (RVA20/RVA22/RVA23 profiles, "Ziccif: main
 * memory regions with both the cacheability and coherence PMAs must support
 * instruction fetch, and any instruction fetches of naturally aligned
 * power-of-2 sizes up to min(ILEN, XLEN) are atomic"), a naturally aligned
 * 4-byte store is seen by a concurrent fetch either whole-old or whole-new.
 * Nothing orders two such stores for another hart's fetch, so a two-word
 * sequence (AUIPC + JALR) can be fetched half old, half new.
 *
 * The kernel's scheme (Linux 6.16, arch/riscv/kernel/ftrace.c, "riscv:
 * ftrace: prepare ftrace for atomic code patching" and its series): a call
 * site is `auipc t0, hi; jalr t0, lo(t0)`. ftrace_init_nop() writes the
 * AUIPC (pointing at ftrace_caller) and a NOP once, before the code can run;
 * afterwards ftrace_make_call()/ftrace_make_nop() rewrite only the second
 * word, JALR <-> NOP, with one aligned 4-byte patch_insn_write(), and
 * ftrace_modify_call() rewrites that JALR with another JALR of the same
 * AUIPC (targets out of the JALR's +/-2 KiB reach fall back to
 * ftrace_caller). The AUIPC is never changed live: with the old JALR still
 * in place a hart would jump to old_jalr_lo + new_auipc_hi.
 *
 * So a live swap is safe when it is no change at all, NOP -> JALR,
 * JALR -> NOP, or JALR -> JALR with the same rd and rs1 (only the offset
 * differs, so both words consume the same AUIPC result). Anything else
 * (AUIPC, JAL, ADDI, loads/stores, compressed words) is not. */
#include "encoders/riscv.h"

static int is_jalr(uint32_t w, struct rv_insn *in)
{
	/* 16-bit encodings are excluded: two C.NOPs are not one atomic slot. */
	return (w & 3) == 3 && !rv_decode(w, 0, in) && in->op == RV_OP_JALR;
}

int rv_patchable_word_safe(uint32_t old, uint32_t new)
{
	struct rv_insn a, b;
	int old_jalr = is_jalr(old, &a), new_jalr = is_jalr(new, &b);
	uint32_t nop = rv_gen_nop();

	if (old == new)
		return 1;
	if (old == nop && new_jalr)
		return 1;
	if (old_jalr && new == nop)
		return 1;
	if (old_jalr && new_jalr)
		return a.rd == b.rd && a.rs1 == b.rs1;
	return 0;
}

int rv_patchable_word(uint32_t word)
{
	struct rv_insn in;

	return word == rv_gen_nop() || is_jalr(word, &in);
}
