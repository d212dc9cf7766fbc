/* Running a scenario: its world built afresh, its operations performed
 * while the CPUs run (or all queued and every execution explored), the
 * outcome judged against its expect line; and a counterexample's replay. */
#include "verify/scenario_int.h"
#include "verify/litmus_export.h"
#include "verify/mutant.h"
#include "verify/trace_json.h"

#include <stdlib.h>
#include <string.h>

static int do_op(struct world *w, const struct scenario *s, const struct scn_op *op,
		 struct ftv_err *err)
{
	const struct ftrace_verb *v = ftrace_verb_find(op->verb);
	char *av[3];
	int ret;

	if (!v)
		ret = ftv_errf(err, "unknown operation");
	else if (ftrace_core_bug(world_core(w)) && !v->not_ftrace)
		/* ftrace_bug() killed ftrace while the CPUs ran (reported as
		 * a violation): the kernel refuses every later ftrace
		 * operation (-ENODEV), and the scenario goes on without it */
		ret = 0;
	else
		ret = ftrace_verb_run(v, scenario_target(), w, av, scenario_op_args(op, av), err);
	if (ret)
		ftv_err_prefix(err, "%s:%d: %s %s", s->path, op->line, op->verb, op->a);
	return ret;
}

/* Whether an outcome is what s expects: anything without an expect line;
 * for expect ok (or verified) the outcome ok; for expect violation a
 * violation showing every kind listed (kinds: space separated). */
static int expected(const struct scenario *s, int ok, int violated, const char *kinds)
{
	char have[300];

	if (s->expect_ok < 0)
		return 1;
	if (s->expect_ok)
		return ok;
	snprintf(have, sizeof(have), " %s ", kinds);
	for (unsigned i = 0; violated && i < s->nexpect; i++) {
		char want[32];

		snprintf(want, sizeof(want), " %s ", s->expect[i]);
		if (!strstr(have, want))
			return 0;
	}
	return violated;
}

/* The kinds found (each once) and the verdict. */
static void judge(const struct scenario *s, struct world *w, struct scn_result *res)
{
	size_t nx;
	const struct exec_violation *xv = exec_violations(world_exec(w), &nx);

	res->nviolations = world_nviolations(w);
	for (size_t i = 0; i < nx + world_nviolations(w); i++) {
		const char *k = i < nx ? exec_viol_name(xv[i].kind)
				       : world_violation(w, i - nx)->kind;
		char have[260], want[32];

		if (i < nx && !world_exec_violation_shown(&xv[i]))
			continue;
		res->nviolations += i < nx;
		snprintf(have, sizeof(have), " %s ", res->kinds);
		snprintf(want, sizeof(want), " %s ", k);
		if (strstr(have, want) ||
		    strlen(res->kinds) + strlen(k) + 2 >= sizeof(res->kinds))
			continue;
		if (res->kinds[0])
			strcat(res->kinds, " ");
		strcat(res->kinds, k);
	}
	res->violated = res->nviolations > 0;
	res->budget_out = world_budget_exhausted(w, res->budget, sizeof(res->budget));
	/* a verdict on nothing is no verdict, unless the file says it means
	 * to reach nothing (`vacuous`) */
	res->vacuous = !s->vacuous_ok && !res->violated &&
		       world_vacuous(w, res->vacuous_why, sizeof(res->vacuous_why));
	res->verdict_ok = expected(s, !res->violated && !res->budget_out && !res->vacuous,
				   res->violated, res->kinds);
}

/* Whether the modules given by path are enabled before the operations: a
 * real module's records are enabled as it loads, before its init runs
 * (kernel/module/main.c: load_module -> prepare_coming_module ->
 * ftrace_module_enable), so a user's module loaded at boot is enabled
 * unless the file says when (an enable-modules or module-load line: the
 * window between is what it tests) or it has corpus modules too (whose
 * scenarios enable them where they mean to). */
static int enable_user_modules(const struct scenario *s)
{
	int user_mod = 0;

	for (unsigned i = 0; i < s->nuser; i++)
		user_mod |= scenario_path_is_module(s->user_objects[i]);
	for (unsigned i = 0; i < WORLD_MAX_OBJECTS; i++)
		if (s->modules[i][0])
			return 0;
	for (unsigned i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].verb, "enable-modules") ||
		    !strcmp(s->ops[i].verb, "module-load"))
			return 0;
	return user_mod;
}

/* The world of s with its operations queued (explore: all of them, the
 * `run` lines taking no steps), or NULL with err set. Its configuration
 * is made afresh from s (sw, which must outlive the world). */
static struct world *build(const struct scenario *s, const char *corpus_dir,
			   const char *tramp_dir, int explore, struct scenario_world *sw,
			   struct ftv_err *err)
{
	struct world *w;

	if (scenario_world_config(s, corpus_dir, tramp_dir, explore, sw, err))
		return NULL;
	if (world_new(&sw->cfg, &w, err)) {
		ftv_err_prefix(err, "%s", s->path);
		return NULL;
	}
	if (s->settle && world_settle(w, 1, err))
		goto fail;
	/* applied at once, before any CPU runs, as at the module's load */
	if (enable_user_modules(s) &&
	    ((!s->settle && world_settle(w, 1, err)) || world_enable_modules(w, NULL, err) ||
	     (!s->settle && world_settle(w, 0, err))))
		goto fail;
	for (unsigned i = 0; i < s->nops; i++) {
		if (s->settle == i + 1 && world_settle(w, 0, err))
			goto fail;
		if (explore && !strcmp(s->ops[i].verb, "run"))
			continue;
		if (do_op(w, s, &s->ops[i], err)) {
			world_free(w);
			return NULL;
		}
	}
	if (s->settle == s->nops + 1 && world_settle(w, 0, err))
		goto fail;
	for (unsigned i = 0; explore && i < s->npreempt; i++)
		if (world_preempt(w, s->preempt[i], err)) {
			ftv_err_prefix(err, "%s", s->path);
			world_free(w);
			return NULL;
		}
	return w;
fail:
	ftv_err_prefix(err, "%s", s->path);
	world_free(w);
	return NULL;
}

/* Runs w, s's world (NULL: it could not be built, err says why), and
 * judges it. */
static int run_world(const struct scenario *s, struct world *w, FILE *out,
		     struct scn_result *res, struct ftv_err *err)
{
	struct ftv_exec *ex = w ? world_exec(w) : NULL;
	int ret;

	if (!w)
		return -1;
	if (s->explore) {
		/* one execution: the schedule (a counterexample), then the
		 * first ready agent at every step */
		size_t at;

		for (unsigned i = 0; i < s->nobserve; i++)
			if (exec_observe(ex, s->observe[i]))
				return ftv_errf(err, "out of memory");
		if (s->nsched && !s->nobserve)
			/* a replay: the walk's record of observed data */
			exec_observe_none(ex);
		/* and its numbering of the store buffer's channels: a
		 * channel is numbered when first seen over every run of the
		 * walk, the discovery's random ones included */
		if (exec_set_drain_channels(ex, s->channels, s->nchannels))
			return ftv_errf(err, "%s: too many channels", s->path);
		if (exec_snapshot(ex, err) || exec_set_schedule(ex, s->sched, s->nsched))
			return ftv_err_prefix(err, "%s", s->path);
		world_trace_states(w, 1);
		ret = world_finish(w, s->steps, err);
		world_trace_states(w, 0);
		if (ret)
			return ftv_err_prefix(err, "%s", s->path);
		if (exec_schedule_diverged(ex, &at) && out)
			fprintf(out, "note: the schedule diverged at its step %zu (the agent "
				"scheduled was not ready): this is not the execution it was "
				"written from\n", at);
	} else if (world_finish(w, s->steps, err)) {
		return ftv_err_prefix(err, "%s", s->path);
	}
	judge(s, w, res);
	if (out)
		world_report(w, out);
	if (s->cfg.trace_out)
		exec_trace_print(ex, s->cfg.trace_out);
	if (s->cfg.trace_json && trace_json_world(s->cfg.trace_json, w, s->name))
		return ftv_errf(err, "%s: out of memory writing its trace", s->path);
	world_stats(w, &res->stats);
	res->trace_hash = s->no_trace_hash ? 0 : exec_trace_hash(ex);
	return 0;
}

/* --litmus: w's violation as a litmus test; --litmus-fixed: the same
 * observer with the plans of s's operations built without the mutant
 * (queued, not run: the plans are what the corrected backend writes). A
 * violation with no memory-model outcome is a note, not an error. */
static int export_litmus(const struct scenario *s, struct world *w, const char *corpus_dir,
			 const char *tramp_dir, FILE *out, struct ftv_err *err)
{
	struct scenario *t = NULL;
	struct scenario_world *tsw = NULL;
	struct world *twin = NULL, *derived = NULL;
	/* (the file's name, not its path: the test reads the same on every
	 * machine) */
	const char *base = strrchr(s->path, '/');
	struct litmus_export_opts o = { s->cfg.litmus_out, s->cfg.litmus_fixed_out, s->name,
					base ? base + 1 : s->path };
	struct ftv_err xerr;
	int ret = -1, r;

	if (o.fixed_path) {
		t = malloc(sizeof(*t));
		tsw = malloc(sizeof(*tsw));
		if (!t || !tsw) {
			ftv_errf(err, "out of memory");
			goto out;
		}
		memcpy(t, s, sizeof(*t));
		ftv_mutant_apply(ftv_mutant_find("none"), &t->cfg);
		t->cfg.notes_out = t->cfg.plans_out = t->cfg.trace_out = NULL;
		t->cfg.trace_json = NULL;
		t->cfg.litmus_out = t->cfg.litmus_fixed_out = NULL;
		twin = build(t, corpus_dir, tramp_dir, 1, tsw, &xerr);
		/* (the misaligned-literal world: without the mutant its one
		 * site is skipped, nothing is traceable; the twin is the
		 * mutant's plans without that site) */
		if (!twin && (derived = litmus_export_skipped_twin(w)) && out)
			fprintf(out, "note: --litmus-fixed: the world without the mutant does "
				"not build (%s): the twin is the mutant's plans without the "
				"sites the corrected backend skips\n", xerr.msg);
		else if (!twin && out)
			fprintf(out, "note: --litmus-fixed: no twin: the world without the "
				"mutant does not build: %s\n", xerr.msg);
		if (derived)
			twin = derived;
	}
	r = litmus_export(w, twin, &o, &xerr);
	if (r < 0) {
		ftv_errf(err, "--litmus: %s", xerr.msg);
		goto out;
	}
	if (r > 0) {
		if (out)
			fprintf(out, "note: --litmus: no test written: %s\n", xerr.msg);
	} else if (out) {
		fprintf(out, "litmus: %s%s%s\n", o.path, twin ? ", fixed: " : "",
			twin ? o.fixed_path : "");
	}
	ret = 0;
out:
	if (derived)
		litmus_export_twin_free(derived);
	else if (twin)
		world_free(twin);
	free(tsw);
	free(t);
	return ret;
}

static int run(const struct scenario *s, const char *corpus_dir, const char *tramp_dir,
	       FILE *out, struct scn_result *res, struct ftv_err *err)
{
	struct scenario_world *sw = malloc(sizeof(*sw));
	struct world *w;
	int ret;

	if (!sw)
		return ftv_errf(err, "out of memory");
	w = build(s, corpus_dir, tramp_dir, s->explore, sw, err);
	ret = run_world(s, w, out, res, err);
	if (!ret && res->violated && s->cfg.litmus_out)
		ret = export_litmus(s, w, corpus_dir, tramp_dir, out, err);
	if (w)
		world_free(w);
	free(sw);
	return ret;
}

void scenario_verify_print(FILE *out, const struct scenario *s,
			   const struct verify_config *vc, const struct verify_result *vr)
{
	const struct exec_verify_stats *x = &vr->x;
	char bound[160];

	(void)s;
	fprintf(out, "scheduling points: %zu watched words, %zu data locations, %zu loads "
		"of watched data (%llu restarts)\n", vr->nwords, vr->ndata, vr->npoints,
		(unsigned long long)x->restarts);
	if (vr->violated && !x->executions && !vr->ncx) {
		fprintf(out, "counterexample: 0 visible steps: the world's setup (boot, queuing "
			"the updates) violates before the walk's first step\n");
	} else if (vr->violated) {
		char sched[SCN_MAX_SCHED * 12];

		fprintf(out, "counterexample: %zu visible steps, found after %llu executions "
			"(%llu explored, %s)\n", vr->cx_steps,
			(unsigned long long)vr->cx_found, (unsigned long long)x->executions,
			x->complete ? "complete" : "incomplete");
		verify_schedule_format(vr->cx, vr->ncx, sched, sizeof(sched));
		fprintf(out, "schedule: %s\n", sched);
	} else if (x->complete) {
		fprintf(out, "verified: %llu executions, complete (bound: %llu steps per "
			"execution, none reached)\n", (unsigned long long)x->executions,
			(unsigned long long)vc->max_steps);
	} else {
		verify_bound(vr, vc, bound, sizeof(bound));
		fprintf(out, "incomplete after %llu executions (budget: %s): not "
			"verified\n", (unsigned long long)x->executions, bound);
	}
	/* (no timing: conformance outputs are pinned byte for byte) */
	if (vc->reduce && vc->stateful && vc->nshards <= 1)
		fprintf(out, "reduction: source sets + sleep sets + states; %llu branches "
			"pruned, %llu runs sleep-set blocked, %llu cut at a known state "
			"(%llu states%s), %llu steps\n",
			(unsigned long long)x->pruned, (unsigned long long)x->blocked,
			(unsigned long long)x->state_cuts, (unsigned long long)x->states,
			x->states_full ? ", the table full" : "", (unsigned long long)x->steps);
	else
		fprintf(out, "reduction: %s; %llu branches pruned, %llu runs sleep-set blocked, "
			"%llu steps\n",
			vc->reduce ? "source sets + sleep sets" : "none (every interleaving)",
			(unsigned long long)x->pruned, (unsigned long long)x->blocked,
			(unsigned long long)x->steps);
}

void scenario_verify_config(const struct scenario *s, struct verify_config *vc)
{
	memset(vc, 0, sizeof(*vc));
	vc->max_executions = s->max_executions ? s->max_executions : 1000000;
	vc->max_steps = s->steps;
	vc->reduce = 1;
	vc->nshards = 1;
}

uint64_t scenario_default_steps(const struct world_config *cfg)
{
	uint64_t calls = cfg->ncall ? cfg->ncall : cfg->calls ? cfg->calls : 16;
	uint64_t round = calls * SCN_STEPS_PER_CALL > SCN_STEPS_PER_ROUND
				 ? calls * SCN_STEPS_PER_CALL : SCN_STEPS_PER_ROUND;
	uint64_t n = (uint64_t)cfg->exec.ncpus * (cfg->rounds ? cfg->rounds : 20) * round;

	return n > 100000 ? n : 100000;
}

int scenario_run(const struct scenario *s, const char *corpus_dir,
		 const char *tramp_dir, FILE *out, struct scn_result *res,
		 struct ftv_err *err)
{
	int ret;

	memset(res, 0, sizeof(*res));
	if (s->explore && !s->nsched) {
		/* a proof: the verdict of every execution */
		struct verify_config vc;
		struct verify_result vr;

		scenario_verify_config(s, &vc);
		ret = scenario_verify(s, corpus_dir, tramp_dir, &vc, out, &vr, NULL, res, err);
		if (!ret && out)
			scenario_verify_print(out, s, &vc, &vr);
		verify_result_free(&vr);
		return ret;
	}
	return run(s, corpus_dir, tramp_dir, out, res, err);
}

/* The replay scenario of a counterexample: s, explored, with its schedule
 * and scheduling points, expecting what it shows. */
static void counterexample(const struct scenario *s, struct world *w,
			   const struct verify_result *vr, const struct scn_result *rr,
			   int full, struct scenario *cx)
{
	const struct exec_choice *sched = full ? vr->full : vr->cx;
	size_t n = full ? vr->nfull : vr->ncx;

	char kinds[256], *t, *save = NULL;

	memcpy(cx, s, sizeof(*cx));
	cx->cfg.exec.policy = EXEC_EXHAUSTIVE;
	cx->explore = 1;
	cx->expect_verified = 0;
	cx->expect_ok = 0;
	cx->nexpect = 0;
	snprintf(kinds, sizeof(kinds), "%s", rr->kinds[0] ? rr->kinds : vr->kinds);
	for (t = strtok_r(kinds, " ", &save); t && cx->nexpect < SCN_MAX_KINDS;
	     t = strtok_r(NULL, " ", &save))
		snprintf(cx->expect[cx->nexpect++], sizeof(cx->expect[0]), "%s", t);
	cx->nsched = n < SCN_MAX_SCHED ? n : SCN_MAX_SCHED;
	if (cx->nsched)
		memcpy(cx->sched, sched, cx->nsched * sizeof(cx->sched[0]));
	cx->npreempt = 0;
	for (size_t i = 0; i < vr->npoints && cx->npreempt < SCN_MAX_PREEMPT; i++)
		world_preempt_name(w, vr->points[i], cx->preempt[cx->npreempt++],
				   sizeof(cx->preempt[0]));
	cx->nobserve = (unsigned)exec_observed(world_exec(w), cx->observe, SCN_MAX_OBSERVE);
	if (cx->nobserve > SCN_MAX_OBSERVE)
		cx->nobserve = SCN_MAX_OBSERVE;
	cx->nchannels = (unsigned)exec_drain_channels(world_exec(w), cx->channels,
						     SCN_MAX_CHANNELS);
	if (cx->nchannels > SCN_MAX_CHANNELS)
		cx->nchannels = SCN_MAX_CHANNELS;
}

/* Replays the counterexample (its steps that the violation depends on,
 * else the whole execution it was found in) and prints its report to out;
 * rs becomes its replay scenario. */
static int replay_cx(const struct scenario *s, const char *corpus_dir, const char *tramp_dir,
		     struct world *w, struct verify_result *vr,
		     struct scn_result *rr, struct scenario *rs, FILE *out,
		     struct ftv_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *tmp = open_memstream(&text, &len);
	int ret;

	if (!tmp)
		return ftv_errf(err, "out of memory");
	counterexample(s, w, vr, rr, 0, rs);
	ret = run(rs, corpus_dir, tramp_dir, tmp, rr, err);
	fclose(tmp);
	if (!ret && rr->violated && !strstr(text, "note: the schedule diverged")) {
		if (out)
			fputs(text, out);
		free(text);
		counterexample(s, w, vr, rr, 0, rs);
		return 0;
	}
	free(text);
	if (ret)
		return -1;
	/* The steps it depends on did not reproduce it (the reduction
	 * missed a dependency): the whole execution does. */
	if (out)
		fprintf(out, "note: the %zu steps the violation depends on did not reproduce "
			"it; the whole execution (%zu steps) is replayed\n", vr->ncx, vr->nfull);
	counterexample(s, w, vr, rr, 1, rs);
	if (run(rs, corpus_dir, tramp_dir, out, rr, err))
		return -1;
	counterexample(s, w, vr, rr, 1, rs);
	free(vr->cx);
	vr->cx = malloc((vr->nfull ? vr->nfull : 1) * sizeof(*vr->cx));
	if (!vr->cx)
		return ftv_errf(err, "out of memory");
	if (vr->nfull)
		memcpy(vr->cx, vr->full, vr->nfull * sizeof(*vr->cx));
	vr->ncx = vr->cx_steps = vr->nfull;
	return 0;
}

int scenario_verify(const struct scenario *s, const char *corpus_dir,
		    const char *tramp_dir, const struct verify_config *vc,
		    FILE *out, struct verify_result *vr, struct scenario *cx,
		    struct scn_result *res, struct ftv_err *err)
{
	struct scenario_world *sw = malloc(sizeof(*sw));
	struct scenario *rs = NULL;
	struct scn_result rr, dummy;
	struct world *w;
	int ret = -1;

	memset(vr, 0, sizeof(*vr));
	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	memset(&rr, 0, sizeof(rr));
	if (!sw)
		return ftv_errf(err, "out of memory");
	w = build(s, corpus_dir, tramp_dir, 1, sw, err);
	if (!w)
		goto out;
	if (world_verify(w, vc, vr, err)) {
		ftv_err_prefix(err, "%s", s->path);
		goto out;
	}
	res->explored = 1;
	res->complete = vr->x.complete;
	res->executions = vr->x.executions;
	res->cx_steps = vr->cx_steps;
	res->violated = vr->violated;
	if (vr->violated) {
		/* The report of the shortest counterexample, replayed in a
		 * world of its own as its replay file would be. */
		rs = malloc(sizeof(*rs));
		if (!rs) {
			ftv_errf(err, "out of memory");
			goto out;
		}
		if (replay_cx(s, corpus_dir, tramp_dir, w, vr, &rr, rs, out, err))
			goto out;
		if (cx)
			memcpy(cx, rs, sizeof(*cx));
		snprintf(res->kinds, sizeof(res->kinds), "%s", rr.kinds[0] ? rr.kinds : vr->kinds);
		res->nviolations = rr.nviolations;
		res->stats = rr.stats;
	}
	/* expect verified (or ok, explored): a proof */
	res->verdict_ok = expected(s, !vr->violated && vr->x.complete, vr->violated, res->kinds);
	ret = 0;
out:
	if (w)
		world_free(w);
	free(rs);
	free(sw);
	return ret;
}
