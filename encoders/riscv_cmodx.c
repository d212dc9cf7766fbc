/* Which RISC-V instruction words may be rewritten while other harts run them.
 *
 * The hardware rule: Ziccif (RISC-V profiles spec, RVA20 onwards) makes
 * instruction fetches of naturally aligned power-of-2 sizes up to
 * min(ILEN, XLEN) atomic in cacheable, coherent main memory; so a concurrent
 * fetch of a naturally aligned 4-byte word sees it whole-old or whole-new.
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
#include "encoders/riscv_table.h"

/* A 4-byte word whose table row is flagged as the live slot (NOP, JALR).
 * 16-bit encodings never are: two C.NOPs are not one atomic slot. */
static const struct rv_encoding *slot_row(uint32_t w)
{
	const struct rv_encoding *e = rv_encoding_of(w);

	return e && e->nbytes == 4 && (e->flags & RV_FL_LIVE_SLOT) ? e : NULL;
}

int rv_patchable_word(uint32_t word)
{
	return slot_row(word) != NULL;
}

int rv_patchable_word_safe(uint32_t old, uint32_t new)
{
	const struct rv_encoding *a = slot_row(old), *b = slot_row(new);
	struct rv_insn ja, jb;

	if (old == new)
		return 1;
	if (!a || !b)
		return 0;
	if (a->op == RV_OP_NOP || b->op == RV_OP_NOP)
		return 1;   /* NOP -> JALR or JALR -> NOP (two NOPs are equal) */
	/* JALR -> JALR: both must consume the same AUIPC result and link
	 * through the same register; only the offset may differ. */
	rv_decode(old, 0, &ja);
	rv_decode(new, 0, &jb);
	return ja.rd == jb.rd && ja.rs1 == jb.rs1;
}
