/* Readable text for reports: a plan, one step a line, and the records in
 * the style of /sys/kernel/tracing/enabled_functions. */
#include "patcher/ftrace_internal.h"
#include "sim/aspace.h"

#include <inttypes.h>

static const char *where(struct sim_aspace *as, uint64_t addr, char *buf,
			 size_t n)
{
	if (!as || !sim_sym_at(as, addr)) {
		snprintf(buf, n, "-");
		return buf;
	}
	return sim_symbolize(as, addr, buf, n, 1);
}

void ftrace_plan_format(FILE *out, const struct plan *p, size_t from,
			struct sim_aspace *as, ftrace_disasm_fn disasm)
{
	for (size_t i = from; i < p->n; i++) {
		const struct plan_step *s = &p->steps[i];
		char sym[128], dis[96];

		fprintf(out, "%4zu %-14s", i, plan_op_name(s->op));
		switch (s->op) {
		case PLAN_WRITE_INSN:
			fprintf(out, " 0x%016" PRIx64 " %-28s", s->addr,
				where(as, s->addr, sym, sizeof(sym)));
			if (s->validate)
				fprintf(out, " 0x%08" PRIx64 " ->", s->old);
			else
				fprintf(out, " %13s", "");
			fprintf(out, " 0x%08" PRIx64, s->new);
			if (disasm &&
			    disasm((uint32_t)s->new, s->addr, dis, sizeof(dis)) >= 0)
				fprintf(out, " (%s)", dis);
			break;
		case PLAN_WRITE_DATA64:
			fprintf(out, " 0x%016" PRIx64 " %-28s", s->addr,
				where(as, s->addr, sym, sizeof(sym)));
			if (s->validate)
				fprintf(out, " 0x%" PRIx64 " ->", s->old);
			fprintf(out, " 0x%" PRIx64, s->new);
			break;
		case PLAN_FAIL:
			fprintf(out, " 0x%016" PRIx64 " %-28s expected 0x%08" PRIx64, s->addr,
				where(as, s->addr, sym, sizeof(sym)), s->old);
			break;
		case PLAN_CACHE_CLEAN:
		case PLAN_ICACHE_INVAL:
		case PLAN_FREE:
			fprintf(out, " 0x%016" PRIx64 " %-28s len 0x%" PRIx64,
				s->addr, where(as, s->addr, sym, sizeof(sym)),
				s->len);
			break;
		default:
			break;
		}
		if (s->rsize)
			fprintf(out, "  [after reading 0x%" PRIx64 " at 0x%016" PRIx64 "]",
				s->rval, s->raddr);
		if (s->rec >= 0)
			fprintf(out, "  [rec %d]", s->rec);
		if (s->what)
			fprintf(out, " %s", s->what);
		fputc('\n', out);
	}
}

static const char *ops_name_at(const struct ftrace_core *c, uint64_t addr)
{
	if (addr == c->list_ops)
		return "ftrace_list_ops";
	if (addr == c->nop_ops)
		return "ftrace_nop_ops";
	for (const struct ftrace_ops *o = c->all; o; o = o->all_next)
		if (o->addr == addr)
			return o->name;
	return "?";
}

void ftrace_records_format(FILE *out, const struct ftrace_core *c,
			   struct sim_aspace *as)
{
	for (size_t i = 0; i < c->nrecs; i++) {
		const struct ftrace_rec *r = &c->recs[i];
		char sym[128];
		unsigned f = r->flags;

		if (f & FTRACE_FL_UNLOADED)
			continue;
		if (r->site.name)
			fprintf(out, "%s", r->site.name);
		else
			fprintf(out, "%s", where(as, r->site.ip, sym, sizeof(sym)));
		fprintf(out, " (%u)%s%s%s%s%s%s", r->refs,
			f & FTRACE_FL_REGS ? " R" : "  ",
			f & FTRACE_FL_DIRECT ? " D" : "  ",
			f & FTRACE_FL_CALL_OPS ? " O" : "  ",
			f & FTRACE_FL_TRAMP ? " T" : "  ",
			f & FTRACE_FL_ENABLED ? " E" : "  ",
			f & FTRACE_FL_FAILED ? " FAILED" :
			f & FTRACE_FL_DISABLED ? " DISABLED" : "");
		if (f & FTRACE_FL_ENABLED) {
			uint64_t t = ftrace_get_addr_curr(c, i);

			fprintf(out, "\tcall: 0x%" PRIx64, t);
			if (as && sim_sym_at(as, t))
				fprintf(out, " (%s)", where(as, t, sym, sizeof(sym)));
		}
		if (r->ops_cur)
			fprintf(out, "\tops: %s", ops_name_at(c, r->ops_cur));
		if (r->direct)
			fprintf(out, "\tdirect-->0x%" PRIx64, r->direct);
		fputc('\n', out);
	}
}
