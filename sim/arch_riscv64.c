/* The loader's RISC-V (RV64) verbs (sim/arch.h): relocating a section,
 * classifying a patch site, the EBREAK trap stub; before placement,
 * R_RISCV_ALIGN (sim/align_riscv64.c).
 *
 * Relocation, against arm64's (sim/arch_arm64.c):
 *  - PCREL_LO12_I/S name, through their symbol, the AUIPC that carries the
 *    PCREL_HI20, and take THAT relocation's S+A-P (psABI "Relocations",
 *    %pcrel_lo): so the HI20s of the section are computed first and looked
 *    up by the AUIPC's address. GNU ld pairs them within one input
 *    section; so does ftv.
 *  - RELAX is a hint that the two instructions may be shortened; ftv
 *    never relaxes (always correct), so it is consumed and counted.
 *  - ALIGN was honoured before placement (sim/align_riscv64.c); here ftv
 *    only checks that the placed section kept the alignment it relied on.
 *  - Nothing is redirected through a veneer: every region of the image is
 *    within the +/-2 GiB an AUIPC pair reaches (sim/image.h layout), so an
 *    overflow is an error naming the relocation. */
#include "sim/arch.h"

#include "sim/reloc_riscv64.h"

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

static int riscv64_relocate(struct sim_image *img, struct img_obj *ob,
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
		width = sim_riscv64_reloc_width(type);
#define FAIL(fmt, ...)                                                         \
	rc = ftv_errf(err, "%s: %s+0x%llx: %s against '%s' " fmt, e->path,     \
		      tname, (unsigned long long)r.r_offset,                  \
		      sim_riscv64_reloc_name(type), img_sym_label(e, sym),          \
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
		if (img_reloc_target_ok(ob, rs, r.r_offset, sym, r.r_addend,
					sim_riscv64_reloc_name(type), err)) {
			rc = -1;
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
		st = sim_riscv64_reloc_apply(type, loc, P, S, A, &x);
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

/* ---- patch sites ---------------------------------------------------------- */

/* Whether the 8 bytes at a are one of the two NOP fillers GCC
 * emits for -fpatchable-function-entry: 4 x C.NOP (0x0001) with the C
 * extension, 2 x NOP (0x00000013) without. Returns 0 if so, else the
 * offending bytes in *bad. */
static int nops8(struct sim_image *img, uint64_t a, uint32_t *bad)
{
	uint32_t w0 = img_word(img, a), w1 = img_word(img, a + 4);

	if ((w0 == 0x00010001u && w1 == 0x00010001u) ||
	    (w0 == SIM_RV_NOP && w1 == SIM_RV_NOP))
		return 0;
	*bad = w0 == 0x00010001u || w0 == SIM_RV_NOP ? w1 : w0;
	return -1;
}

static int riscv64_classify(struct sim_image *img, const struct img_obj *ob,
			    unsigned sec, uint64_t A, struct ftv_err *err)
{
	const struct sim_symbol *fs = img_func_at(img, A + 8);
	struct sim_site *s;
	char buf[160];
	uint32_t bad;

	/* Both riscv layouts put 8 bytes before the entry: the entry value
	 * is func - 8 (=8,4 with RVC: 4 x 2 bytes; =4,2 without: 2 x 4). */
	if (!fs) {
		img_diag(img, SIM_DIAG_BAD_ENTRY,
			 "patch-site %s in %s is not 8 bytes before a function entry",
			 sim_symbolize(img->as, A, buf, sizeof(buf), 1),
			 ob->elf.path);
		return 0;
	}
	if (nops8(img, A, &bad) || nops8(img, A + 8, &bad)) {
		img_diag(img, SIM_DIAG_UNEXPECTED_INSN,
			 "unexpected insn in patch-site %s: 0x%08x",
			 fs->name, bad);
		return 0;
	}
	if (!(s = img_site_new(img)))
		return ftv_errf(err, "out of memory");
	s->kind = FTV_SITE_RISCV_CALL_OPS;
	s->func = A + 8;
	s->literal = A;
	s->mov_addr = s->func;     /* AUIPC t0, written once by init_nop */
	s->addr = s->func + 4;     /* NOP <-> JALR t0 */
	s->entry = A;
	/* ftrace_caller loads the literal with one LD, which is only
	 * guaranteed single-copy atomic when naturally aligned (RISC-V
	 * unprivileged ISA, "Memory Consistency Model": aligned accesses);
	 * 8-aligned literal also makes both entry words 4-aligned, which
	 * the 4-byte patch stores need. Hence -falign-functions=8. */
	s->aligned = !(A & 7);
	s->aligned_by_chance = s->aligned && ob->elf.sh[sec].sh_addralign < 8;
	img_site_origin(s, ob, sec, fs);
	img_site_align_diag(img, ob, s);
	return 0;
}

/* ---- trap stubs ---------------------------------------------------------- */

/* EBREAK (RISC-V unprivileged ISA, "Environment Call and Breakpoints") has
 * no immediate: the stub is named by its address (sim_image_stub_name). */
static void riscv64_write_stub(struct sim_aspace *as, uint64_t a, size_t k)
{
	(void)k;
	sim_write32(as, a, SIM_RV_EBREAK);
	for (int w = 1; w < SIM_STUB_SIZE / 4; w++)
		sim_write32(as, a + 4 * w, SIM_RV_NOP);
}

const struct sim_arch sim_arch_riscv64 = {
	.arch = FTV_ARCH_RISCV64,
	.prepare = img_riscv64_align,
	.relocate = riscv64_relocate,
	.classify = riscv64_classify,
	.write_stub = riscv64_write_stub,
};
