/* The decoder: which table line a word is, and its operands. */
#include "encoders/a64.h"
#include "encoders/a64_internal.h"

#include <string.h>

static void decode_fields(uint32_t w, const struct a64_desc *d, struct a64_insn *o)
{
	uint64_t pc = o->pc;

	switch (d->form) {
	case A64_FORM_NONE:
		break;
	case A64_FORM_HINT:
		o->imm = (w >> 5) & 0x7f;
		break;
	case A64_FORM_BTI:
		o->imm = (w >> 6) & 3;
		break;
	case A64_FORM_BARRIER:
	case A64_FORM_ISB:
		o->imm = (w >> 8) & 15;
		break;
	case A64_FORM_BRANCH26:
		o->imm = a64_sext(w & 0x3ffffff, 26) * 4;
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_COND19:
		o->cond = w & 15;
		o->imm = a64_sext((w >> 5) & 0x7ffff, 19) * 4;
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_CB19:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->imm = a64_sext((w >> 5) & 0x7ffff, 19) * 4;
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_TB14:
		/* C6.2.375: b5 selects Xt (bit >= 32) or Wt */
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->bit = (uint8_t)((w >> 31) << 5 | ((w >> 19) & 31));
		o->imm = a64_sext((w >> 5) & 0x3fff, 14) * 4;
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_RN:
	case A64_FORM_RET:
		o->is64 = true;
		o->rn = (w >> 5) & 31;
		break;
	case A64_FORM_IMM16:
		o->imm = (w >> 5) & 0xffff;
		break;
	case A64_FORM_SYS_XT:
		o->is64 = true;
		o->rd = w & 31;
		break;
	case A64_FORM_MOV_REG:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rm = (w >> 16) & 31;
		break;
	case A64_FORM_MOVW:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->shift = (uint8_t)(((w >> 21) & 3) * 16);
		o->imm = (w >> 5) & 0xffff;
		break;
	case A64_FORM_ADR:
		o->is64 = true;
		o->rd = w & 31;
		o->imm = a64_sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21);
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_ADRP:
		o->is64 = true;
		o->rd = w & 31;
		o->imm = a64_sext(((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3), 21) * 4096;
		o->target = (pc & ~0xfffULL) + (uint64_t)o->imm;
		break;
	case A64_FORM_ADDSUB_IMM:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->shift = (w >> 22) & 1 ? 12 : 0;
		o->imm = (w >> 10) & 0xfff;
		break;
	case A64_FORM_LOGIC_IMM: {
		uint64_t v = 0;

		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		/* a reserved N:immr:imms leaves imm 0, which does not re-encode */
		if (!a64_bitmask_decode((w >> 22) & 1, (w >> 16) & 0x3f, (w >> 10) & 0x3f,
					o->is64, &v))
			o->imm = (int64_t)v;
		break;
	}
	case A64_FORM_LDR_LIT:
		o->is64 = (w >> 30) & 1;
		o->rd = w & 31;
		o->imm = a64_sext((w >> 5) & 0x7ffff, 19) * 4;
		o->target = pc + (uint64_t)o->imm;
		break;
	case A64_FORM_LDST_UIMM:
		o->is64 = (w >> 30) & 1;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->imm = (int64_t)((w >> 10) & 0xfff) * (o->is64 ? 8 : 4);
		break;
	case A64_FORM_LDST_ORDERED:
		o->is64 = (w >> 30) & 1;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->imm = 0;
		break;
	case A64_FORM_LDST_SIMM9:
		o->is64 = (w >> 30) & 1;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->imm = a64_sext((w >> 12) & 0x1ff, 9);
		break;
	case A64_FORM_SHIFTED_REG:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->rm = (w >> 16) & 31;
		o->shift = (w >> 10) & 63;
		o->imm = (w >> 22) & 3;
		break;
	case A64_FORM_CSEL:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->rm = (w >> 16) & 31;
		o->cond = (w >> 12) & 15;
		break;
	case A64_FORM_LDST_REG:
		o->is64 = (w >> 30) & 1;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->rm = (w >> 16) & 31;
		o->imm = (w >> 13) & 7;
		o->shift = (w >> 12) & 1 ? (o->is64 ? 3 : 2) : 0;
		break;
	case A64_FORM_EXT_REG:
		o->is64 = w >> 31;
		o->rd = w & 31;
		o->rn = (w >> 5) & 31;
		o->rm = (w >> 16) & 31;
		o->imm = (w >> 13) & 7;
		o->shift = (w >> 10) & 7;
		break;
	case A64_FORM_UDF:
		o->imm = w & 0xffff;
		break;
	default:
		break;
	}
}

int a64_decode(uint32_t word, uint64_t pc, struct a64_insn *out)
{
	enum a64_id id = a64_lookup(word);
	uint32_t again;

	memset(out, 0, sizeof(*out));
	out->id = A64_UNKNOWN;
	out->word = word;
	out->pc = pc;
	if (id == A64_UNKNOWN)
		return -1;
	out->id = id;
	decode_fields(word, &a64_descs[id], out);
	/* Claim only canonical words: reserved or unallocated variants (a
	 * 32-bit MOVZ with hw >= 2, a reserved bitmask, DSB #0 = SSBB) do not
	 * re-encode to the same word and are left to Capstone. */
	if (a64_encode(out, &again, NULL) || again != word) {
		out->id = A64_UNKNOWN;
		return -1;
	}
	return 0;
}

int a64_branch_target(uint32_t word, uint64_t pc, uint64_t *target)
{
	struct a64_insn in;

	if (a64_decode(word, pc, &in) || !(a64_descs[in.id].flags & A64_BRANCH))
		return -1;
	*target = in.target;
	return 0;
}

int a64_pcrel_target(uint32_t word, uint64_t pc, uint64_t *target)
{
	struct a64_insn in;

	if (a64_decode(word, pc, &in) ||
	    !(a64_descs[in.id].flags & (A64_BRANCH | A64_PCREL)))
		return -1;
	*target = in.target;
	return 0;
}
