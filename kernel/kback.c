/* The kernel's own backend as a world's backend (kernel/kback.h). */
#include "kernel/kback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/a64.h"
#include "kernel/kern.h"
#include "kernel/kline.h"
#include "patcher/arm64.h"
#include "util/vec.h"

/* the site's window: its literal (func - 8, func - 12 with BTI) to the
 * patched word */
#define KBACK_WINDOW 20
/* in-window reads of one verb (ftrace_modify_code makes one) */
#define KBACK_READS 8

struct kback {
	struct kern *k;                 /* taken from the pool: kern_take */
	uint64_t insns0;                /* its instructions before this backend */
	struct kline *lines;            /* k's */
	struct arm64_ftrace model;      /* site_usable: ftrace_call_adjust */
	uint64_t caller_w;              /* the world's ftrace_caller */
	uint64_t caller_k, nop_k, list_k, rec;
	/* a site of the world and its kernel copy, with the copy's window
	 * (literal to patched word) as the compiler left it */
	struct kback_pair {
		uint64_t ip_w, ip_k;
		uint32_t orig[KBACK_WINDOW / 4];
	} *pairs;
	size_t npairs;
	/* the runs that made live steps (plan_step.live): as long too */
	struct kback_run **runs;
	size_t nruns, capruns;
	int recorded;   /* FTV_KERNEL_RECORDED: the recorded plans of before */
	/* struct module's offsets (far_module), read from the layout once */
	struct kback_modlay {
		int known;
		uint64_t mem, base, size, msize, text, arch, tramps, modsize;
	} modlay;
};

/* The kernel's verbs (the core's names and the kernel functions). */
enum kverb { V_INIT, V_CALL, V_NOP, V_MODIFY };

/* One verb the core asked: what a rerun needs (plan_live, patcher/plan.h).
 * The copy's window when the core asked, and what its reads returned at
 * first: the run is a function of the values its reads return. */
struct kback_run {
	struct plan_live live;  /* first: the steps' live */
	struct kback *b;
	enum kverb v;
	size_t pair;
	uint64_t old_w, new_w, lit_w;
	uint64_t plt_w;          /* a far module's PLT (ftrace_site.plt), or 0 */
	uint32_t window[KBACK_WINDOW / 4];
	uint64_t first[KBACK_READS];
	size_t nfirst;
	int ran;
};

/* The reads a run's answer gives (world words) and where it is. */
struct kback_answers {
	const struct kback *b;
	const struct kback_pair *p;
	const uint64_t *reads;
	size_t n, i;
};

static int from_kernel_dir(const struct kern *k, const struct sim_site *s)
{
	return !strncmp(s->object, k->dir, strlen(k->dir));
}

struct kback *kback_new(const char *dir, const char *const *objs, size_t nobjs,
			const struct kback_site *sites, size_t nsites,
			uint64_t caller, size_t nmods, int far, struct ftv_err *err)
{
	struct kback *b = calloc(1, sizeof(*b));
	size_t j = 0;

	if (!b || !(b->pairs = calloc(nsites ? nsites : 1, sizeof(*b->pairs)))) {
		free(b);
		ftv_errf(err, "out of memory");
		return NULL;
	}
	if (!(b->k = kern_take(dir, (char *const *)objs, nobjs, nmods, far, err)))
		goto fail;
	b->insns0 = b->k->insns;
	b->caller_w = b->model.ftrace_caller = caller;
	b->caller_k = kern_sym(b->k, "ftrace_caller");
	b->nop_k = kern_sym(b->k, "ftrace_nop_ops");
	b->list_k = kern_sym(b->k, "ftrace_list_ops");
	b->rec = b->k->scratch;
	/* the recorded plans of before (docs/kernel.md), for comparison */
	b->recorded = getenv("FTV_KERNEL_RECORDED") && *getenv("FTV_KERNEL_RECORDED") == '1';
	if (!b->caller_k || !b->nop_k || !b->list_k) {
		ftv_errf(err, "%s: no ftrace_caller, ftrace_nop_ops or ftrace_list_ops (not a CALL_OPS build?)",
			 dir);
		goto fail;
	}
	if (!b->k->lines && !(b->k->lines = kline_new(b->k, err)))
		goto fail;
	b->lines = b->k->lines;
	/* the world's sites and the kernel's copy of them, in load order */
	for (size_t i = 0; i < sim_image_nsites(b->k->img) && j < nsites; i++) {
		const struct sim_site *s = sim_image_site(b->k->img, i);

		if (from_kernel_dir(b->k, s))
			continue;
		if (strcmp(s->funcname, sites[j].name)) {
			ftv_errf(err, "%s: the kernel's copy of site %zu is %s, the world's %s",
				 s->object, j, s->funcname, sites[j].name);
			goto fail;
		}
		b->pairs[j].ip_w = sites[j].ip;
		b->pairs[j].ip_k = s->addr;
		for (unsigned w = 0; w < KBACK_WINDOW / 4; w++)
			sim_read32(b->k->as, s->addr + 4 - KBACK_WINDOW + 4 * w, &b->pairs[j].orig[w]);
		j++;
	}
	if (j != nsites) {
		ftv_errf(err, "%s: the kernel's copy has %zu of the world's %zu sites", dir, j, nsites);
		goto fail;
	}
	b->npairs = j;
	return b;
fail:
	kback_free(b);
	return NULL;
}

void kback_free(struct kback *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nruns; i++)
		free(b->runs[i]);
	free(b->runs);
	kern_give(b->k);
	free(b->pairs);
	free(b);
}

uint64_t kback_insns(const struct kback *b)
{
	return b->k->insns - b->insns0;
}

static const struct kback_pair *pair(const struct kback *b, uint64_t ip_w)
{
	for (size_t i = 0; i < b->npairs; i++)
		if (b->pairs[i].ip_w == ip_w)
			return &b->pairs[i];
	return NULL;
}

/* A world target as the kernel copy of the site sees it: same offset. */
static uint64_t to_k(const struct kback_pair *p, uint64_t t_w)
{
	return t_w ? p->ip_k + (t_w - p->ip_w) : 0;
}

/* A kernel address of the site's window back in the world. */
static uint64_t to_w(const struct kback_pair *p, uint64_t a_k)
{
	return p->ip_w + (a_k - p->ip_k);
}

/* An instruction word the kernel made at a_k, as the world's word: a BL
 * to the kernel's ftrace_caller calls the world's; any other BL keeps its
 * target's offset from the site. */
static int word_to_w(const struct kback *b, const struct kback_pair *p, uint64_t a_k,
		     uint32_t w, uint32_t *out, struct ftv_err *e)
{
	uint64_t t;

	*out = w;
	if (!a64_is_bl(w) || a64_branch_target(w, a_k, &t))
		return 0;
	return a64_gen_branch(to_w(p, a_k), t == b->caller_k ? b->caller_w : to_w(p, t), 1,
			      out, e);
}

/* "make_call: ftrace_make_call+0x3c (arch/arm64/kernel/ftrace.c:342) >
 * __aarch64_insn_write+0x48 (arch/arm64/kernel/patching.c:78): what": the
 * core's verb first, as the model's steps name it (the checks tell an
 * enabling write by it: verify/check.c on_nop), then where the patcher
 * CPU was in the verb's kernel function and in the innermost one. Kept
 * with the kernel (kline_step_name): it outlives the backend's plans. */
static const char *text(struct kback *b, const char *verb, const struct kev *v,
			const char *what)
{
	const char *s = kline_step_name(b->lines, verb, v->pc, v->outer, what);

	return s ? s : "kernel";
}

/* A point of the site's window [lo, hi) in the cache line at line_k,
 * the patched word when the line holds it: the world's line of that point
 * is the one to maintain (caches_clean_inval_pou(ip, ip + 4) in
 * arch/arm64/kernel/patching.c __aarch64_insn_write). */
static uint64_t line_point(const struct kback_pair *p, uint64_t line_k, uint64_t lo,
			   uint64_t hi)
{
	if (p->ip_k >= line_k && p->ip_k < line_k + 64)
		return p->ip_k;
	return line_k < lo ? lo : line_k >= hi ? hi - 4 : line_k;
}

/* The ops literal the kernel stores must land on the site's pre-function
 * NOPs. ftrace_rec_set_ops (arch/arm64/kernel/ftrace.c) writes
 * ALIGN_DOWN(rec->ip - 12, 8): for a site whose NOPs start at 4 mod 8,
 * which ftrace_call_adjust refuses ("Misaligned patch-site"), that is the
 * word before them, the last instruction of the function placed before. A
 * kernel that takes such a site overwrites it; ftv names the store rather
 * than run the corrupted function. Judged on the window as compiled (the
 * pair's words), not on symbol sizes (an overridden weak function's may
 * cover the next function's NOPs). */
static int literal_on_code(struct kback *b, const char *verb, const struct kback_pair *p,
			   const struct kev *v, const char *what, struct ftv_err *e)
{
	uint64_t base = p->ip_k + 4 - KBACK_WINDOW;

	for (uint64_t a = v->addr; a < v->addr + 8; a += 4) {
		uint32_t w;
		char at[200];

		if (a < base || a >= base + KBACK_WINDOW)
			continue;
		w = p->orig[(a - base) / 4];
		if (w != a64_gen_nop())
			return ftv_errf(e, "%s: the ops literal overwrites %08x at %s, not a NOP of "
					"the site: an instruction of the function before it",
					text(b, verb, v, what), w,
					sim_symbolize(b->k->as, a, at, sizeof(at), 0));
	}
	return 0;
}

/* A world word of the site's window as the kernel's copy holds it (the
 * inverse of word_to_w): a BL to the world's ftrace_caller calls the
 * kernel's. */
static uint64_t word_to_k(const struct kback *b, const struct kback_pair *p, uint64_t a_k,
			  uint64_t v, unsigned n)
{
	uint64_t t;
	uint32_t w = (uint32_t)v;

	if (n != 4 || !a64_is_bl(w) || a64_branch_target(w, to_w(p, a_k), &t))
		return v;
	if (a64_gen_branch(a_k, t == b->caller_w ? b->caller_k : to_k(p, t), 1, &w, NULL))
		return v;
	return w;
}

static int in_window(const struct kback_pair *p, uint64_t a_k)
{
	return a_k >= p->ip_k + 4 - KBACK_WINDOW && a_k < p->ip_k + 4;
}

/* kern.answer during a run: its i-th read of the window returns reads[i]
 * (later ones: the copy, as the core left it) */
static int answer(void *ctx, uint64_t addr, unsigned n, uint64_t *v)
{
	struct kback_answers *a = ctx;

	if (!in_window(a->p, addr))
		return 0;
	if (a->i >= a->n) {
		a->i++;
		return 0;
	}
	*v = word_to_k(a->b, a->p, addr, a->reads[a->i++], n);
	return 1;
}

/* The world's value of what read event v read in the window. */
static int read_world(const struct kback *b, const struct kback_pair *p, const struct kev *v,
		      uint64_t *out, struct ftv_err *e)
{
	uint32_t w;

	*out = v->value;
	if (v->size != 4)
		return 0;
	if (word_to_w(b, p, v->addr, (uint32_t)v->value, &w, e))
		return -1;
	*out = w;
	return 0;
}

/* s is made after the read v (plan_step.rsize: the executor makes it). */
static int set_read(const struct kback *b, const struct kback_pair *p, const struct kev *v,
		    struct plan_step *s, struct ftv_err *e)
{
	s->rsize = v->size;
	s->raddr = to_w(p, v->addr);
	return read_world(b, p, v, &s->rval, e);
}

/* The events of the last run as plan steps (one per visible event). A
 * read of the window is the next step's read (live: plan_step.rsize), or,
 * recorded, the validate of the store to the same word. ret: what the
 * verb returned; an error after a read (a rerun's ftrace_modify_code
 * finding another word: -EINVAL) ends the steps with PLAN_FAIL. */
static int steps(struct kback *b, const char *verb, struct kback_run *r, uint64_t ret,
		 struct plan *pl, struct ftv_err *e)
{
	const struct kback_pair *p = &b->pairs[r->pair];
	const struct kev_log *l = &b->k->log;
	/* the site's window: its literal (func - 8) to the patched word */
	uint64_t lo = p->ip_k + 4 - KBACK_WINDOW, hi = p->ip_k + 4;
	uint64_t read_a = 0, read_v = 0;
	const struct kev *read_e = NULL;
	size_t nreads = 0;
	int have_read = 0;
	char what[160];

	for (size_t i = 0; i < l->n; i++) {
		const struct kev *v = &l->v[i];
		struct plan_step s = { .rec = -1 };
		int in = v->addr >= lo && v->addr < hi;

		/* (the event's text is formatted only for a step or an
		 * error: most events are the patcher CPU's own) */
		switch (v->kind) {
		case KEV_READ:
			if (in) {
				if (have_read && !b->recorded)
					return ftv_errf(e, "%s: two reads of the site before one "
							"visible event (not modelled)",
							text(b, verb, v, kev_format(v, what, sizeof(what))));
				read_a = v->addr;
				read_v = v->value;
				read_e = v;
				have_read = 1;
				if (!r->ran && nreads < KBACK_READS &&
				    read_world(b, p, v, &r->first[nreads], e))
					return -1;
				nreads++;
			}
			continue;
		case KEV_STORE:
			/* the stack, the record, the fake current, patch_lock:
			 * the patcher CPU's own data, which no CPU of the
			 * world reads */
			if (!in)
				continue;
			s.addr = to_w(p, v->addr);
			if (v->size == 8) {
				if (literal_on_code(b, verb, p, v, kev_format(v, what, sizeof(what)), e))
					return -1;
				s.op = PLAN_WRITE_DATA64;
				/* ftrace_rec_set_nop_ops / arm64_rec_get_ops
				 * (arch/arm64/kernel/ftrace.c): the kernel's own
				 * ops are the core's literal */
				s.new = v->value == b->nop_k || v->value == b->list_k ? r->lit_w : v->value;
			} else if (v->size == 4) {
				uint32_t w;

				s.op = PLAN_WRITE_INSN;
				if (word_to_w(b, p, v->addr, (uint32_t)v->value, &w, e))
					return -1;
				s.new = w;
			} else {
				return ftv_errf(e, "%s: a %u-byte store to the site",
						text(b, verb, v, kev_format(v, what, sizeof(what))), v->size);
			}
			if (b->recorded && have_read && read_a == v->addr) {
				uint32_t w;

				if (word_to_w(b, p, read_a, (uint32_t)read_v, &w, e))
					return -1;
				s.validate = 1;
				s.old = v->size == 4 ? w : read_v;
				have_read = 0;
			}
			break;
		case KEV_DC_CVAU:
		case KEV_IC_IVAU:
			/* the line of the word the kernel wrote, in the world */
			if (v->addr + 64 <= lo || v->addr >= hi)
				continue;
			s.op = v->kind == KEV_DC_CVAU ? PLAN_CACHE_CLEAN : PLAN_ICACHE_INVAL;
			s.addr = to_w(p, line_point(p, v->addr, lo, hi)) & ~63ull;
			s.len = 64;
			break;
		case KEV_IC_IALLUIS:
			s.op = PLAN_ICACHE_INVAL;
			s.addr = p->ip_w & ~63ull;
			s.len = 64;
			break;
		case KEV_DSB:
			s.op = PLAN_DSB;
			break;
		case KEV_DMB:
			s.op = PLAN_DMB;
			break;
		case KEV_ISB:
			s.op = PLAN_ISB;
			break;
		case KEV_FAULT:
		case KEV_BUG:
			return ftv_errf(e, "%s", text(b, verb, v, kev_format(v, what, sizeof(what))));
		default:
			/* fixmap, TLBI, patch_lock, printk: the patcher CPU's
			 * own state (one ftrace agent: nobody else maps the
			 * slot or takes the lock in a world) */
			continue;
		}
		if (!b->recorded) {
			/* the step a live CPU makes: after the code between
			 * its previous visible event and this one, with the
			 * read that code made */
			s.live = &r->live;
			if (have_read && set_read(b, p, read_e, &s, e))
				return -1;
			have_read = 0;
		}
		s.what = text(b, verb, v, kev_format(v, what, sizeof(what)));
		if (plan_push(pl, &s))
			return ftv_errf(e, "out of memory");
	}
	if (!b->recorded && have_read) {
		/* the code read the window and returned: its error */
		struct plan_step s = { .op = PLAN_FAIL, .rec = -1, .live = &r->live };
		char msg[200];

		if (!ret)
			return ftv_errf(e, "%s: the site read after the last visible event",
					text(b, verb, read_e,
					     kev_format(&l->v[l->n - 1], what, sizeof(what))));
		if (set_read(b, p, read_e, &s, e))
			return -1;
		s.addr = s.raddr;
		s.old = nreads - 1 < r->nfirst ? r->first[nreads - 1] : s.rval;
		snprintf(msg, sizeof(msg), "returned %d after reading 0x%llx (expected 0x%llx)",
			 (int)ret, (unsigned long long)s.rval, (unsigned long long)s.old);
		s.what = text(b, verb, read_e, msg);
		if (plan_push(pl, &s))
			return ftv_errf(e, "out of memory");
	}
	if (!r->ran) {
		r->ran = 1;
		r->nfirst = nreads < KBACK_READS ? nreads : KBACK_READS;
	}
	return 0;
}

/* where the far module's struct module is built (after the record) */
#define KBACK_MODULE_OFF 0x1000

/* The copy's text section that holds a_k: a module's MOD_TEXT. */
static int copy_text(const struct kback *b, uint64_t a_k, uint64_t *base, uint64_t *size)
{
	for (size_t o = 0; o < sim_image_nobjects(b->k->img); o++) {
		const struct sim_object_info *ob = sim_image_object(b->k->img, o);

		for (size_t s = 0; s < ob->nsections; s++) {
			const struct sim_loaded_section *sec = &ob->sections[s];

			if (a_k >= sec->addr && a_k < sec->addr + sec->size) {
				*base = sec->addr;
				*size = sec->size;
				return 0;
			}
		}
	}
	return -1;
}

/* A module's site: the struct module __module_text_address answers for
 * it, as the module loader leaves it (kernel/module/main.c, and
 * module_init_ftrace_plt in arch/arm64/kernel/module.c): mem[MOD_TEXT]
 * its text, arch.ftrace_trampolines its ftrace PLT, the world's PLT
 * (plt_w) at the same offset from the copy's site as from the world's.
 * ftrace_find_callable_addr looks it up only when the target is out of
 * BL range (a far module); get_ftrace_plt then returns &plt[FTRACE_PLT_IDX]
 * (0), which word_to_w maps back to the world's PLT. Offsets from the
 * build's DWARF (tools/kernel-layout.py). */
static int far_module(struct kback *b, const struct kback_pair *p, uint64_t plt_w,
		      struct ftv_err *e)
{
	struct kern *k = b->k;
	uint64_t m, tb, ts;
	static const uint8_t zero[64];
	struct kback_modlay *ml = &b->modlay;
	uint64_t mem = ml->mem, base = ml->base, size = ml->size, msize = ml->msize;
	uint64_t text = ml->text, arch = ml->arch, tramps = ml->tramps, modsize = ml->modsize;

	k->module = 0;
	if (!plt_w)
		return 0;
	if (!ml->known) {
		if (kern_fact(&k->lay, "module.mem", &ml->mem, e) ||
		    kern_fact(&k->lay, "module_memory.base", &ml->base, e) ||
		    kern_fact(&k->lay, "module_memory.size", &ml->size, e) ||
		    kern_fact(&k->lay, "sizeof.module_memory", &ml->msize, e) ||
		    kern_fact(&k->lay, "MOD_TEXT", &ml->text, e) ||
		    kern_fact(&k->lay, "module.arch", &ml->arch, e) ||
		    kern_fact(&k->lay, "mod_arch_specific.ftrace_trampolines", &ml->tramps, e) ||
		    kern_fact(&k->lay, "sizeof.module", &ml->modsize, e))
			return -1;
		ml->known = 1;
		return far_module(b, p, plt_w, e);
	}
	if (copy_text(b, p->ip_k, &tb, &ts))
		return ftv_errf(e, "no text of the kernel copy holds 0x%llx",
				(unsigned long long)p->ip_k);
	m = k->scratch + KBACK_MODULE_OFF;
	for (uint64_t o = 0; o < modsize; o += sizeof(zero))
		if (sim_write(k->as, m + o, zero, modsize - o < sizeof(zero) ? modsize - o : sizeof(zero), e))
			return -1;
	if (sim_write64(k->as, m + mem + text * msize + base, tb) ||
	    sim_write64(k->as, m + mem + text * msize + size, ts) ||
	    sim_write64(k->as, m + arch + tramps, to_k(p, plt_w)))
		return ftv_errf(e, "struct module: unwritable");
	k->module = m;
	return 0;
}

static const char *const vname[] = {
	[V_INIT] = "init_nop", [V_CALL] = "make_call", [V_NOP] = "make_nop",
	[V_MODIFY] = "modify_call",
};
static const char *const kfn[] = {
	[V_INIT] = "ftrace_init_nop", [V_CALL] = "ftrace_make_call",
	[V_NOP] = "ftrace_make_nop", [V_MODIFY] = "ftrace_modify_call",
};

/* Runs r's verb on the patcher CPU, its window as when the core asked and
 * its reads of the window returning reads[0..nreads) (then the copy's
 * words), and turns its events into steps. The record has
 * FTRACE_FL_CALL_OPS_EN and ftrace_find_unique_ops answers the core's
 * literal, so arm64_rec_get_ops stores exactly that literal. A rerun
 * (reads given) leaves the copy's window as it found it, and an error the
 * code returns is the steps' PLAN_FAIL; the first run's is the core's. */
static int run(struct kback_run *r, const uint64_t *reads, size_t nreads, struct plan *pl,
	       struct ftv_err *e)
{
	struct kback *b = r->b;
	const struct kback_pair *p = &b->pairs[r->pair];
	struct kern *k = b->k;
	struct kback_answers ans = { b, p, reads, nreads, 0 };
	uint64_t args[3] = { 0 }, ret = 0, fn = kern_sym(k, kfn[r->v]);
	uint32_t now[KBACK_WINDOW / 4];
	int n = 3, rc;

	for (unsigned w = 0; w < KBACK_WINDOW / 4; w++) {
		sim_read32(k->as, p->ip_k + 4 - KBACK_WINDOW + 4 * w, &now[w]);
		sim_write32(k->as, p->ip_k + 4 - KBACK_WINDOW + 4 * w, r->window[w]);
	}
	sim_write64(k->as, b->rec + k->lay.dyn_ftrace_ip, p->ip_k);
	sim_write64(k->as, b->rec + k->lay.dyn_ftrace_flags, k->lay.fl_call_ops_en);
	k->unique_ops = r->lit_w;
	if (far_module(b, p, r->plt_w, e))
		return -1;
	switch (r->v) {
	case V_INIT: args[1] = b->rec; n = 2; break;
	case V_CALL: args[0] = b->rec; args[1] = to_k(p, r->new_w); n = 2; break;
	case V_NOP: args[1] = b->rec; args[2] = to_k(p, r->old_w); break;
	case V_MODIFY: args[0] = b->rec; args[1] = to_k(p, r->old_w); args[2] = to_k(p, r->new_w); break;
	}
	kev_clear(&k->log);
	k->answer = b->recorded ? NULL : answer;
	k->answer_ctx = &ans;
	rc = kern_call(k, fn, args, n, &ret, e);
	k->answer = NULL;
	if (reads)
		for (unsigned w = 0; w < KBACK_WINDOW / 4; w++)
			sim_write32(k->as, p->ip_k + 4 - KBACK_WINDOW + 4 * w, now[w]);
	if (rc)
		return -1;
	if (ret && !reads) {
		/* what refused, in the kernel's terms (a store through no
		 * fixmap mapping, a WARN), when the log says */
		for (size_t i = 0; i < k->log.n; i++) {
			const struct kev *x = &k->log.v[i];
			char what[160];

			if (x->kind == KEV_FAULT || x->kind == KEV_BUG)
				return ftv_errf(e, "%s returned %d: %s", kfn[r->v], (int)ret,
						text(b, vname[r->v], x, kev_format(x, what, sizeof(what))));
		}
		return ftv_errf(e, "%s returned %d", kfn[r->v], (int)ret);
	}
	return steps(b, vname[r->v], r, ret, pl, e);
}

/* plan_live.rerun: the verb again, its reads returning reads[] */
static int rerun(const struct plan_live *l, const uint64_t *reads, size_t nreads,
		 struct plan *out, struct ftv_err *e)
{
	struct kback_run *r = (struct kback_run *)l;

	return run(r, reads, nreads, out, e);
}

/* One verb the core asked, run on the patcher CPU: its steps. */
static int verb(struct kback *b, enum kverb v, const struct ftrace_site *fs,
		uint64_t old_w, uint64_t new_w, uint64_t lit_w, struct plan *pl,
		struct ftv_err *e)
{
	const struct kback_pair *p = pair(b, fs->ip);
	struct kback_run *r;

	if (!p)
		return ftv_errf(e, "%s: no kernel copy of the site at 0x%llx", kfn[v],
				(unsigned long long)fs->ip);
	if (!(r = calloc(1, sizeof(*r))) || VEC_PUSH(b->runs, b->nruns, b->capruns, r)) {
		free(r);
		return ftv_errf(e, "out of memory");
	}
	*r = (struct kback_run){ { rerun }, b, v, (size_t)(p - b->pairs), old_w, new_w, lit_w,
				 fs->plt, { 0 }, { 0 }, 0, 0 };
	/* ftrace_init_nop runs on text as the compiler left it (boot, or a
	 * module's load: ftrace_module_init), whatever an earlier load and
	 * unload of the module left in the copy */
	for (unsigned w = 0; w < KBACK_WINDOW / 4; w++) {
		if (v == V_INIT)
			sim_write32(b->k->as, p->ip_k + 4 - KBACK_WINDOW + 4 * w, p->orig[w]);
		sim_read32(b->k->as, p->ip_k + 4 - KBACK_WINDOW + 4 * w, &r->window[w]);
	}
	return run(r, NULL, 0, pl, e);
}

/* Whether the core takes the site: the kernel's own ftrace_call_adjust
 * (arch/arm64/kernel/ftrace.c, called by ftrace_process_locs in
 * kernel/trace/ftrace.c) on the kernel copy's __patchable_function_entries
 * value, the first pre-function NOP (the literal). 0 is its refusal ("Misaligned
 * patch-site", a WARN): the record is skipped, as the core does; any other
 * answer must be the patched word the world made the site of. */
static int k_usable(void *ctx, const struct ftrace_site *s, struct ftv_err *e)
{
	struct kback *b = ctx;
	const struct kback_pair *p = pair(b, s->ip);
	uint64_t fn = kern_sym(b->k, "ftrace_call_adjust"), arg, ret = 0;

	if (s->kind != FTV_SITE_CALL_OPS || !s->literal || !p || !fn)
		return arm64_site_usable(&b->model, s, e);
	arg = to_k(p, s->literal);
	kev_clear(&b->k->log);
	if (kern_call(b->k, fn, &arg, 1, &ret, e))
		return -1;
	if (ret == p->ip_k)
		return 0;
	/* the kernel's own words, without their arguments: "Misaligned
	 * patch-site" (the site is named by the caller) */
	for (size_t i = 0; i < b->k->log.n; i++)
		if (b->k->log.v[i].kind == KEV_PRINT && b->k->log.v[i].text) {
			size_t n = strcspn(b->k->log.v[i].text, "%\n");

			while (n && b->k->log.v[i].text[n - 1] == ' ')
				n--;
			return ftv_errf(e, "%.*s", (int)n, b->k->log.v[i].text);
		}
	return ftv_errf(e, "ftrace_call_adjust(0x%llx) = 0x%llx, not the site's 0x%llx",
			(unsigned long long)arg, (unsigned long long)ret,
			(unsigned long long)p->ip_k);
}

static int k_init_nop(void *ctx, const struct ftrace_site *s, uint64_t lit,
		      struct plan *p, struct ftv_err *e)
{
	return verb(ctx, V_INIT, s, 0, 0, lit, p, e);
}

static int k_make_call(void *ctx, const struct ftrace_site *s, uint64_t target,
		       uint64_t lit, struct plan *p, struct ftv_err *e)
{
	return verb(ctx, V_CALL, s, 0, target, lit, p, e);
}

static int k_make_nop(void *ctx, const struct ftrace_site *s, uint64_t old,
		      uint64_t lit, struct plan *p, struct ftv_err *e)
{
	return verb(ctx, V_NOP, s, old, 0, lit, p, e);
}

static int k_modify_call(void *ctx, const struct ftrace_site *s, uint64_t old,
			 uint64_t new, uint64_t lit, struct plan *p, struct ftv_err *e)
{
	return verb(ctx, V_MODIFY, s, old, new, lit, p, e);
}

/* Not ftrace: another task's jump label (arch_jump_label_transform), as
 * ftv's arm64 backend writes it; arch/arm64/kernel/jump_label.o is not
 * among the objects make kernel builds. */
static int k_static_branch(void *ctx, uint64_t addr, int enable, struct plan *p,
			   struct ftv_err *e)
{
	struct kback *b = ctx;

	return arm64_ftrace_callops.static_branch(&b->model, addr, enable, p, e);
}

static const struct ftrace_arch_mutant kback_mutants[] = {
	{ "none", 0, "the kernel objects as built (mutate the source: make kernel KERNEL_SRC=)" },
	{ NULL, 0, NULL },
};

/* CALL_OPS, live: arch/arm64/kernel/ftrace.c of 6.3+, no
 * update_ftrace_func and no graph caller (kernel-diff shows both do
 * nothing with CALL_OPS and WITH_ARGS). */
const struct ftrace_arch kback_ftrace = {
	.name = "kernel",
	.flags = FTRACE_ARCH_CALL_OPS,
	.mutants = kback_mutants,
	.site_usable = k_usable,
	.init_nop = k_init_nop,
	.make_call = k_make_call,
	.make_nop = k_make_nop,
	.modify_call = k_modify_call,
	.static_branch = k_static_branch,
};
