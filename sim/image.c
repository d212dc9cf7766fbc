#define _GNU_SOURCE /* vasprintf */
#include "sim/image_priv.h"

#include "encoders/a64.h"
#include "sim/reloc.h"
#include "util/decompress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

const char *sim_site_layout_name(enum sim_site_layout l)
{
	switch (l) {
	case SIM_SITE_CALL_OPS:
		return "call_ops";
	case SIM_SITE_ARGS:
		return "args";
	case SIM_SITE_MCOUNT:
		return "mcount";
	case SIM_SITE_RISCV_CALL_OPS:
		return "riscv_call_ops";
	}
	return "?";
}

void img_diag(struct sim_image *img, enum sim_diag_kind k, const char *fmt, ...)
{
	va_list ap;
	char *text;

	if (img->ndiags == img->capdiags) {
		size_t ncap = img->capdiags ? img->capdiags * 2 : 16;
		struct sim_diag *nd = realloc(img->diags, ncap * sizeof(*nd));

		if (!nd)
			return;
		img->diags = nd;
		img->capdiags = ncap;
	}
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

struct sim_image *sim_image_new(struct sim_aspace *as,
				const struct sim_load_opts *o)
{
	struct sim_image *img = calloc(1, sizeof(*img));
	uint64_t mbase;

	if (!img)
		return NULL;
	img->as = as;
	if (o)
		img->o = *o;
	mbase = img->o.far_modules ? SIM_MODULE_FAR_BASE : SIM_MODULE_BASE;
	img->ktext = sim_map(as, "kernel.text", SIM_KERNEL_TEXT_BASE,
			     SIM_KTEXT_SIZE, SIM_R | SIM_X, SIM_REGION_TEXT, NULL);
	img->stubs = sim_map(as, "stubs", SIM_STUBS_BASE, SIM_STUBS_SIZE,
			     SIM_R | SIM_X, SIM_REGION_STUBS, NULL);
	img->krodata = sim_map(as, "kernel.rodata", SIM_KRODATA_BASE,
			       SIM_KRODATA_SIZE, SIM_R, SIM_REGION_RODATA, NULL);
	img->kdata = sim_map(as, "kernel.data", SIM_KDATA_BASE, SIM_KDATA_SIZE,
			     SIM_R | SIM_W, SIM_REGION_DATA, NULL);
	img->kbss = sim_map(as, "kernel.bss", SIM_KBSS_BASE, SIM_KBSS_SIZE,
			    SIM_R | SIM_W, SIM_REGION_BSS, NULL);
	if (!img->o.no_modules) {
		img->mrodata = sim_map(as, "module.rodata", mbase, SIM_MRODATA_SIZE,
				       SIM_R, SIM_REGION_MODULE, NULL);
		img->mdata = sim_map(as, "module.data", mbase + SIM_MRODATA_SIZE,
				     SIM_MDATA_SIZE, SIM_R | SIM_W, SIM_REGION_MODULE,
				     NULL);
		img->mtext = sim_map(as, "module.text", mbase + SIM_MTEXT_OFFSET,
				     SIM_MTEXT_SIZE, SIM_R | SIM_X, SIM_REGION_MODULE,
				     NULL);
	}
	if (!img->ktext || !img->stubs || !img->krodata || !img->kdata ||
	    !img->kbss || (!img->o.no_modules &&
	    (!img->mtext || !img->mrodata || !img->mdata))) {
		free(img);
		return NULL;
	}
	return img;
}

static void obj_free(struct img_obj *ob)
{
	if (!ob)
		return;
	sim_elf_free(&ob->elf);
	free(ob->secs);
	free(ob->name);
	free(ob->secaddr);
	free(ob->placed);
	free(ob->symval);
	free(ob->symbad);
	free(ob->mcount);
	free(ob);
}

void sim_image_free(struct sim_image *img)
{
	if (!img)
		return;
	for (size_t i = 0; i < img->nobjs; i++)
		obj_free(img->objs[i]);
	free(img->objs);
	sim_strmap_free(&img->gmap);
	free(img->g);
	sim_strmap_free(&img->stubmap);
	for (size_t i = 0; i < img->nstubs; i++)
		free(img->stubnames[i]);
	free(img->stubnames);
	free(img->ven);
	free(img->venhash);
	free(img->sites);
	for (size_t i = 0; i < img->ndiags; i++)
		free(img->diags[i].text);
	free(img->diags);
	free(img);
}

struct sim_aspace *sim_image_aspace(struct sim_image *img)
{
	return img->as;
}

/* Modules: "foo" for ".../foo.ko.xz" (.zst, .gz), ".../foo.ko" or
 * ".../foo.o"; kernel objects: "a.o" for ".../a.o". */
static char *object_name(const char *path, int as_module)
{
	const char *b = strrchr(path, '/');
	char *n = strdup(b ? b + 1 : path);
	size_t l;

	if (!n || !as_module)
		return n;
	l = strlen(n);
	if (ftv_z_claimed(n) != FTV_Z_NONE)
		n[l = strrchr(n, '.') - n] = 0;
	if (l > 3 && !strcmp(n + l - 3, ".ko"))
		n[l - 3] = 0;
	else if (l > 2 && !strcmp(n + l - 2, ".o"))
		n[l - 2] = 0;
	return n;
}

static int add_obj(struct sim_image *img, struct sim_elf *elf, int as_module,
		   struct ftv_err *err)
{
	struct img_obj *ob = calloc(1, sizeof(*ob));
	struct img_obj **no;
	size_t ns = elf->nsyms ? elf->nsyms : 1;

	if (ob && as_module && img->o.no_modules) {
		ftv_errf(err, "%s: this image has no module regions", elf->path);
		free(ob);
		sim_elf_free(elf);
		return -1;
	}
	if (!ob) {
		sim_elf_free(elf);
		return ftv_errf(err, "out of memory");
	}
	/* One architecture per image: the executor runs one kind of CPU. */
	if (img->nobjs && elf->arch != img->arch) {
		ftv_errf(err, "%s: %s object, but the image is %s (first object: %s); one image holds one architecture",
			 elf->path, ftv_arch_name(elf->arch),
			 ftv_arch_name(img->arch), img->objs[0]->elf.path);
		sim_elf_free(elf);
		free(ob);
		return -1;
	}
	if (elf->arch == FTV_ARCH_RISCV64 && img_rv_align(elf, err)) {
		sim_elf_free(elf);
		free(ob);
		return -1;
	}
	ob->elf = *elf;
	ob->name = object_name(elf->path, as_module);
	ob->secs = calloc(elf->nsec, sizeof(*ob->secs));
	ob->secaddr = calloc(elf->nsec, sizeof(*ob->secaddr));
	ob->placed = calloc(elf->nsec, 1);
	ob->symval = calloc(ns, sizeof(*ob->symval));
	ob->symbad = calloc(ns, 1);
	no = realloc(img->objs, (img->nobjs + 1) * sizeof(*no));
	if (no)
		img->objs = no;
	if (!ob->name || !ob->secs || !ob->secaddr || !ob->placed ||
	    !ob->symval || !ob->symbad || !no) {
		obj_free(ob);
		return ftv_errf(err, "out of memory");
	}
	ob->info.path = ob->elf.path;
	ob->info.name = ob->name;
	ob->info.is_module = as_module;
	ob->info.sections = ob->secs;
	ob->info.nsyms = elf->nsyms;
	img->arch = elf->arch;
	img->objs[img->nobjs++] = ob;
	return 0;
}

int sim_image_add_file(struct sim_image *img, const char *path, int as_module,
		       struct ftv_err *err)
{
	struct sim_elf e;

	if (sim_elfobj_load(&e, path, err))
		return -1;
	return add_obj(img, &e, as_module, err);
}

int sim_image_add_mem(struct sim_image *img, const char *path, uint8_t *data,
		      size_t size, int as_module, struct ftv_err *err)
{
	struct sim_elf e;

	if (sim_elfobj_parse(&e, path, data, size, err))
		return -1;
	return add_obj(img, &e, as_module, err);
}

/* ---- placement ---------------------------------------------------------- */

static struct sim_region *region_for(struct sim_image *img,
				     const struct img_obj *ob,
				     const Elf64_Shdr *s)
{
	int m = ob->info.is_module;

	if (s->sh_flags & SHF_EXECINSTR)
		return m ? img->mtext : img->ktext;
	/* Modules keep .bss with their data (the module loader's RW
	 * layout); the kernel has its own .bss, as in vmlinux.lds. */
	if ((s->sh_flags & SHF_WRITE) && s->sh_type == SHT_NOBITS && !m)
		return img->kbss;
	if (s->sh_flags & SHF_WRITE)
		return m ? img->mdata : img->kdata;
	return m ? img->mrodata : img->krodata;
}

static int place(struct sim_image *img, struct img_obj *ob,
		 struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;

	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		struct sim_region *r;
		struct sim_loaded_section *ls;
		uint64_t a;

		if (!(s->sh_flags & SHF_ALLOC))
			continue;
		r = region_for(img, ob, s);
		/* Exactly the section's own alignment: over-aligning would
		 * hide the misalignment a real link produces. */
		a = sim_region_alloc(r, s->sh_size,
				     s->sh_addralign ? s->sh_addralign : 1, err);
		if (!a)
			return ftv_err_prefix(err, "%s: placing %s", e->path,
					      sim_elf_secname(e, i));
		if (s->sh_type != SHT_NOBITS && s->sh_size &&
		    sim_write(img->as, a, e->data + s->sh_offset, s->sh_size,
			      err))
			return ftv_err_prefix(err, "%s: %s", e->path,
					      sim_elf_secname(e, i));
		ob->secaddr[i] = a;
		ob->placed[i] = 1;
		ls = &ob->secs[ob->info.nsections++];
		ls->name = sim_elf_secname(e, i);
		ls->addr = a;
		ls->size = s->sh_size;
		ls->align = s->sh_addralign;
		ls->flags = s->sh_flags;
		ls->nobits = s->sh_type == SHT_NOBITS;
		ls->region = r->name;
	}
	return 0;
}

/* ---- symbols ------------------------------------------------------------ */

static int is_global(const Elf64_Sym *y)
{
	int b = ELF64_ST_BIND(y->st_info);

	return b == STB_GLOBAL || b == STB_WEAK || b == STB_GNU_UNIQUE;
}

static struct img_global *global_get(struct sim_image *img, const char *name)
{
	size_t i;

	return sim_strmap_get(&img->gmap, name, &i) ? &img->g[i] : NULL;
}

static struct img_global *global_new(struct sim_image *img, const char *name)
{
	struct img_global *g;

	if (img->ng == img->capg) {
		size_t ncap = img->capg ? img->capg * 2 : 256;
		struct img_global *ng = realloc(img->g, ncap * sizeof(*ng));

		if (!ng)
			return NULL;
		img->g = ng;
		img->capg = ncap;
	}
	if (sim_strmap_put(&img->gmap, name, img->ng))
		return NULL;
	g = &img->g[img->ng++];
	memset(g, 0, sizeof(*g));
	g->name = name;
	return g;
}

/* The value of a symbol defined in this object (not via the globals). */
/* (sim/elfobj.c checked that value and size lie inside the section.) */
static void local_value(struct img_obj *ob, size_t i)
{
	const struct sim_elf *e = &ob->elf;
	const Elf64_Sym *y = &e->syms[i];

	if (y->st_shndx == SHN_ABS) {
		ob->symval[i] = y->st_value;
		return;
	}
	if (y->st_shndx == SHN_UNDEF || y->st_shndx == SHN_COMMON)
		return;
	if (!ob->placed[y->st_shndx]) {
		ob->symbad[i] = 1;
		return;
	}
	ob->symval[i] = ob->secaddr[y->st_shndx] +
			(ELF64_ST_TYPE(y->st_info) == STT_SECTION ? 0 : y->st_value);
}

/* The names module ob exports: EXPORT_SYMBOL leaves a __ksymtab_<name>
 * symbol (include/linux/export-internal.h). Keys point into the ELF
 * string table. */
static int module_exports(const struct img_obj *ob, struct sim_strmap *m)
{
	for (size_t i = 1; i < ob->elf.nsyms; i++) {
		const char *n = sim_elf_symname(&ob->elf, i);

		if (ob->elf.syms[i].st_shndx != SHN_UNDEF &&
		    !strncmp(n, "__ksymtab_", 10) && n[10] &&
		    sim_strmap_put(m, n + 10, i))
			return -1;
	}
	return 0;
}

static int define_globals(struct sim_image *img, size_t oi,
			  struct ftv_err *err)
{
	struct img_obj *ob = img->objs[oi];
	const struct sim_elf *e = &ob->elf;
	struct sim_strmap exports = { 0 };
	int rc = 0;

	if (ob->info.is_module && module_exports(ob, &exports)) {
		sim_strmap_free(&exports);
		return ftv_errf(err, "out of memory");
	}
	for (size_t i = 1; i < e->nsyms; i++) {
		const Elf64_Sym *y = &e->syms[i];
		const char *name = sim_elf_symname(e, i);
		int strength;
		struct img_global *g;

		if (!is_global(y) || y->st_shndx == SHN_UNDEF || !*name)
			continue;
		if (ob->info.is_module &&
		    (y->st_shndx == SHN_COMMON ||
		     !sim_strmap_get(&exports, name, &(size_t){ 0 })))
			continue;
		strength = y->st_shndx == SHN_COMMON ? 0 :
			   ELF64_ST_BIND(y->st_info) == STB_WEAK ? 1 : 2;
		g = global_get(img, name);
		if (!g) {
			g = global_new(img, name);
			if (!g) {
				rc = ftv_errf(err, "out of memory");
				break;
			}
			g->strength = -1;
		}
		if (strength == 2 && g->strength == 2) {
			rc = ftv_errf(err, "%s: multiple definition of '%s' (first in %s)",
				      e->path, name,
				      img->objs[g->obj]->elf.path);
			break;
		}
		if (strength == 0) {
			/* COMMON: the largest size and alignment win
			 * (ld's rule); a real definition beats it. */
			if (g->strength <= 0) {
				if (y->st_size > g->csize)
					g->csize = y->st_size;
				if (y->st_value > g->calign)
					g->calign = y->st_value;
				if (g->strength < 0)
					g->obj = oi;
				g->strength = 0;
			}
			continue;
		}
		if (strength > g->strength) {
			g->strength = strength;
			g->value = ob->symval[i];
			g->obj = oi;
			if (ob->symbad[i]) {
				rc = ftv_errf(err, "%s: global '%s' is defined in unloaded section %s",
					      e->path, name,
					      sim_elf_secname(e, y->st_shndx));
				break;
			}
		}
	}
	sim_strmap_free(&exports);
	return rc;
}

static int alloc_commons(struct sim_image *img, struct ftv_err *err)
{
	for (size_t i = 0; i < img->ng; i++) {
		struct img_global *g = &img->g[i];
		uint64_t a;

		if (g->strength != 0 || g->allocated)
			continue;
		a = sim_region_alloc(img->kbss, g->csize ? g->csize : 1,
				     g->calign ? g->calign : 1, err);
		if (!a)
			return ftv_err_prefix(err, "COMMON symbol '%s'", g->name);
		g->value = a;
		g->allocated = 1;
		sim_sym_add(img->as, g->name, a, g->csize, SIM_SYM_OBJECT, NULL);
	}
	return 0;
}

static uint64_t new_stub(struct sim_image *img, const char *name,
			 struct ftv_err *err)
{
	uint64_t a;
	char *n, **nn;
	size_t k = img->nstubs;

	a = sim_region_alloc(img->stubs, SIM_STUB_SIZE, SIM_STUB_SIZE, err);
	if (!a)
		return 0;
	n = strdup(name);
	nn = realloc(img->stubnames, (k + 1) * sizeof(*nn));
	if (nn)
		img->stubnames = nn;
	if (!n || !nn || sim_strmap_put(&img->stubmap, n, k)) {
		free(n);
		ftv_errf(err, "out of memory");
		return 0;
	}
	img->stubnames[k] = n;
	img->nstubs++;
	if (img->arch == FTV_ARCH_RISCV64) {
		/* EBREAK (RISC-V unprivileged ISA, "Environment Call and
		 * Breakpoints") has no immediate: the stub is named by its
		 * address (sim_image_stub_name). */
		sim_write32(img->as, a, SIM_RV_EBREAK);
		for (int w = 1; w < SIM_STUB_SIZE / 4; w++)
			sim_write32(img->as, a + 4 * w, SIM_RV_NOP);
	} else {
		/* BRK #imm16 (Arm ARM C6.2.40) with a distinct immediate, so
		 * a CPU that calls it stops with an exception naming it. */
		sim_write32(img->as, a, a64_gen_brk((uint16_t)(k + 1)));
		for (int w = 1; w < SIM_STUB_SIZE / 4; w++)
			sim_write32(img->as, a + 4 * w, a64_gen_nop());
	}
	sim_sym_add(img->as, n, a, SIM_STUB_SIZE, SIM_SYM_FUNC, "undefined");
	return a;
}

/* Gives every symbol of ob its final value; appends missing names. */
static int resolve(struct sim_image *img, size_t oi, char *missing,
		   size_t nmissing, size_t *nmiss, struct ftv_err *err)
{
	struct img_obj *ob = img->objs[oi];
	const struct sim_elf *e = &ob->elf;

	for (size_t i = 1; i < e->nsyms; i++) {
		const Elf64_Sym *y = &e->syms[i];
		const char *name = sim_elf_symname(e, i);
		struct img_global *g;
		size_t st;

		if (y->st_shndx == SHN_COMMON && ob->info.is_module) {
			/* Modules keep COMMON symbols private. */
			uint64_t a = sim_region_alloc(img->mdata,
						      y->st_size ? y->st_size : 1,
						      y->st_value ? y->st_value : 1,
						      err);
			if (!a)
				return ftv_err_prefix(err, "%s: COMMON '%s'",
						      e->path, name);
			ob->symval[i] = a;
			continue;
		}
		if (!is_global(y) || !*name)
			continue;
		if (y->st_shndx != SHN_UNDEF) {
			/* Kernel objects: a weak definition may have lost to
			 * a strong one elsewhere; modules keep their own. */
			if (!ob->info.is_module && (g = global_get(img, name)))
				ob->symval[i] = g->value;
			continue;
		}
		if ((g = global_get(img, name)) && g->strength >= 0) {
			ob->symval[i] = g->value;
			continue;
		}
		if (sim_strmap_get(&img->stubmap, name, &st)) {
			ob->symval[i] = SIM_STUBS_BASE + st * SIM_STUB_SIZE;
			continue;
		}
		/* ELF gABI: an unresolved weak reference has value 0. */
		if (ELF64_ST_BIND(y->st_info) == STB_WEAK) {
			ob->symval[i] = 0;
			continue;
		}
		if (img->o.stub_undefined) {
			uint64_t a = new_stub(img, name, err);

			if (!a)
				return ftv_err_prefix(err, "%s: stub for '%s'",
						      e->path, name);
			ob->symval[i] = a;
			ob->info.nstubbed++;
			continue;
		}
		if (*nmiss < 10) {
			size_t l = strlen(missing);

			snprintf(missing + l, nmissing - l, "%s%s (%s)",
				 *nmiss ? ", " : "", name, e->path);
		}
		(*nmiss)++;
	}
	return 0;
}

static void add_aspace_syms(struct sim_image *img, struct img_obj *ob)
{
	const struct sim_elf *e = &ob->elf;
	const char *mod = ob->info.is_module ? ob->name : NULL;

	for (size_t i = 1; i < e->nsyms; i++) {
		const Elf64_Sym *y = &e->syms[i];
		const char *name = sim_elf_symname(e, i);
		int t = ELF64_ST_TYPE(y->st_info);
		enum sim_sym_type st;

		if (!*name || name[0] == '$' || !strncmp(name, ".L", 2) ||
		    y->st_shndx == SHN_UNDEF || y->st_shndx == SHN_ABS ||
		    y->st_shndx == SHN_COMMON || ob->symbad[i])
			continue;
		if (t == STT_FUNC)
			st = SIM_SYM_FUNC;
		else if (t == STT_OBJECT)
			st = SIM_SYM_OBJECT;
		else if (t == STT_NOTYPE && is_global(y))
			st = SIM_SYM_OTHER; /* assembler labels */
		else
			continue;
		sim_sym_add(img->as, name, ob->symval[i], y->st_size, st, mod);
	}
}

/* ---- relocation --------------------------------------------------------- */

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

static uint64_t veneer(struct sim_image *img, struct sim_region *r,
		       uint64_t target, struct ftv_err *err)
{
	struct img_veneer *nv;
	uint64_t a;
	uint8_t *p;
	size_t slot;

	if ((img->nven + 1) * 2 > img->venhcap && ven_index(img)) {
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
	if (sim_reloc_apply(R_AARCH64_ADR_PREL_PG_HI21, p, a, target, 0, NULL) ||
	    sim_reloc_apply(R_AARCH64_ADD_ABS_LO12_NC, p + 4, a + 4, target, 0,
			    NULL)) {
		ftv_errf(err, "PLT veneer at 0x%llx cannot reach 0x%llx",
			 (unsigned long long)a, (unsigned long long)target);
		return 0;
	}
	nv = realloc(img->ven, (img->nven + 1) * sizeof(*nv));
	if (!nv) {
		ftv_errf(err, "out of memory");
		return 0;
	}
	img->ven = nv;
	img->ven[img->nven].r = r;
	img->ven[img->nven].target = target;
	img->ven[img->nven].addr = a;
	img->nven++;
	img->venhash[slot] = img->nven;
	sim_sym_add(img->as, "__plt_veneer", a, 12, SIM_SYM_OTHER, NULL);
	return a;
}

uint64_t sim_image_veneer(struct sim_image *img, uint64_t from,
			  uint64_t target, struct ftv_err *err)
{
	struct sim_region *r = sim_region_at(img->as, from);

	if (!r || !(r->perms & SIM_X)) {
		ftv_errf(err, "veneer: 0x%llx is not in a text region",
			 (unsigned long long)from);
		return 0;
	}
	return veneer(img, r, target, err);
}

const char *img_sym_label(const struct sim_elf *e, size_t sym)
{
	const Elf64_Sym *y = &e->syms[sym];

	if (ELF64_ST_TYPE(y->st_info) == STT_SECTION)
		return sim_elf_secname(e, y->st_shndx);
	return sim_elf_symname(e, sym);
}

static int relocate_section(struct sim_image *img, struct img_obj *ob,
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
		width = sim_reloc_width(type);
		if (width < 0)
			return ftv_errf(err, "%s: %s+0x%llx: unsupported relocation %s against '%s'",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_reloc_name(type), img_sym_label(e, sym));
		if (width == 0)
			continue;
		if ((uint64_t)width > e->sh[ts].sh_size ||
		    r.r_offset > e->sh[ts].sh_size - width)
			return ftv_errf(err, "%s: %s+0x%llx: %s runs past the end of %s",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_reloc_name(type), tname);
		if (ob->symbad[sym])
			return ftv_errf(err, "%s: %s+0x%llx: %s against '%s' in unloaded section %s",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_reloc_name(type), img_sym_label(e, sym),
					sim_elf_secname(e, e->syms[sym].st_shndx));
		P = ob->secaddr[ts] + r.r_offset;
		S = ob->symval[sym];
		loc = sim_ptr(img->as, P, width);
		st = sim_reloc_apply(type, loc, P, S, r.r_addend, &x);
		if (st == SIM_RELOC_OVERFLOW && sim_reloc_is_branch26(type) &&
		    treg) {
			/* arch/arm64/kernel/module.c: an out-of-range
			 * CALL26/JUMP26 goes through a PLT entry. */
			uint64_t v = veneer(img, treg, S + r.r_addend, err);

			if (!v)
				return ftv_err_prefix(err, "%s: %s+0x%llx",
						      e->path, tname,
						      (unsigned long long)r.r_offset);
			ob->info.nveneers++;
			st = sim_reloc_apply(type, loc, P, v, 0, &x);
		}
		if (st == SIM_RELOC_OVERFLOW)
			return ftv_errf(err, "%s: %s+0x%llx: %s against '%s' overflows (offset 0x%llx)",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_reloc_name(type), img_sym_label(e, sym),
					(unsigned long long)x);
		if (st != SIM_RELOC_OK)
			return ftv_errf(err, "%s: %s+0x%llx: unsupported relocation %s against '%s'",
					e->path, tname,
					(unsigned long long)r.r_offset,
					sim_reloc_name(type), img_sym_label(e, sym));
		ob->info.nrelocs++;
		/* The 2014 scheme: every BL _mcount of a -pg object is a
		 * patch site (arch/arm64 recordmcount / ftrace_make_nop). */
		if (type == R_AARCH64_CALL26 &&
		    !strcmp(sim_elf_symname(e, sym), "_mcount")) {
			uint64_t *nm = realloc(ob->mcount,
					       (ob->nmcount + 1) * sizeof(*nm));

			if (!nm)
				return ftv_errf(err, "out of memory");
			ob->mcount = nm;
			ob->mcount[ob->nmcount++] = P;
		}
	}
	return 0;
}

static int relocate(struct sim_image *img, struct img_obj *ob,
		    struct ftv_err *err)
{
	const struct sim_elf *e = &ob->elf;
	char skipped[160] = "";

	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if (s->sh_type != SHT_RELA && s->sh_type != SHT_REL)
			continue;
		if (!(e->sh[s->sh_info].sh_flags & SHF_ALLOC)) {
			/* Debug info and the like are not loaded, so their
			 * relocations are not applied; counted, not lost. */
			size_t l = strlen(skipped);

			if (ob->info.nrelsecs_skipped < 4)
				snprintf(skipped + l, sizeof(skipped) - l,
					 "%s%s", l ? " " : "",
					 sim_elf_secname(e, i));
			ob->info.nrelsecs_skipped++;
			ob->info.nrelocs_skipped += s->sh_entsize ?
				s->sh_size / s->sh_entsize : 0;
			continue;
		}
		if (e->arch == FTV_ARCH_RISCV64 ?
		    img_rv_relocate_section(img, ob, i, err) :
		    relocate_section(img, ob, i, err))
			return -1;
	}
	if (ob->info.nrelsecs_skipped)
		img_diag(img, SIM_DIAG_SKIPPED_RELOCS,
			 "%s: skipped %zu relocations in %zu relocation sections for unloaded (non-ALLOC) sections (%s%s)",
			 e->path, ob->info.nrelocs_skipped,
			 ob->info.nrelsecs_skipped, skipped,
			 ob->info.nrelsecs_skipped > 4 ? " ..." : "");
	if (ob->info.nveneers)
		img_diag(img, SIM_DIAG_VENEER,
			 "%s: %zu branches out of BL range go through PLT veneers",
			 e->path, ob->info.nveneers);
	return 0;
}

int sim_image_link(struct sim_image *img, struct ftv_err *err)
{
	size_t from = img->linked, nmiss = 0, nstubs0 = img->nstubs;
	char missing[400] = "";

	for (size_t i = from; i < img->nobjs; i++)
		if (place(img, img->objs[i], err))
			return -1;
	for (size_t i = from; i < img->nobjs; i++) {
		struct img_obj *ob = img->objs[i];

		for (size_t k = 1; k < ob->elf.nsyms; k++)
			local_value(ob, k);
	}
	for (size_t i = from; i < img->nobjs; i++)
		if (define_globals(img, i, err))
			return -1;
	if (alloc_commons(img, err))
		return -1;
	for (size_t i = from; i < img->nobjs; i++)
		if (resolve(img, i, missing, sizeof(missing), &nmiss, err))
			return -1;
	if (nmiss)
		return ftv_errf(err, "%zu undefined symbol%s: %s%s (use --stub-undefined to bind them to trap stubs)",
				nmiss, nmiss == 1 ? "" : "s", missing,
				nmiss > 10 ? ", ..." : "");
	if (img->nstubs > nstubs0)
		img_diag(img, SIM_DIAG_STUBBED,
			 "bound %zu undefined symbols to trap stubs (first: %s)",
			 img->nstubs - nstubs0, img->stubnames[nstubs0]);
	for (size_t i = from; i < img->nobjs; i++)
		add_aspace_syms(img, img->objs[i]);
	for (size_t i = from; i < img->nobjs; i++)
		if (relocate(img, img->objs[i], err))
			return -1;
	if (img_find_sites(img, from, err))
		return -1;
	img->linked = img->nobjs;
	return 0;
}

enum ftv_arch sim_image_arch(const struct sim_image *img)
{
	return img->arch;
}

size_t sim_image_nobjects(const struct sim_image *img)
{
	return img->nobjs;
}

const struct sim_object_info *sim_image_object(const struct sim_image *img,
					       size_t i)
{
	return i < img->nobjs ? &img->objs[i]->info : NULL;
}

size_t sim_image_nsites(const struct sim_image *img)
{
	return img->nsites;
}

const struct sim_site *sim_image_site(const struct sim_image *img, size_t i)
{
	return i < img->nsites ? &img->sites[i] : NULL;
}

size_t sim_image_ndiags(const struct sim_image *img)
{
	return img->ndiags;
}

const struct sim_diag *sim_image_diag(const struct sim_image *img, size_t i)
{
	return i < img->ndiags ? &img->diags[i] : NULL;
}

uint64_t sim_image_lookup(struct sim_image *img, const char *name)
{
	struct img_global *g = global_get(img, name);
	size_t st;

	if (g && g->strength >= 0 && (g->strength > 0 || g->allocated))
		return g->value;
	if (sim_strmap_get(&img->stubmap, name, &st))
		return SIM_STUBS_BASE + st * SIM_STUB_SIZE;
	return 0;
}

const char *sim_image_stub_name(const struct sim_image *img, uint64_t addr)
{
	uint64_t k;

	if (addr < SIM_STUBS_BASE)
		return NULL;
	k = (addr - SIM_STUBS_BASE) / SIM_STUB_SIZE;
	return k < img->nstubs ? img->stubnames[k] : NULL;
}

int sim_image_undefined_call(struct sim_image *img, uint64_t pc, uint64_t lr,
			     char *buf, size_t n)
{
	const char *name = sim_image_stub_name(img, pc);
	char from[160];

	if (!name)
		return 0;
	/* BL writes the address of the next instruction to X30 (Arm ARM
	 * C6.2.35), so the call site is lr - 4. */
	sim_symbolize(img->as, lr - 4, from, sizeof(from), 1);
	snprintf(buf, n, "called undefined symbol %s from %s", name, from);
	return 1;
}

size_t sim_image_nstubs(const struct sim_image *img)
{
	return img->nstubs;
}

const char *sim_image_stub_get(const struct sim_image *img, size_t i,
			       uint64_t *addr)
{
	if (i >= img->nstubs)
		return NULL;
	if (addr)
		*addr = SIM_STUBS_BASE + i * SIM_STUB_SIZE;
	return img->stubnames[i];
}
