/* The .scn language as data: one table of keywords, each with its
 * arguments, the function that parses its line and the one that writes it
 * back, read by scenario_read, scenario_write and the ftv-scenario(5) man
 * page alike. The operations are the ftrace verbs (patcher/ftrace_verbs.h),
 * the table's last entry. scenario.h describes the language. */
#include "util/str.h"
#include "verify/scenario.h"
#include "verify/scenario_int.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_verbs.h"
#include "util/num.h"
#include "verify/mutant.h"
#include "verify/violation_kind.h"

/* One line being read. */
struct scn_reader {
	struct scenario *s;
	const char *path;   /* the file: `object` paths are relative to it */
	int line;
	char **w;           /* the words, w[0] the keyword */
	int n;
	char *rest;         /* the line after the keyword (a path may hold
			       spaces) */
	struct ftv_err *err;/* the message, without file:line */
};

/* --- reading ---------------------------------------------------------------- */

/* A word into a fixed field: refused, not cut, when it does not fit. */
static int word(struct scn_reader *r, char *dst, size_t size, const char *w)
{
	size_t l = strlen(w);

	if (l >= size)
		return ftv_errf(r->err, "'%.40s...' is too long for %s (at most %d characters)",
				w, r->w[0], (int)size - 1);
	memcpy(dst, w, l + 1);
	return 0;
}

static int num(struct scn_reader *r, uint64_t *v)
{
	if (r->n < 2 || ftv_parse_u64(r->w[1], v))
		return ftv_errf(r->err, "%s needs a number", r->w[0]);
	return 0;
}

/* an unsigned field: no silent truncation of 2^32 + 1 to 1 */
static int num32(struct scn_reader *r, unsigned *out)
{
	uint64_t v;

	if (num(r, &v))
		return -1;
	if (v > UINT32_MAX)
		return ftv_errf(r->err, "%s: %s is too large", r->w[0], r->w[1]);
	*out = (unsigned)v;
	return 0;
}

static int p_name(struct scn_reader *r)
{
	return word(r, r->s->name, sizeof(r->s->name), r->w[1]);
}

static int p_scheme(struct scn_reader *r)
{
	char names[256];

	if (ftv_scheme_parse(r->w[1], &r->s->cfg.scheme))
		return ftv_errf(r->err, "unknown scheme '%s' (%s)", r->w[1],
				ftv_all_schemes(names, sizeof(names)));
	r->s->scheme_line = r->line;
	return 0;
}

static int p_arch(struct scn_reader *r)
{
	if (ftv_arch_parse(r->w[1], &r->s->arch))
		return ftv_errf(r->err, "unknown arch '%s' (arm64, riscv64)", r->w[1]);
	r->s->arch_line = r->line;
	return 0;
}

/* objects, modules, late-modules */
static int p_objects(struct scn_reader *r)
{
	struct scenario *s = r->s;
	int mod = r->w[0][0] != 'o', late = r->w[0][0] == 'l';

	for (int i = 1; i < r->n; i++) {
		unsigned *cnt = mod ? &s->cfg.nmodules : &s->cfg.nobjects;

		if (*cnt >= WORLD_MAX_OBJECTS)
			return ftv_errf(r->err, "too many %s", r->w[0]);
		if (word(r, mod ? s->modules[*cnt] : s->objects[*cnt], sizeof(s->objects[0]),
			 r->w[i]))
			return -1;
		if (mod)
			s->cfg.module_late[*cnt] = (unsigned char)late;
		(*cnt)++;
	}
	return 0;
}

static int p_object(struct scn_reader *r)
{
	char dir[1024];
	const char *slash = strrchr(r->path, '/');
	struct ftv_err oerr;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - r->path) : 0, r->path);
	if (slash == r->path)
		snprintf(dir, sizeof(dir), "/");
	if (scenario_add_object(r->s, dir, r->rest, &oerr))
		return ftv_errf(r->err, "object: %s", oerr.msg);
	return 0;
}

static int p_call(struct scn_reader *r)
{
	struct ftv_err cerr;

	for (int i = 1; i < r->n; i++)
		if (scenario_add_calls(r->s, r->w[i], &cerr))
			return ftv_errf(r->err, "%s", cerr.msg);
	return 0;
}

static int p_settle(struct scn_reader *r)
{
	struct scenario *s = r->s;

	if (s->settle)
		return ftv_errf(r->err, "settle: one settle line at most");
	for (unsigned i = 0; i < s->nops; i++)
		if (!strcmp(s->ops[i].verb, "run"))
			return ftv_errf(r->err, "settle: the CPUs have run already (line %d); "
					"the settled updates come before every run line",
					s->ops[i].line);
	s->settle = s->nops + 1;
	return 0;
}

static int p_far_modules(struct scn_reader *r)
{
	r->s->cfg.far_modules = 1;
	return 0;
}

static int p_cpus(struct scn_reader *r)
{
	uint64_t v;

	if (num(r, &v))
		return -1;
	if (!v || v > EXEC_MAX_CPUS)
		return ftv_errf(r->err, "cpus must be 1..%d", EXEC_MAX_CPUS);
	r->s->cfg.exec.ncpus = (unsigned)v;
	return 0;
}

static int p_policy(struct scn_reader *r)
{
	if (exec_policy_parse(r->w[1], &r->s->cfg.exec.policy))
		return ftv_errf(r->err, "policy must be random, quantum, pct or exhaustive");
	r->s->explore = r->s->cfg.exec.policy == EXEC_EXHAUSTIVE;
	return 0;
}

static int p_quantum(struct scn_reader *r)
{
	return num32(r, &r->s->cfg.exec.quantum);
}

static int p_pct_depth(struct scn_reader *r)
{
	return num32(r, &r->s->cfg.exec.pct_depth);
}

static int p_drain_hold(struct scn_reader *r)
{
	return num32(r, &r->s->cfg.exec.drain_hold);
}

static int p_cachetype(struct scn_reader *r)
{
	for (int i = 1; i < r->n; i++) {
		if (!strcmp(r->w[i], "DIC"))
			r->s->cfg.exec.dic = 1;
		else if (!strcmp(r->w[i], "IDC"))
			r->s->cfg.exec.idc = 1;
		else
			return ftv_errf(r->err, "cachetype takes DIC and/or IDC, not '%s'", r->w[i]);
	}
	return 0;
}

static int p_seed(struct scn_reader *r)
{
	return num(r, &r->s->cfg.exec.seed);
}

static int p_rounds(struct scn_reader *r)
{
	return num32(r, &r->s->cfg.rounds);
}

static int p_calls(struct scn_reader *r)
{
	return num32(r, &r->s->cfg.calls);
}

static int p_workload(struct scn_reader *r)
{
	struct scenario *s = r->s;

	for (int i = 1; i < r->n; i++) {
		if (s->cfg.ncall >= WORLD_MAX_CALLS)
			return ftv_errf(r->err, "workload: at most %d functions", WORLD_MAX_CALLS);
		if (word(r, s->call[s->cfg.ncall], sizeof(s->call[0]), r->w[i]))
			return -1;
		s->cfg.ncall++;
	}
	return 0;
}

static int p_max_executions(struct scn_reader *r)
{
	return num(r, &r->s->max_executions);
}

static int p_steps(struct scn_reader *r)
{
	return num(r, &r->s->steps);
}

static int p_mutate(struct scn_reader *r)
{
	const struct ftv_mutant *m = ftv_mutant_find(r->w[1]);

	if (!m)
		return ftv_errf(r->err, "unknown mutant '%s'", r->w[1]);
	r->s->mutant = m;
	r->s->mutate_line = r->line;
	return 0;
}

static int p_expect(struct scn_reader *r)
{
	struct scenario *s = r->s;
	char kinds[512];

	if (!strcmp(r->w[1], "ok") && r->n == 2) {
		s->expect_ok = 1;
		return 0;
	}
	if (!strcmp(r->w[1], "verified") && r->n == 2) {
		s->expect_ok = 1;
		s->expect_verified = 1;
		return 0;
	}
	if (strcmp(r->w[1], "violation"))
		return ftv_errf(r->err, "expect ok, expect verified, or expect violation [KIND...]");
	s->expect_ok = 0;
	for (int i = 2; i < r->n; i++) {
		if (s->nexpect == SCN_MAX_KINDS)
			return ftv_errf(r->err, "more than %d violation kinds", SCN_MAX_KINDS);
		if (word(r, s->expect[s->nexpect], sizeof(s->expect[0]), r->w[i]))
			return -1;
		s->nexpect++;
	}
	for (unsigned i = 0; i < s->nexpect; i++)
		if (!violation_kind_find(s->expect[i]))
			return ftv_errf(r->err, "expect: unknown violation kind '%s' (kinds: %s)",
					s->expect[i], violation_kind_list(kinds, sizeof(kinds)));
	return 0;
}

static int p_preempt(struct scn_reader *r)
{
	struct scenario *s = r->s;

	for (int i = 1; i < r->n; i++) {
		if (s->npreempt >= SCN_MAX_PREEMPT)
			return ftv_errf(r->err, "preempt: at most %d points", SCN_MAX_PREEMPT);
		if (word(r, s->preempt[s->npreempt], sizeof(s->preempt[0]), r->w[i]))
			return -1;
		s->npreempt++;
	}
	return 0;
}

static int p_observe(struct scn_reader *r)
{
	struct scenario *s = r->s;

	for (int i = 1; i < r->n; i++) {
		char *end;

		if (s->nobserve >= SCN_MAX_OBSERVE)
			return ftv_errf(r->err, "observe: at most %d granules", SCN_MAX_OBSERVE);
		s->observe[s->nobserve++] = strtoull(r->w[i], &end, 16);
		if (strncmp(r->w[i], "0x", 2) || *end)
			return ftv_errf(r->err, "observe: %s is not an address (0x...)", r->w[i]);
	}
	return 0;
}

static int p_schedule(struct scn_reader *r)
{
	struct scenario *s = r->s;

	for (int i = 1; i < r->n; i++) {
		if (s->nsched >= SCN_MAX_SCHED)
			return ftv_errf(r->err, "schedule: at most %d steps", SCN_MAX_SCHED);
		if (verify_step_parse(r->w[i], EXEC_MAX_CPUS, &s->sched[s->nsched]))
			return ftv_errf(r->err, "schedule: '%s' is no step (cpuN, patcher or sbuf, "
					"with :VALUE for a choice)", r->w[i]);
		s->nsched++;
	}
	return 0;
}

/* An ftrace operation: the verb's own name (whichever spelling the file
 * used) and its arguments. */
static int p_operation(struct scn_reader *r)
{
	struct scenario *s = r->s;
	const struct ftrace_verb *vb = ftrace_verb_find(r->w[0]);
	struct scn_op *op;
	struct ftv_err verr;

	if (!vb)
		return ftv_errf(r->err, "unknown keyword '%s'", r->w[0]);
	if (ftrace_verb_check(vb, scenario_target(), r->n - 1, &verr))
		return ftv_errf(r->err, "%s", verr.msg);
	if (r->n > 4)
		return ftv_errf(r->err, "'%s': too many arguments", r->w[0]);
	if (s->nops == SCN_MAX_OPS)
		return ftv_errf(r->err, "too many operations");
	op = &s->ops[s->nops];
	memset(op, 0, sizeof(*op));
	snprintf(op->verb, sizeof(op->verb), "%s", vb->name);
	if ((r->n > 1 && word(r, op->a, sizeof(op->a), r->w[1])) ||
	    (r->n > 2 && word(r, op->b, sizeof(op->b), r->w[2])) ||
	    (r->n > 3 && word(r, op->c, sizeof(op->c), r->w[3])))
		return -1;
	op->line = r->line;
	s->nops++;
	return 0;
}

/* --- writing ---------------------------------------------------------------- */

/* One line: the keyword, then (when there are any) its arguments from
 * column 10, as the corpus files are laid out. */
static void line(FILE *f, const char *kw, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(FILE *f, const char *kw, const char *fmt, ...)
{
	va_list ap;

	if (!fmt || !fmt[0]) {
		fprintf(f, "%s\n", kw);
		return;
	}
	fprintf(f, "%-8s ", kw);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* A list of words on one line (none: no line). */
static void words_line(FILE *f, const char *kw, const char *w, size_t stride, size_t n)
{
	if (!n)
		return;
	fprintf(f, "%-8s", kw);
	for (size_t i = 0; i < n; i++)
		fprintf(f, " %s", w + i * stride);
	fputc('\n', f);
}

static void w_name(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", s->name);
}

static void w_scheme(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", ftv_scheme_name(s->cfg.scheme));
}

static void w_objects(FILE *f, const char *kw, const struct scenario *s)
{
	words_line(f, kw, s->objects[0], sizeof(s->objects[0]), s->cfg.nobjects);
}

static void w_object(FILE *f, const char *kw, const struct scenario *s)
{
	for (unsigned i = 0; i < s->nuser; i++)
		line(f, kw, "%s", s->user_objects[i]);
}

/* a line a reader takes whole: names up to about 1000 bytes each */
static void w_call(FILE *f, const char *kw, const struct scenario *s)
{
	for (const char *p = s->call_list; *p;) {
		size_t n = 0, next;

		while (p[n] && n < 1000) {
			next = strcspn(p + n, ",");
			if (n && n + next > 1000)
				break;
			n += next + (p[n + next] == ',');
		}
		line(f, kw, "%.*s", (int)(n && p[n - 1] == ',' ? n - 1 : n), p);
		p += n;
	}
}

/* modules (late 0) and late-modules (late 1) */
static void w_modules(FILE *f, const char *kw, const struct scenario *s)
{
	int late = kw[0] == 'l', any = 0;

	for (unsigned i = 0; i < s->cfg.nmodules; i++)
		if (s->cfg.module_late[i] == late) {
			if (!any)
				fprintf(f, "%-8s", kw);
			fprintf(f, " %s", s->modules[i]);
			any = 1;
		}
	if (any)
		fputc('\n', f);
}

static void w_far_modules(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.far_modules)
		line(f, kw, NULL);
}

static void w_cpus(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%u", s->cfg.exec.ncpus);
}

static void w_policy(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", exec_policy_name(s->cfg.exec.policy));
}

/* an unsigned field written when set */
static void u32_line(FILE *f, const char *kw, unsigned v)
{
	if (v)
		line(f, kw, "%u", v);
}

static void w_quantum(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.exec.quantum);
}

static void w_pct_depth(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.exec.pct_depth);
}

static void w_drain_hold(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.exec.drain_hold);
}

static void w_cachetype(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.exec.dic || s->cfg.exec.idc)
		fprintf(f, "%s%s%s\n", kw, s->cfg.exec.dic ? " DIC" : "",
			s->cfg.exec.idc ? " IDC" : "");
}

static void w_seed(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%llu", (unsigned long long)s->cfg.exec.seed);
}

static void w_rounds(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.rounds);
}

static void w_calls(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.calls);
}

static void w_workload(FILE *f, const char *kw, const struct scenario *s)
{
	words_line(f, kw, s->call[0], sizeof(s->call[0]), s->cfg.ncall);
}

static void w_max_executions(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->max_executions)
		line(f, kw, "%llu", (unsigned long long)s->max_executions);
}

static void w_steps(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%llu", (unsigned long long)s->steps);
}

static void w_mutate(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.mutant_name && strcmp(s->cfg.mutant_name, "none"))
		line(f, kw, "%s", s->cfg.mutant_name);
}

static void w_expect(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->expect_ok < 0)
		return; /* none: the run just reports */
	if (s->expect_verified)
		line(f, kw, "verified");
	else if (s->expect_ok)
		line(f, kw, "ok");
	else {
		fprintf(f, "%-8s violation", kw);
		for (unsigned i = 0; i < s->nexpect; i++)
			fprintf(f, " %s", s->expect[i]);
		fputc('\n', f);
	}
}

/* the operations, the settle line among them */
static void w_operations(FILE *f, const char *kw, const struct scenario *s)
{
	(void)kw;
	for (unsigned i = 0; i <= s->nops; i++) {
		const struct scn_op *op = &s->ops[i];
		char *av[3];
		int n;

		if (s->settle == i + 1)
			line(f, "settle", NULL);
		if (i == s->nops)
			break;
		n = scenario_op_args(op, av);
		fprintf(f, "%-8s", op->verb);
		for (int k = 0; k < n; k++)
			fprintf(f, " %s", av[k]);
		fputc('\n', f);
	}
}

static void w_preempt(FILE *f, const char *kw, const struct scenario *s)
{
	for (unsigned i = 0; i < s->npreempt; i++)
		line(f, kw, "%s", s->preempt[i]);
}

static void w_observe(FILE *f, const char *kw, const struct scenario *s)
{
	for (unsigned i = 0; i < s->nobserve; i += 4) {
		fprintf(f, "%-8s", kw);
		for (unsigned k = i; k < s->nobserve && k < i + 4; k++)
			fprintf(f, " 0x%llx", (unsigned long long)s->observe[k]);
		fputc('\n', f);
	}
}

static void w_schedule(FILE *f, const char *kw, const struct scenario *s)
{
	for (size_t i = 0; i < s->nsched; i += 16) {
		char buf[16 * 24];

		verify_schedule_format(s->sched + i, s->nsched - i < 16 ? s->nsched - i : 16,
				       buf, sizeof(buf));
		line(f, kw, "%s", buf);
	}
}

/* --- the table -------------------------------------------------------------- */

#define ANY (-1)

/* In the order scenario_write writes them. */
static const struct scn_keyword keywords[] = {
	{ "name", "NAME", 1, 1, p_name, w_name, "the scenario's name, in reports" },
	{ "scheme", "SCHEME", 1, 1, p_scheme, w_scheme,
	  "the patching scheme: callops, tramp, mcount, ... (arm64), pair or atomic "
	  "(riscv64); it implies the architecture" },
	{ "arch", "ARCH", 1, 1, p_arch, NULL,
	  "arm64 or riscv64: optional; alone, its default scheme (what Linux does "
	  "today); with scheme, they must agree" },
	{ "objects", "NAME...", 0, ANY, p_objects, w_objects,
	  "corpus objects loaded with the kernel: build/corpus/[random-]SET/NAME.o of "
	  "the scheme's flag set" },
	{ "object", "PATH", 1, ANY, p_object, w_object,
	  "any object by path, the rest of the line, relative to the file's directory "
	  "(repeatable): .o loaded with the kernel, .ko, .ko.xz, .ko.zst or .ko.gz as a "
	  "module at boot (enable-modules enables it); undefined symbols are bound to "
	  "trap stubs" },
	{ "call", "FUNC[,FUNC]...", 1, ANY, p_call, w_call,
	  "the functions of the objects given by path that the workload calls "
	  "(repeatable); without it, every one the call probe accepts" },
	{ "modules", "NAME...", 0, ANY, p_objects, w_modules,
	  "corpus objects loaded as modules at boot" },
	{ "late-modules", "NAME...", 0, ANY, p_objects, w_modules,
	  "corpus modules linked at boot, loaded by module-load while the CPUs run" },
	{ "far-modules", "", 0, 0, p_far_modules, w_far_modules,
	  "modules more than 128 MiB from kernel text (reached through their ftrace "
	  "PLT)" },
	{ "cpus", "N", 0, 1, p_cpus, w_cpus, "emulated CPUs, 1 to 32 (default 4)" },
	{ "policy", "POLICY", 1, 1, p_policy, w_policy,
	  "the scheduler: random (default), quantum, pct, or exhaustive (every "
	  "execution explored, as ftv verify does)" },
	{ "quantum", "N", 0, 1, p_quantum, w_quantum,
	  "steps of a CPU's turn under the quantum and pct policies" },
	{ "pct-depth", "N", 0, 1, p_pct_depth, w_pct_depth,
	  "the pct policy's priority change points" },
	{ "drain-hold", "N", 0, 1, p_drain_hold, w_drain_hold,
	  "half the patcher's buffered stores are held back for up to N steps each "
	  "(not under exhaustive)" },
	{ "cachetype", "DIC|IDC...", 1, ANY, p_cachetype, w_cachetype,
	  "the cores' CTR_EL0.DIC and/or IDC (default neither)" },
	{ "seed", "N", 0, 1, p_seed, w_seed, "the scheduler's seed (default 1)" },
	{ "rounds", "N", 0, 1, p_rounds, w_rounds, "workload rounds per CPU (default 20)" },
	{ "calls", "N", 0, 1, p_calls, w_calls,
	  "calls per round per CPU, drawn from the callable functions (default 16)" },
	{ "workload", "FUNC...", 1, ANY, p_workload, w_workload,
	  "each CPU's round calls exactly these traced functions, in order, instead of "
	  "calls random ones" },
	{ "max-executions", "N", 0, 1, p_max_executions, w_max_executions,
	  "exhaustive: stop, incomplete, after N executions (default 1000000)" },
	{ "steps", "N", 0, 1, p_steps, w_steps,
	  "the scheduler step budget to finish in (default 100000; per execution when "
	  "exhaustive)" },
	{ "mutate", "MUTANT", 1, 1, p_mutate, w_mutate,
	  "a deliberate bug of the scheme's backend or of the core (default none)" },
	{ "expect", "ok|verified|violation [KIND...]", 1, ANY, p_expect, w_expect,
	  "the verdict ftv conform compares with: no violation, explored completely "
	  "without one, or a violation of each KIND (see ftv(1), VIOLATIONS); "
	  "optional for ftv scenario, which reports whatever it finds" },
	{ "settle", "", 0, 0, p_settle, NULL,
	  "between operations, before every run: those above are applied at once, "
	  "each to completion, before any CPU runs; those below are queued (written "
	  "among the operations)" },
	{ "VERB", "ARG...", 0, ANY, p_operation, w_operations,
	  "an ftrace operation, in order (see OPERATIONS)" },
	{ "preempt", "SYM+OFF...", 1, ANY, p_preempt, w_preempt,
	  "exhaustive: a CPU's turn also ends before this instruction (what ftv "
	  "verify found loading watched data)" },
	{ "observe", "0xADDR...", 1, ANY, p_observe, w_observe,
	  "exhaustive replay: the CPUs read these 8 bytes the patcher writes; its "
	  "other stores to data are no steps" },
	{ "schedule", "STEP...", 1, ANY, p_schedule, w_schedule,
	  "exhaustive: replay this one execution, each step's agent cpuN, patcher, "
	  "text or sbuf (after ':' the write a fetch saw, or the channel that "
	  "drained), then the first ready agent; may span lines" },
};

#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))

const struct scn_keyword *scenario_keyword_at(size_t i)
{
	return i < NKEYWORDS ? &keywords[i] : NULL;
}

/* The keyword w names; the operations' entry for anything else. */
static const struct scn_keyword *keyword(const char *w)
{
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (keywords[i].parse != p_operation && !strcmp(keywords[i].name, w))
			return &keywords[i];
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (keywords[i].parse == p_operation)
			return &keywords[i];
	return NULL;
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

/* The arguments' count k takes. */
static int count_ok(struct scn_reader *r, const struct scn_keyword *k)
{
	int n = r->n - 1;

	if (n < k->min)
		return k->max == ANY ? ftv_errf(r->err, "%s needs at least one argument", k->name)
				     : ftv_errf(r->err, "%s needs %s", k->name, k->args);
	if (k->max != ANY && n > k->max)
		return k->max ? ftv_errf(r->err, "%s: too many arguments (%s %s)", k->name,
					 k->name, k->args)
			      : ftv_errf(r->err, "%s takes no argument", k->name);
	return 0;
}

/* One line, comment and white space trimmed, not empty. */
static int read_line(struct scn_reader *r, char *t)
{
	char *w[WORLD_MAX_OBJECTS + 1] = { 0 };
	const struct scn_keyword *k;
	size_t kl = strcspn(t, " \t\r\n\v\f");
	char *rest = ftv_trim(t + kl);

	r->w = w;
	if (!strncmp(t, "object", kl) && kl == 6) {
		/* the rest of the line: a path may hold spaces */
		r->n = 2;
		r->rest = rest;
		w[0] = "object";
		if (!*rest)
			return ftv_errf(r->err, "object needs PATH");
		return p_object(r);
	}
	r->n = words(t, w, WORLD_MAX_OBJECTS + 1);
	if (r->n < 0)
		return ftv_errf(r->err, "%s: more than %d words", w[0], WORLD_MAX_OBJECTS + 1);
	r->rest = NULL;
	k = keyword(w[0]);
	if (k->parse != p_operation && count_ok(r, k))
		return -1;
	return k->parse(r);
}

/* What no single line decides. */
static int check(struct scenario *s, const char *path, struct ftv_err *err)
{
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
	return 0;
}

int scenario_read(FILE *f, const char *path, struct scenario *s, struct ftv_err *err)
{
	char buf[2048];
	struct scn_reader r = { .s = s, .path = path, .err = err };

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->cfg.exec.ncpus = 4;
	s->cfg.exec.policy = EXEC_RANDOM;
	s->cfg.exec.seed = 1;
	s->steps = 100000;
	s->expect_ok = -1;
	while (fgets(buf, sizeof(buf), f)) {
		size_t len = strlen(buf);
		char *hash, *t;

		r.line++;
		/* a full buffer without its newline: a longer line, unless the
		 * file ends right there */
		if (len == sizeof(buf) - 1 && buf[len - 1] != '\n' && fgetc(f) != EOF) {
			fclose(f);
			ftv_errf(err, "line longer than %d characters", (int)sizeof(buf) - 2);
			return ftv_err_prefix(err, "%s:%d", path, r.line);
		}
		if ((hash = strchr(buf, '#')))
			*hash = 0;
		t = ftv_trim(buf);
		if (*t && read_line(&r, t)) {
			fclose(f);
			return ftv_err_prefix(err, "%s:%d", path, r.line);
		}
	}
	fclose(f);
	return check(s, path, err);
}

void scenario_write(FILE *f, const struct scenario *s, const char *header)
{
	for (const char *p = header; p && *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		fprintf(f, "# %.*s\n", len, p);
		p += len + (nl ? 1 : 0);
	}
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (keywords[i].write)
			keywords[i].write(f, keywords[i].name, s);
}
