/* Comparing the kernel's events with the model's plan (kernel/kdiff.h). */
#include "kernel/kdiff.h"

#include <stdio.h>
#include <string.h>

/* Unicorn 2.0.1's arm64 CPU reports 64-byte lines in CTR_EL0
 * (DminLine = IminLine = 4), so caches_clean_inval_pou maintains the
 * 64-byte line holding the word: accesses compare by that line. */
#define KDIFF_LINE 64ull

static const struct kdiff_understood understood[KDIFF_NU] = {
	{ "validate-unlocked",
	  "reads the old word (aarch64_insn_read) before taking patch_lock and "
	  "mapping the fixmap, then writes",
	  "compares and writes in one step (PLAN_WRITE_* with validate)",
	  "arch/arm64/kernel/ftrace.c ftrace_modify_code(): "
	  "aarch64_insn_read() then aarch64_insn_patch_text_nosync()",
	  "the model's single step is right for ftv: every ftrace text write "
	  "is made under ftrace_lock (kernel/trace/ftrace.c), so no other "
	  "ftrace update can change the word between the read and the write; "
	  "the only other text writers ftv models (static branches) patch "
	  "other words" },
	{ "fixmap-barriers",
	  "maps the text through the fixmap for every write: __set_pte's DSB "
	  "ISHST; ISB before the store, flush_tlb_kernel_range's DSB ISHST; "
	  "TLBI; DSB ISH; ISB after it",
	  "keeps only the barriers it relies on (DSB before a text write, DSB "
	  "after the ops literal)",
	  "arch/arm64/include/asm/pgtable.h __set_pte(); "
	  "arch/arm64/include/asm/tlbflush.h flush_tlb_kernel_range()",
	  "the model is weaker than the kernel, so what it verifies holds with "
	  "the kernel's extra ordering too; a barrier of the model the kernel "
	  "lacks is a difference" },
};

const struct kdiff_understood *kdiff_understood_get(unsigned i)
{
	return i < KDIFF_NU ? &understood[i] : NULL;
}

/* ---- the plan in the kernel's terms ------------------------------------- */

static int push(struct kev_log *l, enum kev_kind k, uint64_t addr,
		uint64_t value, unsigned size, int locked)
{
	struct kev e = { .kind = k, .addr = addr, .value = value,
			 .size = size, .locked = locked, .from = "model" };

	return kev_push(l, &e);
}

/* locked = 2: the read is one step with the store that follows */
#define KDIFF_ATOMIC 2
#define OPT_ISH 0xb
#define OPT_ISHST 0xa

/* The steps that are one event at their address (MAP_WINDOW: the page). */
static const struct {
	enum plan_op op;
	enum kev_kind kind;
	uint64_t mask;
} one_event[] = {
	{ PLAN_CACHE_CLEAN, KEV_DC_CVAU, ~0ull },
	{ PLAN_ICACHE_INVAL, KEV_IC_IVAU, ~0ull },
	{ PLAN_LOCK, KEV_LOCK, ~0ull },
	{ PLAN_UNLOCK, KEV_UNLOCK, ~0ull },
	{ PLAN_MAP_WINDOW, KEV_MAP, ~0xfffull },
	{ PLAN_UNMAP_WINDOW, KEV_UNMAP, 0 },
	{ PLAN_ISB, KEV_ISB, 0 },
};

static int one_step(const struct plan_step *s, struct kev_log *out)
{
	unsigned sz = s->op == PLAN_WRITE_INSN ? 4 : 8;
	struct kev e = { .kind = KEV_PRINT, .from = "model",
			 .text = (char *)plan_op_name(s->op) };

	for (size_t i = 0; i < sizeof(one_event) / sizeof(one_event[0]); i++)
		if (one_event[i].op == s->op)
			return push(out, one_event[i].kind, s->addr & one_event[i].mask, 0, 0, 0);
	switch (s->op) {
	case PLAN_WRITE_INSN:
	case PLAN_WRITE_DATA64:
		if (s->validate && push(out, KEV_READ, s->addr, s->old, sz, KDIFF_ATOMIC))
			return -1;
		return push(out, KEV_STORE, s->addr, s->new, sz, 0);
	case PLAN_DSB:
		return push(out, KEV_DSB, 0, 0,
			    s->what && strstr(s->what, "ishst") ? OPT_ISHST : OPT_ISH, 0);
	case PLAN_DMB:
		return push(out, KEV_DMB, 0, 0, OPT_ISH, 0);
	default:
		/* SYNC_ALL, QUIESCE, FREE, STOP_MACHINE: no arm64 CALL_OPS
		 * verb plans them; kept visible as text */
		return kev_push(out, &e);
	}
}

int kdiff_from_plan(const struct plan *p, struct kev_log *out)
{
	for (size_t i = 0; i < p->n; i++)
		if (one_step(&p->steps[i], out))
			return -1;
	return 0;
}

/* ---- comparison ------------------------------------------------------- */

static int is_access(enum kev_kind k)
{
	return k == KEV_STORE || k == KEV_READ || k == KEV_DC_CVAU ||
	       k == KEV_IC_IVAU || k == KEV_IC_IALLUIS || k == KEV_FAULT || k == KEV_BUG ||
	       k == KEV_PRINT || k == KEV_SCHED;
}

enum { B_DMB = 1, B_ST = 2, B_FULL = 4, B_ISB = 8 };

/* What a barrier provides (kernel) / needs (model), Arm ARM B2.3.12:
 * DSB ISH completes every access; DSB ISHST every store; both order
 * what a DMB orders. */
static unsigned provides(const struct kev *e)
{
	/* CRm<1:0> (Arm ARM C6.2.90): 0b10 xxST orders stores only, 0b01
	 * xxLD loads only, 0b11 everything */
	unsigned ty = e->size & 3;

	if (e->kind == KEV_DSB)
		return ty == 3 ? B_FULL | B_ST | B_DMB : ty == 2 ? B_ST | B_DMB : B_DMB;
	return e->kind == KEV_DMB ? B_DMB : e->kind == KEV_ISB ? B_ISB : 0;
}

static unsigned needs(const struct kev *e)
{
	if (e->kind == KEV_DSB)
		return (e->size & 3) == 2 ? B_ST : B_FULL;
	return provides(e);
}

/* the accesses of l, in order, and the barrier bits before each (run[i]
 * before access i, run[n] after the last) */
struct seq {
	const struct kev *acc[512];
	unsigned run[513];
	size_t n;
	int overflow;
};

static void split(const struct kev_log *l, int model, struct seq *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < l->n; i++) {
		const struct kev *e = &l->v[i];

		if (is_access(e->kind)) {
			if (s->n == 512) {
				s->overflow = 1;
				return;
			}
			s->acc[s->n++] = e;
		} else {
			s->run[s->n] |= model ? needs(e) : provides(e);
		}
	}
}

static int same_access(const struct kev *a, const struct kev *b)
{
	if (a->kind != b->kind)
		return 0;
	if (a->kind == KEV_IC_IALLUIS)
		return 1;
	if (a->kind == KEV_DC_CVAU || a->kind == KEV_IC_IVAU)
		return a->addr / KDIFF_LINE == b->addr / KDIFF_LINE;
	if (a->kind == KEV_STORE || a->kind == KEV_READ)
		return a->size == b->size && a->addr == b->addr &&
		       a->value == b->value;
	return 0; /* faults, BUGs, messages: never expected of a model */
}

static const char *bits(unsigned b, char *buf, size_t n)
{
	snprintf(buf, n, "%s%s%s%s%s", b & B_FULL ? "dsb ish " : b & B_ST ? "dsb ishst " : "",
		 !(b & (B_FULL | B_ST)) && (b & B_DMB) ? "dmb " : "",
		 b & B_ISB ? "isb " : "", b ? "" : "nothing", "");
	return buf;
}

void kdiff_compare(const struct kev_log *kernel, const struct kev_log *model,
		   struct kdiff_result *r)
{
	static struct seq k, m; /* large; one comparison at a time */
	char a[120], b[120];

	memset(r, 0, sizeof(*r));
	split(kernel, 0, &k);
	split(model, 1, &m);
	if (k.overflow || m.overflow) {
		r->verdict = KDIFF_DIFFERENT;
		snprintf(r->first, sizeof(r->first), "more than 512 accesses in one transition");
		return;
	}
	for (size_t i = 0; i <= k.n || i <= m.n; i++) {
		if (i < k.n + 1 && i < m.n + 1) {
			unsigned have = k.run[i], need = m.run[i];

			if (need & ~have) {
				r->verdict = KDIFF_DIFFERENT;
				snprintf(r->first, sizeof(r->first),
					 "before access %zu the model has %sbut the kernel only %s",
					 i + 1, bits(need, a, sizeof(a)), bits(have, b, sizeof(b)));
				return;
			}
			if (have & ~(need | (need & B_FULL ? B_ST | B_DMB : 0) |
				     (need & B_ST ? B_DMB : 0)))
				r->understood |= KDIFF_U_FIXMAP_BARRIERS;
		}
		if (i >= k.n && i >= m.n)
			break;
		if (i >= k.n || i >= m.n || !same_access(k.acc[i], m.acc[i])) {
			r->verdict = KDIFF_DIFFERENT;
			snprintf(r->first, sizeof(r->first), "access %zu: kernel %s, model %s",
				 i + 1,
				 i < k.n ? kev_format(k.acc[i], a, sizeof(a)) : "(nothing)",
				 i < m.n ? kev_format(m.acc[i], b, sizeof(b)) : "(nothing)");
			return;
		}
		if (k.acc[i]->kind == KEV_READ && m.acc[i]->locked == KDIFF_ATOMIC &&
		    !k.acc[i]->locked)
			r->understood |= KDIFF_U_VALIDATE_UNLOCKED;
	}
	r->verdict = r->understood ? KDIFF_UNDERSTOOD : KDIFF_SAME;
}

char *kdiff_format(const struct kev_log *l, char *buf, size_t n)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < l->n && at + 1 < n; i++) {
		char one[160];

		if (l->v[i].kind == KEV_TLBI)
			continue;
		kev_format(&l->v[i], one, sizeof(one));
		at += (size_t)snprintf(buf + at, n - at, "%s%s", at ? "; " : "", one);
	}
	if (at >= n && n > 4)
		strcpy(buf + n - 4, "...");
	return buf;
}
