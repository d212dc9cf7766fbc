/* Source lines of the loaded kernel code (kernel/kline.h). */
#include "kernel/kline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/kern.h"
#include "util/vec.h"

#ifndef KLINE_ADDR2LINE
#define KLINE_ADDR2LINE "aarch64-linux-gnu-addr2line"
#endif
#define SHF_EXECINSTR 0x4u

/* one text section's lines, one per instruction */
struct ksec {
	uint64_t addr, size;
	char **line; /* size / 4 entries, NULL when unknown */
};

/* a step name kline_step_name made (open addressing by hash) */
struct kname {
	uint64_t hash, pc, outer;
	char *verb, *what, *name;
};

/* step names kept before kline_trim forgets them */
#define KLINE_NAMES_MAX 65536

struct kline {
	struct kern *k;
	struct ksec *secs;
	size_t nsecs, cap;
	struct kname *names; /* capnames slots, a power of two */
	size_t nnames, capnames;
};

struct kline *kline_new(struct kern *k, struct ftv_err *err)
{
	struct kline *l = calloc(1, sizeof(*l));

	if (!l)
		ftv_errf(err, "out of memory");
	else
		l->k = k;
	return l;
}

static void names_free(struct kline *l)
{
	for (size_t i = 0; i < l->capnames; i++) {
		free(l->names[i].verb);
		free(l->names[i].what);
		free(l->names[i].name);
	}
	free(l->names);
	l->names = NULL;
	l->nnames = l->capnames = 0;
}

void kline_free(struct kline *l)
{
	if (!l)
		return;
	names_free(l);
	for (size_t i = 0; i < l->nsecs; i++) {
		for (uint64_t j = 0; l->secs[i].line && j < l->secs[i].size / 4; j++)
			free(l->secs[i].line[j]);
		free(l->secs[i].line);
	}
	free(l->secs);
	free(l);
}

/* The path from the top of the kernel tree: the DWARF names the file as
 * the compiler saw it (the tree's absolute path, or relative to O=). */
static const char *from_top(const char *path)
{
	static const char *const tops[] = { "/arch/", "/include/", "/kernel/", "/lib/",
					    "/mm/", "/scripts/", NULL };
	const char *best = NULL;

	for (size_t i = 0; tops[i]; i++) {
		const char *p = strstr(path, tops[i]);

		if (p && (!best || p < best))
			best = p;
	}
	return best ? best + 1 : path;
}

/* Reads the lines of section sec of object path (every 4th offset). */
static int read_lines(struct ksec *s, const char *path, const char *sec)
{
	char tmp[] = "/tmp/ftv-kline-XXXXXX", cmd[4400], buf[4096];
	int fd = mkstemp(tmp);
	FILE *f, *p;
	uint64_t j = 0;

	if (fd < 0)
		return -1;
	if (!(f = fdopen(fd, "w"))) {
		close(fd);
		unlink(tmp);
		return -1;
	}
	for (uint64_t o = 0; o < s->size; o += 4)
		fprintf(f, "0x%llx\n", (unsigned long long)o);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "%s -e '%s' -j '%s' < %s 2>/dev/null", KLINE_ADDR2LINE, path,
		 sec, tmp);
	p = popen(cmd, "r");
	if (p) {
		while (j < s->size / 4 && fgets(buf, sizeof(buf), p)) {
			char *nl = strchr(buf, '\n'), *d;

			if (nl)
				*nl = 0;
			/* "file.c:342 (discriminator 1)" */
			if ((d = strstr(buf, " (")))
				*d = 0;
			if (buf[0] != '?')
				s->line[j] = strdup(from_top(buf));
			j++;
		}
		pclose(p);
	}
	unlink(tmp);
	return 0;
}

static struct ksec *section_of(struct kline *l, uint64_t pc)
{
	struct sim_image *img = l->k->img;

	for (size_t i = 0; i < l->nsecs; i++)
		if (pc >= l->secs[i].addr && pc < l->secs[i].addr + l->secs[i].size)
			return &l->secs[i];
	for (size_t o = 0; o < sim_image_nobjects(img); o++) {
		const struct sim_object_info *ob = sim_image_object(img, o);

		for (size_t i = 0; i < ob->nsections; i++) {
			const struct sim_loaded_section *sec = &ob->sections[i];
			struct ksec s = { sec->addr, sec->size, NULL };

			if (!(sec->flags & SHF_EXECINSTR) || pc < sec->addr ||
			    pc >= sec->addr + sec->size)
				continue;
			if (!(s.line = calloc(s.size / 4 + 1, sizeof(*s.line))) ||
			    VEC_PUSH(l->secs, l->nsecs, l->cap, s)) {
				free(s.line);
				return NULL;
			}
			read_lines(&l->secs[l->nsecs - 1], ob->path, sec->name);
			return &l->secs[l->nsecs - 1];
		}
	}
	return NULL;
}

char *kline_where(struct kline *l, uint64_t pc, char *buf, size_t n)
{
	struct ksec *s = l ? section_of(l, pc) : NULL;
	const char *w = s && s->line[(pc - s->addr) / 4] ? s->line[(pc - s->addr) / 4] : NULL;

	snprintf(buf, n, "%s", w ? w : "no line");
	return buf;
}

/* "func+0x3c" and "arch/arm64/kernel/ftrace.c:342" of a kernel pc */
static void place(struct kline *l, uint64_t pc, char *at, size_t nat, char *where,
		  size_t nwhere)
{
	sim_symbolize(l->k->as, pc, at, nat, 0);
	if (strchr(at, '/'))
		*strchr(at, '/') = 0;
	kline_where(l, pc, where, nwhere);
}

static uint64_t name_hash(const char *verb, uint64_t pc, uint64_t outer, const char *what)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (const char *s = verb; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	for (const char *s = what; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211ull;
	h ^= pc * 0x9e3779b97f4a7c15ull;
	h ^= (outer + 1) * 0xc2b2ae3d27d4eb4full;
	return h ? h : 1;
}

static struct kname *name_slot(struct kname *v, size_t cap, uint64_t h, const char *verb,
			       uint64_t pc, uint64_t outer, const char *what)
{
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
		struct kname *n = &v[i];

		if (!n->hash || (n->hash == h && n->pc == pc && n->outer == outer &&
				 !strcmp(n->verb, verb) && !strcmp(n->what, what)))
			return n;
	}
}

static int names_grow(struct kline *l)
{
	size_t cap = l->capnames ? 2 * l->capnames : 256;
	struct kname *v = calloc(cap, sizeof(*v));

	if (!v)
		return -1;
	for (size_t i = 0; i < l->capnames; i++)
		if (l->names[i].hash)
			*name_slot(v, cap, l->names[i].hash, l->names[i].verb, l->names[i].pc,
				   l->names[i].outer, l->names[i].what) = l->names[i];
	free(l->names);
	l->names = v;
	l->capnames = cap;
	return 0;
}

const char *kline_step_name(struct kline *l, const char *verb, uint64_t pc, uint64_t outer,
			    const char *what)
{
	uint64_t h = name_hash(verb, pc, outer, what);
	char at[200], where[300], oat[200], owhere[300];
	struct kname *n;
	size_t len;

	if (2 * (l->nnames + 1) > l->capnames && names_grow(l))
		return NULL;
	n = name_slot(l->names, l->capnames, h, verb, pc, outer, what);
	if (n->hash)
		return n->name;
	place(l, pc, at, sizeof(at), where, sizeof(where));
	place(l, outer, oat, sizeof(oat), owhere, sizeof(owhere));
	len = strlen(verb) + strlen(at) + strlen(where) + strlen(oat) + strlen(owhere) +
	      strlen(what) + 16;
	if (!(n->name = malloc(len)) || !(n->verb = strdup(verb)) || !(n->what = strdup(what))) {
		free(n->name);
		free(n->verb);
		memset(n, 0, sizeof(*n));
		return NULL;
	}
	if (outer == pc)
		snprintf(n->name, len, "%s: %s (%s): %s", verb, at, where, what);
	else
		snprintf(n->name, len, "%s: %s (%s) > %s (%s): %s", verb, oat, owhere, at, where,
			 what);
	n->hash = h;
	n->pc = pc;
	n->outer = outer;
	l->nnames++;
	return n->name;
}

void kline_trim(struct kline *l)
{
	if (l && l->nnames > KLINE_NAMES_MAX)
		names_free(l);
}
