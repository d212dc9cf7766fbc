/* One patch-site record: its allocation, where it comes from, the
 * alignment diagnostics every CALL_OPS architecture shares, and the reads
 * the arch classifiers (sim/arch_<arch>.c) make. The patch-site layouts
 * themselves are described in sim/image.h. */
#include "sim/image_priv.h"

#include "util/vec.h"

#include <string.h>

uint32_t img_word(struct sim_image *img, uint64_t a)
{
	uint32_t w;

	/* Unmapped reads as an impossible word (all ones is UDF-space). */
	return sim_read32(img->as, a, &w) ? 0xffffffffu : w;
}

const struct sim_symbol *img_func_at(struct sim_image *img, uint64_t a)
{
	const struct sim_symbol *s = sim_sym_at(img->as, a);

	return s && s->addr == a && s->type == SIM_SYM_FUNC ? s : NULL;
}

struct sim_site *img_site_new(struct sim_image *img)
{
	struct sim_site *s;

	if (VEC_RESERVE(img->sites, img->capsites, img->nsites + 1))
		return NULL;
	s = &img->sites[img->nsites++];
	memset(s, 0, sizeof(*s));
	s->aligned = 1;
	return s;
}

void img_site_origin(struct sim_site *s, const struct img_obj *ob,
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
void img_site_align_diag(struct sim_image *img, const struct img_obj *ob,
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
