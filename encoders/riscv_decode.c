/* RISC-V decoder and formatter, driven by the encoding table. Capstone 4 has
 * no RISC-V, so these serve ftv's reports. */
#include "encoders/riscv_table.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int rv_decode(uint32_t word, uint64_t pc, struct rv_insn *out)
{
	const struct rv_encoding *e = rv_encoding_of(word);

	/* ISA 1.5 "Base Instruction-Length Encoding": a parcel whose low two
	 * bits are not 11 is a 16-bit (compressed) instruction. Longer
	 * encodings (bits [4:2] = 111) are outside the subset and decode as
	 * unknown 4-byte words. */
	memset(out, 0, sizeof(*out));
	out->nbytes = (word & 3) == 3 ? 4 : 2;
	out->word = out->nbytes == 2 ? word & 0xffff : word;
	out->pc = pc;
	out->op = RV_OP__COUNT;
	if (!e)
		return -1;
	word = out->word;
	out->op = e->op;
	out->name = e->name;
	out->fields = rv_form_fields(e->form);
	if (out->fields & RV_F_RD)
		out->rd = (word >> RV_RD_SHIFT) & 31;
	if (out->fields & RV_F_RS1)
		out->rs1 = (word >> RV_RS1_SHIFT) & 31;
	if (out->fields & RV_F_RS2)
		out->rs2 = (word >> RV_RS2_SHIFT) & 31;
	out->imm = rv_imm_gather(e->imm, word);
	if (out->fields & RV_F_TARGET)
		out->target = pc + (uint64_t)out->imm;
	/* A FENCE ordering nothing before or nothing after (an empty pred
	 * or succ set) has no GNU as spelling: left unknown. */
	if (e->form == RV_FORM_FENCE && (!(out->imm >> 4) || !(out->imm & 15))) {
		out->op = RV_OP__COUNT;
		out->name = NULL;
		return -1;
	}
	return 0;
}

/* FENCE's pred or succ set as GNU as spells it: "iorw" order. */
static void fence_set(unsigned v, char *buf)
{
	static const char bits[4] = { 'i', 'o', 'r', 'w' };
	int n = 0;

	for (int i = 0; i < 4; i++)
		if (v & (8u >> i))
			buf[n++] = bits[i];
	buf[n] = 0;
}

int rv_format(const struct rv_insn *in, char *buf, size_t n)
{
	const struct rv_encoding *e = in ? rv_encoding_by_op(in->op) : NULL;
	const char *rd, *rs1, *rs2;
	int len = -1;

	if (!e || !buf || !n)
		return -1;
	rd = rv_reg_name(in->rd);
	rs1 = rv_reg_name(in->rs1);
	rs2 = rv_reg_name(in->rs2);
	if (!rd || !rs1 || !rs2)
		return -1;
	switch (e->form) {
	case RV_FORM_NONE:
		len = snprintf(buf, n, "%s", e->name);
		break;
	case RV_FORM_U:
		/* GNU as takes and objdump prints the 20-bit field unsigned. */
		len = snprintf(buf, n, "%s %s, 0x%" PRIx64, e->name, rd,
			       (uint64_t)in->imm & 0xfffff);
		break;
	case RV_FORM_J:
		len = snprintf(buf, n, "%s %s, 0x%" PRIx64, e->name, rd,
			       in->target);
		break;
	case RV_FORM_I:
		len = snprintf(buf, n, "%s %s, %s, %" PRId64, e->name, rd, rs1,
			       in->imm);
		break;
	case RV_FORM_JALR:
	case RV_FORM_LOAD:
		len = snprintf(buf, n, "%s %s, %" PRId64 "(%s)", e->name, rd,
			       in->imm, rs1);
		break;
	case RV_FORM_STORE:
		len = snprintf(buf, n, "%s %s, %" PRId64 "(%s)", e->name, rs2,
			       in->imm, rs1);
		break;
	case RV_FORM_B:
		len = snprintf(buf, n, "%s %s, %s, 0x%" PRIx64, e->name, rs1, rs2,
			       in->target);
		break;
	case RV_FORM_FENCE: {
		char p[8], q[8];

		fence_set((unsigned)(in->imm >> 4) & 15, p);
		fence_set((unsigned)in->imm & 15, q);
		len = snprintf(buf, n, "%s %s, %s", e->name, p, q);
		break;
	}
	}
	return len < 0 || (size_t)len >= n ? -1 : len;
}

int rv_disasm(uint32_t word, uint64_t pc, char *buf, size_t n, int *nbytes)
{
	struct rv_insn in;
	int known = rv_decode(word, pc, &in);

	if (nbytes)
		*nbytes = in.nbytes;
	if (!known && rv_format(&in, buf, n) >= 0)
		return 0;
	if (n)
		snprintf(buf, n, in.nbytes == 2 ? ".insn 0x%04" PRIx32
			 : ".insn 0x%08" PRIx32, in.word);
	return -1;
}
