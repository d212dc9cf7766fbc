/* BPF trampolines with an fexit program, as arm64 Linux JITs them, and a
 * traced function that sleeps: the lifetime of kernel/bpf/trampoline.c's
 * images (docs/bpf-trampoline.md).
 *
 * bpf_sleeper() is traced (a patchable entry, attached through
 * register_ftrace_direct) and calls ftv_schedule(), a voluntary context
 * switch: a quiescent state for RCU Tasks (kernel/rcu/tasks.h), taken while
 * the task's return address points into the trampoline image that called
 * it. bpf_quick() is the same without the sleep.
 *
 * ftv_bpf_image0..3 are four images (executable memory the world hands out
 * to bpf-update, as bpf_tramp_image_alloc() would, and frees with PLAN_FREE
 * as bpf_tramp_image_free() does). Each is what arch_prepare_bpf_trampoline()
 * (arch/arm64/net/bpf_jit_comp.c, prepare_trampoline()) emits for flags
 * BPF_TRAMP_F_CALL_ORIG | BPF_TRAMP_F_SKIP_FRAME (bpf_trampoline_update()
 * sets them when there is an fexit program), three argument registers, one
 * fentry and one fexit program:
 *   - the two frames (parent's with x9, the patched function's with x30),
 *     the stack, the argument count and the arguments, x19/x20;
 *   - mov x0, im; bl __bpf_tramp_enter (percpu_ref_get(&im->pcref));
 *   - the fentry program (here ftv_direct_log(ip, parent_ip): the record
 *     the world's direct-call check counts), called through x10 as
 *     emit_call() does for a target out of BL range (its address in a
 *     literal after the image);
 *   - the arguments back, ldr x10 (the patched function's body), adr lr,
 *     ret x10: the original function runs and returns into the image;
 *   - str x0 (the return value); im->ip_after_call: a NOP that
 *     bpf_tramp_image_put() patches into a B to ip_epilogue;
 *   - the fexit program (ftv_bpf_fexit_prog);
 *   - im->ip_epilogue: mov x0, im; bl __bpf_tramp_exit (percpu_ref_put);
 *   - x19/x20, the return value, the frames; SKIP_FRAME: ret x9 to the
 *     parent.
 * mov x0, im is an ADRP/ADD of the image's per-CPU count array
 * (ftv_bpf_imageN_pcref, its percpu_ref's percpu_count_ptr), which
 * ftv_bpf_tramp_enter/exit increment and decrement for this CPU
 * (this_cpu_inc/dec: TPIDR_EL1's FTV_PCPU_CPU).
 *
 * The images have a text section of their own; nothing calls them but a
 * patched call site (x9 = the parent's return address, x30 = the body). */
#include "corpus.h"

void ftv_schedule(void);

u64 bpf_sleeper(u64 a, u64 b, u64 c)
{
	u64 r = a * 3 + b;

	ftv_schedule();
	return r ^ c;
}

u64 bpf_quick(u64 a, u64 b, u64 c)
{
	return (a + 7) * (b | 1) - c;
}

#if defined(__aarch64__)
__asm__(
	/* a text section of their own: .text keeps only the C functions,
	 * aligned as the compiler aligns them */
	".pushsection .text.ftv_bpf_images, \"ax\", %progbits\n"
	/* schedule(): the task gives the CPU up and gets it back; the
	 * executor takes this pc for a voluntary context switch. */
	".balign 8\n"
	".globl ftv_schedule\n"
	".type ftv_schedule, %function\n"
	"ftv_schedule:\n\t"
	"ret\n"
	".size ftv_schedule, . - ftv_schedule\n"
	/* __bpf_tramp_enter(im): percpu_ref_get(&im->pcref), this CPU's
	 * count + 1 (x0: the count array) */
	".balign 8\n"
	".globl ftv_bpf_tramp_enter\n"
	".type ftv_bpf_tramp_enter, %function\n"
	"ftv_bpf_tramp_enter:\n\t"
	"mrs x1, tpidr_el1\n\t"
	"ldr x1, [x1]\n\t"
	"add x1, x0, x1, lsl #3\n\t"
	"ldr x2, [x1]\n\t"
	"add x2, x2, #1\n\t"
	"str x2, [x1]\n\t"
	"ret\n"
	".size ftv_bpf_tramp_enter, . - ftv_bpf_tramp_enter\n"
	/* __bpf_tramp_exit(im): percpu_ref_put(&im->pcref) */
	".balign 8\n"
	".globl ftv_bpf_tramp_exit\n"
	".type ftv_bpf_tramp_exit, %function\n"
	"ftv_bpf_tramp_exit:\n\t"
	"mrs x1, tpidr_el1\n\t"
	"ldr x1, [x1]\n\t"
	"add x1, x0, x1, lsl #3\n\t"
	"ldr x2, [x1]\n\t"
	"sub x2, x2, #1\n\t"
	"str x2, [x1]\n\t"
	"ret\n"
	".size ftv_bpf_tramp_exit, . - ftv_bpf_tramp_exit\n"
	/* the fexit program: runs after the original function returned */
	".balign 8\n"
	".globl ftv_bpf_fexit_prog\n"
	".type ftv_bpf_fexit_prog, %function\n"
	"ftv_bpf_fexit_prog:\n\t"
	"ret\n"
	".size ftv_bpf_fexit_prog, . - ftv_bpf_fexit_prog\n"
	".popsection\n"
	/* the fentry program's log (trampolines/tracers.c): weak, so that
	 * the object loads alone (an unresolved weak reference is 0, and
	 * the image then skips the call) */
	".weak ftv_direct_log\n"
	".macro FTV_BPF_IMAGE n\n"
	".pushsection .text.ftv_bpf_images, \"ax\", %progbits\n"
	".balign 8\n"
	".globl ftv_bpf_image\\n\n"
	".type ftv_bpf_image\\n, %function\n"
	"ftv_bpf_image\\n:\n\t"
	"hint #38\n\t"                 /* bti jc */
	"stp x29, x9, [sp, #-16]!\n\t" /* frame for the parent */
	"mov x29, sp\n\t"
	"stp x29, x30, [sp, #-16]!\n\t" /* frame for the patched function */
	"mov x29, sp\n\t"
	"sub sp, sp, #64\n\t"
	"mov x10, #3\n\t"              /* nregs */
	"str x10, [sp, #0]\n\t"
	"stp x0, x1, [sp, #8]\n\t"     /* save_args */
	"str x2, [sp, #24]\n\t"
	"str x19, [sp, #40]\n\t"
	"str x20, [sp, #48]\n\t"
	"adrp x0, ftv_bpf_image\\n\\()_pcref\n\t"
	"add x0, x0, :lo12:ftv_bpf_image\\n\\()_pcref\n\t"
	"bl ftv_bpf_tramp_enter\n\t"
	"ldr x0, [x29, #8]\n\t"        /* the fentry program: ip, parent_ip */
	"sub x0, x0, #4\n\t"
	"ldr x1, [x29, #24]\n\t"
	"ldr x10, 3f\n\t"             /* emit_call(): mov x10, imm64; blr x10 */
	"cbz x10, 2f\n\t"
	"blr x10\n"
	"2:\n\t"
	"ldp x0, x1, [sp, #8]\n\t"     /* restore_args */
	"ldr x2, [sp, #24]\n\t"
	"ldr x10, [sp, #72]\n\t"       /* retaddr_off: the patched function */
	"adr x30, 1f\n\t"
	"ret x10\n"                    /* call the original function */
	"1:\n\t"
	"str x0, [sp, #32]\n"          /* retval_off */
	".globl ftv_bpf_image\\n\\()_after_call\n"
	"ftv_bpf_image\\n\\()_after_call:\n\t"
	"nop\n\t"
	"bl ftv_bpf_fexit_prog\n"
	".globl ftv_bpf_image\\n\\()_epilogue\n"
	"ftv_bpf_image\\n\\()_epilogue:\n\t"
	"adrp x0, ftv_bpf_image\\n\\()_pcref\n\t"
	"add x0, x0, :lo12:ftv_bpf_image\\n\\()_pcref\n\t"
	"bl ftv_bpf_tramp_exit\n\t"
	"ldr x19, [sp, #40]\n\t"
	"ldr x20, [sp, #48]\n\t"
	"ldr x0, [sp, #32]\n\t"
	"mov sp, x29\n\t"
	"ldp x29, x30, [sp], #16\n\t"
	"ldp x29, x9, [sp], #16\n\t"
	"mov x30, x9\n\t"              /* SKIP_FRAME: back to the parent */
	"ret x9\n"
	".balign 8\n"
	"3:\n\t"
	".quad ftv_direct_log\n"
	".globl ftv_bpf_image\\n\\()_end\n"
	"ftv_bpf_image\\n\\()_end:\n"
	".size ftv_bpf_image\\n, ftv_bpf_image\\n\\()_end - ftv_bpf_image\\n\n"
	".popsection\n"
	".pushsection .data\n"
	".balign 8\n"
	".globl ftv_bpf_image\\n\\()_pcref\n"
	"ftv_bpf_image\\n\\()_pcref:\n\t"
	".fill 32, 8, 0\n"             /* one count per CPU (EXEC_MAX_CPUS) */
	".popsection\n"
	".endm\n"
	"FTV_BPF_IMAGE 0\n"
	"FTV_BPF_IMAGE 1\n"
	"FTV_BPF_IMAGE 2\n"
	"FTV_BPF_IMAGE 3\n");
#endif
