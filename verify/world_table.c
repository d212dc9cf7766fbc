/* The core kernel's table of call sites as ftrace_process_locs reads it.
 *
 * ftv's loader turns every entry of an object's
 * __patchable_function_entries that names a function entry into a site.
 * An entry it drops because no function starts there any more is a weak
 * function another object overrides: the linker keeps its code as dead
 * text and binds every call to the other definition. Since Linux 6.14
 * scripts/sorttable zeroes those entries in vmlinux's table (commit
 * ef378c3b8233, "scripts/sorttable: Zero out weak functions in mcount_loc
 * table"), and ftrace_process_locs must skip them (ftrace_core_loc_wanted).
 * When it does not (FTRACE_MUT_PATCH_ZEROED_ENTRY), the zeroed entry becomes
 * a record and ftrace_init_nop writes at the address it names, outside any
 * text: on arm64 "kernel BUG at arch/arm64/kernel/patching.c:39" (patch_map
 * finds no page), reported by Nathan Chancellor and Mark Brown on
 * linux-next-20250224 and fixed by "ftrace: Check against is_kernel_text()
 * instead of kaslr_offset()" (Steven Rostedt, 25 Feb 2025). */
#include "verify/world_int.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int in_text(struct world *w, uint64_t addr)
{
	const struct sim_region *r = sim_region_at(w->as, addr);

	return r && (r->perms & SIM_X);
}

int world_zeroed_entries(struct world *w, struct world_zeroed **out, size_t *n,
			 struct ftv_err *err)
{
	size_t ns = sim_image_nsites(w->img), cap = 0;
	uint64_t *entries = malloc((ns ? ns : 1) * sizeof(*entries));

	*out = NULL;
	*n = 0;
	if (!entries)
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < ns; i++)
		entries[i] = sim_image_site(w->img, i)->entry;
	qsort(entries, ns, sizeof(*entries), cmp_u64);
	for (size_t k = 0; k < sim_image_nobjects(w->img); k++) {
		const struct sim_object_info *oi = sim_image_object(w->img, k);

		if (oi->is_module)
			continue;
		for (size_t s = 0; s < oi->nsections; s++) {
			const struct sim_loaded_section *sec = &oi->sections[s];

			if (strcmp(sec->name, "__patchable_function_entries"))
				continue;
			for (uint64_t e = 0; e < sec->size / 8; e++) {
				uint64_t a = 0;
				struct world_zeroed *z;

				sim_read64(w->as, sec->addr + 8 * e, &a);
				if (!a || !in_text(w, a) ||
				    bsearch(&a, entries, ns, sizeof(*entries), cmp_u64))
					continue;
				if (VEC_RESERVE(*out, cap, *n + 1)) {
					free(entries);
					return ftv_errf(err, "out of memory");
				}
				z = &(*out)[(*n)++];
				z->object = oi->name;
				z->index = e;
				z->was = a;
				snprintf(z->where, sizeof(z->where), "0x%016llx", (unsigned long long)a);
				for (size_t t = 0; t < oi->nsections; t++)
					if ((oi->sections[t].flags & SHF_EXECINSTR) &&
					    a >= oi->sections[t].addr &&
					    a < oi->sections[t].addr + oi->sections[t].size)
						snprintf(z->where, sizeof(z->where), "%s %s+0x%llx",
							 oi->name, oi->sections[t].name,
							 (unsigned long long)(a - oi->sections[t].addr));
			}
		}
	}
	free(entries);
	return 0;
}

/* A record for a zeroed entry that ftrace_process_locs took, from the
 * entry's value (0) as ftrace_call_adjust would turn it into a site. */
int world_zeroed_site(struct world *w, const struct world_zeroed *z, struct ftrace_site *s)
{
	memset(s, 0, sizeof(*s));
	s->kind = w->sd->kind;
	s->zeroed = 1;
	s->name = z->object;
	return w->ad->entry_site ? w->ad->entry_site(0, s) : -1;
}

/* A boot-time write the kernel's patch_map could not map: no kernel or
 * module text there. */
int world_boot_write_outside_text(struct world *w, const struct plan_step *st)
{
	char dis[96] = "";

	if (in_text(w, st->addr))
		return 0;
	if (st->op == PLAN_WRITE_INSN)
		w->ad->disasm((uint32_t)st->new, st->addr, dis, sizeof(dis));
	for (size_t i = 0; i < w->nzeroed; i++) {
		const struct world_zeroed *z = &w->zeroed[i];

		if (z->rec != st->rec)
			continue;
		world_add_violation(w, "write-outside-text", -1, 0,
				    "\"%s\" writes 0x%llx%s%s%s at 0x%016llx, which is no kernel "
				    "or module text: record %d is entry %llu of %s's "
				    "__patchable_function_entries, which named %s (a weak function "
				    "another object overrides) until scripts/sorttable zeroed it, taken "
				    "for a call site by ftrace_process_locs; patch_map() finds no page "
				    "for it and BUGs (arm64: \"kernel BUG at "
				    "arch/arm64/kernel/patching.c:39\", linux-next-20250224)",
				    st->what ? st->what : "init_nop", (unsigned long long)st->new,
				    dis[0] ? " (" : "", dis, dis[0] ? ")" : "",
				    (unsigned long long)st->addr, st->rec,
				    (unsigned long long)z->index, z->object, z->where);
		return 1;
	}
	world_add_violation(w, "write-outside-text", -1, 0,
			    "\"%s\" writes 0x%llx%s%s%s at 0x%016llx, which is no kernel or module "
			    "text (record %d)", st->what ? st->what : "?",
			    (unsigned long long)st->new, dis[0] ? " (" : "", dis, dis[0] ? ")" : "",
			    (unsigned long long)st->addr, st->rec);
	return 1;
}

int world_zeroed_unencodable(struct world *w, const struct world_zeroed *z,
			     const struct ftrace_site *s)
{
	struct plan p;
	struct ftv_err e = { "" };
	uint64_t lit = (w->backend->flags & FTRACE_ARCH_CALL_OPS) ? ftrace_core_nop_ops(w->core) : 0;
	int bad;

	plan_init(&p);
	bad = w->backend->init_nop(w->arch_ctx, s, lit, &p, &e) != 0;
	plan_free(&p);
	if (bad)
		world_add_violation(w, "write-outside-text", -1, 0,
				    "ftrace_init_nop of the site at 0x%016llx, made of entry %llu of "
				    "%s's __patchable_function_entries, which named %s (a weak "
				    "function another object overrides) until scripts/sorttable "
				    "zeroed it, taken for a call site by ftrace_process_locs: the "
				    "kernel writes its words at that address, which is no kernel or "
				    "module text, and patch_map() finds no page for it and BUGs (ftv "
				    "cannot even encode them: %s)",
				    (unsigned long long)s->ip, (unsigned long long)z->index, z->object,
				    z->where, e.msg);
	return bad;
}
