/* Internals shared by the loader's files, not for other parts:
 *   image.c        objects, placement, symbols, the link
 *   image_diag.c   diagnostics and labels for messages
 *   sites.c        one patch-site record: allocation, origin, checks
 *   sites_find.c   patch-site discovery (__patchable_function_entries,
 *                  BL _mcount)
 *   arch.c, arch_<arch>.c   what differs per architecture (sim/arch.h)
 *   align_riscv64.c         RISC-V's R_RISCV_ALIGN deletion */
#ifndef FTV_SIM_IMAGE_PRIV_H
#define FTV_SIM_IMAGE_PRIV_H

#include "sim/elfobj.h"
#include "sim/image.h"
#include "sim/strmap.h"

struct sim_arch;

struct img_obj {
	struct sim_elf elf;
	struct sim_object_info info;
	struct sim_loaded_section *secs; /* info.sections */
	char *name;
	uint64_t *secaddr;       /* per ELF section; valid when placed[i] */
	unsigned char *placed;
	uint64_t *symval;        /* per ELF symbol, after resolution */
	unsigned char *symbad;   /* symbol lives in a section that is not loaded */
	uint64_t *mcount;        /* places of BL _mcount (CALL26 relocations) */
	size_t nmcount, capmcount;
};

/* A global definition: kernel objects' globals and modules' exports. */
struct img_global {
	const char *name;
	uint64_t value;
	int strength;            /* 2 strong, 1 weak, 0 COMMON */
	uint64_t csize, calign;  /* COMMON size and alignment, merged */
	size_t obj;              /* defining object */
	int allocated;           /* COMMON storage handed out */
};

struct img_veneer {
	struct sim_region *r;
	uint64_t target, addr;
};

struct sim_image {
	struct sim_aspace *as;
	struct sim_load_opts o;
	enum ftv_arch arch;      /* of the first object added; all must match */
	const struct sim_arch *ops; /* arch's table (sim/arch.h) */
	struct sim_region *ktext, *stubs, *krodata, *kdata, *kbss;
	struct sim_region *mtext, *mrodata, *mdata;

	struct img_obj **objs;
	size_t nobjs, capobjs, linked;

	struct sim_strmap gmap;
	struct img_global *g;
	size_t ng, capg;

	struct sim_strmap stubmap;
	char **stubnames;
	size_t nstubs, capstubs;

	struct img_veneer *ven;
	size_t nven, capven;
	size_t *venhash;         /* open addressing over ven indices + 1 */
	size_t venhcap;

	struct sim_site *sites;
	size_t nsites, capsites;
	struct sim_diag *diags;
	size_t ndiags, capdiags;
};

/* image_diag.c */
void img_diag(struct sim_image *img, enum sim_diag_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The symbol's name, or its section's for STT_SECTION, for messages. */
const char *img_sym_label(const struct sim_elf *e, size_t sym);

/* image_diag.c: a relocation against local label sym of ob (one that
 * img_label_unbounded lets lie past its section) must still point into
 * [0, sh_size] of that section once its addend is added (the section's
 * end included, as `. ` after its last byte); 0, or -1 with err naming
 * the relocation at rs+off. Other symbols pass (checked at load). */
int img_reloc_target_ok(const struct img_obj *ob, unsigned rs, uint64_t off,
			unsigned sym, int64_t addend, const char *rname,
			struct ftv_err *err);

/* sites.c */
/* A new, zeroed site record (aligned = 1), or NULL when out of memory. */
struct sim_site *img_site_new(struct sim_image *img);
/* Fills in where site s comes from: function fs (or "?"), object ob,
 * executable section sec. */
void img_site_origin(struct sim_site *s, const struct img_obj *ob,
		     unsigned sec, const struct sim_symbol *fs);
/* The kernel's warning for a CALL_OPS literal that is not 8-byte aligned,
 * and ftv's for one aligned only by chance (s->aligned*). */
void img_site_align_diag(struct sim_image *img, const struct img_obj *ob,
			 const struct sim_site *s);
/* The word at a, or 0xffffffff (no instruction) when unmapped. */
uint32_t img_word(struct sim_image *img, uint64_t a);
/* The function symbol that starts exactly at a, or NULL. */
const struct sim_symbol *img_func_at(struct sim_image *img, uint64_t a);

/* sites_find.c: discovers the patch sites of objects [from, img->nobjs). */
int img_find_sites(struct sim_image *img, size_t from, struct ftv_err *err);

/* align_riscv64.c: deletes the excess R_RISCV_ALIGN padding of every
 * loaded section of e before placement, as a linker must. */
int img_riscv64_align(struct sim_elf *e, struct ftv_err *err);

#endif
