/* A one-line RISC-V assembler for the subset, in GNU as syntax, driven by
 * the encoding table. It never compresses: "nop" is the 4-byte NOP (as with
 * GNU as under `.option norvc`); "c.nop" asks for the 2-byte one. */
#include "util/str.h"
#include "encoders/riscv_table.h"
#include "util/num.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#define MAX_OPS 4

struct line {
	char buf[256];
	char *mnem;
	char *op[MAX_OPS];
	int nops;
};

/* Splits "mnem op, op, op" (a '#' starts a comment, as in GNU as for
 * RISC-V). */
static int split(const char *text, struct line *l, struct ftv_err *err)
{
	char *s, *p;

	if (strlen(text) >= sizeof(l->buf))
		return ftv_errf(err, "riscv: instruction text too long");
	strcpy(l->buf, text);
	p = strchr(l->buf, '#');
	if (p)
		*p = 0;
	s = ftv_trim(l->buf);
	if (!*s)
		return ftv_errf(err, "riscv: empty instruction");
	l->mnem = s;
	while (*s && !isspace((unsigned char)*s))
		s++;
	l->nops = 0;
	if (*s) {
		*s++ = 0;
		s = ftv_trim(s);
	}
	while (*s) {
		if (l->nops == MAX_OPS)
			return ftv_errf(err, "riscv %s: too many operands", l->mnem);
		p = strchr(s, ',');
		if (p)
			*p = 0;
		l->op[l->nops] = ftv_trim(s);
		if (!*l->op[l->nops])
			return ftv_errf(err, "riscv %s: empty operand %d", l->mnem,
					l->nops + 1);
		l->nops++;
		if (!p)
			break;
		s = p + 1;
		if (!*ftv_trim(s))
			return ftv_errf(err, "riscv %s: empty operand %d",
					l->mnem, l->nops + 1);
	}
	return 0;
}

static int reg(const struct line *l, int i, unsigned *out, struct ftv_err *err)
{
	int r = rv_reg_parse(l->op[i]);

	if (r < 0)
		return ftv_errf(err, "riscv %s: bad register '%s'", l->mnem,
				l->op[i]);
	*out = (unsigned)r;
	return 0;
}

static int imm(const struct line *l, const char *s, int64_t *out,
	       struct ftv_err *err)
{
	if (ftv_parse_i64(s, out))
		return ftv_errf(err, "riscv %s: bad immediate '%s'", l->mnem, s);
	return 0;
}

/* "imm(reg)" or "(reg)". */
static int mem(const struct line *l, int i, int64_t *off, unsigned *base,
	       struct ftv_err *err)
{
	char tmp[256], *open, *close;
	int r;

	snprintf(tmp, sizeof(tmp), "%s", l->op[i]);
	open = strchr(tmp, '(');
	close = strrchr(tmp, ')');
	if (!open || !close || close < open || close[1])
		return ftv_errf(err, "riscv %s: expected offset(register), got '%s'",
				l->mnem, l->op[i]);
	*close = 0;
	*open = 0;
	r = rv_reg_parse(ftv_trim(open + 1));
	if (r < 0)
		return ftv_errf(err, "riscv %s: bad register '%s'", l->mnem,
				ftv_trim(open + 1));
	*base = (unsigned)r;
	if (!*ftv_trim(tmp)) {
		*off = 0;
		return 0;
	}
	return imm(l, ftv_trim(tmp), off, err);
}

static int want_ops(const struct line *l, int n, struct ftv_err *err)
{
	if (l->nops != n)
		return ftv_errf(err, "riscv %s: expected %d operand%s, got %d",
				l->mnem, n, n == 1 ? "" : "s", l->nops);
	return 0;
}

/* ".insn 0x..": a raw instruction; its length follows from its low bits. */
static int raw(const struct line *l, uint32_t *word, int *nbytes,
	       struct ftv_err *err)
{
	uint64_t v;

	if (want_ops(l, 1, err))
		return -1;
	if (ftv_parse_u64(l->op[0], &v))
		return ftv_errf(err, "riscv .insn: bad value '%s'", l->op[0]);
	if ((v & 3) == 3 && v <= 0xffffffffu) {
		*nbytes = 4;
	} else if ((v & 3) != 3 && v <= 0xffff) {
		*nbytes = 2;
	} else {
		return ftv_errf(err, "riscv .insn: 0x%" PRIx64 " is not a 16-bit "
				"or 32-bit instruction", v);
	}
	*word = (uint32_t)v;
	return 0;
}

static int target(const struct line *l, int i, uint64_t *out,
		  struct ftv_err *err)
{
	int64_t s;

	if (!ftv_parse_u64(l->op[i], out))
		return 0;
	if (!ftv_parse_i64(l->op[i], &s)) {
		*out = (uint64_t)s;
		return 0;
	}
	return ftv_errf(err, "riscv %s: bad target '%s'", l->mnem, l->op[i]);
}

/* A FENCE set: letters of "iorw" in that order, each at most once. */
static int fence_set(const struct line *l, const char *s, unsigned *out,
		     struct ftv_err *err)
{
	static const char order[] = "iorw";
	const char *o = order;

	*out = 0;
	for (const char *p = s; *p; p++) {
		const char *at = strchr(o, *p);

		if (!at || !*p)
			return ftv_errf(err, "riscv %s: bad ordering set '%s' (some of i, o, r, w in that order)",
					l->mnem, s);
		*out |= 8u >> (at - order);
		o = at + 1;
	}
	if (!*out)
		return ftv_errf(err, "riscv %s: empty ordering set", l->mnem);
	return 0;
}

/* GNU as's pseudo-instructions of the subset, rewritten into their base
 * instruction (Unprivileged ISA chapter 25 "RISC-V Assembly Programmer's
 * Handbook"): j, li (12-bit), mv, beqz, bnez. Returns 1 when rewritten. */
static int pseudo(struct line *l, char *buf, size_t n)
{
	if (!strcmp(l->mnem, "j") && l->nops == 1)
		snprintf(buf, n, "jal zero, %s", l->op[0]);
	else if (!strcmp(l->mnem, "li") && l->nops == 2)
		snprintf(buf, n, "addi %s, zero, %s", l->op[0], l->op[1]);
	else if (!strcmp(l->mnem, "mv") && l->nops == 2)
		snprintf(buf, n, "addi %s, %s, 0", l->op[0], l->op[1]);
	else if (!strcmp(l->mnem, "beqz") && l->nops == 2)
		snprintf(buf, n, "beq %s, zero, %s", l->op[0], l->op[1]);
	else if (!strcmp(l->mnem, "bnez") && l->nops == 2)
		snprintf(buf, n, "bne %s, zero, %s", l->op[0], l->op[1]);
	else
		return 0;
	return 1;
}

int rv_assemble(const char *text, uint64_t pc, uint32_t *word, int *nbytes,
		struct ftv_err *err)
{
	const struct rv_encoding *e;
	struct line l;
	unsigned rd = 0, rs1 = 0, rs2 = 0;
	int64_t v = 0;
	uint64_t to;
	uint32_t w;

	if (split(text, &l, err))
		return -1;
	if (!strcmp(l.mnem, ".insn"))
		return raw(&l, word, nbytes, err);
	{
		char base[256];

		if (pseudo(&l, base, sizeof(base)))
			return rv_assemble(base, pc, word, nbytes, err);
	}
	e = rv_encoding_by_name(l.mnem);
	if (!e)
		return ftv_errf(err, "riscv: unknown instruction '%s'", l.mnem);
	switch (e->form) {
	case RV_FORM_NONE:
		if (want_ops(&l, 0, err))
			return -1;
		break;
	case RV_FORM_U:
		if (want_ops(&l, 2, err) || reg(&l, 0, &rd, err) ||
		    imm(&l, l.op[1], &v, err))
			return -1;
		/* GNU as takes the 20-bit field as an unsigned 0..0xfffff. */
		if (v < 0 || v > 0xfffff)
			return ftv_errf(err, "riscv %s: imm20 %s out of range "
					"0..0xfffff", l.mnem, l.op[1]);
		if (v >= 0x80000)
			v -= 0x100000;
		break;
	case RV_FORM_J:
		/* "jal target" links through ra. */
		if (l.nops == 1) {
			rd = RV_REG_RA;
			if (target(&l, 0, &to, err))
				return -1;
		} else if (want_ops(&l, 2, err) || reg(&l, 0, &rd, err) ||
			   target(&l, 1, &to, err)) {
			return -1;
		}
		if (rv_gen_jal(pc, to, rd, &w, err))
			return -1;
		goto done;
	case RV_FORM_I:
		if (want_ops(&l, 3, err) || reg(&l, 0, &rd, err) ||
		    reg(&l, 1, &rs1, err) || imm(&l, l.op[2], &v, err))
			return -1;
		break;
	case RV_FORM_JALR:
		if (l.nops == 1) {          /* jalr rs1 = jalr ra, 0(rs1) */
			rd = RV_REG_RA;
			if (reg(&l, 0, &rs1, err))
				return -1;
		} else if (l.nops == 2) {   /* jalr rd, off(rs1) | rd, rs1 */
			if (reg(&l, 0, &rd, err))
				return -1;
			if (strchr(l.op[1], '(')) {
				if (mem(&l, 1, &v, &rs1, err))
					return -1;
			} else if (reg(&l, 1, &rs1, err)) {
				return -1;
			}
		} else if (want_ops(&l, 3, err) || reg(&l, 0, &rd, err) ||
			   reg(&l, 1, &rs1, err) || imm(&l, l.op[2], &v, err)) {
			return -1;
		}
		break;
	case RV_FORM_LOAD:
		if (want_ops(&l, 2, err) || reg(&l, 0, &rd, err) ||
		    mem(&l, 1, &v, &rs1, err))
			return -1;
		break;
	case RV_FORM_STORE:
		if (want_ops(&l, 2, err) || reg(&l, 0, &rs2, err) ||
		    mem(&l, 1, &v, &rs1, err))
			return -1;
		break;
	case RV_FORM_B:
		if (want_ops(&l, 3, err) || reg(&l, 0, &rs1, err) ||
		    reg(&l, 1, &rs2, err) || target(&l, 2, &to, err))
			return -1;
		v = (int64_t)(to - pc);
		break;
	case RV_FORM_FENCE: {
		unsigned pred = 15, succ = 15;

		/* "fence" alone orders everything: iorw, iorw */
		if (l.nops && (want_ops(&l, 2, err) ||
			       fence_set(&l, l.op[0], &pred, err) ||
			       fence_set(&l, l.op[1], &succ, err)))
			return -1;
		v = pred << 4 | succ;
		break;
	}
	}
	if (rv_encode(e, rd, rs1, rs2, v, &w, err))
		return -1;
done:
	*word = w;
	*nbytes = e->nbytes;
	return 0;
}
