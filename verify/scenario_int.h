/* What the scenario files share: scenario_target.c (the world as the
 * verbs' target), scenario_objects.c (objects, calls, a run's world
 * configuration), scenario_parse.c and scenario_write.c (each keyword's
 * parser and writer), scenario_lang.c (the keyword table, the reader and
 * the writer), scenario.c (running and judging). */
#ifndef FTV_VERIFY_SCENARIO_INT_H
#define FTV_VERIFY_SCENARIO_INT_H

#include <stdio.h>

#include "patcher/ftrace_verbs.h"
#include "verify/scenario.h"

/* The world as the ftrace verbs' target (ops NAME TRACER, filter, ...). */
const struct ftrace_target *scenario_target(void);
/* An operation's arguments, as the verb reads them: how many into av. */
int scenario_op_args(const struct scn_op *op, char **av);

/* One line being read (verify/scenario_lang.c reads, the parsers of
 * verify/scenario_parse.c take it). */
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

/* The keywords that set one unsigned exec_config field of the same name
 * (the scheduler's numbers): parsed by num32, written when not zero. */
#define SCN_EXEC_U32(X) X(quantum) X(pct_depth) X(drain_hold) X(cpu_hold) X(window_hold) X(tail_rounds)

/* The keywords' parsers (verify/scenario_parse.c): 0, or -1 with r->err
 * (the message, without file:line). */
#define SCN_PARSERS(X) X(name) X(scheme) X(arch) X(objects) X(object) X(call) X(settle) X(far_modules) X(vacuous) X(symmetric) X(cpus) X(policy) X(quantum) X(pct_depth) X(drain_hold) X(cpu_hold) X(window_hold) X(tail_rounds) X(cachetype) X(seed) X(rounds) X(calls) X(workload) X(max_executions) X(steps) X(mutate) X(expect) X(preempt) X(observe) X(channels) X(schedule) X(operation)
#define SCN_PARSER_DECL(k) int scn_p_##k(struct scn_reader *r);
SCN_PARSERS(SCN_PARSER_DECL)
#undef SCN_PARSER_DECL
/* Their writers (verify/scenario_write.c): the lines of keyword kw for s. */
#define SCN_WRITERS(X) X(name) X(scheme) X(objects) X(object) X(call) X(modules) X(far_modules) X(vacuous) X(symmetric) X(cpus) X(policy) X(quantum) X(pct_depth) X(drain_hold) X(cpu_hold) X(window_hold) X(tail_rounds) X(cachetype) X(seed) X(rounds) X(calls) X(workload) X(max_executions) X(steps) X(mutate) X(expect) X(operations) X(preempt) X(observe) X(channels) X(schedule)
#define SCN_WRITER_DECL(k) void scn_w_##k(FILE *f, const char *kw, const struct scenario *s);
SCN_WRITERS(SCN_WRITER_DECL)
#undef SCN_WRITER_DECL

#endif
