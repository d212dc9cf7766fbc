/* Which of the arm64 ftrace callsite layouts a site has, read from its
 * words, and where ftrace patches it. The kernel's rule is
 * ftrace_call_adjust() in arch/arm64/kernel/ftrace.c (v6.12). */
#include "sim/layout.h"

/* HINT-space encodings, Arm ARM C6.2 (NOP, BTI, PACIASP, PACIBSP). */
#define A64_NOP     0xd503201fu
#define A64_BTI_C   0xd503245fu
#define A64_PACIASP 0xd503233fu
#define A64_PACIBSP 0xd503237fu
/* MOV X9, LR (ORR X9, XZR, X30), written once by ftrace_init_nop(). */
#define A64_MOV_X9_LR 0xaa1e03e9u

static bool is_bl(uint32_t w)
{
	return (w & 0xfc000000u) == 0x94000000u; /* BL imm26, C6.2.34 */
}

/* The two patchable words after the entry (and any BTI): NOP or MOV X9, LR
 * in the first, NOP or BL in the second, so that a dump of a live kernel
 * classifies like the vmlinux file it came from. */
static bool patch_pair(uint32_t a, uint32_t b)
{
	return (a == A64_NOP || a == A64_MOV_X9_LR) && (b == A64_NOP || is_bl(b));
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
		if (w[2] == A64_BTI_C && patch_pair(w[3], w[4])) {
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
		if (n >= 5 && (w[4] == A64_PACIASP || w[4] == A64_PACIBSP))
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
	if (entry > faddr && (w[0] == A64_NOP || is_bl(w[0]))) {
		*ip = entry;
		*has_ip = true;
		return SIM_LAYOUT_MCOUNT;
	}
	return SIM_LAYOUT_UNKNOWN;
}
