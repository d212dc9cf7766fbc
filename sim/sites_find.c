/* Patch-site discovery: reads __patchable_function_entries after
 * relocation (each entry an absolute address of the first patchable word)
 * and the BL _mcount places the relocation pass recorded, and hands each
 * entry to the architecture's classifier (sim/arch.h), which records the
 * site by the words the compiler actually emitted, or what the kernel
 * would warn about. */
#include "sim/arch.h"

#include <string.h>

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
			if (img->ops->classify(img, ob, sec, A, err))
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
		if (!(s = img_site_new(img)))
			return ftv_errf(err, "out of memory");
		s->kind = FTV_SITE_MCOUNT;
		s->addr = s->entry = P;
		s->func = fs ? fs->addr : P;
		img_site_origin(s, ob, sec, fs);
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
