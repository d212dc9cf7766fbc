/* The emulated address space: page-aligned regions backed by host memory
 * (shared later by every emulated CPU), and a symbol table that answers both
 * name -> address and address -> "func+0x8/0x40" the way the kernel prints. */
#ifndef FTV_SIM_ASPACE_H
#define FTV_SIM_ASPACE_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

#define SIM_PAGE 0x1000ULL

/* Where things live, modelled on an arm64 kernel's virtual layout. Modules
 * normally sit within BL range of the kernel text; SIM_MODULE_FAR_BASE is
 * more than 128 MiB away so that module call sites need a PLT. */
#define SIM_KERNEL_TEXT_BASE 0xffff800080000000ULL
#define SIM_MODULE_BASE      0xffff800078000000ULL /* kernel - 128 MiB */
#define SIM_MODULE_FAR_BASE  0xffff800040000000ULL /* kernel - 1 GiB */
#define SIM_DATA_BASE        0xffff000010000000ULL /* ops, tracer buffers */
#define SIM_STACK_BASE       0xffff000020000000ULL /* per-CPU stacks */

enum sim_perm { SIM_R = 1, SIM_W = 2, SIM_X = 4 };

enum sim_region_kind {
	SIM_REGION_TEXT,   /* kernel text (corpus objects' code) */
	SIM_REGION_RODATA,
	SIM_REGION_DATA,
	SIM_REGION_BSS,
	SIM_REGION_STACK,
	SIM_REGION_TRAMP,  /* ftrace trampolines and tracers */
	SIM_REGION_MODULE, /* module text/data, possibly far away */
	SIM_REGION_STUBS,  /* trap stubs for undefined symbols, PLTs */
};

struct sim_region {
	char name[32];
	uint64_t base, size;
	unsigned perms;
	enum sim_region_kind kind;
	uint8_t *host;   /* size bytes, zero-filled at map time */
	uint64_t used;   /* bump allocator: bytes handed out from base */
};

enum sim_sym_type { SIM_SYM_FUNC, SIM_SYM_OBJECT, SIM_SYM_OTHER };

struct sim_symbol {
	char *name;
	uint64_t addr, size;
	enum sim_sym_type type;
	char *module; /* object or module the symbol came from, or NULL */
};

struct sim_aspace;

struct sim_aspace *sim_aspace_new(void);
void sim_aspace_free(struct sim_aspace *as);
/* From now on (for the process) a freed aspace's region memory is kept,
 * emptied, and a later sim_map of the same base and size gets it back:
 * the same host address, which a reused engine maps already
 * (executor/exec_pool.h). */
void sim_keep_buffers(void);

/* Maps [base, base+size) (both page aligned, no overlap) and returns the
 * region, or NULL with err set. */
struct sim_region *sim_map(struct sim_aspace *as, const char *name,
			   uint64_t base, uint64_t size, unsigned perms,
			   enum sim_region_kind kind, struct ftv_err *err);
size_t sim_region_count(const struct sim_aspace *as);
struct sim_region *sim_region_get(struct sim_aspace *as, size_t i);
struct sim_region *sim_region_at(struct sim_aspace *as, uint64_t addr);
struct sim_region *sim_region_named(struct sim_aspace *as, const char *name);

/* Hands out size bytes aligned to align (a power of two) from a region;
 * returns 0 and sets err when the region is full. */
uint64_t sim_region_alloc(struct sim_region *r, uint64_t size, uint64_t align,
			  struct ftv_err *err);

/* Host pointer for [addr, addr+len) when it lies inside one region. */
uint8_t *sim_ptr(struct sim_aspace *as, uint64_t addr, uint64_t len);
int sim_read(struct sim_aspace *as, uint64_t addr, void *buf, uint64_t len,
	     struct ftv_err *err);
int sim_write(struct sim_aspace *as, uint64_t addr, const void *buf,
	      uint64_t len, struct ftv_err *err);
/* Little-endian helpers; they return 0 on success, -1 if unmapped. */
int sim_read32(struct sim_aspace *as, uint64_t addr, uint32_t *v);
int sim_read64(struct sim_aspace *as, uint64_t addr, uint64_t *v);
int sim_write32(struct sim_aspace *as, uint64_t addr, uint32_t v);
int sim_write64(struct sim_aspace *as, uint64_t addr, uint64_t v);

/* Symbols. Names may repeat (static functions of several objects); lookup by
 * name returns the first one added. */
const struct sim_symbol *sim_sym_add(struct sim_aspace *as, const char *name,
				     uint64_t addr, uint64_t size,
				     enum sim_sym_type type,
				     const char *module);
const struct sim_symbol *sim_sym_lookup(struct sim_aspace *as,
					const char *name);
/* The symbol covering addr (functions preferred), or NULL. */
const struct sim_symbol *sim_sym_at(struct sim_aspace *as, uint64_t addr);
size_t sim_sym_count(const struct sim_aspace *as);
const struct sim_symbol *sim_sym_get(const struct sim_aspace *as, size_t i);
/* "func+0x8/0x40" (with " [module]" when the symbol has one and
 * with_module is set), or "0xffff800080001234" when no symbol covers addr.
 * Returns buf. */
char *sim_symbolize(struct sim_aspace *as, uint64_t addr, char *buf, size_t n,
		    int with_module);

#endif
