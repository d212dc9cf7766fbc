/* The loader's diagnostics (what the kernel would warn about, and ftv's
 * own notes) and the labels its messages use. */
#define _GNU_SOURCE /* vasprintf */
#include "sim/image_priv.h"

#include "util/vec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

const char *sim_diag_kind_name(enum sim_diag_kind k)
{
	static const char *const n[] = {
		[SIM_DIAG_MISALIGNED] = "misaligned",
		[SIM_DIAG_ALIGNED_BY_CHANCE] = "aligned_by_chance",
		[SIM_DIAG_UNEXPECTED_INSN] = "unexpected_insn",
		[SIM_DIAG_BAD_ENTRY] = "bad_entry",
		[SIM_DIAG_SKIPPED_RELOCS] = "skipped_relocs",
		[SIM_DIAG_STUBBED] = "stubbed",
		[SIM_DIAG_VENEER] = "veneer",
	};

	return (unsigned)k < sizeof(n) / sizeof(n[0]) ? n[k] : "?";
}

void img_diag(struct sim_image *img, enum sim_diag_kind k, const char *fmt, ...)
{
	va_list ap;
	char *text;

	if (VEC_RESERVE(img->diags, img->capdiags, img->ndiags + 1))
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (!text)
		return;
	img->diags[img->ndiags].kind = k;
	img->diags[img->ndiags].text = text;
	img->ndiags++;
}

const char *img_sym_label(const struct sim_elf *e, size_t sym)
{
	const Elf64_Sym *y = &e->syms[sym];

	if (ELF64_ST_TYPE(y->st_info) == STT_SECTION)
		return sim_elf_secname(e, y->st_shndx);
	return sim_elf_symname(e, sym);
}

int img_reloc_target_ok(const struct img_obj *ob, unsigned rs, uint64_t off,
			unsigned sym, int64_t addend, const char *rname,
			struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;
	const Elf64_Sym *y = &e->syms[sym];
	uint64_t size, at;

	if (!img_label_unbounded(y) || y->st_shndx == SHN_UNDEF ||
	    y->st_shndx >= e->nsec)
		return 0;
	size = e->sh[y->st_shndx].sh_size;
	at = y->st_value + (uint64_t)addend;
	if (at <= size)
		return 0;
	return ftv_errf(err, "%s: %s+0x%llx: %s against '%s'%+lld points outside %s (size 0x%llx)",
			e->path, sim_elf_secname(e, e->sh[rs].sh_info),
			(unsigned long long)off, rname, img_sym_label(e, sym),
			(long long)addend, sim_elf_secname(e, y->st_shndx),
			(unsigned long long)size);
}
