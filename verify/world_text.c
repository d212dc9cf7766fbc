/* Kernel text that others than ftrace patch while the CPUs run.
 *
 * Text pokes: one instruction word rewritten by the arch's stop_machine()
 * text patcher (aarch64_insn_patch_text(), riscv's patch_text()): a site
 * SYMBOL the objects define together with SYMBOL_alt, a word elsewhere
 * holding the other encoding; `text-poke SYMBOL` swaps the word at SYMBOL
 * between the two, one plan of the text patcher agent that promises, as
 * those functions do, that every CPU executes the new word once it
 * returns (plan.visible_on_return).
 *
 * Static keys and their jump labels (kernel/jump_label.c): the __jump_table
 * entries of the loaded objects, read after relocation, grouped by key, and
 * static_key_enable() / static_key_disable() as one plan of the text
 * patcher agent (PLAN_AGENT_TEXT: another task than ftrace, under
 * jump_label_mutex rather than ftrace_lock) whose contract the executor
 * checks: once the plan returns, every CPU executing one of its sites
 * executes the new instruction (plan.visible_on_return, EXEC_V_NOT_VISIBLE).
 *
 * struct jump_entry (include/linux/jump_label.h, with
 * CONFIG_HAVE_ARCH_JUMP_LABEL_RELATIVE, as arm64 and riscv have it): s32
 * code and s32 target, each relative to its own field, s64 key relative to
 * its field, whose bit 0 is the branch's polarity (jump_entry_is_branch)
 * and bit 1 an init-section entry (jump_entry_is_init). The instruction an
 * entry wants is a jump when static_key_enabled(key) ^ branch
 * (jump_label_type()), else a NOP. */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/num.h"
#include "util/vec.h"

#define JUMP_ENTRY_SIZE 16

struct wjl_entry {
	uint64_t code, target, key;
	int branch;
};

struct wjl_key {
	uint64_t addr;
	const char *name;  /* the key's symbol (the aspace's string) */
	int on;
	int flipped;       /* a plan was made for it: memory may lag */
};

/* A text poke's site: the word and the other encoding it swaps with. */
struct wpoke {
	char name[64];
	uint64_t addr;
	uint32_t word[2]; /* as compiled, and SYMBOL_alt's */
	int cur;          /* which of them the last plan left */
};

#define WORLD_MAX_POKES 8

struct world_text {
	struct wjl_entry *e;
	size_t n, cap;
	struct wjl_key *k;
	size_t nk, capk;
	struct wpoke poke[WORLD_MAX_POKES];
	size_t npoke;
};

static int64_t sext32(uint32_t v)
{
	return (int64_t)(int32_t)v;
}

static struct wjl_key *key_at(struct world_text *jl, uint64_t addr)
{
	for (size_t i = 0; i < jl->nk; i++)
		if (jl->k[i].addr == addr)
			return &jl->k[i];
	return NULL;
}

static int add_entry(struct world *w, struct world_text *jl, uint64_t at,
		     struct ftv_err *err)
{
	uint32_t code, target, enabled = 0;
	uint64_t key, kaddr, ekey;
	const struct sim_symbol *s;

	/* An entry ftv cannot use is left out, not refused: a real
	 * module's keys are fields inside tracepoints and other structures
	 * (no symbol names them), or bound to trap stubs; `static-key KEY`
	 * names a key by its symbol. */
	if (sim_read32(w->as, at, &code) || sim_read32(w->as, at + 4, &target) ||
	    sim_read64(w->as, at + 8, &key))
		return 0;
	kaddr = at + 8 + key;
	ekey = kaddr & ~3ULL;
	s = sim_sym_at(w->as, ekey);
	/* static_key_enabled(): atomic_t enabled, the key's first field
	 * (DEFINE_STATIC_KEY_TRUE starts at 1) */
	if (!s || s->addr != ekey || sim_read32(w->as, ekey, &enabled))
		return 0;
	if (VEC_RESERVE(jl->e, jl->cap, jl->n + 1))
		return ftv_errf(err, "out of memory");
	jl->e[jl->n++] = (struct wjl_entry){ at + (uint64_t)sext32(code),
					     at + 4 + (uint64_t)sext32(target), ekey,
					     (int)(kaddr & 1) };
	if (key_at(jl, ekey))
		return 0;
	if (VEC_RESERVE(jl->k, jl->capk, jl->nk + 1))
		return ftv_errf(err, "out of memory");
	jl->k[jl->nk++] = (struct wjl_key){ ekey, s->name, (int32_t)enabled > 0, 0 };
	return 0;
}

/* jump_label_init(): every object's __jump_table. */
static struct world_text *jump_labels(struct world *w, struct ftv_err *err)
{
	struct world_text *jl;

	if (w->text)
		return w->text;
	jl = calloc(1, sizeof(*jl));
	if (!jl) {
		ftv_errf(err, "out of memory");
		return NULL;
	}
	w->text = jl;
	for (size_t i = 0; i < sim_image_nobjects(w->img); i++) {
		const struct sim_object_info *ob = sim_image_object(w->img, i);

		for (size_t s = 0; s < ob->nsections; s++) {
			const struct sim_loaded_section *sec = &ob->sections[s];

			if (strcmp(sec->name, "__jump_table"))
				continue;
			for (uint64_t a = 0; a + JUMP_ENTRY_SIZE <= sec->size; a += JUMP_ENTRY_SIZE)
				if (add_entry(w, jl, sec->addr + a, err))
					return NULL;
		}
	}
	return jl;
}

/* __jump_label_update(): each entry of the key to the instruction its type
 * wants now, then the arch's apply. The arch writes without validation
 * (aarch64_insn_patch_text_nosync); the word it expects to replace at the
 * key's first change must be the one there, or the corpus was not compiled
 * for the key's initial state. */
static int key_plan(struct world *w, struct world_text *jl, const struct wjl_key *k,
		    int on, struct ftv_err *err)
{
	for (size_t i = 0; i < jl->n; i++) {
		const struct wjl_entry *e = &jl->e[i];
		size_t at = w->scratch.n;
		uint32_t cur = 0;

		if (e->key != k->addr)
			continue;
		if (w->backend->jump_label_transform(w->arch_ctx, e->code, e->target,
						     on ^ e->branch, &w->scratch, err))
			return -1;
		for (size_t s = at; s < w->scratch.n; s++) {
			const struct plan_step *st = &w->scratch.steps[s];

			if (st->op == PLAN_WRITE_INSN && !sim_read32(w->as, st->addr, &cur) &&
			    cur != (uint32_t)st->old && !k->flipped)
				return ftv_errf(err, "the jump label of %s at 0x%llx holds "
						"0x%08x, not the 0x%08llx its key's state wants "
						"(jump_label_init would have patched it)",
						k->name, (unsigned long long)st->addr, cur,
						(unsigned long long)st->old);
		}
	}
	if (w->backend->jump_label_apply &&
	    w->backend->jump_label_apply(w->arch_ctx, &w->scratch, err))
		return -1;
	return 0;
}

int world_jump_label_key(struct world *w, const char *key, int on, struct ftv_err *err)
{
	struct world_text *jl;
	struct wjl_key *k = NULL;

	if (!w->backend->jump_label_transform)
		return ftv_errf(err, "the %s backend has no jump labels",
				ftv_arch_name(w->sd->arch));
	if (!(jl = jump_labels(w, err)))
		return -1;
	for (size_t i = 0; i < jl->nk && !k; i++)
		if (!strcmp(jl->k[i].name, key))
			k = &jl->k[i];
	if (!k)
		return ftv_errf(err, "no __jump_table entry of the loaded objects uses "
				"the key %s", key);
	if (k->on == on)
		return ftv_errf(err, "the key %s is %s already", key, on ? "on" : "off");
	w->scratch.agent = PLAN_AGENT_TEXT;
	w->scratch.visible_on_return = 1;
	if (key_plan(w, jl, k, on, err)) {
		plan_reset(&w->scratch);
		w->scratch.agent = PLAN_AGENT_FTRACE;
		return -1;
	}
	k->on = on;
	k->flipped = 1;
	return world_submit(w, on ? "static_key_enable" : "static_key_disable", err);
}

/* The poke site named name, found (and its words read) on first use. */
static struct wpoke *poke_site(struct world *w, struct world_text *t, const char *name,
			       struct ftv_err *err)
{
	char alt[80];
	uint64_t a, b;
	struct wpoke *pk;

	for (size_t i = 0; i < t->npoke; i++)
		if (!strcmp(t->poke[i].name, name))
			return &t->poke[i];
	snprintf(alt, sizeof(alt), "%s_alt", name);
	a = sim_image_lookup(w->img, name);
	b = sim_image_lookup(w->img, alt);
	if (!a || !b || (a & 3)) {
		ftv_errf(err, "the objects define no 4-byte aligned %s with its other "
			 "encoding at %s", name, alt);
		return NULL;
	}
	if (t->npoke >= WORLD_MAX_POKES || strlen(name) >= sizeof(pk->name)) {
		ftv_errf(err, "more than %d poke sites", WORLD_MAX_POKES);
		return NULL;
	}
	pk = &t->poke[t->npoke];
	if (sim_read32(w->as, a, &pk->word[0]) || sim_read32(w->as, b, &pk->word[1])) {
		ftv_errf(err, "%s: unreadable", name);
		return NULL;
	}
	snprintf(pk->name, sizeof(pk->name), "%s", name);
	pk->addr = a;
	pk->cur = 0;
	t->npoke++;
	return pk;
}

int world_text_poke(struct world *w, const char *site, struct ftv_err *err)
{
	struct world_text *t;
	struct wpoke *pk;

	if (!w->backend->patch_text)
		return ftv_errf(err, "the %s backend has no stop_machine() text patcher",
				ftv_arch_name(w->sd->arch));
	if (!(t = jump_labels(w, err)) || !(pk = poke_site(w, t, site, err)))
		return -1;
	w->scratch.agent = PLAN_AGENT_TEXT;
	w->scratch.visible_on_return = 1;
	if (w->backend->patch_text(w->arch_ctx, pk->addr, pk->word[pk->cur],
				   pk->word[!pk->cur], &w->scratch, err)) {
		plan_reset(&w->scratch);
		w->scratch.agent = PLAN_AGENT_FTRACE;
		return -1;
	}
	pk->cur = !pk->cur;
	return world_submit(w, "patch_text", err);
}

/* The poke sites the CPUs may run: every symbol NAME with a NAME_alt the
 * corpus marks as such (corpus/src/jumplabel.c's ftv_poke_site). */
static const char *const poke_sites[] = { "ftv_poke_site" };

int world_text_watch(struct world *w, struct ftv_err *err)
{
	struct world_text *jl;

	/* Only the corpus's static-key unit (it defines the poke site) has
	 * its jump labels and poke site watched from the start, as ftrace's
	 * sites are: their fetches are scheduling points. Any other object's
	 * labels are watched when a plan first writes them. */
	if ((!w->backend->jump_label_transform && !w->backend->patch_text) ||
	    !sim_image_lookup(w->img, poke_sites[0]))
		return 0;
	if (!(jl = jump_labels(w, err)))
		return -1;
	for (size_t i = 0; w->backend->jump_label_transform && i < jl->n; i++)
		if (exec_watch_insn(w->ex, jl->e[i].code, err))
			return -1;
	for (size_t i = 0; i < sizeof(poke_sites) / sizeof(poke_sites[0]); i++) {
		uint64_t a = sim_image_lookup(w->img, poke_sites[i]);

		if (a && !(a & 3) && exec_watch_insn(w->ex, a, err))
			return -1;
	}
	return 0;
}

size_t world_text_poke_sites(struct world *w, const char **names, size_t max)
{
	size_t n = 0;

	if (!w->backend->patch_text)
		return 0;
	for (size_t i = 0; i < sizeof(poke_sites) / sizeof(poke_sites[0]); i++) {
		char alt[80];

		snprintf(alt, sizeof(alt), "%s_alt", poke_sites[i]);
		if (!sim_image_lookup(w->img, poke_sites[i]) || !sim_image_lookup(w->img, alt))
			continue;
		if (n < max)
			names[n] = poke_sites[i];
		n++;
	}
	return n;
}

size_t world_jump_label_keys(struct world *w, const char **names, size_t max)
{
	struct ftv_err err;
	struct world_text *jl = w->backend->jump_label_transform ? jump_labels(w, &err)
									 : NULL;

	if (!jl)
		return 0;
	for (size_t i = 0; i < jl->nk && i < max; i++)
		names[i] = jl->k[i].name;
	return jl->nk;
}

void world_text_free(struct world *w)
{
	if (!w->text)
		return;
	free(w->text->e);
	free(w->text->k);
	free(w->text);
	w->text = NULL;
}

/* Another task writing a word ftrace owns, without ftrace_lock: in the
 * kernel, aarch64_insn_patch_text_nosync() (arch/arm64/kernel/patching.c)
 * is the store and caches_clean_inval_pou(); text_mutex, jump labels and
 * kprobes refuse ftrace's words through ftrace_text_reserved()
 * (kernel/trace/ftrace.c), which is what this writer skips. */
int world_text_write(struct world *w, const char *at, const char *word,
		     struct ftv_err *err)
{
	char sym[128];
	const char *plus = strchr(at, '+');
	size_t n = plus ? (size_t)(plus - at) : strlen(at);
	uint64_t off = 0, v, addr;

	if (w->sd->arch != FTV_ARCH_ARM64)
		return ftv_errf(err, "text-write: arm64 only");
	if (n >= sizeof(sym) || (plus && ftv_parse_u64(plus + 1, &off)) ||
	    ftv_parse_u64(word, &v) || v > 0xffffffffu)
		return ftv_errf(err, "usage: text-write SYMBOL+OFF WORD (a 32-bit instruction)");
	memcpy(sym, at, n);
	sym[n] = 0;
	if (!(addr = sim_image_lookup(w->img, sym)))
		return ftv_errf(err, "text-write: no symbol %s", sym);
	addr += off;
	if (world_rec_at_ip(w, addr) < 0)
		return ftv_errf(err, "text-write: %s is no ftrace site's patched word", at);
	w->scratch.agent = PLAN_AGENT_TEXT;
	if (plan_write_insn(&w->scratch, addr, 0, (uint32_t)v, 0, -1,
			    "text-write: aarch64_insn_patch_text_nosync, no ftrace_lock") ||
	    plan_cache_sync(&w->scratch, addr, 4, -1)) {
		plan_reset(&w->scratch);
		w->scratch.agent = PLAN_AGENT_FTRACE;
		return ftv_errf(err, "out of memory");
	}
	return world_submit(w, "text_write", err);
}
