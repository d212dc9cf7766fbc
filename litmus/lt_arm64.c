/* arm64 litmus tests: GNU as syntax through encoders/a64_asm.c, registers
 * x0..x30 / w0..w30 (herd writes them X0, W0). */
#include "litmus/lt_int.h"
#include "encoders/a64.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>

static int parse_reg(const char *s, int *reg, int *is32)
{
	char *end;
	long n;

	if ((s[0] != 'x' && s[0] != 'X' && s[0] != 'w' && s[0] != 'W') ||
	    !isdigit((unsigned char)s[1]))
		return -1;
	n = strtol(s + 1, &end, 10);
	if (*end || n > 30 || (s[1] == '0' && s[2]))
		return -1;
	*reg = (int)n;
	*is32 = s[0] == 'w' || s[0] == 'W';
	return 0;
}

static void reg_name(int reg, int is32, char *buf, size_t n)
{
	snprintf(buf, n, "%c%d", is32 ? 'W' : 'X', reg);
}

static int branch(uint64_t pc, uint64_t target, uint32_t *word,
		  struct ftv_err *err)
{
	return a64_gen_branch(pc, target, 0, word, err);
}

/* herd's addr dependencies, as its tests write them (the catalogue's
 * EOR W6,W2,W2 then [X5,W6,SXTW]; a CSEL on a compare with a loaded
 * value): a register is tainted by a load's result and by any
 * instruction computing from a tainted register or flags. mark[i]:
 * LT_DEP_CTRL an access with a tainted address, LT_DEP_LOAD a load,
 * LT_DEP_DC a DC CVAU (or CVAC, CIVAC) or IC IVAU with a tainted address,
 * a DC after a conditional branch on a tainted register or flags (herd's
 * ctrl; [DC]:
 * aarch64.cat's dob has ctrl to DC.CVAU as to writes, the Arm ARM's
 * Dependency-ordered-before, B2.3: a control dependency orders a later
 * cache maintenance instruction as it orders a later write; diy7's
 * DpCtrldR...DC.CVAUn tests). */
static void addr_deps(const uint32_t *w, unsigned n, uint64_t base,
		      unsigned char *mark)
{
	uint32_t t = 0;   /* bit r: register r is tainted; bit 31: NZCV */
	int ctrl = 0;     /* a conditional branch on a tainted value so far */
#define T(r) ((r) < 31 && ((t >> (r)) & 1))
#define SET(r, v) do { if ((r) < 31) t = (v) ? t | 1u << (r) : t & ~(1u << (r)); } while (0)
	for (unsigned i = 0; i < n; i++) {
		struct a64_insn in;

		mark[i] = 0;
		if (a64_decode(w[i], base + 4ULL * i, &in))
			continue;
		switch (in.id) {
		case A64_LDR: case A64_LDUR: case A64_LDAR:
			mark[i] = LT_DEP_LOAD | (T(in.rn) ? LT_DEP_CTRL : 0);
			SET(in.rd, 1);
			break;
		case A64_LDR_REG:
			mark[i] = LT_DEP_LOAD |
				  (T(in.rn) || T(in.rm) ? LT_DEP_CTRL : 0);
			SET(in.rd, 1);
			break;
		case A64_LDR_LIT:
			mark[i] = LT_DEP_LOAD;
			SET(in.rd, 1);
			break;
		case A64_DC_CVAU: case A64_DC_CVAC: case A64_DC_CIVAC:
			mark[i] = T(in.rd) || ctrl ? LT_DEP_DC : 0;
			break;
		case A64_IC_IVAU: /* herd's addr; [IC.IVAU] (aarch64deps.cat) */
			mark[i] = T(in.rd) ? LT_DEP_DC : 0;
			break;
		case A64_CBZ: case A64_CBNZ: case A64_TBZ: case A64_TBNZ:
			ctrl |= T(in.rd);
			break;
		case A64_B_COND:
			ctrl |= (int)(t >> 31);
			break;
		case A64_STR: case A64_STUR: case A64_STLR:
			mark[i] = T(in.rn) ? LT_DEP_CTRL : 0;
			break;
		case A64_STR_REG:
			mark[i] = T(in.rn) || T(in.rm) ? LT_DEP_CTRL : 0;
			break;
		case A64_MOV:
			SET(in.rd, T(in.rm));
			break;
		case A64_MOVZ: case A64_MOVN: case A64_ADR: case A64_ADRP:
			SET(in.rd, 0);
			break;
		case A64_ADD: case A64_SUB: case A64_AND: case A64_EOR:
			SET(in.rd, T(in.rn));
			break;
		case A64_ADDS: case A64_SUBS:
			t = T(in.rn) ? t | 1u << 31 : t & ~(1u << 31);
			SET(in.rd, T(in.rn));
			break;
		case A64_ADD_REG: case A64_SUB_REG: case A64_AND_REG: case A64_EOR_REG:
		case A64_ADD_EXT: case A64_SUB_EXT:
			SET(in.rd, T(in.rn) || T(in.rm));
			break;
		case A64_ADDS_REG: case A64_SUBS_REG:
			t = T(in.rn) || T(in.rm) ? t | 1u << 31 : t & ~(1u << 31);
			SET(in.rd, T(in.rn) || T(in.rm));
			break;
		case A64_CSEL: case A64_CSINC:
			SET(in.rd, T(in.rn) || T(in.rm) || (t >> 31));
			break;
		default:
			break;
		}
	}
#undef T
#undef SET
}

const struct lt_arch lt_arch_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.name = "arm64",
	.herd_name = "AArch64",
	.nregs = 31,
	.assemble = a64_assemble,
	.parse_reg = parse_reg,
	.reg_name = reg_name,
	.branch = branch,
	.disasm = a64_disasm,
	.addr_deps = addr_deps,
};
