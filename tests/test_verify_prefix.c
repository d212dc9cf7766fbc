/* The prefix restore (executor/exec_save.h, exec_verify_prefix.c): a walk
 * whose runs start from the states saved at their branch points is the
 * walk whose runs replay their prefix from the reset, on proof worlds of
 * 2 and 3 CPUs, a trampoline world, a mutant's world with a
 * counterexample and a riscv64 world (which cannot save: riscv64's pair
 * check, so it replays as before), stateless and stateful: the same
 * executions, steps, cut and blocked runs, states kept, every
 * execution's trace hash and the world's run state after it
 * (verify_result.runs_hash), the verdict, the shortest counterexample and
 * its report and replayed trace. And FTV_VERIFY_PREFIX_CHECK's check:
 * every restored state, replayed to its branch point, has the fingerprint
 * of the replay from the reset (every byte a save describes, all of
 * memory, the world's run state) on the same worlds, the world's run
 * state scribbled before each restore. */
#include "tests/suite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/scenario.h"
#include "verify/verify.h"

struct pworld {
	const char *path;
	uint64_t max_executions; /* 0: the file's */
	int saves;               /* the executor's state can be saved */
	int violated;            /* the walk finds a counterexample */
};

static const struct pworld pworlds[] = {
	{ "corpus/scenarios/verify-callops-make-call.scn", 0, 1, 0 },
	{ "corpus/scenarios/verify-mutant-no-publish-barrier.scn", 0, 1, 1 },
	{ "corpus/scenarios/verify-tramp.scn", 0, 1, 0 },
	{ "corpus/scenarios/verify-riscv-atomic.scn", 0, 0, 0 },
	{ "corpus/scenarios/verify-callops-make-call-3cpus.scn", 2000, 1, 0 },
	{ "corpus/verify/verify-callops-modify-twice-3cpus.scn", 1500, 1, 0 },
	{ "corpus/verify/verify-tramp-call-nop-3cpus.scn", 1000, 1, 0 },
};

struct pwalk {
	struct verify_result vr;
	struct scn_result res;
	char *report;
	size_t nreport;
};

static void pwalk(const struct pworld *w, int stateful, int restore, int check,
		  unsigned char scribble, struct pwalk *out)
{
	char path[4096], corpus[4096], tramp[4096];
	struct scenario *s = malloc(sizeof(*s));
	struct verify_config vc;
	struct ftv_err err;
	FILE *f;

	ck_assert(s);
	ftv_test_path(path, sizeof(path), "FTV_TOP", w->path);
	ftv_test_path(corpus, sizeof(corpus), "FTV_BUILD", "corpus");
	ftv_test_path(tramp, sizeof(tramp), "FTV_BUILD", "trampolines");
	ck_assert_msg(!scenario_load(path, s, &err), "%s", err.msg);
	scenario_verify_config(s, &vc);
	if (w->max_executions)
		vc.max_executions = w->max_executions;
	vc.stateful = stateful;
	vc.prefix_restore = restore;
	vc.prefix_check = check;
	vc.scribble = scribble;
	vc.hash_runs = 1;
	out->report = NULL;
	out->nreport = 0;
	f = open_memstream(&out->report, &out->nreport);
	ck_assert(f);
	ck_assert_msg(!scenario_verify(s, corpus, tramp, &vc, f, &out->vr, NULL, &out->res,
				       &err), "%s: %s", w->path, err.msg);
	fclose(f);
	free(s);
}

static void same_pwalk(const char *name, struct pwalk *a, struct pwalk *b)
{
	const struct exec_verify_stats *x = &a->vr.x, *y = &b->vr.x;

	/* the walk explored something: a proof of nothing proves nothing */
	ck_assert_uint_gt(x->executions, 1);
	ck_assert_uint_gt(x->steps, 0);
	ck_assert_msg(x->executions == y->executions, "%s: %llu executions, %llu", name,
		      (unsigned long long)x->executions, (unsigned long long)y->executions);
	ck_assert_uint_eq(x->steps, y->steps);
	ck_assert_uint_eq(x->split.steps, y->split.steps);
	ck_assert_uint_eq(x->pruned, y->pruned);
	ck_assert_uint_eq(x->blocked, y->blocked);
	ck_assert_uint_eq(x->truncated, y->truncated);
	ck_assert_uint_eq(x->state_cuts, y->state_cuts);
	ck_assert_uint_eq(x->states, y->states);
	ck_assert_uint_eq(x->restarts, y->restarts);
	ck_assert_uint_eq(x->diverged, 0);
	ck_assert_uint_eq(y->diverged, 0);
	ck_assert_int_eq(x->complete, y->complete);
	ck_assert_msg(a->vr.runs_hash == b->vr.runs_hash, "%s: an execution differs", name);
	ck_assert_int_eq(a->vr.violated, b->vr.violated);
	ck_assert_str_eq(a->vr.kinds, b->vr.kinds);
	ck_assert_uint_eq(a->vr.cx_steps, b->vr.cx_steps);
	ck_assert_uint_eq(a->vr.cx_found, b->vr.cx_found);
	ck_assert_uint_eq(a->vr.ncx, b->vr.ncx);
	if (a->vr.ncx)
		ck_assert(!memcmp(a->vr.cx, b->vr.cx, a->vr.ncx * sizeof(*a->vr.cx)));
	ck_assert_int_eq(a->res.verdict_ok, b->res.verdict_ok);
	ck_assert_msg(a->res.trace_hash == b->res.trace_hash, "%s: the counterexample's "
		      "trace differs", name);
	ck_assert_msg(a->nreport == b->nreport && !memcmp(a->report, b->report, a->nreport),
		      "%s: the reports differ:\n%s\n--\n%s", name, a->report, b->report);
}

static void pwalk_free(struct pwalk *a)
{
	verify_result_free(&a->vr);
	free(a->report);
}

START_TEST(verify_prefix_restore_is_the_replayed_walk)
{
	const struct pworld *w = &pworlds[_i / 2];
	int stateful = _i % 2;
	struct pwalk a, b;

	pwalk(w, stateful, 0, 0, 0, &a);
	pwalk(w, stateful, 1, 0, 0, &b);
	same_pwalk(w->path, &a, &b);
	ck_assert_int_eq(a.vr.violated, w->violated);
	if (w->violated)
		ck_assert(a.vr.ncx > 0 && a.nreport > 0);
	/* the restores were made (or, riscv64, could not be) */
	ck_assert_uint_eq(a.vr.x.split.restores, 0);
	if (w->saves)
		ck_assert_msg(b.vr.x.split.restores > 0 && b.vr.x.split.skipped > 0,
			      "%s: no run started from a saved state", w->path);
	else
		ck_assert_uint_eq(b.vr.x.split.restores, 0);
	pwalk_free(&a);
	pwalk_free(&b);
}
END_TEST

/* The check (prefix_check) passes on every world: scenario_verify fails
 * with its error otherwise; with the world's run state scribbled before
 * every restore, a field the world's save missed would show too. */
START_TEST(verify_prefix_restore_states_are_the_replays)
{
	const struct pworld *w = &pworlds[_i];
	struct pwalk a, b;

	pwalk(w, 1, 0, 0, 0, &a);
	pwalk(w, 1, 1, 1, 0x5a, &b);
	same_pwalk(w->path, &a, &b);
	/* states were restored and checked (none on riscv64) */
	ck_assert(w->saves ? b.vr.x.split.restores > 0 : b.vr.x.split.restores == 0);
	ck_assert_uint_eq(b.vr.x.split.skipped, 0);
	pwalk_free(&a);
	pwalk_free(&b);
}
END_TEST

static Suite *verify_prefix_suite(void)
{
	Suite *s = suite_create("verify_prefix");
	TCase *tc = tcase_create("core");
	int n = (int)(sizeof(pworlds) / sizeof(pworlds[0]));

	tcase_set_timeout(tc, 600);
	tcase_add_loop_test(tc, verify_prefix_restore_is_the_replayed_walk, 0, 2 * n);
	tcase_add_loop_test(tc, verify_prefix_restore_states_are_the_replays, 0, n);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(verify_prefix, verify_prefix_suite)
