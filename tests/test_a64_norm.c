/* Capstone 4.0.2 and objdump spell the same instruction differently:
 * numbers in hex or decimal, with or without '#'; Capstone 4 predates
 * several hint names (BTI and the PAC hints print as "hint #n") and never
 * uses the MOV (wide immediate) aliases. This file reduces both spellings
 * to one and lists each quirk; every quirk listed is needed by the
 * vectors or the random words. */
#include "tests/test_a64_norm.h"
#include "encoders/a64_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void a64_norm(const char *s, char *out, size_t n)
{
	size_t o = 0;

	out[0] = 0;
	while (*s && o + 24 < n) {
		if (isspace((unsigned char)*s) || *s == '#') {
			s++;
			continue;
		}
		if (o)
			out[o++] = ' ';
		if (isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))) {
			int neg = *s == '-';
			char *end;
			unsigned long long v = strtoull(s + neg, &end, 0);

			if (neg)
				v = 0 - v;
			o += (size_t)snprintf(out + o, n - o, "0x%llx", v);
			s = end;
		} else if (isalnum((unsigned char)*s) || *s == '.' || *s == '_') {
			while ((isalnum((unsigned char)*s) || *s == '.' || *s == '_') && o + 2 < n)
				out[o++] = (char)tolower((unsigned char)*s++);
		} else {
			out[o++] = *s++;
		}
	}
	out[o] = 0;
}

static bool same(const char *a, const char *b)
{
	char na[160], nb[160];

	a64_norm(a, na, sizeof(na));
	a64_norm(b, nb, sizeof(nb));
	return !strcmp(na, nb);
}

/* Arm ARM C6.2.133 HINT: the allocated hint numbers and their names. */
static const char *const hint_names[128] = {
	[0] = "nop", [1] = "yield", [2] = "wfe", [3] = "wfi", [4] = "sev", [5] = "sevl",
	[7] = "xpaclri", [8] = "pacia1716", [10] = "pacib1716", [12] = "autia1716",
	[14] = "autib1716", [16] = "esb", [17] = "psb csync", [18] = "tsb csync",
	[20] = "csdb", [24] = "paciaz", [25] = "paciasp", [26] = "pacibz",
	[27] = "pacibsp", [28] = "autiaz", [29] = "autiasp", [30] = "autibz",
	[31] = "autibsp",
};

bool a64_norm_same(const struct a64_insn *in, const char *ftv, const char *cs)
{
	if (in->id == A64_UNKNOWN)
		return false;
	if (same(ftv, cs))
		return true;
	/* Capstone 4 names hints only up to ARMv8.2: BTI, PAC*SP and others
	 * come out as "hint #n"; and it names some hints ftv prints by
	 * number. */
	if (a64_is_hint(in->word)) {
		unsigned num = (in->word >> 5) & 0x7f;
		char alt[32];

		snprintf(alt, sizeof(alt), "hint #%u", num);
		if (same(alt, cs))
			return true;
		if (hint_names[num] && same(hint_names[num], cs))
			return true;
	}
	/* Capstone 4 never uses the MOV (wide immediate) aliases of MOVZ and
	 * MOVN (Arm ARM C6.2.213, C6.2.211) that objdump and ftv prefer. */
	if (in->id == A64_MOVZ || in->id == A64_MOVN) {
		char alt[A64_TEXT_MAX];
		int len = snprintf(alt, sizeof(alt), "%s %s, #0x%llx", a64_descs[in->id].name,
				   a64_reg_name(in->rd, in->is64, false),
				   (unsigned long long)in->imm);

		if (in->shift)
			snprintf(alt + len, sizeof(alt) - (size_t)len, ", lsl #%u", in->shift);
		if (same(alt, cs))
			return true;
	}
	/* Capstone 4 predates UDF (Arm ARM C6.2.387, allocated in ARMv8.4's
	 * documentation of the permanently undefined space): it decodes
	 * nothing there. */
	if (in->id == A64_UDF && !cs[0])
		return true;
	/* Capstone 4 prints CSINC Rd, Rn, Rn, AL|NV as the CINC/CSET alias,
	 * whose condition would be the inverse NV|AL; the Arm ARM (C6.2.68,
	 * C6.2.70) and objdump keep CSINC there. */
	if (in->id == A64_CSINC && in->rn == in->rm && (in->cond & 14) == 14) {
		char alt[A64_TEXT_MAX];

		if (in->rn == 31)
			snprintf(alt, sizeof(alt), "cset %s, %s",
				 a64_reg_name(in->rd, in->is64, false),
				 a64_cond_names[in->cond ^ 1]);
		else
			snprintf(alt, sizeof(alt), "cinc %s, %s, %s",
				 a64_reg_name(in->rd, in->is64, false),
				 a64_reg_name(in->rn, in->is64, false),
				 a64_cond_names[in->cond ^ 1]);
		if (same(alt, cs))
			return true;
	}
	return false;
}
