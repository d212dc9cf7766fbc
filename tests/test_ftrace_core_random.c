/* Seeded random sequences of ftrace operations against a fake arch that
 * keeps each site's state (calling what, with which literal). After every
 * operation the sites must match the core's accounting, every verb must
 * have named the target really installed (the old word a validated write
 * would compare against), and nothing reachable from a site literal or the
 * emulated ops list may have been freed. */
#include "patcher/ftrace_core.h"
#include "patcher/ftrace_abi.h"
#include "sim/aspace.h"
#include "tests/suite.h"
#include "util/rng.h"

#include <string.h>

#define NF 12
#define NOPS 6
#define MAXFREE 512

#define R_CALLER 0xffff800081000000ULL
#define R_REGS   0xffff800081000100ULL
#define R_LIST   0xffff800081000200ULL
#define R_NOP    0xffff800081000300ULL
#define R_STUB   0xffff800081000400ULL
#define R_DIRECT 0xffff800081000500ULL
#define R_TRAMP0 0xffff800081100000ULL
#define R_DTRAMP 0xffff800081200000ULL

struct site_state {
	int calling;
	uint64_t target, lit;
};

struct rworld {
	struct site_state st[NF];
	uint64_t ftrace_call; /* global scheme: what ftrace_call calls */
	uint64_t ip[NF];
	int bad; /* a verb disagreed with the site state */
	char why[200];
};

static int find_ip(struct rworld *r, uint64_t ip)
{
	for (int i = 0; i < NF; i++)
		if (r->ip[i] == ip)
			return i;
	return -1;
}

static void flag(struct rworld *r, const char *why, uint64_t ip)
{
	if (!r->bad)
		snprintf(r->why, sizeof(r->why), "%s at 0x%llx", why,
			 (unsigned long long)ip);
	r->bad = 1;
}

static int r_init(void *ctx, const struct ftrace_site *s, uint64_t lit,
		  struct plan *p, struct ftv_err *e)
{
	struct rworld *r = ctx;

	(void)p;
	(void)e;
	r->st[find_ip(r, s->ip)].lit = lit;
	return 0;
}

static int r_call(void *ctx, const struct ftrace_site *s, uint64_t t,
		  uint64_t lit, struct plan *p, struct ftv_err *e)
{
	struct rworld *r = ctx;
	struct site_state *st = &r->st[find_ip(r, s->ip)];

	(void)p;
	(void)e;
	if (st->calling)
		flag(r, "make_call on a calling site", s->ip);
	*st = (struct site_state){ 1, t, lit };
	return 0;
}

static int r_nop(void *ctx, const struct ftrace_site *s, uint64_t old,
		 uint64_t lit, struct plan *p, struct ftv_err *e)
{
	struct rworld *r = ctx;
	struct site_state *st = &r->st[find_ip(r, s->ip)];

	(void)p;
	(void)e;
	if (!st->calling || st->target != old)
		flag(r, "make_nop with a wrong old target", s->ip);
	*st = (struct site_state){ 0, 0, lit };
	return 0;
}

static int r_modify(void *ctx, const struct ftrace_site *s, uint64_t old,
		    uint64_t new, uint64_t lit, struct plan *p,
		    struct ftv_err *e)
{
	struct rworld *r = ctx;
	struct site_state *st = &r->st[find_ip(r, s->ip)];

	(void)p;
	(void)e;
	if (!st->calling || st->target != old)
		flag(r, "modify_call with a wrong old target", s->ip);
	*st = (struct site_state){ 1, new, lit };
	return 0;
}

static int r_func(void *ctx, uint64_t func, struct plan *p, struct ftv_err *e)
{
	struct rworld *r = ctx;

	(void)p;
	(void)e;
	r->ftrace_call = func;
	return 0;
}

struct freed {
	uint64_t addr, len;
};

static int is_freed(const struct freed *f, int nf, uint64_t a)
{
	for (int i = 0; i < nf; i++)
		if (a >= f[i].addr && a < f[i].addr + f[i].len)
			return 1;
	return 0;
}

static void run_sequence(uint64_t seed, int steps, int global)
{
	static const char *const names[NF] = { "a0", "a1", "a2", "a3", "a4",
					       "a5", "a6", "a7", "a8", "a9",
					       "a10", "a11" };
	struct ftv_err err = { { 0 } };
	struct rworld rw = { 0 };
	struct ftrace_arch arch = { .name = "rand", .flags = FTRACE_ARCH_CALL_OPS,
				    .init_nop = r_init, .make_call = r_call,
				    .make_nop = r_nop, .modify_call = r_modify };
	struct sim_aspace *as = sim_aspace_new();
	struct sim_region *data = sim_map(as, "data", SIM_DATA_BASE, 0x100000,
					  SIM_R | SIM_W, SIM_REGION_DATA, &err);
	struct ftrace_core_config cfg = {
		.arch = &arch, .arch_ctx = &rw, .caller = R_CALLER,
		.regs_caller = R_REGS, .list_func = R_LIST, .nop_func = R_NOP,
		.stub_func = R_STUB, .direct_func = R_DIRECT,
		.alloc = ftrace_alloc_from_region, .alloc_ctx = data };
	struct ftrace_ops *ops[NOPS] = { 0 };
	int is_direct[NOPS] = { 0 };
	static struct freed fr[MAXFREE];
	int nfr = 0;
	struct ftrace_core *c;
	struct plan p;
	struct ftv_rng rng;

	ck_assert_ptr_nonnull(data);
	if (global) {
		/* The 2014 scheme: no literal, ftrace_call patched. */
		arch.flags = FTRACE_ARCH_STOP_MACHINE;
		arch.update_ftrace_func = r_func;
		rw.ftrace_call = R_STUB;
	}
	ftv_rng_seed(&rng, seed);
	plan_init(&p);
	c = ftrace_core_new(&cfg, &p, &err);
	ck_assert_ptr_nonnull(c);
	for (int i = 0; i < NF; i++) {
		struct ftrace_site s = { .func = SIM_KERNEL_TEXT_BASE + 0x100 * (i + 1),
					 .name = names[i] };

		s.ip = s.func + 4;
		s.literal = global ? 0 : s.func - 8;
		rw.ip[i] = s.ip;
		ck_assert_int_eq(ftrace_core_add_site(c, &s, &p, &err), i);
	}
	for (int step = 0; step < steps; step++) {
		int k = (int)ftv_rng_below(&rng, NOPS);
		struct ftrace_ops *o = ops[k];
		size_t mark = p.n;
		char spec[128] = "";
		int n = 1 + (int)ftv_rng_below(&rng, 3);

		for (int j = 0; j < n; j++) {
			size_t l = strlen(spec);

			snprintf(spec + l, sizeof(spec) - l, "%s%s", j ? "," : "",
				 names[ftv_rng_below(&rng, NF)]);
		}
		if (!o) {
			/* A fresh ops of a random kind. */
			unsigned kind = (unsigned)ftv_rng_below(&rng, 5);
			struct ftrace_ops_desc d = { .name = "r",
						     .func = R_STUB + 0x1000 * (k + 1) };

			if (kind == 1)
				d.flags = FTRACE_OPS_FL_SAVE_REGS;
			if (kind == 2)
				d.flags = FTRACE_OPS_FL_RECURSION;
			if (kind == 3) {
				d.trampoline = R_TRAMP0 + 0x1000 * k;
				d.trampoline_size = 0x100;
				d.flags = FTRACE_OPS_FL_ALLOC_TRAMP;
			}
			o = ops[k] = ftrace_ops_new(c, &d, &err);
			ck_assert_ptr_nonnull(o);
			is_direct[k] = kind == 4;
			ck_assert_int_eq(ftrace_set_filter(c, o, ftv_rng_chance(&rng, 1, 4) && !is_direct[k] ? "" : spec, 1, &p, &err), 0);
			if (is_direct[k]) {
				if (ftrace_register_direct(c, o, R_DTRAMP + 0x1000 * k, &p, &err))
					ops[k] = NULL; /* busy: forget it */
			} else {
				ck_assert_int_eq(ftrace_register_ops(c, o, &p, &err), 0);
			}
		} else if (is_direct[k]) {
			if (ftv_rng_chance(&rng, 1, 2)) {
				ck_assert_int_eq(ftrace_modify_direct(c, o, R_DTRAMP + 0x1000 * k + 0x100 * (step & 7), &p, &err), 0);
			} else {
				ck_assert_int_eq(ftrace_unregister_direct(c, o, &p, &err), 0);
				ops[k] = NULL;
			}
		} else {
			switch (ftv_rng_below(&rng, 3)) {
			case 0:
				ck_assert_int_eq(ftrace_unregister_ops(c, o, &p, &err), 0);
				ops[k] = NULL;
				break;
			case 1:
				ck_assert_int_eq(ftrace_set_filter(c, o, spec, (int)ftv_rng_below(&rng, 2), &p, &err), 0);
				break;
			default:
				ck_assert_int_eq(ftrace_set_notrace(c, o, spec, (int)ftv_rng_below(&rng, 2), &p, &err), 0);
				break;
			}
		}
		ck_assert_msg(!rw.bad, "seed %llu step %d: %s",
			      (unsigned long long)seed, step, rw.why);
		ck_assert_ptr_null(ftrace_core_bug(c));
		/* Apply the memory side of the plan. */
		for (size_t i = mark; i < p.n; i++) {
			const struct plan_step *s = &p.steps[i];

			if (s->op == PLAN_WRITE_DATA64)
				ck_assert_int_eq(sim_write64(as, s->addr, s->new), 0);
			if (s->op == PLAN_FREE) {
				ck_assert_int_lt(nfr, MAXFREE);
				fr[nfr++] = (struct freed){ s->addr, s->len };
			}
		}
		/* Sites agree with the accounting. */
		for (int i = 0; i < NF; i++) {
			const struct ftrace_rec *r = ftrace_core_rec(c, i);
			const struct site_state *st = &rw.st[i];
			struct ftrace_ops *u = ftrace_find_unique_ops(c, i);

			ck_assert_int_eq(st->calling, r->refs > 0);
			ck_assert_uint_eq(st->lit, r->ops_cur);
			ck_assert(!is_freed(fr, nfr, st->lit));
			if (!st->calling) {
				ck_assert_uint_eq(st->lit, global ? 0 : ftrace_core_nop_ops(c));
				continue;
			}
			ck_assert_uint_eq(st->target, ftrace_get_addr_curr(c, i));
			ck_assert_uint_eq(st->target, ftrace_get_addr_new(c, i));
			if (global)
				ck_assert_uint_eq(st->lit, 0);
			else if (r->refs > 1)
				ck_assert_uint_eq(st->lit, ftrace_core_list_ops(c));
			else if (!(ftrace_ops_flags(u) & FTRACE_OPS_FL_RECURSION))
				ck_assert_uint_eq(st->lit, ftrace_ops_addr(u));
			if (r->refs == 1 && (ftrace_ops_flags(u) & FTRACE_OPS_FL_DIRECT))
				ck_assert_uint_eq(st->target, ftrace_ops_direct_call(u));
		}
		/* The emulated list holds exactly the registered ops, none
		 * freed, each with its filter table readable. */
		{
			uint64_t a;
			int n = 0, reg = 0;

			for (int i = 0; i < NOPS; i++)
				reg += ops[i] && ftrace_ops_registered(ops[i]);
			sim_read64(as, ftrace_core_list_head(c), &a);
			while (a) {
				uint64_t t;

				ck_assert(!is_freed(fr, nfr, a));
				sim_read64(as, a + FTV_OPS_FILTER, &t);
				ck_assert(!t || !is_freed(fr, nfr, t));
				ck_assert_int_lt(++n, 64);
				sim_read64(as, a + FTV_OPS_NEXT, &a);
			}
			ck_assert_int_eq(n, reg);
			/* ftrace_call: stub, the only ops' func, or the
			 * list function. */
			if (global) {
				int only = -1;

				for (int i = 0; i < NOPS; i++)
					if (ops[i] && ftrace_ops_registered(ops[i]))
						only = i;
				ck_assert_uint_eq(rw.ftrace_call, ftrace_core_trace_func(c));
				if (!reg)
					ck_assert_uint_eq(rw.ftrace_call, R_STUB);
				else if (reg > 1 || (ftrace_ops_flags(ops[only]) & FTRACE_OPS_FL_RECURSION))
					ck_assert_uint_eq(rw.ftrace_call, R_LIST);
				else if (is_direct[only])
					ck_assert_uint_eq(rw.ftrace_call, R_DIRECT);
				else
					ck_assert_uint_eq(rw.ftrace_call, R_STUB + 0x1000 * (only + 1));
			}
		}
	}
	ftrace_core_free(c);
	plan_free(&p);
	sim_aspace_free(as);
}

START_TEST(random_updates_keep_sites_consistent_with_accounting)
{
	for (uint64_t seed = 1; seed <= 40; seed++)
		run_sequence(seed, 60, 0);
}
END_TEST

START_TEST(random_updates_keep_ftrace_call_in_step_in_the_2014_scheme)
{
	for (uint64_t seed = 100; seed <= 130; seed++)
		run_sequence(seed, 60, 1);
}
END_TEST

static Suite *ftrace_core_random_suite(void)
{
	Suite *s = suite_create("ftrace_core_random");
	TCase *tc = tcase_create("random");

	tcase_add_test(tc, random_updates_keep_sites_consistent_with_accounting);
	tcase_add_test(tc, random_updates_keep_ftrace_call_in_step_in_the_2014_scheme);
	suite_add_tcase(s, tc);
	return s;
}

FTV_SUITE(ftrace_core_random, ftrace_core_random_suite)
