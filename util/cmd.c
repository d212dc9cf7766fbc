#include "util/cmd.h"

#include <string.h>

static struct ftv_command *commands;

void ftv_command_register(struct ftv_command *cmd)
{
	struct ftv_command **p = &commands;

	while (*p && strcmp((*p)->name, cmd->name) < 0)
		p = &(*p)->next;
	cmd->next = *p;
	*p = cmd;
}

const struct ftv_command *ftv_command_find(const char *name)
{
	for (const struct ftv_command *c = commands; c; c = c->next)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

const struct ftv_command *ftv_command_first(void)
{
	return commands;
}

const char *ftv_command_word(unsigned i)
{
	const struct ftv_command *c = commands;

	while (c && i--)
		c = c->next;
	return c ? c->name : NULL;
}
