/* exec_verify (executor/exec_verify.c, exec_dpor.c) on a purpose-built
 * CALL_OPS-like world small enough to walk unreduced: two CPUs each call
 * func once while make_call publishes the ops literal and the BL. The
 * reduced walk (source sets and sleep sets) must reach exactly the
 * outcomes of the unreduced one, in fewer executions, with the same
 * verdict; the shortest counterexample's schedule replays it. */
#include "tests/suite.h"
#include "executor/exec.h"

#include <stdlib.h>
#include <string.h>

#define T SIM_KERNEL_TEXT_BASE
#define W_NOP 0xd503201fu
#define W_RET 0xd65f03c0u
#define W_MOV_X9_LR 0xaa1e03e9u /* mov x9, x30 */
#define W_MOV_LR_X9 0xaa0903feu /* mov x30, x9 */
#define W_LDUR_X10 0xf85f03cau  /* ldur x10, [x30, #-16]: the ops literal */
#define OPS_A 0xffff000010000100ULL
#define OPS_B 0xffff800012345678ULL

static uint32_t bl(uint64_t pc, uint64_t to)
{
	return 0x94000000u | (uint32_t)(((to - pc) >> 2) & 0x3ffffff);
}

static uint32_t b(uint64_t pc, uint64_t to)
{
	return 0x14000000u | (uint32_t)(((to - pc) >> 2) & 0x3ffffff);
}

/* vw_build: before the literal, the patcher also stores to data no CPU
 * loads (an ops field of the core's own): no visible step. */
static int vw_unread_store;
/* vw_build: make the plan but queue nothing (the caller queues its own) */
static int vw_no_plan;
#define UNREAD (SIM_DATA_BASE + 0x800)

struct vworld {
	struct sim_aspace *as;
	struct ftv_exec *ex;
	struct plan p;
	uint64_t loop, func, tramp, lit, site;
};

/* loop: bl func; b loop.  func-8: ops literal;  func: mov x9, lr; nop
 * (the site); mov lr, x9; ret.  tramp: ldur x10, [lr, #-16]; ret. Each CPU
 * makes one call (it ends back at loop+4). */
static void vw_build(struct vworld *w, unsigned ncpus, int dmb, int two_plans, int sync)
{
	struct exec_config cfg = { .ncpus = ncpus, .policy = EXEC_EXHAUSTIVE,
				   .verify = 1 };
	struct ftv_err err;

	w->as = sim_aspace_new();
	ck_assert_ptr_nonnull(sim_map(w->as, "text", T, 0x4000, SIM_R | SIM_X,
				      SIM_REGION_TEXT, NULL));
	ck_assert_ptr_nonnull(sim_map(w->as, "stack", SIM_STACK_BASE, 0x10000,
				      SIM_R | SIM_W, SIM_REGION_STACK, NULL));
	ck_assert_ptr_nonnull(sim_map(w->as, "data", SIM_DATA_BASE, 0x1000,
				      SIM_R | SIM_W, SIM_REGION_DATA, NULL));
	w->loop = T;
	w->func = T + 0x100;
	w->tramp = T + 0x200;
	w->lit = w->func - 8;
	w->site = w->func + 4;
	sim_write32(w->as, w->loop, bl(w->loop, w->func));
	sim_write32(w->as, w->loop + 4, b(w->loop + 4, w->loop));
	sim_write64(w->as, w->lit, OPS_A);
	sim_write32(w->as, w->func, W_MOV_X9_LR);
	sim_write32(w->as, w->site, W_NOP);
	sim_write32(w->as, w->func + 8, W_MOV_LR_X9);
	sim_write32(w->as, w->func + 12, W_RET);
	sim_write32(w->as, w->tramp, W_LDUR_X10);
	sim_write32(w->as, w->tramp + 4, W_RET);
	sim_sym_add(w->as, "loop", w->loop, 8, SIM_SYM_FUNC, NULL);
	sim_sym_add(w->as, "func", w->func, 16, SIM_SYM_FUNC, NULL);
	sim_sym_add(w->as, "tramp", w->tramp, 8, SIM_SYM_FUNC, NULL);
	w->ex = exec_new(w->as, &cfg, &err);
	ck_assert_msg(w->ex != NULL, "%s", err.msg);
	for (unsigned i = 0; i < ncpus; i++)
		ck_assert_int_eq(exec_cpu_setup(w->ex, i, w->loop,
						SIM_STACK_BASE + 0x1000 * (i + 1), NULL, 0,
						w->loop + 4, &err), 0);
	ck_assert_int_eq(exec_watch_insn(w->ex, w->site, &err), 0);
	ck_assert_int_eq(exec_watch_data64(w->ex, w->lit, &err), 0);
	/* make_call: the ops literal, [dmb], the BL, [cache maintenance];
	 * two_plans: then back to the NOP (make_nop). */
	plan_init(&w->p);
	if (vw_unread_store) {
		plan_write_data64(&w->p, UNREAD, 0, 1, 1, 0, "ops field");
		plan_write_data64(&w->p, UNREAD + 8, 0, 2, 1, 0, "ops field");
	}
	plan_write_data64(&w->p, w->lit, OPS_A, OPS_B, 1, 0, "make_call: ops");
	if (dmb)
		plan_simple(&w->p, PLAN_DMB, 0, "dmb ish");
	plan_write_insn(&w->p, w->site, W_NOP, bl(w->site, w->tramp), 1, 0, "make_call: BL");
	if (sync)
		plan_cache_sync(&w->p, w->site, 4, 0);
	if (two_plans)
		plan_write_insn(&w->p, w->site, bl(w->site, w->tramp), W_NOP, 1, 0,
				"make_nop: NOP");
	if (!vw_no_plan)
		ck_assert_int_ge(exec_submit(w->ex, &w->p, NULL, NULL, &err), 0);
}

static void vw_free(struct vworld *w)
{
	plan_free(&w->p);
	exec_free(w->ex);
	sim_aspace_free(w->as);
}

/* What an execution ends with: each CPU's x10 (0: it did not go through
 * the trampoline, else the ops it read) and the violation kinds. */
#define MAX_OUT 256
struct outcomes {
	uint64_t v[MAX_OUT];
	size_t n;
	uint64_t stale;           /* executions with stale-data */
	struct exec_choice cx[64];
	size_t ncx;               /* the shortest stale-data schedule */
	size_t nvis;              /* its visible steps (the fewest) */
	unsigned ncpus;
};

static uint64_t ops_code(uint64_t x10)
{
	return x10 == OPS_A ? 1 : x10 == OPS_B ? 2 : x10 ? 3 : 0;
}

static int on_done(struct ftv_exec *ex, int counted, int ended, void *arg)
{
	struct outcomes *o = arg;
	size_t nv, stale = 0;
	const struct exec_violation *v = exec_violations(ex, &nv);
	uint64_t key = 0;

	if (!counted)
		return 0;
	ck_assert_int_eq(ended, 1);
	for (size_t i = 0; i < nv; i++)
		if (v[i].kind == EXEC_V_STALE_DATA) {
			size_t vis = exec_verify_visible(ex, v[i].step);

			stale = 1;
			if (!o->nvis || vis < o->nvis)
				o->nvis = vis;
			if (!o->ncx || exec_verify_past(ex, v[i].step, o->cx, 64) < o->ncx)
				o->ncx = exec_verify_past(ex, v[i].step, o->cx, 64);
		}
	for (unsigned c = 0; c < o->ncpus; c++)
		key = key << 2 | ops_code(exec_cpu_reg(ex, c, 10));
	key = key << 1 | stale;
	o->stale += stale;
	for (size_t i = 0; i < o->n; i++)
		if (o->v[i] == key)
			return 0;
	ck_assert_uint_lt(o->n, MAX_OUT);
	o->v[o->n++] = key;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void walk(unsigned ncpus, int dmb, int two_plans, int sync, int reduce,
		 struct outcomes *o, struct exec_verify_stats *st)
{
	struct vworld w;
	struct exec_verify_config vc = { .max_steps = 200, .reduce = reduce };
	struct exec_verify_hooks h = { .done = on_done, .arg = o };
	struct ftv_err err;

	memset(o, 0, sizeof(*o));
	o->ncpus = ncpus;
	vw_build(&w, ncpus, dmb, two_plans, sync);
	ck_assert_msg(exec_verify(w.ex, &vc, &h, st, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(st->complete, 1);
	ck_assert_uint_eq(st->multi, 0);
	ck_assert_uint_eq(st->diverged, 0);
	qsort(o->v, o->n, sizeof(o->v[0]), cmp_u64);
	vw_free(&w);
}

static void agree(unsigned ncpus, int dmb, int two_plans, int sync)
{
	struct outcomes r, u;
	struct exec_verify_stats sr, su;

	walk(ncpus, dmb, two_plans, sync, 1, &r, &sr);
	walk(ncpus, dmb, two_plans, sync, 0, &u, &su);
	ck_assert_uint_eq(r.n, u.n);
	for (size_t i = 0; i < r.n; i++)
		ck_assert_uint_eq(r.v[i], u.v[i]);
	/* the same verdict, and the same shortest counterexample length */
	ck_assert_int_eq(!!r.stale, !!u.stale);
	ck_assert_int_eq(!!r.stale, !dmb);
	ck_assert_uint_eq(r.ncx, u.ncx);
	ck_assert_uint_gt(sr.executions, 0);
	ck_assert_uint_lt(sr.executions, su.executions);
	ck_assert_uint_gt(sr.pruned, 0);
}

START_TEST(reduced_and_unreduced_walks_agree_on_one_cpu)
{
	agree(1, 0, 0, 1);
	agree(1, 1, 0, 1);
}
END_TEST

START_TEST(reduced_and_unreduced_walks_agree_on_two_cpus)
{
	agree(2, 0, 0, 0);
	agree(2, 1, 0, 0);
}
END_TEST

START_TEST(reduced_and_unreduced_walks_agree_on_call_then_nop_synced)
{
	agree(1, 0, 1, 1);
}
END_TEST

static size_t count_stale(struct ftv_exec *ex)
{
	size_t nv, n = 0;
	const struct exec_violation *v = exec_violations(ex, &nv);

	for (size_t i = 0; i < nv; i++)
		n += v[i].kind == EXEC_V_STALE_DATA;
	return n;
}

/* The shortest counterexample's schedule (the steps the stale load depends
 * on) replays it: the BL drains before the literal and a CPU goes through
 * it; it is a handful of steps, not a whole execution. */
START_TEST(shortest_counterexample_replays)
{
	struct vworld w;
	struct outcomes o;
	struct exec_verify_stats st;
	struct exec_verify_config vc = { .max_steps = 200, .reduce = 1 };
	struct exec_verify_hooks h = { .done = on_done, .arg = &o };
	struct ftv_err err;
	size_t at;

	memset(&o, 0, sizeof(o));
	o.ncpus = 2;
	vw_build(&w, 2, 0, 0, 1);
	ck_assert_msg(exec_verify(w.ex, &vc, &h, &st, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(o.stale, 0);
	ck_assert_uint_gt(o.ncx, 2);
	ck_assert_uint_le(o.ncx, 12);
	vw_free(&w);
	/* replayed in a fresh world (the walk's last run may have left a
	 * stale-data report of its own at the same CPU and address) */
	vw_build(&w, 2, 0, 0, 1);
	ck_assert_uint_eq(count_stale(w.ex), 0);
	ck_assert_int_eq(exec_set_schedule(w.ex, o.cx, o.ncx), 0);
	ck_assert_int_eq(exec_reset(w.ex, &err), 0);
	ck_assert_int_eq(exec_run(w.ex, 200, &err), 0);
	ck_assert_uint_eq(exec_schedule_diverged(w.ex, &at), 0);
	ck_assert_uint_gt(count_stale(w.ex), 0);
	vw_free(&w);
}
END_TEST

/* Stores to data no CPU loads are no steps: they neither branch nor
 * count. With two of them before the literal the walk explores the same
 * executions, reaches the same outcomes and finds a counterexample of the
 * same visible steps; and the reduced and unreduced walks still agree. */
START_TEST(stores_no_cpu_loads_are_no_steps)
{
	struct outcomes a, b;
	struct exec_verify_stats sa, sb;

	vw_unread_store = 0;
	walk(2, 0, 0, 0, 1, &a, &sa);
	vw_unread_store = 1;
	walk(2, 0, 0, 0, 1, &b, &sb);
	ck_assert_uint_eq(sa.executions, sb.executions);
	ck_assert_uint_eq(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		ck_assert_uint_eq(a.v[i], b.v[i]);
	ck_assert_uint_gt(a.nvis, 2);
	ck_assert_uint_eq(a.nvis, b.nvis);
	agree(2, 0, 0, 0);
	vw_unread_store = 0;
}
END_TEST

/* A settled prefix (exec_apply, as a scenario's `settle` line): make_call
 * is applied before the walk, which explores only the make_nop after it
 * (the BL back to the NOP while the CPUs call). The walk starts from
 * the prefix's memory: every CPU fetches the BL or the NOP, and going
 * through the trampoline reads the literal the prefix wrote; the reduced
 * and unreduced walks reach the same outcomes. */
static void settled_walk(unsigned ncpus, int reduce, struct outcomes *o,
			 struct exec_verify_stats *st)
{
	struct vworld w;
	struct plan nop;
	struct exec_verify_config vc = { .max_steps = 200, .reduce = reduce };
	struct exec_verify_hooks h = { .done = on_done, .arg = o };
	struct ftv_err err;
	uint32_t word;

	memset(o, 0, sizeof(*o));
	o->ncpus = ncpus;
	/* make_call is the prefix: applied, not queued */
	vw_no_plan = 1;
	vw_build(&w, ncpus, 1, 0, 1);
	vw_no_plan = 0;
	exec_apply(w.ex, &w.p, -2, NULL, NULL);
	ck_assert_int_eq(sim_read32(w.as, w.site, &word), 0);
	ck_assert_uint_eq(word, bl(w.site, w.tramp));
	ck_assert_int_eq(exec_snapshot(w.ex, &err), 0);
	plan_init(&nop);
	plan_write_insn(&nop, w.site, bl(w.site, w.tramp), W_NOP, 1, 0, "make_nop: NOP");
	plan_cache_sync(&nop, w.site, 4, 0);
	ck_assert_int_ge(exec_submit(w.ex, &nop, NULL, NULL, &err), 0);
	ck_assert_msg(exec_verify(w.ex, &vc, &h, st, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(st->complete, 1);
	ck_assert_uint_eq(st->multi, 0);
	ck_assert_uint_eq(st->diverged, 0);
	qsort(o->v, o->n, sizeof(o->v[0]), cmp_u64);
	plan_free(&nop);
	vw_free(&w);
}

START_TEST(a_settled_prefix_starts_the_walk_and_the_walks_agree)
{
	struct outcomes r, u;
	struct exec_verify_stats sr, su;
	int through = 0, around = 0;

	settled_walk(2, 1, &r, &sr);
	settled_walk(2, 0, &u, &su);
	ck_assert_uint_eq(r.n, u.n);
	for (size_t i = 0; i < r.n; i++) {
		ck_assert_uint_eq(r.v[i], u.v[i]);
		/* (key: cpu0's code, cpu1's code, stale) */
		for (unsigned c = 0; c < 2; c++) {
			unsigned code = (unsigned)(r.v[i] >> (1 + 2 * c)) & 3;

			/* through the BL: the prefix's literal, never the old */
			ck_assert_uint_ne(code, 1);
			through += code == 2;
			around += code == 0;
		}
		ck_assert_uint_eq(r.v[i] & 1, 0);
	}
	ck_assert_int_gt(through, 0);
	ck_assert_int_gt(around, 0);
	ck_assert_uint_lt(sr.executions, su.executions);
}
END_TEST

/* Two patchers share the patch window (riscv's fixmap slot): each maps it
 * at the page of the word it writes, writes through it and unmaps it.
 * Under one lock they take turns; with the lock dropped by one of them,
 * some execution writes through the other's mapping (patch-window). The
 * window and the lock are locations of the walk: the reduced walk finds
 * that execution too, with the same shortest counterexample, and proves
 * the locked world as the unreduced one does. */
#define W_TEXT_A (T + 0x2180)
#define W_TEXT_B (T + 0x3180)
#define TEXT_MUTEX 0x7e57

static void window_plan(struct plan *p, int agent, uint64_t at, int locked)
{
	struct plan_step s = { .op = PLAN_LOCK, .addr = TEXT_MUTEX, .rec = -1,
			       .what = "text_mutex" };

	plan_init(p);
	p->agent = agent;
	if (locked)
		plan_push(p, &s);
	s.op = PLAN_MAP_WINDOW;
	s.addr = at;
	s.what = "patch_map";
	plan_push(p, &s);
	plan_write_insn(p, at, 0, W_NOP, 0, -1, "through the window");
	p->steps[p->n - 1].window = 1;
	s.op = PLAN_UNMAP_WINDOW;
	s.what = "patch_unmap";
	plan_push(p, &s);
	if (locked) {
		s.op = PLAN_UNLOCK;
		s.addr = TEXT_MUTEX;
		s.what = "text_mutex";
		plan_push(p, &s);
	}
}

struct wout {
	uint64_t executions, violating;
	size_t shortest;          /* visible steps, 0: none */
};

static int window_done(struct ftv_exec *ex, int counted, int ended, void *arg)
{
	struct wout *o = arg;
	size_t nv;
	const struct exec_violation *v = exec_violations(ex, &nv);
	int hit = 0;

	(void)ended;
	if (!counted)
		return 0;
	o->executions++;
	for (size_t i = 0; i < nv; i++)
		if (v[i].kind == EXEC_V_WINDOW) {
			size_t vis = exec_verify_visible(ex, v[i].step);

			hit = 1;
			if (!o->shortest || vis < o->shortest)
				o->shortest = vis;
		}
	o->violating += hit;
	return 0;
}

static void window_walk(int a_locked, int reduce, struct wout *o)
{
	struct vworld w;
	struct plan pa, pb;
	struct exec_verify_config vc = { .max_steps = 200, .reduce = reduce };
	struct exec_verify_hooks h = { .done = window_done, .arg = o };
	struct exec_verify_stats st;
	struct ftv_err err;

	memset(o, 0, sizeof(*o));
	vw_no_plan = 1;
	vw_build(&w, 1, 1, 0, 1);
	vw_no_plan = 0;
	window_plan(&pa, PLAN_AGENT_FTRACE, W_TEXT_A, a_locked);
	window_plan(&pb, PLAN_AGENT_TEXT, W_TEXT_B, 1);
	ck_assert_int_ge(exec_submit(w.ex, &pa, NULL, NULL, &err), 0);
	ck_assert_int_ge(exec_submit(w.ex, &pb, NULL, NULL, &err), 0);
	ck_assert_msg(exec_verify(w.ex, &vc, &h, &st, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(st.complete, 1);
	ck_assert_uint_eq(st.diverged, 0);
	plan_free(&pa);
	plan_free(&pb);
	vw_free(&w);
}

START_TEST(the_patch_window_is_shared_and_the_walks_agree)
{
	struct wout r, u;

	window_walk(1, 1, &r);
	window_walk(1, 0, &u);
	ck_assert_uint_eq(r.violating, 0);
	ck_assert_uint_eq(u.violating, 0);
	ck_assert_uint_gt(r.executions, 0);
	window_walk(0, 1, &r);
	window_walk(0, 0, &u);
	ck_assert_uint_gt(r.violating, 0);
	ck_assert_uint_gt(u.violating, 0);
	ck_assert_uint_eq(r.shortest, u.shortest);
	ck_assert_uint_gt(r.shortest, 1);
	ck_assert_uint_lt(r.executions, u.executions);
}
END_TEST

static Suite *exec_verify_suite(void)
{
	Suite *s = suite_create("exec_verify");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, reduced_and_unreduced_walks_agree_on_one_cpu);
	tcase_add_test(tc, reduced_and_unreduced_walks_agree_on_two_cpus);
	tcase_add_test(tc, reduced_and_unreduced_walks_agree_on_call_then_nop_synced);
	tcase_add_test(tc, shortest_counterexample_replays);
	tcase_add_test(tc, stores_no_cpu_loads_are_no_steps);
	tcase_add_test(tc, a_settled_prefix_starts_the_walk_and_the_walks_agree);
	tcase_add_test(tc, the_patch_window_is_shared_and_the_walks_agree);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(exec_verify, exec_verify_suite)
