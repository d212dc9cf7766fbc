/* Each keyword's parser (the table: verify/scenario_lang.c): the words of
 * one line into the scenario, or one error without file:line. */
#include "util/str.h"
#include "verify/scenario_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "patcher/ftrace_verbs.h"
#include "util/num.h"
#include "verify/mutant.h"
#include "verify/violation_kind.h"

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

int scn_p_name(struct scn_reader *r)
{
	return word(r, r->s->name, sizeof(r->s->name), r->w[1]);
}

int scn_p_scheme(struct scn_reader *r)
{
	char names[256];

	if (ftv_scheme_parse(r->w[1], &r->s->cfg.scheme))
		return ftv_errf(r->err, "unknown scheme '%s' (%s)", r->w[1],
				ftv_all_schemes(names, sizeof(names)));
	r->s->scheme_line = r->line;
	return 0;
}

int scn_p_arch(struct scn_reader *r)
{
	if (ftv_arch_parse(r->w[1], &r->s->arch))
		return ftv_errf(r->err, "unknown arch '%s' (arm64, riscv64)", r->w[1]);
	r->s->arch_line = r->line;
	return 0;
}

/* objects, modules, late-modules */
int scn_p_objects(struct scn_reader *r)
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

int scn_p_object(struct scn_reader *r)
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

int scn_p_call(struct scn_reader *r)
{
	struct ftv_err cerr;

	for (int i = 1; i < r->n; i++)
		if (scenario_add_calls(r->s, r->w[i], &cerr))
			return ftv_errf(r->err, "%s", cerr.msg);
	return 0;
}

int scn_p_settle(struct scn_reader *r)
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

int scn_p_far_modules(struct scn_reader *r)
{
	r->s->cfg.far_modules = 1;
	return 0;
}

int scn_p_symmetric(struct scn_reader *r)
{
	r->s->cfg.symmetric = 1;
	return 0;
}

int scn_p_vacuous(struct scn_reader *r)
{
	r->s->vacuous_ok = 1;
	return 0;
}

int scn_p_cpus(struct scn_reader *r)
{
	uint64_t v;

	if (num(r, &v))
		return -1;
	if (!v || v > EXEC_MAX_CPUS)
		return ftv_errf(r->err, "cpus must be 1..%d", EXEC_MAX_CPUS);
	r->s->cfg.exec.ncpus = (unsigned)v;
	return 0;
}

int scn_p_policy(struct scn_reader *r)
{
	if (exec_policy_parse(r->w[1], &r->s->cfg.exec.policy))
		return ftv_errf(r->err, "policy must be random, quantum, pct or exhaustive");
	r->s->explore = r->s->cfg.exec.policy == EXEC_EXHAUSTIVE;
	return 0;
}

/* The scheduler's numbers: one exec_config field each (SCN_EXEC_U32). */
#define SCN_P_EXEC_U32(k)                                    \
	int scn_p_##k(struct scn_reader *r)                  \
	{                                                    \
		return num32(r, &r->s->cfg.exec.k);         \
	}
SCN_EXEC_U32(SCN_P_EXEC_U32)
#undef SCN_P_EXEC_U32

int scn_p_cachetype(struct scn_reader *r)
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

int scn_p_seed(struct scn_reader *r)
{
	return num(r, &r->s->cfg.exec.seed);
}

int scn_p_rounds(struct scn_reader *r)
{
	if (num32(r, &r->s->cfg.rounds))
		return -1;
	/* bounded: a billion rounds is days of emulation, not a test
	 * (SCN_MAX_ROUNDS) */
	if (r->s->cfg.rounds > SCN_MAX_ROUNDS)
		return ftv_errf(r->err, "rounds: %s is more than %u", r->w[1], SCN_MAX_ROUNDS);
	return 0;
}

int scn_p_calls(struct scn_reader *r)
{
	if (num32(r, &r->s->cfg.calls))
		return -1;
	if (r->s->cfg.calls > SCN_MAX_CALLS)
		return ftv_errf(r->err, "calls: %s is more than %u", r->w[1], SCN_MAX_CALLS);
	return 0;
}

int scn_p_workload(struct scn_reader *r)
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

int scn_p_max_executions(struct scn_reader *r)
{
	return num(r, &r->s->max_executions);
}

int scn_p_steps(struct scn_reader *r)
{
	if (num(r, &r->s->steps))
		return -1;
	if (!r->s->steps || r->s->steps > SCN_MAX_STEPS)
		return ftv_errf(r->err, "steps: %s is not 1..%llu", r->w[1],
				(unsigned long long)SCN_MAX_STEPS);
	r->s->steps_set = 1;
	return 0;
}

int scn_p_mutate(struct scn_reader *r)
{
	const struct ftv_mutant *m = ftv_mutant_find(r->w[1]);

	if (!m)
		return ftv_errf(r->err, "unknown mutant '%s'", r->w[1]);
	r->s->mutant = m;
	r->s->mutate_line = r->line;
	return 0;
}

int scn_p_expect(struct scn_reader *r)
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

int scn_p_preempt(struct scn_reader *r)
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

/* The line's addresses (0x...), appended to v[*n] (at most max: what
 * they are, in the message). */
static int addresses(struct scn_reader *r, uint64_t *v, unsigned *n, unsigned max,
		     const char *what)
{
	for (int i = 1; i < r->n; i++) {
		char *end;

		if (*n >= max)
			return ftv_errf(r->err, "%s: at most %u %s", r->w[0], max, what);
		v[(*n)++] = strtoull(r->w[i], &end, 16);
		if (strncmp(r->w[i], "0x", 2) || *end)
			return ftv_errf(r->err, "%s: %s is not an address (0x...)", r->w[0],
					r->w[i]);
	}
	return 0;
}

int scn_p_observe(struct scn_reader *r)
{
	return addresses(r, r->s->observe, &r->s->nobserve, SCN_MAX_OBSERVE, "granules");
}

int scn_p_channels(struct scn_reader *r)
{
	return addresses(r, r->s->channels, &r->s->nchannels, SCN_MAX_CHANNELS, "channels");
}

int scn_p_schedule(struct scn_reader *r)
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
int scn_p_operation(struct scn_reader *r)
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

