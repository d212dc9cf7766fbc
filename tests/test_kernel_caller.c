/* Scheme kernel's trampoline side (issue 26): the world's CPUs enter the
 * build's own ftrace_caller (arch/arm64/kernel/entry-ftrace.o linked into
 * the world), its ops are laid out as the build's struct ftrace_ops and
 * its tracers read the build's ftrace_regs, every offset from the build's
 * ftv-layout.txt (never a constant of one version). */
#include "tests/suite.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/kern.h"
#include "patcher/ftrace_abi.h"
#include "verify/scenario.h"
#include "verify/world_int.h"

static struct world *kworld(const char *name)
{
	char path[4096], corpus[4096], tramp[4096], kdir[4096], rel[256];
	struct scenario *s = malloc(sizeof(*s));
	struct scenario_world *sw = malloc(sizeof(*sw));
	struct world *w = NULL;
	struct ftv_err err;

	ck_assert(s && sw);
	snprintf(rel, sizeof(rel), "corpus/scenarios/%s.scn", name);
	ftv_test_path(path, sizeof(path), "FTV_TOP", rel);
	ftv_test_path(corpus, sizeof(corpus), "FTV_BUILD", "corpus");
	ftv_test_path(tramp, sizeof(tramp), "FTV_BUILD", "trampolines");
	ftv_test_path(kdir, sizeof(kdir), "FTV_BUILD", "kernel/6.12");
	ck_assert_msg(!scenario_load(path, s, &err), "%s", err.msg);
	ck_assert_msg(!scenario_world_config(s, corpus, tramp, 0, sw, &err), "%s", err.msg);
	sw->cfg.kernel_dir = kdir;
	ck_assert_msg(!world_new(&sw->cfg, &w, &err), "%s: %s", name, err.msg);
	free(s);
	free(sw);
	return w;
}

static const struct sim_object_info *object_ending(struct world *w, const char *tail)
{
	for (size_t i = 0; i < sim_image_nobjects(w->img); i++) {
		const struct sim_object_info *o = sim_image_object(w->img, i);
		size_t n = strlen(o->path), m = strlen(tail);

		if (n >= m && !strcmp(o->path + n - m, tail))
			return o;
	}
	return NULL;
}

START_TEST(the_cpus_enter_the_builds_ftrace_caller)
{
	struct world *w = kworld("kernel-graph");
	const struct sim_object_info *k = object_ending(w, "/kernel/6.12/arch/arm64/kernel/entry-ftrace.o");
	uint64_t text = 0, end = 0;
	uint32_t insn = 0;

	ck_assert_msg(k, "the build's entry-ftrace.o is not in the world");
	ck_assert_ptr_null(object_ending(w, "/entry-callops.o"));
	ck_assert_ptr_null(object_ending(w, "/graph.o"));
	for (size_t s = 0; s < k->nsections; s++)
		if (!strcmp(k->sections[s].name, ".text")) {
			text = k->sections[s].addr;
			end = text + k->sections[s].size;
		}
	/* the world's ftrace_caller (what every enabled site's BL calls),
	 * return_to_handler (the graph tracer's) and ftrace_stub are its */
	ck_assert(w->caller >= text && w->caller < end);
	ck_assert(sim_image_lookup(w->img, "return_to_handler") >= text &&
		  sim_image_lookup(w->img, "return_to_handler") < end);
	ck_assert(w->stub >= text && w->stub < end);
	/* the preemption point follows its load of the site's literal into
	 * x11 (ldr x11, [x11, #-16]) */
	ck_assert(w->op_loaded > w->caller && w->op_loaded < end);
	ck_assert(!sim_read32(w->as, w->op_loaded - 4, &insn));
	ck_assert_uint_eq(insn & 31, 11);
	ck_assert_uint_eq((insn >> 5) & 31, 11);
	world_free(w);
}
END_TEST

START_TEST(ops_and_fregs_are_laid_out_as_the_builds)
{
	struct world *w = kworld("kernel-direct");
	const struct ftrace_ops_layout *l = ftrace_core_ops_layout(w->core);
	struct kern_layout kl = { 0 };
	struct ftv_err err;
	char path[4096];
	static const struct { const char *fact; unsigned kl; } fregs[] = {
		{ "FREGS_X0", FTV_KL_FREGS_X0 }, { "FREGS_FP", FTV_KL_FREGS_FP },
		{ "FREGS_LR", FTV_KL_FREGS_LR }, { "FREGS_DIRECT_TRAMP", FTV_KL_FREGS_DIRECT_TRAMP },
		{ "ftrace_ops.func", FTV_KL_OPS_FUNC }, { "ftrace_ops.next", FTV_KL_OPS_NEXT },
		{ "ftrace_ops.flags", FTV_KL_OPS_FLAGS },
		{ "ftrace_ops.direct_call", FTV_KL_OPS_DIRECT_CALL },
	};
	uint64_t v, size, at = sim_image_lookup(w->img, "ftv_klayout");

	ftv_test_path(path, sizeof(path), "FTV_BUILD", "kernel/6.12/ftv-layout.txt");
	ck_assert_msg(!kern_layout_read(&kl, path, &err), "%s", err.msg);
	/* what the kernel's ftrace_caller loads */
	ck_assert(!kern_fact(&kl, "FTRACE_OPS_DIRECT_CALL", &v, &err));
	ck_assert_uint_eq(l->direct_call, v);
	ck_assert(!kern_fact(&kl, "FTRACE_OPS_FUNC", &v, &err));
	ck_assert_uint_eq(l->func, v);
	ck_assert(!kern_fact(&kl, "ftrace_ops.next", &v, &err));
	ck_assert_uint_eq(l->next, v);
	ck_assert(!kern_fact(&kl, "sizeof.ftrace_ops", &size, &err));
	ck_assert_uint_ge(l->size, size);
	/* not ftv's struct ftv_ops: the build's direct_call is elsewhere */
	ck_assert_uint_ne(l->direct_call, FTV_OPS_DIRECT_CALL);
	/* the tracers read the same offsets */
	ck_assert(at);
	for (size_t i = 0; i < sizeof(fregs) / sizeof(fregs[0]); i++) {
		uint64_t mem = ~0ull;

		ck_assert(!kern_fact(&kl, fregs[i].fact, &v, &err));
		ck_assert(!sim_read64(w->as, at + 8 * fregs[i].kl, &mem));
		ck_assert_msg(mem == v, "%s: %llu, the build's %llu", fregs[i].fact,
			      (unsigned long long)mem, (unsigned long long)v);
	}
	kern_layout_free(&kl);
	world_free(w);
}
END_TEST

/* graph entries and returns in cpu c's tracer log */
static void graph_log(struct world *w, unsigned c, uint64_t *entries, uint64_t *rets)
{
	uint64_t head = 0, kind = 0;

	*entries = *rets = 0;
	ck_assert(!sim_read64(w->as, w->cpu[c].pcpu + FTV_PCPU_LOG_HEAD, &head));
	for (uint64_t i = 0; i < head && i < WORLD_LOG_CAP; i++) {
		ck_assert(!sim_read64(w->as, w->cpu[c].log + i * FTV_LOG_SIZE + FTV_LOG_KIND, &kind));
		*entries += kind == FTV_LOG_GRAPH_ENTRY;
		*rets += kind == FTV_LOG_GRAPH_RET;
	}
}

/* The graph ops' func is the build's ftrace_graph_func, whose
 * prepare_ftrace_return reads current->tracing_graph_pause through SP_EL0
 * and hooks fregs->lr; the hooked functions return through the build's
 * return_to_handler. A CPU whose `current` is paused makes no entry: the
 * kernel's code decides, not ftv's. */
START_TEST(graph_entries_go_through_the_builds_ftrace_graph_func)
{
	struct world *w = kworld("kernel-graph");
	const struct sim_object_info *k = object_ending(w, "/kernel/6.12/arch/arm64/kernel/ftrace.o");
	struct kern_layout kl = { 0 };
	struct ftv_err err;
	struct ftrace_ops *g;
	uint64_t text = 0, end = 0, pause = 0, e0, r0, e1, r1;
	char path[4096];

	ck_assert_msg(k, "the build's ftrace.o is not in the world");
	for (size_t s = 0; s < k->nsections; s++)
		if (!strcmp(k->sections[s].name, ".text")) {
			text = k->sections[s].addr;
			end = text + k->sections[s].size;
		}
	ck_assert(w->graph_func >= text && w->graph_func < end);
	ftv_test_path(path, sizeof(path), "FTV_BUILD", "kernel/6.12/ftv-layout.txt");
	ck_assert_msg(!kern_layout_read(&kl, path, &err), "%s", err.msg);
	ck_assert(!kern_fact(&kl, "task_struct.tracing_graph_pause", &pause, &err));
	kern_layout_free(&kl);
	/* cpu1 paused (atomic_read(&current->tracing_graph_pause) != 0) */
	ck_assert(w->kcurrent);
	ck_assert(!sim_write32(w->as, w->kcurrent + 1 * w->kcurrent_size + pause, 1));
	ck_assert_msg((g = world_ops(w, "g", "graph", &err)) != NULL, "%s", err.msg);
	ck_assert_msg(!world_set_filter(w, g, "r1_f9,r1_f3,r2_f4", &err), "%s", err.msg);
	ck_assert_msg(!world_register(w, g, &err), "%s", err.msg);
	ck_assert_msg(!world_run(w, 150, &err), "%s", err.msg);
	ck_assert_msg(!world_unregister(w, g, &err), "%s", err.msg);
	ck_assert_msg(!world_finish(w, 10000000, &err), "%s", err.msg);
	ck_assert_uint_eq(world_nviolations(w), 0);
	graph_log(w, 0, &e0, &r0);
	graph_log(w, 1, &e1, &r1);
	ck_assert_uint_gt(e0, 0);
	ck_assert_uint_eq(e0, r0);
	ck_assert_uint_eq(e1, 0);
	ck_assert_uint_eq(r1, 0);
	world_free(w);
}
END_TEST

static Suite *kernel_caller_suite(void)
{
	Suite *s = suite_create("kernel_caller");
	TCase *t = tcase_create("kernel_caller");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, the_cpus_enter_the_builds_ftrace_caller);
	tcase_add_test(t, ops_and_fregs_are_laid_out_as_the_builds);
	tcase_add_test(t, graph_entries_go_through_the_builds_ftrace_graph_func);
	suite_add_tcase(s, t);
	return s;
}
FTV_SUITE(kernel_caller, kernel_caller_suite)
