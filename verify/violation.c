/* A world's violations: what the checks add, and the report a kernel
 * developer reads (the executor's violations first, then the world's). */
#include "verify/world_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"
#include "verify/violation_kind.h"

int world_add_violation(struct world *w, const char *kind, int cpu,
			uint64_t step, const char *fmt, ...)
{
	struct world_violation *v;
	va_list ap;

	if (!violation_kind_find(kind)) {
		/* a check's kind missing from the table: a bug of ftv */
		fprintf(stderr, "ftv: internal error: violation kind '%s' is not in "
			"verify/violation_kind.c\n", kind);
		abort();
	}
	if (WORLD_RUN_RESERVE(&w->run, viol, w->run.nviol + 1))
		return -1;
	/* The first few of a kind tell the story; keep the report readable. */
	size_t same = 0;

	for (size_t i = 0; i < w->run.nviol; i++)
		same += !strcmp(w->run.viol[i].kind, kind);
	if (same >= 8)
		return 0;
	v = &w->run.viol[w->run.nviol++];
	/* every byte set: the run state hashes the same whatever the
	 * slot held before (world_run_hash) */
	memset(v, 0, sizeof(*v));
	snprintf(v->kind, sizeof(v->kind), "%s", kind);
	v->cpu = cpu;
	v->step = step;
	v->found = w->ex ? exec_steps(w->ex) : step;
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	return 0;
}

size_t world_nviolations(const struct world *w)
{
	return w->run.nviol;
}

const struct world_violation *world_violation(const struct world *w, size_t i)
{
	return i < w->run.nviol ? &w->run.viol[i] : NULL;
}

int world_exec_violation_shown(const struct exec_violation *v)
{
	/* a pair violation is reported as the world's pair-hazard, which
	 * says which update rewrote the pair (verify/explain_riscv64.c) */
	return v->kind != EXEC_V_PAIR;
}

size_t world_report(struct world *w, FILE *out)
{
	size_t nx;
	const struct exec_violation *xv = exec_violations(w->ex, &nx);
	size_t shown = 0;

	for (size_t i = 0; i < nx; i++)
		if (world_exec_violation_shown(&xv[i])) {
			if (xv[i].cpu >= 0)
				fprintf(out, "VIOLATION %s cpu%d step %llu: %s\n",
					exec_viol_name(xv[i].kind), xv[i].cpu,
					(unsigned long long)xv[i].step, xv[i].msg);
			else
				fprintf(out, "VIOLATION %s step %llu: %s\n",
					exec_viol_name(xv[i].kind),
					(unsigned long long)xv[i].step, xv[i].msg);
			shown++;
		}
	for (size_t i = 0; i < w->run.nviol; i++) {
		const struct world_violation *v = &w->run.viol[i];

		if (v->cpu >= 0)
			fprintf(out, "VIOLATION %s cpu%d step %llu: %s\n", v->kind, v->cpu,
				(unsigned long long)v->step, v->msg);
		else
			fprintf(out, "VIOLATION %s step %llu: %s\n", v->kind,
				(unsigned long long)v->step, v->msg);
	}
	return shown + w->run.nviol;
}
