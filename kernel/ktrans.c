/* ftv kernel-diff's transitions and report (kernel/kdiff.h). */
#include "kernel/kdiff.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/kern.h"
#include "patcher/arm64.h"
#include "util/err.h"

enum ktarget { T_NONE, T_CALLER, T_NEAR, T_FAR };
enum kverb { V_INIT, V_CALL, V_NOP, V_MODIFY };

/* What the core asks of the backend, in the order a site lives through
 * them (kernel/trace/ftrace.c __ftrace_replace_code and
 * ftrace_init_nop at boot): call_ops_en sets FTRACE_FL_CALL_OPS_EN in the
 * record, so that the backend asks ftrace_find_unique_ops for the ops
 * (ops 1: a tracer's, ops 2: a direct ops); without it the literal is
 * ftrace_list_ops (arm64_rec_get_ops). T_NEAR is a direct trampoline in
 * BL range (entry-ftrace.S ftrace_stub_direct_tramp), T_FAR one out of it
 * (ftrace_find_callable_addr: the call goes to ftrace_caller, which
 * reaches it through ops->direct_call). */
static const struct ktrans {
	const char *name, *kfn;
	enum kverb verb;
	int call_ops_en, ops;
	enum ktarget old, new;
} trans[] = {
	{ "init_nop", "ftrace_init_nop", V_INIT, 0, 0, T_NONE, T_NONE },
	{ "make_call", "ftrace_make_call", V_CALL, 0, 0, T_NONE, T_CALLER },
	{ "modify_call", "ftrace_modify_call", V_MODIFY, 1, 1, T_CALLER, T_CALLER },
	{ "direct_in_range", "ftrace_modify_call", V_MODIFY, 1, 2, T_CALLER, T_NEAR },
	{ "direct_out_of_range", "ftrace_modify_call", V_MODIFY, 1, 2, T_NEAR, T_FAR },
	{ "make_nop", "ftrace_make_nop", V_NOP, 1, 2, T_FAR, T_NONE },
	{ "make_call_direct_far", "ftrace_make_call", V_CALL, 1, 2, T_NONE, T_FAR },
	{ "make_nop", "ftrace_make_nop", V_NOP, 1, 2, T_FAR, T_NONE },
};
#define NTRANS (sizeof(trans) / sizeof(trans[0]))

/* one output line per kind */
struct kline {
	const char *name;
	size_t sites, failed;
	unsigned understood;
	char first[1600];
};

struct kdrun {
	struct kern *k;
	struct arm64_ftrace model;
	uint64_t rec, ops[3], target[4];
	struct kev_log mlog;
	struct kline lines[NTRANS + 2];
	size_t nlines;
	FILE *verbose; /* both sequences of each kind's first site */
};

static struct kline *line(struct kdrun *d, const char *name)
{
	for (size_t i = 0; i < d->nlines; i++)
		if (!strcmp(d->lines[i].name, name))
			return &d->lines[i];
	d->lines[d->nlines].name = name;
	return &d->lines[d->nlines++];
}

/* Compares what the kernel logged with the model's plan p, into the
 * kind's line (the first difference only). */
static int judge(struct kdrun *d, struct kline *l, const char *where,
		 const struct plan *p, const char *failed)
{
	struct kdiff_result r;
	char kb[600], mb[600];

	kev_clear(&d->mlog);
	if (kdiff_from_plan(p, &d->mlog))
		return -1;
	l->sites++;
	if (failed) {
		r.verdict = KDIFF_DIFFERENT;
		snprintf(r.first, sizeof(r.first), "the kernel's run stopped: %s", failed);
	} else {
		kdiff_compare(&d->k->log, &d->mlog, &r);
	}
	l->understood |= r.understood;
	if (d->verbose && l->sites == 1)
		fprintf(d->verbose, "%s at %s\n    kernel: %s\n    model:  %s\n", l->name,
			where, kdiff_format(&d->k->log, kb, sizeof(kb)),
			kdiff_format(&d->mlog, mb, sizeof(mb)));
	if (r.verdict != KDIFF_DIFFERENT)
		return 0;
	if (!l->failed++)
		snprintf(l->first, sizeof(l->first), "at %s: %s\n    kernel: %s\n    model:  %s",
			 where, r.first, kdiff_format(&d->k->log, kb, sizeof(kb)),
			 kdiff_format(&d->mlog, mb, sizeof(mb)));
	return 0;
}

static int kernel_run(struct kdrun *d, const char *fn, const uint64_t *args,
		      int nargs, char *failed, size_t nf)
{
	struct ftv_err err = { "" };
	uint64_t a = kern_sym(d->k, fn), ret = 0;

	kev_clear(&d->k->log);
	failed[0] = 0;
	if (!a || sim_image_stub_name(d->k->img, a)) {
		snprintf(failed, nf, "%s is not in the kernel objects", fn);
		return 1;
	}
	if (kern_call(d->k, a, args, nargs, &ret, &err)) {
		snprintf(failed, nf, "%s", err.msg);
		return 1;
	}
	if (ret) {
		/* the backend refused: what the model would have to say */
		char msg[80];

		snprintf(msg, sizeof(msg), "%s returned %lld", fn, (long long)ret);
		kern_event(d->k, KEV_FAULT, 0, 0, 0, msg);
	}
	return 0;
}

static int one(struct kdrun *d, const struct ktrans *t,
	       const struct ftrace_site *fs, const char *where)
{
	struct kern *k = d->k;
	const struct ftrace_arch *m = &arm64_ftrace_callops;
	uint64_t lit = t->verb == V_INIT || t->verb == V_NOP ? d->ops[0] :
		       t->call_ops_en ? d->ops[t->ops] : kern_sym(k, "ftrace_list_ops");
	uint64_t args[4] = { 0 }, old = d->target[t->old], new = d->target[t->new];
	uint64_t flags = t->call_ops_en ? k->lay.fl_call_ops_en : 0;
	struct ftv_err e = { "" };
	struct plan p;
	char failed[400];
	int n = 0, rc, mrc = 0;

	sim_write64(k->as, d->rec + k->lay.dyn_ftrace_flags, flags);
	k->unique_ops = t->call_ops_en ? d->ops[t->ops] : 0;
	switch (t->verb) {
	case V_INIT: args[0] = 0; args[1] = d->rec; n = 2; break;
	case V_CALL: args[0] = d->rec; args[1] = new; n = 2; break;
	case V_NOP: args[0] = 0; args[1] = d->rec; args[2] = old; n = 3; break;
	case V_MODIFY: args[0] = d->rec; args[1] = old; args[2] = new; n = 3; break;
	}
	rc = kernel_run(d, t->kfn, args, n, failed, sizeof(failed));
	plan_init(&p);
	switch (t->verb) {
	case V_INIT: mrc = m->init_nop(&d->model, fs, lit, &p, &e); break;
	case V_CALL: mrc = m->make_call(&d->model, fs, new, lit, &p, &e); break;
	case V_NOP: mrc = m->make_nop(&d->model, fs, old, lit, &p, &e); break;
	case V_MODIFY: mrc = m->modify_call(&d->model, fs, old, new, lit, &p, &e); break;
	}
	if (mrc) {
		plan_reset(&p);
		snprintf(failed + strlen(failed), sizeof(failed) - strlen(failed),
			 "%smodel: %s", rc ? "; " : "", e.msg);
		rc = 1;
	}
	rc = judge(d, line(d, t->name), where, &p, rc ? failed : NULL);
	plan_free(&p);
	return rc;
}

/* The verbs that are not per site: ftrace_update_ftrace_func (a no-op
 * with CALL_OPS: arch/arm64/kernel/ftrace.c) and the graph caller
 * (absent with DYNAMIC_FTRACE_WITH_ARGS: the graph tracer is an ops
 * calling ftrace_graph_func). The kernel's run is compared with the
 * model's plan (none when the model has no such verb). */
static int global(struct kdrun *d)
{
	const struct ftrace_arch *m = &arm64_ftrace_callops;
	struct ftv_err e = { "" };
	char failed[400];
	struct plan p;
	uint64_t arg = kern_sym(d->k, "ftrace_stub");
	int rc;

	plan_init(&p);
	rc = kernel_run(d, "ftrace_update_ftrace_func", &arg, 1, failed, sizeof(failed));
	if (m->update_ftrace_func && m->update_ftrace_func(&d->model, arg, &p, &e))
		return -1;
	if (judge(d, line(d, "update_ftrace_func"), "ftrace_call", &p, rc ? failed : NULL))
		return -1;
	for (int en = 1; en >= 0; en--) {
		const char *fn = en ? "ftrace_enable_ftrace_graph_caller" :
				      "ftrace_disable_ftrace_graph_caller";
		uint64_t a = kern_sym(d->k, fn);
		int has = a && !sim_image_stub_name(d->k->img, a);

		plan_reset(&p);
		if (m->modify_graph_caller && m->modify_graph_caller(&d->model, en, &p, &e))
			return -1;
		kev_clear(&d->k->log);
		rc = has ? kernel_run(d, fn, NULL, 0, failed, sizeof(failed)) : 0;
		if (judge(d, line(d, "graph_caller"), fn, &p, rc ? failed : NULL))
			return -1;
	}
	plan_free(&p);
	return 0;
}

static void report(struct kdrun *d, FILE *out, int *bad)
{
	unsigned all = 0;

	for (size_t i = 0; i < d->nlines; i++) {
		const struct kline *l = &d->lines[i];

		if (l->failed) {
			*bad = 1;
			fprintf(out, "%-22s DIFFERENT (%zu of %zu) %s\n", l->name,
				l->failed, l->sites, l->first);
			continue;
		}
		fprintf(out, "%-22s %s (%zu)", l->name, l->understood ? "understood" : "same",
			l->sites);
		for (unsigned b = 0; b < KDIFF_NU; b++)
			if (l->understood & (1u << b))
				fprintf(out, " %s", kdiff_understood_get(b)->name);
		fputc('\n', out);
		all |= l->understood;
	}
	if (!all)
		return;
	fprintf(out, "\nunderstood differences (docs/kernel.md):\n");
	for (unsigned b = 0; b < KDIFF_NU; b++) {
		const struct kdiff_understood *u = kdiff_understood_get(b);

		if (all & (1u << b))
			fprintf(out, "  %s\n    kernel: %s\n    model: %s\n    source: %s\n    decision: %s\n",
				u->name, u->kernel, u->model, u->source, u->decision);
	}
}

/* the sites of the objects given (not the kernel's own objects, which
 * are the code doing the patching: their 45 sites are reported apart) */
static int from_extra(struct kern *k, const struct sim_site *s)
{
	size_t l = strlen(k->dir);

	return strncmp(s->object, k->dir, l) != 0;
}

int kdiff_run(const char *dir, char *const *objs, size_t nobjs, FILE *out,
	      int verbose, struct ftv_err *err)
{
	struct kdrun *d = calloc(1, sizeof(*d));
	size_t sites = 0, skipped = 0, own = 0;
	int bad = 0, rc = FTV_EXIT_USAGE;

	if (!d)
		return ftv_errf(err, "out of memory"), FTV_EXIT_USAGE;
	if (!(d->k = kern_open(dir, objs, nobjs, err)))
		goto done;
	d->verbose = verbose ? out : NULL;
	d->model.ftrace_caller = kern_sym(d->k, "ftrace_caller");
	d->rec = d->k->scratch;
	d->ops[0] = kern_sym(d->k, "ftrace_nop_ops");
	d->ops[1] = d->k->scratch + 0x1000;
	d->ops[2] = d->k->scratch + 0x2000;
	d->target[T_CALLER] = d->model.ftrace_caller;
	d->target[T_NEAR] = kern_sym(d->k, "ftrace_stub_direct_tramp");
	d->target[T_FAR] = d->k->scratch + 0x8000;
	if (!d->model.ftrace_caller || !d->ops[0] || !d->target[T_NEAR]) {
		ftv_errf(err, "%s: no ftrace_caller, ftrace_nop_ops or ftrace_stub_direct_tramp (not a CALL_OPS build?)",
			 dir);
		goto done;
	}
	if (d->k->lay.ops_direct_call != ~0ull)
		sim_write64(d->k->as, d->ops[2] + d->k->lay.ops_direct_call, d->target[T_FAR]);
	for (size_t i = 0; i < sim_image_nsites(d->k->img); i++) {
		const struct sim_site *s = sim_image_site(d->k->img, i);
		struct ftrace_site fs = { .ip = s->addr, .init_addr = s->mov_addr,
					  .func = s->func, .literal = s->literal,
					  .name = s->funcname,
					  .kind = FTV_SITE_CALL_OPS };
		char where[300];

		if (!from_extra(d->k, s)) {
			own++;
			continue;
		}
		if (s->kind != FTV_SITE_CALL_OPS ||
		    arm64_site_usable(&d->model, &fs, NULL)) {
			skipped++;
			continue;
		}
		sites++;
		snprintf(where, sizeof(where), "%s (%s)", s->funcname, s->object);
		sim_write64(d->k->as, d->rec + d->k->lay.dyn_ftrace_ip, s->addr);
		for (size_t t = 0; t < NTRANS; t++)
			if (one(d, &trans[t], &fs, where)) {
				ftv_errf(err, "out of memory");
				goto done;
			}
	}
	if (global(d)) {
		ftv_errf(err, "model: out of memory");
		goto done;
	}
	fprintf(out, "kernel-diff: %s: %zu sites of %zu objects (%zu not CALL_OPS or misaligned, left alone as the kernel does; %zu in the kernel objects themselves, not patched)\n",
		dir, sites, nobjs, skipped, own);
	report(d, out, &bad);
	rc = bad ? FTV_EXIT_VIOLATION : FTV_EXIT_OK;
done:
	kev_free(&d->mlog);
	kern_close(d->k);
	free(d);
	return rc;
}
