# Loaded as a module: its BRANCH to rv_start in the kernel text (relocs.s)
# spans tens of MiB, far beyond a conditional branch's +/-4 KiB. Written
# as a raw BEQ with an explicit relocation: GNU as would otherwise turn a
# branch to an undefined symbol into BNE + JAL.
	.text
	.globl	mod_func
	.type	mod_func, @function
mod_func:
	.reloc	., R_RISCV_BRANCH, rv_start
	.4byte	0x00b50063		# beq a0, a1, .
	ret
	.size	mod_func, .-mod_func
