/* The run state (verify/world_run.h) is restored as a whole: exhaustive
 * verification of the proof worlds gives the same walk (executions,
 * steps, verdict, and the hash of every execution's trace, steps and
 * violations) when every byte of the run state is scribbled over before
 * each restore. A field the restore missed would carry the scribble
 * into the next execution. And the copy itself: a scribbled copy put
 * back is byte for byte the original. */
#include "tests/suite.h"

#include <stdlib.h>
#include <string.h>

#include "verify/scenario.h"
#include "verify/world.h"
#include "verify/world_run.h"

/* Proof worlds of each kind: verified, violated, a late module loaded
 * while the CPUs run (its state moves during the run), riscv64, three
 * CPUs, the settled prefix. */
static const char *const proofs[] = {
	"verify-callops-disable",
	"verify-callops-modify",
	"verify-mcount",
	"verify-riscv-window",
	"verify-riscv-atomic",
	"verify-mutant-no-publish-barrier",
	"verify-mutant-free-without-quiescence",
	"verify-tramp",
};

struct walk {
	struct verify_result vr;
	struct scn_result res;
};

static void walk_reset(const char *name, unsigned char scribble, int exact_reset,
		       struct walk *out)
{
	char path[4096], corpus[4096], tramp[4096], rel[256];
	struct scenario *s = malloc(sizeof(*s));
	struct verify_config vc;
	struct ftv_err err;

	ck_assert(s);
	snprintf(rel, sizeof(rel), "corpus/scenarios/%s.scn", name);
	ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
	ftv_test_path(corpus, sizeof(corpus), "FTV_BUILD", "corpus");
	ftv_test_path(tramp, sizeof(tramp), "FTV_BUILD", "trampolines");
	ck_assert_msg(!scenario_load(path, s, &err), "%s", err.msg);
	scenario_verify_config(s, &vc);
	vc.scribble = scribble;
	vc.exact_reset = exact_reset;
	vc.hash_runs = 1;
	ck_assert_msg(!scenario_verify(s, corpus, tramp, &vc, NULL, &out->vr, NULL, &out->res,
				       &err), "%s: %s", name, err.msg);
	free(s);
}

static void walk(const char *name, unsigned char scribble, struct walk *out)
{
	walk_reset(name, scribble, 0, out);
}

/* a and b: the same walk (executions, steps, every execution's trace
 * hash and the run state it left, the verdict and counterexample). */
static void same_walk(const char *name, struct walk *a, struct walk *b)
{
	/* the walk explored something: a proof of nothing proves nothing */
	ck_assert_uint_gt(a->vr.x.executions, 1);
	ck_assert_uint_gt(a->vr.x.steps, 0);
	ck_assert_msg(a->res.verdict_ok, "%s: not the verdict its file expects", name);
	ck_assert_msg(a->vr.x.executions == b->vr.x.executions, "%s: %llu executions, %llu",
		      name, (unsigned long long)a->vr.x.executions,
		      (unsigned long long)b->vr.x.executions);
	ck_assert_msg(a->vr.x.steps == b->vr.x.steps, "%s: steps differ", name);
	ck_assert_uint_eq(a->vr.x.pruned, b->vr.x.pruned);
	ck_assert_uint_eq(a->vr.x.blocked, b->vr.x.blocked);
	ck_assert_msg(a->vr.runs_hash == b->vr.runs_hash, "%s: an execution differs", name);
	ck_assert_int_eq(a->vr.violated, b->vr.violated);
	ck_assert_int_eq(a->vr.x.complete, b->vr.x.complete);
	ck_assert_str_eq(a->vr.kinds, b->vr.kinds);
	ck_assert_uint_eq(a->vr.cx_steps, b->vr.cx_steps);
	ck_assert_uint_eq(a->vr.ncx, b->vr.ncx);
	if (a->vr.ncx)
		ck_assert(!memcmp(a->vr.cx, b->vr.cx, a->vr.ncx * sizeof(*a->vr.cx)));
	ck_assert_int_eq(a->res.verdict_ok, b->res.verdict_ok);
	verify_result_free(&a->vr);
	verify_result_free(&b->vr);
}

/* The resets leave the watched words of the CPUs' copies as the run
 * left them (exec_verify_config.exact_reset 0, xe_lazy_words): the same
 * walk as resets that put every word back, on 2 and 3 CPUs, riscv64,
 * mutants' worlds and a kernel world. */
static const char *const lazy_worlds[] = {
	"verify-callops-make-call",
	"verify-callops-make-call-3cpus",
	"verify-riscv-atomic",
	"verify-riscv-patch-text",
	"verify-mutant-skip-literal-on-modify",
	"verify-mutant-no-publish-barrier",
	"verify-tramp",
	"verify-kernel-make-call",
};

START_TEST(verify_walk_unchanged_when_resets_leave_the_watched_words)
{
	const char *name = lazy_worlds[_i];
	const char *k = getenv("FTV_KERNEL_BUILD");
	static char kdir[4096];
	struct walk a, b;

	/* make kernel's build is under the top build/ (make test's
	 * FTV_KERNEL_BUILD), also for build/san */
	if (k && *k) {
		snprintf(kdir, sizeof(kdir), "%s/kernel/6.12", k);
		world_kernel_dir_set(kdir);
	}
	walk_reset(name, 0, 1, &a);
	walk_reset(name, 0, 0, &b);
	same_walk(name, &a, &b);
}
END_TEST

START_TEST(verify_walk_unchanged_when_the_run_state_is_scribbled_before_each_restore)
{
	const char *name = proofs[_i];
	struct walk a, b;

	walk(name, 0, &a);
	walk(name, 0xa5, &b);
	same_walk(name, &a, &b);
}
END_TEST

/* a and b equal in every byte (padding too) but their arrays' pointers
 * and capacities. */
static int same_but_memory(const struct world_run *a, const struct world_run *b)
{
	struct world_run *x = malloc(sizeof(*x)), *y = malloc(sizeof(*y));
	int same;

	ck_assert(x && y);
	memcpy(x, a, sizeof(*x));
	memcpy(y, b, sizeof(*y));
#define FORGET(T, name) x->name = y->name = NULL; x->cap##name = y->cap##name = 0;
	WORLD_RUN_ARRAYS(FORGET)
#undef FORGET
	same = !memcmp(x, y, sizeof(*x));
	free(x);
	free(y);
	return same;
}

START_TEST(run_state_copy_restores_every_byte_of_a_scribbled_state)
{
	struct world_run *orig = calloc(1, sizeof(*orig));
	struct world_run *saved = calloc(1, sizeof(*saved));
	struct world_run *live = calloc(1, sizeof(*live));

	ck_assert(orig && saved && live);
	/* a state with something in every array */
	memset(orig, 0x3c, sizeof(*orig));
#define FILL(T, name)                                                          \
	orig->name = NULL;                                                     \
	orig->cap##name = 0;                                                   \
	ck_assert(!WORLD_RUN_RESERVE(orig, name, 3));                          \
	orig->n##name = 3;                                                     \
	memset(orig->name, 0x17, 3 * sizeof(T));
	WORLD_RUN_ARRAYS(FILL)
#undef FILL
	ck_assert(!world_run_copy(saved, orig));
	ck_assert(!world_run_copy(live, orig));
	world_run_scribble(live, 0xa5);
	/* the counts went too */
	ck_assert_uint_ne(live->nplan, 3);
	ck_assert(!world_run_copy(live, saved));
#define SAME(T, name)                                                          \
	ck_assert_uint_eq(live->n##name, orig->n##name);                       \
	ck_assert(live->name != orig->name);                                   \
	ck_assert(!memcmp(live->name, orig->name, 3 * sizeof(T)));
	WORLD_RUN_ARRAYS(SAME)
#undef SAME
	/* the rest: every byte but the arrays' own memory */
	ck_assert(same_but_memory(live, orig));
	world_run_free(orig);
	world_run_free(saved);
	world_run_free(live);
	free(orig);
	free(saved);
	free(live);
}
END_TEST

static Suite *world_run_suite(void)
{
	Suite *s = suite_create("world_run");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, run_state_copy_restores_every_byte_of_a_scribbled_state);
	tcase_add_loop_test(tc, verify_walk_unchanged_when_the_run_state_is_scribbled_before_each_restore,
			    0, (int)(sizeof(proofs) / sizeof(proofs[0])));
	tcase_add_loop_test(tc, verify_walk_unchanged_when_resets_leave_the_watched_words,
			    0, (int)(sizeof(lazy_worlds) / sizeof(lazy_worlds[0])));
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(world_run, world_run_suite)
