/* Modules loaded and unloaded while the CPUs run (world_load_module,
 * world_unload_module): the kernel's load_module and delete_module as far
 * as ftrace and the module's callers see them.
 *
 * load_module: the module's text is in place (ftv links it with the image,
 * at an address no CPU runs), ftrace_module_init turns its sites into
 * their disabled state (init_nop) and ftrace_module_enable enables those
 * the registered ops trace; both are updates like any other, applied while
 * the CPUs run. When they have landed the module's init has run, and each
 * CPU calls its functions from its next task switch on (their call-table
 * entries filled).
 *
 * delete_module: the module's users are gone (its entries emptied: the
 * refcount dropped to zero), ftrace_release_mod frees its records, and
 * free_module releases its memory after a grace period (synchronize_rcu):
 * the text (and the module's ftrace PLT) is poisoned, so a CPU that still
 * ran it would fault and a validated write into it would find garbage. */
#include "verify/world_int.h"

#include <elf.h>
#include <string.h>

#include "patcher/ftrace_abi.h"

static void cpu_calls(struct world *w, unsigned c, size_t m, int on)
{
	const struct wcpu *cpu = &w->cpu[c];
	struct wcpu_run *run = &w->run.cpu[c];

	for (unsigned i = 0; i < cpu->ncalls; i++) {
		const struct wrec *r = &w->recs[cpu->call_rec[i]];

		if (r->mod == (int)m)
			sim_write64(w->as, cpu->calls + i * FTV_CALL_SIZE + FTV_CALL_FN,
				    on ? r->func : 0);
	}
	if (on)
		run->mods_on |= 1ULL << m;
	else
		run->mods_on &= ~(1ULL << m);
}

void world_module_calls(struct world *w, size_t m, int on)
{
	for (unsigned c = 0; c < w->cfg.exec.ncpus; c++)
		cpu_calls(w, c, m, on);
}

/* A CPU starts calling a module that finished loading at its next
 * quiescent point, a task switch: the code ftrace_module_init wrote is
 * fetched only after a context synchronisation event (Arm ARM B2.2.5),
 * as a task scheduled after the load would see it. */
static void module_cpu_sync(struct world *w, unsigned cpu)
{
	for (size_t m = 0; m < w->nmods; m++) {
		const struct wmod *md = &w->mods[m];
		enum wmod_state *state = &w->run.mod_state[m];

		/* loaded once its last load plan has landed */
		for (size_t i = 0; *state == WMOD_LOADING && i < w->nplans; i++)
			if (w->plans[i].id == md->ready_plan && w->run.plan[i].done)
				*state = WMOD_LOADED;
		if (*state == WMOD_LOADED && md->late &&
		    !(w->run.cpu[cpu].mods_on & (1ULL << m)))
			cpu_calls(w, cpu, m, 1);
	}
}

void world_cpu_synced(struct world *w, unsigned cpu, uint64_t step)
{
	w->run.cpu[cpu].last_sync = step + 1;
	w->run.cpu[cpu].last_qs = step + 1;
	module_cpu_sync(w, cpu);
}

static struct wmod *late_module(struct world *w, const char *name, struct ftv_err *err)
{
	for (size_t m = 0; m < w->nmods; m++) {
		if (strcmp(w->mods[m].name, name))
			continue;
		if (!w->mods[m].late)
			return ftv_errf(err, "module %s is loaded at boot (list it under "
					"late-modules to load it while the CPUs run)", name), NULL;
		return &w->mods[m];
	}
	return ftv_errf(err, "no late module named '%s'", name), NULL;
}

int world_load_module(struct world *w, const char *name, struct ftv_err *err)
{
	struct wmod *md = late_module(w, name, err);
	size_t before = w->nplans;

	if (!md)
		return -1;
	if (w->run.mod_state[md - w->mods] != WMOD_NOT_LOADED)
		return ftv_errf(err, "module %s was loaded before (a module is loaded once)",
				name);
	if (ftrace_module_init(w->core, name, &w->scratch, err)) {
		plan_reset(&w->scratch);
		return -1;
	}
	if (world_submit(w, "ftrace_module_init", err))
		return -1;
	if (ftrace_module_enable(w->core, name, &w->scratch, err)) {
		plan_reset(&w->scratch);
		return -1;
	}
	if (world_submit(w, "ftrace_module_enable", err))
		return -1;
	if (w->nplans == before) {
		/* nothing to write */
		w->run.mod_state[md - w->mods] = WMOD_LOADED;
		return 0;
	}
	w->run.mod_state[md - w->mods] = WMOD_LOADING;
	md->ready_plan = w->plans[w->nplans - 1].id;
	return 0;
}

int world_unload_module(struct world *w, const char *name, struct ftv_err *err)
{
	struct wmod *md = late_module(w, name, err);
	size_t m;

	if (!md)
		return -1;
	m = (size_t)(md - w->mods);
	if (w->run.mod_state[m] != WMOD_LOADING && w->run.mod_state[m] != WMOD_LOADED)
		return ftv_errf(err, "module %s is not loaded", name);
	/* delete_module: nobody holds a reference any more */
	world_module_calls(w, m, 0);
	w->run.mod_state[m] = WMOD_UNLOADED;
	if (ftrace_release_mod(w->core, name, err))
		return -1;
	/* free_module: synchronize_rcu(), then the memory goes */
	if (plan_simple(&w->scratch, PLAN_QUIESCE, -1, "synchronize_rcu (free_module)"))
		return ftv_errf(err, "out of memory");
	for (size_t i = 0; i < md->obj->nsections; i++) {
		const struct sim_loaded_section *sec = &md->obj->sections[i];

		if ((sec->flags & SHF_EXECINSTR) && sec->size &&
		    plan_free_mem(&w->scratch, sec->addr, sec->size, -1, "free_module: text"))
			return ftv_errf(err, "out of memory");
	}
	if (md->plt && plan_free_mem(&w->scratch, md->plt, 16, -1, "free_module: ftrace PLT"))
		return ftv_errf(err, "out of memory");
	return world_submit(w, "delete_module", err);
}
