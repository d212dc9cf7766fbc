/* R_RISCV_ALIGN: the one relaxation a RISC-V link cannot decline.
 *
 * With linker relaxation enabled (GCC's default), GNU as does not pad a
 * `.align N` exactly: it emits the worst case, 2^N - 2 bytes of NOPs
 * (2^N - 4 without the C extension), plus an R_RISCV_ALIGN whose addend
 * is that byte count, and leaves it to the linker to delete the excess
 * once it knows where the padding landed (psABI "Relocations": the
 * alignment is the addend rounded up to the next power of two). So the
 * padding as assembled is NOT exact: in the corpus, -falign-functions=8
 * gives 6 bytes of NOPs before every function, and the function lands at
 * offset 6 mod 8 unless they are deleted. GNU ld performs this deletion
 * even with --no-relax (checked: `ld --no-relax` output has the functions
 * 8-aligned), and Linux builds modules with -mno-relax precisely so that
 * its module loader never sees R_RISCV_ALIGN (arch/riscv/Makefile;
 * arch/riscv/kernel/module.c rejects it).
 *
 * ftv therefore deletes the excess bytes itself, before placement, on the
 * section's own bytes: this is section-relative and exact because every
 * section is placed at an address that is a multiple of its sh_addralign,
 * and each ALIGN's alignment is checked to be <= sh_addralign (the
 * assembler raises the section alignment to cover each .align). The
 * relocation pass then only checks that the placed section kept that
 * promise. Everything else relaxation could do (CALL -> JAL, LUI
 * deletion, gp-relative) is a hint (R_RISCV_RELAX) ftv declines: the
 * unrelaxed sequences are always correct.
 *
 * Deleting bytes moves what follows: symbol values and sizes in the
 * section, the r_offset of its relocations, and addends of relocations
 * against its section symbol, as a linker's delete-bytes step does. The
 * kept padding is rewritten as 4-byte NOPs then one C.NOP if needed,
 * unless nothing is deleted (then the assembled bytes stay, as in ld). */
#include "sim/image_priv.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#define RV_NOP   0x00000013u /* addi x0, x0, 0 */
#define RV_C_NOP 0x0001u     /* c.addi x0, 0 */

struct cut {
	uint64_t at, n; /* delete [at, at + n) in the original offsets */
};

/* New offset of original offset p once the cuts (sorted, disjoint) are
 * applied; a position inside a cut maps to where the cut was. */
static uint64_t remap(const struct cut *c, size_t nc, uint64_t p)
{
	uint64_t d = 0;

	for (size_t i = 0; i < nc && c[i].at < p; i++)
		d += p >= c[i].at + c[i].n ? c[i].n : p - c[i].at;
	return p - d;
}

static int by_offset(const void *a, const void *b)
{
	const Elf64_Rela *x = a, *y = b;

	return x->r_offset < y->r_offset ? -1 : x->r_offset > y->r_offset;
}

/* Whether [o, o + n) of the section data is a run of NOPs, as GNU as
 * pads (C.NOP and 4-byte NOP). */
static int all_nops(const uint8_t *d, uint64_t n)
{
	uint64_t i = 0;

	while (i < n) {
		uint32_t h;

		if (i + 2 > n)
			return 0;
		h = d[i] | d[i + 1] << 8;

		if (h == RV_C_NOP) {
			i += 2;
		} else if (i + 4 <= n &&
			   (h | (uint32_t)(d[i + 2] | d[i + 3] << 8) << 16) == RV_NOP) {
			i += 4;
		} else {
			return 0;
		}
	}
	return 1;
}

static void put_rela(struct sim_elf *e, unsigned rs, size_t k,
		     const Elf64_Rela *r)
{
	memcpy(e->data + e->sh[rs].sh_offset + k * sizeof(*r), r, sizeof(*r));
}

/* Computes the cuts of section ts from its relocation section rs. */
static int section_cuts(struct sim_elf *e, unsigned rs, unsigned ts,
			struct cut **out, size_t *nout, struct ftv_err *err)
{
	size_t n = sim_elf_nrela(e, rs), na = 0, nc = 0;
	Elf64_Rela *al;
	struct cut *c;
	uint64_t deleted = 0;
	int rc = 0;
	uint8_t *d = e->data + e->sh[ts].sh_offset;
	const char *sec = sim_elf_secname(e, ts);

	al = malloc((n ? n : 1) * sizeof(*al));
	c = malloc((n ? n : 1) * sizeof(*c));
	if (!al || !c) {
		free(al);
		free(c);
		return ftv_errf(err, "out of memory");
	}
	for (size_t k = 0; k < n; k++) {
		sim_elf_rela(e, rs, k, &al[na]);
		if (ELF64_R_TYPE(al[na].r_info) == R_RISCV_ALIGN)
			na++;
	}
	qsort(al, na, sizeof(*al), by_offset);
	for (size_t k = 0; k < na; k++) {
		uint64_t o = al[k].r_offset, pad = (uint64_t)al[k].r_addend;
		uint64_t a = 1, now, need;

		if (al[k].r_addend < 0 || pad > e->sh[ts].sh_size - o ||
		    (k && o < al[k - 1].r_offset + (uint64_t)al[k - 1].r_addend)) {
			rc = ftv_errf(err, "%s: %s+0x%llx: R_RISCV_ALIGN padding of %lld bytes overlaps another or runs past the end of %s",
				      e->path, sec, (unsigned long long)o,
				      (long long)al[k].r_addend, sec);
			goto out;
		}
		/* pad is within the section now: a cannot overflow */
		while (a <= pad)
			a <<= 1;
		if (a > (e->sh[ts].sh_addralign ? e->sh[ts].sh_addralign : 1)) {
			rc = ftv_errf(err, "%s: %s+0x%llx: R_RISCV_ALIGN to %llu bytes exceeds the section's sh_addralign %llu",
				      e->path, sec, (unsigned long long)o,
				      (unsigned long long)a,
				      (unsigned long long)e->sh[ts].sh_addralign);
			goto out;
		}
		if (!all_nops(d + o, pad)) {
			rc = ftv_errf(err, "%s: %s+0x%llx: R_RISCV_ALIGN padding of %llu bytes is not all NOPs",
				      e->path, sec, (unsigned long long)o,
				      (unsigned long long)pad);
			goto out;
		}
		now = o - deleted;
		need = (a - (now & (a - 1))) & (a - 1);
		if (need > pad) {
			rc = ftv_errf(err, "%s: %s+0x%llx: R_RISCV_ALIGN needs %llu bytes of padding but has %llu",
				      e->path, sec, (unsigned long long)o,
				      (unsigned long long)need,
				      (unsigned long long)pad);
			goto out;
		}
		if (need == pad)
			continue; /* exact already: the bytes stay as assembled */
		/* Rewrite the kept part as NOPs: 4-byte ones, then a C.NOP
		 * (as GNU ld does; a NOP split by the cut would be garbage). */
		for (uint64_t i = 0; i + 4 <= need; i += 4) {
			d[o + i] = RV_NOP & 0xff;
			d[o + i + 1] = 0;
			d[o + i + 2] = 0;
			d[o + i + 3] = 0;
		}
		if (need & 2) {
			d[o + (need & ~3ull)] = RV_C_NOP;
			d[o + (need & ~3ull) + 1] = 0;
		}
		c[nc].at = o + need;
		c[nc].n = pad - need;
		deleted += c[nc].n;
		nc++;
	}
out:
	free(al);
	if (rc) {
		free(c);
		return rc;
	}
	*out = c;
	*nout = nc;
	return 0;
}

/* Applies the cuts of section ts: compacts its bytes and moves symbols,
 * relocation offsets and section-symbol addends. */
static void apply_cuts(struct sim_elf *e, unsigned ts, const struct cut *c,
		       size_t nc)
{
	uint8_t *d = e->data + e->sh[ts].sh_offset;
	uint64_t size = e->sh[ts].sh_size, w = 0, r = 0;

	for (size_t i = 0; i <= nc; i++) {
		uint64_t end = i < nc ? c[i].at : size;

		memmove(d + w, d + r, end - r);
		w += end - r;
		r = i < nc ? c[i].at + c[i].n : size;
	}
	e->sh[ts].sh_size = w;
	for (size_t i = 1; i < e->nsyms; i++) {
		Elf64_Sym *y = &e->syms[i];
		uint64_t v, end;

		if (y->st_shndx != ts || ELF64_ST_TYPE(y->st_info) == STT_SECTION)
			continue;
		v = remap(c, nc, y->st_value);
		end = remap(c, nc, y->st_value + y->st_size);
		y->st_value = v;
		y->st_size = end - v;
	}
	for (unsigned rs = 1; rs < e->nsec; rs++) {
		if (e->sh[rs].sh_type != SHT_RELA ||
		    e->sh[rs].sh_link != e->symtab || !e->symtab ||
		    e->sh[rs].sh_entsize != sizeof(Elf64_Rela))
			continue;
		for (size_t k = 0; k < sim_elf_nrela(e, rs); k++) {
			Elf64_Rela rl;
			const Elf64_Sym *y;
			int ch = 0;

			sim_elf_rela(e, rs, k, &rl);
			if (ELF64_R_SYM(rl.r_info) >= e->nsyms)
				continue; /* checked (ALLOC) or skipped later */
			if (e->sh[rs].sh_info == ts) {
				rl.r_offset = remap(c, nc, rl.r_offset);
				ch = 1;
			}
			y = &e->syms[ELF64_R_SYM(rl.r_info)];
			if (ELF64_ST_TYPE(y->st_info) == STT_SECTION &&
			    y->st_shndx == ts && rl.r_addend > 0) {
				rl.r_addend = remap(c, nc, rl.r_addend);
				ch = 1;
			}
			if (ch)
				put_rela(e, rs, k, &rl);
		}
	}
}

int img_riscv64_align(struct sim_elf *e, struct ftv_err *err)
{
	for (unsigned rs = 1; rs < e->nsec; rs++) {
		unsigned ts = e->sh[rs].sh_info;
		struct cut *c = NULL;
		size_t nc = 0;

		/* Only relocation sections of loaded sections were validated
		 * (sim/elfobj.c); ALIGN in debug sections is moot. */
		if (e->sh[rs].sh_type != SHT_RELA ||
		    !(e->sh[ts].sh_flags & SHF_ALLOC) ||
		    e->sh[ts].sh_type == SHT_NOBITS)
			continue;
		if (section_cuts(e, rs, ts, &c, &nc, err))
			return -1;
		if (nc)
			apply_cuts(e, ts, c, nc);
		free(c);
	}
	return 0;
}
