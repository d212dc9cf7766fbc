/* Patch-site discovery: reads __patchable_function_entries after
 * relocation (each entry an ABS64 to the first patchable NOP) and the
 * CALL26 relocations against _mcount, classifies every site by the words
 * GCC 12 actually emits (see sim/image.h), and reports what the kernel
 * would warn about, plus the alignment that holds only by chance. */
#include "sim/image_priv.h"

#include "encoders/a64.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t word(struct sim_image *img, uint64_t a)
{
	uint32_t w;

	/* Unmapped reads as an impossible word (all ones is UDF-space). */
	return sim_read32(img->as, a, &w) ? 0xffffffffu : w;
}

/* The function symbol that starts exactly at a, or NULL. */
static const struct sim_symbol *func_at(struct sim_image *img, uint64_t a)
{
	const struct sim_symbol *s = sim_sym_at(img->as, a);

	return s && s->addr == a && s->type == SIM_SYM_FUNC ? s : NULL;
}

/* The placed executable section of ob holding a, or 0. */
static unsigned text_section(const struct img_obj *ob, uint64_t a)
{
	const struct sim_elf *e = &ob->elf;

	for (unsigned i = 1; i < e->nsec; i++)
		if (ob->placed[i] && (e->sh[i].sh_flags & SHF_EXECINSTR) &&
		    a >= ob->secaddr[i] && a - ob->secaddr[i] < e->sh[i].sh_size)
			return i;
	return 0;
}

static struct sim_site *new_site(struct sim_image *img)
{
	struct sim_site *s;

	if (img->nsites == img->capsites) {
		size_t ncap = img->capsites ? img->capsites * 2 : 64;
		struct sim_site *ns = realloc(img->sites, ncap * sizeof(*ns));

		if (!ns)
			return NULL;
		img->sites = ns;
		img->capsites = ncap;
	}
	s = &img->sites[img->nsites++];
	memset(s, 0, sizeof(*s));
	s->aligned = 1;
	return s;
}

static void fill_origin(struct sim_site *s, const struct img_obj *ob,
			unsigned sec, const struct sim_symbol *fs)
{
	s->funcname = fs ? fs->name : "?";
	s->object = ob->elf.path;
	s->module = ob->info.is_module ? ob->name : NULL;
	s->section = sim_elf_secname(&ob->elf, sec);
	s->section_align = ob->elf.sh[sec].sh_addralign;
}

/* The kernel's warning for a CALL_OPS literal that is not 8-byte aligned
 * (arm64 and RISC-V alike), and ftv's for one aligned only because of
 * where this link happened to place its section. */
static void align_diag(struct sim_image *img, const struct img_obj *ob,
		       const struct sim_site *s)
{
	char buf[160];

	if (!s->aligned)
		img_diag(img, SIM_DIAG_MISALIGNED, "Misaligned patch-site %s",
			 sim_symbolize(img->as, s->func, buf, sizeof(buf), 1));
	else if (s->aligned_by_chance)
		img_diag(img, SIM_DIAG_ALIGNED_BY_CHANCE,
			 "patch-site %s aligned only by chance: %s %s has sh_addralign %llu < 8, another link order would misalign it",
			 sim_symbolize(img->as, s->func, buf, sizeof(buf), 1),
			 ob->elf.path, s->section,
			 (unsigned long long)s->section_align);
}

/* Checks that the words at a[0..n) are NOPs; reports the first that is
 * not, as the kernel's ftrace_init_nop() validation would refuse it. */
static int expect_nops(struct sim_image *img, const char *fname,
		       const uint64_t *a, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t w = word(img, a[i]);

		if (!a64_is_nop(w)) {
			img_diag(img, SIM_DIAG_UNEXPECTED_INSN,
				 "unexpected insn in patch-site %s: 0x%08x",
				 fname, w);
			return -1;
		}
	}
	return 0;
}

static int classify(struct sim_image *img, const struct img_obj *ob,
		    unsigned sec, uint64_t A, struct ftv_err *err)
{
	const struct sim_symbol *fs;
	struct sim_site *s;
	char buf[160];

	if ((fs = func_at(img, A))) {
		/* =2: the entry is the function's first word. */
		uint64_t n[2] = { A, A + 4 };

		if (expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = new_site(img)))
			return ftv_errf(err, "out of memory");
		s->layout = SIM_SITE_ARGS;
		s->func = A;
		s->mov_addr = A;
		s->addr = A + 4;
	} else if ((fs = func_at(img, A + 8))) {
		/* =4,2: two NOPs before the entry form the ops literal. */
		uint64_t f = A + 8, lit[2] = { A, A + 4 }, n[2];
		int bti = word(img, f) == a64_gen_bti(A64_BTI_C);

		n[0] = f + 4 * bti;
		n[1] = n[0] + 4;
		if (expect_nops(img, fs->name, lit, 2) ||
		    expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = new_site(img)))
			return ftv_errf(err, "out of memory");
		s->layout = SIM_SITE_CALL_OPS;
		s->func = f;
		s->bti = bti;
		s->mov_addr = n[0];
		s->addr = n[1];
		s->literal = A;
		/* arm64 CALL_OPS needs the literal naturally aligned so that
		 * ftrace_caller's LDR of it is single-copy atomic (Arm ARM
		 * B2.2.1), hence -falign-functions=8. */
		s->aligned = !(A & 7);
		s->aligned_by_chance = s->aligned &&
				       ob->elf.sh[sec].sh_addralign < 8;
	} else if ((fs = func_at(img, A - 4)) &&
		   word(img, A - 4) == a64_gen_bti(A64_BTI_C)) {
		/* =2 with BTI: the entry is after the landing pad. */
		uint64_t n[2] = { A, A + 4 };

		if (expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = new_site(img)))
			return ftv_errf(err, "out of memory");
		s->layout = SIM_SITE_ARGS;
		s->bti = 1;
		s->func = A - 4;
		s->mov_addr = A;
		s->addr = A + 4;
	} else {
		img_diag(img, SIM_DIAG_BAD_ENTRY,
			 "patch-site %s in %s is not at a function entry",
			 sim_symbolize(img->as, A, buf, sizeof(buf), 1),
			 ob->elf.path);
		return 0;
	}
	s->entry = A;
	s->pac = a64_is_paciasp(word(img, s->addr + 4));
	fill_origin(s, ob, sec, fs);
	align_diag(img, ob, s);
	return 0;
}

/* RISC-V: whether the 8 bytes at a are one of the two NOP fillers GCC
 * emits for -fpatchable-function-entry: 4 x C.NOP (0x0001) with the C
 * extension, 2 x NOP (0x00000013) without. Returns 0 if so, else the
 * offending bytes in *bad. */
static int rv_nops8(struct sim_image *img, uint64_t a, uint32_t *bad)
{
	uint32_t w0 = word(img, a), w1 = word(img, a + 4);

	if ((w0 == 0x00010001u && w1 == 0x00010001u) ||
	    (w0 == SIM_RV_NOP && w1 == SIM_RV_NOP))
		return 0;
	*bad = w0 == 0x00010001u || w0 == SIM_RV_NOP ? w1 : w0;
	return -1;
}

int img_rv_classify(struct sim_image *img, const struct img_obj *ob,
		    unsigned sec, uint64_t A, struct ftv_err *err)
{
	const struct sim_symbol *fs = func_at(img, A + 8);
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
	if (rv_nops8(img, A, &bad) || rv_nops8(img, A + 8, &bad)) {
		img_diag(img, SIM_DIAG_UNEXPECTED_INSN,
			 "unexpected insn in patch-site %s: 0x%08x",
			 fs->name, bad);
		return 0;
	}
	if (!(s = new_site(img)))
		return ftv_errf(err, "out of memory");
	s->layout = SIM_SITE_RISCV_CALL_OPS;
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
	fill_origin(s, ob, sec, fs);
	align_diag(img, ob, s);
	return 0;
}

static int pfe_sites(struct sim_image *img, struct img_obj *ob,
		     struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;

	for (unsigned i = 1; i < e->nsec; i++) {
		uint64_t n;

		if (!ob->placed[i] ||
		    strcmp(sim_elf_secname(e, i), "__patchable_function_entries"))
			continue;
		n = e->sh[i].sh_size / 8;
		for (uint64_t k = 0; k < n; k++) {
			uint64_t A = 0;
			unsigned sec;

			sim_read64(img->as, ob->secaddr[i] + 8 * k, &A);
			if (!A) {
				/* The kernel skips these silently: entries of
				 * functions the linker discarded. */
				img_diag(img, SIM_DIAG_BAD_ENTRY,
					 "%s: patch-site entry %llu of __patchable_function_entries is zero",
					 e->path, (unsigned long long)k);
				continue;
			}
			sec = text_section(ob, A);
			if (!sec) {
				img_diag(img, SIM_DIAG_BAD_ENTRY,
					 "%s: patch-site entry %llu (0x%llx) is outside any text section",
					 e->path, (unsigned long long)k,
					 (unsigned long long)A);
				continue;
			}
			if (e->arch == FTV_ARCH_RISCV64 ?
			    img_rv_classify(img, ob, sec, A, err) :
			    classify(img, ob, sec, A, err))
				return -1;
		}
	}
	return 0;
}

static int mcount_sites(struct sim_image *img, struct img_obj *ob,
			struct ftv_err *err)
{
	for (size_t k = 0; k < ob->nmcount; k++) {
		uint64_t P = ob->mcount[k];
		const struct sim_symbol *fs = sim_sym_at(img->as, P);
		unsigned sec = text_section(ob, P);
		struct sim_site *s;

		if (!sec) {
			img_diag(img, SIM_DIAG_BAD_ENTRY,
				 "%s: BL _mcount at 0x%llx is outside any text section",
				 ob->elf.path, (unsigned long long)P);
			continue;
		}
		if (fs && fs->type != SIM_SYM_FUNC)
			fs = NULL;
		if (!(s = new_site(img)))
			return ftv_errf(err, "out of memory");
		s->layout = SIM_SITE_MCOUNT;
		s->addr = s->entry = P;
		s->func = fs ? fs->addr : P;
		fill_origin(s, ob, sec, fs);
	}
	return 0;
}

int img_find_sites(struct sim_image *img, size_t from, struct ftv_err *err)
{
	for (size_t i = from; i < img->nobjs; i++)
		if (pfe_sites(img, img->objs[i], err) ||
		    mcount_sites(img, img->objs[i], err))
			return -1;
	return 0;
}
