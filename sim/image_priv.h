/* Internals shared by the loader's files (image.c: placement, symbols,
 * relocation; sites.c: patch-site discovery). Not for other parts. */
#ifndef FTV_SIM_IMAGE_PRIV_H
#define FTV_SIM_IMAGE_PRIV_H

#include "sim/elfobj.h"
#include "sim/image.h"
#include "sim/strmap.h"

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
	size_t nmcount;
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
	struct sim_region *ktext, *stubs, *krodata, *kdata, *kbss;
	struct sim_region *mtext, *mrodata, *mdata;

	struct img_obj **objs;
	size_t nobjs, linked;

	struct sim_strmap gmap;
	struct img_global *g;
	size_t ng, capg;

	struct sim_strmap stubmap;
	char **stubnames;
	size_t nstubs;

	struct img_veneer *ven;
	size_t nven;
	size_t *venhash;         /* open addressing over ven indices + 1 */
	size_t venhcap;

	struct sim_site *sites;
	size_t nsites, capsites;
	struct sim_diag *diags;
	size_t ndiags, capdiags;
};

void img_diag(struct sim_image *img, enum sim_diag_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The symbol's name, or its section's for STT_SECTION, for messages. */
const char *img_sym_label(const struct sim_elf *e, size_t sym);

/* RISC-V (sim/riscv_align.c): deletes the excess R_RISCV_ALIGN padding of
 * every loaded section of e before placement, as a linker must. */
int img_rv_align(struct sim_elf *e, struct ftv_err *err);
/* RISC-V (sim/image_riscv.c): applies the relocation section rs of a
 * placed, resolved object. */
int img_rv_relocate_section(struct sim_image *img, struct img_obj *ob,
			    unsigned rs, struct ftv_err *err);
/* RISC-V (sim/sites_riscv.c): the site whose __patchable_function_entries
 * value is A (in executable section sec of ob), or a diagnostic. */
int img_rv_classify(struct sim_image *img, const struct img_obj *ob,
		    unsigned sec, uint64_t A, struct ftv_err *err);

/* Discovers the patch sites of objects [from, img->nobjs). */
int img_find_sites(struct sim_image *img, size_t from, struct ftv_err *err);

#endif
