/* The recording fake arch of the ftrace core tests (see test_ftrace_core_fake.h). */
#include "tests/test_ftrace_core_fake.h"
#include "tests/suite.h"

#include <string.h>

#define FAKE_NOP 0xd503201fu

/* A token for "the word that calls target": arbitrary but distinct. */
static uint32_t fake_word(uint64_t target)
{
	return 0x94000000u | (uint32_t)((target >> 2) & 0x03ffffffu);
}

static int fake_log(struct fake_arch *fa, enum fake_verb v,
		    const struct ftrace_site *s, uint64_t old, uint64_t new,
		    uint64_t lit, int enable, struct ftv_err *e)
{
	struct fake_call *c;

	if (s && !fa->fail_global && fa->fail_ip == s->ip &&
	    fa->fail_verb == v)
		return ftv_errf(e, "fake: refusing to patch %s", s->name);
	if (!s && fa->fail_global && fa->fail_verb == v)
		return ftv_errf(e, "fake: refusing to patch ftrace_caller");
	ck_assert_int_lt(fa->n, FAKE_MAXLOG);
	c = &fa->log[fa->n++];
	c->verb = v;
	c->ip = s ? s->ip : 0;
	c->old_target = old;
	c->new_target = new;
	c->lit = lit;
	c->enable = enable;
	return 0;
}

static int lit_then_word(const struct ftrace_site *s, uint64_t lit,
			 uint32_t old, uint32_t new, struct plan *p,
			 const char *what)
{
	if (s->literal && lit &&
	    plan_write_data64(p, s->literal, 0, lit, 0, -1, "fake: literal"))
		return -1;
	return plan_write_insn(p, s->ip, old, new, 1, -1, what);
}

static int f_init(void *ctx, const struct ftrace_site *s, uint64_t lit,
		  struct plan *p, struct ftv_err *e)
{
	if (fake_log(ctx, FV_INIT, s, 0, 0, lit, 0, e))
		return -1;
	return lit_then_word(s, lit, FAKE_NOP, FAKE_NOP, p, "fake: init");
}

static int f_call(void *ctx, const struct ftrace_site *s, uint64_t target,
		  uint64_t lit, struct plan *p, struct ftv_err *e)
{
	if (fake_log(ctx, FV_CALL, s, 0, target, lit, 0, e))
		return -1;
	return lit_then_word(s, lit, FAKE_NOP, fake_word(target), p,
			     "fake: call");
}

static int f_nop(void *ctx, const struct ftrace_site *s, uint64_t old,
		 uint64_t lit, struct plan *p, struct ftv_err *e)
{
	if (fake_log(ctx, FV_NOP, s, old, 0, lit, 0, e))
		return -1;
	return lit_then_word(s, lit, fake_word(old), FAKE_NOP, p, "fake: nop");
}

static int f_modify(void *ctx, const struct ftrace_site *s, uint64_t old,
		    uint64_t new, uint64_t lit, struct plan *p,
		    struct ftv_err *e)
{
	if (fake_log(ctx, FV_MODIFY, s, old, new, lit, 0, e))
		return -1;
	return lit_then_word(s, lit, fake_word(old), fake_word(new), p,
			     "fake: modify");
}

static int f_func(void *ctx, uint64_t func, struct plan *p, struct ftv_err *e)
{
	if (fake_log(ctx, FV_FUNC, NULL, 0, func, 0, 0, e))
		return -1;
	return plan_write_insn(p, FK_CALLER + 0x40, 0, fake_word(func), 0, -1,
			       "fake: ftrace_call");
}

static int f_graph(void *ctx, int enable, struct plan *p, struct ftv_err *e)
{
	if (fake_log(ctx, FV_GRAPH, NULL, 0, 0, 0, enable, e))
		return -1;
	return plan_write_insn(p, FK_CALLER + 0x44, 0,
			       enable ? 0x14000010u : FAKE_NOP, 0, -1,
			       "fake: ftrace_graph_call");
}

static const char *const names[FAKE_NFUNC] = { "f0", "f1", "f2", "f3",
					       "f4", "f5", "f6", "f7" };

void fw_init(struct fake_world *w, int scheme, unsigned mutants)
{
	struct ftv_err err = { { 0 } };
	struct ftrace_core_config cfg = {
		.caller = FK_CALLER, .regs_caller = FK_REGS_CALLER,
		.list_func = FK_LIST_FUNC, .nop_func = FK_NOP_FUNC,
		.stub_func = FK_STUB, .direct_func = FK_DIRECT_FUNC,
		.assist_func = FK_ASSIST,
		.alloc = ftrace_alloc_from_region,
		/* The quiesce mutant goes through its own field. */
		.drop_quiesce = !!(mutants & FTRACE_MUT_DROP_QUIESCE),
		.mutants = mutants & ~FTRACE_MUT_DROP_QUIESCE,
	};

	memset(w, 0, sizeof(*w));
	w->as = sim_aspace_new();
	ck_assert_ptr_nonnull(w->as);
	ck_assert_ptr_nonnull(sim_map(w->as, "text", SIM_KERNEL_TEXT_BASE,
				      0x10000, SIM_R | SIM_X,
				      SIM_REGION_TEXT, &err));
	w->data = sim_map(w->as, "data", SIM_DATA_BASE, 0x10000,
			  SIM_R | SIM_W, SIM_REGION_DATA, &err);
	ck_assert_ptr_nonnull(w->data);
	w->arch = (struct ftrace_arch){
		.name = "fake", .init_nop = f_init, .make_call = f_call,
		.make_nop = f_nop, .modify_call = f_modify,
	};
	if (scheme == FW_CALL_OPS) {
		w->arch.flags = FTRACE_ARCH_CALL_OPS;
	} else {
		w->arch.flags = FTRACE_ARCH_STOP_MACHINE;
		w->arch.update_ftrace_func = f_func;
		w->arch.modify_graph_caller = f_graph;
	}
	if (scheme != FW_CALL_OPS) {
		w->graph_ops_var = sim_region_alloc(w->data, 8, 8, &err);
		ck_assert_uint_ne(w->graph_ops_var, 0);
		cfg.graph_ops_addr = w->graph_ops_var;
	}
	cfg.arch = &w->arch;
	cfg.arch_ctx = &w->fa;
	cfg.alloc_ctx = w->data;
	cfg.as = w->as;
	plan_init(&w->plan);
	w->core = ftrace_core_new(&cfg, &w->plan, &err);
	ck_assert_msg(w->core != NULL, "%s", err.msg);
	for (int i = 0; i < FAKE_NFUNC; i++) {
		struct ftrace_site s = { 0 };

		w->func[i] = SIM_KERNEL_TEXT_BASE + 0x100 + 0x100 * i;
		w->ip[i] = w->func[i] + 4;
		s.func = w->func[i];
		s.ip = w->ip[i];
		s.literal = scheme == FW_CALL_OPS ? w->func[i] - 8 : 0;
		s.name = names[i];
		s.kind = scheme == FW_CALL_OPS ? FTV_SITE_CALL_OPS
					       : FTV_SITE_MCOUNT;
		ck_assert_int_eq(ftrace_core_add_site(w->core, &s, &w->plan,
						      &err), i);
		sim_sym_add(w->as, names[i], w->func[i], 0x100, SIM_SYM_FUNC,
			    NULL);
	}
	fw_apply_data(w, 0);
	plan_reset(&w->plan);
	w->fa.n = 0;
}

void fw_fini(struct fake_world *w)
{
	ftrace_core_free(w->core);
	plan_free(&w->plan);
	sim_aspace_free(w->as);
}

void fw_apply_data(struct fake_world *w, size_t from)
{
	for (size_t i = from; i < w->plan.n; i++) {
		const struct plan_step *s = &w->plan.steps[i];

		if (s->op == PLAN_WRITE_DATA64 &&
		    sim_region_at(w->as, s->addr) == w->data)
			ck_assert_int_eq(sim_write64(w->as, s->addr, s->new), 0);
	}
}

struct ftrace_ops *fw_ops(struct fake_world *w, const char *name,
			  uint64_t func, unsigned flags, uint64_t tramp)
{
	struct ftv_err err = { { 0 } };
	struct ftrace_ops *o = ftrace_ops_new(
		w->core, &(struct ftrace_ops_desc){ .name = name, .func = func,
						    .flags = flags,
						    .trampoline = tramp,
						    .trampoline_size = 0x80 },
		&err);

	ck_assert_msg(o != NULL, "%s", err.msg);
	return o;
}

int fw_rec(struct fake_world *w, int f)
{
	return ftrace_core_find_rec(w->core, w->ip[f]);
}

int fw_find(struct fake_world *w, int from, enum fake_verb v, uint64_t ip)
{
	for (int i = from; i < w->fa.n; i++)
		if (w->fa.log[i].verb == v && w->fa.log[i].ip == ip)
			return i;
	return -1;
}

long fw_step(struct fake_world *w, size_t from, enum plan_op op)
{
	for (size_t i = from; i < w->plan.n; i++)
		if (w->plan.steps[i].op == op)
			return (long)i;
	return -1;
}
