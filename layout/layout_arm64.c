/* arm64's layout table: which of the ftrace callsite layouts a site has,
 * read from its words or (live capture) from where ip sits, and where
 * ftrace patches it. The kernel's rule is ftrace_call_adjust() in
 * arch/arm64/kernel/ftrace.c (v6.12). */
#include "encoders/a64.h"
#include "layout/layout.h"

#include <elf.h>

/* The two patchable words after the entry (and any BTI): NOP or MOV X9, LR
 * in the first, NOP or BL in the second, so that a dump of a live kernel
 * classifies like the vmlinux file it came from. */
static bool patch_pair(uint32_t a, uint32_t b)
{
	uint32_t mov = 0;

	a64_gen_mov_reg(9, 30, &mov, NULL); /* MOV X9, LR: x30 is the LR */
	return (a64_is_nop(a) || a == mov) && (a64_is_nop(b) || a64_is_bl(b));
}

enum sim_layout_kind sim_layout_classify_arm64(uint64_t entry, bool has_func,
					       uint64_t faddr,
					       const uint32_t *w, unsigned n,
					       uint64_t *ip, bool *has_ip)
{
	*ip = 0;
	*has_ip = false;
	if (!has_func || n < 1)
		return SIM_LAYOUT_UNKNOWN;

	/* -fpatchable-function-entry=4,2 (CALL_OPS): the entry is the first
	 * of two pre-function NOPs that hold the ops literal, so it sits 8
	 * bytes before the function. */
	if (entry + 8 == faddr) {
		/* The literal must be naturally aligned for the trampoline's
		 * 64-bit load; the kernel warns "Misaligned patch-site" and
		 * never traces such a function. */
		if ((entry & 7) || n < 5)
			return SIM_LAYOUT_UNKNOWN;
		/* A BTI C landing pad comes first, then MOV X9 / BL. */
		if (w[2] == a64_gen_bti(A64_BTI_C) && patch_pair(w[3], w[4])) {
			*ip = entry + 16;
			*has_ip = true;
			return SIM_LAYOUT_CALLOPS_BTI;
		}
		if (!patch_pair(w[2], w[3]))
			return SIM_LAYOUT_UNKNOWN;
		*ip = entry + 12;
		*has_ip = true;
		/* Return-address signing starts after the patchable NOPs (the
		 * trampoline runs before the LR is signed). */
		if (n >= 5 && (a64_is_paciasp(w[4]) || a64_is_pacibsp(w[4])))
			return SIM_LAYOUT_CALLOPS_PAC;
		return SIM_LAYOUT_CALLOPS;
	}

	/* -fpatchable-function-entry=2 (WITH_ARGS without CALL_OPS): two NOPs
	 * at the entry, or right after a BTI C; ftrace patches the second. */
	if ((entry == faddr || entry == faddr + 4) && n >= 2 &&
	    patch_pair(w[0], w[1])) {
		*ip = entry + 4;
		*has_ip = true;
		return SIM_LAYOUT_ARGS;
	}

	/* -pg: the entry is the BL _mcount itself (or the NOP it became),
	 * after the prologue. */
	if (entry > faddr && (a64_is_nop(w[0]) || a64_is_bl(w[0]))) {
		*ip = entry;
		*has_ip = true;
		return SIM_LAYOUT_MCOUNT;
	}
	return SIM_LAYOUT_UNKNOWN;
}

/* With CALL_OPS, ftrace_call_adjust() puts rec->ip after MOV X9, LR at
 * func+4, or at func+8 after a BTI C too; the literal (the table entry)
 * is at func-8, which the function's 8-byte alignment keeps aligned. PAC
 * cannot be told from ip alone. */
static enum sim_layout_kind live_kind(uint64_t faddr, uint64_t ip,
				      uint64_t *entry)
{
	enum sim_layout_kind k;

	if (faddr & 7)
		return SIM_LAYOUT_UNKNOWN;
	if (ip - faddr == 4)
		k = SIM_LAYOUT_CALLOPS;
	else if (ip - faddr == 8)
		k = SIM_LAYOUT_CALLOPS_BTI;
	else
		return SIM_LAYOUT_UNKNOWN;
	*entry = faddr - 8;
	return k;
}

const struct sim_layout_arch sim_layout_arm64 = {
	.name = "arm64",
	.arch = FTV_ARCH_ARM64,
	.classify = sim_layout_classify_arm64,
	.live_kind = live_kind,
	/* ELF for the Arm 64-bit Architecture: ABS64 = S + A, RELATIVE =
	 * Delta(S) + A. */
	.reloc_abs64 = R_AARCH64_ABS64,
	.reloc_relative = R_AARCH64_RELATIVE,
};
