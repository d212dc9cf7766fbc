/* make bench: seed 000's CALL_OPS table (bench/overhead.h) from the kernels
 * themselves: Linux 6.1 (before CALL_OPS: DYNAMIC_FTRACE_WITH_REGS) and
 * 6.12 (CALL_OPS), each built by `make kernel`, with the core's
 * kernel/trace/ftrace.o loaded too. Per row, the state a kernel reaches
 * once the sample module's ops are registered (samples/ftrace/ftrace-ops.c:
 * kzalloc'ed ops, so FTRACE_OPS_FL_DYNAMIC, each with a one-entry filter:
 * R on the tracee, I on another function) is set up and ftv_bench_tracee
 * is called N times on the kernel CPU, counting emulated instructions.
 *
 * What runs for real: the patch sites' transitions (ftrace_init_nop,
 * ftrace_make_call/modify_call/make_nop, 6.1's ftrace_update_ftrace_func),
 * ftrace_caller, 6.12's ftrace_find_unique_ops choosing each site's ops,
 * and the core's list function (arch_ftrace_ops_list_func) walking the
 * ops and testing their hashes. What is modelled: the ops list and the
 * filter hashes are written directly, laid out from the builds' DWARF (as
 * register_ftrace_function and ftrace_set_filter_ip would leave them:
 * one bucket, size_bits 0); the core's choice of the traced function
 * (update_ftrace_function: a dynamic ops always gets the list function in
 * 6.1) is applied here, citing the source; the tracer is
 * ftrace_stub_graph (a lone RET, like the sample's nop tracer; a function
 * of its own, so its entries are counted: every row checks that the
 * tracer ran relevant x calls times); rcu_is_watching is a shim (no
 * instructions).
 *
 *   kernel_bench BUILD_DIR [CALLS]   (BUILD_DIR: build/, holding kernel/6.1,
 *                                     kernel/6.12 and bench/{args,callops}/tracee.o) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/kern.h"

static const struct { unsigned r, i; } rows[] = {
	{ 0, 0 }, { 0, 1 }, { 0, 2 }, { 0, 10 }, { 0, 100 },
	{ 1, 1 }, { 1, 2 }, { 1, 10 }, { 1, 100 },
	{ 1, 0 }, { 2, 0 }, { 10, 0 }, { 100, 0 },
};
#define NROWS (sizeof(rows) / sizeof(rows[0]))

struct kb {
	const char *version;
	struct kern *k;
	int callops;
	uint64_t tracee, other;   /* the sites' patched words (rec->ip) */
	uint64_t rec, alloc;
	int calling;              /* the tracee's site: 0 NOP, 1 calls */
	/* layout facts */
	uint64_t o_next, o_flags, o_func_hash, h_filter, h_notrace, x_bits,
		 x_buckets, x_count, e_ip, sz_ops, sz_hash, sz_ohash, sz_entry,
		 fl_enabled, fl_dynamic;
};

static int fact(struct kb *b, const char *n, uint64_t *v)
{
	struct ftv_err err = { "" };

	if (kern_fact(&b->k->lay, n, v, &err)) {
		fprintf(stderr, "kernel_bench: %s: %s\n", b->version, err.msg);
		return -1;
	}
	return 0;
}

static uint64_t take(struct kb *b, uint64_t n)
{
	uint64_t a = b->alloc;

	b->alloc += (n + 15) & ~15ull;
	return a;
}

static int call(struct kb *b, const char *fn, uint64_t a0, uint64_t a1,
		uint64_t a2, uint64_t *ret)
{
	struct ftv_err err = { "" };
	uint64_t args[3] = { a0, a1, a2 }, r = 0, f = kern_sym(b->k, fn);

	if (!f || sim_image_stub_name(b->k->img, f))
		return fprintf(stderr, "kernel_bench: %s: no %s\n", b->version, fn), -1;
	if (kern_call(b->k, f, args, 3, &r, &err))
		return fprintf(stderr, "kernel_bench: %s: %s: %s\n", b->version, fn, err.msg), -1;
	if (ret)
		*ret = r;
	else if (r)
		return fprintf(stderr, "kernel_bench: %s: %s returned %lld\n", b->version, fn,
			       (long long)r), -1;
	return 0;
}

static uint64_t site_of(struct kern *k, const char *func)
{
	for (size_t i = 0; i < sim_image_nsites(k->img); i++)
		if (!strcmp(sim_image_site(k->img, i)->funcname, func))
			return sim_image_site(k->img, i)->addr;
	return 0;
}

static int open_kb(struct kb *b, const char *build, const char *version, int callops)
{
	char dir[4096], tracee[4200], core[4200];
	char *extra[2] = { tracee, core };
	struct ftv_err err = { "" };

	memset(b, 0, sizeof(*b));
	b->version = version;
	b->callops = callops;
	snprintf(dir, sizeof(dir), "%s/kernel/%s", build, version);
	snprintf(tracee, sizeof(tracee), "%s/bench/%s/tracee.o", build, callops ? "callops" : "args");
	snprintf(core, sizeof(core), "%s/kernel/trace/ftrace.o", dir);
	if (!(b->k = kern_open(dir, extra, 2, &err)))
		return fprintf(stderr, "kernel_bench: %s (make kernel KERNEL_VERSION=%s)\n", err.msg,
			       version), -1;
	if (fact(b, "ftrace_ops.next", &b->o_next) || fact(b, "ftrace_ops.flags", &b->o_flags) ||
	    fact(b, "ftrace_ops.func_hash", &b->o_func_hash) ||
	    fact(b, "ftrace_ops_hash.filter_hash", &b->h_filter) ||
	    fact(b, "ftrace_ops_hash.notrace_hash", &b->h_notrace) ||
	    fact(b, "ftrace_hash.size_bits", &b->x_bits) ||
	    fact(b, "ftrace_hash.buckets", &b->x_buckets) ||
	    fact(b, "ftrace_hash.count", &b->x_count) || fact(b, "ftrace_func_entry.ip", &b->e_ip) ||
	    fact(b, "sizeof.ftrace_ops", &b->sz_ops) || fact(b, "sizeof.ftrace_hash", &b->sz_hash) ||
	    fact(b, "sizeof.ftrace_ops_hash", &b->sz_ohash) ||
	    fact(b, "sizeof.ftrace_func_entry", &b->sz_entry) ||
	    fact(b, "FTRACE_OPS_FL_ENABLED", &b->fl_enabled) ||
	    fact(b, "FTRACE_OPS_FL_DYNAMIC", &b->fl_dynamic))
		return -1;
	b->tracee = site_of(b->k, "ftv_bench_tracee");
	b->other = site_of(b->k, "ftv_bench_other");
	if (!b->tracee || !b->other)
		return fprintf(stderr, "kernel_bench: %s: no tracee sites\n", version), -1;
	b->rec = b->k->scratch;
	/* boot: ftrace_init_nop on both sites (kernel/trace/ftrace.c
	 * ftrace_nop_initialize) */
	sim_write64(b->k->as, b->rec + b->k->lay.dyn_ftrace_flags, 0);
	sim_write64(b->k->as, b->rec + b->k->lay.dyn_ftrace_ip, b->other);
	if (call(b, "ftrace_init_nop", 0, b->rec, 0, NULL))
		return -1;
	sim_write64(b->k->as, b->rec + b->k->lay.dyn_ftrace_ip, b->tracee);
	return call(b, "ftrace_init_nop", 0, b->rec, 0, NULL);
}

/* One registered ops filtered on ip, linked at the head of
 * ftrace_ops_list (kernel/trace/ftrace.c add_ftrace_ops). */
static void add_ops(struct kb *b, uint64_t ip)
{
	struct sim_aspace *as = b->k->as;
	uint64_t ops = take(b, b->sz_ops), oh = take(b, b->sz_ohash);
	uint64_t h = take(b, b->sz_hash), bucket = take(b, 8), e = take(b, b->sz_entry);
	uint64_t head = kern_sym(b->k, "ftrace_ops_list"), first = 0;

	sim_read64(as, head, &first);
	sim_write64(as, ops + b->k->lay.ops_func, kern_sym(b->k, "ftrace_stub_graph"));
	sim_write64(as, ops + b->o_flags, b->fl_enabled | b->fl_dynamic);
	sim_write64(as, ops + b->o_func_hash, oh);
	sim_write64(as, ops + b->o_next, first);
	sim_write64(as, oh + b->h_filter, h);
	sim_write64(as, oh + b->h_notrace, 0);     /* empty (ftrace_hash_empty) */
	sim_write64(as, h + b->x_bits, 0);        /* one bucket */
	sim_write64(as, h + b->x_buckets, bucket);
	sim_write64(as, h + b->x_count, 1);
	sim_write64(as, bucket, e);                /* hlist_head.first */
	sim_write64(as, e, 0);                     /* hlist_node.next */
	sim_write64(as, e + 8, bucket);            /* .pprev */
	sim_write64(as, e + b->e_ip, ip);
	sim_write64(as, head, ops);
}

/* Row (r, i): fresh ops, then the tracee's site as the core leaves it. */
static int set_row(struct kb *b, unsigned r, unsigned i)
{
	struct sim_aspace *as = b->k->as;
	uint64_t caller = kern_sym(b->k, "ftrace_caller");

	b->alloc = b->k->scratch + 0x1000;
	sim_write64(as, kern_sym(b->k, "ftrace_ops_list"), kern_sym(b->k, "ftrace_list_end"));
	for (unsigned n = 0; n < i; n++)
		add_ops(b, b->other);
	for (unsigned n = 0; n < r; n++)
		add_ops(b, b->tracee);
	sim_write64(as, b->rec + b->k->lay.dyn_ftrace_ip, b->tracee);
	/* CALL_OPS: a record with one ops calls it (FTRACE_FL_CALL_OPS_EN:
	 * kernel/trace/ftrace.c __ftrace_hash_rec_update), else the list */
	sim_write64(as, b->rec + b->k->lay.dyn_ftrace_flags,
		    b->callops && r == 1 ? b->k->lay.fl_call_ops_en : 0);
	if (!b->callops) {
		/* update_ftrace_function(): no ops: ftrace_stub; else a
		 * dynamic ops always gets ftrace_ops_list_func
		 * (ftrace_ops_get_list_func) */
		if (call(b, "ftrace_update_ftrace_func",
			 kern_sym(b->k, r + i ? "arch_ftrace_ops_list_func" : "ftrace_stub"),
			 0, 0, NULL))
			return -1;
	}
	if (!r && b->calling) {
		b->calling = 0;
		return call(b, "ftrace_make_nop", 0, b->rec, caller, NULL);
	}
	if (r && !b->calling) {
		b->calling = 1;
		return call(b, "ftrace_make_call", b->rec, caller, 0, NULL);
	}
	if (r && b->callops)
		return call(b, "ftrace_modify_call", b->rec, caller, caller, NULL);
	return 0;
}

static int measure(struct kb *b, unsigned relevant, uint64_t calls, double *per)
{
	uint64_t before = b->k->insns, ret;

	b->k->watch_pc = kern_sym(b->k, "ftrace_stub_graph");
	b->k->watch_hits = 0;
	if (call(b, "ftv_bench_loop", calls, 0, 0, &ret)) /* void */
		return -1;
	if (b->k->watch_hits != relevant * calls)
		return fprintf(stderr, "kernel_bench: %s: the tracer ran %llu times, not %llu\n",
			       b->version, (unsigned long long)b->k->watch_hits,
			       (unsigned long long)(relevant * calls)), -1;
	*per = (double)(b->k->insns - before) / (double)calls;
	return 0;
}

int main(int argc, char **argv)
{
	static struct kb kb[2];
	static const char *const ver[2] = { "6.1", "6.12" };
	double per[2][NROWS];
	uint64_t calls = argc > 2 ? strtoull(argv[2], NULL, 0) : 1000;

	if (argc < 2) {
		fprintf(stderr, "usage: kernel_bench BUILD_DIR [CALLS]\n");
		return 2;
	}
	for (int v = 0; v < 2; v++) {
		if (open_kb(&kb[v], argv[1], ver[v], v == 1))
			return 2;
		for (size_t r = 0; r < NROWS; r++)
			if (set_row(&kb[v], rows[r].r, rows[r].i) || measure(&kb[v], rows[r].r, calls, &per[v][r]))
				return fprintf(stderr, "kernel_bench: %s: row (%u,%u)\n", ver[v],
					       rows[r].r, rows[r].i), 2;
	}
	printf("seed 000's table from the kernels (make kernel): emulated instructions per call\n"
	       "of ftv_bench_tracee, %llu calls; overhead = per call - the (0,0) row's\n",
	       (unsigned long long)calls);
	printf("  Relevant | Irrelevant || 6.1 per call | overhead || 6.12 per call | overhead\n");
	for (size_t r = 0; r < NROWS; r++)
		printf("  %8u | %10u || %12.2f | %8.2f || %13.2f | %8.2f\n", rows[r].r, rows[r].i,
		       per[0][r], per[0][r] - per[0][0], per[1][r], per[1][r] - per[1][0]);
	for (size_t r = 0; r < NROWS; r++)
		if (rows[r].r == 1 && rows[r].i == 0) {
			double o0 = per[0][r] - per[0][0], o1 = per[1][r] - per[1][0];

			printf("(1,0): 6.12 overhead / 6.1 overhead = %.2f / %.2f = %.3f "
			       "(seed 000: 1.86 ns / 13.37 ns = 0.139)\n", o1, o0, o0 ? o1 / o0 : 0);
		}
	for (int v = 0; v < 2; v++)
		kern_close(kb[v].k);
	return 0;
}
