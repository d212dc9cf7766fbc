/* ftv fuzz: shrinking a failing scenario (verify/fuzz.h). Every candidate
 * is a whole scenario run; the scheduler is seeded, so whether a candidate
 * fails is a function of the candidate alone and the shrink is
 * deterministic. */
#include "verify/fuzz.h"

#include <stdlib.h>
#include <string.h>

int fuzz_fails(struct scenario *s, const char *kind, const char *corpus_dir,
	       const char *tramp_dir, struct scn_result *res,
	       struct ftv_err *err)
{
	char have[300], want[40];

	/* a verdict, not a report: stop at the first violation */
	s->cfg.stop_early = 1;
	if (scenario_run(s, corpus_dir, tramp_dir, NULL, res, err))
		return -1;
	if (!res->violated)
		return 0;
	if (!kind || !*kind)
		return 1;
	snprintf(have, sizeof(have), " %s ", res->kinds);
	snprintf(want, sizeof(want), " %s ", kind);
	return strstr(have, want) != NULL;
}

struct shrinker {
	struct fuzz_shrink *sh;
	const char *kind;
	int ended;
};

/* Runs candidate c; if it still fails with the kind, it replaces *s. */
static int try(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	struct scn_result res;
	struct ftv_err err;
	int r;

	if (k->sh->tried >= k->sh->budget) {
		k->sh->end = FUZZ_SHRINK_BUDGET;
		k->ended = 1;
		return 0;
	}
	if (k->sh->stop && k->sh->stop(k->sh->ctx)) {
		k->sh->end = FUZZ_SHRINK_STOPPED;
		k->ended = 1;
		return 0;
	}
	k->sh->tried++;
	/* a rejected candidate (an operation on an ops a removed line
	 * created) is simply not smaller-and-failing */
	r = fuzz_fails(c, k->kind, k->sh->corpus_dir, k->sh->tramp_dir, &res, &err);
	if (r == 1) {
		*s = *c;
		k->sh->accepted++;
	}
	if (k->sh->progress)
		k->sh->progress(k->sh->ctx, k->sh);
	return r == 1;
}

static void drop_ops(struct scenario *c, unsigned from, unsigned n)
{
	memmove(&c->ops[from], &c->ops[from + n], (c->nops - from - n) * sizeof(c->ops[0]));
	c->nops -= n;
}

/* Fewer workload rounds: halve while it still fails. */
static int pass_rounds(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	while (!k->ended) {
		unsigned r = s->cfg.rounds ? s->cfg.rounds : 20;

		if (r <= 1)
			break;
		*c = *s;
		c->cfg.rounds = r / 2;
		if (!try(k, s, c))
			break;
		got = 1;
	}
	return got;
}

/* Fewer CPUs: the smallest count that still fails. */
static int pass_cpus(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	for (unsigned n = 1; n < s->cfg.exec.ncpus && !k->ended; n++) {
		*c = *s;
		c->cfg.exec.ncpus = n;
		if (try(k, s, c))
			return 1;
	}
	return 0;
}

/* Everything one ops does goes at once (its creation and every operation
 * naming it). */
static int pass_ops_groups(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	for (unsigned i = 0; i < s->nops && !k->ended; i++) {
		char name[64];

		if (strcmp(s->ops[i].verb, "ops"))
			continue;
		snprintf(name, sizeof(name), "%s", s->ops[i].a);
		*c = *s;
		c->nops = 0;
		for (unsigned j = 0; j < s->nops; j++)
			if (strcmp(s->ops[j].a, name) || !strcmp(s->ops[j].verb, "run"))
				c->ops[c->nops++] = s->ops[j];
		if (try(k, s, c)) {
			got = 1;
			i = (unsigned)-1; /* the indices moved: start over */
		}
	}
	return got;
}

/* Chunks of operations, halving the chunk size (delta debugging's
 * complement step). */
static int pass_chunks(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	for (unsigned chunk = s->nops / 2 ? s->nops / 2 : 1; chunk >= 1 && !k->ended;
	     chunk /= 2) {
		for (unsigned from = 0; from + chunk <= s->nops && !k->ended;) {
			*c = *s;
			drop_ops(c, from, chunk);
			if (try(k, s, c))
				got = 1;
			else
				from += chunk;
		}
		if (chunk == 1)
			break;
	}
	return got;
}

/* The names of a filter or notrace spec but [from, from + n). */
static void spec_without(const char *spec, unsigned from, unsigned n, char *out, size_t len)
{
	char buf[1024];
	unsigned idx = 0;

	snprintf(buf, sizeof(buf), "%s", spec);
	out[0] = 0;
	for (char *t = strtok(buf, ","); t; t = strtok(NULL, ","), idx++) {
		size_t l = strlen(out);

		if (idx < from || idx >= from + n)
			snprintf(out + l, len - l, "%s%s", l ? "," : "", t);
	}
}

/* Fewer sites per filter or notrace list: chunks of names, halving the
 * chunk size, down to one name at a time. */
static int pass_sites(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	for (unsigned i = 0; i < s->nops && !k->ended; i++) {
		unsigned n = 1;

		if (strcmp(s->ops[i].verb, "filter") && strcmp(s->ops[i].verb, "notrace"))
			continue;
		for (const char *p = s->ops[i].b; *p; p++)
			n += *p == ',';
		for (unsigned chunk = n / 2; chunk >= 1 && n > 1 && !k->ended;
		     chunk /= 2) {
			for (unsigned from = 0; from + chunk <= n && n > 1 && !k->ended;) {
				*c = *s;
				spec_without(s->ops[i].b, from, chunk, c->ops[i].b,
					     sizeof(c->ops[i].b));
				if (try(k, s, c)) {
					got = 1;
					n -= chunk;
				} else {
					from += chunk;
				}
			}
		}
	}
	return got;
}

/* Shorter runs: halve each run's steps while it still fails. */
static int pass_runs(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	for (unsigned i = 0; i < s->nops && !k->ended; i++) {
		unsigned long long v;

		if (strcmp(s->ops[i].verb, "run"))
			continue;
		v = strtoull(s->ops[i].a, NULL, 0);
		if (v <= 1)
			continue;
		*c = *s;
		snprintf(c->ops[i].a, sizeof(c->ops[i].a), "%llu", v / 2);
		if (try(k, s, c)) {
			got = 1;
			i--; /* halve this one again */
		}
	}
	return got;
}

/* Two runs in a row become one of their total length. */
static int pass_merge_runs(struct shrinker *k, struct scenario *s, struct scenario *c)
{
	int got = 0;

	for (unsigned i = 0; i + 1 < s->nops && !k->ended; i++) {
		if (strcmp(s->ops[i].verb, "run") || strcmp(s->ops[i + 1].verb, "run"))
			continue;
		*c = *s;
		snprintf(c->ops[i].a, sizeof(c->ops[i].a), "%llu",
			 strtoull(s->ops[i].a, NULL, 0) + strtoull(s->ops[i + 1].a, NULL, 0));
		drop_ops(c, i + 1, 1);
		if (try(k, s, c)) {
			got = 1;
			i--; /* merge the next one into it too */
		}
	}
	return got;
}

int fuzz_shrink(struct scenario *s, const char *kind, struct fuzz_shrink *sh,
		struct ftv_err *err)
{
	struct shrinker k = { sh, kind, 0 };
	struct scenario *c = malloc(sizeof(*c));
	int (*const passes[])(struct shrinker *, struct scenario *, struct scenario *) = {
		pass_ops_groups, pass_rounds, pass_cpus, pass_chunks, pass_sites, pass_merge_runs,
		pass_runs,
	};

	if (!c)
		return ftv_errf(err, "out of memory");
	if (!sh->budget)
		sh->budget = 100;
	sh->tried = sh->accepted = 0;
	sh->end = FUZZ_SHRINK_DONE;
	for (int progress = 1; progress && !k.ended;) {
		progress = 0;
		for (size_t p = 0; p < sizeof(passes) / sizeof(passes[0]) && !k.ended; p++)
			progress |= passes[p](&k, s, c);
	}
	free(c);
	return 0;
}

void fuzz_pick_kind(const char *kinds, char *out, size_t n)
{
	static const char *const symptoms[] = { "fault", "unfinished", "stuck" };
	const char *first = NULL, *p = kinds;

	out[0] = 0;
	while (*p) {
		size_t l = strcspn(p, " "), k;

		if (l) {
			if (!first)
				first = p;
			for (k = 0; k < sizeof(symptoms) / sizeof(symptoms[0]); k++)
				if (strlen(symptoms[k]) == l && !strncmp(p, symptoms[k], l))
					break;
			if (k == sizeof(symptoms) / sizeof(symptoms[0])) {
				snprintf(out, n, "%.*s", (int)l, p);
				return;
			}
		}
		p += l + (p[l] == ' ');
	}
	if (first)
		snprintf(out, n, "%.*s", (int)strcspn(first, " "), first);
}
