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

struct kline {
	struct kern *k;
	struct ksec *secs;
	size_t nsecs, cap;
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

void kline_free(struct kline *l)
{
	if (!l)
		return;
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
