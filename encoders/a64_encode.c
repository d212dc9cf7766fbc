/* The encoder: one struct a64_insn in, one checked word out. Every field is
 * validated against its architectural range; nothing is ever truncated. */
#include "encoders/a64.h"
#include "encoders/a64_internal.h"

#include <inttypes.h>

#define KiB (1LL << 10)
#define MiB (1LL << 20)

static int check_reg(const struct a64_desc *d, unsigned r, const char *what,
		     struct ftv_err *err)
{
	if (r > 31)
		return ftv_errf(err, "%s: register %s number %u is not 0..31", d->name,
				what, r);
	return 0;
}

static int check_uimm(const struct a64_desc *d, int64_t v, int64_t max,
		      const char *what, struct ftv_err *err)
{
	if (v < 0 || v > max)
		return ftv_errf(err, "%s: %s %" PRId64 " is out of range 0..%" PRId64,
				d->name, what, v, max);
	return 0;
}

/* A pc-relative byte offset to target: `align` (1 or 4) divides it and
 * -limit <= off < limit (Arm ARM: imm26/imm19/imm14 are signed word counts,
 * imm21 a signed byte count). */
static int pcrel(const struct a64_desc *d, uint64_t pc, uint64_t target, int64_t align,
		 int64_t limit, const char *limit_text, int64_t *off, struct ftv_err *err)
{
	int64_t o = (int64_t)(target - pc);

	if (o % align)
		return ftv_errf(err, "%s: target 0x%" PRIx64 " is not 4-byte aligned "
				"(pc 0x%" PRIx64 ")", d->name, target, pc);
	if (o < -limit || o >= limit)
		return ftv_errf(err, "%s: target 0x%" PRIx64 " is out of range from pc 0x%"
				PRIx64 " (offset %+" PRId64 ", limit +/-%s)", d->name,
				target, pc, o, limit_text);
	*off = o;
	return 0;
}

int a64_encode(const struct a64_insn *in, uint32_t *word, struct ftv_err *err)
{
	if ((int)in->id < 0 || in->id >= A64_NR_INSNS)
		return ftv_errf(err, "no such instruction (id %d)", (int)in->id);

	const struct a64_desc *d = &a64_descs[in->id];
	uint32_t w = d->value, sf = in->is64 ? 1u : 0u;
	int64_t off;
	unsigned n, immr, imms;

	switch (d->form) {
	case A64_FORM_NONE:
		break;
	case A64_FORM_HINT:
		if (check_uimm(d, in->imm, 127, "hint number", err))
			return -1;
		w |= (uint32_t)in->imm << 5;
		break;
	case A64_FORM_BTI:
		if (check_uimm(d, in->imm, 3, "target selector", err))
			return -1;
		w |= (uint32_t)in->imm << 6;
		break;
	case A64_FORM_BARRIER:
		if (check_uimm(d, in->imm, 15, "option", err))
			return -1;
		/* C6.2.90: DSB with CRm 0000/0100 is SSBB/PSSBB, not a DSB */
		if (in->id == A64_DSB && (in->imm == 0 || in->imm == 4))
			return ftv_errf(err, "dsb: option #%" PRId64 " encodes %s, not a DSB",
					in->imm, in->imm ? "pssbb" : "ssbb");
		w |= (uint32_t)in->imm << 8;
		break;
	case A64_FORM_ISB:
		if (check_uimm(d, in->imm, 15, "option", err))
			return -1;
		w |= (uint32_t)in->imm << 8;
		break;
	case A64_FORM_BRANCH26:
		if (pcrel(d, in->pc, in->target, 4, 128 * MiB, "128 MiB", &off, err))
			return -1;
		w |= ((uint32_t)(off >> 2)) & 0x3ffffff;
		break;
	case A64_FORM_COND19:
		if (in->cond > 15)
			return ftv_errf(err, "b.cond: condition %u is not 0..15", in->cond);
		if (pcrel(d, in->pc, in->target, 4, 1 * MiB, "1 MiB", &off, err))
			return -1;
		w |= (((uint32_t)(off >> 2)) & 0x7ffff) << 5 | in->cond;
		break;
	case A64_FORM_CB19:
		if (check_reg(d, in->rd, "Rt", err) ||
		    pcrel(d, in->pc, in->target, 4, 1 * MiB, "1 MiB", &off, err))
			return -1;
		w |= sf << 31 | (((uint32_t)(off >> 2)) & 0x7ffff) << 5 | in->rd;
		break;
	case A64_FORM_TB14:
		if (check_reg(d, in->rd, "Rt", err))
			return -1;
		if (in->bit > (in->is64 ? 63 : 31))
			return ftv_errf(err, "%s: bit #%u is out of range 0..%d for a %s register",
					d->name, in->bit, in->is64 ? 63 : 31,
					in->is64 ? "64-bit" : "32-bit");
		if (pcrel(d, in->pc, in->target, 4, 32 * KiB, "32 KiB", &off, err))
			return -1;
		w |= (uint32_t)(in->bit >> 5) << 31 | (uint32_t)(in->bit & 31) << 19 |
		     (((uint32_t)(off >> 2)) & 0x3fff) << 5 | in->rd;
		break;
	case A64_FORM_RN:
	case A64_FORM_RET:
		if (check_reg(d, in->rn, "Rn", err))
			return -1;
		w |= (uint32_t)in->rn << 5;
		break;
	case A64_FORM_IMM16:
		if (check_uimm(d, in->imm, 0xffff, "immediate", err))
			return -1;
		w |= (uint32_t)in->imm << 5;
		break;
	case A64_FORM_SYS_XT:
		if (check_reg(d, in->rd, "Xt", err))
			return -1;
		w |= in->rd;
		break;
	case A64_FORM_MOV_REG:
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rm, "Rm", err))
			return -1;
		w |= sf << 31 | (uint32_t)in->rm << 16 | in->rd;
		break;
	case A64_FORM_MOVW:
		if (check_reg(d, in->rd, "Rd", err) ||
		    check_uimm(d, in->imm, 0xffff, "immediate", err))
			return -1;
		/* C6.2.218: hw is 0..3 for X registers, 0..1 for W */
		if (in->shift % 16 || in->shift >= (in->is64 ? 64 : 32))
			return ftv_errf(err, "%s: shift lsl #%u is not one of 0, 16%s", d->name,
					in->shift, in->is64 ? ", 32, 48" : "");
		w |= sf << 31 | (uint32_t)(in->shift / 16) << 21 | (uint32_t)in->imm << 5 |
		     in->rd;
		break;
	case A64_FORM_ADR:
		if (check_reg(d, in->rd, "Rd", err) ||
		    pcrel(d, in->pc, in->target, 1, 1 * MiB, "1 MiB", &off, err))
			return -1;
		w |= ((uint32_t)off & 3) << 29 | (((uint32_t)(off >> 2)) & 0x7ffff) << 5 | in->rd;
		break;
	case A64_FORM_ADRP: {
		/* C6.2.11: the offset counts 4 KiB pages from the pc's page */
		int64_t pages = (int64_t)((in->target & ~0xfffULL) - (in->pc & ~0xfffULL)) / 4096;

		if (check_reg(d, in->rd, "Rd", err))
			return -1;
		if (pages < -(1LL << 20) || pages >= (1LL << 20))
			return ftv_errf(err, "adrp: target 0x%" PRIx64 " is out of range from pc 0x%"
					PRIx64 " (%+" PRId64 " pages, limit +/-4 GiB)",
					in->target, in->pc, pages);
		w |= ((uint32_t)pages & 3) << 29 | (((uint32_t)(pages >> 2)) & 0x7ffff) << 5 |
		     in->rd;
		break;
	}
	case A64_FORM_ADDSUB_IMM:
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rn, "Rn", err) ||
		    check_uimm(d, in->imm, 4095, "immediate", err))
			return -1;
		if (in->shift != 0 && in->shift != 12)
			return ftv_errf(err, "%s: shift lsl #%u is not 0 or 12", d->name, in->shift);
		w |= sf << 31 | (in->shift ? 1u : 0u) << 22 | (uint32_t)in->imm << 10 |
		     (uint32_t)in->rn << 5 | in->rd;
		break;
	case A64_FORM_LOGIC_IMM:
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rn, "Rn", err))
			return -1;
		if (a64_bitmask_encode((uint64_t)in->imm, in->is64, &n, &immr, &imms))
			return ftv_errf(err, "%s: #0x%" PRIx64 " is not a %d-bit logical immediate",
					d->name, (uint64_t)in->imm, in->is64 ? 64 : 32);
		w |= sf << 31 | n << 22 | immr << 16 | imms << 10 | (uint32_t)in->rn << 5 |
		     in->rd;
		break;
	case A64_FORM_LDR_LIT:
		if (check_reg(d, in->rd, "Rt", err) ||
		    pcrel(d, in->pc, in->target, 4, 1 * MiB, "1 MiB", &off, err))
			return -1;
		w |= sf << 30 | (((uint32_t)(off >> 2)) & 0x7ffff) << 5 | in->rd;
		break;
	case A64_FORM_LDST_UIMM: {
		/* C6.2.166: imm12 is scaled by the access size */
		int64_t scale = in->is64 ? 8 : 4;

		if (check_reg(d, in->rd, "Rt", err) || check_reg(d, in->rn, "Rn", err))
			return -1;
		if (in->imm < 0 || in->imm % scale || in->imm / scale > 4095)
			return ftv_errf(err, "%s: offset #%" PRId64 " is not a multiple of %"
					PRId64 " in 0..%" PRId64, d->name, in->imm, scale,
					4095 * scale);
		w |= sf << 30 | (uint32_t)(in->imm / scale) << 10 | (uint32_t)in->rn << 5 |
		     in->rd;
		break;
	}
	case A64_FORM_LDST_ORDERED:
		if (check_reg(d, in->rd, "Rt", err) || check_reg(d, in->rn, "Rn", err))
			return -1;
		if (in->imm)
			return ftv_errf(err, "%s: no offset but #0", d->name);
		w |= sf << 30 | (uint32_t)in->rn << 5 | in->rd;
		break;
	case A64_FORM_LDST_SIMM9:
		if (check_reg(d, in->rd, "Rt", err) || check_reg(d, in->rn, "Rn", err))
			return -1;
		if (in->imm < -256 || in->imm > 255)
			return ftv_errf(err, "%s: offset #%" PRId64 " is out of range -256..255",
					d->name, in->imm);
		w |= sf << 30 | ((uint32_t)in->imm & 0x1ff) << 12 | (uint32_t)in->rn << 5 |
		     in->rd;
		break;
	case A64_FORM_SHIFTED_REG:
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rn, "Rn", err) ||
		    check_reg(d, in->rm, "Rm", err) ||
		    check_uimm(d, in->imm,
			       in->id == A64_EOR_REG || in->id == A64_AND_REG ? A64_ROR : A64_ASR,
			       "shift type", err))
			return -1;
		/* imm6<5> must be 0 for a 32-bit register (Arm ARM C6.2 ADD
		 * (shifted register): "sf == 0 && imm6<5> == 1" is UNDEFINED) */
		if (in->shift > (in->is64 ? 63 : 31))
			return ftv_errf(err, "%s: shift amount #%u is out of range 0..%d", d->name,
					in->shift, in->is64 ? 63 : 31);
		w |= sf << 31 | (uint32_t)in->imm << 22 | (uint32_t)in->rm << 16 |
		     (uint32_t)in->shift << 10 | (uint32_t)in->rn << 5 | in->rd;
		break;
	case A64_FORM_CSEL:
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rn, "Rn", err) ||
		    check_reg(d, in->rm, "Rm", err))
			return -1;
		if (in->cond > 15)
			return ftv_errf(err, "%s: condition %u is not 0..15", d->name, in->cond);
		w |= sf << 31 | (uint32_t)in->rm << 16 | (uint32_t)in->cond << 12 |
		     (uint32_t)in->rn << 5 | in->rd;
		break;
	case A64_FORM_LDST_REG: {
		/* C6.2.168: option 010 UXTW, 011 LSL (UXTX), 110 SXTW, 111 SXTX;
		 * S scales the index by the access size (amount 2 or 3) */
		unsigned amount = in->is64 ? 3 : 2;

		if (check_reg(d, in->rd, "Rt", err) || check_reg(d, in->rn, "Rn", err) ||
		    check_reg(d, in->rm, "Rm", err))
			return -1;
		if (in->imm != 2 && in->imm != 3 && in->imm != 6 && in->imm != 7)
			return ftv_errf(err, "%s: extend option %" PRId64 " is not uxtw, lsl, sxtw "
					"or sxtx", d->name, in->imm);
		if (in->shift != 0 && in->shift != amount)
			return ftv_errf(err, "%s: shift #%u is not 0 or %u", d->name, in->shift,
					amount);
		w |= sf << 30 | (uint32_t)in->rm << 16 | (uint32_t)in->imm << 13 |
		     (in->shift ? 1u : 0u) << 12 | (uint32_t)in->rn << 5 | in->rd;
		break;
	}
	case A64_FORM_EXT_REG:
		/* option 0..7 (UXTB..SXTX), a left shift of 0..4 after it;
		 * imm3 above 4 is reserved */
		if (check_reg(d, in->rd, "Rd", err) || check_reg(d, in->rn, "Rn", err) ||
		    check_reg(d, in->rm, "Rm", err) || check_uimm(d, in->imm, 7, "extend", err) ||
		    check_uimm(d, in->shift, 4, "shift amount", err))
			return -1;
		w |= sf << 31 | (uint32_t)in->rm << 16 | (uint32_t)in->imm << 13 |
		     (uint32_t)in->shift << 10 | (uint32_t)in->rn << 5 | in->rd;
		break;
	case A64_FORM_UDF:
		if (check_uimm(d, in->imm, 0xffff, "immediate", err))
			return -1;
		w |= (uint32_t)in->imm;
		break;
	default:
		return ftv_errf(err, "%s: form %d cannot be encoded", d->name, (int)d->form);
	}
	*word = w;
	return 0;
}

uint32_t a64_gen_nop(void)
{
	return a64_descs[A64_NOP].value;
}

/* Both are total: every targets value and every imm16 encode, so the
 * encoder cannot refuse them (and a64_encode leaves *word untouched if it
 * ever did, which would show as the BRK #0 below). */
uint32_t a64_gen_bti(enum a64_bti_targets targets)
{
	struct a64_insn in = { .id = A64_BTI, .imm = targets & 3 };
	uint32_t w = a64_descs[A64_BRK].value;

	a64_encode(&in, &w, NULL);
	return w;
}

uint32_t a64_gen_brk(uint16_t imm)
{
	struct a64_insn in = { .id = A64_BRK, .imm = imm };
	uint32_t w = a64_descs[A64_BRK].value;

	a64_encode(&in, &w, NULL);
	return w;
}

int a64_gen_branch(uint64_t pc, uint64_t target, int link, uint32_t *word,
		   struct ftv_err *err)
{
	struct a64_insn in = { .id = link ? A64_BL : A64_B, .pc = pc, .target = target };

	return a64_encode(&in, word, err);
}

int a64_gen_mov_reg(unsigned rd, unsigned rm, uint32_t *word, struct ftv_err *err)
{
	struct a64_insn in = { .id = A64_MOV, .is64 = true };

	if (rd > 31 || rm > 31)
		return ftv_errf(err, "mov: register numbers %u, %u are not 0..31", rd, rm);
	in.rd = (uint8_t)rd;
	in.rm = (uint8_t)rm;
	return a64_encode(&in, word, err);
}

int a64_gen_ldr_literal(uint64_t pc, uint64_t target, unsigned rt, uint32_t *word,
			struct ftv_err *err)
{
	struct a64_insn in = { .id = A64_LDR_LIT, .is64 = true, .pc = pc, .target = target };

	if (rt > 31)
		return ftv_errf(err, "ldr: register number %u is not 0..31", rt);
	in.rd = (uint8_t)rt;
	return a64_encode(&in, word, err);
}

int a64_gen_adrp(uint64_t pc, uint64_t target, unsigned rd, uint32_t *word,
		 struct ftv_err *err)
{
	struct a64_insn in = { .id = A64_ADRP, .is64 = true, .pc = pc, .target = target };

	if (rd > 31)
		return ftv_errf(err, "adrp: register number %u is not 0..31", rd);
	in.rd = (uint8_t)rd;
	return a64_encode(&in, word, err);
}
