/* ftv load: link objects and modules into an emulated address space the
 * way the kernel would and print what was placed where, the patch sites
 * found and every diagnostic (text, or one JSON object with --json). */
#include "encoders/riscv.h"
#include "sim/image.h"
#include "util/cmd.h"
#include "util/decompress.h"
#include "util/err.h"

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

static void json_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

struct counts {
	size_t layout[SIM_SITE_NLAYOUTS], bti, pac, misaligned, by_chance;
};

static void count_sites(struct sim_image *img, struct counts *c)
{
	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		c->layout[s->layout]++;
		c->bti += s->bti;
		c->pac += s->pac;
		c->misaligned += !s->aligned;
		c->by_chance += s->aligned_by_chance;
	}
}

static void print_json(struct sim_image *img)
{
	struct counts c;
	char fl[8];

	count_sites(img, &c);
	printf("{\"objects\":[");
	for (size_t i = 0; i < sim_image_nobjects(img); i++) {
		const struct sim_object_info *o = sim_image_object(img, i);

		printf("%s{\"path\":", i ? "," : "");
		json_str(o->path);
		printf(",\"name\":");
		json_str(o->name);
		printf(",\"module\":%s,\"symbols\":%zu,\"relocations\":%zu,"
		       "\"relocations_skipped\":%zu,\"reloc_sections_skipped\":%zu,"
		       "\"veneers\":%zu,\"stubbed\":%zu,\"relax_declined\":%zu,"
		       "\"sections\":[",
		       o->is_module ? "true" : "false", o->nsyms, o->nrelocs,
		       o->nrelocs_skipped, o->nrelsecs_skipped, o->nveneers,
		       o->nstubbed, o->nrelax);
		for (size_t k = 0; k < o->nsections; k++) {
			const struct sim_loaded_section *s = &o->sections[k];

			flags_str(s->flags, fl);
			printf("%s{\"name\":", k ? "," : "");
			json_str(s->name);
			printf(",\"addr\":\"0x%llx\",\"size\":%llu,\"align\":%llu,"
			       "\"flags\":\"%s\",\"nobits\":%s,\"region\":",
			       (unsigned long long)s->addr,
			       (unsigned long long)s->size,
			       (unsigned long long)s->align, fl,
			       s->nobits ? "true" : "false");
			json_str(s->region);
			printf("}");
		}
		printf("]}");
	}
	printf("],\"stubs\":[");
	for (size_t i = 0; i < sim_image_nstubs(img); i++) {
		printf("%s", i ? "," : "");
		json_str(sim_image_stub_get(img, i, NULL));
	}
	printf("],\"arch\":\"%s\",\"site_counts\":{\"total\":%zu,\"call_ops\":%zu,"
	       "\"args\":%zu,\"mcount\":%zu,\"riscv_call_ops\":%zu,\"bti\":%zu,"
	       "\"pac\":%zu,\"misaligned\":%zu,\"aligned_by_chance\":%zu},"
	       "\"sites\":[",
	       ftv_arch_name(sim_image_arch(img)), sim_image_nsites(img),
	       c.layout[SIM_SITE_CALL_OPS], c.layout[SIM_SITE_ARGS],
	       c.layout[SIM_SITE_MCOUNT], c.layout[SIM_SITE_RISCV_CALL_OPS],
	       c.bti, c.pac, c.misaligned, c.by_chance);
	for (size_t i = 0; i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		printf("%s{\"func\":", i ? "," : "");
		json_str(s->funcname);
		printf(",\"addr\":\"0x%llx\",\"func_addr\":\"0x%llx\","
		       "\"mov_addr\":\"0x%llx\",\"literal\":\"0x%llx\","
		       "\"layout\":\"%s\",\"bti\":%s,"
		       "\"pac\":%s,\"aligned\":%s,\"aligned_by_chance\":%s,"
		       "\"object\":",
		       (unsigned long long)s->addr, (unsigned long long)s->func,
		       (unsigned long long)s->mov_addr,
		       (unsigned long long)s->literal,
		       sim_site_layout_name(s->layout),
		       s->bti ? "true" : "false", s->pac ? "true" : "false",
		       s->aligned ? "true" : "false",
		       s->aligned_by_chance ? "true" : "false");
		json_str(s->object);
		printf(",\"section\":");
		json_str(s->section);
		printf("}");
	}
	printf("],\"diagnostics\":[");
	for (size_t i = 0; i < sim_image_ndiags(img); i++) {
		const struct sim_diag *d = sim_image_diag(img, i);

		printf("%s{\"kind\":\"%s\",\"text\":", i ? "," : "",
		       sim_diag_kind_name(d->kind));
		json_str(d->text);
		printf("}");
	}
	printf("]}\n");
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
	       sim_image_nsites(img), c.layout[SIM_SITE_CALL_OPS],
	       c.layout[SIM_SITE_ARGS], c.layout[SIM_SITE_MCOUNT],
	       c.layout[SIM_SITE_RISCV_CALL_OPS], c.bti, c.pac,
	       c.misaligned, c.by_chance);
	for (size_t i = 0; list_sites && i < sim_image_nsites(img); i++) {
		const struct sim_site *s = sim_image_site(img, i);

		printf("  0x%016llx %-8s %s%s%s%s", (unsigned long long)s->addr,
		       sim_site_layout_name(s->layout),
		       sim_symbolize(sim_image_aspace(img), s->addr, buf,
				     sizeof(buf), 1),
		       s->bti ? " bti" : "", s->pac ? " pac" : "",
		       !s->aligned ? " MISALIGNED" :
		       s->aligned_by_chance ? " aligned-by-chance" : "");
		if (s->layout == SIM_SITE_RISCV_CALL_OPS)
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

static int cmd_load(int argc, char **argv)
{
	struct sim_load_opts o = { 0 };
	int json = 0, list_sites = 0, rc = FTV_EXIT_OK, nfiles = 0, opts = 1;
	struct sim_aspace *as;
	struct sim_image *img;
	struct ftv_err err = { "" };
	/* per file: 0 not a file, 1 by its name, 2 --module */
	unsigned char *kind = calloc(argc, 1);

	if (!kind)
		return FTV_EXIT_USAGE;
	for (int i = 1; i < argc; i++) {
		if (!opts || argv[i][0] != '-' || !argv[i][1]) {
			kind[i] = 1;
			nfiles++;
		} else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--stub-undefined"))
			o.stub_undefined = 1;
		else if (!strcmp(argv[i], "--far-modules"))
			o.far_modules = 1;
		else if (!strcmp(argv[i], "--sites"))
			list_sites = 1;
		else if (!strcmp(argv[i], "--module") && i + 1 < argc) {
			kind[++i] = 2;
			nfiles++;
		} else if (!strcmp(argv[i], "--"))
			opts = 0;
		else
			nfiles = -1000;
	}
	if (nfiles < 1) {
		free(kind);
		return ftv_usage("load");
	}
	as = sim_aspace_new();
	img = as ? sim_image_new(as, &o) : NULL;
	if (!img) {
		fprintf(stderr, "ftv load: cannot set up the address space\n");
		sim_aspace_free(as);
		free(kind);
		return FTV_EXIT_USAGE;
	}
	/* In command-line order; .ko/.ko.xz files are modules, --module
	 * makes any object one. */
	for (int i = 1; i < argc && rc == FTV_EXIT_OK; i++)
		if (kind[i] &&
		    sim_image_add_file(img, argv[i],
				       kind[i] == 2 || is_module_path(argv[i]),
				       &err))
			rc = FTV_EXIT_USAGE;
	free(kind);
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
FTV_COMMAND(load, "link objects and modules, list sections and patch sites",
	    "[--json] [--sites] [--stub-undefined] [--far-modules] [--module OBJ]... FILE...",
	    cmd_load)
