/* Writes a layout in the text format of corpus/layouts/README.md, plain or
 * compressed as its name says (util/compress.h). */
#include "layout/layout.h"

#include "util/compress.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* "absolute" when no site names a section, "section-relative" when all
 * do, else "mixed". */
const char *sim_layout_addresses(const struct sim_layout *l)
{
	size_t rel = 0;

	for (size_t i = 0; i < l->nsites; i++)
		rel += l->sites[i].section != NULL;
	if (!rel)
		return "absolute";
	return rel == l->nsites ? "section-relative" : "mixed";
}

static void put_where(FILE *f, const char *module, const char *section)
{
	fputs(module, f);
	if (section)
		fprintf(f, "/%s", section);
}

/* "# module: NAME MEM PLT" */
static void put_module(FILE *f, const struct sim_layout_module *m)
{
	fprintf(f, "# module: %s ", m->name);
	if (!m->has_mem)
		fputc('-', f);
	for (int k = 0; m->has_mem && k < SIM_MOD_NMEM; k++)
		fprintf(f, "%s%" PRIx64, k ? "," : "", m->mem[k]);
	if (m->plt_kind == SIM_PLT_OFFSET)
		fprintf(f, " %s+%" PRIx64 "\n", sim_mod_mem_name(SIM_MOD_TEXT), m->plt);
	else if (m->plt_kind == SIM_PLT_ADDR)
		fprintf(f, " %016" PRIx64 "\n", m->plt);
	else
		fputs(" -\n", f);
}

int sim_layout_write(FILE *f, const struct sim_layout *l, struct ftv_err *err)
{
	fprintf(f, "# ftv-layout %d\n", SIM_LAYOUT_VERSION);
	fprintf(f, "# source: %s\n", l->source ? l->source : "-");
	fprintf(f, "# kernel: %s\n", l->kernel ? l->kernel : "-");
	fprintf(f, "# arch: %s\n", l->arch ? l->arch : "arm64");
	fprintf(f, "# addresses: %s\n", sim_layout_addresses(l));
	if (l->has_image)
		fprintf(f, "# image: %016" PRIx64 " %016" PRIx64 "\n", l->image_start,
			l->image_end);
	if (l->has_table)
		fprintf(f, "# table-entries: %" PRIu64 "\n# table-null: %" PRIu64 "\n",
			l->table_entries, l->table_null);
	else
		fprintf(f, "# table-entries: -\n# table-null: -\n");
	fprintf(f, "# sites: %zu\n", l->nsites);
	for (size_t i = 0; i < l->nmodules; i++)
		put_module(f, &l->modules[i]);
	for (size_t i = 0; i < l->ntexts; i++) {
		const struct sim_layout_text *t = &l->texts[i];

		fprintf(f, "# text: %016" PRIx64 " %016" PRIx64 " ", t->start, t->end);
		put_where(f, t->module, t->section);
		if (t->mem >= 0)
			fprintf(f, " %s+%" PRIx64, sim_mod_mem_name(t->mem), t->mem_off);
		fputc('\n', f);
	}
	fprintf(f, "# fields: entry ip func faddr fsize module kind words\n");

	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];

		if (s->has_entry)
			fprintf(f, "%016" PRIx64 " ", s->entry);
		else
			fputs("- ", f);
		if (s->has_ip)
			fprintf(f, "%016" PRIx64 " ", s->ip);
		else
			fputs("- ", f);
		if (s->func)
			fprintf(f, "%s %016" PRIx64 " ", s->func, s->faddr);
		else
			fputs("? - ", f);
		if (s->has_fsize)
			fprintf(f, "%" PRIx64 " ", s->fsize);
		else
			fputs("- ", f);
		put_where(f, s->module, s->section);
		fprintf(f, " %s ", sim_layout_kind_name(s->kind));
		if (!s->nwords)
			fputc('-', f);
		for (unsigned k = 0; k < s->nwords; k++)
			fprintf(f, "%s%08" PRIx32, k ? ":" : "", s->words[k]);
		fputc('\n', f);
	}
	if (fflush(f) || ferror(f))
		return ftv_errf(err, "write failed: %s", strerror(errno));
	return 0;
}

int sim_layout_save(const char *path, const struct sim_layout *l,
		    struct ftv_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem, *out;
	int rc;

	if (!strcmp(path, "-"))
		return sim_layout_write(stdout, l, err);
	mem = open_memstream(&text, &len);
	if (!mem)
		return ftv_errf(err, "%s: out of memory", path);
	rc = sim_layout_write(mem, l, err);
	fclose(mem);
	if (rc) {
		free(text);
		return ftv_err_prefix(err, "%s", path);
	}
	out = fopen(path, "wb");
	if (!out) {
		free(text);
		return ftv_errf(err, "%s: cannot create: %s", path, strerror(errno));
	}
	rc = ftv_compress_write(out, ftv_z_claimed(path), (const uint8_t *)text,
				len, path, err);
	free(text);
	if (fclose(out) && !rc)
		rc = ftv_errf(err, "%s: write failed: %s", path, strerror(errno));
	return rc;
}
