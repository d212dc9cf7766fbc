/* The formatter: objdump's preferred disassembly of a decoded instruction,
 * with pc-relative targets as absolute addresses. a64_assemble accepts all
 * of it back. */
#include "encoders/a64.h"
#include "encoders/a64_internal.h"

#include <inttypes.h>
#include <stdio.h>

#define R(r, is64, sp) a64_reg_name(r, is64, sp)

static uint64_t width_mask(bool is64)
{
	return is64 ? ~0ULL : 0xffffffffULL;
}

static int fmt_movw(const struct a64_insn *in, const char *name, char *buf, size_t n)
{
	const char *rd = R(in->rd, in->is64, false);
	uint64_t v = (uint64_t)in->imm << in->shift;

	/* C6.2.213 / C6.2.211: MOV (wide / inverted wide immediate) is the
	 * preferred disassembly unless imm16 is zero with a nonzero shift, and
	 * (MOVN, 32-bit) unless imm16 is all ones. */
	bool alias = !(in->imm == 0 && in->shift != 0);

	if (in->id == A64_MOVN) {
		alias = alias && (in->is64 || in->imm != 0xffff);
		v = ~v;
	}
	if (in->id != A64_MOVK && alias)
		return snprintf(buf, n, "mov %s, #0x%" PRIx64, rd, v & width_mask(in->is64));
	if (in->shift)
		return snprintf(buf, n, "%s %s, #0x%" PRIx64 ", lsl #%u", name, rd,
				(uint64_t)in->imm, in->shift);
	return snprintf(buf, n, "%s %s, #0x%" PRIx64, name, rd, (uint64_t)in->imm);
}

static int fmt_mem(const struct a64_insn *in, const char *name, char *buf, size_t n)
{
	const char *rt = R(in->rd, in->is64, false), *rn = R(in->rn, true, true);

	if (!in->imm)
		return snprintf(buf, n, "%s %s, [%s]", name, rt, rn);
	return snprintf(buf, n, "%s %s, [%s, #%" PRId64 "]", name, rt, rn, in->imm);
}

int a64_format(const struct a64_insn *in, char *buf, size_t n)
{
	if ((int)in->id < 0 || in->id >= A64_NR_INSNS)
		return -1;

	const struct a64_desc *d = &a64_descs[in->id];
	const char *name = d->name;
	static const char *const bti[4] = { "bti", "bti c", "bti j", "bti jc" };

	switch (d->form) {
	case A64_FORM_NONE:
		return snprintf(buf, n, "%s", name);
	case A64_FORM_HINT:
		return snprintf(buf, n, "hint #0x%" PRIx64, in->imm);
	case A64_FORM_BTI:
		return snprintf(buf, n, "%s", bti[in->imm & 3]);
	case A64_FORM_BARRIER:
		if (a64_barrier_names[in->imm & 15])
			return snprintf(buf, n, "%s %s", name, a64_barrier_names[in->imm & 15]);
		return snprintf(buf, n, "%s #0x%" PRIx64, name, in->imm);
	case A64_FORM_ISB:
		if (in->imm == 15)
			return snprintf(buf, n, "isb");
		return snprintf(buf, n, "isb #0x%" PRIx64, in->imm);
	case A64_FORM_BRANCH26:
		return snprintf(buf, n, "%s 0x%" PRIx64, name, in->target);
	case A64_FORM_COND19:
		return snprintf(buf, n, "b.%s 0x%" PRIx64, a64_cond_names[in->cond & 15],
				in->target);
	case A64_FORM_CB19:
	case A64_FORM_LDR_LIT:
		return snprintf(buf, n, "%s %s, 0x%" PRIx64, name, R(in->rd, in->is64, false),
				in->target);
	case A64_FORM_TB14:
		return snprintf(buf, n, "%s %s, #%u, 0x%" PRIx64, name,
				R(in->rd, in->bit >= 32, false), in->bit, in->target);
	case A64_FORM_RN:
		return snprintf(buf, n, "%s %s", name, R(in->rn, true, false));
	case A64_FORM_RET:
		if (in->rn == 30)
			return snprintf(buf, n, "ret");
		return snprintf(buf, n, "ret %s", R(in->rn, true, false));
	case A64_FORM_IMM16:
		return snprintf(buf, n, "%s #0x%" PRIx64, name, in->imm);
	case A64_FORM_SYS_XT:
		return snprintf(buf, n, "%s, %s", name, R(in->rd, true, false));
	case A64_FORM_MOV_REG:
		return snprintf(buf, n, "mov %s, %s", R(in->rd, in->is64, false),
				R(in->rm, in->is64, false));
	case A64_FORM_MOVW:
		return fmt_movw(in, name, buf, n);
	case A64_FORM_ADR:
	case A64_FORM_ADRP:
		return snprintf(buf, n, "%s %s, 0x%" PRIx64, name, R(in->rd, true, false),
				in->target);
	case A64_FORM_ADDSUB_IMM: {
		/* ADDS/SUBS set flags and write ZR, not SP, as Rd 31 */
		bool flags = in->id == A64_ADDS || in->id == A64_SUBS;
		const char *lsl = in->shift ? ", lsl #12" : "";

		/* C6.2.210: ADD #0 with SP as Rd or Rn is MOV (to/from SP) */
		if (in->id == A64_ADD && !in->imm && !in->shift && (in->rd == 31 || in->rn == 31))
			return snprintf(buf, n, "mov %s, %s", R(in->rd, in->is64, true),
					R(in->rn, in->is64, true));
		/* CMP/CMN (immediate) are the preferred disassembly of
		 * SUBS/ADDS with Rd = ZR */
		if (flags && in->rd == 31)
			return snprintf(buf, n, "%s %s, #%" PRId64 "%s",
					in->id == A64_SUBS ? "cmp" : "cmn",
					R(in->rn, in->is64, true), in->imm, lsl);
		return snprintf(buf, n, "%s %s, %s, #%" PRId64 "%s", name,
				R(in->rd, in->is64, !flags), R(in->rn, in->is64, true), in->imm,
				lsl);
	}
	case A64_FORM_SHIFTED_REG: {
		static const char *const sh[4] = { "lsl", "lsr", "asr", "ror" };
		char tail[24] = "";

		/* objdump omits only "lsl #0" */
		if (in->imm || in->shift)
			snprintf(tail, sizeof(tail), ", %s #%u", sh[in->imm & 3], in->shift);
		/* NEG (shifted register) is the preferred disassembly of SUB
		 * with Rn = ZR */
		if (in->id == A64_SUB_REG && in->rn == 31)
			return snprintf(buf, n, "neg %s, %s%s", R(in->rd, in->is64, false),
					R(in->rm, in->is64, false), tail);
		/* CMP/CMN (shifted register): SUBS/ADDS with Rd = ZR; NEGS:
		 * SUBS with Rn = ZR */
		if ((in->id == A64_SUBS_REG || in->id == A64_ADDS_REG) && in->rd == 31)
			return snprintf(buf, n, "%s %s, %s%s",
					in->id == A64_SUBS_REG ? "cmp" : "cmn",
					R(in->rn, in->is64, false), R(in->rm, in->is64, false),
					tail);
		if (in->id == A64_SUBS_REG && in->rn == 31)
			return snprintf(buf, n, "negs %s, %s%s", R(in->rd, in->is64, false),
					R(in->rm, in->is64, false), tail);
		return snprintf(buf, n, "%s %s, %s, %s%s", name, R(in->rd, in->is64, false),
				R(in->rn, in->is64, false), R(in->rm, in->is64, false), tail);
	}
	case A64_FORM_LOGIC_IMM:
		return snprintf(buf, n, "%s %s, %s, #0x%" PRIx64, name, R(in->rd, in->is64, true),
				R(in->rn, in->is64, false), (uint64_t)in->imm);
	case A64_FORM_LDST_UIMM:
	case A64_FORM_LDST_SIMM9:
	case A64_FORM_LDST_ORDERED:
		return fmt_mem(in, name, buf, n);
	case A64_FORM_CSEL: {
		const char *rd = R(in->rd, in->is64, false), *rn = R(in->rn, in->is64, false);
		const char *inv = a64_cond_names[(in->cond ^ 1) & 15];

		/* C6.2.70 CSET, C6.2.68 CINC: the preferred disassembly of CSINC
		 * with Rn = Rm (both ZR for CSET) and a condition other than AL, NV */
		if (in->id == A64_CSINC && in->rn == in->rm && (in->cond & 14) != 14) {
			if (in->rn == 31)
				return snprintf(buf, n, "cset %s, %s", rd, inv);
			return snprintf(buf, n, "cinc %s, %s, %s", rd, rn, inv);
		}
		return snprintf(buf, n, "%s %s, %s, %s, %s", name, rd, rn,
				R(in->rm, in->is64, false), a64_cond_names[in->cond & 15]);
	}
	case A64_FORM_LDST_REG: {
		static const char *const ext[8] = { [2] = "uxtw", [3] = "lsl", [6] = "sxtw",
						    [7] = "sxtx" };
		/* the index is a W register for the 32-bit extends */
		const char *rm = R(in->rm, (in->imm & 3) == 3, false);
		const char *rt = R(in->rd, in->is64, false), *rn = R(in->rn, true, true);

		if (in->imm == 3 && !in->shift)
			return snprintf(buf, n, "%s %s, [%s, %s]", name, rt, rn, rm);
		if (!in->shift)
			return snprintf(buf, n, "%s %s, [%s, %s, %s]", name, rt, rn, rm,
					ext[in->imm & 7]);
		return snprintf(buf, n, "%s %s, [%s, %s, %s #%u]", name, rt, rn, rm,
				ext[in->imm & 7], in->shift);
	}
	case A64_FORM_EXT_REG: {
		static const char *const ext[8] = { "uxtb", "uxth", "uxtw", "uxtx",
						    "sxtb", "sxth", "sxtw", "sxtx" };
		/* Rm is an X register for UXTX/SXTX of X registers only; with SP as Rd or Rn,
		 * UXTX (UXTW for W) is spelt LSL, and omitted with #0 (C6.2.3) */
		const char *rm = R(in->rm, (in->imm & 3) == 3 && in->is64, false);
		bool lsl = (in->rd == 31 || in->rn == 31) && in->imm == (in->is64 ? 3 : 2);
		char tail[24];

		if (lsl && !in->shift)
			tail[0] = 0;
		else if (lsl || in->shift)
			snprintf(tail, sizeof(tail), ", %s #%u", lsl ? "lsl" : ext[in->imm & 7],
				 in->shift);
		else
			snprintf(tail, sizeof(tail), ", %s", ext[in->imm & 7]);
		return snprintf(buf, n, "%s %s, %s, %s%s", name, R(in->rd, in->is64, true),
				R(in->rn, in->is64, true), rm, tail);
	}
	case A64_FORM_UDF:
		return snprintf(buf, n, "udf #%" PRId64, in->imm);
	default:
		return -1;
	}
}
