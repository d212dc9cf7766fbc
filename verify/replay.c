/* ftv replay: the batches over a captured layout and the report (see
 * verify/replay.h). */
#include "verify/replay_int.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "util/json.h"
#include "util/vec.h"
#include "verify/mutant.h"

/* Lines of each kind printed before "... and N more". */
#define REPLAY_LIST_MAX 10

struct replay_ctx {
	const struct replay_config *cfg;
	struct replay_map m;
	struct replay_result *res;
	FILE *out;          /* text report, NULL with --json */
	FILE *vout;         /* violations' world reports */
	int have_caller;
	struct world_boot_failure *bootfail;
	size_t nbootfail, capbootfail;
	const struct ftv_mutant *mutant;
	unsigned char *mod_ever; /* per module: some batch's world loaded it */
	struct replay_batches bs;
	size_t nb;          /* batches in the layout */
	double t0;
};

static double wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long peak_rss_kb(void)
{
	struct rusage ru;

	return getrusage(RUSAGE_SELF, &ru) ? 0 : ru.ru_maxrss;
}

/* "func+0x4/0x84", from the layout (no aspace needed). */
static const char *where(const struct sim_layout_site *s, uint64_t addr,
			 char *buf, size_t n)
{
	if (!s->func)
		snprintf(buf, n, "0x%016" PRIx64, addr);
	else if (s->has_fsize)
		snprintf(buf, n, "%s+0x%" PRIx64 "/0x%" PRIx64, s->func,
			 addr - s->faddr, s->fsize);
	else
		snprintf(buf, n, "%s+0x%" PRIx64, s->func, addr - s->faddr);
	return buf;
}

static void words(const struct sim_layout_site *s, char *buf, size_t n)
{
	size_t k = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < s->nwords && k + 10 < n; i++)
		k += snprintf(buf + k, n - k, "%s%08x", i ? ":" : "", s->words[i]);
	if (!s->nwords)
		snprintf(buf, n, "-");
}

/* The sites init_nop refused in a batch's world (the kernel's in every
 * world, a module's in each world that loads it): each is reported once,
 * in the order the batches found them. */
static int learn_boot_failures(struct replay_ctx *x,
			       const struct replay_batch_result *r,
			       struct ftv_err *err)
{
	for (size_t i = 0; i < r->nbf; i++) {
		long si = replay_site_at_ip(&x->m, r->bf[i].ip);

		if (si >= 0 && x->m.status[x->m.site_of[si]] == RS_VALIDATE)
			continue;
		if (VEC_RESERVE(x->bootfail, x->capbootfail, x->nbootfail + 1))
			return ftv_errf(err, "out of memory");
		x->bootfail[x->nbootfail++] = r->bf[i];
		if (si >= 0)
			x->m.status[x->m.site_of[si]] = RS_VALIDATE;
	}
	return 0;
}

/* A batch is done: its lines, its counts, in batch order. */
static int merge_batch(void *ctx, size_t b, const struct replay_batch_result *r,
		       struct ftv_err *err)
{
	struct replay_ctx *x = ctx;
	struct replay_result *res = x->res;
	const size_t *members = x->bs.elig + b * x->bs.batch;
	size_t n = x->bs.nelig - b * x->bs.batch;

	if (n > x->bs.batch)
		n = x->bs.batch;
	if (!x->have_caller && x->bs.have_caller) {
		x->have_caller = 1;
		res->caller = x->bs.caller;
		res->via_plt = x->bs.via_plt;
	}
	if (learn_boot_failures(x, r, err))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int mi = x->m.mod_of[x->m.site_of[members[i]]];

		if (mi >= 0)
			x->mod_ever[mi] = 1;
	}
	if (r->violations && x->out)
		fprintf(x->out, "batch %zu: %zu violation%s (see below)\n", b + 1,
			r->violations, r->violations == 1 ? "" : "s");
	if (r->nreport)
		fwrite(r->report, 1, r->nreport, x->vout);
	res->violations += r->violations;
	res->replayed += r->replayed;
	res->func_calls += r->func_calls;
	res->tracer_calls += r->tracer_calls;
	res->plans += r->plans;
	res->steps += r->steps;
	res->batches++;
	/* a terminal's: one line, rewritten (the caller clears it) */
	if (x->cfg->progress)
		fprintf(x->cfg->progress, "\r\033[Kreplay: batch %zu/%zu done, %zu sites so far, "
			"%zu violations, %.0f s", b + 1, x->nb, res->replayed,
			res->violations, wall() - x->t0);
	return 0;
}

static size_t count(const struct replay_ctx *x, enum replay_status st)
{
	size_t n = 0;

	for (size_t i = 0; i < x->m.l->nsites; i++)
		n += x->m.status[i] == st;
	return n;
}

/* Why a module's site out of ftrace_caller's reach has no PLT to use. */
static const char *module_plt_why(const struct replay_ctx *x, size_t li,
				  char *buf, size_t n)
{
	int mi = x->m.mod_of[li];
	uint64_t plt = mi >= 0 ? x->m.place.mods[mi].plt : 0;

	if (!plt)
		snprintf(buf, n, ": the module's ftrace PLT is unknown, not replayed");
	else
		snprintf(buf, n, ": nor its module's ftrace PLT at 0x%016" PRIx64
			 ", not replayed", plt);
	return buf;
}

/* The modules that could not be placed, with why, and their sites. */
static void list_unplaced(struct replay_ctx *x)
{
	const struct sim_layout_placement *p = &x->m.place;
	size_t shown = 0;

	if (!p->none)
		return;
	fprintf(x->out, "modules not placed: %zu (%zu site%s not replayed)\n",
		p->none, x->res->unplaced, x->res->unplaced == 1 ? "" : "s");
	for (size_t i = 0; i < p->nmods; i++) {
		size_t n = 0;

		if (p->mods[i].how != SIM_PLACE_NONE)
			continue;
		if (++shown > REPLAY_LIST_MAX)
			continue;
		for (size_t k = 0; k < x->m.l->nsites; k++)
			n += x->m.mod_of[k] == (int)i;
		fprintf(x->out, "  %s (%zu site%s): %s\n", p->mods[i].name, n,
			n == 1 ? "" : "s", p->mods[i].why);
	}
	if (shown > REPLAY_LIST_MAX)
		fprintf(x->out, "  ... and %zu more\n", shown - REPLAY_LIST_MAX);
}

/* "modules: ..." under the kernel line: where the loader model put them. */
static void print_modules(const struct replay_ctx *x, FILE *out)
{
	const struct sim_layout_placement *p = &x->m.place;
	const struct replay_result *r = x->res;

	if (!p->nmods)
		return;
	fprintf(out, "modules: %zu with %zu sites: %zu at their captured addresses, "
		"%zu placed by the loader in the direct window", p->nmods,
		r->module_sites, p->captured, p->direct);
	if (p->direct_hi)
		fprintf(out, " [0x%016" PRIx64 ", 0x%016" PRIx64 ")", p->direct_lo,
			p->direct_hi);
	fprintf(out, ", %zu in the PLT window", p->plt);
	if (p->plt_hi)
		fprintf(out, " [0x%016" PRIx64 ", 0x%016" PRIx64 ")", p->plt_lo,
			p->plt_hi);
	fprintf(out, "%s, %zu not placed\n", x->cfg->far_modules ?
		" (--far-modules)" : "", p->none);
}

static void count_modules(struct replay_ctx *x)
{
	const struct sim_layout_placement *p = &x->m.place;
	struct replay_result *r = x->res;

	r->modules = p->nmods;
	r->modules_direct = p->direct;
	r->modules_plt = p->plt;
	r->modules_captured = p->captured;
	r->modules_unplaced = p->none;
	for (size_t i = 0; i < x->m.l->nsites; i++) {
		r->module_sites += x->m.mod_of[i] >= 0;
		r->unplaced += x->m.status[i] == RS_UNPLACED;
	}
}

static void list_sites(struct replay_ctx *x, enum replay_status want,
		       const char *title)
{
	const struct sim_layout *l = x->m.l;
	size_t n = 0, total = count(x, want);
	char a[256], b[128];

	if (total)
		fprintf(x->out, "%s: %zu\n", title, total);
	for (size_t i = 0; i < l->nsites; i++) {
		const struct sim_layout_site *s = &l->sites[i];

		if (x->m.status[i] != want)
			continue;
		if (++n > REPLAY_LIST_MAX)
			continue;
		words(s, b, sizeof(b));
		switch (want) {
		case RS_MISALIGNED:
			fprintf(x->out, "  Misaligned patch-site %s: literal at 0x%016" PRIx64
				" is not 8-byte aligned; words %s\n",
				where(s, s->faddr, a, sizeof(a)), s->faddr - 8, b);
			break;
		case RS_RANGE:
		case RS_MODULE: {
			uint64_t d = s->ip > x->res->caller ? s->ip - x->res->caller
							    : x->res->caller - s->ip;

			fprintf(x->out, "  %s [%s]: BL at 0x%016" PRIx64 " cannot reach "
				"ftrace_caller at 0x%016" PRIx64 " (%" PRIu64 " MiB away, "
				"BL reaches +/-128 MiB)%s\n",
				where(s, s->ip, a, sizeof(a)), s->module, s->ip,
				x->res->caller, d >> 20,
				want == RS_MODULE ? module_plt_why(x, i, b, sizeof(b))
						  : ": not replayed");
			break;
		}
		case RS_OTHER:
			fprintf(x->out, "  %s: kind %s, words %s: not a CALL_OPS site\n",
				where(s, s->has_ip ? s->ip : s->entry, a, sizeof(a)),
				sim_layout_kind_name(s->kind), b);
			break;
		case RS_NOROOM:
			fprintf(x->out, "  %s: function too small for a synthetic body\n",
				where(s, s->ip, a, sizeof(a)));
			break;
		default:
			break;
		}
	}
	if (n > REPLAY_LIST_MAX)
		fprintf(x->out, "  ... and %zu more\n", n - REPLAY_LIST_MAX);
}

static void list_validate(struct replay_ctx *x)
{
	char a[256];

	if (x->nbootfail)
		fprintf(x->out, "validate failures: %zu\n", x->nbootfail);
	for (size_t i = 0; i < x->nbootfail && i < REPLAY_LIST_MAX; i++) {
		const struct world_boot_failure *f = &x->bootfail[i];
		long si = replay_site_at_ip(&x->m, f->ip);
		const struct sim_layout_site *s =
			si >= 0 ? &x->m.l->sites[x->m.site_of[si]] : NULL;

		fprintf(x->out, "  ftrace failed to modify [<%016" PRIx64 ">] %s: "
			"actual 0x%08x, expected 0x%08x (init_nop)\n", f->addr,
			s ? where(s, f->addr, a, sizeof(a)) : "?", f->actual,
			f->expected);
	}
	if (x->nbootfail > REPLAY_LIST_MAX)
		fprintf(x->out, "  ... and %zu more\n",
			x->nbootfail - REPLAY_LIST_MAX);
}

static void print_json(FILE *out, const struct replay_config *c,
		       const struct sim_layout *l, const struct replay_result *r)
{
	struct json j;

	json_init(&j, out);
	json_begin_object(&j);
	json_key_str(&j, "layout", c->layout);
	json_key_str(&j, "kernel", l->kernel ? l->kernel : "-");
	json_key_str(&j, "arch", l->arch ? l->arch : "-");
	json_key_u64(&j, "sites", r->layout_sites);
	json_key_u64(&j, "table_sites", r->table_sites);
	json_key_u64(&j, "misaligned", r->misaligned);
	json_key_u64(&j, "out_of_range", r->out_of_range);
	json_key_u64(&j, "need_plt", r->need_plt);
	json_key_u64(&j, "other_kind", r->other_kind);
	json_key_u64(&j, "validate_failures", r->validate);
	json_key_u64(&j, "replayed", r->replayed);
	json_key_u64(&j, "batches", r->batches);
	json_key_u64(&j, "batches_total", r->nbatches);
	json_key_u64(&j, "cpus", c->ncpus ? c->ncpus : 4);
	json_key_u64(&j, "seed", c->seed);
	json_key_u64(&j, "calls", r->func_calls);
	json_key_u64(&j, "tracer_calls", r->tracer_calls);
	json_key_u64(&j, "plans", r->plans);
	json_key_u64(&j, "steps", r->steps);
	json_key_u64(&j, "violations", r->violations);
	json_key_u64(&j, "modules", r->modules);
	json_key_u64(&j, "modules_captured", r->modules_captured);
	json_key_u64(&j, "modules_direct", r->modules_direct);
	json_key_u64(&j, "modules_plt", r->modules_plt);
	json_key_u64(&j, "modules_unplaced", r->modules_unplaced);
	json_key_u64(&j, "module_sites", r->module_sites);
	json_key_u64(&j, "unplaced", r->unplaced);
	json_key_u64(&j, "via_plt", r->via_plt);
	json_key_str(&j, "mutate", c->mutate ? c->mutate : "none");
	json_key_u64(&j, "jobs", r->jobs);
	json_key_double(&j, "wall_s", r->wall_s, 3);
	json_key_double(&j, "setup_s", r->setup_s, 3);
	json_key(&j, "peak_rss_kb");
	json_i64(&j, r->peak_rss_kb);
	json_end_object(&j);
	json_newline(&j);
}

static int check_header(const struct replay_config *c, struct sim_layout *l,
			struct replay_result *r, struct ftv_err *err)
{
	r->layout_sites = l->nsites;
	if (!replay_arch(l->arch, c->layout, err))
		return -1;
	if (l->has_table) {
		r->table_sites = l->table_entries - l->table_null;
		if (r->table_sites != l->nsites)
			return ftv_errf(err, "%s: %zu sites, but the kernel's table has "
					"%" PRIu64 " entries - %" PRIu64 " null = %zu: the "
					"capture lost or invented sites", c->layout, l->nsites,
					l->table_entries, l->table_null, r->table_sites);
	}
	return 0;
}

/* The records init_nop'ed in the worlds run: the kernel's, and those of
 * every module some batch loaded. */
static size_t inited(const struct replay_ctx *x)
{
	size_t n = 0;

	if (!x->res->batches)
		return 0;
	for (size_t i = 0; i < x->m.nsites; i++) {
		int mi = x->m.mod_of[x->m.site_of[i]];

		n += mi < 0 || x->mod_ever[mi];
	}
	return n;
}

/* How many batches of nb the run runs. */
static size_t running(const struct replay_config *c, size_t nb)
{
	size_t left = c->first_batch < nb ? nb - c->first_batch : 0;

	return c->max_batches && c->max_batches < left ? c->max_batches : left;
}

/* --jobs, or one per online core; never more than the batches. */
static unsigned jobs(const struct replay_config *c)
{
	long n = c->jobs ? (long)c->jobs : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n > REPLAY_MAX_JOBS ? REPLAY_MAX_JOBS : (unsigned)n;
}

int replay_run(const struct replay_config *c, FILE *out,
	       struct replay_result *res, struct ftv_err *err)
{
	struct replay_ctx x = { .cfg = c, .res = res, .t0 = wall() };
	size_t batch = c->batch ? c->batch : REPLAY_DEFAULT_BATCH;
	size_t *elig = NULL, nelig = 0, nb, end;
	struct sim_layout *l;
	char *vbuf = NULL;
	size_t vlen = 0;
	int ret = -1;

	memset(res, 0, sizeof(*res));
	if (c->mutate) {
		x.mutant = ftv_mutant_find(c->mutate);
		if (!x.mutant)
			return ftv_errf(err, "no mutant named '%s'", c->mutate);
		if (ftv_mutant_check(x.mutant, FTV_SCHEME_CALLOPS, err))
			return -1;
	}
	l = sim_layout_load(c->layout, err);
	if (!l)
		return -1;
	if (check_header(c, l, res, err) ||
	    replay_map_build(&x.m, l, c->layout, c->far_modules, err))
		goto out;
	count_modules(&x);
	x.out = c->json ? NULL : out;
	x.vout = open_memstream(&vbuf, &vlen);
	x.mod_ever = calloc(x.m.place.nmods ? x.m.place.nmods : 1, 1);
	elig = calloc(x.m.nsites ? x.m.nsites : 1, sizeof(*elig));
	if (!x.vout || !elig || !x.mod_ever) {
		ftv_errf(err, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < x.m.nsites; i++)
		elig[nelig++] = x.m.order[i];
	res->callops_sites = x.m.nsites;
	res->nbatches = x.nb = nb = (nelig + batch - 1) / batch;
	if (c->first_batch && c->first_batch >= nb) {
		ftv_errf(err, "%s: --first-batch %zu, but the layout makes %zu "
			 "batch%s of %zu sites", c->layout, c->first_batch + 1, nb,
			 nb == 1 ? "" : "es", batch);
		goto out;
	}
	if (x.out) {
		fprintf(out, "replay: %s\n", c->layout);
		fprintf(out, "kernel: %s, arch %s, %s addresses, %zu text range%s\n",
			l->kernel ? l->kernel : "-", l->arch, sim_layout_addresses(l),
			l->ntexts, l->ntexts == 1 ? "" : "s");
		print_modules(&x, out);
		if (l->has_table)
			fprintf(out, "sites: %zu in the layout, %zu in the kernel's table "
				"(%" PRIu64 " entries - %" PRIu64 " null): match\n",
				l->nsites, res->table_sites, l->table_entries, l->table_null);
		else
			fprintf(out, "sites: %zu in the layout (no kernel table to count "
				"against)\n", l->nsites);
		fprintf(out, "batches: %zu of up to %zu sites on %u CPUs, seed %" PRIu64
			", running %zu", nb, batch, c->ncpus ? c->ncpus : 4, c->seed,
			running(c, nb));
		if (c->first_batch)
			fprintf(out, " from batch %zu", c->first_batch + 1);
		fputc('\n', out);
		fflush(out);
	}
	/* The worlds need only the placed copy (x.m.l): the layout as read
	 * goes before they are built. */
	sim_layout_free(l);
	l = NULL;
	x.bs = (struct replay_batches){ .cfg = c, .m = &x.m, .mutant = x.mutant,
					.elig = elig, .nelig = nelig, .batch = batch };
	end = c->first_batch + running(c, nb);
	res->jobs = jobs(c);
	res->setup_s = wall() - x.t0;
	if (replay_batches_run(&x.bs, c->first_batch, end, res->jobs, merge_batch, &x,
			       err))
		goto out;
	res->misaligned = count(&x, RS_MISALIGNED);
	res->out_of_range = count(&x, RS_RANGE);
	res->need_plt = count(&x, RS_MODULE);
	res->other_kind = count(&x, RS_OTHER) + count(&x, RS_NOROOM);
	res->validate = x.nbootfail;
	res->replayable = count(&x, RS_OK);
	fflush(x.vout);
	res->wall_s = wall() - x.t0;
	res->peak_rss_kb = peak_rss_kb();
	if (c->json) {
		print_json(out, c, x.m.l, res);
	} else {
		list_sites(&x, RS_MISALIGNED, "misaligned");
		list_sites(&x, RS_RANGE, "out of BL range of ftrace_caller");
		list_sites(&x, RS_MODULE, "needing a PLT");
		list_sites(&x, RS_OTHER, "not CALL_OPS");
		list_sites(&x, RS_NOROOM, "no room for a body");
		list_unplaced(&x);
		list_validate(&x);
		fprintf(out, "misaligned %zu, out of range %zu, needing a PLT %zu, "
			"validate failures %zu, other kinds %zu\n", res->misaligned,
			res->out_of_range, res->need_plt, res->validate, res->other_kind);
		if (x.have_caller)
			fprintf(out, "ftrace_caller: 0x%016" PRIx64 "\n", res->caller);
		if (res->modules)
			fprintf(out, "module sites: %zu, %zu not placed, %zu calling "
				"ftrace_caller through their module's PLT\n",
				res->module_sites, res->unplaced, res->via_plt);
		fprintf(out, "init_nop: %zu records, %zu refused\n", inited(&x),
			x.nbootfail);
		fprintf(out, "replayed: %zu sites enabled and disabled in "
			"%zu batch%s of %zu; %" PRIu64 " calls, %" PRIu64 " tracer calls, "
			"%" PRIu64 " plans, %" PRIu64 " steps\n", res->replayed, res->batches,
			res->batches == 1 ? "" : "es", nb, res->func_calls,
			res->tracer_calls, res->plans, res->steps);
		if (vlen)
			fwrite(vbuf, 1, vlen, out);
		fprintf(out, "violations: %zu\n", res->violations);
		fprintf(out, "time: %.1f s wall, peak RSS %ld MiB\n", res->wall_s,
			res->peak_rss_kb / 1024);
	}
	ret = 0;
out:
	if (x.vout)
		fclose(x.vout);
	free(vbuf);
	free(elig);
	free(x.mod_ever);
	free(x.bootfail);
	replay_map_free(&x.m);
	sim_layout_free(l);
	return ret;
}
