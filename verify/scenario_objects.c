/* Where a scenario's objects come from (the corpus, or paths given by
 * `object`, `--object`), the functions it calls, and the world
 * configuration made from it for each run. */
#include "verify/scenario.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int scenario_path_is_module(const char *path)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	size_t l = strlen(path);

	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (l > strlen(ext[i]) && !strcmp(path + l - strlen(ext[i]), ext[i]))
			return 1;
	return 0;
}

int scenario_add_object(struct scenario *s, const char *dir, const char *path,
			struct ftv_err *err)
{
	char joined[4096], real[PATH_MAX];

	if (s->nuser >= SCN_MAX_USER)
		return ftv_errf(err, "more than %d objects by path", SCN_MAX_USER);
	if (path[0] != '/' && dir && dir[0])
		snprintf(joined, sizeof(joined), "%s/%s", dir, path);
	else
		snprintf(joined, sizeof(joined), "%s", path);
	if (access(joined, R_OK))
		return ftv_errf(err, "%s: %s", joined, strerror(errno));
	if (!realpath(joined, real))
		return ftv_errf(err, "%s: %s", joined, strerror(errno));
	if (strlen(real) >= sizeof(s->user_objects[0]))
		return ftv_errf(err, "%s: path longer than %zu bytes", real,
				sizeof(s->user_objects[0]) - 1);
	snprintf(s->user_objects[s->nuser++], sizeof(s->user_objects[0]), "%s", real);
	return 0;
}

int scenario_add_calls(struct scenario *s, const char *names, struct ftv_err *err)
{
	size_t l = strlen(s->call_list);

	while (*names) {
		size_t n = strcspn(names, ", \t");

		if (n) {
			/* KSYM_NAME_LEN; and a line the writer makes stays
			 * shorter than a line the reader takes */
			if (n >= 512)
				return ftv_errf(err, "'%.40s...' is longer than a kernel symbol "
						"(511 characters)", names);
			if (l + n + 2 >= sizeof(s->call_list))
				return ftv_errf(err, "more than %zu bytes of function names to call",
						sizeof(s->call_list) - 1);
			if (l)
				s->call_list[l++] = ',';
			memcpy(s->call_list + l, names, n);
			l += n;
			s->call_list[l] = 0;
		}
		names += n;
		names += strspn(names, ", \t");
	}
	return 0;
}

int scenario_corpus_object(char *buf, size_t n, const char *corpus_dir, const char *set,
			   const char *name)
{
	snprintf(buf, n, "%s/%s/%s.o", corpus_dir, set, name);
	if (!access(buf, R_OK))
		return 0;
	snprintf(buf, n, "%s/random-%s/%s.o", corpus_dir, set, name);
	return access(buf, R_OK) ? -1 : 0;
}

int scenario_world_config(const struct scenario *s, const char *corpus_dir,
			  const char *tramp_dir, int explore, struct scenario_world *sw,
			  struct ftv_err *err)
{
	const char *set = ftv_scheme_corpus_set(s->cfg.scheme);
	struct world_config *c = &sw->cfg;
	struct scenario_paths *p = &sw->paths;

	/* checked here, not when read: `ftv scenario --object` adds them */
	if (!s->cfg.nobjects && !s->nuser)
		return ftv_errf(err, "%s: no objects (objects NAME..., or object PATH)", s->path);
	if (s->call_list[0] && !s->nuser)
		return ftv_errf(err, "%s: call names functions of objects given by path "
				"(object PATH), and there is none", s->path);
	*c = s->cfg;
	for (unsigned i = 0; i < c->nobjects; i++) {
		scenario_corpus_object(p->objects[i], sizeof(p->objects[i]), corpus_dir, set,
				       s->objects[i]);
		c->objects[i] = p->objects[i];
	}
	for (unsigned i = 0; i < c->nmodules; i++) {
		scenario_corpus_object(p->modules[i], sizeof(p->modules[i]), corpus_dir, set,
				       s->modules[i]);
		c->modules[i] = p->modules[i];
	}
	for (unsigned i = 0; i < s->nuser; i++) {
		const char *u = s->user_objects[i];

		if (scenario_path_is_module(u)) {
			if (c->nmodules < WORLD_MAX_OBJECTS) {
				c->module_late[c->nmodules] = 0;
				c->probe_module[c->nmodules] = 1;
				c->modules[c->nmodules++] = u;
			}
		} else if (c->nobjects < WORLD_MAX_OBJECTS) {
			c->probe_object[c->nobjects] = 1;
			c->objects[c->nobjects++] = u;
		}
	}
	c->call_list = s->call_list[0] ? s->call_list : NULL;
	for (unsigned i = 0; i < c->ncall; i++)
		c->call[i] = s->call[i];
	c->tramp_dir = tramp_dir;
	if (explore) {
		c->exec.policy = EXEC_EXHAUSTIVE;
		c->exec.verify = 1;
	} else {
		/* one run from the world as built: nothing resets it */
		c->exec.never_reset = 1;
	}
	return 0;
}
