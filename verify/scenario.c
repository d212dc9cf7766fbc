#include "util/str.h"
#include "verify/scenario.h"
#include "verify/trace_json.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "patcher/ftrace_verbs.h"
#include "util/num.h"
#include "verify/mutant.h"

static int copy_word(char *dst, size_t size, const char *word)
{
	size_t l = strlen(word);

	if (l >= size)
		return -1;
	memcpy(dst, word, l + 1);
	return 0;
}

/* Splits at any white space (the same isspace() that trims a line, so a
 * word never holds a \r or \v that writing it back would lose); -1 if
 * there are more than max words. */
static int words(char *s, char **w, int max)
{
	static const char ws[] = " \t\r\n\v\f";
	int n = 0;

	for (char *t = strtok(s, ws); t; t = strtok(NULL, ws)) {
		if (n == max)
			return -1;
		w[n++] = t;
	}
	return n;
}

/* The operations (patcher/ftrace_verbs.h) performed on a world. */
static int w_ops_new(void *ctx, const char *name, char *const *args, int nargs,
		     struct ftv_err *err)
{
	(void)nargs;
	return world_ops(ctx, name, args[0], err) ? 0 : -1;
}

static struct ftrace_ops *w_ops_find(void *ctx, const char *name)
{
	return world_find_ops(ctx, name);
}

static int w_set_filter(void *ctx, struct ftrace_ops *ops, const char *spec, int reset,
			int notrace, struct ftv_err *err)
{
	return world_filter(ctx, ops, spec, reset, notrace, err);
}

static int w_register(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_register(ctx, ops, err);
}

static int w_unregister(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_unregister(ctx, ops, err);
}

static int w_direct(void *ctx, struct ftrace_ops *ops, const char *tramp, struct ftv_err *err)
{
	return world_direct(ctx, ops, tramp, err);
}

static int w_direct_modify(void *ctx, struct ftrace_ops *ops, const char *tramp,
			   struct ftv_err *err)
{
	return world_direct_modify(ctx, ops, tramp, err);
}

static int w_direct_remove(void *ctx, struct ftrace_ops *ops, struct ftv_err *err)
{
	return world_direct_remove(ctx, ops, err);
}

static int w_enable_modules(void *ctx, const char *module, struct ftv_err *err)
{
	return world_enable_modules(ctx, module, err);
}

static int w_load_module(void *ctx, const char *module, struct ftv_err *err)
{
	return world_load_module(ctx, module, err);
}

static int w_unload_module(void *ctx, const char *module, struct ftv_err *err)
{
	return world_unload_module(ctx, module, err);
}

static int w_static_key(void *ctx, int on, const char *key, struct ftv_err *err)
{
	return key ? world_jump_label_key(ctx, key, on, err) : world_static_key(ctx, on, err);
}

static int w_text_poke(void *ctx, const char *site, struct ftv_err *err)
{
	return world_text_poke(ctx, site, err);
}

static int w_run(void *ctx, uint64_t steps, struct ftv_err *err)
{
	return world_run(ctx, steps, err);
}

/* A graph ops is registered like any other: the world knows whether the
 * scheme patches ftrace_graph_call for it. */
static const struct ftrace_target world_target = {
	.name = "scenario",
	.ops_min = 1,
	.ops_max = 1,
	.ops_usage = "NAME TRACER",
	.ops_new = w_ops_new,
	.ops_find = w_ops_find,
	.set_filter = w_set_filter,
	.register_ops = w_register,
	.unregister_ops = w_unregister,
	.direct = w_direct,
	.direct_modify = w_direct_modify,
	.direct_remove = w_direct_remove,
	.enable_modules = w_enable_modules,
	.load_module = w_load_module,
	.unload_module = w_unload_module,
	.static_key = w_static_key,
	.text_poke = w_text_poke,
	.run = w_run,
};

/* An operation's arguments, as the verb reads them. */
static int op_args(const struct scn_op *op, char **av)
{
	int n = 0;

	if (op->a[0])
		av[n++] = (char *)op->a;
	if (n == 1 && op->b[0])
		av[n++] = (char *)op->b;
	if (n == 2 && op->c[0])
		av[n++] = (char *)op->c;
	return n;
}

int scenario_path_is_module(const char *path)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t l = strlen(path);

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (l > strlen(ext[i]) && !strcmp(path + l - strlen(ext[i]), ext[i]))
			return 1;
	return 0;
}

int scenario_add_object(struct scenario *s, const char *dir, const char *path,
			struct ftv_err *err)
{
	char joined[4096], real[PATH_MAX];

	if (s->nuser >= SCN_MAX_USER)
		return ftv_errf(err, "more than %d objects by path", SCN_MAX_USER);
	if (path[0] != '/' && dir && dir[0])
		snprintf(joined, sizeof(joined), "%s/%s", dir, path);
	else
		snprintf(joined, sizeof(joined), "%s", path);
	if (access(joined, R_OK))
		return ftv_errf(err, "%s: %s", joined, strerror(errno));
	if (!realpath(joined, real))
		return ftv_errf(err, "%s: %s", joined, strerror(errno));
	if (strlen(real) >= sizeof(s->user_objects[0]))
		return ftv_errf(err, "%s: path longer than %zu bytes", real,
				sizeof(s->user_objects[0]) - 1);
	snprintf(s->user_objects[s->nuser++], sizeof(s->user_objects[0]), "%s", real);
	return 0;
}

int scenario_add_calls(struct scenario *s, const char *names, struct ftv_err *err)
{
	size_t l = strlen(s->call_list);

	while (*names) {
		size_t n = strcspn(names, ", \t");

		if (n) {
			/* KSYM_NAME_LEN; and a line the writer makes stays
			 * shorter than a line the reader takes */
			if (n >= 512)
				return ftv_errf(err, "'%.40s...' is longer than a kernel symbol "
						"(511 characters)", names);
			if (l + n + 2 >= sizeof(s->call_list))
				return ftv_errf(err, "more than %zu bytes of function names to call",
						sizeof(s->call_list) - 1);
			if (l)
				s->call_list[l++] = ',';
			memcpy(s->call_list + l, names, n);
			l += n;
			s->call_list[l] = 0;
		}
		names += n;
		names += strspn(names, ", \t");
	}
	return 0;
}

int scenario_load(const char *path, struct scenario *s, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return ftv_errf(err, "%s: cannot open", path);
	return scenario_read(f, path, s, err);
}

int scenario_read(FILE *f, const char *path, struct scenario *s, struct ftv_err *err)
{
	char line[2048];
	int ln = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->cfg.exec.ncpus = 4;
	s->cfg.exec.policy = EXEC_RANDOM;
	s->cfg.exec.seed = 1;
	s->steps = 100000;
	s->expect_ok = -1;
	while (fgets(line, sizeof(line), f)) {
		char *hash, *t, *w[WORLD_MAX_OBJECTS + 1] = { 0 };
		size_t len = strlen(line);
		int n;
		uint64_t v;

		ln++;
#define BAD(...) do { fclose(f); ftv_errf(err, "%s:%d: ", path, ln); \
	size_t l_ = strlen(err ? err->msg : ""); if (err) snprintf(err->msg + l_, sizeof(err->msg) - l_, __VA_ARGS__); \
	return -1; } while (0)
#define NUM(i) do { if (n <= (i) || ftv_parse_u64(w[i], &v)) BAD("%s needs a number", w[0]); } while (0)
/* an unsigned field: no silent truncation of 2^32 + 1 to 1 */
#define NUM32(i) do { NUM(i); if (v > UINT32_MAX) BAD("%s: %s is too large", w[0], w[i]); } while (0)
/* a word into a fixed field: refused, not cut, when it does not fit */
#define WORD(dst, size, word) do { \
		if (copy_word(dst, size, word)) \
			BAD("'%.40s...' is too long for %s (at most %d characters)", word, \
			    w[0], (int)(size) - 1); \
	} while (0)
		/* a full buffer without its newline: a longer line, unless the
		 * file ends right there */
		if (len == sizeof(line) - 1 && line[len - 1] != '\n' && fgetc(f) != EOF)
			BAD("line longer than %d characters", (int)sizeof(line) - 2);
		if ((hash = strchr(line, '#')))
			*hash = 0;
		t = ftv_trim(line);
		if (!*t)
			continue;
		if (!strncmp(t, "object", 6) && (t[6] == ' ' || t[6] == '\t')) {
			/* the rest of the line: a path may hold spaces */
			char dir[1024];
			const char *slash = strrchr(path, '/');
			struct ftv_err oerr;

			snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
			if (slash == path)
				snprintf(dir, sizeof(dir), "/");
			if (scenario_add_object(s, dir, ftv_trim(t + 6), &oerr)) {
				fclose(f);
				return ftv_errf(err, "%s:%d: object: %s", path, ln, oerr.msg);
			}
			continue;
		}
		n = words(t, w, WORLD_MAX_OBJECTS + 1);
		if (n < 0)
			BAD("%s: more than %d words", w[0], WORLD_MAX_OBJECTS + 1);
		if (!strcmp(w[0], "name") && n == 2) {
			WORD(s->name, sizeof(s->name), w[1]);
		} else if (!strcmp(w[0], "scheme") && n == 2) {
			char names[256];

			if (ftv_scheme_parse(w[1], &s->cfg.scheme))
				BAD("unknown scheme '%s' (%s)", w[1],
				    ftv_all_schemes(names, sizeof(names)));
			s->scheme_line = ln;
		} else if (!strcmp(w[0], "arch") && n == 2) {
			if (ftv_arch_parse(w[1], &s->arch))
				BAD("unknown arch '%s' (arm64, riscv64)", w[1]);
			s->arch_line = ln;
		} else if (!strcmp(w[0], "objects") || !strcmp(w[0], "modules") ||
			   !strcmp(w[0], "late-modules")) {
			int mod = w[0][0] != 'o', late = w[0][0] == 'l';

			for (int i = 1; i < n; i++) {
				unsigned *cnt = mod ? &s->cfg.nmodules : &s->cfg.nobjects;

				if (*cnt >= WORLD_MAX_OBJECTS)
					BAD("too many %s", w[0]);
				WORD(mod ? s->modules[*cnt] : s->objects[*cnt], sizeof(s->objects[0]),
				     w[i]);
				if (mod)
					s->cfg.module_late[*cnt] = (unsigned char)late;
				(*cnt)++;
			}
		} else if (!strcmp(w[0], "call") && n >= 2) {
			struct ftv_err cerr;

			for (int i = 1; i < n; i++)
				if (scenario_add_calls(s, w[i], &cerr))
					BAD("%s", cerr.msg);
		} else if (!strcmp(w[0], "settle") && n == 1) {
			if (s->settle)
				BAD("settle: one settle line at most");
			for (unsigned i = 0; i < s->nops; i++)
				if (!strcmp(s->ops[i].verb, "run"))
					BAD("settle: the CPUs have run already (line %d); the "
					    "settled updates come before every run line",
					    s->ops[i].line);
			s->settle = s->nops + 1;
		} else if (!strcmp(w[0], "far-modules") && n == 1) {
			s->cfg.far_modules = 1;
		} else if (!strcmp(w[0], "cpus")) {
			NUM(1);
			if (!v || v > EXEC_MAX_CPUS)
				BAD("cpus must be 1..%d", EXEC_MAX_CPUS);
			s->cfg.exec.ncpus = (unsigned)v;
		} else if (!strcmp(w[0], "policy") && n == 2) {
			if (exec_policy_parse(w[1], &s->cfg.exec.policy))
				BAD("policy must be random, quantum, pct or exhaustive");
			s->explore = s->cfg.exec.policy == EXEC_EXHAUSTIVE;
		} else if (!strcmp(w[0], "max-executions")) {
			NUM(1);
			s->max_executions = v;
		} else if (!strcmp(w[0], "workload") && n >= 2) {
			for (int i = 1; i < n; i++) {
				if (s->cfg.ncall >= WORLD_MAX_CALLS)
					BAD("workload: at most %d functions", WORLD_MAX_CALLS);
				snprintf(s->call[s->cfg.ncall++], sizeof(s->call[0]), "%s", w[i]);
			}
		} else if (!strcmp(w[0], "preempt") && n >= 2) {
			for (int i = 1; i < n; i++) {
				if (s->npreempt >= SCN_MAX_PREEMPT)
					BAD("preempt: at most %d points", SCN_MAX_PREEMPT);
				snprintf(s->preempt[s->npreempt++], sizeof(s->preempt[0]), "%s",
					 w[i]);
			}
		} else if (!strcmp(w[0], "observe") && n >= 2) {
			for (int i = 1; i < n; i++) {
				char *end;

				if (s->nobserve >= SCN_MAX_OBSERVE)
					BAD("observe: at most %d granules", SCN_MAX_OBSERVE);
				s->observe[s->nobserve++] = strtoull(w[i], &end, 16);
				if (strncmp(w[i], "0x", 2) || *end)
					BAD("observe: %s is not an address (0x...)", w[i]);
			}
		} else if (!strcmp(w[0], "schedule") && n >= 2) {
			for (int i = 1; i < n; i++) {
				if (s->nsched >= SCN_MAX_SCHED)
					BAD("schedule: at most %d steps", SCN_MAX_SCHED);
				if (verify_step_parse(w[i], EXEC_MAX_CPUS, &s->sched[s->nsched]))
					BAD("schedule: '%s' is no step (cpuN, patcher or sbuf, "
					    "with :VALUE for a choice)", w[i]);
				s->nsched++;
			}
		} else if (!strcmp(w[0], "quantum")) {
			NUM32(1);
			s->cfg.exec.quantum = (unsigned)v;
		} else if (!strcmp(w[0], "cachetype") && n >= 2) {
			for (int i = 1; i < n; i++) {
				if (!strcmp(w[i], "DIC"))
					s->cfg.exec.dic = 1;
				else if (!strcmp(w[i], "IDC"))
					s->cfg.exec.idc = 1;
				else
					BAD("cachetype takes DIC and/or IDC, not '%s'", w[i]);
			}
		} else if (!strcmp(w[0], "pct-depth")) {
			NUM32(1);
			s->cfg.exec.pct_depth = (unsigned)v;
		} else if (!strcmp(w[0], "drain-hold")) {
			NUM32(1);
			s->cfg.exec.drain_hold = (unsigned)v;
		} else if (!strcmp(w[0], "seed")) {
			NUM(1);
			s->cfg.exec.seed = v;
		} else if (!strcmp(w[0], "rounds")) {
			NUM32(1);
			s->cfg.rounds = (unsigned)v;
		} else if (!strcmp(w[0], "calls")) {
			NUM32(1);
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
			} else if (!strcmp(w[1], "verified") && n == 2) {
				s->expect_ok = 1;
				s->expect_verified = 1;
			} else if (!strcmp(w[1], "violation")) {
				s->expect_ok = 0;
				for (int i = 2; i < n; i++) {
					if (s->nexpect == SCN_MAX_KINDS)
						BAD("more than %d violation kinds", SCN_MAX_KINDS);
					WORD(s->expect[s->nexpect], sizeof(s->expect[0]), w[i]);
					s->nexpect++;
				}
			} else {
				BAD("expect ok, expect verified, or expect violation [KIND...]");
			}
		} else {
			const struct ftrace_verb *vb;
			struct ftv_err verr;

			/* words that are keywords above with a bad count */
			if (!strcmp(w[0], "call") || !strcmp(w[0], "workload") ||
			    !strcmp(w[0], "preempt") || !strcmp(w[0], "observe") ||
			    !strcmp(w[0], "schedule"))
				BAD("%s needs at least one argument", w[0]);
			vb = ftrace_verb_find(w[0]);

			if (!vb)
				BAD("unknown keyword '%s'", w[0]);
			if (ftrace_verb_check(vb, &world_target, n - 1, &verr))
				BAD("%s", verr.msg);
			if (n > 4)
				BAD("'%s': too many arguments", w[0]);
			if (s->nops == SCN_MAX_OPS)
				BAD("too many operations");
			struct scn_op *op = &s->ops[s->nops++];

			/* the verb's own name, whichever spelling the file used */
			snprintf(op->verb, sizeof(op->verb), "%s", vb->name);
			if (n > 1)
				WORD(op->a, sizeof(op->a), w[1]);
			if (n > 2)
				WORD(op->b, sizeof(op->b), w[2]);
			if (n > 3)
				WORD(op->c, sizeof(op->c), w[3]);
			op->line = ln;
		}
#undef WORD
#undef NUM32
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
	if (s->expect_verified)
		s->explore = 1;
	for (size_t i = 0; i < s->nsched; i++)
		if (s->sched[i].agent >= (int)s->cfg.exec.ncpus)
			return ftv_errf(err, "%s: schedule: cpu%d, but the scenario has %u CPUs",
					path, s->sched[i].agent, s->cfg.exec.ncpus);
	if ((s->nsched || s->npreempt || s->nobserve) && !s->explore)
		return ftv_errf(err, "%s: schedule, preempt and observe need policy exhaustive", path);
	if (!s->name[0])
		return ftv_errf(err, "%s: no name", path);
	if (s->expect_ok < 0)
		return ftv_errf(err, "%s: no expect line", path);
	return 0;
}

static int do_op(struct world *w, const struct scenario *s, const struct scn_op *op,
		 struct ftv_err *err)
{
	const struct ftrace_verb *v = ftrace_verb_find(op->verb);
	char *av[3];
	int ret;

	if (!v)
		ret = ftv_errf(err, "unknown operation");
	else if (ftrace_core_bug(world_core(w)) && strcmp(v->name, "run") &&
		 strcmp(v->name, "static-key") && strcmp(v->name, "text-poke"))
		/* ftrace_bug() killed ftrace while the CPUs ran (reported as
		 * a violation): the kernel refuses every later ftrace
		 * operation (-ENODEV), and the scenario goes on without it */
		ret = 0;
	else
		ret = ftrace_verb_run(v, &world_target, w, av, op_args(op, av), err);
	if (ret)
		ftv_err_prefix(err, "%s:%d: %s %s", s->path, op->line, op->verb, op->a);
	return ret;
}

int scenario_corpus_object(char *buf, size_t n, const char *corpus_dir, const char *set,
			   const char *name)
{
	snprintf(buf, n, "%s/%s/%s.o", corpus_dir, set, name);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, n, "%s/random-%s/%s.o", corpus_dir, set, name);
	return access(buf, R_OK) ? -1 : 0;
}

void scenario_objects(struct scenario *s, const char *corpus_dir, struct scenario_paths *p)
{
	const char *set = ftv_scheme_corpus_set(s->cfg.scheme);

	for (unsigned i = 0; i < s->cfg.nobjects; i++) {
		scenario_corpus_object(p->objects[i], sizeof(p->objects[i]), corpus_dir, set,
				       s->objects[i]);
		s->cfg.objects[i] = p->objects[i];
	}
	for (unsigned i = 0; i < s->cfg.nmodules; i++) {
		scenario_corpus_object(p->modules[i], sizeof(p->modules[i]), corpus_dir, set,
				       s->modules[i]);
		s->cfg.modules[i] = p->modules[i];
	}
	for (unsigned i = 0; i < s->nuser; i++) {
		const char *u = s->user_objects[i];

		if (scenario_path_is_module(u)) {
			if (s->cfg.nmodules < WORLD_MAX_OBJECTS) {
				s->cfg.module_late[s->cfg.nmodules] = 0;
				s->cfg.probe_module[s->cfg.nmodules] = 1;
				s->cfg.modules[s->cfg.nmodules++] = u;
			}
		} else if (s->cfg.nobjects < WORLD_MAX_OBJECTS) {
			s->cfg.probe_object[s->cfg.nobjects] = 1;
			s->cfg.objects[s->cfg.nobjects++] = u;
		}
	}
	s->cfg.call_list = s->call_list[0] ? s->call_list : NULL;
}

/* The kinds found (each once) and the verdict. */
static void judge(const struct scenario *s, struct world *w, struct scn_result *res)
{
	size_t nx;
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
}

/* The world of s with its operations queued (explore: all of them, the
 * `run` lines taking no steps), or NULL with err set. */
static struct world *build(struct scenario *s, int explore, struct ftv_err *err)
{
	struct world *w;

	for (unsigned i = 0; i < s->cfg.ncall; i++)
		s->cfg.call[i] = s->call[i];
	if (explore) {
		s->cfg.exec.policy = EXEC_EXHAUSTIVE;
		s->cfg.exec.verify = 1;
	}
	if (world_new(&s->cfg, &w, err)) {
		ftv_err_prefix(err, "%s", s->path);
		return NULL;
	}
	if (s->settle && world_settle(w, 1, err))
		goto fail;
	for (unsigned i = 0; i < s->nops; i++) {
		if (s->settle == i + 1 && world_settle(w, 0, err))
			goto fail;
		if (explore && !strcmp(s->ops[i].verb, "run"))
			continue;
		if (do_op(w, s, &s->ops[i], err)) {
			world_free(w);
			return NULL;
		}
	}
	if (s->settle == s->nops + 1 && world_settle(w, 0, err))
		goto fail;
	for (unsigned i = 0; explore && i < s->npreempt; i++)
		if (world_preempt(w, s->preempt[i], err)) {
			ftv_err_prefix(err, "%s", s->path);
			world_free(w);
			return NULL;
		}
	return w;
fail:
	ftv_err_prefix(err, "%s", s->path);
	world_free(w);
	return NULL;
}

static int run(struct scenario *s, FILE *out, struct scn_result *res, struct ftv_err *err)
{
	struct world *w = build(s, s->explore, err);

	if (!w)
		return -1;
	if (s->explore) {
		/* one execution: the schedule (a counterexample), then the
		 * first ready agent at every step */
		size_t at;

		for (unsigned i = 0; i < s->nobserve; i++)
			if (exec_observe(world_exec(w), s->observe[i])) {
				world_free(w);
				return ftv_errf(err, "out of memory");
			}
		if (s->nsched && !s->nobserve)
			/* a replay: the walk's record of observed data */
			exec_observe_none(world_exec(w));
		if (exec_snapshot(world_exec(w), err) ||
		    exec_set_schedule(world_exec(w), s->sched, s->nsched)) {
			world_free(w);
			return ftv_err_prefix(err, "%s", s->path);
		}
		if (world_finish(w, s->steps, err)) {
			world_free(w);
			return ftv_err_prefix(err, "%s", s->path);
		}
		if (exec_schedule_diverged(world_exec(w), &at) && out)
			fprintf(out, "note: the schedule diverged at its step %zu (the agent "
				"scheduled was not ready): this is not the execution it was "
				"written from\n", at);
	} else if (world_finish(w, s->steps, err)) {
		world_free(w);
		return ftv_err_prefix(err, "%s", s->path);
	}
	judge(s, w, res);
	if (out)
		world_report(w, out);
	if (s->cfg.trace_out)
		exec_trace_print(world_exec(w), s->cfg.trace_out);
	if (s->cfg.trace_json && trace_json_world(s->cfg.trace_json, w, s->name)) {
		world_free(w);
		return ftv_errf(err, "%s: out of memory writing its trace", s->path);
	}
	world_stats(w, &res->stats);
	res->trace_hash = s->no_trace_hash ? 0 : exec_trace_hash(world_exec(w));
	world_free(w);
	return 0;
}

/* Sets up s's paths, runs fn, and forgets them (they live as long as the
 * world). */
static int with_paths(struct scenario *s, const char *corpus_dir, const char *tramp_dir,
		      struct scenario_paths **paths, unsigned *nobj, unsigned *nmod,
		      struct ftv_err *err)
{
	*nobj = s->cfg.nobjects;
	*nmod = s->cfg.nmodules;
	/* checked here, not when read: `ftv scenario --object` adds them */
	if (!s->cfg.nobjects && !s->nuser)
		return ftv_errf(err, "%s: no objects (objects NAME..., or object PATH)", s->path);
	if (s->call_list[0] && !s->nuser)
		return ftv_errf(err, "%s: call names functions of objects given by path "
				"(object PATH), and there is none", s->path);
	*paths = malloc(sizeof(**paths));
	if (!*paths)
		return ftv_errf(err, "out of memory");
	scenario_objects(s, corpus_dir, *paths);
	s->cfg.tramp_dir = tramp_dir;
	return 0;
}

/* The paths lived as long as the world; the counts are the corpus names'
 * again. */
static void without_paths(struct scenario *s, struct scenario_paths *paths,
			  unsigned nobj, unsigned nmod)
{
	for (unsigned i = 0; i < s->cfg.nobjects; i++)
		s->cfg.objects[i] = NULL;
	for (unsigned i = 0; i < s->cfg.nmodules; i++)
		s->cfg.modules[i] = NULL;
	s->cfg.nobjects = nobj;
	s->cfg.nmodules = nmod;
	s->cfg.call_list = NULL;
	memset(s->cfg.probe_object, 0, sizeof(s->cfg.probe_object));
	memset(s->cfg.probe_module, 0, sizeof(s->cfg.probe_module));
	for (unsigned i = 0; i < s->cfg.ncall; i++)
		s->cfg.call[i] = NULL;
	free(paths);
}

void scenario_verify_print(FILE *out, const struct scenario *s,
			   const struct verify_config *vc, const struct verify_result *vr)
{
	const struct exec_verify_stats *x = &vr->x;
	char bound[160];

	(void)s;
	fprintf(out, "scheduling points: %zu watched words, %zu data locations, %zu loads "
		"of watched data (%llu restarts)\n", vr->nwords, vr->ndata, vr->npoints,
		(unsigned long long)x->restarts);
	if (vr->violated && !x->executions && !vr->ncx) {
		fprintf(out, "counterexample: 0 visible steps: the world's setup (boot, queuing "
			"the updates) violates before the walk's first step\n");
	} else if (vr->violated) {
		char sched[SCN_MAX_SCHED * 12];

		fprintf(out, "counterexample: %zu visible steps, found after %llu executions "
			"(%llu explored, %s)\n", vr->cx_steps,
			(unsigned long long)vr->cx_found, (unsigned long long)x->executions,
			x->complete ? "complete" : "incomplete");
		verify_schedule_format(vr->cx, vr->ncx, sched, sizeof(sched));
		fprintf(out, "schedule: %s\n", sched);
	} else if (x->complete) {
		fprintf(out, "verified: %llu executions, complete (bound: %llu steps per "
			"execution, none reached)\n", (unsigned long long)x->executions,
			(unsigned long long)vc->max_steps);
	} else {
		verify_bound(vr, vc, bound, sizeof(bound));
		fprintf(out, "incomplete after %llu executions (budget: %s): not "
			"verified\n", (unsigned long long)x->executions, bound);
	}
	/* (no timing: conformance outputs are pinned byte for byte) */
	fprintf(out, "reduction: %s; %llu branches pruned, %llu runs sleep-set blocked, "
		"%llu steps\n",
		vc->reduce ? "source sets + sleep sets" : "none (every interleaving)",
		(unsigned long long)x->pruned, (unsigned long long)x->blocked,
		(unsigned long long)x->steps);
}

void scenario_verify_config(const struct scenario *s, struct verify_config *vc)
{
	memset(vc, 0, sizeof(*vc));
	vc->max_executions = s->max_executions ? s->max_executions : 1000000;
	vc->max_steps = s->steps;
	vc->reduce = 1;
	vc->nshards = 1;
}

int scenario_run(struct scenario *s, const char *corpus_dir,
		 const char *tramp_dir, FILE *out, struct scn_result *res,
		 struct ftv_err *err)
{
	struct scenario_paths *paths;
	unsigned nobj, nmod;
	int ret;

	memset(res, 0, sizeof(*res));
	if (s->explore && !s->nsched) {
		/* a proof: the verdict of every execution */
		struct verify_config vc;
		struct verify_result vr;

		scenario_verify_config(s, &vc);
		ret = scenario_verify(s, corpus_dir, tramp_dir, &vc, out, &vr, NULL, res, err);
		if (!ret && out)
			scenario_verify_print(out, s, &vc, &vr);
		verify_result_free(&vr);
		return ret;
	}
	if (with_paths(s, corpus_dir, tramp_dir, &paths, &nobj, &nmod, err))
		return -1;
	ret = run(s, out, res, err);
	without_paths(s, paths, nobj, nmod);
	return ret;
}

/* The replay scenario of a counterexample: s, explored, with its schedule
 * and scheduling points, expecting what it shows. */
static void counterexample(const struct scenario *s, struct world *w,
			   const struct verify_result *vr, const struct scn_result *rr,
			   int full, struct scenario *cx)
{
	const struct exec_choice *sched = full ? vr->full : vr->cx;
	size_t n = full ? vr->nfull : vr->ncx;

	char kinds[256], *t, *save = NULL;

	memcpy(cx, s, sizeof(*cx));
	cx->cfg.exec.policy = EXEC_EXHAUSTIVE;
	cx->explore = 1;
	cx->expect_verified = 0;
	cx->expect_ok = 0;
	cx->nexpect = 0;
	snprintf(kinds, sizeof(kinds), "%s", rr->kinds[0] ? rr->kinds : vr->kinds);
	for (t = strtok_r(kinds, " ", &save); t && cx->nexpect < SCN_MAX_KINDS;
	     t = strtok_r(NULL, " ", &save))
		snprintf(cx->expect[cx->nexpect++], sizeof(cx->expect[0]), "%s", t);
	cx->nsched = n < SCN_MAX_SCHED ? n : SCN_MAX_SCHED;
	if (cx->nsched)
		memcpy(cx->sched, sched, cx->nsched * sizeof(cx->sched[0]));
	cx->npreempt = 0;
	for (size_t i = 0; i < vr->npoints && cx->npreempt < SCN_MAX_PREEMPT; i++)
		world_preempt_name(w, vr->points[i], cx->preempt[cx->npreempt++],
				   sizeof(cx->preempt[0]));
	cx->nobserve = (unsigned)exec_observed(world_exec(w), cx->observe, SCN_MAX_OBSERVE);
	if (cx->nobserve > SCN_MAX_OBSERVE)
		cx->nobserve = SCN_MAX_OBSERVE;
}

/* Replays the counterexample (its steps that the violation depends on,
 * else the whole execution it was found in) and prints its report to out;
 * rs becomes its replay scenario. */
static int replay_cx(const struct scenario *s, struct world *w, struct verify_result *vr,
		     struct scn_result *rr, struct scenario *rs, FILE *out,
		     struct ftv_err *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *tmp = open_memstream(&text, &len);
	int ret;

	if (!tmp)
		return ftv_errf(err, "out of memory");
	counterexample(s, w, vr, rr, 0, rs);
	ret = run(rs, tmp, rr, err);
	fclose(tmp);
	if (!ret && rr->violated && !strstr(text, "note: the schedule diverged")) {
		if (out)
			fputs(text, out);
		free(text);
		counterexample(s, w, vr, rr, 0, rs);
		return 0;
	}
	free(text);
	if (ret)
		return -1;
	/* The steps it depends on did not reproduce it (the reduction
	 * missed a dependency): the whole execution does. */
	if (out)
		fprintf(out, "note: the %zu steps the violation depends on did not reproduce "
			"it; the whole execution (%zu steps) is replayed\n", vr->ncx, vr->nfull);
	counterexample(s, w, vr, rr, 1, rs);
	if (run(rs, out, rr, err))
		return -1;
	counterexample(s, w, vr, rr, 1, rs);
	free(vr->cx);
	vr->cx = malloc((vr->nfull ? vr->nfull : 1) * sizeof(*vr->cx));
	if (!vr->cx)
		return ftv_errf(err, "out of memory");
	if (vr->nfull)
		memcpy(vr->cx, vr->full, vr->nfull * sizeof(*vr->cx));
	vr->ncx = vr->cx_steps = vr->nfull;
	return 0;
}

int scenario_verify(struct scenario *s, const char *corpus_dir,
		    const char *tramp_dir, const struct verify_config *vc,
		    FILE *out, struct verify_result *vr, struct scenario *cx,
		    struct scn_result *res, struct ftv_err *err)
{
	struct scenario_paths *paths;
	unsigned nobj, nmod;
	struct scenario *rs = NULL;
	struct scn_result rr, dummy;
	struct world *w;
	int ret = -1;

	memset(vr, 0, sizeof(*vr));
	if (!res)
		res = &dummy;
	memset(res, 0, sizeof(*res));
	memset(&rr, 0, sizeof(rr));
	if (with_paths(s, corpus_dir, tramp_dir, &paths, &nobj, &nmod, err))
		return -1;
	w = build(s, 1, err);
	if (!w)
		goto out;
	if (world_verify(w, vc, vr, err)) {
		ftv_err_prefix(err, "%s", s->path);
		goto out;
	}
	res->explored = 1;
	res->complete = vr->x.complete;
	res->executions = vr->x.executions;
	res->cx_steps = vr->cx_steps;
	res->violated = vr->violated;
	if (vr->violated) {
		/* The report of the shortest counterexample, replayed in a
		 * world of its own as its replay file would be. */
		rs = malloc(sizeof(*rs));
		if (!rs) {
			ftv_errf(err, "out of memory");
			goto out;
		}
		if (replay_cx(s, w, vr, &rr, rs, out, err))
			goto out;
		if (cx)
			memcpy(cx, rs, sizeof(*cx));
		snprintf(res->kinds, sizeof(res->kinds), "%s", rr.kinds[0] ? rr.kinds : vr->kinds);
		res->nviolations = rr.nviolations;
		res->stats = rr.stats;
	}
	if (s->expect_ok) {
		/* expect verified (or ok, explored): a proof */
		res->verdict_ok = !vr->violated && vr->x.complete;
	} else {
		char have[300];

		snprintf(have, sizeof(have), " %s ", res->kinds);
		res->verdict_ok = vr->violated;
		for (unsigned i = 0; i < s->nexpect; i++) {
			char want[32];

			snprintf(want, sizeof(want), " %s ", s->expect[i]);
			if (!strstr(have, want))
				res->verdict_ok = 0;
		}
	}
	ret = 0;
out:
	if (w)
		world_free(w);
	free(rs);
	without_paths(s, paths, nobj, nmod);
	return ret;
}

void scenario_write(FILE *f, const struct scenario *s, const char *header)
{
	if (header) {
		const char *p = header;

		while (*p) {
			const char *nl = strchr(p, '\n');
			int len = nl ? (int)(nl - p) : (int)strlen(p);

			fprintf(f, "# %.*s\n", len, p);
			p += len + (nl ? 1 : 0);
		}
	}
	fprintf(f, "name     %s\n", s->name);
	fprintf(f, "scheme   %s\n", ftv_scheme_name(s->cfg.scheme));
	if (s->cfg.nobjects) {
		fprintf(f, "objects ");
		for (unsigned i = 0; i < s->cfg.nobjects; i++)
			fprintf(f, " %s", s->objects[i]);
		fprintf(f, "\n");
	}
	for (unsigned i = 0; i < s->nuser; i++)
		fprintf(f, "object   %s\n", s->user_objects[i]);
	/* a line a reader takes whole: names up to about 1000 bytes each */
	for (const char *p = s->call_list; *p;) {
		size_t n = 0, next;

		while (p[n] && n < 1000) {
			next = strcspn(p + n, ",");
			if (n && n + next > 1000)
				break;
			n += next + (p[n + next] == ',');
		}
		fprintf(f, "call     %.*s\n", (int)(n && p[n - 1] == ',' ? n - 1 : n), p);
		p += n;
	}
	for (int late = 0; late < 2; late++) {
		int any = 0;

		for (unsigned i = 0; i < s->cfg.nmodules; i++)
			if (s->cfg.module_late[i] == late) {
				fprintf(f, "%s%s", any ? "" : late ? "late-modules" : "modules ", " ");
				fprintf(f, "%s", s->modules[i]);
				any = 1;
			}
		if (any)
			fprintf(f, "\n");
	}
	if (s->cfg.far_modules)
		fprintf(f, "far-modules\n");
	fprintf(f, "cpus     %u\n", s->cfg.exec.ncpus);
	fprintf(f, "policy   %s\n", exec_policy_name(s->cfg.exec.policy));
	if (s->cfg.exec.quantum)
		fprintf(f, "quantum  %u\n", s->cfg.exec.quantum);
	if (s->cfg.exec.pct_depth)
		fprintf(f, "pct-depth %u\n", s->cfg.exec.pct_depth);
	if (s->cfg.exec.drain_hold)
		fprintf(f, "drain-hold %u\n", s->cfg.exec.drain_hold);
	if (s->cfg.exec.dic || s->cfg.exec.idc)
		fprintf(f, "cachetype%s%s\n", s->cfg.exec.dic ? " DIC" : "",
			s->cfg.exec.idc ? " IDC" : "");
	fprintf(f, "seed     %llu\n", (unsigned long long)s->cfg.exec.seed);
	if (s->cfg.rounds)
		fprintf(f, "rounds   %u\n", s->cfg.rounds);
	if (s->cfg.calls)
		fprintf(f, "calls    %u\n", s->cfg.calls);
	if (s->cfg.ncall) {
		fprintf(f, "workload");
		for (unsigned i = 0; i < s->cfg.ncall; i++)
			fprintf(f, " %s", s->call[i]);
		fprintf(f, "\n");
	}
	if (s->max_executions)
		fprintf(f, "max-executions %llu\n", (unsigned long long)s->max_executions);
	fprintf(f, "steps    %llu\n", (unsigned long long)s->steps);
	if (s->cfg.mutant_name && strcmp(s->cfg.mutant_name, "none"))
		fprintf(f, "mutate   %s\n", s->cfg.mutant_name);
	if (s->expect_verified) {
		fprintf(f, "expect   verified\n");
	} else if (s->expect_ok) {
		fprintf(f, "expect   ok\n");
	} else {
		fprintf(f, "expect   violation");
		for (unsigned i = 0; i < s->nexpect; i++)
			fprintf(f, " %s", s->expect[i]);
		fprintf(f, "\n");
	}
	for (unsigned i = 0; i <= s->nops; i++) {
		const struct scn_op *op = &s->ops[i];
		char *av[3];
		int n;

		if (s->settle == i + 1)
			fprintf(f, "settle\n");
		if (i == s->nops)
			break;
		n = op_args(op, av);

		fprintf(f, "%-8s", op->verb);
		for (int k = 0; k < n; k++)
			fprintf(f, " %s", av[k]);
		fprintf(f, "\n");
	}
	for (unsigned i = 0; i < s->npreempt; i++)
		fprintf(f, "preempt  %s\n", s->preempt[i]);
	for (unsigned i = 0; i < s->nobserve; i += 4) {
		fprintf(f, "observe ");
		for (unsigned k = i; k < s->nobserve && k < i + 4; k++)
			fprintf(f, " 0x%llx", (unsigned long long)s->observe[k]);
		fprintf(f, "\n");
	}
	for (size_t i = 0; i < s->nsched; i += 16) {
		char buf[16 * 24];

		verify_schedule_format(s->sched + i, s->nsched - i < 16 ? s->nsched - i : 16,
				       buf, sizeof(buf));
		fprintf(f, "schedule %s\n", buf);
	}
}
