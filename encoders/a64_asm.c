/* The assembler: one line of GNU as syntax to one word. The mnemonic picks
 * the candidate table lines (and aliases); each candidate's form parses the
 * operands; the first that parses and encodes wins. Targets of branches,
 * literals and adr/adrp are absolute addresses, as objdump prints them. */
#include "util/str.h"
#include "encoders/a64.h"
#include "encoders/a64_internal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OPS 6
#define LINE_MAX_LEN 256

/* Result of a form's operand parser. */
enum { P_OK = 0, P_MISMATCH = 1, P_BAD = 2 };

struct ops {
	int n;
	char *v[MAX_OPS];
};

struct alias {
	const char *spelling;
	enum a64_id target;
	enum a64_form form;
};

static const struct alias aliases[] = {
#define A64_X_ALIAS(ID, SPELLING, TARGET, FORM) { SPELLING, A64_##TARGET, FORM },
	A64_ALIAS_TABLE(A64_X_ALIAS)
#undef A64_X_ALIAS
};

enum reg_kind { REG_GP, REG_SP, REG_ZR };

struct reg {
	unsigned num;
	bool is64;
	enum reg_kind kind;
};

/* Splits at commas outside brackets. */
static int split_ops(char *s, struct ops *o)
{
	int depth = 0;
	char *start = s;

	o->n = 0;
	if (!*ftv_trim(s))
		return 0;
	for (char *p = s;; p++) {
		if (*p == '[')
			depth++;
		else if (*p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			bool end = !*p;

			if (o->n == MAX_OPS)
				return -1;
			*p = 0;
			o->v[o->n++] = ftv_trim(start);
			if (!*o->v[o->n - 1])
				return -1;
			if (end)
				break;
			start = p + 1;
		}
	}
	return 0;
}

static int parse_reg(const char *s, struct reg *r)
{
	char *end;
	unsigned long v;

	if (!strcmp(s, "sp") || !strcmp(s, "wsp")) {
		*r = (struct reg){ 31, s[0] == 's', REG_SP };
		return 0;
	}
	/* GNU as accepts lr for x30 */
	if (!strcmp(s, "lr")) {
		*r = (struct reg){ 30, true, REG_GP };
		return 0;
	}
	if (!strcmp(s, "xzr") || !strcmp(s, "wzr")) {
		*r = (struct reg){ 31, s[0] == 'x', REG_ZR };
		return 0;
	}
	if ((s[0] != 'x' && s[0] != 'w') || !isdigit((unsigned char)s[1]))
		return -1;
	if (s[1] == '0' && s[2]) /* no "x05" */
		return -1;
	errno = 0;
	v = strtoul(s + 1, &end, 10);
	if (errno || *end || v > 30)
		return -1;
	*r = (struct reg){ (unsigned)v, s[0] == 'x', REG_GP };
	return 0;
}

/* A general register where 31 means SP (allow_sp) or ZR (otherwise). */
static int want_reg(const char *s, bool allow_sp, struct reg *r)
{
	if (parse_reg(s, r))
		return -1;
	if (r->kind == (allow_sp ? REG_ZR : REG_SP))
		return -1;
	return 0;
}

static int want_xreg(const char *s, bool allow_sp, unsigned *num)
{
	struct reg r;

	if (want_reg(s, allow_sp, &r) || !r.is64)
		return -1;
	*num = r.num;
	return 0;
}

/* An immediate: optional '#', then '-' or '~' (GNU as expressions of one
 * number), then a C-style number. The value wraps modulo 2^64. */
static int parse_imm(const char *s, bool need_hash, uint64_t *out)
{
	char *end;
	unsigned long long v;
	int neg = 0, inv = 0;

	if (*s == '#')
		s++;
	else if (need_hash)
		return -1;
	if (*s == '-')
		neg = 1, s++;
	else if (*s == '~')
		inv = 1, s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = neg ? 0 - (uint64_t)v : inv ? ~(uint64_t)v : (uint64_t)v;
	return 0;
}

/* An absolute target address (objdump prints them bare; Capstone with '#'). */
static int parse_target(const char *s, uint64_t *out)
{
	return parse_imm(s, false, out);
}

/* "lsl #n" */
static int parse_lsl(const char *s, unsigned *out)
{
	uint64_t v;

	if (strncmp(s, "lsl", 3) || !isspace((unsigned char)s[3]))
		return -1;
	if (parse_imm(ftv_trim((char *)s + 4), false, &v) || v > 63)
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* "lsl|lsr|asr|ror #n": *type is enum a64_shift */
static int parse_shift(const char *s, unsigned *type, unsigned *amount)
{
	static const char *const names[4] = { "lsl", "lsr", "asr", "ror" };
	uint64_t v;

	for (unsigned t = 0; t < 4; t++) {
		if (strncmp(s, names[t], 3) || !isspace((unsigned char)s[3]))
			continue;
		if (parse_imm(ftv_trim((char *)s + 4), false, &v) || v > 63)
			return -1;
		*type = t;
		*amount = (unsigned)v;
		return 0;
	}
	return -1;
}

/* The flag-setting partner of an ADD/SUB (immediate) with the opposite
 * operation: GNU as turns a negative immediate into it. */
static enum a64_id addsub_flip(enum a64_id id)
{
	switch (id) {
	case A64_ADD:
		return A64_SUB;
	case A64_SUB:
		return A64_ADD;
	case A64_ADDS:
		return A64_SUBS;
	default:
		return A64_ADDS;
	}
}

/* "[xn|sp]" or "[xn|sp, #imm]"; writeback and register offsets are not
 * supported and do not match. */
static int parse_mem(char *s, unsigned *rn, int64_t *imm)
{
	size_t len = strlen(s);
	struct ops o;
	uint64_t v = 0;

	if (len < 3 || s[0] != '[' || s[len - 1] != ']')
		return -1;
	s[len - 1] = 0;
	if (split_ops(s + 1, &o) || o.n < 1 || o.n > 2)
		return -1;
	if (want_xreg(o.v[0], true, rn))
		return -1;
	if (o.n == 2 && parse_imm(o.v[1], false, &v))
		return -1;
	*imm = (int64_t)v;
	return 0;
}

/* A condition name (Arm ARM C1.2.4, with GNU as's cs/cc), or -1. */
static int parse_cond(const char *s)
{
	for (int c = 0; c < 16; c++)
		if (!strcmp(s, a64_cond_names[c]))
			return c;
	if (!strcmp(s, "cs"))
		return 2;
	if (!strcmp(s, "cc"))
		return 3;
	return -1;
}

/* "[xn|sp, xm]", "[xn|sp, xm, lsl #n]", "[xn|sp, wm, uxtw|sxtw {#n}]",
 * "[xn|sp, xm, sxtx {#n}]": the register-offset forms (C6.2.168). */
static int parse_mem_reg(char *s, bool is64, struct a64_insn *in)
{
	static const char *const ext[8] = { [2] = "uxtw", [3] = "lsl", [6] = "sxtw",
					    [7] = "sxtx" };
	size_t len = strlen(s);
	struct ops o;
	struct reg m;
	unsigned rn, opt = 3, amount = 0;

	if (len < 3 || s[0] != '[' || s[len - 1] != ']')
		return -1;
	s[len - 1] = 0;
	if (split_ops(s + 1, &o) || o.n < 2 || o.n > 3 || want_xreg(o.v[0], true, &rn) ||
	    want_reg(o.v[1], false, &m))
		return -1;
	if (o.n == 3) {
		char *sp = o.v[2] + strcspn(o.v[2], " \t");
		uint64_t v = 0;

		opt = 0;
		if (*sp) {
			*sp++ = 0;
			if (parse_imm(ftv_trim(sp), true, &v))
				return -1;
		}
		for (unsigned i = 0; i < 8; i++)
			if (ext[i] && !strcmp(o.v[2], ext[i]))
				opt = i;
		if (!opt || (opt == 3 && !*sp))
			return -1;
		/* the amount is 0 or the log2 of the access size */
		if (*sp && v != 0 && v != (is64 ? 3u : 2u))
			return -1;
		amount = (unsigned)v;
		/* lsl #0 is a distinct spelling of S = 1 only when written */
		if (*sp && opt != 3 && v == 0)
			amount = 0;
	}
	/* X index for lsl/sxtx, W index for uxtw/sxtw */
	if (m.is64 != ((opt & 3) == 3))
		return -1;
	in->rn = (uint8_t)rn;
	in->rm = (uint8_t)m.num;
	in->imm = opt;
	in->shift = (uint8_t)amount;
	return 0;
}

static bool fits_width(uint64_t v, bool is64)
{
	/* a W-register immediate may be written as its 32-bit value or as
	 * the sign-extension of it (e.g. #~7) */
	return is64 || (v >> 32) == 0 || (v >> 31) == 0x1ffffffffULL;
}

static int bad(struct ftv_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct ftv_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ftv_verrf(err, fmt, ap);
	va_end(ap);
	return P_BAD;
}

/* ADD/SUB (extended register), C6.2.3: Rd|SP, Rn|SP, Rm{, extend {#0..4}};
 * LSL stands for UXTX (UXTW for W registers), and the extend may be left
 * out when Rd or Rn is SP. */
static int parse_ext_reg(struct ops *o, struct a64_insn *in, struct ftv_err *err)
{
	static const char *const ext[8] = { "uxtb", "uxth", "uxtw", "uxtx",
					    "sxtb", "sxth", "sxtw", "sxtx" };
	struct reg d, n, m;
	unsigned opt = 8;
	uint64_t v = 0;

	if (o->n < 3 || o->n > 4 || want_reg(o->v[0], true, &d) || want_reg(o->v[1], true, &n) ||
	    want_reg(o->v[2], false, &m))
		return P_MISMATCH;
	if (o->n == 4) {
		char *sp = o->v[3] + strcspn(o->v[3], " \t");

		if (*sp) {
			*sp++ = 0;
			if (parse_imm(ftv_trim(sp), true, &v))
				return P_MISMATCH;
		}
		for (unsigned i = 0; i < 8; i++)
			if (!strcmp(o->v[3], ext[i]))
				opt = i;
		if (!strcmp(o->v[3], "lsl") && *sp)
			opt = d.is64 ? 3 : 2;
		if (opt == 8)
			return P_MISMATCH;
	} else if (d.kind == REG_SP || n.kind == REG_SP) {
		opt = d.is64 ? 3 : 2;
	} else {
		return P_MISMATCH;
	}
	if (d.is64 != n.is64 || m.is64 != ((opt & 3) == 3 && d.is64))
		return bad(err, "%s: %s, %s and %s do not fit extend %s", in->id == A64_ADD_EXT ?
			   "add" : "sub", o->v[0], o->v[1], o->v[2], ext[opt]);
	if (v > 4)
		return bad(err, "%s: shift #%" PRIu64 " is out of range 0..4",
			   in->id == A64_ADD_EXT ? "add" : "sub", v);
	in->rd = (uint8_t)d.num;
	in->rn = (uint8_t)n.num;
	in->rm = (uint8_t)m.num;
	in->is64 = d.is64;
	in->imm = opt;
	in->shift = (uint8_t)v;
	return P_OK;
}

/* Parses ops for form into in (whose id is set); P_OK, P_MISMATCH (not
 * this candidate's syntax) or P_BAD (this syntax, impossible operands). */
static int parse_form(enum a64_form form, struct ops *o, struct a64_insn *in,
		      struct ftv_err *err)
{
	struct reg a, b;
	uint64_t v;
	unsigned u;
	const char *name = a64_descs[in->id].name;

	switch (form) {
	case A64_FORM_NONE:
		return o->n == 0 ? P_OK : P_MISMATCH;
	case A64_FORM_HINT:
	case A64_FORM_IMM16:
		if (o->n != 1 || parse_imm(o->v[0], false, &v))
			return P_MISMATCH;
		if (v > (form == A64_FORM_HINT ? 127 : 0xffff))
			return bad(err, "%s: immediate #0x%" PRIx64 " is out of range 0..%#x",
				   name, v, form == A64_FORM_HINT ? 127 : 0xffff);
		in->imm = (int64_t)v;
		return P_OK;
	case A64_FORM_BTI:
		if (o->n == 0)
			in->imm = 0;
		else if (o->n == 1 && !strcmp(o->v[0], "c"))
			in->imm = 1;
		else if (o->n == 1 && !strcmp(o->v[0], "j"))
			in->imm = 2;
		else if (o->n == 1 && !strcmp(o->v[0], "jc"))
			in->imm = 3;
		else
			return P_MISMATCH;
		return P_OK;
	case A64_FORM_BARRIER:
	case A64_FORM_ISB:
		if (o->n == 0 && form == A64_FORM_ISB) {
			in->imm = 15;
			return P_OK;
		}
		if (o->n != 1)
			return P_MISMATCH;
		for (int i = 0; i < 16; i++)
			if (a64_barrier_names[i] && !strcmp(o->v[0], a64_barrier_names[i])) {
				/* C6.2.134: ISB takes only SY by name */
				if (form == A64_FORM_ISB && i != 15)
					return P_MISMATCH;
				in->imm = i;
				return P_OK;
			}
		if (o->v[0][0] != '#' || parse_imm(o->v[0], true, &v))
			return P_MISMATCH;
		if (v > 15)
			return bad(err, "%s: option #%" PRIu64 " is out of range 0..15", name, v);
		in->imm = (int64_t)v;
		return P_OK;
	case A64_FORM_BRANCH26:
	case A64_FORM_COND19:
		if (o->n != 1 || parse_target(o->v[0], &in->target))
			return P_MISMATCH;
		return P_OK;
	case A64_FORM_CB19:
	case A64_FORM_LDR_LIT:
	case A64_FORM_ADR:
	case A64_FORM_ADRP:
		if (o->n != 2 || want_reg(o->v[0], false, &a) || parse_target(o->v[1], &in->target))
			return P_MISMATCH;
		if ((form == A64_FORM_ADR || form == A64_FORM_ADRP) && !a.is64)
			return bad(err, "%s: %s must be an X register", name, o->v[0]);
		in->rd = (uint8_t)a.num;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_TB14:
		if (o->n != 3 || want_reg(o->v[0], false, &a) || parse_imm(o->v[1], false, &v) ||
		    parse_target(o->v[2], &in->target))
			return P_MISMATCH;
		if (v > (a.is64 ? 63 : 31))
			return bad(err, "%s: bit #%" PRIu64 " is out of range 0..%d for %s", name, v,
				   a.is64 ? 63 : 31, o->v[0]);
		in->rd = (uint8_t)a.num;
		in->bit = (uint8_t)v;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_RN:
	case A64_FORM_RET:
		if (form == A64_FORM_RET && o->n == 0) {
			in->rn = 30;
			return P_OK;
		}
		if (o->n != 1 || want_xreg(o->v[0], false, &u))
			return P_MISMATCH;
		in->rn = (uint8_t)u;
		return P_OK;
	case A64_FORM_SYS_XT:
		if (o->n != 1 || want_xreg(o->v[0], false, &u))
			return P_MISMATCH;
		in->rd = (uint8_t)u;
		return P_OK;
	case A64_FORM_MOV_REG:
		if (o->n != 2 || want_reg(o->v[0], false, &a) || want_reg(o->v[1], false, &b))
			return P_MISMATCH;
		if (a.is64 != b.is64)
			return bad(err, "mov: %s and %s differ in width", o->v[0], o->v[1]);
		in->rd = (uint8_t)a.num;
		in->rm = (uint8_t)b.num;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_MOV_SP:
		/* C6.2.210: only when one operand is SP */
		if (o->n != 2 || want_reg(o->v[0], true, &a) || want_reg(o->v[1], true, &b) ||
		    (a.kind != REG_SP && b.kind != REG_SP))
			return P_MISMATCH;
		if (a.is64 != b.is64)
			return bad(err, "mov: %s and %s differ in width", o->v[0], o->v[1]);
		in->rd = (uint8_t)a.num;
		in->rn = (uint8_t)b.num;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_MOVW:
	case A64_FORM_MOV_WIDE:
	case A64_FORM_MOV_WIDE_INV:
		if (o->n < 2 || want_reg(o->v[0], false, &a) || parse_imm(o->v[1], false, &v))
			return P_MISMATCH;
		in->rd = (uint8_t)a.num;
		in->is64 = a.is64;
		if (form == A64_FORM_MOVW) {
			if (o->n > 3 || (o->n == 3 && parse_lsl(o->v[2], &u)))
				return P_MISMATCH;
			in->shift = (uint8_t)(o->n == 3 ? u : 0);
			if (v > 0xffff)
				return bad(err, "%s: immediate #0x%" PRIx64 " is out of range 0..0xffff",
					   name, v);
			in->imm = (int64_t)v;
			return P_OK;
		}
		if (o->n != 2)
			return P_MISMATCH;
		if (!fits_width(v, a.is64))
			return bad(err, "mov: #0x%" PRIx64 " does not fit %s", v, o->v[0]);
		if (form == A64_FORM_MOV_WIDE_INV)
			v = ~v;
		if (!a.is64)
			v &= 0xffffffffULL;
		for (unsigned s = 0; s < (a.is64 ? 64u : 32u); s += 16)
			if (!(v & ~(0xffffULL << s))) {
				in->shift = (uint8_t)(v ? s : 0);
				in->imm = (int64_t)(v >> in->shift);
				return P_OK;
			}
		return bad(err, "mov: #0x%" PRIx64 " is not a MOVZ or MOVN immediate",
			   (uint64_t)(form == A64_FORM_MOV_WIDE_INV ? ~v & (a.is64 ? ~0ULL : 0xffffffffULL) : v));
	case A64_FORM_ADDSUB_IMM:
	case A64_FORM_CMP_IMM: {
		/* CMP/CMN have no Rd: it is ZR */
		int k = form == A64_FORM_CMP_IMM ? 0 : 1;
		/* ADDS/SUBS write ZR, not SP, as Rd 31 */
		bool rd_sp = in->id == A64_ADD || in->id == A64_SUB;

		if (o->n < 2 + k || o->n > 3 + k ||
		    (k && want_reg(o->v[0], rd_sp, &a)) || want_reg(o->v[k], true, &b) ||
		    parse_imm(o->v[1 + k], false, &v) ||
		    (o->n == 3 + k && parse_lsl(o->v[2 + k], &u)))
			return P_MISMATCH;
		if (!k)
			a = (struct reg){ 31, b.is64, REG_ZR };
		if (a.is64 != b.is64)
			return bad(err, "%s: %s and %s differ in width", name, o->v[0], o->v[1]);
		in->rd = (uint8_t)a.num;
		in->rn = (uint8_t)b.num;
		in->is64 = a.is64;
		in->shift = (uint8_t)(o->n == 3 + k ? u : 0);
		/* GNU as: a negative immediate flips ADD and SUB (ADDS and
		 * SUBS, CMP and CMN), and an unshifted multiple of 4096 that
		 * fits imm12 gets lsl #12 */
		if ((int64_t)v < 0 && (int64_t)v > INT64_MIN) {
			v = 0 - v;
			in->id = addsub_flip(in->id);
		}
		if (o->n == 2 + k && v > 4095 && !(v & 0xfff) && (v >> 12) <= 4095) {
			v >>= 12;
			in->shift = 12;
		}
		if (v > 4095)
			return bad(err, "%s: immediate #%" PRId64 " is out of range 0..4095", name,
				   (int64_t)v);
		in->imm = (int64_t)v;
		return P_OK;
	}
	case A64_FORM_SHIFTED_REG:
	case A64_FORM_NEG:
	case A64_FORM_CMP_REG: {
		/* NEG has no Rn, CMP no Rd: it is ZR */
		int k = form == A64_FORM_SHIFTED_REG ? 1 : 0;
		unsigned type = A64_LSL, amount = 0;
		struct reg m;

		if (o->n < 2 + k || o->n > 3 + k || want_reg(o->v[0], false, &a) ||
		    (k && want_reg(o->v[1], false, &b)) || want_reg(o->v[1 + k], false, &m) ||
		    (o->n == 3 + k && parse_shift(o->v[2 + k], &type, &amount)))
			return P_MISMATCH;
		if (form == A64_FORM_CMP_REG) {
			b = a;
			a = (struct reg){ 31, b.is64, REG_ZR };
		} else if (!k) {
			b = (struct reg){ 31, a.is64, REG_ZR };
		}
		if (a.is64 != b.is64 || a.is64 != m.is64)
			return bad(err, "%s: %s and %s differ in width", name, o->v[0],
				   o->v[a.is64 != b.is64 ? 1 : 1 + k]);
		if (type == A64_ROR && in->id != A64_EOR_REG && in->id != A64_AND_REG)
			return bad(err, "%s: ror is a shift of the logical instructions only",
				   name);
		in->rd = (uint8_t)a.num;
		in->rn = (uint8_t)b.num;
		in->rm = (uint8_t)m.num;
		in->is64 = a.is64;
		in->imm = type;
		in->shift = (uint8_t)amount;
		return P_OK;
	}
	case A64_FORM_LOGIC_IMM:
	case A64_FORM_BIC_IMM:
		if (o->n != 3 || want_reg(o->v[0], true, &a) || want_reg(o->v[1], false, &b) ||
		    parse_imm(o->v[2], false, &v))
			return P_MISMATCH;
		if (a.is64 != b.is64)
			return bad(err, "%s: %s and %s differ in width", name, o->v[0], o->v[1]);
		if (!fits_width(v, a.is64))
			return bad(err, "%s: #0x%" PRIx64 " does not fit %s", name, v, o->v[0]);
		if (form == A64_FORM_BIC_IMM) {
			uint64_t inv = ~v & (a.is64 ? ~0ULL : 0xffffffffULL);
			unsigned n_, r_, s_;

			if (a64_bitmask_encode(inv, a.is64, &n_, &r_, &s_))
				return bad(err, "bic: #0x%" PRIx64 " inverted (#0x%" PRIx64 ") is not a "
					   "%d-bit logical immediate", v, inv, a.is64 ? 64 : 32);
			v = inv;
		}
		in->rd = (uint8_t)a.num;
		in->rn = (uint8_t)b.num;
		in->is64 = a.is64;
		in->imm = (int64_t)(a.is64 ? v : v & 0xffffffffULL);
		return P_OK;
	case A64_FORM_LDST_UIMM:
	case A64_FORM_LDST_SIMM9:
	case A64_FORM_LDST_ORDERED:
		if (o->n != 2 || want_reg(o->v[0], false, &a) || parse_mem(o->v[1], &u, &in->imm))
			return P_MISMATCH;
		if (form == A64_FORM_LDST_ORDERED && in->imm)
			return bad(err, "%s: no offset but #0", name);
		in->rd = (uint8_t)a.num;
		in->rn = (uint8_t)u;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_CSEL:
	case A64_FORM_CSET:
	case A64_FORM_CINC: {
		/* csel Rd, Rn, Rm, cond; cset Rd, cond; cinc Rd, Rn, cond */
		int nreg = form == A64_FORM_CSEL ? 3 : form == A64_FORM_CINC ? 2 : 1;
		struct reg r[3];
		int c;

		if (o->n != nreg + 1)
			return P_MISMATCH;
		for (int i = 0; i < nreg; i++)
			if (want_reg(o->v[i], false, &r[i]))
				return P_MISMATCH;
		c = parse_cond(o->v[nreg]);
		if (c < 0)
			return P_MISMATCH;
		for (int i = 1; i < nreg; i++)
			if (r[i].is64 != r[0].is64)
				return bad(err, "%s: %s and %s differ in width", name, o->v[0],
					   o->v[i]);
		in->rd = (uint8_t)r[0].num;
		in->is64 = r[0].is64;
		if (form == A64_FORM_CSEL) {
			in->rn = (uint8_t)r[1].num;
			in->rm = (uint8_t)r[2].num;
			in->cond = (uint8_t)c;
			return P_OK;
		}
		/* C6.2.70, C6.2.68: the condition is inverted; AL and NV have
		 * no inverse here */
		if ((c & 14) == 14)
			return bad(err, "%s: condition %s is not allowed", form == A64_FORM_CSET
				   ? "cset" : "cinc", o->v[nreg]);
		in->rn = in->rm = (uint8_t)(form == A64_FORM_CINC ? r[1].num : 31);
		in->cond = (uint8_t)(c ^ 1);
		return P_OK;
	}
	case A64_FORM_LDST_REG:
		if (o->n != 2 || want_reg(o->v[0], false, &a) ||
		    parse_mem_reg(o->v[1], a.is64, in))
			return P_MISMATCH;
		in->rd = (uint8_t)a.num;
		in->is64 = a.is64;
		return P_OK;
	case A64_FORM_EXT_REG:
		return parse_ext_reg(o, in, err);
	case A64_FORM_UDF:
		if (o->n != 1 || parse_imm(o->v[0], false, &v))
			return P_MISMATCH;
		if (v > 0xffff)
			return bad(err, "udf: immediate #0x%" PRIx64 " is out of range 0..0xffff", v);
		in->imm = (int64_t)v;
		return P_OK;
	default:
		return P_MISMATCH;
	}
}

/* Tries one candidate; 0 on success with *word set. */
static int try_candidate(enum a64_id id, enum a64_form form, int cond, const char *line,
			 uint64_t pc, struct a64_insn *out, struct ftv_err *err)
{
	char buf[LINE_MAX_LEN];
	struct ops o;
	int r;

	/* each candidate parses its own copy: parsing writes into the text */
	snprintf(buf, sizeof(buf), "%s", line);
	if (split_ops(buf, &o))
		return P_MISMATCH;
	memset(out, 0, sizeof(*out));
	out->id = id;
	out->pc = pc;
	out->is64 = true;
	if (cond >= 0)
		out->cond = (uint8_t)cond;
	r = parse_form(form, &o, out, err);
	if (r != P_OK)
		return r;
	if (a64_encode(out, &out->word, err))
		return P_BAD;
	return P_OK;
}

int a64_parse(const char *text, uint64_t pc, struct a64_insn *out, struct ftv_err *err)
{
	char line[LINE_MAX_LEN], key[32], *p, *rest;
	struct ftv_err first_bad = { "" }, tmp;
	int cond = -1, tried = 0;
	size_t len;

	if (strlen(text) >= sizeof(line))
		return ftv_errf(err, "'%.40s...': instruction text too long", text);
	for (size_t i = 0; (line[i] = (char)tolower((unsigned char)text[i])); i++)
		;
	/* a trailing comment, as objdump prints one: "mov x0, #0x10000 // #65536" */
	if ((p = strstr(line, "//")))
		*p = 0;
	p = ftv_trim(line);
	for (rest = p; *rest && !isspace((unsigned char)*rest); rest++)
		;
	len = (size_t)(rest - p);
	if (!len)
		return ftv_errf(err, "empty instruction");
	if (len >= sizeof(key))
		return ftv_errf(err, "'%s': unknown mnemonic", text);
	memcpy(key, p, len);
	key[len] = 0;
	rest = ftv_trim(rest);
	/* "dc cvau, x0": the operation is part of the name */
	if (!strcmp(key, "dc") || !strcmp(key, "ic") || !strcmp(key, "msr")) {
		char *comma = strchr(rest, ',');
		size_t oplen = comma ? (size_t)(comma - rest) : strlen(rest);

		while (oplen && isspace((unsigned char)rest[oplen - 1]))
			oplen--;
		if (len + 1 + oplen >= sizeof(key))
			return ftv_errf(err, "'%s': unknown instruction", text);
		key[len] = ' ';
		memcpy(key + len + 1, rest, oplen);
		key[len + 1 + oplen] = 0;
		rest = comma ? comma + 1 : rest + strlen(rest);
	}
	/* "b.ne": one table line for every condition */
	if (!strncmp(key, "b.", 2)) {
		for (int c = 0; c < 16; c++)
			if (!strcmp(key + 2, a64_cond_names[c]))
				cond = c;
		/* GNU as also accepts the cs/cc spellings of hs/lo */
		if (!strcmp(key + 2, "cs"))
			cond = 2;
		if (!strcmp(key + 2, "cc"))
			cond = 3;
		if (cond < 0)
			return ftv_errf(err, "'%s': unknown condition '%s'", text, key + 2);
		strcpy(key, "b.cond");
	}

	for (int i = 0; i < A64_NR_INSNS; i++) {
		if (strcmp(a64_descs[i].name, key))
			continue;
		tried++;
		int r = try_candidate((enum a64_id)i, a64_descs[i].form, cond, rest, pc, out, &tmp);

		if (r == P_OK)
			return 0;
		if (r == P_BAD && !first_bad.msg[0])
			first_bad = tmp;
	}
	for (size_t i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++) {
		if (strcmp(aliases[i].spelling, key))
			continue;
		tried++;
		int r = try_candidate(aliases[i].target, aliases[i].form, cond, rest, pc, out, &tmp);

		if (r == P_OK)
			return 0;
		if (r == P_BAD && !first_bad.msg[0])
			first_bad = tmp;
	}
	out->id = A64_UNKNOWN;
	if (!tried)
		return ftv_errf(err, "'%s': unknown instruction '%s'", text, key);
	if (first_bad.msg[0])
		return ftv_errf(err, "'%s': %s", text, first_bad.msg);
	return ftv_errf(err, "'%s': operands do not match any form of '%s'", text, key);
}

int a64_assemble(const char *text, uint64_t pc, uint32_t *word, struct ftv_err *err)
{
	struct a64_insn in;

	if (a64_parse(text, pc, &in, err))
		return -1;
	*word = in.word;
	return 0;
}
