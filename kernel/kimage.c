/* Loading a kernel build's objects as a kernel (kernel/kern.h). */
#include "kernel/kern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernel/kline.h"
#include "kernel/kshim.h"
#include "util/vec.h"

const char *const kern_objects[] = {
	"arch/arm64/kernel/entry-ftrace.o", "arch/arm64/kernel/ftrace.o",
	"arch/arm64/kernel/patching.o", "arch/arm64/lib/insn.o",
	"arch/arm64/mm/cache.o", NULL,
};

/* The fake current: a zeroed task_struct-sized block (the offsets used
 * are below 4 KiB in every build ftv knows; kern_open checks them). */
#define KERN_TASK_BASE SIM_DATA_BASE
#define KERN_TASK_SIZE 0x4000ull
#define KERN_STACK_SIZE 0x10000ull
/* records and ops built by whoever drives a call (kern.scratch) */
#define KERN_SCRATCH_BASE (SIM_DATA_BASE + 0x100000ull)
#define KERN_SCRATCH_SIZE 0x100000ull
/* what the fake current's stack canary holds (any value: the check is
 * that the code gives back what it read) */
#define KERN_CANARY 0x5ca1ab1e0ddba11ull

int kern_layout_read(struct kern_layout *l, const char *path,
		     struct ftv_err *err)
{
	static const struct {
		const char *name;
		size_t off;
	} f[] = {
		{ "sizeof.dyn_ftrace", offsetof(struct kern_layout, dyn_ftrace_size) },
		{ "dyn_ftrace.ip", offsetof(struct kern_layout, dyn_ftrace_ip) },
		{ "dyn_ftrace.flags", offsetof(struct kern_layout, dyn_ftrace_flags) },
		{ "sizeof.ftrace_ops", offsetof(struct kern_layout, ops_size) },
		{ "ftrace_ops.func", offsetof(struct kern_layout, ops_func) },
		{ "ftrace_ops.direct_call", offsetof(struct kern_layout, ops_direct_call) },
		{ "FTRACE_FL_CALL_OPS_EN", offsetof(struct kern_layout, fl_call_ops_en) },
		{ "TSK_STACK_CANARY", offsetof(struct kern_layout, tsk_canary) },
		{ "TSK_TI_PREEMPT", offsetof(struct kern_layout, tsk_preempt) },
		{ "TSK_TI_CPU", offsetof(struct kern_layout, tsk_cpu) },
	};
	enum { NF = sizeof(f) / sizeof(f[0]) };
	unsigned char seen[NF] = { 0 };
	char line[256], name[128];
	unsigned long long v;
	FILE *fp = fopen(path, "r");
	int ln = 0;

	if (!fp)
		return ftv_errf(err, "%s: missing (run make kernel, which writes it with tools/kernel-layout.py)",
				path);
	l->ops_direct_call = ~0ull;
	while (fgets(line, sizeof(line), fp)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%127s %llu", name, &v) != 2) {
			fclose(fp);
			return ftv_errf(err, "%s:%d: expected 'name value'", path, ln);
		}
		for (size_t i = 0; i < NF; i++)
			if (!strcmp(name, f[i].name)) {
				*(uint64_t *)((char *)l + f[i].off) = v;
				seen[i] = 1;
			}
		{
			struct kern_fact fa = { strdup(name), v };

			if (!fa.name || VEC_PUSH(l->facts, l->nfacts, l->capfacts, fa)) {
				free(fa.name);
				fclose(fp);
				return ftv_errf(err, "out of memory");
			}
		}
	}
	fclose(fp);
	/* direct_call and CALL_OPS_EN exist only in builds that have them */
	for (size_t i = 0; i < NF; i++)
		if (!seen[i] && strcmp(f[i].name, "ftrace_ops.direct_call") &&
		    strcmp(f[i].name, "FTRACE_FL_CALL_OPS_EN"))
			return ftv_errf(err, "%s: no %s", path, f[i].name);
	if (l->tsk_canary + 8 > KERN_TASK_SIZE || l->tsk_preempt + 4 > KERN_TASK_SIZE ||
	    l->tsk_cpu + 4 > KERN_TASK_SIZE)
		return ftv_errf(err, "%s: task_struct offsets beyond ftv's fake task (%llu bytes)",
				path, (unsigned long long)KERN_TASK_SIZE);
	return 0;
}

void kern_layout_free(struct kern_layout *l)
{
	for (size_t i = 0; i < l->nfacts; i++)
		free(l->facts[i].name);
	free(l->facts);
	l->facts = NULL;
	l->nfacts = l->capfacts = 0;
}

int kern_fact(const struct kern_layout *l, const char *name, uint64_t *v,
	      struct ftv_err *err)
{
	for (size_t i = 0; i < l->nfacts; i++)
		if (!strcmp(l->facts[i].name, name)) {
			*v = l->facts[i].value;
			return 0;
		}
	return ftv_errf(err, "ftv-layout.txt has no %s (rebuild with make kernel)", name);
}

/* __bug_table with CONFIG_GENERIC_BUG_RELATIVE_POINTERS and
 * DEBUG_BUGVERBOSE (arch/arm64/include/asm/asm-bug.h): 12-byte entries
 * {s32 bug_addr_disp, s32 file_disp, u16 line, u16 flags}, each
 * displacement relative to its own field. BUGFLAG_WARNING = 1
 * (include/asm-generic/bug.h). */
static int read_bugs(struct kern *k, struct ftv_err *err)
{
	for (size_t o = 0; o < sim_image_nobjects(k->img); o++) {
		const struct sim_object_info *ob = sim_image_object(k->img, o);

		for (size_t s = 0; s < ob->nsections; s++) {
			const struct sim_loaded_section *sec = &ob->sections[s];

			if (strcmp(sec->name, "__bug_table"))
				continue;
			for (uint64_t e = sec->addr; e + 12 <= sec->addr + sec->size; e += 12) {
				uint32_t d0, d1, lf;
				char file[200];
				size_t i = 0;
				uint8_t c = 0;
				struct kern_bug b;

				if (sim_read32(k->as, e, &d0) || sim_read32(k->as, e + 4, &d1) ||
				    sim_read32(k->as, e + 8, &lf))
					return ftv_errf(err, "%s: __bug_table unreadable", ob->path);
				for (; i + 1 < sizeof(file) &&
				       !sim_read(k->as, e + 4 + (int32_t)d1 + i, &c, 1, NULL) && c; i++)
					file[i] = (char)c;
				file[i] = 0;
				b.addr = e + (int32_t)d0;
				b.warn = (lf >> 16) & 1;
				b.where = malloc(strlen(file) + 16);
				if (!b.where || VEC_PUSH(k->bugs, k->nbugs, k->capbugs, b)) {
					free(b.where);
					return ftv_errf(err, "out of memory");
				}
				sprintf(b.where, "%s:%u", file, lf & 0xffff);
			}
		}
	}
	return 0;
}

static int add(struct kern *k, const char *path, int module, struct ftv_err *err)
{
	struct stat st;

	if (stat(path, &st))
		return ftv_errf(err, "%s: missing (build it with: make kernel KERNEL_OUT=%s)",
				path, k->dir);
	return sim_image_add_file(k->img, path, module, err);
}

/* The text of the loaded objects: kernel.text from its base to what the
 * loader used. */
static void text_range(struct kern *k)
{
	struct sim_region *r = sim_region_named(k->as, "kernel.text");
	struct sim_region *m = sim_region_named(k->as, "module.text");

	k->text_lo = r ? r->base : 0;
	k->text_hi = r ? r->base + r->used : 0;
	k->mtext_lo = m ? m->base : 0;
	k->mtext_hi = m ? m->base + m->used : 0;
}

static int fake_task(struct kern *k, struct ftv_err *err)
{
	if (!sim_map(k->as, "kern.task", KERN_TASK_BASE, KERN_TASK_SIZE,
		     SIM_R | SIM_W, SIM_REGION_DATA, err) ||
	    !sim_map(k->as, "kern.stack", SIM_STACK_BASE, KERN_STACK_SIZE,
		     SIM_R | SIM_W, SIM_REGION_STACK, err) ||
	    !sim_map(k->as, "kern.scratch", KERN_SCRATCH_BASE, KERN_SCRATCH_SIZE,
		     SIM_R | SIM_W, SIM_REGION_DATA, err))
		return -1;
	k->scratch = KERN_SCRATCH_BASE;
	k->task = KERN_TASK_BASE;
	/* thread_info.preempt_count = PREEMPT_ENABLED: count 0 and the
	 * inverted need_resched bit set, i.e. none pending
	 * (arch/arm64/include/asm/preempt.h: PREEMPT_NEED_RESCHED is bit 32,
	 * all-zero means "preemptible and a reschedule is due"); no TIF
	 * flag; cpu 0 */
	return sim_write64(k->as, k->task + k->lay.tsk_canary, KERN_CANARY) ||
	       sim_write64(k->as, k->task + k->lay.tsk_preempt, 1ull << 32) ?
	       ftv_errf(err, "fake task: unwritable") : 0;
}

/* The ops' func of the two ops the core defines (kernel/trace/ftrace.c):
 * ftrace_nop_ops.func = ftrace_stub, ftrace_list_ops.func =
 * ftrace_ops_list_func (a stub unless the core is loaded). */
static void ops_funcs(struct kern *k)
{
	uint64_t nop = kern_sym(k, "ftrace_nop_ops"), list = kern_sym(k, "ftrace_list_ops");

	if (nop)
		sim_write64(k->as, nop + k->lay.ops_func, kern_sym(k, "ftrace_stub"));
	if (list)
		sim_write64(k->as, list + k->lay.ops_func, kern_sym(k, "ftrace_ops_list_func"));
}

struct kern *kern_open(const char *dir, char *const *extra, size_t nextra,
		       struct ftv_err *err)
{
	return kern_open_modules(dir, extra, nextra, 0, 0, err);
}

struct kern *kern_open_modules(const char *dir, char *const *extra, size_t nextra,
			       size_t nmods, int far, struct ftv_err *err)
{
	struct kern *k = calloc(1, sizeof(*k));
	struct sim_load_opts o = { .stub_undefined = 1, .no_modules = !nmods,
				   .far_modules = far };
	char path[4096];

	if (!k || !(k->dir = strdup(dir)) || !(k->as = sim_aspace_new())) {
		ftv_errf(err, "out of memory");
		goto fail;
	}
	o.bind = kdata_bind;
	o.bind_ctx = k;
	k->kimage_voffset = kdata_value("kimage_voffset");
	if (!(k->img = sim_image_new(k->as, &o))) {
		ftv_errf(err, "out of memory");
		goto fail;
	}
	for (size_t i = 0; kern_objects[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, kern_objects[i]);
		if (add(k, path, 0, err))
			goto fail;
	}
	/* (read after the objects, whose absence is the likelier mistake;
	 * before the link, whose kdata_bind sizes ops from it) */
	snprintf(path, sizeof(path), "%s/ftv-layout.txt", dir);
	if (kern_layout_read(&k->lay, path, err))
		goto fail;
	for (size_t i = 0; i < nextra; i++)
		if (add(k, extra[i], i + nmods >= nextra, err))
			goto fail;
	if (sim_image_link(k->img, err) || read_bugs(k, err) || fake_task(k, err))
		goto fail;
	text_range(k);
	ops_funcs(k);
	if (!(k->run = krun_new(k, err)))
		goto fail;
	return k;
fail:
	kern_close(k);
	return NULL;
}

void kern_close(struct kern *k)
{
	if (!k)
		return;
	kline_free(k->lines);
	krun_free(k->run);
	sim_image_free(k->img);
	sim_aspace_free(k->as);
	kev_free(&k->log);
	kern_layout_free(&k->lay);
	for (size_t i = 0; i < k->nbugs; i++)
		free(k->bugs[i].where);
	free(k->bugs);
	free(k->dir);
	free(k);
}

int kern_call(struct kern *k, uint64_t fn, const uint64_t *args, int nargs,
	      uint64_t *ret, struct ftv_err *err)
{
	return krun_call(k->run, fn, args, nargs, ret, err);
}
