/* Each keyword's writer (the table: verify/scenario_lang.c): its lines
 * for a scenario, nothing when the scenario has the default. */
#include "verify/scenario_int.h"

#include <stdarg.h>
#include <string.h>

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

void scn_w_name(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", s->name);
}

void scn_w_scheme(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", ftv_scheme_name(s->cfg.scheme));
}

void scn_w_objects(FILE *f, const char *kw, const struct scenario *s)
{
	words_line(f, kw, s->objects[0], sizeof(s->objects[0]), s->cfg.nobjects);
}

void scn_w_object(FILE *f, const char *kw, const struct scenario *s)
{
	for (unsigned i = 0; i < s->nuser; i++)
		line(f, kw, "%s", s->user_objects[i]);
}

/* a line a reader takes whole: names up to about 1000 bytes each */
void scn_w_call(FILE *f, const char *kw, const struct scenario *s)
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
void scn_w_modules(FILE *f, const char *kw, const struct scenario *s)
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

void scn_w_far_modules(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.far_modules)
		line(f, kw, NULL);
}

void scn_w_symmetric(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.symmetric)
		line(f, kw, NULL);
}

void scn_w_vacuous(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->vacuous_ok)
		line(f, kw, NULL);
}

void scn_w_cpus(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%u", s->cfg.exec.ncpus);
}

void scn_w_policy(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%s", exec_policy_name(s->cfg.exec.policy));
}

/* an unsigned field written when set */
static void u32_line(FILE *f, const char *kw, unsigned v)
{
	if (v)
		line(f, kw, "%u", v);
}

#define SCN_W_EXEC_U32(k)                                                    \
	void scn_w_##k(FILE *f, const char *kw, const struct scenario *s)    \
	{                                                                    \
		u32_line(f, kw, s->cfg.exec.k);                             \
	}
SCN_EXEC_U32(SCN_W_EXEC_U32)
#undef SCN_W_EXEC_U32

void scn_w_cachetype(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.exec.dic || s->cfg.exec.idc)
		fprintf(f, "%s%s%s\n", kw, s->cfg.exec.dic ? " DIC" : "",
			s->cfg.exec.idc ? " IDC" : "");
}

void scn_w_seed(FILE *f, const char *kw, const struct scenario *s)
{
	line(f, kw, "%llu", (unsigned long long)s->cfg.exec.seed);
}

void scn_w_rounds(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.rounds);
}

void scn_w_calls(FILE *f, const char *kw, const struct scenario *s)
{
	u32_line(f, kw, s->cfg.calls);
}

void scn_w_workload(FILE *f, const char *kw, const struct scenario *s)
{
	words_line(f, kw, s->call[0], sizeof(s->call[0]), s->cfg.ncall);
}

void scn_w_max_executions(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->max_executions)
		line(f, kw, "%llu", (unsigned long long)s->max_executions);
}

/* Only a budget the file gave, or one that is not what the reader would
 * compute from the rest (scenario_default_steps): written and read back,
 * a scenario is the same. */
void scn_w_steps(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->steps_set || s->steps != scenario_default_steps(&s->cfg))
		line(f, kw, "%llu", (unsigned long long)s->steps);
}

void scn_w_mutate(FILE *f, const char *kw, const struct scenario *s)
{
	if (s->cfg.mutant_name && strcmp(s->cfg.mutant_name, "none"))
		line(f, kw, "%s", s->cfg.mutant_name);
}

void scn_w_expect(FILE *f, const char *kw, const struct scenario *s)
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
void scn_w_operations(FILE *f, const char *kw, const struct scenario *s)
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

void scn_w_preempt(FILE *f, const char *kw, const struct scenario *s)
{
	for (unsigned i = 0; i < s->npreempt; i++)
		line(f, kw, "%s", s->preempt[i]);
}

/* Addresses, four a line. */
static void addresses(FILE *f, const char *kw, const uint64_t *v, unsigned n)
{
	for (unsigned i = 0; i < n; i += 4) {
		fprintf(f, "%-8s", kw);
		for (unsigned k = i; k < n && k < i + 4; k++)
			fprintf(f, " 0x%llx", (unsigned long long)v[k]);
		fputc('\n', f);
	}
}

void scn_w_observe(FILE *f, const char *kw, const struct scenario *s)
{
	addresses(f, kw, s->observe, s->nobserve);
}

void scn_w_channels(FILE *f, const char *kw, const struct scenario *s)
{
	addresses(f, kw, s->channels, s->nchannels);
}

void scn_w_schedule(FILE *f, const char *kw, const struct scenario *s)
{
	for (size_t i = 0; i < s->nsched; i += 16) {
		char buf[16 * 24];

		verify_schedule_format(s->sched + i, s->nsched - i < 16 ? s->nsched - i : 16,
				       buf, sizeof(buf));
		line(f, kw, "%s", buf);
	}
}

