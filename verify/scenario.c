#include "util/str.h"
#include "verify/scenario.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/num.h"
#include "verify/mutant.h"

static int words(char *s, char **w, int max)
{
	int n = 0;

	for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
		w[n++] = t;
	return n;
}

static const char *const op_verbs[] = {
	"ops", "filter", "notrace", "register", "unregister", "direct",
	"direct-modify", "direct-remove", "enable-modules", "run",
};

int scenario_load(const char *path, struct scenario *s, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	int ln = 0;

	if (!f)
		return ftv_errf(err, "%s: cannot open", path);
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->cfg.exec.ncpus = 4;
	s->cfg.exec.policy = EXEC_RANDOM;
	s->cfg.exec.seed = 1;
	s->steps = 100000;
	s->expect_ok = -1;
	while (fgets(line, sizeof(line), f)) {
		char *hash, *t, *w[WORLD_MAX_OBJECTS + 1] = { 0 };
		int n;
		uint64_t v;

		ln++;
		if ((hash = strchr(line, '#')))
			*hash = 0;
		t = ftv_trim(line);
		if (!*t)
			continue;
		n = words(t, w, WORLD_MAX_OBJECTS + 1);
#define BAD(...) do { fclose(f); ftv_errf(err, "%s:%d: ", path, ln); \
	size_t l_ = strlen(err ? err->msg : ""); if (err) snprintf(err->msg + l_, sizeof(err->msg) - l_, __VA_ARGS__); \
	return -1; } while (0)
#define NUM(i) do { if (n <= (i) || ftv_parse_u64(w[i], &v)) BAD("%s needs a number", w[0]); } while (0)
		if (!strcmp(w[0], "name") && n == 2) {
			snprintf(s->name, sizeof(s->name), "%s", w[1]);
		} else if (!strcmp(w[0], "scheme") && n == 2) {
			if (ftv_scheme_parse(w[1], &s->cfg.scheme))
				BAD("unknown scheme '%s' (callops, tramp, mcount, pair, atomic)",
				    w[1]);
			s->scheme_line = ln;
		} else if (!strcmp(w[0], "arch") && n == 2) {
			if (ftv_arch_parse(w[1], &s->arch))
				BAD("unknown arch '%s' (arm64, riscv64)", w[1]);
			s->arch_line = ln;
		} else if (!strcmp(w[0], "objects") || !strcmp(w[0], "modules")) {
			int mod = w[0][0] == 'm';

			for (int i = 1; i < n; i++) {
				unsigned *cnt = mod ? &s->cfg.nmodules : &s->cfg.nobjects;

				if (*cnt >= WORLD_MAX_OBJECTS)
					BAD("too many %s", w[0]);
				snprintf(mod ? s->modules[*cnt] : s->objects[*cnt], 64, "%s", w[i]);
				(*cnt)++;
			}
		} else if (!strcmp(w[0], "far-modules") && n == 1) {
			s->cfg.far_modules = 1;
		} else if (!strcmp(w[0], "cpus")) {
			NUM(1);
			if (!v || v > EXEC_MAX_CPUS)
				BAD("cpus must be 1..%d", EXEC_MAX_CPUS);
			s->cfg.exec.ncpus = (unsigned)v;
		} else if (!strcmp(w[0], "policy") && n == 2) {
			if (exec_policy_parse(w[1], &s->cfg.exec.policy) ||
			    s->cfg.exec.policy == EXEC_EXHAUSTIVE)
				BAD("policy must be random, quantum or pct");
		} else if (!strcmp(w[0], "quantum")) {
			NUM(1);
			s->cfg.exec.quantum = (unsigned)v;
		} else if (!strcmp(w[0], "pct-depth")) {
			NUM(1);
			s->cfg.exec.pct_depth = (unsigned)v;
		} else if (!strcmp(w[0], "seed")) {
			NUM(1);
			s->cfg.exec.seed = v;
		} else if (!strcmp(w[0], "rounds")) {
			NUM(1);
			s->cfg.rounds = (unsigned)v;
		} else if (!strcmp(w[0], "calls")) {
			NUM(1);
			s->cfg.calls = (unsigned)v;
		} else if (!strcmp(w[0], "steps")) {
			NUM(1);
			s->steps = v;
		} else if (!strcmp(w[0], "mutate") && n == 2) {
			const struct ftv_mutant *m = ftv_mutant_find(w[1]);

			if (!m)
				BAD("unknown mutant '%s'", w[1]);
			s->mutant = m;
			s->mutate_line = ln;
		} else if (!strcmp(w[0], "expect") && n >= 2) {
			if (!strcmp(w[1], "ok") && n == 2) {
				s->expect_ok = 1;
			} else if (!strcmp(w[1], "violation")) {
				s->expect_ok = 0;
				for (int i = 2; i < n && s->nexpect < SCN_MAX_KINDS; i++)
					snprintf(s->expect[s->nexpect++], 24, "%s", w[i]);
			} else {
				BAD("expect ok, or expect violation [KIND...]");
			}
		} else {
			size_t k;

			for (k = 0; k < sizeof(op_verbs) / sizeof(op_verbs[0]); k++)
				if (!strcmp(w[0], op_verbs[k]))
					break;
			if (k == sizeof(op_verbs) / sizeof(op_verbs[0]))
				BAD("unknown keyword '%s'", w[0]);
			if (s->nops == SCN_MAX_OPS)
				BAD("too many operations");
			struct scn_op *op = &s->ops[s->nops++];

			snprintf(op->verb, sizeof(op->verb), "%s", w[0]);
			if (n > 1)
				snprintf(op->a, sizeof(op->a), "%s", w[1]);
			if (n > 2)
				snprintf(op->b, sizeof(op->b), "%s", w[2]);
			op->line = ln;
			int need = !strcmp(w[0], "enable-modules") ? 1
				   : (!strcmp(w[0], "register") || !strcmp(w[0], "unregister") ||
				      !strcmp(w[0], "direct-remove") || !strcmp(w[0], "run")) ? 2 : 3;
			if (n != need)
				BAD("'%s' takes %d argument%s", w[0], need - 1, need == 2 ? "" : "s");
		}
#undef NUM
#undef BAD
	}
	fclose(f);
	/* the scheme implies the arch; an arch alone picks its default */
	if (s->arch_line && !s->scheme_line)
		s->cfg.scheme = ftv_arch_default_scheme(s->arch);
	if (!s->arch_line)
		s->arch = ftv_scheme_arch(s->cfg.scheme);
	if (ftv_scheme_check_arch(s->cfg.scheme, s->arch, err))
		return ftv_err_prefix(err, "%s:%d", path,
				      s->arch_line > s->scheme_line ? s->arch_line : s->scheme_line);
	if (ftv_mutant_check(s->mutant, s->cfg.scheme, err))
		return ftv_err_prefix(err, "%s:%d", path, s->mutate_line);
	ftv_mutant_apply(s->mutant, &s->cfg);
	if (!s->name[0])
		return ftv_errf(err, "%s: no name", path);
	if (s->expect_ok < 0)
		return ftv_errf(err, "%s: no expect line", path);
	if (!s->cfg.nobjects)
		return ftv_errf(err, "%s: no objects", path);
	return 0;
}

static int do_op(struct world *w, const struct scenario *s, const struct scn_op *op,
		 struct ftv_err *err)
{
	struct ftrace_ops *ops = NULL;
	uint64_t v;
	int ret;

	if (strcmp(op->verb, "ops") && strcmp(op->verb, "run") &&
	    strcmp(op->verb, "enable-modules")) {
		ops = world_find_ops(w, op->a);
		if (!ops)
			return ftv_errf(err, "%s:%d: no ops named '%s'", s->path, op->line, op->a);
	}
	if (!strcmp(op->verb, "ops"))
		ret = world_ops(w, op->a, op->b, err) ? 0 : -1;
	else if (!strcmp(op->verb, "filter"))
		ret = world_set_filter(w, ops, op->b, err);
	else if (!strcmp(op->verb, "notrace"))
		ret = world_set_notrace(w, ops, op->b, err);
	else if (!strcmp(op->verb, "register"))
		ret = world_register(w, ops, err);
	else if (!strcmp(op->verb, "unregister"))
		ret = world_unregister(w, ops, err);
	else if (!strcmp(op->verb, "direct"))
		ret = world_direct(w, ops, op->b, err);
	else if (!strcmp(op->verb, "direct-modify"))
		ret = world_direct_modify(w, ops, op->b, err);
	else if (!strcmp(op->verb, "direct-remove"))
		ret = world_direct_remove(w, ops, err);
	else if (!strcmp(op->verb, "enable-modules"))
		ret = world_enable_modules(w, err);
	else {
		if (ftv_parse_u64(op->a, &v))
			return ftv_errf(err, "%s:%d: run needs a number", s->path, op->line);
		ret = world_run(w, v, err);
	}
	if (ret)
		ftv_err_prefix(err, "%s:%d: %s %s", s->path, op->line, op->verb, op->a);
	return ret;
}

/* NAME is a corpus object at the scheme's flag set: build/corpus/<set>/ for
 * the hand-written sources, build/corpus/random-<set>/ for the random
 * units. */
static void corpus_object(char *buf, size_t n, const char *dir, const char *set,
			  const char *name)
{
	snprintf(buf, n, "%s/%s/%s.o", dir, set, name);
	if (access(buf, R_OK))
		snprintf(buf, n, "%s/random-%s/%s.o", dir, set, name);
}

int scenario_run(struct scenario *s, const char *corpus_dir,
		 const char *tramp_dir, FILE *out, struct scn_result *res,
		 struct ftv_err *err)
{
	static char paths[2][WORLD_MAX_OBJECTS][1200];
	const char *set = ftv_scheme_corpus_set(s->cfg.scheme);
	struct world *w;
	size_t nx;

	memset(res, 0, sizeof(*res));
	for (unsigned i = 0; i < s->cfg.nobjects; i++) {
		corpus_object(paths[0][i], sizeof(paths[0][i]), corpus_dir, set, s->objects[i]);
		s->cfg.objects[i] = paths[0][i];
	}
	for (unsigned i = 0; i < s->cfg.nmodules; i++) {
		corpus_object(paths[1][i], sizeof(paths[1][i]), corpus_dir, set, s->modules[i]);
		s->cfg.modules[i] = paths[1][i];
	}
	s->cfg.tramp_dir = tramp_dir;
	if (world_new(&s->cfg, &w, err))
		return ftv_err_prefix(err, "%s", s->path);
	for (unsigned i = 0; i < s->nops; i++)
		if (do_op(w, s, &s->ops[i], err)) {
			world_free(w);
			return -1;
		}
	if (world_finish(w, s->steps, err)) {
		world_free(w);
		return ftv_err_prefix(err, "%s", s->path);
	}
	/* the kinds found, each once */
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
	if (s->expect_ok)
		res->verdict_ok = !res->violated;
	else {
		char have[260];

		snprintf(have, sizeof(have), " %s ", res->kinds);
		res->verdict_ok = res->violated;
		for (unsigned i = 0; i < s->nexpect; i++) {
			char want[32];

			snprintf(want, sizeof(want), " %s ", s->expect[i]);
			if (!strstr(have, want))
				res->verdict_ok = 0;
		}
	}
	if (out)
		world_report(w, out);
	if (s->cfg.trace_out)
		exec_trace_print(world_exec(w), s->cfg.trace_out);
	world_stats(w, &res->stats);
	res->trace_hash = exec_trace_hash(world_exec(w));
	world_free(w);
	return 0;
}
