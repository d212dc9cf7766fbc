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

/* --- the table -------------------------------------------------------------- */

#define ANY (-1)

/* In the order scenario_write writes them. */
static const struct scn_keyword keywords[] = {
	{ "name", "NAME", 1, 1, scn_p_name, scn_w_name, "the scenario's name, in reports" },
	{ "scheme", "SCHEME", 1, 1, scn_p_scheme, scn_w_scheme,
	  "the patching scheme: callops, tramp, mcount, ... (arm64), pair or atomic "
	  "(riscv64); it implies the architecture" },
	{ "arch", "ARCH", 1, 1, scn_p_arch, NULL,
	  "arm64 or riscv64: optional; alone, its default scheme (what Linux does "
	  "today); with scheme, they must agree" },
	{ "objects", "NAME...", 0, ANY, scn_p_objects, scn_w_objects,
	  "corpus objects loaded with the kernel: build/corpus/[random-]SET/NAME.o of "
	  "the scheme's flag set" },
	{ "object", "PATH", 1, ANY, scn_p_object, scn_w_object,
	  "any object by path, the rest of the line, relative to the file's directory "
	  "(repeatable): .o loaded with the kernel, .ko, .ko.xz, .ko.zst or .ko.gz as a "
	  "module at boot (enable-modules enables it); undefined symbols are bound to "
	  "trap stubs" },
	{ "call", "FUNC[,FUNC]...", 1, ANY, scn_p_call, scn_w_call,
	  "the functions of the objects given by path that the workload calls "
	  "(repeatable); without it, every one the call probe accepts" },
	{ "modules", "NAME...", 0, ANY, scn_p_objects, scn_w_modules,
	  "corpus objects loaded as modules at boot" },
	{ "late-modules", "NAME...", 0, ANY, scn_p_objects, scn_w_modules,
	  "corpus modules linked at boot, loaded by module-load while the CPUs run" },
	{ "far-modules", "", 0, 0, scn_p_far_modules, scn_w_far_modules,
	  "modules more than 128 MiB from kernel text (reached through their ftrace "
	  "PLT)" },
	{ "vacuous", "", 0, 0, scn_p_vacuous, scn_w_vacuous,
	  "the scenario means to reach nothing (no site, no tracer call): without it "
	  "such a run is vacuous, exit 2" },
	{ "symmetric", "", 0, 0, scn_p_symmetric, scn_w_symmetric,
	  "every CPU calls the same functions with the same arguments (drawn once "
	  "for all): CPUs that differ only by their number, which the stateful "
	  "walk may interchange (executor/exec_sym.h)" },
	{ "cpus", "N", 0, 1, scn_p_cpus, scn_w_cpus, "emulated CPUs, 1 to 32 (default 4)" },
	{ "policy", "POLICY", 1, 1, scn_p_policy, scn_w_policy,
	  "the scheduler: random (default), quantum, pct, or exhaustive (every "
	  "execution explored, as ftv verify does)" },
	{ "quantum", "N", 0, 1, scn_p_quantum, scn_w_quantum,
	  "steps of a CPU's turn under the quantum and pct policies" },
	{ "pct-depth", "N", 0, 1, scn_p_pct_depth, scn_w_pct_depth,
	  "the pct policy's priority change points" },
	{ "drain-hold", "N", 0, 1, scn_p_drain_hold, scn_w_drain_hold,
	  "half the patcher's buffered stores are held back for up to N steps each "
	  "(not under exhaustive)" },
	{ "cpu-hold", "N", 0, 1, scn_p_cpu_hold, scn_w_cpu_hold,
	  "after one turn in four a CPU is held back for up to N steps while the "
	  "others move on (not under exhaustive)" },
	{ "window-hold", "N", 0, 1, scn_p_window_hold, scn_w_window_hold,
	  "a CPU stopped at the scheme's preemption point (mcount-ops: function_trace_op "
	  "loaded, ftrace_call next) while an update is in flight is, half the time, held "
	  "back for up to N steps (not under exhaustive)" },
	{ "tail-rounds", "N", 0, 1, scn_p_tail_rounds, scn_w_tail_rounds,
	  "once the last operation has landed each CPU runs the round it is in and N "
	  "more, then stops (not under exhaustive; default 0: every round)" },
	{ "cachetype", "DIC|IDC...", 1, ANY, scn_p_cachetype, scn_w_cachetype,
	  "the cores' CTR_EL0.DIC and/or IDC (default neither)" },
	{ "seed", "N", 0, 1, scn_p_seed, scn_w_seed, "the scheduler's seed (default 1)" },
	{ "rounds", "N", 0, 1, scn_p_rounds, scn_w_rounds, "workload rounds per CPU (default 20)" },
	{ "calls", "N", 0, 1, scn_p_calls, scn_w_calls,
	  "calls per round per CPU, drawn from the callable functions (default 16)" },
	{ "workload", "FUNC...", 1, ANY, scn_p_workload, scn_w_workload,
	  "each CPU's round calls exactly these traced functions, in order, instead of "
	  "calls random ones" },
	{ "max-executions", "N", 0, 1, scn_p_max_executions, scn_w_max_executions,
	  "exhaustive: stop, incomplete, after N executions (default 1000000)" },
	{ "steps", "N", 0, 1, scn_p_steps, scn_w_steps,
	  "the scheduler step budget to finish in (default 100000; per execution when "
	  "exhaustive)" },
	{ "mutate", "MUTANT", 1, 1, scn_p_mutate, scn_w_mutate,
	  "a deliberate bug of the scheme's backend or of the core (default none)" },
	{ "expect", "ok|verified|violation [KIND...]", 1, ANY, scn_p_expect, scn_w_expect,
	  "the verdict ftv conform compares with: no violation, explored completely "
	  "without one, or a violation of each KIND (see ftv(1), VIOLATIONS); "
	  "optional for ftv scenario, which reports whatever it finds" },
	{ "settle", "", 0, 0, scn_p_settle, NULL,
	  "between operations, before every run: those above are applied at once, "
	  "each to completion, before any CPU runs; those below are queued (written "
	  "among the operations)" },
	{ "VERB", "ARG...", 0, ANY, scn_p_operation, scn_w_operations,
	  "an ftrace operation, in order (see OPERATIONS)" },
	{ "preempt", "SYM+OFF...", 1, ANY, scn_p_preempt, scn_w_preempt,
	  "exhaustive: a CPU's turn also ends before this instruction (what ftv "
	  "verify found loading watched data)" },
	{ "observe", "0xADDR...", 1, ANY, scn_p_observe, scn_w_observe,
	  "exhaustive replay: the CPUs read these 8 bytes the patcher writes; its "
	  "other stores to data are no steps" },
	{ "channels", "0xADDR...", 1, ANY, scn_p_channels, scn_w_channels,
	  "exhaustive replay: the store buffer's channels in the walk's order (the "
	  "N of sbuf:N is the address N-th here)" },
	{ "schedule", "STEP...", 1, ANY, scn_p_schedule, scn_w_schedule,
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
		if (keywords[i].parse != scn_p_operation && !strcmp(keywords[i].name, w))
			return &keywords[i];
	for (size_t i = 0; i < NKEYWORDS; i++)
		if (keywords[i].parse == scn_p_operation)
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
		return scn_p_object(r);
	}
	r->n = words(t, w, WORLD_MAX_OBJECTS + 1);
	if (r->n < 0)
		return ftv_errf(r->err, "%s: more than %d words", w[0], WORLD_MAX_OBJECTS + 1);
	r->rest = NULL;
	k = keyword(w[0]);
	if (k->parse != scn_p_operation && count_ok(r, k))
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
	if ((s->nsched || s->npreempt || s->nobserve || s->nchannels) && !s->explore)
		return ftv_errf(err, "%s: schedule, preempt, observe and channels need policy "
				"exhaustive", path);
	if (!s->steps_set)
		s->steps = scenario_default_steps(&s->cfg);
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
	if (ftv_text_check(f, path, err)) {
		fclose(f);
		return -1;
	}
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

int scenario_load(const char *path, struct scenario *s, struct ftv_err *err)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return ftv_errf(err, "%s: cannot open", path);
	return scenario_read(f, path, s, err);
}
