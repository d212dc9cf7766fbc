/* ftv load: link objects and modules into an emulated address space the
 * way the kernel would and print what was placed where, the patch sites
 * found and every diagnostic (text, or one JSON object with --json). */
#include "encoders/riscv.h"
#include "sim/image.h"
#include "util/cmd.h"
#include "util/decompress.h"
#include "util/err.h"
#include "util/json.h"
#include "util/opt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* foo.ko, or compressed as kbuild installs it: foo.ko.xz/.zst/.gz. */
static int is_module_path(const char *p)
{
	size_t l = strlen(p);
	const char *z = ftv_z_claimed(p) != FTV_Z_NONE ? strrchr(p, '.') : p + l;

	return z - p > 3 && !strncmp(z - 3, ".ko", 3);
}

static void flags_str(uint64_t f, char *b)
{
	/* readelf's letters: W write, A alloc, X execute */
	char *p = b;

	if (f & 1)
		*p++ = 'W';
	if (f & 2)
		*p++ = 'A';
	if (f & 4)
		*p++ = 'X';
	*p = 0;
}

struct counts {
	size_t kind[FTV_SITE_NKINDS], bti, pac, misaligned, by_chance;
};

static void count_sites(struct sim_image *img, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		c->kind[s->kind]++;
		c->bti += s->bti;
		c->pac += s->pac;
		c->misaligned += !s->aligned;
		c->by_chance += s->aligned_by_chance;
	}
}

static void print_json(struct sim_image *img)
{
	struct counts c;
	struct json j;
	char fl[8];

	count_sites(img, &c);
	json_init(&j, stdout);
	json_begin_object(&j);
	json_key(&j, "objects");
	json_begin_array(&j);
	for (size_t i = 0; i < sim_image_nobjects(img); i++) {
		const struct sim_object_info *o = sim_image_object(img, i);

		json_begin_object(&j);
		json_key_str(&j, "path", o->path);
		json_key_str(&j, "name", o->name);
		json_key_bool(&j, "module", o->is_module);
		json_key_u64(&j, "symbols", o->nsyms);
		json_key_u64(&j, "relocations", o->nrelocs);
		json_key_u64(&j, "relocations_skipped", o->nrelocs_skipped);
		json_key_u64(&j, "reloc_sections_skipped", o->nrelsecs_skipped);
		json_key_u64(&j, "veneers", o->nveneers);
		json_key_u64(&j, "stubbed", o->nstubbed);
		json_key_u64(&j, "relax_declined", o->nrelax);
		json_key(&j, "sections");
		json_begin_array(&j);
		for (size_t k = 0; k < o->nsections; k++) {
			const struct sim_loaded_section *s = &o->sections[k];

			flags_str(s->flags, fl);
			json_begin_object(&j);
			json_key_str(&j, "name", s->name);
			json_key_hex(&j, "addr", s->addr);
			json_key_u64(&j, "size", s->size);
			json_key_u64(&j, "align", s->align);
			json_key_str(&j, "flags", fl);
			json_key_bool(&j, "nobits", s->nobits);
			json_key_str(&j, "region", s->region);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "stubs");
	json_begin_array(&j);
	for (size_t i = 0; i < sim_image_nstubs(img); i++)
		json_str(&j, sim_image_stub_get(img, i, NULL));
	json_end_array(&j);
	json_key_str(&j, "arch", ftv_arch_name(sim_image_arch(img)));
	json_key(&j, "site_counts");
	json_begin_object(&j);
	json_key_u64(&j, "total", sim_image_nsites(img));
	json_key_u64(&j, "call_ops", c.kind[FTV_SITE_CALL_OPS]);
	json_key_u64(&j, "args", c.kind[FTV_SITE_ARGS]);
	json_key_u64(&j, "mcount", c.kind[FTV_SITE_MCOUNT]);
	json_key_u64(&j, "riscv_call_ops", c.kind[FTV_SITE_RISCV_CALL_OPS]);
	json_key_u64(&j, "bti", c.bti);
	json_key_u64(&j, "pac", c.pac);
	json_key_u64(&j, "misaligned", c.misaligned);
	json_key_u64(&j, "aligned_by_chance", c.by_chance);
	json_end_object(&j);
	json_key(&j, "sites");
	json_begin_array(&j);
	for (size_t i = 0; i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		json_begin_object(&j);
		json_key_str(&j, "func", s->funcname);
		json_key_hex(&j, "addr", s->addr);
		json_key_hex(&j, "func_addr", s->func);
		json_key_hex(&j, "mov_addr", s->mov_addr);
		json_key_hex(&j, "literal", s->literal);
		json_key_str(&j, "layout", ftv_site_kind_name(s->kind));
		json_key_bool(&j, "bti", s->bti);
		json_key_bool(&j, "pac", s->pac);
		json_key_bool(&j, "aligned", s->aligned);
		json_key_bool(&j, "aligned_by_chance", s->aligned_by_chance);
		json_key_str(&j, "object", s->object);
		json_key_str(&j, "section", s->section);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_key(&j, "diagnostics");
	json_begin_array(&j);
	for (size_t i = 0; i < sim_image_ndiags(img); i++) {
		const struct sim_diag *d = sim_image_diag(img, i);

		json_begin_object(&j);
		json_key_str(&j, "kind", sim_diag_kind_name(d->kind));
		json_key_str(&j, "text", d->text);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
	json_newline(&j);
}

/* The words from a to end in ftv's own RISC-V disassembly (Capstone 4
 * has no RISC-V): "[c.nop; c.nop; ... | c.nop; ...]", "|" at the entry. */
static void print_rv_words(struct sim_image *img, uint64_t a, uint64_t end)
{
	struct sim_aspace *as = sim_image_aspace(img);
	const char *sep = "";
	char t[64];

	printf("  [");
	while (a < end) {
		uint32_t w = 0;
		uint16_t h[2] = { 0, 0 };
		int nb = 4;

		/* Read halfwords: a 2-aligned word may end the region. */
		if (sim_read(as, a, &h[0], 2, NULL) ||
		    (a + 2 < end && sim_read(as, a + 2, &h[1], 2, NULL)))
			break;
		w = h[0] | (uint32_t)h[1] << 16;
		rv_disasm(w, a, t, sizeof(t), &nb);
		printf("%s%s", sep, t);
		a += nb;
		sep = a == end - 8 ? " | " : "; ";
	}
	printf("]");
}

static void print_text(struct sim_image *img, int list_sites)
{
	struct counts c;
	char fl[8], buf[160];

	count_sites(img, &c);
	for (size_t i = 0; i < sim_image_nobjects(img); i++) {
		const struct sim_object_info *o = sim_image_object(img, i);

		printf("%s (%s %s): %zu symbols, %zu relocations applied, "
		       "%zu skipped in %zu non-ALLOC sections",
		       o->path, o->is_module ? "module" : "object", o->name,
		       o->nsyms, o->nrelocs, o->nrelocs_skipped,
		       o->nrelsecs_skipped);
		if (o->nveneers)
			printf(", %zu via PLT veneers", o->nveneers);
		if (o->nstubbed)
			printf(", %zu undefined stubbed", o->nstubbed);
		if (o->nrelax)
			printf(", %zu R_RISCV_RELAX hints declined", o->nrelax);
		printf("\n");
		for (size_t k = 0; k < o->nsections; k++) {
			const struct sim_loaded_section *s = &o->sections[k];

			flags_str(s->flags, fl);
			printf("  %-32s 0x%016llx size 0x%-6llx align %-4llu %-3s %s%s\n",
			       s->name, (unsigned long long)s->addr,
			       (unsigned long long)s->size,
			       (unsigned long long)s->align, fl, s->region,
			       s->nobits ? " nobits" : "");
		}
	}
	printf("sites: %zu (call_ops %zu, args %zu, mcount %zu, riscv_call_ops %zu; "
	       "bti %zu, pac %zu); misaligned %zu, aligned by chance %zu\n",
	       sim_image_nsites(img), c.kind[FTV_SITE_CALL_OPS],
	       c.kind[FTV_SITE_ARGS], c.kind[FTV_SITE_MCOUNT],
	       c.kind[FTV_SITE_RISCV_CALL_OPS], c.bti, c.pac,
	       c.misaligned, c.by_chance);
	for (size_t i = 0; list_sites && i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		printf("  0x%016llx %-8s %s%s%s%s", (unsigned long long)s->addr,
		       ftv_site_kind_name(s->kind),
		       sim_symbolize(sim_image_aspace(img), s->addr, buf,
				     sizeof(buf), 1),
		       s->bti ? " bti" : "", s->pac ? " pac" : "",
		       !s->aligned ? " MISALIGNED" :
		       s->aligned_by_chance ? " aligned-by-chance" : "");
		if (s->kind == FTV_SITE_RISCV_CALL_OPS)
			print_rv_words(img, s->literal, s->func + 8);
		printf("\n");
	}
	if (sim_image_nstubs(img)) {
		printf("stubs: %zu undefined symbols bound to trap stubs:",
		       sim_image_nstubs(img));
		for (size_t i = 0; i < sim_image_nstubs(img) && i < 8; i++)
			printf(" %s", sim_image_stub_get(img, i, NULL));
		printf("%s\n", sim_image_nstubs(img) > 8 ? " ..." : "");
	}
	printf("diagnostics: %zu\n", sim_image_ndiags(img));
	for (size_t i = 0; i < sim_image_ndiags(img); i++)
		printf("  %s\n", sim_image_diag(img, i)->text);
}

enum { O_JSON = 256, O_STUB, O_FAR, O_SITES, O_MODULE };

static const struct ftv_opt load_opts[] = {
	{ .name = "json", .key = O_JSON,
	  .help = "print one JSON object instead of the text report" },
	{ .name = "sites", .key = O_SITES,
	  .help = "list every patch site: address, layout, function, BTI, PAC" },
	{ .name = "stub-undefined", .key = O_STUB,
	  .help = "bind undefined symbols to trap stubs instead of refusing the link" },
	{ .name = "far-modules", .key = O_FAR,
	  .help = "place modules more than 128 MiB from the kernel text (BLs need PLTs)" },
	{ .name = "module", .key = O_MODULE, .arg = "OBJ",
	  .help = "load OBJ as a module, whatever its name",
	  .words = FTV_WORDS_FILE },
	{ 0 },
};

static int cmd_load(int argc, char **argv)
{
	struct sim_load_opts o = { 0 };
	int json = 0, list_sites = 0, rc = FTV_EXIT_OK, nfiles = 0, opt;
	struct sim_aspace *as;
	struct sim_image *img;
	struct ftv_err err = { "" };
	struct ftv_getopt g;
	/* in command-line order; module[i]: --module, not by its name */
	const char **files = calloc((size_t)argc, sizeof(*files));
	unsigned char *module = calloc((size_t)argc, 1);

	if (!files || !module) {
		free(files);
		free(module);
		return FTV_EXIT_USAGE;
	}
	ftv_getopt_init(&g, argc, argv);
	while ((opt = ftv_getopt(&g)) > 0) {
		switch (opt) {
		case O_JSON:
			json = 1;
			break;
		case O_STUB:
			o.stub_undefined = 1;
			break;
		case O_FAR:
			o.far_modules = 1;
			break;
		case O_SITES:
			list_sites = 1;
			break;
		case O_MODULE:
			module[nfiles] = 1;
			files[nfiles++] = g.val;
			break;
		case FTV_OPT_ARG:
			files[nfiles++] = g.val;
			break;
		}
	}
	if (opt < 0 || !nfiles) {
		free(files);
		free(module);
		return opt < 0 ? g.exit : ftv_usage_error(g.cmd, "missing FILE");
	}
	as = sim_aspace_new();
	img = as ? sim_image_new(as, &o) : NULL;
	if (!img) {
		fprintf(stderr, "ftv load: cannot set up the address space\n");
		sim_aspace_free(as);
		free(files);
		free(module);
		return FTV_EXIT_USAGE;
	}
	/* In command-line order; .ko/.ko.xz files are modules, --module
	 * makes any object one. */
	for (int i = 0; i < nfiles && rc == FTV_EXIT_OK; i++)
		if (sim_image_add_file(img, files[i], module[i] || is_module_path(files[i]),
				       &err))
			rc = FTV_EXIT_USAGE;
	free(files);
	free(module);
	if (rc == FTV_EXIT_OK && sim_image_link(img, &err))
		rc = FTV_EXIT_USAGE;
	if (rc != FTV_EXIT_OK)
		fprintf(stderr, "ftv load: %s\n", err.msg);
	else if (json)
		print_json(img);
	else
		print_text(img, list_sites);
	sim_image_free(img);
	sim_aspace_free(as);
	return rc;
}
FTV_COMMAND(load, cmd_load,
	    .summary = "link objects and modules, list sections and patch sites",
	    .args = "FILE...",
	    .opts = load_opts,
	    .words = FTV_WORDS_FILE,
	    .doc = "Links arm64 or riscv64 relocatable objects (.o) and modules (.ko,\n"
		   ".ko.xz) into the emulated address space the way the kernel and its\n"
		   "module loader would, in command-line order, and prints where each\n"
		   "section went, how many relocations were applied (and how many in\n"
		   "non-ALLOC sections were skipped), the patch sites found with their\n"
		   "layout (CALL_OPS, args, mcount, RISC-V CALL_OPS), BTI and PAC, and\n"
		   "the kernel's diagnostics (a misaligned patch-site, a literal aligned\n"
		   "only by chance).\n")
