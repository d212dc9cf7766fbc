/* ftv verify --combine FILE...: one verdict per world out of the --json
 * outputs of its shards (`ftv verify --shard I/N --json`). Each FILE holds
 * JSON objects, one a line, of type "verify"; the objects of one world
 * (its scenario file and name) must agree on the shard count, the
 * reduction and the mutant, and each shard index may appear once. The
 * world is verified only when every shard of 0..N-1 is there and
 * complete; a counterexample in any shard is the world's (the one with
 * the fewest visible steps, its replay file named); otherwise it is
 * incomplete, naming the shards missing or incomplete. Executions,
 * pruned branches, steps and seconds are summed. */
#include "tools/verify_combine.h"
#include "tools/shards.h"

#include "util/err.h"
#include "util/json.h"
#include "util/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/vec.h"

/* A shard's object is read and checked by the merging mechanism of
 * tools/shards.h; what a world's shards mean together is judged here. */
struct vworld {
	const char *name, *path;  /* in the first shard's object */
	const struct shard_obj **s;
	size_t n, cap;
};

struct vread {
	struct shard_obj *v;
	size_t n, cap;
};

static uint64_t u64_of(const struct jvalue *o, const char *key)
{
	uint64_t x = 0;
	const struct jvalue *v = jget(o, key);

	if (v)
		jget_u64(v, &x);
	return x;
}

static int bool_of(const struct jvalue *o, const char *key)
{
	const struct jvalue *v = jget(o, key);

	return v && v->type == JBOOL && v->b;
}

static const char *str_of(const struct jvalue *o, const char *key)
{
	const char *s = jget_str(o, key);

	return s ? s : "";
}

/* Reads every object of path into *v; 0, or -1 after one line on stderr. */
/* One line: an object of ftv verify --json. */
static int take_line(void *ctx, const char *file, unsigned line, struct jvalue *v,
		     struct ftv_err *err)
{
	struct vread *r = ctx;
	struct shard_obj o = { file, line, *v, 0, 0 };
	const char *type = jget_str(v, "type");

	if (v->type != JOBJ || !type || strcmp(type, "verify") || !jget_str(v, "file") ||
	    !jget(v, "shard") || !jget(v, "shards") || !jget(v, "complete"))
		return ftv_errf(err, "%s:%u: not an object of ftv verify --json", file, line);
	o.idx = u64_of(v, "shard");
	o.n = u64_of(v, "shards");
	if (VEC_PUSH(r->v, r->n, r->cap, o))
		return ftv_errf(err, "out of memory");
	return 0;
}

/* The fields the shards of one world share. */
static const char *const same_fields[] = { "shards", "reduced", "mutate", "scheme", "cpus",
					   NULL };

/* The shards of w there but incomplete, "1, 3" (the missing ones:
 * shards_missing). */
static void list_incomplete(const struct vworld *w, char *buf, size_t len)
{
	uint64_t n = w->s[0]->n;
	size_t at = 0, cnt = 0;

	buf[0] = 0;
	for (uint64_t i = 0; i < n && at + 24 < len; i++) {
		const struct jvalue *o = NULL;

		for (size_t k = 0; k < w->n && !o; k++)
			if (w->s[k]->idx == i)
				o = &w->s[k]->v;
		if (!o || bool_of(o, "complete"))
			continue;
		if (cnt++ == 16) {
			at += (size_t)snprintf(buf + at, len - at, ", ...");
			break;
		}
		at += (size_t)snprintf(buf + at, len - at, "%s%llu", cnt > 1 ? ", " : "",
				       (unsigned long long)i);
	}
}

/* Prints w's verdict; returns its exit status. */
static int judge(const struct vworld *w, int json)
{
	uint64_t nshards = u64_of(&w->s[0]->v, "shards");
	uint64_t exec = 0, pruned = 0, blocked = 0, steps = 0;
	double secs = 0, smax = 0;
	int all_complete = w->n == nshards;
	const struct jvalue *cx = NULL;
	char missing[256], partial[256];
	const char *verdict;
	int status;

	for (size_t i = 0; i < w->n; i++) {
		const struct jvalue *o = &w->s[i]->v;
		const struct jvalue *sv = jget(o, "seconds");
		double t = 0;

		exec += u64_of(o, "executions");
		pruned += u64_of(o, "pruned");
		blocked += u64_of(o, "blocked");
		steps += u64_of(o, "steps");
		if (sv && !jget_double(sv, &t)) {
			secs += t;
			if (t > smax)
				smax = t;
		}
		if (!bool_of(o, "complete"))
			all_complete = 0;
		if (!strcmp(str_of(o, "verdict"), "violation") &&
		    (!cx || u64_of(o, "counterexample_steps") <
				    u64_of(cx, "counterexample_steps")))
			cx = o;
	}
	shards_missing(w->s, w->n, nshards, 0, missing, sizeof(missing));
	list_incomplete(w, partial, sizeof(partial));
	verdict = cx ? "violation" : all_complete ? "verified" : "incomplete";
	status = cx ? FTV_EXIT_VIOLATION : all_complete ? FTV_EXIT_OK : FTV_EXIT_INCOMPLETE;
	if (json) {
		struct json j;

		json_init(&j, stdout);
		json_begin_object(&j);
		json_key_str(&j, "type", "verify-combined");
		json_key_str(&j, "name", w->name);
		json_key_str(&j, "file", w->path);
		json_key_str(&j, "verdict", verdict);
		json_key_bool(&j, "complete", all_complete);
		json_key_u64(&j, "shards", nshards);
		json_key_u64(&j, "shards_seen", w->n);
		json_key_str(&j, "shards_missing", missing);
		json_key_str(&j, "shards_incomplete", partial);
		json_key_u64(&j, "executions", exec);
		json_key_u64(&j, "pruned", pruned);
		json_key_u64(&j, "blocked", blocked);
		json_key_u64(&j, "steps", steps);
		json_key_double(&j, "seconds", secs, 3);
		if (cx) {
			json_key_u64(&j, "counterexample_shard", u64_of(cx, "shard"));
			json_key_str(&j, "kinds", str_of(cx, "kinds"));
			json_key_u64(&j, "counterexample_steps", u64_of(cx, "counterexample_steps"));
			json_key_str(&j, "schedule", str_of(cx, "schedule"));
			json_key_str(&j, "replay", str_of(cx, "replay"));
		}
		json_end_object(&j);
		json_newline(&j);
		return status;
	}
	printf("== %s: %s, %llu of %llu shards (scheme %s, %llu CPUs, %s, mutate %s)\n", w->name,
	       w->path, (unsigned long long)w->n, (unsigned long long)nshards,
	       str_of(&w->s[0]->v, "scheme"), (unsigned long long)u64_of(&w->s[0]->v, "cpus"),
	       bool_of(&w->s[0]->v, "reduced") ? "reduced" : "unreduced",
	       jget_str(&w->s[0]->v, "mutate") ? str_of(&w->s[0]->v, "mutate") : "none");
	if (cx) {
		printf("counterexample: %llu visible steps, violation %s (shard %llu)\n",
		       (unsigned long long)u64_of(cx, "counterexample_steps"), str_of(cx, "kinds"),
		       (unsigned long long)u64_of(cx, "shard"));
		printf("schedule: %s\n", str_of(cx, "schedule"));
		printf("replay: %s\n", str_of(cx, "replay"));
	} else if (all_complete) {
		printf("verified: %llu executions, complete (every one of the %llu shards)\n",
		       (unsigned long long)exec, (unsigned long long)nshards);
	} else {
		printf("incomplete after %llu executions (shards missing: %s; shards incomplete: %s): not verified\n",
		       (unsigned long long)exec, missing[0] ? missing : "none",
		       partial[0] ? partial : "none");
	}
	printf("executions: %llu; pruned %llu, sleep-set blocked %llu, %llu steps; %.1f s in all, the longest shard %.1f s\n",
	       (unsigned long long)exec, (unsigned long long)pruned, (unsigned long long)blocked,
	       (unsigned long long)steps, secs, smax);
	return status;
}

int verify_combine(int nfiles, const char *const *files, int json)
{
	struct vread r = { NULL, 0, 0 };
	struct shard_obj *v;
	struct vworld *w = NULL;
	size_t n, nw = 0, capw = 0;
	int status = FTV_EXIT_OK, ret = FTV_EXIT_USAGE;
	struct ftv_err err;

	for (int i = 0; i < nfiles; i++)
		if (shards_read(files[i], "not the --json output of ftv verify", take_line, &r,
				&err)) {
			fprintf(stderr, "ftv verify: %s\n", err.msg);
			goto out;
		}
	v = r.v;
	n = r.n;
	if (!n) {
		fprintf(stderr, "ftv verify: --combine: no verify objects in the files\n");
		goto out;
	}
	/* the worlds, in order of first appearance */
	for (size_t i = 0; i < n; i++) {
		const char *path = jget_str(&v[i].v, "file");
		const char *name = str_of(&v[i].v, "name");
		size_t k;

		for (k = 0; k < nw; k++)
			if (!strcmp(w[k].path, path) && !strcmp(w[k].name, name))
				break;
		if (k == nw) {
			struct vworld z = { name, path, NULL, 0, 0 };

			if (VEC_PUSH(w, nw, capw, z))
				goto oom;
		}
		if (VEC_PUSH(w[k].s, w[k].n, w[k].cap, &v[i]))
			goto oom;
	}
	for (size_t k = 0; k < nw; k++)
		if (shards_agree(w[k].s, w[k].n, same_fields, "world", &err)) {
			fprintf(stderr, "ftv verify: %s (%s)\n", err.msg, w[k].name);
			goto out;
		}
	for (size_t k = 0; k < nw; k++) {
		int st = judge(&w[k], json);

		/* a violation outranks incomplete, which outranks verified */
		if (st == FTV_EXIT_VIOLATION || (st == FTV_EXIT_INCOMPLETE && status == FTV_EXIT_OK))
			status = st;
	}
	ret = status;
	goto out;
oom:
	fprintf(stderr, "ftv verify: out of memory\n");
out:
	for (size_t k = 0; k < nw; k++)
		free(w[k].s);
	free(w);
	for (size_t i = 0; i < r.n; i++)
		jfree(&r.v[i].v);
	free(r.v);
	return ret;
}
