/*
 * A direct trampoline standing for what BPF attaches with
 * register_ftrace_direct: entered with t0 = the traced function's body
 * (its JALR + 4) and ra = the traced function's return address; it logs an
 * FTV_LOG_DIRECT record and resumes the function with `jr t0`, every
 * argument register and ra intact.
 *
 * The kernel allocates BPF trampolines in module / bpf_prog_pack memory,
 * far from ftrace_caller. The gaps on both sides keep ftv_direct_tramp
 * beyond the atomic scheme's +/-2 KiB JALR reach from ftrace_caller
 * whichever order the objects are loaded in, so that its sites reach it
 * through ftrace_caller and ops->direct_call, as in 6.16 (the pair scheme,
 * with +/-2 GiB, still calls it directly). The gaps are zeros: a hart
 * landing there faults on an illegal instruction.
 */
	.option	norelax
	.text
	.balign	8
	.skip	4096
	.globl	ftv_direct_tramp
	.type	ftv_direct_tramp, @function
ftv_direct_tramp:
	addi	sp, sp, -96
	sd	a0, 0(sp)
	sd	a1, 8(sp)
	sd	a2, 16(sp)
	sd	a3, 24(sp)
	sd	a4, 32(sp)
	sd	a5, 40(sp)
	sd	a6, 48(sp)
	sd	a7, 56(sp)
	sd	t0, 64(sp)
	sd	ra, 72(sp)
	addi	a0, t0, -4			/* ip: the site's JALR */
	mv	a1, ra				/* parent_ip */
	call	ftv_direct_log
	ld	a0, 0(sp)
	ld	a1, 8(sp)
	ld	a2, 16(sp)
	ld	a3, 24(sp)
	ld	a4, 32(sp)
	ld	a5, 40(sp)
	ld	a6, 48(sp)
	ld	a7, 56(sp)
	ld	t0, 64(sp)
	ld	ra, 72(sp)
	addi	sp, sp, 96
	jr	t0
	.size	ftv_direct_tramp, . - ftv_direct_tramp
	.skip	4096
