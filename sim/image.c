/* The loader's generic part (sim/image.h): objects, placement, symbol
 * resolution, the link; what differs per architecture goes through
 * sim/arch.h. */
#include "sim/arch.h"

#include "util/decompress.h"
#include "util/vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sim_image *sim_image_new(struct sim_aspace *as,
				const struct sim_load_opts *o)
{
	struct sim_image *img = calloc(1, sizeof(*img));
	uint64_t mbase;

	if (!img)
		return NULL;
	img->as = as;
	img->ops = sim_arch_get(img->arch);
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
	const struct sim_arch *ops = sim_arch_get(elf->arch);
	size_t ns = elf->nsyms ? elf->nsyms : 1;
	int grown;

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
	if (ops->prepare && ops->prepare(elf, err)) {
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
	grown = !VEC_RESERVE(img->objs, img->capobjs, img->nobjs + 1);
	if (!ob->name || !ob->secs || !ob->secaddr || !ob->placed ||
	    !ob->symval || !ob->symbad || !grown) {
		obj_free(ob);
		return ftv_errf(err, "out of memory");
	}
	ob->info.path = ob->elf.path;
	ob->info.name = ob->name;
	ob->info.is_module = as_module;
	ob->info.sections = ob->secs;
	ob->info.nsyms = elf->nsyms;
	img->arch = elf->arch;
	img->ops = ops;
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

	if (VEC_RESERVE(img->g, img->capg, img->ng + 1) ||
	    sim_strmap_put(&img->gmap, name, img->ng))
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
	char *n;
	size_t k = img->nstubs;

	a = sim_region_alloc(img->stubs, SIM_STUB_SIZE, SIM_STUB_SIZE, err);
	if (!a)
		return 0;
	n = strdup(name);
	if (!n || VEC_RESERVE(img->stubnames, img->capstubs, k + 1) ||
	    sim_strmap_put(&img->stubmap, n, k)) {
		free(n);
		ftv_errf(err, "out of memory");
		return 0;
	}
	img->stubnames[k] = n;
	img->nstubs++;
	img->ops->write_stub(img->as, a, k);
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
		if (img->o.bind && !ob->info.is_module) {
			uint64_t v = 0;
			int b = img->o.bind(img->o.bind_ctx, img, name, &v, err);

			if (b < 0)
				return ftv_err_prefix(err, "%s: '%s'", e->path, name);
			if (b > 0) {
				if (!(g = global_get(img, name)) &&
				    !(g = global_new(img, name)))
					return ftv_errf(err, "out of memory");
				g->strength = 2;
				g->value = v;
				g->obj = oi;
				ob->symval[i] = v;
				continue;
			}
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

uint64_t sim_image_veneer(struct sim_image *img, uint64_t from,
			  uint64_t target, struct ftv_err *err)
{
	struct sim_region *r = sim_region_at(img->as, from);

	if (!r || !(r->perms & SIM_X)) {
		ftv_errf(err, "veneer: 0x%llx is not in a text region",
			 (unsigned long long)from);
		return 0;
	}
	if (!img->ops->veneer) {
		ftv_errf(err, "veneer: %s calls reach every region without one",
			 ftv_arch_name(img->arch));
		return 0;
	}
	return img->ops->veneer(img, r, target, err);
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
		/* every entry's symbol exists, before an arch reads it */
		for (size_t k = 0, n = sim_elf_nrela(e, i); k < n; k++) {
			Elf64_Rela r;

			sim_elf_rela(e, i, k, &r);
			if (ELF64_R_SYM(r.r_info) >= e->nsyms)
				return ftv_errf(err, "%s: %s entry %zu: symbol index %llu, the symbol table has %zu",
						e->path, sim_elf_secname(e, i), k,
						(unsigned long long)ELF64_R_SYM(r.r_info),
						(size_t)e->nsyms);
		}
		if (img->ops->relocate(img, ob, i, err))
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
