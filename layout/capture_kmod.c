/* The callsites of a kernel module (.ko, or compressed), read without
 * loading it: __patchable_function_entries holds one 64-bit slot per function,
 * filled by an R_AARCH64_ABS64 relocation against the function's section
 * (module_finalize() hands the table to ftrace_module_init()). The sites
 * are recorded as offsets into their sections (addresses:
 * section-relative); a loader gives them their final addresses. */
#include "layout/capture.h"
#include "layout/capture_funcs.h"
#include "layout/capture_modmem.h"
#include "sim/elf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A "key=value" string of .modinfo (NUL-separated), or NULL. */
static const char *modinfo(const struct sim_elf *e, const char *key,
			   size_t *len)
{
	unsigned i = sim_elf_find(e, ".modinfo");
	const uint8_t *p, *end;
	size_t kl = strlen(key);

	if (!i || !(p = sim_elf_bytes(e, i, 0, e->sh[i].sh_size)))
		return NULL;
	end = p + e->sh[i].sh_size;
	while (p < end) {
		const uint8_t *z = memchr(p, 0, end - p);

		if (!z)
			return NULL;
		if ((size_t)(z - p) > kl && !memcmp(p, key, kl) && p[kl] == '=') {
			*len = z - p - kl - 1;
			return (const char *)p + kl + 1;
		}
		p = z + 1;
	}
	return NULL;
}

static void module_name(const struct sim_elf *e, const char *path, char *buf,
			size_t n)
{
	size_t len;
	const char *v = modinfo(e, "name", &len);
	const char *base = strrchr(path, '/');

	if (v && len && len < n) {
		memcpy(buf, v, len);
		buf[len] = 0;
	} else {
		snprintf(buf, n, "%s", base ? base + 1 : path);
		buf[strcspn(buf, ".")] = 0;
	}
	for (char *p = buf; *p; p++)
		if (*p <= 0x20 || *p >= 0x7f || *p == '/')
			*p = '_';
}

/* vermagic's first word is the release ("6.12.107+deb13-cloud-arm64 SMP"). */
static void release(const struct sim_elf *e, char *buf, size_t n)
{
	size_t len, k;
	const char *v = modinfo(e, "vermagic", &len);

	snprintf(buf, n, "-");
	if (!v)
		return;
	for (k = 0; k < len && k + 1 < n && v[k] > 0x20 && v[k] < 0x7f; k++)
		buf[k] = v[k];
	if (k)
		buf[k] = 0;
}

struct kctx {
	struct sim_layout *l;
	const struct sim_elf *e;
	const struct sim_layout_arch *arch;
	struct cap_funcs funcs;
	char name[64];
	size_t *text_of;    /* per section: 1 + its text range, or 0 */
	uint64_t slots, nul;
};

static int add_site(struct kctx *k, unsigned tsec, uint64_t off,
		    const char *where, struct ftv_err *err)
{
	const struct sim_elf *e = k->e;
	struct sim_layout_site s = { .entry = off, .has_entry = true,
				     .module = k->name };
	const struct cap_func *fn = cap_funcs_resolve(&k->funcs, tsec, off);
	const uint8_t *p;

	if (!(e->sh[tsec].sh_flags & SHF_EXECINSTR) ||
	    !(p = sim_elf_bytes(e, tsec, off, 4)))
		return ftv_errf(err, "%s: %s points at %s+0x%" PRIx64 ", not into "
				"code", e->path, where, sim_elf_secname(e, tsec),
				off);
	s.section = sim_elf_secname(e, tsec);
	if (!sim_layout_name_ok(s.section))
		return ftv_errf(err, "%s: section [%u] has a name a layout cannot "
				"hold", e->path, tsec);
	if (fn && fn->addr >= e->sh[tsec].sh_size)
		return ftv_errf(err, "%s: %s: function %s at %s+0x%" PRIx64 " lies "
				"outside its section", e->path, where, fn->name,
				s.section, fn->addr);
	if (fn && !sim_layout_name_ok(fn->name))
		return ftv_errf(err, "%s: the function symbol at %s+0x%" PRIx64
				" has a name a layout cannot hold", e->path,
				s.section, fn->addr);
	for (s.nwords = 0; s.nwords < SIM_LAYOUT_CAPTURE_WORDS &&
	     sim_elf_bytes(e, tsec, off + 4 * s.nwords, 4); s.nwords++)
		s.words[s.nwords] = sim_le32(p + 4 * s.nwords);
	if (fn) {
		s.func = fn->name;
		s.faddr = fn->addr;
		s.fsize = fn->size;
		s.has_fsize = fn->size != 0;
	}
	s.kind = k->arch->classify(off, fn != NULL, s.faddr, s.words, s.nwords,
				   &s.ip, &s.has_ip);
	if (fn && s.has_fsize && s.has_ip &&
	    (s.ip < fn->addr || s.ip - fn->addr >= fn->size))
		s.has_fsize = false;
	if (!k->text_of[tsec]) {
		sim_layout_add_text(k->l, 0, e->sh[tsec].sh_size, k->name,
				    s.section);
		k->text_of[tsec] = k->l->ntexts;
	}
	sim_layout_add_site(k->l, &s);
	return 0;
}

/* One __patchable_function_entries section and its relocations. */
static int table(struct kctx *k, unsigned ti, struct ftv_err *err)
{
	const struct sim_elf *e = k->e;
	const Elf64_Shdr *t = &e->sh[ti];
	uint64_t n = t->sh_size / 8;
	uint8_t *done;
	const uint8_t *slots = sim_elf_bytes(e, ti, 0, t->sh_size);
	char where[96];

	if (t->sh_size % 8 || !slots)
		return ftv_errf(err, "%s: section [%u] __patchable_function_entries "
				"is not a table of 8-byte entries", e->path, ti);
	done = calloc(n ? n : 1, 1);
	if (!done)
		return ftv_errf(err, "%s: out of memory", e->path);
	for (unsigned ri = 1; ri < e->nsec; ri++) {
		const Elf64_Shdr *rs = &e->sh[ri];

		if (rs->sh_type != SHT_RELA || rs->sh_info != ti)
			continue;
		if (rs->sh_entsize != sizeof(Elf64_Rela)) {
			free(done);
			return ftv_errf(err, "%s: malformed %s", e->path,
					sim_elf_secname(e, ri));
		}
		for (size_t j = 0; j < sim_elf_nrela(e, ri); j++) {
			Elf64_Rela r;
			uint64_t off, slot;
			uint32_t si;
			const Elf64_Sym *sym;

			sim_elf_rela(e, ri, j, &r);
			off = r.r_offset;
			slot = off / 8;
			si = ELF64_R_SYM(r.r_info);
			snprintf(where, sizeof(where), "%s[%zu]",
				 sim_elf_secname(e, ri), j);
			if (off % 8 || slot >= n || done[slot]) {
				free(done);
				return ftv_errf(err, "%s: %s: offset 0x%" PRIx64 " is "
						"not a fresh table slot", e->path,
						where, off);
			}
			/* The arch's 64-bit absolute relocation: S + A. */
			if (ELF64_R_TYPE(r.r_info) != k->arch->reloc_abs64 ||
			    si == 0 || si >= e->nsyms ||
			    (sym = &e->syms[si])->st_shndx == SHN_UNDEF ||
			    sym->st_shndx >= e->nsec) {
				free(done);
				return ftv_errf(err, "%s: %s: not an ABS64 relocation "
						"against a defined symbol", e->path,
						where);
			}
			done[slot] = 1;
			if (add_site(k, sym->st_shndx,
				     sym->st_value + (uint64_t)r.r_addend, where,
				     err)) {
				free(done);
				return -1;
			}
		}
	}
	/* Slots nothing relocates are null entries, skipped like the kernel
	 * skips them; one with a value would be an absolute address that a
	 * module cannot have. */
	for (uint64_t i = 0; i < n; i++) {
		if (done[i])
			continue;
		if (sim_le64(slots + 8 * i)) {
			free(done);
			return ftv_errf(err, "%s: __patchable_function_entries slot %"
					PRIu64 " has a value but no relocation",
					e->path, i);
		}
		k->nul++;
	}
	k->slots += n;
	free(done);
	return 0;
}

/* Where the loader would put the module (capture_modmem.h): a module
 * record with its memory sizes and ftrace PLT, and each text range's
 * place. A module arm64's loader refuses keeps unplaced sites (ftv replay
 * reports them) and says why in the source header. */
static int loader_layout(struct kctx *k, struct ftv_err *err)
{
	const struct sim_elf *e = k->e;
	struct sim_layout_module rec = { .name = k->name, .has_mem = true };
	struct cap_modmem mm;
	struct ftv_err why;
	char what[sizeof(why.msg) + 96];

	if (sim_layout_module_named(k->l, k->name))
		return ftv_errf(err, "%s: a second module named %s", e->path,
				k->name);
	if (cap_modmem_build(&mm, e, k->arch, &why)) {
		snprintf(what, sizeof(what), "module %s not laid out: %s", k->name,
			 why.msg);
		sim_layout_add_source(k->l, what);
		return 0;
	}
	for (unsigned i = 1; i < e->nsec; i++) {
		struct sim_layout_text *t;

		if (!k->text_of[i])
			continue;
		t = &k->l->texts[k->text_of[i] - 1];
		if (mm.mem[i] != SIM_MOD_TEXT && mm.mem[i] != SIM_MOD_INIT_TEXT) {
			cap_modmem_free(&mm);
			return ftv_errf(err, "%s: callsites in section %s, which the "
					"module loader does not load as code", e->path,
					sim_elf_secname(e, i));
		}
		t->mem = mm.mem[i];
		t->mem_off = mm.off[i];
	}
	memcpy(rec.mem, mm.size, sizeof(rec.mem));
	if (mm.ftrace_plt && mm.mem[mm.ftrace_plt] == SIM_MOD_TEXT) {
		rec.plt_kind = SIM_PLT_OFFSET;
		rec.plt = mm.off[mm.ftrace_plt];
	}
	sim_layout_add_module(k->l, &rec);
	cap_modmem_free(&mm);
	return 0;
}

int sim_capture_kmod_elf(struct sim_layout *l, const struct sim_elf *e,
			 struct ftv_err *err)
{
	const char *path = e->path;
	struct kctx k = { .l = l, .e = e };
	char rel[128], what[256];
	size_t before = l->nsites, tables = 0;
	const char *base = strrchr(path, '/');
	int rc = -1;

	if (e->eh.e_type != ET_REL) {
		ftv_errf(err, "%s: not a kernel module (e_type %u)", path,
			 e->eh.e_type);
		goto out;
	}
	if (!(k.arch = sim_layout_merge_arch(l, e->arch, path, err)) ||
	    cap_funcs_build(&k.funcs, e, true, err))
		goto out;
	module_name(e, path, k.name, sizeof(k.name));
	release(e, rel, sizeof(rel));
	if (sim_layout_merge_kernel(l, rel, path, err))
		goto out;
	k.text_of = calloc(e->nsec, sizeof(*k.text_of));
	if (!k.text_of) {
		ftv_errf(err, "%s: out of memory", path);
		goto out;
	}
	for (unsigned i = 1; i < e->nsec; i++) {
		if (strcmp(sim_elf_secname(e, i), "__patchable_function_entries"))
			continue;
		tables++;
		if (table(&k, i, err))
			goto out;
	}
	if (sim_layout_check_overlap(l, before, path, err) ||
	    loader_layout(&k, err))
		goto out;
	l->has_table = true;
	l->table_entries += k.slots;
	l->table_null += k.nul;
	snprintf(what, sizeof(what), "%s (module %s: %" PRIu64 " entries in %zu "
		 "__patchable_function_entries, %zu sites)", base ? base + 1 : path,
		 k.name, k.slots, tables, l->nsites - before);
	sim_layout_add_source(l, what);
	rc = 0;
out:
	free(k.text_of);
	cap_funcs_free(&k.funcs);
	return rc;
}

int sim_capture_kmod(struct sim_layout *l, const char *path,
		     struct ftv_err *err)
{
	struct sim_elf e;
	int rc;

	if (sim_elf_open(&e, path, err))
		return -1;
	rc = sim_capture_kmod_elf(l, &e, err);
	sim_elf_free(&e);
	return rc;
}
