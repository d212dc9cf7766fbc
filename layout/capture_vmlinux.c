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
#include "layout/capture_elf.h"
#include "layout/capture_funcs.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R_RELATIVE R_AARCH64_RELATIVE /* 1027, ELF for the Arm 64-bit Arch. */

struct table {
	uint64_t start, stop, n;
	long sec;
	const uint8_t *slots;
	uint64_t *rela;  /* per slot: the RELATIVE addend */
	uint8_t *has_rela;
	size_t from_rela;
};

static int find_table(const struct cap_elf *e, struct table *t,
		      struct ftv_err *err)
{
	const Elf64_Sym *a = cap_elf_sym(e, "__start_mcount_loc");
	const Elf64_Sym *b = cap_elf_sym(e, "__stop_mcount_loc");

	if (!a || !b)
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
	t->sec = cap_elf_sec_at(e, t->start, t->stop - t->start);
	if (t->sec < 0)
		return ftv_errf(err, "%s: mcount_loc table at 0x%" PRIx64 " is in "
				"no section with contents", e->path, t->start);
	t->slots = cap_elf_bytes(e, t->sec, t->start - e->sh[t->sec].sh_addr,
				 t->stop - t->start);
	if (!t->slots)
		return ftv_errf(err, "%s: mcount_loc table at 0x%" PRIx64 " has no "
				"contents in the file", e->path, t->start);
	return 0;
}

/* The RELATIVE addends that land in the table, from every SHT_RELA section
 * of the file (.rela.dyn in practice). */
static int table_relocs(const struct cap_elf *e, struct table *t,
			struct ftv_err *err)
{
	t->rela = calloc(t->n ? t->n : 1, sizeof(*t->rela));
	t->has_rela = calloc(t->n ? t->n : 1, 1);
	if (!t->rela || !t->has_rela)
		return ftv_errf(err, "%s: out of memory", e->path);
	for (size_t i = 1; i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];
		const Elf64_Rela *r;
		size_t n;

		if (s->sh_type != SHT_RELA || !(s->sh_flags & SHF_ALLOC))
			continue;
		if (s->sh_entsize != sizeof(Elf64_Rela) || s->sh_offset % 8)
			return ftv_errf(err, "%s: malformed relocation section %s",
					e->path, cap_elf_secname(e, i));
		r = (const void *)(e->data + s->sh_offset);
		n = s->sh_size / sizeof(*r);
		for (size_t k = 0; k < n; k++) {
			uint64_t off = r[k].r_offset, slot;

			if (ELF64_R_TYPE(r[k].r_info) != R_RELATIVE ||
			    off < t->start || off >= t->stop)
				continue;
			if ((off - t->start) % 8)
				return ftv_errf(err, "%s: %s[%zu]: RELATIVE relocation "
						"at 0x%" PRIx64 " splits an mcount_loc "
						"entry", e->path, cap_elf_secname(e, i),
						k, off);
			slot = (off - t->start) / 8;
			t->rela[slot] = (uint64_t)r[k].r_addend;
			t->has_rela[slot] = 1;
			t->from_rela++;
		}
	}
	return 0;
}

/* "Linux version 6.12.107+deb13-cloud-arm64 (...)" in linux_banner. */
static void kernel_release(const struct cap_elf *e, char *buf, size_t n)
{
	const Elf64_Sym *s = cap_elf_sym(e, "linux_banner");
	const char *prefix = "Linux version ";
	const uint8_t *p;
	long sec;
	size_t k = 0, pl = strlen(prefix);

	snprintf(buf, n, "-");
	if (!s || s->st_size <= pl)
		return;
	sec = cap_elf_sec_at(e, s->st_value, s->st_size);
	if (sec < 0)
		return;
	p = cap_elf_bytes(e, sec, s->st_value - e->sh[sec].sh_addr, s->st_size);
	if (!p || memcmp(p, prefix, pl))
		return;
	for (p += pl; k + 1 < n && k + pl < s->st_size && p[k] > 0x20 &&
	     p[k] < 0x7f; k++)
		buf[k] = p[k];
	if (k)
		buf[k] = 0;
}

static int add_texts(struct sim_layout *l, const struct cap_elf *e,
		     struct ftv_err *err)
{
	for (size_t i = 1; i < e->shnum; i++) {
		const Elf64_Shdr *s = &e->sh[i];

		if ((s->sh_flags & (SHF_ALLOC | SHF_EXECINSTR)) !=
		    (SHF_ALLOC | SHF_EXECINSTR) || !s->sh_size ||
		    s->sh_type == SHT_NOBITS || s->sh_type == SHT_NULL)
			continue;
		if (!sim_layout_name_ok(cap_elf_secname(e, i)))
			return ftv_errf(err, "%s: code section [%zu] has a name a "
					"layout cannot hold", e->path, i);
		if (s->sh_addr + s->sh_size < s->sh_addr)
			return ftv_errf(err, "%s: code section [%zu] wraps around "
					"the address space", e->path, i);
		sim_layout_add_text(l, s->sh_addr, s->sh_addr + s->sh_size,
				    "vmlinux", cap_elf_secname(e, i));
	}
	return 0;
}

static int add_site(struct sim_layout *l, const struct cap_elf *e,
		    const struct cap_funcs *funcs, uint64_t entry, uint64_t slot,
		    struct ftv_err *err)
{
	struct sim_layout_site s = { .entry = entry, .has_entry = true,
				     .module = "vmlinux" };
	const struct cap_func *fn = cap_funcs_resolve(funcs, 0, entry);
	long sec = cap_elf_sec_at(e, entry, 4);
	const uint8_t *p;

	if (sec < 0 || !(e->sh[sec].sh_flags & SHF_EXECINSTR))
		return ftv_errf(err, "%s: mcount_loc entry %" PRIu64 " (0x%016"
				PRIx64 ") is not in an executable section",
				e->path, slot, entry);
	p = cap_elf_bytes(e, sec, entry - e->sh[sec].sh_addr, 4);
	/* The words from the entry on, as many as the section holds. */
	for (s.nwords = 0; s.nwords < SIM_LAYOUT_CAPTURE_WORDS; s.nwords++) {
		if (!cap_elf_bytes(e, sec, entry - e->sh[sec].sh_addr +
				   4 * s.nwords, 4))
			break;
		s.words[s.nwords] = cap_le32(p + 4 * s.nwords);
	}
	/* The function must start in the code section the site is in, and ip
	 * must follow in it, or replay could not map them together. */
	if (fn && (fn->addr < e->sh[sec].sh_addr ||
		   fn->addr - e->sh[sec].sh_addr >= e->sh[sec].sh_size))
		return ftv_errf(err, "%s: mcount_loc entry %" PRIu64 " (0x%016" PRIx64
				") belongs to %s at 0x%016" PRIx64 ", outside its "
				"section %s", e->path, slot, entry, fn->name,
				fn->addr, cap_elf_secname(e, sec));
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
	s.kind = sim_layout_classify_arm64(entry, fn != NULL, s.faddr, s.words,
					   s.nwords, &s.ip, &s.has_ip);
	/* A site outside its function's extent is a symbol we misread. */
	if (fn && s.has_fsize && s.has_ip &&
	    (s.ip < fn->addr || s.ip - fn->addr >= fn->size))
		s.has_fsize = false;
	sim_layout_add_site(l, &s);
	return 0;
}

int cap_capture_vmlinux(struct sim_layout *l, const struct cap_elf *ep,
			struct ftv_err *err)
{
	const struct cap_elf e = *ep;
	const char *path = e.path;
	struct cap_funcs funcs = { 0 };
	struct table t = { 0 };
	uint64_t nul = 0, before = l->nsites;
	char release[128], what[512];
	const char *base = strrchr(path, '/');
	int rc = -1;

	if (e.eh->e_type != ET_DYN && e.eh->e_type != ET_EXEC) {
		ftv_errf(err, "%s: not a linked vmlinux (e_type %u)", path,
			 e.eh->e_type);
		goto out;
	}
	if (cap_funcs_build(&funcs, &e, false, err) ||
	    find_table(&e, &t, err) || table_relocs(&e, &t, err))
		goto out;
	kernel_release(&e, release, sizeof(release));
	if (sim_capture_set_kernel(l, release, path, err))
		goto out;
	if (add_texts(l, &e, err))
		goto out;

	for (uint64_t i = 0; i < t.n; i++) {
		uint64_t v = cap_le64(t.slots + 8 * i);

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
		if (add_site(l, &e, &funcs, v, i, err))
			goto out;
	}
	l->has_table = true;
	l->table_entries += t.n;
	l->table_null += nul;
	snprintf(what, sizeof(what), "%s (vmlinux: %" PRIu64 " mcount_loc entries, "
		 "%zu from .rela.dyn addends, %" PRIu64 " null, %zu sites)",
		 base ? base + 1 : path, t.n, t.from_rela, nul, l->nsites - before);
	sim_capture_add_source(l, what);
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
	struct cap_elf e;
	int rc;

	if (cap_elf_open(&e, path, err))
		return -1;
	rc = cap_capture_vmlinux(l, &e, err);
	cap_elf_close(&e);
	return rc;
}
