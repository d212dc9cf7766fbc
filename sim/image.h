/* The loader: links real AArch64 or RISC-V (RV64) relocatable objects
 * (.o, .ko, and .ko.xz/.ko.zst/.ko.gz) into a sim_aspace the way the
 * kernel's linker and module loader would, and finds their ftrace patch
 * sites. What differs per architecture is in sim/arch_<arch>.c.
 *
 *   struct sim_image *img = sim_image_new(as, &opts);
 *   sim_image_add_file(img, "a.o", 0, &err);     // kernel object
 *   sim_image_add_file(img, "m.ko.xz", 1, &err); // module
 *   sim_image_link(img, &err);  // place, resolve, relocate, find sites
 *   for (i = 0; i < sim_image_nsites(img); i++) sim_image_site(img, i)...
 *
 * Linking is incremental: objects added after a link are placed after the
 * ones already linked (the kernel text region keeps accepting code, e.g.
 * the assembled trampolines) and resolve against every global already
 * linked; sites and diagnostics accumulate. Symbols that earlier links bound
 * to trap stubs stay bound to the stubs, and references an earlier link
 * bound to a weak definition stay bound to it: add objects (trampolines
 * defining _mcount, say) before or together with those that call them.
 *
 * Layout (sim_image_new maps these regions in the aspace; the executor maps
 * every region of the aspace into Unicorn):
 *   module.rodata SIM_MODULE_BASE (or SIM_MODULE_FAR_BASE), 32 MiB, R
 *   module.data   module.rodata + 32 MiB, 32 MiB, R+W (.data, .bss)
 *   module.text   module.rodata + 64 MiB, 32 MiB, R+X, ending 32 MiB below
 *                 the kernel text so near modules reach it and the stubs
 *                 with a BL (+/-128 MiB), as arm64 places modules
 *   kernel.text   SIM_KERNEL_TEXT_BASE, 32 MiB, R+X  (kernel objects' code)
 *   stubs         kernel.text + 32 MiB, 1 MiB, R+X   (undefined-symbol traps)
 *   kernel.rodata kernel.text + 34 MiB, 32 MiB, R
 *   kernel.data   kernel.text + 66 MiB, 32 MiB, R+W  (writable PROGBITS)
 *   kernel.bss    kernel.text + 98 MiB, 32 MiB, R+W  (writable NOBITS, COMMON)
 * PLT veneers go in the text region of the branch that needs one.
 * RISC-V: medany code reaches +/-2 GiB with AUIPC pairs; the farthest two
 * regions (far module text at kernel - 960 MiB, kernel.bss end at kernel
 * + 130 MiB) are ~1.1 GiB apart, so no riscv relocation between regions
 * overflows and none needs a veneer; an overflow is reported as an error.
 * (SIM_DATA_BASE/SIM_STACK_BASE are reached through pointers only.)
 * Sections are placed in file order, object after object, each at the next
 * address satisfying its own sh_addralign and nothing more, like ld does
 * for input sections of one output section. Whether a function keeps the
 * 8-byte alignment CALL_OPS needs therefore depends on the link order
 * exactly as it does in a real kernel.
 *
 * Symbol scopes: kernel objects share one namespace (a second strong
 * definition is an error, strong beats weak, COMMON symbols merge). A
 * module's references resolve against its own definitions first, then the
 * kernel's; only symbols a module exports (it has __ksymtab_<name>) become
 * visible to later objects, as with EXPORT_SYMBOL. Undefined weak symbols
 * are 0. */
#ifndef FTV_SIM_IMAGE_H
#define FTV_SIM_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/aspace.h"
#include "util/arch.h"
#include "util/err.h"
#include "util/site_kind.h"

struct sim_image;

struct sim_load_opts {
	/* Bind each undefined symbol to its own trap stub (BRK #n, see
	 * sim_image_stub_name) instead of failing the link. */
	int stub_undefined;
	/* Put modules at SIM_MODULE_FAR_BASE, more than 128 MiB from the
	 * kernel text, so their calls into the kernel need PLT veneers. */
	int far_modules;
	/* Map no module regions (nor accept modules): an image of kernel
	 * objects only, 96 MiB smaller (ftv replay builds one per batch). */
	int no_modules;
	/* Consulted for each undefined name of a kernel object before a
	 * trap stub (kernel/kdata.c: data symbols bound to data holding a
	 * booted kernel's values, linker-script aliases): returns 1 with
	 * *value set to bind the name there (a global from then on), 0 to
	 * leave it to the rules above, -1 with err set on failure. Globals
	 * of the objects being linked are already defined when it runs
	 * (sim_image_lookup finds them). */
	int (*bind)(void *ctx, struct sim_image *img, const char *name,
		    uint64_t *value, struct ftv_err *err);
	void *bind_ctx;
};

#define SIM_KTEXT_SIZE   (32ull << 20)
#define SIM_STUBS_BASE   (SIM_KERNEL_TEXT_BASE + SIM_KTEXT_SIZE)
#define SIM_STUBS_SIZE   (1ull << 20)
#define SIM_STUB_SIZE    16 /* BRK #n; 3 x NOP (riscv: EBREAK; 3 x NOP): one stub per name */
#define SIM_RV_EBREAK    0x00100073u
#define SIM_RV_NOP       0x00000013u
#define SIM_KRODATA_BASE (SIM_KERNEL_TEXT_BASE + (34ull << 20))
#define SIM_KDATA_BASE   (SIM_KERNEL_TEXT_BASE + (66ull << 20))
#define SIM_KRODATA_SIZE (32ull << 20)
#define SIM_KDATA_SIZE   (32ull << 20)
#define SIM_KBSS_BASE    (SIM_KERNEL_TEXT_BASE + (98ull << 20))
#define SIM_KBSS_SIZE    (32ull << 20)
#define SIM_MRODATA_SIZE (32ull << 20)
#define SIM_MDATA_SIZE   (32ull << 20)
#define SIM_MTEXT_OFFSET (64ull << 20) /* from the module base */
#define SIM_MTEXT_SIZE   (32ull << 20)

/* Patch-site layouts, as GCC 12 emits them (aarch64-linux-gnu-objdump -dr
 * of the corpus; Linux arch/arm64/kernel/ftrace.c ftrace_call_adjust()):
 *
 * The kind of each site (enum ftv_site_kind, util/site_kind.h), word by word:
 * FTV_SITE_CALL_OPS: -fpatchable-function-entry=4,2. The entry in
 *   __patchable_function_entries points at func-8:
 *     func-8: NOP; NOP          the 64-bit ops literal (written at init)
 *     func:   [BTI C]           with -mbranch-protection=bti/standard
 *             NOP               becomes MOV X9, X30 once at init (mov_addr)
 *             NOP               NOP <-> BL ftrace_caller (addr)
 *             [PACIASP]         pac-ret signs after the patch NOPs
 * FTV_SITE_ARGS: -fpatchable-function-entry=2 (DYNAMIC_FTRACE_WITH_ARGS
 *   without CALL_OPS). The entry points at the first NOP, after BTI C if
 *   any:  func: [BTI C] NOP(mov_addr) NOP(addr)
 * FTV_SITE_MCOUNT: -pg, the 2014 scheme: every BL _mcount (found from
 *   the CALL26 relocations against _mcount); addr is the BL word, turned
 *   into a NOP at init and back into BL ftrace_caller when enabled.
 *
 * FTV_SITE_RISCV_CALL_OPS: riscv64, -fpatchable-function-entry=8,4 with
 *   the C extension (4 C.NOP before the entry, 4 after) or =4,2 without
 *   it (2 NOP before, 2 after). The entry in __patchable_function_entries
 *   points at func-8, as Linux 6.16's riscv CALL_OPS expects:
 *     func-8: 8 bytes of NOPs   the 64-bit ops literal (literal)
 *     func:   8 bytes of NOPs   init_nop writes two 4-byte words:
 *                               AUIPC t0 (mov_addr = func, written once)
 *                               and NOP <-> JALR t0 (addr = func + 4)
 *   aligned: the literal is 8-aligned (then both entry words are 4-byte
 *   aligned); misaligned sites get the same diagnostics as arm64. */

struct sim_site {
	uint64_t addr;      /* the NOP <-> BL word that is patched live */
	uint64_t mov_addr;  /* the NOP that init turns into MOV X9, X30; 0 for mcount */
	uint64_t func;      /* function entry (its symbol's address) */
	uint64_t literal;   /* CALL_OPS ops literal (func-8), else 0 */
	uint64_t entry;     /* the __patchable_function_entries value (or addr) */
	enum ftv_site_kind kind;
	int bti;            /* BTI C at the entry */
	int pac;            /* PACIASP right after the patch NOPs */
	/* CALL_OPS only (1 for other layouts, which need no alignment):
	 * aligned: the literal is 8-byte aligned where it was placed;
	 * aligned_by_chance: aligned, but its section's sh_addralign < 8, so
	 * another link order could misalign it, and the kernel would then
	 * warn "Misaligned patch-site". */
	int aligned, aligned_by_chance;
	/* Strings below stay valid while the image and its aspace live. */
	const char *funcname; /* "?" when no function symbol starts at func */
	const char *object;   /* path of the object as given */
	const char *module;   /* module name for modules, NULL for kernel objects */
	const char *section;  /* section holding the function */
	uint64_t section_align;
	/* The module's ftrace PLT when whoever made the site knows it (ftv
	 * replay builds each module's); 0: the world makes one. */
	uint64_t plt;
};

enum sim_diag_kind {
	SIM_DIAG_MISALIGNED,        /* "Misaligned patch-site func+0x0/0x40" */
	SIM_DIAG_ALIGNED_BY_CHANCE,
	SIM_DIAG_UNEXPECTED_INSN,   /* "unexpected insn in patch-site func: 0x..." */
	SIM_DIAG_BAD_ENTRY,         /* zero, or outside any text section */
	SIM_DIAG_SKIPPED_RELOCS,    /* relocations of non-ALLOC sections, counted */
	SIM_DIAG_STUBBED,           /* undefined symbols bound to trap stubs */
	SIM_DIAG_VENEER,            /* branches routed through a PLT veneer */
};

struct sim_diag {
	enum sim_diag_kind kind;
	char *text;
};

const char *sim_diag_kind_name(enum sim_diag_kind k);

/* What was loaded, for reporting. */
struct sim_loaded_section {
	const char *name;
	uint64_t addr, size, align, flags; /* flags: ELF sh_flags */
	int nobits;
	const char *region;
};

struct sim_object_info {
	const char *path;
	const char *name;    /* module name ("foo" for foo.ko.xz or foo.o
			      * loaded as a module), else the file name */
	int is_module;
	size_t nsections;    /* SHF_ALLOC sections, in placement order */
	const struct sim_loaded_section *sections;
	size_t nsyms;        /* ELF symbol table entries */
	size_t nrelocs;      /* relocations applied */
	size_t nrelocs_skipped, nrelsecs_skipped; /* of non-ALLOC sections */
	size_t nveneers;     /* PLT veneers created for this object */
	size_t nstubbed;     /* undefined names bound to stubs */
	size_t nrelax;       /* riscv: R_RISCV_RELAX hints declined (ftv
			      * never relaxes; not in nrelocs) */
};

struct sim_image;

struct sim_image *sim_image_new(struct sim_aspace *as,
				const struct sim_load_opts *o);
void sim_image_free(struct sim_image *img);
struct sim_aspace *sim_image_aspace(struct sim_image *img);

/* Reads and validates one object; nothing is placed until the next link. */
int sim_image_add_file(struct sim_image *img, const char *path, int as_module,
		       struct ftv_err *err);
/* Same from memory (takes ownership of data, which must be malloc'd). */
int sim_image_add_mem(struct sim_image *img, const char *path, uint8_t *data,
		      size_t size, int as_module, struct ftv_err *err);
/* Places, resolves and relocates every object added since the last link,
 * then discovers their patch sites. On failure the image must not be used
 * further (regions may be half written). */
int sim_image_link(struct sim_image *img, struct ftv_err *err);

/* The architecture of the objects added (from their e_machine; all objects
 * of one image must agree, sim_image_add_* fails naming the file
 * otherwise). arm64 (enum ftv_arch's first) while the image is empty. */
enum ftv_arch sim_image_arch(const struct sim_image *img);

size_t sim_image_nobjects(const struct sim_image *img);
const struct sim_object_info *sim_image_object(const struct sim_image *img,
					       size_t i);

size_t sim_image_nsites(const struct sim_image *img);
const struct sim_site *sim_image_site(const struct sim_image *img, size_t i);

size_t sim_image_ndiags(const struct sim_image *img);
const struct sim_diag *sim_image_diag(const struct sim_image *img, size_t i);

/* A PLT veneer (ADRP X16; ADD X16; BR X16, as the kernel's module PLTs)
 * placed in the text region holding `from` and branching to target, for
 * a BL at `from` that cannot reach target (e.g. a far module's call site
 * to ftrace_caller, the kernel's mod->arch.ftrace_trampolines). Veneers
 * are shared per (region, target). Returns 0 with err set on failure. */
uint64_t sim_image_veneer(struct sim_image *img, uint64_t from,
			  uint64_t target, struct ftv_err *err);

/* Address of a linked global (kernel or exported) or stub, or 0. */
uint64_t sim_image_lookup(struct sim_image *img, const char *name);
/* The undefined symbol whose trap stub contains addr, or NULL; lets the
 * executor report "called undefined symbol X from func+0x14". */
const char *sim_image_stub_name(const struct sim_image *img, uint64_t addr);
/* When pc is in a trap stub, writes "called undefined symbol X from
 * func+0x14" (the BL before lr, symbolized) into buf and returns 1;
 * else returns 0. For the executor when a CPU hits a stub's BRK. */
int sim_image_undefined_call(struct sim_image *img, uint64_t pc, uint64_t lr,
			     char *buf, size_t n);
size_t sim_image_nstubs(const struct sim_image *img);
/* The BRK immediate of the stub of undefined symbol number i is i+1. */
const char *sim_image_stub_get(const struct sim_image *img, size_t i,
			       uint64_t *addr);

#endif
