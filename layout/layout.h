/* ftv's kernel layout format: one line per ftrace callsite of a real kernel
 * (address, function, size, module, layout kind, the instruction words at
 * the site) under a small header. `ftv capture` writes it from a vmlinux,
 * kernel modules or a live system; `ftv replay` maps the sites back into the
 * emulated address space at their captured addresses. The text format is
 * specified in corpus/layouts/README.md; this is its in-memory form, the
 * strict parser and the writer.
 *
 * Every line of a layout file is one of
 *   # ftv-layout 1                      (first line, exactly)
 *   # KEY: VALUE                        (header, before the first site)
 *   ENTRY IP FUNC FADDR FSIZE MODULE KIND WORDS   (one site; single spaces)
 */
#ifndef FTV_LAYOUT_LAYOUT_H
#define FTV_LAYOUT_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/arch.h"
#include "util/err.h"

struct sim_elf;

#define SIM_LAYOUT_VERSION 1
#define SIM_LAYOUT_MAX_WORDS 8
/* The words a capture records: from the table entry on, which for CALL_OPS
 * covers the 8-byte literal slot and the first four words of the function. */
#define SIM_LAYOUT_CAPTURE_WORDS 6

/* How the compiler laid out a callsite (see corpus/layouts/README.md). */
enum sim_layout_kind {
	SIM_LAYOUT_CALLOPS,     /* lit lit | func: NOP NOP ...            */
	SIM_LAYOUT_CALLOPS_BTI, /* lit lit | func: BTI C NOP NOP          */
	SIM_LAYOUT_CALLOPS_PAC, /* lit lit | func: NOP NOP PACIASP/PACIBSP */
	SIM_LAYOUT_ARGS,        /* func: [BTI C] NOP NOP (no literal)     */
	SIM_LAYOUT_MCOUNT,      /* BL _mcount / NOP inside the body (-pg) */
	SIM_LAYOUT_UNKNOWN,     /* anything else; ftrace would not use it  */
	SIM_LAYOUT_NKINDS
};

struct sim_layout_site {
	uint64_t entry;   /* the table's value: first patchable NOP */
	uint64_t ip;      /* what ftrace patches (rec->ip: NOP <-> BL) */
	bool has_entry;   /* false: "-" (e.g. a live capture) */
	bool has_ip;      /* false: "-" (ftrace rejects the site) */
	const char *func; /* NULL: "?" (no function symbol covers it) */
	uint64_t faddr;   /* function start (valid when func) */
	uint64_t fsize;   /* function size (valid when has_fsize) */
	bool has_fsize;
	const char *module;  /* "vmlinux" or a module's name */
	const char *section; /* NULL: absolute addresses; else the section
			      * the addresses are offsets into */
	enum sim_layout_kind kind;
	unsigned nwords;  /* 0: "-" */
	uint32_t words[SIM_LAYOUT_MAX_WORDS]; /* words[i] is at entry + 4*i */
};

/* The memories the module loader allocates for a module, in the order it
 * allocates them (kernel/module/main.c: enum mod_mem_type, move_module()).
 * A layout names them "text", "data", ... (sim_mod_mem_name). */
enum sim_mod_mem {
	SIM_MOD_TEXT,
	SIM_MOD_DATA,
	SIM_MOD_RODATA,
	SIM_MOD_RO_AFTER_INIT,
	SIM_MOD_INIT_TEXT,
	SIM_MOD_INIT_DATA,
	SIM_MOD_INIT_RODATA,
	SIM_MOD_NMEM
};

/* A range of captured text: [start, end) of module/section. A module read
 * from its file (section-relative) also says where the loader puts the
 * section: at offset mem_off into the module's memory mem. */
struct sim_layout_text {
	uint64_t start, end;
	const char *module, *section;
	int mem;          /* enum sim_mod_mem, or -1 (no placement) */
	uint64_t mem_off;
};

/* Where a module's ftrace PLT (mod->arch.ftrace_trampolines: the
 * .text.ftrace_trampoline section) is. */
enum sim_layout_plt {
	SIM_PLT_UNKNOWN, /* "-": not captured */
	SIM_PLT_OFFSET,  /* "text+OFF": an offset into its text memory */
	SIM_PLT_ADDR,    /* an address: the module was loaded */
};

/* A module of the layout (header "module:"), in load order. */
struct sim_layout_module {
	const char *name;
	/* Read from its file: the sizes of its memories as the loader lays
	 * them out (mod->mem[type].size, before rounding to pages); its sites
	 * are section-relative and its text ranges placed. */
	bool has_mem;
	uint64_t mem[SIM_MOD_NMEM];
	enum sim_layout_plt plt_kind;
	uint64_t plt;
};

struct sim_layout {
	const char *source;  /* free text: what was captured */
	const char *kernel;  /* kernel release, e.g. 6.12.107+deb13-cloud-arm64 */
	const char *arch;    /* "arm64" */
	/* The kernels' own tables: entries and how many of them were null
	 * (skipped, as ftrace_process_locs() does); has_table false: "-". */
	bool has_table;
	uint64_t table_entries, table_null;
	/* The kernel image [_text, _end), which arm64's module region is
	 * placed around (module_init_limits()); has_image false: unknown. */
	bool has_image;
	uint64_t image_start, image_end;
	struct sim_layout_text *texts;
	size_t ntexts, texts_cap;
	struct sim_layout_module *modules;
	size_t nmodules, modules_cap;
	struct sim_layout_site *sites;
	size_t nsites, sites_cap;
	struct sim_layout_strings *strings; /* owns every string above */
};

const char *sim_layout_kind_name(enum sim_layout_kind k);
/* Returns the kind or -1. */
int sim_layout_kind_parse(const char *s, size_t len);
bool sim_layout_kind_is_callops(enum sim_layout_kind k);

struct sim_layout *sim_layout_new(void);
void sim_layout_free(struct sim_layout *l);
/* A copy of s owned by the layout (interned: equal strings share storage). */
const char *sim_layout_str(struct sim_layout *l, const char *s);
int sim_layout_set(struct sim_layout *l, const char **field, const char *s);
/* Whether s can be a func, module or section name in a layout: printable
 * ASCII, no space or '/', not starting with '#', '-' or '?'. */
bool sim_layout_name_ok(const char *s);
/* Appends a copy of *s (its strings are interned) and returns it. */
struct sim_layout_site *sim_layout_add_site(struct sim_layout *l,
					     const struct sim_layout_site *s);
/* Appends a text range (without placement: mem -1) and returns it. */
struct sim_layout_text *sim_layout_add_text(struct sim_layout *l,
					    uint64_t start, uint64_t end,
					    const char *module,
					    const char *section);
/* Appends a module record (its strings interned) and returns it. */
struct sim_layout_module *sim_layout_add_module(struct sim_layout *l,
						 const struct sim_layout_module *m);
/* The module record named name, or NULL. */
const struct sim_layout_module *sim_layout_module_named(const struct sim_layout *l,
							 const char *name);
/* "text", "data", "rodata", "ro_after_init", "init_text", "init_data",
 * "init_rodata"; and back (-1: none of them). */
const char *sim_mod_mem_name(enum sim_mod_mem m);
int sim_mod_mem_parse(const char *s, size_t len);
/* "absolute" when no site names a section, "section-relative" when all
 * do, else "mixed". */
const char *sim_layout_addresses(const struct sim_layout *l);
/* Sorts sites by (module, section, entry-or-ip). */
void sim_layout_sort(struct sim_layout *l);
/* The addresses [*start, *end) replay must back with memory for a site:
 * the entry and the captured words, ip's word, and the function's body as
 * far as its size is known. */
void sim_layout_site_span(const struct sim_layout_site *s, uint64_t *start,
			  uint64_t *end);
/* The words ftrace writes for a site, [*lo, *hi): from its entry (the
 * CALL_OPS literal, or the first patchable NOP) to the word at ip. */
void sim_layout_site_words(const struct sim_layout_site *s, uint64_t *lo,
			   uint64_t *hi);
/* Whether two of sites [from, to) patch a common word (ftrace takes each
 * address once: ftrace_process_locs()); if so *first < *second are such
 * a pair, the one with the smallest *second. Absolute addresses are one
 * address space, each module/section of section-relative sites another. */
bool sim_layout_overlap(const struct sim_layout *l, size_t from, size_t to,
			size_t *first, size_t *second);
/* For a capture: sites [from, l->nsites), one input's, patch no common
 * word; else an error naming path and two of them. */
int sim_layout_check_overlap(const struct sim_layout *l, size_t from,
			     const char *path, struct ftv_err *err);
/* The text range holding addr of module/section, or NULL. */
const struct sim_layout_text *sim_layout_text_at(const struct sim_layout *l,
						 const char *module,
						 const char *section,
						 uint64_t addr);

/* Parses a whole layout held in buf[0..len) (not necessarily NUL
 * terminated); name is used in errors "NAME:LINE: field F (fsize): ...".
 * Returns NULL with err set on the first malformed line. */
struct sim_layout *sim_layout_parse(const char *buf, size_t len,
				    const char *name, struct ftv_err *err);
/* Largest layout read, compressed or not: a whole kernel with its modules
 * is about 100,000 lines of 120 bytes. */
#define SIM_LAYOUT_MAX_SIZE (1u << 30)
/* Reads a file, decompressing it when it is xz, zstd or gzip
 * (util/decompress.h), and parses it. */
struct sim_layout *sim_layout_load(const char *path, struct ftv_err *err);

/* Writes l in the text format. */
int sim_layout_write(FILE *f, const struct sim_layout *l, struct ftv_err *err);
/* Writes to path ("-": stdout), compressed when its name ends in .xz
 * (xz -9), .zst or .gz (util/compress.h). */
int sim_layout_save(const char *path, const struct sim_layout *l,
		    struct ftv_err *err);

/* Merges a capture input's kernel release ("-" or NULL: unknown) into
 * the header; a second, different release is an error naming path. */
int sim_layout_merge_kernel(struct sim_layout *l, const char *release,
			    const char *path, struct ftv_err *err);
/* Appends "; what" to the source header (made printable ASCII). */
void sim_layout_add_source(struct sim_layout *l, const char *what);

/* What differs between architectures in a layout: how the words at a site
 * give its kind and ip. One table per architecture, in
 * layout/layout_<arch>.c; the parser and the captures look it up. */
struct sim_layout_arch {
	const char *name;   /* the header's "arch:" value */
	enum ftv_arch arch;
	/* Classifies a site from its table entry, the function it belongs
	 * to and the words at entry (n of them), and computes the address
	 * ftrace patches (the arch's ftrace_call_adjust()). Sets *ip and
	 * returns the kind; *has_ip is false when ftrace would reject the
	 * site. */
	enum sim_layout_kind (*classify)(uint64_t entry, bool has_func,
					 uint64_t faddr, const uint32_t *w,
					 unsigned n, uint64_t *ip, bool *has_ip);
	/* A live capture's kind, from where ip (rec->ip) sits in its
	 * function at faddr, for a kernel with CALL_OPS; sets *entry to the
	 * table entry it implies. SIM_LAYOUT_UNKNOWN when it cannot tell. */
	enum sim_layout_kind (*live_kind)(uint64_t faddr, uint64_t ip,
					  uint64_t *entry);
	/* The relocation types that fill a 64-bit table slot: in a module
	 * (S + A), and in a PIE vmlinux's .rela.dyn (B + A). */
	unsigned reloc_abs64, reloc_relative;
	/* Modules. What the arch's module_frob_arch_sections() does to a
	 * module's section headers before the loader lays them out: flags,
	 * size and align are copies of every section's (e->nsec entries) to
	 * change. Sets *ftrace_plt to the section that becomes the module's
	 * ftrace PLT (0: none). */
	int (*frob_sections)(const struct sim_elf *e, uint64_t *flags,
			     uint64_t *size, uint64_t *align,
			     unsigned *ftrace_plt, struct ftv_err *err);
	uint64_t ftrace_plt_size;   /* bytes of one ftrace PLT entry */
	/* The module region around the kernel image (without KASLR): modules
	 * go first in the window of module_direct_size bytes ending at the
	 * image's end (calls reach the kernel directly), then in the one of
	 * module_plt_size bytes (calls need PLTs); 0: no such window. */
	uint64_t module_direct_size, module_plt_size;
};

/* The table named name ("arm64"), or of architecture a; NULL if none. */
const struct sim_layout_arch *sim_layout_arch_named(const char *name);
const struct sim_layout_arch *sim_layout_arch_of(enum ftv_arch a);
/* "arm64" (or "arm64 or ..."): the names the tables know, for messages;
 * returns buf. */
const char *sim_layout_arch_names(char *buf, size_t n);
/* The table for a capture input of architecture a, merged into the
 * header's arch (inputs of two architectures are an error); NULL with err
 * naming path when ftv has no table for a. */
const struct sim_layout_arch *sim_layout_merge_arch(struct sim_layout *l,
						    enum ftv_arch a,
						    const char *path,
						    struct ftv_err *err);

extern const struct sim_layout_arch sim_layout_arm64;
/* arm64's classify (arch/arm64/kernel/ftrace.c ftrace_call_adjust()). */
enum sim_layout_kind sim_layout_classify_arm64(uint64_t entry, bool has_func,
					       uint64_t faddr,
					       const uint32_t *w, unsigned n,
					       uint64_t *ip, bool *has_ip);

#endif
