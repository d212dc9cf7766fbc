/* BPF trampolines in a world (patcher/bpf_tramp.h, docs/bpf-trampoline.md):
 * the images of corpus object bpf (ftv_bpf_image0..3, handed out as
 * bpf_tramp_image_alloc() would and never again once freed), the
 * voluntary context switch of its traced function (ftv_schedule), and
 * __bpf_tramp_enter/exit, where each CPU changes its share of an image's
 * percpu_ref. */
#include "verify/world_int.h"

#include <stdio.h>
#include <string.h>

#include "patcher/bpf_tramp.h"

int world_bpf_orig_return(const struct world *w, uint64_t addr)
{
	for (size_t i = 0; i < w->nbpf_used; i++)
		if (w->bpf_ret[i] == addr)
			return 1;
	return 0;
}

static int image_of(struct world *w, const char *sym, struct bpf_tramp_image *im,
		    struct ftv_err *err)
{
	static const char *const part[] = { "_after_call", "_epilogue", "_end", "_pcref" };
	uint64_t v[4];
	char name[96];

	im->image = sim_image_lookup(w->img, sym);
	if (!im->image)
		return ftv_errf(err, "bpf-update: unknown trampoline image '%s' (corpus object "
				"bpf has ftv_bpf_image0 to ftv_bpf_image3)", sym);
	for (size_t i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "%s%s", sym, part[i]);
		v[i] = sim_image_lookup(w->img, name);
		if (!v[i])
			return ftv_errf(err, "bpf-update: %s is no BPF trampoline image (no %s)",
					sym, name);
	}
	*im = (struct bpf_tramp_image){ im->image, v[2] - im->image, v[0], v[1], v[3] };
	return 0;
}

unsigned world_bpf_images(const struct world *w)
{
	char name[32];
	unsigned n = 0;

	for (;; n++) {
		snprintf(name, sizeof(name), "ftv_bpf_image%u", n);
		if (!sim_image_lookup(w->img, name))
			return n;
	}
}

int world_bpf_image_at(const struct world *w, uint64_t addr)
{
	for (size_t i = 0; i < w->nbpf_used; i++)
		if (w->bpf_used[i] == addr)
			return 1;
	return 0;
}

int world_bpf_update(struct world *w, struct ftrace_ops *ops, const char *image,
		     struct ftv_err *err)
{
	struct wops *o = world_wops_of(w, ops);
	struct bpf_tramp_image cur, next;
	int has_next = strcmp(image, "-") != 0, ret;

	if (!o->direct)
		return ftv_errf(err, "bpf-update: ops %s is no direct ops (ops %s direct)",
				o->name, o->name);
	if (has_next && image_of(w, image, &next, err))
		return -1;
	if (has_next && world_bpf_image_at(w, next.image))
		return ftv_errf(err, "bpf-update: image %s was attached before (an image is "
				"allocated once)", image);
	if (!o->bpf_image[0] && !has_next)
		return ftv_errf(err, "bpf-update %s -: no image attached", o->name);
	if (o->bpf_image[0] && image_of(w, o->bpf_image, &cur, err))
		return -1;
	if (has_next && w->nbpf_used >= WORLD_BPF_IMAGES)
		return ftv_errf(err, "bpf-update: more than %d images", WORLD_BPF_IMAGES);
	ret = bpf_trampoline_update(w->core, ops, o->bpf_image[0] ? &cur : NULL,
				    has_next ? &next : NULL, w->cfg.exec.ncpus, &w->scratch, err);
	if (world_after_op(w, o, ret, "bpf_trampoline_update", err))
		return -1;
	if (has_next) {
		w->bpf_ret[w->nbpf_used] = next.ip_after_call - 4;
		w->bpf_used[w->nbpf_used++] = next.image;
	}
	snprintf(o->bpf_image, sizeof(o->bpf_image), "%s", has_next ? image : "");
	return 0;
}

int world_bpf_start(struct world *w, struct ftv_exec *ex, unsigned cpu, struct ftv_err *err)
{
	uint64_t sched = sim_image_lookup(w->img, "ftv_schedule");
	uint64_t enter = sim_image_lookup(w->img, "ftv_bpf_tramp_enter");
	uint64_t leave = sim_image_lookup(w->img, "ftv_bpf_tramp_exit");

	if (sched && exec_cpu_sleep_point(ex, cpu, sched, err))
		return -1;
	if (enter && leave && cpu == 0 &&
	    (exec_progress_point(ex, enter, err) || exec_progress_point(ex, leave, err)))
		return -1;
	return 0;
}

/* A fault inside a BPF image a plan freed: the CPU returned into it from
 * the function the image called (the fexit case, e21d2b92354b). Said in
 * the kernel's terms as a use-after-free; 1 if so. */
int world_bpf_explain_fault(struct world *w, const struct exec_violation *v)
{
	unsigned c = (unsigned)v->cpu;
	uint64_t pc = v->addr, sp = exec_cpu_reg(w->ex, c, w->ad->reg_sp), body = 0;
	char b1[160], b2[160];

	for (size_t i = 0; i < w->nplans; i++) {
		const struct plan *p = &w->plans[i].plan;

		for (size_t k = 0; k < p->n; k++) {
			const struct plan_step *s = &p->steps[k];

			if (s->op != PLAN_FREE || pc < s->addr || pc >= s->addr + s->len ||
			    !w->run.plan[i].done)
				continue;
			/* the image's frame: retaddr_off (sp + 72) holds the
			 * traced function's body the image called */
			sim_read64(w->as, sp + 72, &body);
			world_add_violation(w, "use-after-free", (int)c, v->step,
					    "cpu%u returned from %s into %s, a BPF trampoline image "
					    "freed by plan %zu step %zu \"%s\" (%s): the task had called "
					    "the original function from the fexit image and slept in it "
					    "(a voluntary context switch, a quiescent state for RCU "
					    "Tasks), so synchronize_rcu_tasks() did not wait for it; "
					    "e21d2b92354b holds the image with a percpu_ref taken by "
					    "__bpf_tramp_enter()",
					    c, sim_symbolize(w->as, body, b1, sizeof(b1), 0),
					    sim_symbolize(w->as, pc, b2, sizeof(b2), 1), i, k,
					    s->what ? s->what : "free", w->plans[i].what);
			return 1;
		}
	}
	return 0;
}
