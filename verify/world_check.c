/* The list of checks and explanations (struct world_check): each file of
 * checks registers its hooks with WORLD_CHECK, and the world runs the list
 * in order at its fixed points, without naming a check. */
#include "verify/world_int.h"

#include <string.h>

static struct world_check *checks;

void world_check_register(struct world_check *c)
{
	struct world_check **p = &checks;

	/* by order, then by name: the same list whatever the link order */
	while (*p && ((*p)->order < c->order ||
		      ((*p)->order == c->order && strcmp((*p)->name, c->name) < 0)))
		p = &(*p)->next;
	c->next = *p;
	*p = c;
}

int world_checks_install(struct world *w, struct ftv_err *err)
{
	for (struct world_check *c = checks; c; c = c->next)
		if (c->install && c->install(w, err))
			return -1;
	return 0;
}

void world_checks_poll(struct world *w)
{
	for (struct world_check *c = checks; c; c = c->next)
		if (c->poll)
			c->poll(w);
}

void world_checks_finish(struct world *w, int complete)
{
	for (struct world_check *c = checks; c; c = c->next)
		if (c->finish)
			c->finish(w, complete);
}
