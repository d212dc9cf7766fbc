/* A tokenizer state machine: numbers, identifiers and operators, driven
 * by a transition function per state. */
#include "corpus.h"

enum state { S_START, S_NUM, S_IDENT, S_OP, S_ERROR, S_NSTATES };

struct fsm {
	enum state st;
	long cur;
	int tokens, errors;
	long *numbers;
	int nnum, max;
};

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_op(char c)
{
	return c == '+' || c == '-' || c == '*' || c == '/' || c == '=';
}

static void emit_number(struct fsm *m)
{
	if (m->numbers && m->nnum < m->max)
		m->numbers[m->nnum++] = m->cur;
	m->tokens++;
	m->cur = 0;
}

static enum state on_start(struct fsm *m, char c)
{
	if (is_digit(c)) {
		m->cur = c - '0';
		return S_NUM;
	}
	if (is_alpha(c))
		return S_IDENT;
	if (is_op(c))
		return S_OP;
	if (c == ' ' || c == '\t' || c == '\n')
		return S_START;
	return S_ERROR;
}

static enum state on_num(struct fsm *m, char c)
{
	if (is_digit(c)) {
		m->cur = m->cur * 10 + (c - '0');
		return S_NUM;
	}
	emit_number(m);
	return on_start(m, c);
}

static enum state on_ident(struct fsm *m, char c)
{
	if (is_alpha(c) || is_digit(c))
		return S_IDENT;
	m->tokens++;
	return on_start(m, c);
}

static enum state on_op(struct fsm *m, char c)
{
	m->tokens++;
	return on_start(m, c);
}

static enum state on_error(struct fsm *m, char c)
{
	m->errors++;
	return on_start(m, c);
}

static enum state (*const step[S_NSTATES])(struct fsm *, char) = {
	[S_START] = on_start, [S_NUM] = on_num, [S_IDENT] = on_ident,
	[S_OP] = on_op, [S_ERROR] = on_error,
};

static void fsm_feed(struct fsm *m, const char *s)
{
	for (; *s; s++)
		m->st = step[m->st](m, *s);
	m->st = step[m->st](m, ' ');
}

int fsm_run(const char *input)
{
	struct fsm m = { S_START, 0, 0, 0, NULL, 0, 0 };

	fsm_feed(&m, input);
	return m.errors ? -m.errors : m.tokens;
}

long fsm_tokens(const char *input, long *numbers, int max)
{
	struct fsm m = { S_START, 0, 0, 0, numbers, 0, max };

	fsm_feed(&m, input);
	return m.nnum;
}
