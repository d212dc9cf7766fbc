/* Relocating one section of a placed RISC-V object (the arm64 path is
 * relocate_section() in sim/image.c; placement, symbols and stubs are
 * shared). The RISC-V specifics:
 *  - PCREL_LO12_I/S name, through their symbol, the AUIPC that carries the
 *    PCREL_HI20, and take THAT relocation's S+A-P (psABI "Relocations",
 *    %pcrel_lo): so the HI20s of the section are computed first and looked
 *    up by the AUIPC's address. GNU ld pairs them within one input
 *    section; so does ftv.
 *  - RELAX is a hint that the two instructions may be shortened; ftv
 *    never relaxes (always correct), so it is consumed and counted.
 *  - ALIGN was honoured before placement (sim/riscv_align.c); here ftv
 *    only checks that the placed section kept the alignment it relied on.
 *  - Nothing is redirected through a veneer: every region of the image is
 *    within the +/-2 GiB an AUIPC pair reaches (sim/image.h layout), so an
 *    overflow is an error naming the relocation. */
#include "sim/image_priv.h"

#include "sim/reloc_riscv.h"

#include <stdlib.h>
#include <string.h>

struct hi20 {
	uint64_t addr;  /* the AUIPC */
	int64_t value;  /* its S + A - P */
};

static int by_addr(const void *a, const void *b)
{
	const struct hi20 *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static const struct hi20 *hi_find(const struct hi20 *h, size_t n, uint64_t a)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t m = lo + (hi - lo) / 2;

		if (h[m].addr == a)
			return &h[m];
		if (h[m].addr < a)
			lo = m + 1;
		else
			hi = m;
	}
	return NULL;
}

int img_rv_relocate_section(struct sim_image *img, struct img_obj *ob,
			    unsigned rs, struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;
	unsigned ts = e->sh[rs].sh_info;
	const char *tname = sim_elf_secname(e, ts);
	size_t n = sim_elf_nrela(e, rs), nh = 0;
	struct hi20 *hs = malloc((n ? n : 1) * sizeof(*hs));
	int rc = 0;

	if (!hs)
		return ftv_errf(err, "out of memory");
	for (size_t k = 0; k < n; k++) {
		Elf64_Rela r;

		sim_elf_rela(e, rs, k, &r);
		if (ELF64_R_TYPE(r.r_info) != R_RISCV_PCREL_HI20)
			continue;
		hs[nh].addr = ob->secaddr[ts] + r.r_offset;
		hs[nh].value = (int64_t)(ob->symval[ELF64_R_SYM(r.r_info)] +
					 (uint64_t)r.r_addend - hs[nh].addr);
		nh++;
	}
	qsort(hs, nh, sizeof(*hs), by_addr);

	for (size_t k = 0; k < n && !rc; k++) {
		Elf64_Rela r;
		unsigned type, sym;
		int width;
		uint64_t P, S;
		int64_t A, x = 0;
		uint8_t *loc;
		enum sim_reloc_status st;

		sim_elf_rela(e, rs, k, &r);
		type = ELF64_R_TYPE(r.r_info);
		sym = ELF64_R_SYM(r.r_info);
		width = sim_rv_reloc_width(type);
#define FAIL(fmt, ...)                                                         \
	rc = ftv_errf(err, "%s: %s+0x%llx: %s against '%s' " fmt, e->path,     \
		      tname, (unsigned long long)r.r_offset,                  \
		      sim_rv_reloc_name(type), img_sym_label(e, sym),          \
		      ##__VA_ARGS__)
		if (width < 0) {
			FAIL("is not supported by ftv's loader");
			break;
		}
		P = ob->secaddr[ts] + r.r_offset;
		if (type == R_RISCV_NONE)
			continue;
		if (type == R_RISCV_RELAX) {
			/* A hint we decline: the unrelaxed code stands. */
			ob->info.nrelax++;
			continue;
		}
		if (type == R_RISCV_ALIGN) {
			uint64_t a = 1;

			while (a <= (uint64_t)r.r_addend)
				a <<= 1;
			if (ob->secaddr[ts] & (a - 1)) {
				FAIL("relies on %s being placed %llu-aligned, but it is at 0x%llx",
				     tname, (unsigned long long)a,
				     (unsigned long long)ob->secaddr[ts]);
				break;
			}
			ob->info.nrelocs++;
			continue;
		}
		if ((uint64_t)width > e->sh[ts].sh_size ||
		    r.r_offset > e->sh[ts].sh_size - width) {
			FAIL("runs past the end of %s", tname);
			break;
		}
		if (ob->symbad[sym]) {
			FAIL("lies in unloaded section %s",
			     sim_elf_secname(e, e->syms[sym].st_shndx));
			break;
		}
		S = ob->symval[sym];
		A = r.r_addend;
		if (type == R_RISCV_PCREL_LO12_I || type == R_RISCV_PCREL_LO12_S) {
			uint64_t auipc = S + (uint64_t)A;
			const struct hi20 *h = hi_find(hs, nh, auipc);

			if (!h) {
				FAIL("has no matching R_RISCV_PCREL_HI20 at 0x%llx in %s",
				     (unsigned long long)auipc, tname);
				break;
			}
			S = (uint64_t)h->value;
			A = 0;
		}
		loc = sim_ptr(img->as, P, width);
		if (!loc) {
			FAIL("places at unmapped 0x%llx", (unsigned long long)P);
			break;
		}
		st = sim_rv_reloc_apply(type, loc, P, S, A, &x);
		if (st == SIM_RELOC_OVERFLOW) {
			FAIL("is out of range (value 0x%llx%s)",
			     (unsigned long long)x, x & 1 ? ", odd" : "");
			break;
		}
		if (st != SIM_RELOC_OK) {
			FAIL("is not supported by ftv's loader");
			break;
		}
#undef FAIL
		ob->info.nrelocs++;
	}
	free(hs);
	return rc;
}
