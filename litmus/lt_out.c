/* What a litmus run prints: ftv's one line, or herd7's block (the shape of
 * herdtools7 herd/top_herd.ml, so that mcompare7 and friends read it). */
#include "litmus/lt_int.h"
#include "util/json.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The proposition holds in some state (Allowed), in none (Forbidden), in
 * every one (Required). */
static int verdict(const struct litmus *lt, const struct litmus_result *r)
{
	if (!r->witnesses)
		return LT_K_FORBIDDEN;
	if (lt->quant == LQ_FORALL && r->witnesses == r->finished)
		return LT_K_REQUIRED;
	return LT_K_ALLOWED;
}

int litmus_verdict_ok(const struct litmus *lt, const struct litmus_result *r)
{
	int v = verdict(lt, r);

	if (lt->expect < 0)
		return LT_NO_EXPECTATION;
	if (lt->expect == LT_K_ALLOWED)
		return v == LT_K_FORBIDDEN ? (r->complete ? LT_MISMATCH
							  : LT_UNPROVEN)
					   : LT_OK;
	/* Forbidden: a witness refutes it; without one it holds only if
	 * every run was explored. Required: a run not satisfying the
	 * condition refutes it. */
	if (lt->expect == LT_K_FORBIDDEN && r->witnesses)
		return LT_MISMATCH;
	if (lt->expect == LT_K_REQUIRED && r->witnesses < r->finished)
		return LT_MISMATCH;
	return r->complete ? LT_OK : LT_UNPROVEN;
}

static const char *budget_text(const struct litmus_result *r, char *buf,
			       size_t n)
{
	switch (r->budget) {
	case LT_BUDGET_RUNS:
		snprintf(buf, n, ", INCOMPLETE (budget: %" PRIu64 " runs)",
			 r->budget_limit);
		break;
	case LT_BUDGET_TIME:
		snprintf(buf, n, ", INCOMPLETE (budget: %" PRIu64 " s)",
			 r->budget_limit / 1000);
		break;
	case LT_BUDGET_MEMORY:
		snprintf(buf, n, ", INCOMPLETE (budget: %" PRIu64 " MiB of memory)",
			 r->budget_limit);
		break;
	default:
		snprintf(buf, n, "%s",
			 r->complete ? ", complete" : ", INCOMPLETE (a run hit its step limit)");
	}
	return buf;
}

void litmus_print_line(FILE *f, const struct litmus *lt,
		       const struct litmus_result *r)
{
	int ok = litmus_verdict_ok(lt, r);
	char b[96];

	fprintf(f, "%-32s %-9s expected %-9s %-8s (%" PRIu64 " runs, %" PRIu64
		" finished, %" PRIu64 " witnesses%s)\n",
		lt->name,
		r->witnesses ? (verdict(lt, r) == LT_K_REQUIRED ? "Required"
								 : "Allowed")
			     : "Forbidden",
		litmus_kind_name(lt->expect),
		ok == LT_NO_EXPECTATION ? "-" : ok == LT_OK ? "ok"
			: ok == LT_UNPROVEN ? "unproven" : "MISMATCH",
		r->runs, r->finished,
		r->witnesses, budget_text(r, b, sizeof(b)));
}

/* A test ftv reads but cannot model: its verdict is "unsupported", with
 * the construct and where it is (litmus_unsupported). */
void litmus_print_json_unsupported(FILE *f, const struct litmus *lt)
{
	struct json j;

	json_init(&j, f);
	json_begin_object(&j);
	json_key_str(&j, "type", "litmus");
	json_key_str(&j, "name", lt->name);
	json_key_str(&j, "file", lt->path);
	json_key_str(&j, "verdict", "unsupported");
	json_key_str(&j, "why", litmus_unsupported(lt));
	json_end_object(&j);
	json_newline(&j);
}

void litmus_print_json(FILE *f, const struct litmus *lt, const struct litmus_result *r)
{
	int ok = litmus_verdict_ok(lt, r);
	char b[96];
	struct json j;

	budget_text(r, b, sizeof(b));
	json_init(&j, f);
	json_begin_object(&j);
	json_key_str(&j, "type", "litmus");
	json_key_str(&j, "name", lt->name);
	json_key_str(&j, "file", lt->path);
	json_key_str(&j, "verdict", r->witnesses ? (verdict(lt, r) == LT_K_REQUIRED ? "Required"
										 : "Allowed")
						 : "Forbidden");
	json_key_str(&j, "expected", litmus_kind_name(lt->expect));
	json_key_str(&j, "result", ok == LT_NO_EXPECTATION ? "-" : ok == LT_OK ? "ok"
				   : ok == LT_UNPROVEN ? "unproven" : "mismatch");
	json_key_bool(&j, "complete", r->complete);
	json_key_u64(&j, "runs", r->runs);
	json_key_u64(&j, "finished", r->finished);
	json_key_u64(&j, "witnesses", r->witnesses);
	json_key_u64(&j, "states_met", r->states_met);
	json_key_u64(&j, "runs_cut", r->runs_cut);
	json_key_u64(&j, "elapsed_ms", r->elapsed_ms);
	/* what stopped an incomplete exploration, as the text line says it */
	json_key_str(&j, "budget", b[0] == ',' ? b + 2 : b);
	json_end_object(&j);
	json_newline(&j);
}

/* --- herd's shape ---------------------------------------------------------- */

static void print_value(FILE *f, const struct litmus *lt,
			const struct lt_obs *o, uint64_t v)
{
	/* Addresses of locations and labels print as their names, the way
	 * herd prints symbolic values: "x", label:"P1:L2" (herd 7.58's
	 * spelling, as its init blocks and conditions write it). */
	for (int i = 0; i < lt->nloc; i++)
		if (v == lt_loc_addr(lt, lt->loc[i])) {
			fputs(lt->loc[i], f);
			return;
		}
	for (int i = 0; i < lt->nlabel; i++) {
		uint64_t a;

		if (!lt_find_label(lt, lt->label[i].thread, lt->label[i].name,
				   &a) && a == v) {
			fprintf(f, "label:\"P%d:%s\"", lt->label[i].thread,
				lt->label[i].name);
			return;
		}
	}
	if (o->vkind == LV_INSN) {
		char text[96];
		struct ftv_err err;
		uint64_t w;

		/* an instruction the test names, as it writes it (herd
		 * prints instr:"B .+4", not its disassembly) */
		for (int i = 0; i < lt->ninit; i++)
			if (lt->init[i].v.kind == LV_INSN &&
			    strcasecmp(lt->init[i].v.text, "NOP") &&
			    !lt_resolve_value(lt, &lt->init[i].v, &w, &err) &&
			    (uint32_t)w == (uint32_t)v) {
				fprintf(f, "instr:\"%s\"", lt->init[i].v.text);
				return;
			}

		lt->arch->disasm((uint32_t)v, 0, text, sizeof(text));
		if (!strcmp(text, "nop"))
			fputs("NOP", f);
		else
			fprintf(f, "instr:\"%s\"", text);
		return;
	}
	if (o->kind == LC_REG && o->is32)
		fprintf(f, "%" PRId32, (int32_t)v);
	else
		fprintf(f, "%" PRId64, (int64_t)v);
}

/* herd7 (herd/archExtra_herd.ml do_dump_final_state): "loc=value;"
 * items joined by spaces, then the faults that happened and " ~Fault(...);"
 * for the observed ones that did not. */
static void print_state(FILE *f, const struct litmus *lt,
			const struct litmus_state *s)
{
	int nf = 0, first = 1;

	for (int i = 0; i < lt->nobs; i++) {
		const struct lt_obs *o = &lt->obs[i];
		char reg[16];

		if (o->kind == LC_FAULT) {
			nf++;
			continue;
		}
		fputs(first ? "" : " ", f);
		first = 0;
		if (o->kind == LC_REG) {
			lt->arch->reg_name(o->reg, 0, reg, sizeof(reg));
			fprintf(f, "%d:%s=", o->thread, reg);
		} else {
			fprintf(f, "[%s]=", o->loc);
		}
		print_value(f, lt, o, s->val[i]);
		fputc(';', f);
	}
	if (nf) {
		int k = 0;

		fputc(' ', f);
		for (int i = 0; i < lt->nobs; i++) {
			const struct lt_obs *o = &lt->obs[i];

			/* a fault that happened has its kind, the one
			 * ftv models */
			if (o->kind == LC_FAULT && s->val[i])
				fprintf(f, "%sFault(P%d:%s,UndefinedInstruction);",
					k++ ? " " : "", o->lthread, o->label);
		}
		for (int i = 0; i < lt->nobs; i++) {
			const struct lt_obs *o = &lt->obs[i];

			if (o->kind == LC_FAULT && !s->val[i])
				fprintf(f, " ~Fault(P%d:%s%s%s);", o->lthread,
					o->label, o->fault[0] ? "," : "", o->fault);
		}
	}
	fputc('\n', f);
}

/* The proposition as herd prints it: conjunctions and disjunctions flat,
 * parentheses where a sub-proposition needs them. */
static void print_prop(FILE *f, const struct litmus *lt, int k, int parent)
{
	const struct lt_cond *c = &lt->cond[k];
	char reg[16];

	switch (c->kind) {
	case LC_TRUE:
		fputs("true", f);
		return;
	case LC_FALSE:
		fputs("false", f);
		return;
	case LC_AND:
	case LC_OR: {
		int paren = parent >= 0 && parent != (int)c->kind;

		fputs(paren ? "(" : "", f);
		print_prop(f, lt, c->a, (int)c->kind);
		fputs(c->kind == LC_AND ? " /\\ " : " \\/ ", f);
		print_prop(f, lt, c->b, (int)c->kind);
		fputs(paren ? ")" : "", f);
		return;
	}
	case LC_NOT:
		fputs("~", f);
		print_prop(f, lt, c->a, LC_NOT);
		return;
	case LC_FAULT:
		fprintf(f, "fault(P%d:%s%s%s)", c->lthread, c->label,
			c->fault[0] ? "," : "", c->fault);
		return;
	case LC_FETCH:
		fprintf(f, "%d:fetch(P%d:%s)=", c->thread, c->lthread, c->label);
		break;
	case LC_REG:
		lt->arch->reg_name(c->reg, c->is32, reg, sizeof(reg));
		fprintf(f, "%d:%s=", c->thread, reg);
		break;
	case LC_MEM:
		fprintf(f, "[%s]=", c->loc);
		break;
	}
	if (c->v.kind == LV_NUM) {
		fprintf(f, "%" PRId64, (int64_t)c->v.num);
	} else if (c->v.kind == LV_LOC) {
		fputs(c->v.name, f);
	} else if (c->v.kind == LV_CODE) {
		fprintf(f, "P%d:%s", c->v.thread, c->v.name);
	} else {
		fprintf(f, "instr:\"%s\"", c->v.text);
	}
}

/* herd lists states in its own order of values: the observed items in
 * order, numbers compared as numbers. */
static const struct litmus *sort_lt;

static int cmp_state(const void *a, const void *b)
{
	const struct litmus_state *x = a, *y = b;

	for (int i = 0; i < sort_lt->nobs; i++)
		if (x->val[i] != y->val[i])
			return (int64_t)x->val[i] < (int64_t)y->val[i] ? -1 : 1;
	return 0;
}

static const char *quant_text(enum lt_quant q)
{
	return q == LQ_FORALL ? "forall" : q == LQ_NOT_EXISTS ? "~exists"
							    : "exists";
}

void litmus_print_herd(FILE *f, const struct litmus *lt,
		       const struct litmus_result *r)
{
	struct litmus_state *st = malloc((r->nstates ? r->nstates : 1) *
					 sizeof(*st));
	uint64_t pos = r->witnesses, neg = r->finished - r->witnesses;
	int ok;

	if (!st)
		return;
	memcpy(st, r->states, r->nstates * sizeof(*st));
	sort_lt = lt;
	qsort(st, r->nstates, sizeof(*st), cmp_state);
	fprintf(f, "Test %s %s\n", lt->name,
		lt->quant == LQ_FORALL ? "Required" : "Allowed");
	fprintf(f, "States %zu\n", r->nstates);
	for (size_t i = 0; i < r->nstates; i++)
		print_state(f, lt, &st[i]);
	switch (lt->quant) {
	case LQ_EXISTS:
		ok = pos > 0;
		break;
	case LQ_NOT_EXISTS:
		ok = pos == 0;
		break;
	default:
		ok = neg == 0;
	}
	/* herd's "Loop" prefix: outcomes may be missing (its unrolling
	 * limit; here, an exploration budget). */
	fprintf(f, "%s%s\n", r->complete ? "" : "Loop ", ok ? "Ok" : "No");
	fprintf(f, "Witnesses\nPositive: %" PRIu64 " Negative: %" PRIu64 "\n",
		lt->quant == LQ_NOT_EXISTS ? neg : pos,
		lt->quant == LQ_NOT_EXISTS ? pos : neg);
	fprintf(f, "Condition %s (", quant_text(lt->quant));
	print_prop(f, lt, lt->root, -1);
	fputs(")\n", f);
	fprintf(f, "Observation %s %s %" PRIu64 " %" PRIu64 "\n", lt->name,
		!pos ? "Never" : !neg ? "Always" : "Sometimes", pos, neg);
	fprintf(f, "Time %s %.2f\n\n", lt->name, (double)r->elapsed_ms / 1000);
	free(st);
}
