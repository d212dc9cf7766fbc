/* The callsites of a linked arm64 vmlinux.
 *
 * A vmlinux has no __patchable_function_entries section: the kernel's
 * linker script (include/asm-generic/vmlinux.lds.h, MCOUNT_REC) gathers the
 * compiler's entries into the mcount_loc table in .init.data, between
 * __start_mcount_loc and __stop_mcount_loc, one 64-bit address per entry.
 * arm64 links vmlinux as a PIE (-shared -Bsymbolic); how the table's words
 * reach the file depends on the relocation format:
 *  - RELA with --no-apply-dynamic-relocs: the slot holds 0 and the address
 *    is the addend of an R_AARCH64_RELATIVE relocation in .rela.dyn;
 *  - RELR (CONFIG_RELR, Debian's 6.12 kernels): the address is in the slot
 *    (RELR relocations only add the load offset to the word in place).
 * Both are handled; a slot that is 0 with no RELATIVE relocation is a null
 * entry, which ftrace_process_locs() skips (kernel/trace/ftrace.c; with
 * CONFIG_BUILDTIME_MCOUNT_SORT they are sorted to the front). */
#include "layout/capture.h"
#include "layout/capture_funcs.h"
#include "sim/elf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct table {
	uint64_t start, stop, n;
	unsigned sec;
	const uint8_t *slots;
	uint64_t *rela;  /* per slot: the RELATIVE addend */
	uint8_t *has_rela;
	size_t from_rela;
};

static int find_table(const struct sim_elf *e, struct table *t,
		      struct ftv_err *err)
{
	size_t ia = sim_elf_sym_named(e, "__start_mcount_loc");
	size_t ib = sim_elf_sym_named(e, "__stop_mcount_loc");
	const Elf64_Sym *a = &e->syms[ia], *b = &e->syms[ib];

	if (!ia || !ib)
		return ftv_errf(err, "%s: no __start_mcount_loc/__stop_mcount_loc "
				"symbols (a kernel without dynamic ftrace?)",
				e->path);
	t->start = a->st_value;
	t->stop = b->st_value;
	if (t->stop < t->start || (t->stop - t->start) % 8)
		return ftv_errf(err, "%s: mcount_loc table [0x%" PRIx64 ", 0x%"
				PRIx64 ") is not a whole number of 8-byte "
				"entries", e->path, t->start, t->stop);
	t->n = (t->stop - t->start) / 8;
	t->sec = sim_elf_sec_at(e, t->start, t->stop - t->start);
	if (!t->sec)
		return ftv_errf(err, "%s: mcount_loc table at 0x%" PRIx64 " is in "
				"no section with contents", e->path, t->start);
	t->slots = sim_elf_bytes(e, t->sec, t->start - e->sh[t->sec].sh_addr,
				 t->stop - t->start);
	if (!t->slots)
		return ftv_errf(err, "%s: mcount_loc table at 0x%" PRIx64 " has no "
				"contents in the file", e->path, t->start);
	return 0;
}

/* The RELATIVE addends that land in the table, from every SHT_RELA section
 * of the file (.rela.dyn in practice). */
static int table_relocs(const struct sim_elf *e, unsigned relative,
			struct table *t, struct ftv_err *err)
{
	t->rela = calloc(t->n ? t->n : 1, sizeof(*t->rela));
	t->has_rela = calloc(t->n ? t->n : 1, 1);
	if (!t->rela || !t->has_rela)
		return ftv_errf(err, "%s: out of memory", e->path);
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		size_t n;

		if (s->sh_type != SHT_RELA || !(s->sh_flags & SHF_ALLOC))
			continue;
		if (s->sh_entsize != sizeof(Elf64_Rela))
			return ftv_errf(err, "%s: malformed relocation section %s",
					e->path, sim_elf_secname(e, i));
		n = sim_elf_nrela(e, i);
		for (size_t k = 0; k < n; k++) {
			Elf64_Rela r;
			uint64_t off, slot;

			sim_elf_rela(e, i, k, &r);
			off = r.r_offset;
			if (ELF64_R_TYPE(r.r_info) != relative ||
			    off < t->start || off >= t->stop)
				continue;
			if ((off - t->start) % 8)
				return ftv_errf(err, "%s: %s[%zu]: RELATIVE relocation "
						"at 0x%" PRIx64 " splits an mcount_loc "
						"entry", e->path, sim_elf_secname(e, i),
						k, off);
			slot = (off - t->start) / 8;
			t->rela[slot] = (uint64_t)r.r_addend;
			t->has_rela[slot] = 1;
			t->from_rela++;
		}
	}
	return 0;
}

/* "Linux version 6.12.107+deb13-cloud-arm64 (...)" in linux_banner. */
static void kernel_release(const struct sim_elf *e, char *buf, size_t n)
{
	size_t si = sim_elf_sym_named(e, "linux_banner");
	const Elf64_Sym *s = &e->syms[si];
	const char *prefix = "Linux version ";
	const uint8_t *p;
	unsigned sec;
	size_t k = 0, pl = strlen(prefix);

	snprintf(buf, n, "-");
	if (!si || s->st_size <= pl)
		return;
	sec = sim_elf_sec_at(e, s->st_value, s->st_size);
	if (!sec)
		return;
	p = sim_elf_bytes(e, sec, s->st_value - e->sh[sec].sh_addr, s->st_size);
	if (!p || memcmp(p, prefix, pl))
		return;
	for (p += pl; k + 1 < n && k + pl < s->st_size && p[k] > 0x20 &&
	     p[k] < 0x7f; k++)
		buf[k] = p[k];
	if (k)
		buf[k] = 0;
}

static int add_texts(struct sim_layout *l, const struct sim_elf *e,
		     struct ftv_err *err)
{
	for (unsigned i = 1; i < e->nsec; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if ((s->sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || !s->sh_size ||
		    s->sh_type == SHT_NOBITS || s->sh_type == SHT_NULL)
			continue;
		if (!sim_layout_name_ok(sim_elf_secname(e, i)))
			return ftv_errf(err, "%s: code section [%u] has a name a "
					"layout cannot hold", e->path, i);
		if (s->sh_addr + s->sh_size < s->sh_addr)
			return ftv_errf(err, "%s: code section [%u] wraps around "
					"the address space", e->path, i);
		sim_layout_add_text(l, s->sh_addr, s->sh_addr + s->sh_size,
				    "vmlinux", sim_elf_secname(e, i));
	}
	return 0;
}

/* The image [_text, _end), which arm64 places the module region around
 * (module_init_limits()). A vmlinux without the two symbols has none. */
static int add_image(struct sim_layout *l, const struct sim_elf *e,
		     struct ftv_err *err)
{
	size_t a = sim_elf_sym_named(e, "_text"), b = sim_elf_sym_named(e, "_end");
	uint64_t start, end;

	if (!a || !b)
		return 0;
	start = e->syms[a].st_value;
	end = e->syms[b].st_value;
	if (end <= start)
		return ftv_errf(err, "%s: _end (0x%016" PRIx64 ") is not above _text "
				"(0x%016" PRIx64 ")", e->path, end, start);
	if (l->has_image && (l->image_start != start || l->image_end != end))
		return ftv_errf(err, "%s: a second kernel image", e->path);
	l->has_image = true;
	l->image_start = start;
	l->image_end = end;
	return 0;
}

static int add_site(struct sim_layout *l, const struct sim_elf *e,
		    const struct sim_layout_arch *arch,
		    const struct cap_funcs *funcs, uint64_t entry, uint64_t slot,
		    struct ftv_err *err)
{
	struct sim_layout_site s = { .entry = entry, .has_entry = true,
				     .module = "vmlinux" };
	const struct cap_func *fn = cap_funcs_resolve(funcs, 0, entry);
	unsigned sec = sim_elf_sec_at(e, entry, 4);
	const uint8_t *p;

	if (!sec || !(e->sh[sec].sh_flags & SHF_EXECINSTR))
		return ftv_errf(err, "%s: mcount_loc entry %" PRIu64 " (0x%016"
				PRIx64 ") is not in an executable section",
				e->path, slot, entry);
	p = sim_elf_bytes(e, sec, entry - e->sh[sec].sh_addr, 4);
	/* The words from the entry on, as many as the section holds. */
	for (s.nwords = 0; s.nwords < SIM_LAYOUT_CAPTURE_WORDS; s.nwords++) {
		if (!sim_elf_bytes(e, sec, entry - e->sh[sec].sh_addr +
				   4 * s.nwords, 4))
			break;
		s.words[s.nwords] = sim_le32(p + 4 * s.nwords);
	}
	/* The function must start in the code section the site is in, and ip
	 * must follow in it, or replay could not map them together. */
	if (fn && (fn->addr < e->sh[sec].sh_addr ||
		   fn->addr - e->sh[sec].sh_addr >= e->sh[sec].sh_size))
		return ftv_errf(err, "%s: mcount_loc entry %" PRIu64 " (0x%016" PRIx64
				") belongs to %s at 0x%016" PRIx64 ", outside its "
				"section %s", e->path, slot, entry, fn->name,
				fn->addr, sim_elf_secname(e, sec));
	if (fn && !sim_layout_name_ok(fn->name))
		return ftv_errf(err, "%s: the function symbol at 0x%016" PRIx64
				" has a name a layout cannot hold", e->path,
				fn->addr);
	if (fn) {
		s.func = fn->name;
		s.faddr = fn->addr;
		s.fsize = fn->size;
		s.has_fsize = fn->size != 0;
	}
	s.kind = arch->classify(entry, fn != NULL, s.faddr, s.words, s.nwords,
				&s.ip, &s.has_ip);
	/* A site outside its function's extent is a symbol we misread. */
	if (fn && s.has_fsize && s.has_ip &&
	    (s.ip < fn->addr || s.ip - fn->addr >= fn->size))
		s.has_fsize = false;
	sim_layout_add_site(l, &s);
	return 0;
}

int sim_capture_vmlinux_elf(struct sim_layout *l, const struct sim_elf *e,
			    struct ftv_err *err)
{
	const char *path = e->path;
	const struct sim_layout_arch *arch;
	struct cap_funcs funcs = { 0 };
	struct table t = { 0 };
	uint64_t nul = 0, before = l->nsites;
	char release[128], what[512];
	const char *base = strrchr(path, '/');
	int rc = -1;

	if (e->eh.e_type != ET_DYN && e->eh.e_type != ET_EXEC) {
		ftv_errf(err, "%s: not a linked vmlinux (e_type %u)", path,
			 e->eh.e_type);
		goto out;
	}
	if (!(arch = sim_layout_merge_arch(l, e->arch, path, err)) ||
	    cap_funcs_build(&funcs, e, false, err) ||
	    find_table(e, &t, err) ||
	    table_relocs(e, arch->reloc_relative, &t, err))
		goto out;
	kernel_release(e, release, sizeof(release));
	if (sim_layout_merge_kernel(l, release, path, err))
		goto out;
	if (add_texts(l, e, err) || add_image(l, e, err))
		goto out;

	for (uint64_t i = 0; i < t.n; i++) {
		uint64_t v = sim_le64(t.slots + 8 * i);

		if (t.has_rela[i]) {
			if (v && v != t.rela[i]) {
				ftv_errf(err, "%s: mcount_loc entry %" PRIu64 " holds "
					 "0x%" PRIx64 " but its RELATIVE addend is 0x%"
					 PRIx64, path, i, v, t.rela[i]);
				goto out;
			}
			v = t.rela[i];
		}
		if (!v) {
			nul++;
			continue;
		}
		if (add_site(l, e, arch, &funcs, v, i, err))
			goto out;
	}
	if (sim_layout_check_overlap(l, before, path, err))
		goto out;
	l->has_table = true;
	l->table_entries += t.n;
	l->table_null += nul;
	snprintf(what, sizeof(what), "%s (vmlinux: %" PRIu64 " mcount_loc entries, "
		 "%zu from .rela.dyn addends, %" PRIu64 " null, %zu sites)",
		 base ? base + 1 : path, t.n, t.from_rela, nul, l->nsites - before);
	sim_layout_add_source(l, what);
	rc = 0;
out:
	free(t.rela);
	free(t.has_rela);
	cap_funcs_free(&funcs);
	return rc;
}

int sim_capture_vmlinux(struct sim_layout *l, const char *path,
			struct ftv_err *err)
{
	struct sim_elf e;
	int rc;

	if (sim_elf_open(&e, path, err))
		return -1;
	rc = sim_capture_vmlinux_elf(l, &e, err);
	sim_elf_free(&e);
	return rc;
}
