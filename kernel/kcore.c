/* What the runner and the shims share about a loaded kernel: its symbols,
 * its __bug_table, the event log (kernel/kern.h). */
#include "kernel/kern.h"

const struct kern_bug *kern_bug_at(const struct kern *k, uint64_t pc)
{
	for (size_t i = 0; i < k->nbugs; i++)
		if (k->bugs[i].addr == pc)
			return &k->bugs[i];
	return NULL;
}

uint64_t kern_sym(struct kern *k, const char *name)
{
	uint64_t a = sim_image_lookup(k->img, name);
	const struct sim_symbol *s;

	if (a)
		return a;
	s = sim_sym_lookup(k->as, name);
	return s ? s->addr : 0;
}

int kern_event(struct kern *k, enum kev_kind kind, uint64_t addr,
	       uint64_t value, unsigned size, const char *from)
{
	struct kev e = { .kind = kind, .addr = addr, .value = value,
			 .size = size, .pc = k->pc, .locked = k->locks > 0,
			 .outer = k->outer ? k->outer : k->pc,
			 .from = "insn" };

	/* PRINT/BUG/FAULT carry their text in from's place */
	if (kind == KEV_PRINT || kind == KEV_BUG || kind == KEV_FAULT)
		e.text = (char *)from;
	else if (from)
		e.from = from;
	return kev_push(&k->log, &e);
}
