# A local label placed past the end of its section and used with a
# negative addend, as GCC emits section anchors in riscv64
# kernel/trace/ftrace.o (`.set .LANCHOR6, . + 4096` after .rodata). The
# loader must accept it and relocate .LANCHOR_end-4096-8 to table+8; an
# addend that leaves the section is refused (tests/test_riscv64_loader.c).
	.section .rodata
	.balign 8
table:
	.quad 0x1111111111111111
	.quad 0x2222222222222222
	.set .LANCHOR_end, . + 4096

	.data
	.balign 8
	.globl anchor_ptr
anchor_ptr:
	.quad .LANCHOR_end - 4096 - 8
