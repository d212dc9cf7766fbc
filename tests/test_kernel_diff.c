/* Linux's own arm64 ftrace backend (make kernel: Debian's 6.12 and three
 * mutants of it, mk/kernel.mk) loaded as a kernel and compared with ftv's
 * model: the unmodified kernel agrees transition by transition, each
 * mutant is reported with the transition and the access that differ,
 * the shims log what the services do, WARN/BUG carry __bug_table's
 * file:line, and the comparison's rules hold on hand-made sequences. */
#include "tests/suite.h"
#include "kernel/kdiff.h"
#include "kernel/kern.h"
#include "kernel/kline.h"
#include "kernel/kshim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[] = { "init_nop", "make_call", "modify_call",
	"direct_in_range", "direct_out_of_range", "make_nop",
	"make_call_direct_far", "update_ftrace_func", "graph_caller" };
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

/* Where make kernel's builds are: always under the top build/ (also
 * when the tests' own build is build/san), which make test passes as
 * FTV_KERNEL_BUILD; else FTV_BUILD. */
static void kpath(char *buf, size_t n, const char *rel)
{
	const char *k = getenv("FTV_KERNEL_BUILD");

	if (k && *k)
		snprintf(buf, n, "%s/%s", k, rel);
	else
		ftv_test_path(buf, n, "FTV_BUILD", rel);
}

static int kdiff(const char *rel, char **out)
{
	char dir[512];
	char *argv[] = { (char *)ftv_test_env("FTV"), "kernel-diff", "--kernel", dir, NULL };

	kpath(dir, sizeof(dir), rel);
	return ftv_test_run(argv, out);
}

/* The line of kind k ("make_call  understood (53) ..."), NUL-terminated
 * in a copy, or NULL. */
static char *kind_line(const char *out, const char *k, char *buf, size_t n)
{
	size_t l = strlen(k);

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, k, l) && p[l] == ' ') {
			size_t e = strcspn(p, "\n");

			snprintf(buf, n, "%.*s", (int)e, p);
			return buf;
		}
	return NULL;
}

START_TEST(debian_6_12_is_same_or_understood_on_every_transition)
{
	char *out = NULL, line[2048];
	int rc = kdiff("kernel/6.12", &out);
	unsigned sites = 0;

	ck_assert_msg(rc == 0, "exit %d: %s", rc, out);
	ck_assert_msg(sscanf(out, "kernel-diff: %*s %u sites", &sites) == 1 && sites >= 40,
		      "%s", out);
	for (size_t i = 0; i < NKINDS; i++) {
		ck_assert_msg(kind_line(out, kinds[i], line, sizeof(line)), "no %s line: %s",
			      kinds[i], out);
		ck_assert_msg(strstr(line, " same (") || strstr(line, " understood ("),
			      "%s", line);
	}
	/* the per-site transitions differ as documented: validation and the
	 * fixmap's barriers, each with its kernel source */
	kind_line(out, "make_call", line, sizeof(line));
	ck_assert_msg(strstr(line, "validate-unlocked") && strstr(line, "fixmap-barriers"),
		      "%s", line);
	ck_assert_msg(strstr(out, "source: arch/arm64/kernel/ftrace.c ftrace_modify_code()") &&
		      strstr(out, "source: arch/arm64/include/asm/pgtable.h __set_pte()"),
		      "%s", out);
	free(out);
}
END_TEST

static const struct {
	const char *mutant, *kind, *what;
	const char *also; /* in the output too, or NULL */
} mutants[] = {
	/* the BL (after its validating read) comes before the ops */
	{ "make-call-bl-before-ops", "make_call", "access 1: kernel read32", NULL },
	/* the ops literal's store is gone */
	{ "modify-call-keeps-ops", "modify_call", "access 1: kernel read32", NULL },
	/* the literal is stored through a cleared fixmap: -EFAULT, no store */
	{ "literal-store-after-unmap", "init_nop", "no fixmap mapping there", NULL },
	/* MOV X9, LR left to ftrace_make_call: init_nop writes no word */
	{ "make-call-writes-mov", "init_nop", "access 2: kernel (nothing)", NULL },
	/* no range check in ftrace_find_callable_addr: the encoder refuses
	 * the far BL (aarch64_insn_gen_branch_imm) and a BRK is written */
	{ "callable-addr-no-range-check", "direct_out_of_range", "offset out of range",
	  "= 0xd4202000; fixmap clear" /* BRK #0x100: AARCH64_BREAK_FAULT */ },
};

START_TEST(each_mutated_kernel_is_reported_at_its_transition)
{
	char rel[128], *out = NULL, line[2048];
	int rc;

	snprintf(rel, sizeof(rel), "kernel-mut/%s", mutants[_i].mutant);
	rc = kdiff(rel, &out);
	ck_assert_msg(rc == 1, "%s: exit %d: %s", mutants[_i].mutant, rc, out);
	ck_assert_msg(kind_line(out, mutants[_i].kind, line, sizeof(line)), "%s", out);
	ck_assert_msg(strstr(line, "DIFFERENT") && strstr(line, mutants[_i].what),
		      "%s: %s", mutants[_i].mutant, line);
	ck_assert_msg(!mutants[_i].also || strstr(out, mutants[_i].also), "%s: %s",
		      mutants[_i].mutant, out);
	/* both sequences are shown */
	ck_assert_msg(strstr(out, "\n    kernel: ") && strstr(out, "\n    model:  str64"),
		      "%s", out);
	/* a transition the mutation does not touch still agrees */
	ck_assert_msg(kind_line(out, "update_ftrace_func", line, sizeof(line)) &&
		      strstr(line, " same ("), "%s", out);
	free(out);
}
END_TEST

/* --object: the sites of the user's objects only */
START_TEST(user_objects_give_the_sites)
{
	char dir[512], obj[512], *out = NULL;
	char *argv[] = { (char *)ftv_test_env("FTV"), "kernel-diff", "--kernel", dir,
			 "--object", obj, NULL };
	unsigned sites = 0, objs = 0;

	kpath(dir, sizeof(dir), "kernel/6.12");
	ftv_test_path(obj, sizeof(obj), "FTV_BUILD", "corpus/callops/list.o");
	ck_assert_int_eq(ftv_test_run(argv, &out), 0);
	ck_assert_msg(sscanf(out, "kernel-diff: %*s %u sites of %u objects", &sites, &objs) == 2 &&
		      objs == 1 && sites > 0 && sites < 40, "%s", out);
	free(out);
}
END_TEST

START_TEST(missing_objects_are_named_with_make_kernel)
{
	char *argv[] = { (char *)ftv_test_env("FTV"), "kernel-diff", "--kernel",
			 "/nonexistent/kernel", NULL };
	char *out = NULL;

	ck_assert_int_eq(ftv_test_run(argv, &out), 2);
	ck_assert_msg(strstr(out, "/nonexistent/kernel/arch/arm64/kernel/entry-ftrace.o: missing") &&
		      strstr(out, "make kernel") && strchr(out, '\n') == out + strlen(out) - 1,
		      "%s", out);
	free(out);
}
END_TEST

/* A kernel given back (kern_give) and taken again for the same build
 * (kern_take: a fuzz campaign's next world) runs as a freshly opened one:
 * its text and data put back, the translation of text a run changed
 * dropped, its log, fixmap and locks as opened. */
START_TEST(a_kernel_taken_again_runs_as_opened)
{
	char dir[512], mut[512];
	struct ftv_err err = { "" };
	struct kern *k, *again, *other;
	uint64_t fn, lit, arg, fresh_ret = 0, ret = 1, v0 = 0, v = 0;
	uint64_t args[2];
	size_t taken, nlog, calls;

	kpath(dir, sizeof(dir), "kernel/6.12");
	kpath(mut, sizeof(mut), "kernel-mut/make-call-bl-before-ops");
	k = kern_take(dir, NULL, 0, 0, 0, &err);
	ck_assert_msg(k, "%s", err.msg);
	fn = kern_sym(k, "ftrace_call_adjust");
	lit = (kern_sym(k, "ftrace_stub") - 8) & ~7ull;
	ck_assert(fn && lit && !sim_read64(k->as, lit, &v0));
	/* ftrace_call_adjust translated and decoded, then its text changed
	 * to `dsb ish; mov x0, #0; ret` (its translation and decoding
	 * dropped, as a store of the code's own would): the change runs */
	arg = lit;
	ck_assert_msg(!kern_call(k, fn, &arg, 1, &fresh_ret, &err), "%s", err.msg);
	ck_assert_uint_ne(fresh_ret, 0);
	nlog = k->log.n;
	ck_assert(!sim_write32(k->as, fn, 0xd5033b9fu) && !sim_write32(k->as, fn + 4, 0xd2800000u) &&
		  !sim_write32(k->as, fn + 8, 0xd65f03c0u));
	krun_text_changed(k->run, fn, 12);
	ck_assert_msg(!kern_call(k, fn, &arg, 1, &ret, &err), "%s", err.msg);
	ck_assert_uint_eq(ret, 0);
	ck_assert_uint_eq(k->log.n, nlog + 1);
	ck_assert(k->log.v[nlog].kind == KEV_DSB);
	calls = nlog;
	/* a literal written for real: text, log, fixmap state changed */
	kev_clear(&k->log);
	args[0] = lit;
	args[1] = 0x1122334455667788ull;
	ck_assert_msg(!kern_call(k, kern_sym(k, "aarch64_insn_write_literal_u64"), args, 2, &ret,
				 &err), "%s", err.msg);
	nlog = k->log.n;
	ck_assert(nlog > 0 && !sim_read64(k->as, lit, &v) && v == args[1]);
	taken = kern_pool_taken();
	kern_give(k);

	/* another build is another kernel */
	other = kern_take(mut, NULL, 0, 0, 0, &err);
	ck_assert_msg(other && other != k, "%s", err.msg);
	ck_assert_uint_eq(kern_pool_taken(), taken);

	again = kern_take(dir, NULL, 0, 0, 0, &err);
	ck_assert_msg(again == k, "%s", err.msg);
	ck_assert_uint_eq(kern_pool_taken(), taken + 1);
	ck_assert_uint_eq(again->log.n, 0);
	ck_assert(!again->fix.mapped && !again->locks);
	ck_assert(!sim_read64(again->as, lit, &v));
	ck_assert_uint_eq(v, v0);
	ck_assert_msg(!kern_call(again, fn, &arg, 1, &ret, &err), "%s", err.msg);
	ck_assert_uint_eq(ret, fresh_ret);
	ck_assert_uint_eq(again->log.n, calls);
	kev_clear(&again->log);
	ck_assert_msg(!kern_call(again, kern_sym(again, "aarch64_insn_write_literal_u64"), args, 2,
				 &ret, &err), "%s", err.msg);
	ck_assert_uint_eq(again->log.n, nlog);
	kern_give(again);
	kern_give(other);
}
END_TEST

static struct kern *open_612(void)
{
	char dir[512];
	struct ftv_err err = { "" };
	struct kern *k;

	kpath(dir, sizeof(dir), "kernel/6.12");
	k = kern_open(dir, NULL, 0, &err);
	ck_assert_msg(k, "%s", err.msg);
	return k;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* A step's name is made once for the same verb, pcs and text, and names
 * where the patcher CPU was: the outer function, then the inner one with
 * its source line. */
START_TEST(step_names_are_made_once_and_name_the_line)
{
	struct kern *k = open_612();
	struct ftv_err err = { "" };
	struct kline *l = kline_new(k, &err);
	uint64_t outer = kern_sym(k, "ftrace_make_call") + 0x10;
	uint64_t pc = kern_sym(k, "aarch64_insn_write_literal_u64") + 4;
	const char *a, *b, *c, *d;

	ck_assert_msg(l, "%s", err.msg);
	a = kline_step_name(l, "make_call", pc, outer, "str32 x");
	b = kline_step_name(l, "make_call", pc, outer, "str32 x");
	c = kline_step_name(l, "make_call", pc, outer, "str32 y");
	d = kline_step_name(l, "make_call", pc, pc, "str32 x");
	ck_assert(a && a == b && c && c != a && d && d != a);
	ck_assert_msg(starts(a, "make_call: ftrace_make_call+0x10 (arch/arm64/kernel/ftrace.c:") &&
		      strstr(a, ") > aarch64_insn_write_literal_u64+0x4 (arch/arm64/kernel/patching.c:") &&
		      !strcmp(a + strlen(a) - strlen("): str32 x"), "): str32 x"), "%s", a);
	ck_assert_msg(starts(d, "make_call: aarch64_insn_write_literal_u64+0x4 (arch/arm64/kernel/patching.c:") &&
		      !strstr(d, " > "), "%s", d);
	kline_free(l);
	kern_close(k);
}
END_TEST

/* aarch64_insn_write_literal_u64, run for real: the lock, the fixmap
 * mapping with __set_pte's barriers, the store at the text address it
 * aliases, the clear with the TLB flush's barriers, the unlock. */
START_TEST(literal_write_logs_every_effect_in_order)
{
	struct kern *k = open_612();
	struct ftv_err err = { "" };
	uint64_t fn = kern_sym(k, "aarch64_insn_write_literal_u64");
	uint64_t lit = kern_sym(k, "ftrace_stub") - 8, ret = 1, v = 0;
	uint64_t args[2] = { lit & ~7ull, 0x1122334455667788ull };
	static const enum kev_kind want[] = { KEV_LOCK, KEV_MAP, KEV_DSB, KEV_ISB,
		KEV_STORE, KEV_UNMAP, KEV_DSB, KEV_TLBI, KEV_DSB, KEV_ISB, KEV_UNLOCK };
	char s[200];

	ck_assert(fn && lit);
	ck_assert_msg(!kern_call(k, fn, args, 2, &ret, &err), "%s", err.msg);
	ck_assert_uint_eq(ret, 0);
	ck_assert_uint_eq(k->log.n, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < k->log.n; i++)
		ck_assert_msg(k->log.v[i].kind == want[i], "event %zu: %s", i,
			      kev_format(&k->log.v[i], s, sizeof(s)));
	ck_assert_uint_eq(k->log.v[4].addr, args[0]);
	ck_assert_uint_eq(k->log.v[4].size, 8);
	ck_assert_uint_eq(k->log.v[4].value, args[1]);
	ck_assert(k->log.v[4].locked && k->log.v[4].alias && k->log.v[4].alias != args[0]);
	ck_assert_uint_eq(k->log.v[2].size, 0xa); /* dsb ishst */
	ck_assert_uint_eq(k->log.v[8].size, 0xb); /* dsb ish */
	ck_assert(!sim_read64(k->as, args[0], &v));
	ck_assert_uint_eq(v, args[1]);
	kern_close(k);
}
END_TEST

/* patch_map of an address that is not core kernel text asks
 * vmalloc_to_page, which finds nothing: BUG_ON(!page) stops the run
 * with its __bug_table file:line. */
START_TEST(bug_is_reported_with_its_file_and_line)
{
	struct kern *k = open_612();
	struct ftv_err err = { "" };
	uint64_t args[2] = { k->scratch, 0xd503201f }, ret;
	char src[600], want[64], line[256];
	FILE *f;
	int n = 0, at = 0;

	ck_assert_int_eq(kern_call(k, kern_sym(k, "aarch64_insn_write"), args, 2, &ret, &err), -1);
	kpath(src, sizeof(src), "kernel-src/linux-source-6.12/arch/arm64/kernel/patching.c");
	f = fopen(src, "r");
	ck_assert_msg(f, "%s", src);
	while (fgets(line, sizeof(line), f) && !at)
		if (++n && strstr(line, "BUG_ON(!page);"))
			at = n;
	fclose(f);
	snprintf(want, sizeof(want), "BUG at arch/arm64/kernel/patching.c:%d", at);
	ck_assert_msg(at && strstr(err.msg, want), "%s (want %s)", err.msg, want);
	ck_assert_uint_eq(k->log.v[k->log.n - 1].kind, KEV_BUG);
	kern_close(k);
}
END_TEST

/* A booted kernel's data, bound for real: the code reads them. */
START_TEST(data_symbols_hold_a_booted_kernels_values)
{
	struct kern *k = open_612();
	uint64_t a = kern_sym(k, "system_state"), v = 0;
	uint32_t w = 0;

	ck_assert(a && !sim_image_stub_name(k->img, a));
	ck_assert(!sim_read32(k->as, a, &w));
	ck_assert_uint_eq(w, 3); /* SYSTEM_RUNNING */
	ck_assert(!sim_read64(k->as, kern_sym(k, "kimage_voffset"), &v));
	ck_assert_uint_eq(SIM_KERNEL_TEXT_BASE - v, kdata_value("memstart_addr"));
	/* ftrace_nop_ops.func = ftrace_stub, at the DWARF's offset */
	ck_assert(!sim_read64(k->as, kern_sym(k, "ftrace_nop_ops") + k->lay.ops_func, &v));
	ck_assert_uint_eq(v, kern_sym(k, "ftrace_stub"));
	ck_assert_uint_eq(k->lay.dyn_ftrace_size, 16);
	kern_close(k);
}
END_TEST

/* What the real code shows: patch_map (patching.c) is built traceable
 * and runs with patch_lock held, so once its site calls a tracer every
 * text write runs that tracer under the raw spinlock, IRQs off
 * (docs/kernel.md). The site is enabled with the real backend, then one
 * literal write runs the tracer exactly once, inside the lock. */
START_TEST(patch_map_is_traced_under_patch_lock)
{
	struct kern *k = open_612();
	struct ftv_err err = { "" };
	uint64_t site = 0, ret = 1, rec = k->scratch, ops = k->scratch + 0x1000;
	uint64_t tracer = kern_sym(k, "ftrace_stub_graph"), caller = kern_sym(k, "ftrace_caller");
	uint64_t lit = (kern_sym(k, "ftrace_stub") - 8) & ~7ull, v = 0x55;

	for (size_t i = 0; i < sim_image_nsites(k->img); i++)
		if (!strncmp(sim_image_site(k->img, i)->funcname, "patch_map", 9))
			site = sim_image_site(k->img, i)->addr;
	ck_assert(site && tracer && caller);
	ck_assert(!sim_write64(k->as, rec + k->lay.dyn_ftrace_ip, site));
	ck_assert(!sim_write64(k->as, rec + k->lay.dyn_ftrace_flags, k->lay.fl_call_ops_en));
	ck_assert(!sim_write64(k->as, ops + k->lay.ops_func, tracer));
	k->unique_ops = ops;
	ck_assert_msg(!kern_call(k, kern_sym(k, "ftrace_init_nop"), (uint64_t[]){ 0, rec }, 2,
				 &ret, &err) && !ret, "%s", err.msg);
	ck_assert_msg(!kern_call(k, kern_sym(k, "ftrace_make_call"), (uint64_t[]){ rec, caller }, 2,
				 &ret, &err) && !ret, "%s", err.msg);
	k->watch_pc = tracer;
	k->watch_hits = k->watch_locked = 0;
	ck_assert_msg(!kern_call(k, kern_sym(k, "aarch64_insn_write_literal_u64"),
				 (uint64_t[]){ lit, v }, 2, &ret, &err) && !ret, "%s", err.msg);
	ck_assert_uint_eq(k->watch_hits, 1);
	ck_assert_uint_eq(k->watch_locked, 1);
	kern_close(k);
}
END_TEST

static void ev(struct kev_log *l, enum kev_kind k, uint64_t a, uint64_t v,
	       unsigned size, int locked)
{
	struct kev e = { .kind = k, .addr = a, .value = v, .size = size, .locked = locked };

	ck_assert(!kev_push(l, &e));
}

/* The comparison's rules on hand-made sequences: a model barrier the
 * kernel lacks is a difference, the kernel's extra ones are understood,
 * a reordered store is a difference. */
START_TEST(comparison_rules)
{
	struct kev_log k = { 0 }, m = { 0 };
	struct kdiff_result r;

	ev(&m, KEV_STORE, 0x100, 1, 8, 0);
	ev(&m, KEV_DSB, 0, 0, 0xb, 0);
	ev(&m, KEV_STORE, 0x200, 2, 4, 0);
	ev(&k, KEV_STORE, 0x100, 1, 8, 1);
	ev(&k, KEV_DSB, 0, 0, 0xa, 0); /* only ishst: weaker than the model's */
	ev(&k, KEV_STORE, 0x200, 2, 4, 1);
	kdiff_compare(&k, &m, &r);
	ck_assert_int_eq(r.verdict, KDIFF_DIFFERENT);
	ck_assert_msg(strstr(r.first, "before access 2"), "%s", r.first);

	k.v[1].size = 0xb;
	ev(&k, KEV_ISB, 0, 0, 0, 0); /* more than the model asks, at the end */
	kdiff_compare(&k, &m, &r);
	ck_assert_int_eq(r.verdict, KDIFF_UNDERSTOOD);
	ck_assert_uint_eq(r.understood, KDIFF_U_FIXMAP_BARRIERS);

	k.v[0].addr = 0x200; /* the two stores swapped */
	k.v[2].addr = 0x100;
	kdiff_compare(&k, &m, &r);
	ck_assert_int_eq(r.verdict, KDIFF_DIFFERENT);
	ck_assert_msg(strstr(r.first, "access 1"), "%s", r.first);
	kev_free(&k);
	kev_free(&m);
}
END_TEST

START_TEST(every_shim_says_what_it_means)
{
	unsigned n = 0;

	for (const struct kshim *s; (s = kshim_get(n)); n++)
		ck_assert_msg(s->name && s->stands_for && *s->semantics && s->fn, "%u", n);
	ck_assert_uint_ge(n, 10);
	ck_assert_ptr_nonnull(kshim_find("__set_fixmap"));
	ck_assert_ptr_null(kshim_find("stop_machine_cpuslocked"));
}
END_TEST

static Suite *kernel_diff_suite(void)
{
	Suite *s = suite_create("kernel_diff");
	TCase *t = tcase_create("kernel_diff");

	tcase_add_test(t, debian_6_12_is_same_or_understood_on_every_transition);
	tcase_add_loop_test(t, each_mutated_kernel_is_reported_at_its_transition, 0,
			    sizeof(mutants) / sizeof(mutants[0]));
	tcase_add_test(t, missing_objects_are_named_with_make_kernel);
	tcase_add_test(t, user_objects_give_the_sites);
	tcase_add_test(t, literal_write_logs_every_effect_in_order);
	tcase_add_test(t, a_kernel_taken_again_runs_as_opened);
	tcase_add_test(t, step_names_are_made_once_and_name_the_line);
	tcase_add_test(t, bug_is_reported_with_its_file_and_line);
	tcase_add_test(t, data_symbols_hold_a_booted_kernels_values);
	tcase_add_test(t, comparison_rules);
	tcase_add_test(t, patch_map_is_traced_under_patch_lock);
	tcase_add_test(t, every_shim_says_what_it_means);
	suite_add_tcase(s, t);
	return s;
}
FTV_SUITE(kernel_diff, kernel_diff_suite)
