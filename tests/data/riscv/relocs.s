# Every R_RISCV_* relocation the loader applies, for test_riscv64_loader's
# byte-for-byte comparison with riscv64-linux-gnu-ld --no-relax linking the
# same object at the addresses ftv chose. Assembled with relaxation on
# (GNU as's default), so RELAX and ALIGN appear as in compiled code.
	.option	rvc
# abs_val and abs_neg are defined (SHN_ABS) in abs.s, so that GNU as
# cannot fold the absolute HI20/LO12/32/SET relocations against them.

	.text
	.globl	rv_start
	.type	rv_start, @function
rv_start:
	call	far_func		# CALL_PLT + RELAX
	.reloc	., R_RISCV_CALL, far_func	# plain CALL
	auipc	ra, 0
	jalr	ra, 0(ra)
	tail	rv_back
.Lpc1:	auipc	a0, %pcrel_hi(rodata_word)	# PCREL_HI20
	ld	a1, %pcrel_lo(.Lpc1)(a0)	# PCREL_LO12_I
	sd	a1, %pcrel_lo(.Lpc1)(a0)	# PCREL_LO12_S
	lla	a2, data_word			# PCREL_HI20/LO12_I via lla
	lui	a3, %hi(abs_val)		# HI20
	addi	a3, a3, %lo(abs_val)		# LO12_I
	sw	a3, %lo(abs_val)(a3)		# LO12_S
	lui	a4, %hi(abs_neg)
	addi	a4, a4, %lo(abs_neg)
.Lloop:	beq	a0, a1, .Lfwd			# BRANCH
	bne	a0, a1, .Lloop
	c.beqz	a0, .Lfwd			# RVC_BRANCH
	c.bnez	a1, .Lloop
	c.j	.Lloop				# RVC_JUMP
	jal	zero, .Lfwd			# JAL
	jal	ra, far_func
	.align	3				# ALIGN (6 bytes of padding)
.Lfwd:	c.nop
	.align	4				# ALIGN (14 bytes)
rv_back:
	ret
	.size	rv_start, .-rv_start

	.section .text.far, "ax", @progbits
	.align	2
	.type	far_func, @function
far_func:
	ret
	.size	far_func, .-far_func

	.section .rodata, "a", @progbits
	.align	3
rodata_word:
	.8byte	far_func			# 64
	.4byte	abs_val				# 32
	.4byte	.Lfwd - .Lloop			# ADD32/SUB32
	.2byte	rv_back - rv_start		# ADD16/SUB16
	.byte	.Lfwd - .Lloop			# ADD8/SUB8
	.byte	0
	.8byte	rv_back - .Lpc1			# ADD64/SUB64
	.4byte	0
	.reloc	.-4, R_RISCV_32_PCREL, far_func	# 32_PCREL
	.byte	0xc0
	.reloc	.-1, R_RISCV_SET6, abs_val
	.reloc	.-1, R_RISCV_SUB6, rv_start
	.byte	0
	.reloc	.-1, R_RISCV_SET8, abs_val
	.2byte	0
	.reloc	.-2, R_RISCV_SET16, abs_val
	.4byte	0
	.reloc	.-4, R_RISCV_SET32, abs_val

	.data
	.align	3
data_word:
	.8byte	rodata_word + 16
