/* The loader's arm64 verbs (sim/arch.h): relocating a section, with PLT
 * veneers for branches out of range as the module loader makes them;
 * classifying a patch site by the words GCC emits; the BRK trap stub. */
#include "sim/arch.h"

#include "encoders/a64.h"
#include "sim/reloc_arm64.h"
#include "util/vec.h"

#include <stdlib.h>
#include <string.h>

/* ---- relocation and veneers --------------------------------------------- */

/* A PLT veneer (adrp x16; add x16, x16, :lo12:; br x16) in region r that
 * branches to target; one per (region, target), as the kernel's
 * module_emit_plt_entry() shares entries with the same destination. */
static size_t ven_slot(const struct sim_image *img, struct sim_region *r,
		       uint64_t target)
{
	uint64_t h = (target ^ (uintptr_t)r) * 0x9e3779b97f4a7c15ull;
	size_t i = (h >> 20) & (img->venhcap - 1);

	while (img->venhash[i]) {
		const struct img_veneer *v = &img->ven[img->venhash[i] - 1];

		if (v->r == r && v->target == target)
			break;
		i = (i + 1) & (img->venhcap - 1);
	}
	return i;
}

static int ven_index(struct sim_image *img)
{
	size_t ncap = img->venhcap ? img->venhcap * 2 : 256;
	size_t *nh = calloc(ncap, sizeof(*nh));

	if (!nh)
		return -1;
	free(img->venhash);
	img->venhash = nh;
	img->venhcap = ncap;
	for (size_t k = 0; k < img->nven; k++)
		nh[ven_slot(img, img->ven[k].r, img->ven[k].target)] = k + 1;
	return 0;
}

/* The veneer's three words with zero immediates, as the module PLT entry of
 * arch/arm64/kernel/module-plts.c: ADRP X16 (Arm ARM C6.2.11), ADD X16, X16,
 * #0 (C6.2.4), BR X16 (C6.2.37). BR through X16 may land on a BTI C pad (Arm
 * ARM D8.4.1: BTYPE 01 for BR X16/X17), so veneers reach BTI targets. */
static int veneer_words(uint8_t *p, struct ftv_err *err)
{
	static const struct a64_insn insn[3] = {
		{ .id = A64_ADRP, .is64 = true, .rd = 16 }, /* pc = target: page 0 */
		{ .id = A64_ADD, .is64 = true, .rd = 16, .rn = 16 },
		{ .id = A64_BR, .is64 = true, .rn = 16 },
	};
	uint32_t w[3];

	for (int i = 0; i < 3; i++)
		if (a64_encode(&insn[i], &w[i], err))
			return -1;
	memcpy(p, w, sizeof(w));
	return 0;
}

static uint64_t arm64_veneer(struct sim_image *img, struct sim_region *r,
			     uint64_t target, struct ftv_err *err)
{
	uint64_t a;
	uint8_t *p;
	size_t slot;

	if (((img->nven + 1) * 2 > img->venhcap && ven_index(img)) ||
	    VEC_RESERVE(img->ven, img->capven, img->nven + 1)) {
		ftv_errf(err, "out of memory");
		return 0;
	}
	slot = ven_slot(img, r, target);
	if (img->venhash[slot])
		return img->ven[img->venhash[slot] - 1].addr;
	a = sim_region_alloc(r, 12, 4, err);
	if (!a)
		return 0;
	p = sim_ptr(img->as, a, 12);
	if (!p) {
		ftv_errf(err, "PLT veneer at 0x%llx is unmapped",
			 (unsigned long long)a);
		return 0;
	}
	/* The immediates go in through the relocation code itself: the same
	 * insertion rules as ADR_PREL_PG_HI21 and ADD_ABS_LO12_NC. */
	if (veneer_words(p, err))
		return 0;
	if (sim_arm64_reloc_apply(R_AARCH64_ADR_PREL_PG_HI21, p, a, target, 0,
				  NULL) ||
	    sim_arm64_reloc_apply(R_AARCH64_ADD_ABS_LO12_NC, p + 4, a + 4,
				  target, 0, NULL)) {
		ftv_errf(err, "PLT veneer at 0x%llx cannot reach 0x%llx",
			 (unsigned long long)a, (unsigned long long)target);
		return 0;
	}
	img->ven[img->nven].r = r;
	img->ven[img->nven].target = target;
	img->ven[img->nven].addr = a;
	img->nven++;
	img->venhash[slot] = img->nven;
	sim_sym_add(img->as, "__plt_veneer", a, 12, SIM_SYM_OTHER, NULL);
	return a;
}

static int arm64_relocate(struct sim_image *img, struct img_obj *ob,
			  unsigned rs, struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;
	unsigned ts = e->sh[rs].sh_info;
	const char *tname = sim_elf_secname(e, ts);
	size_t n = sim_elf_nrela(e, rs);
	struct sim_region *treg = sim_region_at(img->as, ob->secaddr[ts]);

	for (size_t k = 0; k < n; k++) {
		Elf64_Rela r;
		unsigned type, sym;
		int width;
		uint64_t P, S;
		uint8_t *loc;
		int64_t x = 0;
		enum sim_reloc_status st;

		sim_elf_rela(e, rs, k, &r);
		type = ELF64_R_TYPE(r.r_info);
		sym = ELF64_R_SYM(r.r_info);
		width = sim_arm64_reloc_width(type);
		if (width < 0)
			return ftv_errf(err, "%s: %s+0x%llx: unsupported relocation %s against '%s'",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_arm64_reloc_name(type), img_sym_label(e, sym));
		if (width == 0)
			continue;
		if ((uint64_t)width > e->sh[ts].sh_size ||
		    r.r_offset > e->sh[ts].sh_size - width)
			return ftv_errf(err, "%s: %s+0x%llx: %s runs past the end of %s",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_arm64_reloc_name(type), tname);
		if (ob->symbad[sym])
			return ftv_errf(err, "%s: %s+0x%llx: %s against '%s' in unloaded section %s",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_arm64_reloc_name(type), img_sym_label(e, sym),
					sim_elf_secname(e, e->syms[sym].st_shndx));
		if (img_reloc_target_ok(ob, rs, r.r_offset, sym, r.r_addend,
					sim_arm64_reloc_name(type), err))
			return -1;
		P = ob->secaddr[ts] + r.r_offset;
		S = ob->symval[sym];
		loc = sim_ptr(img->as, P, width);
		st = sim_arm64_reloc_apply(type, loc, P, S, r.r_addend, &x);
		if (st == SIM_RELOC_OVERFLOW && sim_arm64_reloc_is_branch26(type) &&
		    treg) {
			/* arch/arm64/kernel/module.c: an out-of-range
			 * CALL26/JUMP26 goes through a PLT entry. */
			uint64_t v = arm64_veneer(img, treg, S + r.r_addend, err);

			if (!v)
				return ftv_err_prefix(err, "%s: %s+0x%llx",
						      e->path, tname,
						      (unsigned long long)r.r_offset);
			ob->info.nveneers++;
			st = sim_arm64_reloc_apply(type, loc, P, v, 0, &x);
		}
		if (st == SIM_RELOC_OVERFLOW)
			return ftv_errf(err, "%s: %s+0x%llx: %s against '%s' overflows (offset 0x%llx)",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_arm64_reloc_name(type), img_sym_label(e, sym),
					(unsigned long long)x);
		if (st != SIM_RELOC_OK)
			return ftv_errf(err, "%s: %s+0x%llx: unsupported relocation %s against '%s'",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_arm64_reloc_name(type), img_sym_label(e, sym));
		ob->info.nrelocs++;
		/* The 2014 scheme: every BL _mcount of a -pg object is a
		 * patch site (arch/arm64 recordmcount / ftrace_make_nop). */
		if (type == R_AARCH64_CALL26 &&
		    !strcmp(sim_elf_symname(e, sym), "_mcount") &&
		    VEC_PUSH(ob->mcount, ob->nmcount, ob->capmcount, P))
			return ftv_errf(err, "out of memory");
	}
	return 0;
}

/* ---- patch sites ---------------------------------------------------------- */

/* Checks that the words at a[0..n) are NOPs; reports the first that is
 * not, as the kernel's ftrace_init_nop() validation would refuse it. */
static int expect_nops(struct sim_image *img, const char *fname,
		       const uint64_t *a, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t w = img_word(img, a[i]);

		if (!a64_is_nop(w)) {
			img_diag(img, SIM_DIAG_UNEXPECTED_INSN,
				 "unexpected insn in patch-site %s: 0x%08x",
				 fname, w);
			return -1;
		}
	}
	return 0;
}

static int arm64_classify(struct sim_image *img, const struct img_obj *ob,
			  unsigned sec, uint64_t A, struct ftv_err *err)
{
	const struct sim_symbol *fs;
	struct sim_site *s;
	char buf[160];

	if ((fs = img_func_at(img, A))) {
		/* =2: the entry is the function's first word. */
		uint64_t n[2] = { A, A + 4 };

		if (expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = img_site_new(img)))
			return ftv_errf(err, "out of memory");
		s->kind = FTV_SITE_ARGS;
		s->func = A;
		s->mov_addr = A;
		s->addr = A + 4;
	} else if ((fs = img_func_at(img, A + 8))) {
		/* =4,2: two NOPs before the entry form the ops literal. */
		uint64_t f = A + 8, lit[2] = { A, A + 4 }, n[2];
		int bti = img_word(img, f) == a64_gen_bti(A64_BTI_C);

		n[0] = f + 4 * bti;
		n[1] = n[0] + 4;
		if (expect_nops(img, fs->name, lit, 2) ||
		    expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = img_site_new(img)))
			return ftv_errf(err, "out of memory");
		s->kind = FTV_SITE_CALL_OPS;
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
	} else if ((fs = img_func_at(img, A - 4)) &&
		   img_word(img, A - 4) == a64_gen_bti(A64_BTI_C)) {
		/* =2 with BTI: the entry is after the landing pad. */
		uint64_t n[2] = { A, A + 4 };

		if (expect_nops(img, fs->name, n, 2))
			return 0;
		if (!(s = img_site_new(img)))
			return ftv_errf(err, "out of memory");
		s->kind = FTV_SITE_ARGS;
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
	s->pac = a64_is_paciasp(img_word(img, s->addr + 4));
	img_site_origin(s, ob, sec, fs);
	img_site_align_diag(img, ob, s);
	return 0;
}

/* ---- trap stubs ---------------------------------------------------------- */

/* BRK #imm16 (Arm ARM C6.2.40) with a distinct immediate, so a CPU that
 * calls it stops with an exception naming it. */
static void arm64_write_stub(struct sim_aspace *as, uint64_t a, size_t k)
{
	sim_write32(as, a, a64_gen_brk((uint16_t)(k + 1)));
	for (int w = 1; w < SIM_STUB_SIZE / 4; w++)
		sim_write32(as, a + 4 * w, a64_gen_nop());
}

const struct sim_arch sim_arch_arm64 = {
	.arch = FTV_ARCH_ARM64,
	.relocate = arm64_relocate,
	.veneer = arm64_veneer,
	.classify = arm64_classify,
	.write_stub = arm64_write_stub,
};
