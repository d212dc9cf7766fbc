/* arm64's layout table: which of the ftrace callsite layouts a site has,
 * read from its words or (live capture) from where ip sits, and where
 * ftrace patches it. The kernel's rule is ftrace_call_adjust() in
 * arch/arm64/kernel/ftrace.c (v6.12). */
#include "encoders/a64.h"
#include "layout/layout.h"
#include "sim/elf.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* The two patchable words after the entry (and any BTI): NOP or MOV X9, LR
 * in the first, NOP or BL in the second, so that a dump of a live kernel
 * classifies like the vmlinux file it came from. */
static bool patch_pair(uint32_t a, uint32_t b)
{
	uint32_t mov = 0;

	a64_gen_mov_reg(9, 30, &mov, NULL); /* MOV X9, LR: x30 is the LR */
	return (a64_is_nop(a) || a == mov) && (a64_is_nop(b) || a64_is_bl(b));
}

enum sim_layout_kind sim_layout_classify_arm64(uint64_t entry, bool has_func,
					       uint64_t faddr,
					       const uint32_t *w, unsigned n,
					       uint64_t *ip, bool *has_ip)
{
	*ip = 0;
	*has_ip = false;
	if (!has_func || n < 1)
		return SIM_LAYOUT_UNKNOWN;

	/* -fpatchable-function-entry=4,2 (CALL_OPS): the entry is the first
	 * of two pre-function NOPs that hold the ops literal, so it sits 8
	 * bytes before the function. */
	if (entry + 8 == faddr) {
		/* The literal must be naturally aligned for the trampoline's
		 * 64-bit load; the kernel warns "Misaligned patch-site" and
		 * never traces such a function. */
		if ((entry & 7) || n < 5)
			return SIM_LAYOUT_UNKNOWN;
		/* A BTI C landing pad comes first, then MOV X9 / BL. */
		if (w[2] == a64_gen_bti(A64_BTI_C) && patch_pair(w[3], w[4])) {
			*ip = entry + 16;
			*has_ip = true;
			return SIM_LAYOUT_CALLOPS_BTI;
		}
		if (!patch_pair(w[2], w[3]))
			return SIM_LAYOUT_UNKNOWN;
		*ip = entry + 12;
		*has_ip = true;
		/* Return-address signing starts after the patchable NOPs (the
		 * trampoline runs before the LR is signed). */
		if (n >= 5 && (a64_is_paciasp(w[4]) || a64_is_pacibsp(w[4])))
			return SIM_LAYOUT_CALLOPS_PAC;
		return SIM_LAYOUT_CALLOPS;
	}

	/* -fpatchable-function-entry=2 (WITH_ARGS without CALL_OPS): two NOPs
	 * at the entry, or right after a BTI C; ftrace patches the second. */
	if ((entry == faddr || entry == faddr + 4) && n >= 2 &&
	    patch_pair(w[0], w[1])) {
		*ip = entry + 4;
		*has_ip = true;
		return SIM_LAYOUT_ARGS;
	}

	/* -pg: the entry is the BL _mcount itself (or the NOP it became),
	 * after the prologue. */
	if (entry > faddr && (a64_is_nop(w[0]) || a64_is_bl(w[0]))) {
		*ip = entry;
		*has_ip = true;
		return SIM_LAYOUT_MCOUNT;
	}
	return SIM_LAYOUT_UNKNOWN;
}

/* With CALL_OPS, ftrace_call_adjust() puts rec->ip after MOV X9, LR at
 * func+4, or at func+8 after a BTI C too; the literal (the table entry)
 * is at func-8, which the function's 8-byte alignment keeps aligned. PAC
 * cannot be told from ip alone. */
static enum sim_layout_kind live_kind(uint64_t faddr, uint64_t ip,
				      uint64_t *entry)
{
	enum sim_layout_kind k;

	if (faddr & 7)
		return SIM_LAYOUT_UNKNOWN;
	if (ip - faddr == 4)
		k = SIM_LAYOUT_CALLOPS;
	else if (ip - faddr == 8)
		k = SIM_LAYOUT_CALLOPS_BTI;
	else
		return SIM_LAYOUT_UNKNOWN;
	*entry = faddr - 8;
	return k;
}

/* arm64's struct plt_entry: ADRP X16; ADD X16, X16, #lo12; BR X16
 * (arch/arm64/include/asm/module.h). */
#define ARM64_PLT_ENTRY_SIZE 12
/* L1_CACHE_BYTES on arm64 (arch/arm64/include/asm/cache.h). */
#define ARM64_L1_CACHE_BYTES 64

static bool branch26(unsigned type)
{
	return type == R_AARCH64_JUMP26 || type == R_AARCH64_CALL26;
}

#define CMP3(a, b) ((a) < (b) ? -1 : (a) > (b))

/* module-plts.c's cmp_rela(): by type, symbol index, then addend. */
static int cmp_rela(const void *pa, const void *pb)
{
	const Elf64_Rela *x = pa, *y = pb;
	int i = CMP3(ELF64_R_TYPE(x->r_info), ELF64_R_TYPE(y->r_info));

	if (!i)
		i = CMP3(ELF64_R_SYM(x->r_info), ELF64_R_SYM(y->r_info));
	if (!i)
		i = CMP3(x->r_addend, y->r_addend);
	return i;
}

static bool needs_plt(const struct sim_elf *e, const Elf64_Rela *r,
		      unsigned dst)
{
	uint64_t sym = ELF64_R_SYM(r->r_info);

	return branch26(ELF64_R_TYPE(r->r_info)) &&
	       !(sym < e->nsyms && e->syms[sym].st_shndx == dst);
}

/* The PLT entries one relocation section may need
 * (arch/arm64/kernel/module-plts.c, v6.12: partition_branch_plt_relas()
 * then count_plts(), with CONFIG_RANDOMIZE_BASE=y as Debian builds it):
 * JUMP26/CALL26 against a symbol outside the relocated section, one per
 * distinct (type, symbol, addend) once sorted, every one with an addend.
 * The erratum 843419 veneers depend on the CPU the module loads on
 * (ARM64_WORKAROUND_843419, Cortex-A53 r0p0-r0p4 only): not counted. */
static uint64_t count_plts(const struct sim_elf *e, unsigned ri)
{
	unsigned dst = e->sh[ri].sh_info;
	size_t n = sim_elf_nrela(e, ri);
	Elf64_Rela *r = calloc(n ? n : 1, sizeof(*r));
	long i = 0, j = (long)n - 1;
	uint64_t ret = 0;

	if (!r)
		abort(); /* out of host memory */
	for (size_t k = 0; k < n; k++)
		sim_elf_rela(e, ri, k, &r[k]);
	/* The kernel's partition: branches needing a PLT to the front. */
	while (i < j) {
		if (needs_plt(e, &r[i], dst)) {
			i++;
		} else if (needs_plt(e, &r[j], dst)) {
			Elf64_Rela t = r[i];

			r[i] = r[j];
			r[j] = t;
		} else {
			j--;
		}
	}
	if (i)
		qsort(r, (size_t)i, sizeof(*r), cmp_rela);
	for (size_t k = 0; k < n; k++) {
		if (!branch26(ELF64_R_TYPE(r[k].r_info)) || !needs_plt(e, &r[k], dst))
			continue;
		if (r[k].r_addend != 0 || !(k > 0 && !cmp_rela(&r[k], &r[k - 1])))
			ret++;
	}
	free(r);
	return ret;
}

/* module_frob_arch_sections() (arch/arm64/kernel/module-plts.c, v6.12):
 * .plt and .init.plt become NOBITS code sections sized for the PLT entries
 * the module's branches may need (plus one), .text.ftrace_trampoline one
 * entry: the module's ftrace PLT. */
static int frob_sections(const struct sim_elf *e, uint64_t *flags,
			 uint64_t *size, uint64_t *align, unsigned *ftrace_plt,
			 struct ftv_err *err)
{
	unsigned core = 0, init = 0;
	uint64_t core_plts = 0, init_plts = 0;

	*ftrace_plt = 0;
	for (unsigned i = 1; i < e->nsec; i++) {
		const char *name = sim_elf_secname(e, i);

		if (!strcmp(name, ".plt"))
			core = i;
		else if (!strcmp(name, ".init.plt"))
			init = i;
		else if (!strcmp(name, ".text.ftrace_trampoline"))
			*ftrace_plt = i;
	}
	if (!core || !init)
		return ftv_errf(err, "%s: no .plt and .init.plt sections: arm64's "
				"module loader refuses it (\"module PLT section(s) "
				"missing\")", e->path);
	for (unsigned i = 1; i < e->nsec; i++) {
		unsigned dst = e->sh[i].sh_info;

		if (e->sh[i].sh_type != SHT_RELA || dst >= e->nsec ||
		    !(flags[dst] & SHF_EXECINSTR))
			continue;
		if (!strncmp(sim_elf_secname(e, dst), ".init", 5))
			init_plts += count_plts(e, i);
		else
			core_plts += count_plts(e, i);
	}
	flags[core] = flags[init] = SHF_EXECINSTR | SHF_ALLOC;
	align[core] = align[init] = ARM64_L1_CACHE_BYTES;
	size[core] = (core_plts + 1) * ARM64_PLT_ENTRY_SIZE;
	size[init] = (init_plts + 1) * ARM64_PLT_ENTRY_SIZE;
	if (*ftrace_plt) {
		flags[*ftrace_plt] = SHF_EXECINSTR | SHF_ALLOC;
		align[*ftrace_plt] = 4; /* __alignof__(struct plt_entry) */
		size[*ftrace_plt] = ARM64_PLT_ENTRY_SIZE; /* NR_FTRACE_PLTS = 1 */
	}
	return 0;
}

const struct sim_layout_arch sim_layout_arm64 = {
	.name = "arm64",
	.arch = FTV_ARCH_ARM64,
	.classify = sim_layout_classify_arm64,
	.live_kind = live_kind,
	/* ELF for the Arm 64-bit Architecture: ABS64 = S + A, RELATIVE =
	 * Delta(S) + A. */
	.reloc_abs64 = R_AARCH64_ABS64,
	.reloc_relative = R_AARCH64_RELATIVE,
	.frob_sections = frob_sections,
	.ftrace_plt_size = ARM64_PLT_ENTRY_SIZE,
	/* module_init_limits() (arch/arm64/kernel/module.c, v6.12): a 128 MiB
	 * window for direct branches, a 2 GiB one for PLT use, both ending
	 * at _end when KASLR is off. */
	.module_direct_size = 128ull << 20,
	.module_plt_size = 2ull << 30,
};
