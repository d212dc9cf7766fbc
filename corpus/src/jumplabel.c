/* Static branches (jump labels) as arm64 Linux compiles them: an `asm goto`
 * whose instruction is a NOP or a B to the out-of-line label, and a
 * __jump_table entry beside it that lets static_key_enable() find and patch
 * it (arch/arm64/include/asm/jump_label.h: arch_static_branch,
 * arch_static_branch_jump, JUMP_TABLE_ENTRY; include/linux/jump_label.h:
 * struct jump_entry, static_branch_likely/unlikely). ftv reads the table
 * after relocation (verify/world_text.c) and flips the keys with
 * `static-key on|off KEY` while the CPUs call these functions.
 *
 * Entry layout (struct jump_entry with CONFIG_HAVE_ARCH_JUMP_LABEL_RELATIVE):
 * s32 code (the patched word, relative to the field), s32 target (the
 * label, relative to its field), s64 key (relative to its field; bit 0:
 * the branch's polarity, `branch` below; bit 1: an init-section entry).
 *
 * Both arms of each branch return the same value (the slow arm computes it
 * another way), so the workload's comparison with the untraced result
 * holds whichever arm a CPU takes; what differs, and what ftv checks, is
 * the instruction the CPU executes at the site after static_key_enable()
 * or static_key_disable() returned. */
#include "corpus.h"

/* struct static_key: an enable count; the entries pointer is the
 * kernel's bookkeeping, which ftv keeps outside (verify/world_text.c). */
struct ftv_static_key {
	int enabled;
	int pad;
	u64 entries;
};

/* The kernel passes the key as an "i" operand (%c0), which needs
 * -fno-PIE; the corpus is built with the compiler's default, so the key's
 * symbol is named in the text: the same entry after assembly. */
#define FTV_JUMP_ENTRY(key, branch, label)                               \
	".pushsection __jump_table, \"aw\"\n\t"                          \
	".align 3\n\t"                                                   \
	".long 1b - ., %l[" #label "] - .\n\t"                           \
	".quad " #key " + " #branch " - .\n\t"                           \
	".popsection\n\t"

/* The patched instruction, 4 bytes: arm64's NOP and B; riscv64's
 * (arch/riscv/include/asm/jump_label.h) a non-compressed, 4-byte aligned
 * NOP and JAL x0, which the corpus builds too (ftv patches jump labels on arm64 only). */
#if defined(__riscv)
/* (.balign before .option norvc: with the C extension on, GNU as pads
 * for the worst case and emits R_RISCV_ALIGN, which the link resolves
 * after deleting the functions' padding; under norvc it emits neither.) */
#define FTV_JL_NOP ".balign 4\n\t.option push\n\t.option norvc\n1: nop\n\t.option pop\n\t"
#define FTV_JL_JUMP ".balign 4\n\t.option push\n\t.option norvc\n1: jal zero, %l[l_yes]\n\t.option pop\n\t"
#else
#define FTV_JL_NOP "1: nop\n\t"
#define FTV_JL_JUMP "1: b %l[l_yes]\n\t"
#endif

/* The asm goto: insn at label 1 with its entry; true when it jumps to
 * l_yes. arch_static_branch() is FTV_BRANCH(FTV_JL_NOP, ...) (a NOP while
 * the jump is off), arch_static_branch_jump() FTV_BRANCH(FTV_JL_JUMP, ...)
 * (a jump to l_yes while it is on). */
#define FTV_BRANCH(insn, key, branch)                                    \
	({                                                               \
		int yes_ = 0;                                            \
		asm goto(insn FTV_JUMP_ENTRY(key, branch, l_yes)         \
			 : : : : l_yes);                                 \
		if (0) {                                                 \
		l_yes:                                                   \
			yes_ = 1;                                        \
		}                                                        \
		yes_;                                                    \
	})

/* Keys defined false (DEFINE_STATIC_KEY_FALSE): static_branch_unlikely()
 * on one is arch_static_branch(key, false), a NOP until it is enabled;
 * static_branch_likely() on one is !arch_static_branch_jump(key, true),
 * a B to the unlikely arm until it is enabled. */
struct ftv_static_key ftv_key_a = { 0, 0, 0 };
struct ftv_static_key ftv_key_b = { 0, 0, 0 };

#define static_branch_unlikely_false(k) FTV_BRANCH(FTV_JL_NOP, k, 0)
#define static_branch_likely_false(k) (!FTV_BRANCH(FTV_JL_JUMP, k, 1))

__attribute__((noinline)) u64 jl_mix_slow(u64 a, u64 b, u64 c)
{
	u64 r = 0;

	/* a * 5 + (b ^ c), by repeated addition */
	for (int i = 0; i < 5; i++)
		r += a;
	return r + (b ^ c);
}

/* The kernel's typical use: a hook that costs nothing while its key is
 * off (a tracepoint, a sched feature). */
u64 jl_hook(u64 a, u64 b, u64 c)
{
	if (static_branch_unlikely_false(ftv_key_a))
		return jl_mix_slow(a, b, c) + 1;
	return a * 5 + (b ^ c) + 1;
}

/* static_branch_likely() on a key defined false: the B to the label is
 * taken (the condition is false) until the key is enabled, which turns
 * the B into a NOP. */
u64 jl_feature(u64 a, u64 b, u64 c)
{
	if (static_branch_likely_false(ftv_key_b))
		return jl_mix_slow(b, a, c) + 2;
	return b * 5 + (a ^ c) + 2;
}

/* A word the arch's stop_machine() text patcher rewrites
 * (aarch64_insn_patch_text(), riscv's patch_text(); `text-poke
 * ftv_poke_site`): two encodings of r = r + 0, swapped. Neither pair is one
 * the architecture lets a CPU fetch while it changes (Arm ARM B2.2.5 allows
 * B, BL, NOP, BRK, SVC, HVC, SMC and ISB only), which is what the
 * rendezvous is for. The other encoding sits in .rodata at
 * ftv_poke_site_alt, where the world reads it. */
#if defined(__riscv)
#define FTV_POKE_A "addi %0, %0, 0"
#define FTV_POKE_B "ori %0, %0, 0"
#define FTV_POKE_NORVC ".option push\n\t.option norvc\n\t"
#define FTV_POKE_RVC ".option pop\n\t"
#else
#define FTV_POKE_A "add %0, %0, #0"
#define FTV_POKE_B "orr %0, xzr, %0"
#define FTV_POKE_NORVC ""
#define FTV_POKE_RVC ""
#endif

__attribute__((noinline)) u64 jl_poke(u64 a, u64 b, u64 c)
{
	u64 r = a + b;

	__asm__ volatile(".balign 4\n\t" FTV_POKE_NORVC
			 ".globl ftv_poke_site\n"
			 "ftv_poke_site:\n\t" FTV_POKE_A "\n\t"
			 ".pushsection .rodata\n\t"
			 ".balign 4\n"
			 ".globl ftv_poke_site_alt\n"
			 "ftv_poke_site_alt:\n\t" FTV_POKE_B "\n\t"
			 ".popsection\n\t" FTV_POKE_RVC
			 : "+r"(r));
	return r ^ c;
}
