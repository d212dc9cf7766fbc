// ADR reaches +/-1 MiB; .data is placed tens of MiB from .text, so the
// loader must refuse this with an overflow error naming the place.
	.text
	.globl	ovf_code
ovf_code:
	nop
	adr	x0, ovf_data
	ret
	.data
	.globl	ovf_data
ovf_data:
	.quad	0
