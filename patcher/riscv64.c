#include "patcher/riscv64.h"

#include <inttypes.h>
#include <string.h>

#include "encoders/riscv.h"

const struct ftrace_arch_mutant riscv64_mutants[] = {
	{ "none", RISCV64_MUT_NONE, "the correct backend" },
	{ "atomic-rewrite-auipc", RISCV64_MUT_ATOMIC_REWRITE_AUIPC,
	  "the atomic scheme rewrites the AUIPC live to call far targets directly" },
	{ "jalr-before-literal", RISCV64_MUT_JALR_BEFORE_LITERAL,
	  "make_call writes the call words before the ops literal" },
	{ "unlocked-init-literal", RISCV64_MUT_UNLOCKED_INIT_LITERAL,
	  "ftrace_init_nop writes the ops literal through the patch window before taking "
	  "text_mutex (Linux 6.16-rc, \"Random oops on SG2042\", July 2025)" },
	{ "patch-text-no-fence-i", RISCV64_MUT_PATCH_TEXT_NO_FENCE_I,
	  "patch_text_cb(): the harts that waited resume without local_flush_icache_all() "
	  "(the fence.i edf2d546bfd6 added, 2024)" },
	{ NULL, RISCV64_MUT_NONE, NULL },
};

/* Where the AUIPC word and the JALR word of a site are (contract: AUIPC at
 * func = init_addr, JALR at func+4 = ip). */
static uint64_t auipc_addr(const struct ftrace_site *s)
{
	return s->init_addr ? s->init_addr : s->ip - 4;
}

int riscv64_site_usable(const struct riscv64_ftrace_ctx *c,
		      const struct ftrace_site *s, struct ftv_err *err)
{
	(void)c;
	/* The literal is read by the trampoline with one LD while the
	 * patcher stores it: only an aligned doubleword is single-copy atomic
	 * (RVWMO, ISA vol. 1 A.2; the kernel selects FUNCTION_ALIGNMENT_8B for
	 * CALL_OPS so that it is). */
	if ((!s->literal && !s->zeroed) || (s->literal & 7))
		return ftv_errf(err, "Misaligned patch-site: ops literal 0x%" PRIx64
				" is not 8-byte aligned", s->literal);
	/* Ziccif makes a fetch atomic only for naturally aligned words. */
	if ((auipc_addr(s) & 3) || (s->ip & 3))
		return ftv_errf(err, "Misaligned patch-site: call words at 0x%" PRIx64
				" are not 4-byte aligned, so their fetch is not atomic",
				auipc_addr(s));
	return 0;
}

/* The AUIPC's page count for a call from pc to target: hi = (off + 0x800)
 * >> 12, the rounding that keeps the JALR's lo in -2048..2047 (ISA vol. 1
 * 2.5, psABI %pcrel_hi). */
static int64_t pair_hi(uint64_t pc, uint64_t target)
{
	int64_t off = (int64_t)(target - pc);

	return (off + 0x800) >> 12;
}

int riscv64_jalr_reaches(uint64_t func, uint64_t ftrace_caller, uint64_t target)
{
	uint64_t base = func + (uint64_t)(pair_hi(func, ftrace_caller) * 4096);
	int64_t lo = (int64_t)(target - base);

	return lo >= -2048 && lo <= 2047 && !(target & 1);
}

int riscv64_init_auipc(const struct riscv64_ftrace_ctx *c,
		     const struct ftrace_site *s, uint32_t *auipc,
		     struct ftv_err *err)
{
	uint32_t jalr;

	if (rv_gen_call_pair(auipc_addr(s), c->ftrace_caller, RV_REG_T0, auipc,
			     &jalr, err))
		return ftv_err_prefix(err, "ftrace_caller");
	return 0;
}

/* What -fpatchable-function-entry left in one 4-byte slot and in the
 * literal: two c.nop (RVC) or one nop per word. */
static uint32_t compiler_word(const struct riscv64_ftrace_ctx *c)
{
	return c->rvc ? (uint32_t)rv_gen_c_nop() * 0x10001u : rv_gen_nop();
}

static uint64_t compiler_literal(const struct riscv64_ftrace_ctx *c)
{
	return (uint64_t)compiler_word(c) * 0x100000001ull;
}

static int oom(struct ftv_err *e)
{
	return ftv_errf(e, "out of memory building a plan");
}

/* __patch_insn_write(): the text is written through the patch window, the
 * fixmap slot FIX_TEXT_POKE0 every patcher shares (patch_map, the store,
 * patch_unmap); the caller holds text_mutex
 * (lockdep_assert_held(&text_mutex), arch/riscv/kernel/patch.c). The
 * atomic scheme models it; the pair scheme ran under stop_machine. */
static int windowed(struct plan *p, size_t from, uint64_t addr, int window,
		    struct ftv_err *e)
{
	struct plan_step map = { .op = PLAN_MAP_WINDOW, .addr = addr, .rec = -1,
				 .what = "patch_map (FIX_TEXT_POKE0)" };

	if (!window)
		return 0;
	if (plan_push(p, &map) ||
	    plan_simple(p, PLAN_UNMAP_WINDOW, -1, "patch_unmap"))
		return oom(e);
	/* map, the store(s) made since from, unmap */
	memmove(&p->steps[from + 1], &p->steps[from], (p->n - 2 - from) * sizeof(p->steps[0]));
	p->steps[from] = map;
	for (size_t i = from + 1; i + 1 < p->n; i++)
		p->steps[i].window = 1;
	return 0;
}

/* ftrace_rec_set_ops(): one aligned 64-bit store of the ops pointer
 * (patch_text_nosync through the fixmap). Its flush orders it before the
 * call words written next: modelled as a fence w,w. */
static int write_literal_w(const struct ftrace_site *s, uint64_t old,
			   uint64_t ops, const char *what, int window, struct plan *p,
			   struct ftv_err *e)
{
	size_t from = p->n;

	if (plan_write_data64(p, s->literal, old, ops, 0, -1, what) ||
	    windowed(p, from, s->literal, window, e) ||
	    plan_simple(p, PLAN_DMB, -1, "fence w,w (literal before the call)"))
		return oom(e);
	return 0;
}

static int write_literal(const struct ftrace_site *s, uint64_t old,
			 uint64_t ops, const char *what, struct plan *p,
			 struct ftv_err *e)
{
	return write_literal_w(s, old, ops, what, 0, p, e);
}

static int write_word_w(struct plan *p, uint64_t addr, uint32_t old,
			uint32_t new, int validate, const char *what, int window,
			struct ftv_err *e)
{
	size_t from = p->n;

	if (plan_write_insn(p, addr, old, new, validate, -1, what) ||
	    windowed(p, from, addr, window, e))
		return oom(e);
	return 0;
}

static int write_word(struct plan *p, uint64_t addr, uint32_t old,
		      uint32_t new, int validate, const char *what,
		      struct ftv_err *e)
{
	return write_word_w(p, addr, old, new, validate, what, 0, e);
}

/* text_mutex, the sleeping lock every riscv text patcher holds around the
 * patch window (PLAN_LOCK names it by this token). */
#define TEXT_MUTEX 0x74657874ull /* "text" */

static int text_mutex(struct plan *p, int lock, struct ftv_err *e)
{
	if (plan_simple(p, lock ? PLAN_LOCK : PLAN_UNLOCK, -1,
			lock ? "mutex_lock(&text_mutex)" : "mutex_unlock(&text_mutex)"))
		return oom(e);
	p->steps[p->n - 1].addr = TEXT_MUTEX;
	return 0;
}

/* flush_icache_all(): a local fence.i and an IPI (SBI remote fence.i) so
 * that every hart executes fence.i before running on. */
static int flush_icache_all(struct plan *p, const char *what,
			    struct ftv_err *e)
{
	if (plan_simple(p, PLAN_SYNC_ALL, -1, what))
		return oom(e);
	return 0;
}

static int check_site(const struct riscv64_ftrace_ctx *c,
		      const struct ftrace_site *s, struct ftv_err *e)
{
	if (s->kind != FTV_SITE_RISCV_CALL_OPS)
		return ftv_errf(e, "riscv: site 0x%" PRIx64 " is not a RISC-V "
				"CALL_OPS site", s->ip);
	return riscv64_site_usable(c, s, e);
}

/* ---- pair scheme (Linux < 6.16 + CALL_OPS) ---- */

/* The call pair to target, as make_call_t0() builds it: AUIPC+JALR reach
 * +/-2 GiB, so direct and per-ops trampolines are called directly; only a
 * target beyond that goes through ftrace_caller and the literal (rule 1 of
 * ftrace_arch.h). */
static int pair_words(const struct riscv64_ftrace_ctx *c,
		      const struct ftrace_site *s, uint64_t target,
		      uint32_t *auipc, uint32_t *jalr, struct ftv_err *e)
{
	struct ftv_err ignored = { { 0 } };

	if (!rv_gen_call_pair(auipc_addr(s), target, RV_REG_T0, auipc, jalr,
			      &ignored))
		return 0;
	if (target != c->ftrace_caller &&
	    !rv_gen_call_pair(auipc_addr(s), c->ftrace_caller, RV_REG_T0,
			      auipc, jalr, &ignored))
		return 0;
	return ftv_errf(e, "riscv: target 0x%" PRIx64 " and ftrace_caller 0x%"
			PRIx64 " are beyond auipc+jalr reach of site 0x%" PRIx64,
			target, c->ftrace_caller, auipc_addr(s));
}

/* ftrace_init_nop() -> ftrace_make_nop(): literal = ftrace_nop_ops, and
 * NOP;NOP over the compiler's entry (patch_text_nosync: two word stores,
 * then flush_icache_range). Before any hart can run the site. */
static int pair_init_nop(void *ctx, const struct ftrace_site *s, uint64_t ops,
			 struct plan *p, struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t cw = compiler_word(c), nop = rv_gen_nop();

	if (check_site(c, s, e) ||
	    write_literal(s, compiler_literal(c), ops,
			  "init_nop: ops literal = ftrace_nop_ops", p, e) ||
	    write_word(p, auipc_addr(s), cw, nop, 0, "init_nop: entry word 0 -> nop", e) ||
	    write_word(p, s->ip, cw, nop, 0, "init_nop: entry word 1 -> nop", e))
		return -1;
	return flush_icache_all(p, "flush_icache_all (patch_text_nosync)", e);
}

/* Both words, AUIPC first (memcpy order), each validated against what
 * this transition expects there, then flush_icache_all. */
static int pair_rewrite(struct plan *p, const struct ftrace_site *s,
			uint32_t oa, uint32_t oj, uint32_t na, uint32_t nj,
			const char *wa, const char *wj, struct ftv_err *e)
{
	if (write_word(p, auipc_addr(s), oa, na, 1, wa, e) ||
	    write_word(p, s->ip, oj, nj, 1, wj, e))
		return -1;
	return flush_icache_all(p, "flush_icache_all (patch_text_nosync)", e);
}

static int pair_make_call(void *ctx, const struct ftrace_site *s,
			  uint64_t target, uint64_t ops, struct plan *p,
			  struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t a, j, nop = rv_gen_nop();

	if (check_site(c, s, e) || pair_words(c, s, target, &a, &j, e))
		return -1;
	if (c->mutant == RISCV64_MUT_JALR_BEFORE_LITERAL) {
		if (pair_rewrite(p, s, nop, nop, a, j, "make_call: nop -> auipc",
				 "make_call: nop -> jalr", e))
			return -1;
		return write_literal(s, 0, ops, "make_call: ops literal", p, e);
	}
	if (write_literal(s, 0, ops, "make_call: ops literal", p, e))
		return -1;
	return pair_rewrite(p, s, nop, nop, a, j, "make_call: nop -> auipc",
			    "make_call: nop -> jalr", e);
}

static int pair_make_nop(void *ctx, const struct ftrace_site *s,
			 uint64_t old_target, uint64_t ops, struct plan *p,
			 struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t a, j, nop = rv_gen_nop();

	if (check_site(c, s, e) || pair_words(c, s, old_target, &a, &j, e) ||
	    write_literal(s, 0, ops, "make_nop: ops literal = ftrace_nop_ops", p, e))
		return -1;
	return pair_rewrite(p, s, a, j, nop, nop, "make_nop: auipc -> nop",
			    "make_nop: jalr -> nop", e);
}

/* ftrace_modify_call(): the current pair is checked
 * (ftrace_check_current_call), then both words rewritten, even when only
 * the ops changed. */
static int pair_modify_call(void *ctx, const struct ftrace_site *s,
			    uint64_t old_target, uint64_t new_target,
			    uint64_t ops, struct plan *p, struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t oa, oj, na, nj;

	if (check_site(c, s, e) ||
	    pair_words(c, s, old_target, &oa, &oj, e) ||
	    pair_words(c, s, new_target, &na, &nj, e) ||
	    write_literal(s, 0, ops, "modify_call: ops literal", p, e))
		return -1;
	return pair_rewrite(p, s, oa, oj, na, nj, "modify_call: auipc -> auipc",
			    "modify_call: jalr -> jalr", e);
}

/* ---- atomic scheme (Linux 6.16) ---- */

/* The words a site holds while calling target. Normally the init AUIPC and
 * a JALR off its base; a target beyond the JALR's +/-2 KiB resolves to
 * ftrace_caller, which reaches it through the literal's ops
 * (ftrace_make_call: "if (distance > JALR_RANGE) addr = FTRACE_ADDR").
 * The rewrite-auipc mutant instead calls a far target with its own pair. */
static int atomic_words(const struct riscv64_ftrace_ctx *c,
			const struct ftrace_site *s, uint64_t target,
			uint32_t *auipc, uint32_t *jalr, struct ftv_err *e)
{
	uint64_t func = auipc_addr(s), base;

	if (riscv64_init_auipc(c, s, auipc, e))
		return -1;
	if (!riscv64_jalr_reaches(func, c->ftrace_caller, target)) {
		if (c->mutant == RISCV64_MUT_ATOMIC_REWRITE_AUIPC)
			return rv_gen_call_pair(func, target, RV_REG_T0, auipc,
						jalr, e);
		target = c->ftrace_caller;
	}
	base = func + (uint64_t)(pair_hi(func, c->ftrace_caller) * 4096);
	return rv_gen_jalr(RV_REG_T0, RV_REG_T0, (int64_t)(target - base), jalr, e);
}

/* ftrace_init_nop(): literal = ftrace_nop_ops, then `auipc t0,
 * hi(ftrace_caller)` and a NOP over the compiler's entry, in one
 * patch_insn_write: once, before any hart can run the site. The AUIPC is
 * never written again. */
static int atomic_init_nop(void *ctx, const struct ftrace_site *s,
			   uint64_t ops, struct plan *p, struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t cw = compiler_word(c), auipc;

	int unlocked = c->mutant == RISCV64_MUT_UNLOCKED_INIT_LITERAL;
	size_t from;

	if (check_site(c, s, e) || riscv64_init_auipc(c, s, &auipc, e))
		return -1;
	/* text_mutex first ("riscv: ftrace: Properly acquire text_mutex to
	 * fix a race condition", Alexandre Ghiti, Linux 6.16-rc6); 6.16-rc1
	 * took it only for the entry words, after the literal */
	if ((!unlocked && text_mutex(p, 1, e)) ||
	    write_literal_w(s, compiler_literal(c), ops,
			    "init_nop: ops literal = ftrace_nop_ops", 1, p, e) ||
	    (unlocked && text_mutex(p, 1, e)))
		return -1;
	/* the AUIPC and the NOP in one patch_insn_write */
	from = p->n;
	if (write_word(p, auipc_addr(s), cw, auipc, 0,
		       "init_nop: entry word 0 -> auipc t0, ftrace_caller", e) ||
	    write_word(p, s->ip, cw, rv_gen_nop(), 0, "init_nop: entry word 1 -> nop", e) ||
	    windowed(p, from, auipc_addr(s), 1, e))
		return -1;
	return text_mutex(p, 0, e);
}

/* The mutant's AUIPC write, when the words differ: live, unlike init. */
static int mutant_auipc(const struct riscv64_ftrace_ctx *c, struct plan *p,
			const struct ftrace_site *s, uint32_t old, uint32_t new,
			const char *what, struct ftv_err *e)
{
	if (c->mutant != RISCV64_MUT_ATOMIC_REWRITE_AUIPC || old == new)
		return 0;
	return write_word_w(p, auipc_addr(s), old, new, 1, what, 1, e);
}

/* ftrace_make_call(): ftrace_rec_update_ops, then NOP -> JALR with one
 * aligned 4-byte store (Ziccif: fetched whole-old or whole-new). */
static int atomic_make_call(void *ctx, const struct ftrace_site *s,
			    uint64_t target, uint64_t ops, struct plan *p,
			    struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t init, a, j, nop = rv_gen_nop();

	if (check_site(c, s, e) || riscv64_init_auipc(c, s, &init, e) ||
	    atomic_words(c, s, target, &a, &j, e))
		return -1;
	if (c->mutant == RISCV64_MUT_JALR_BEFORE_LITERAL) {
		if (write_word_w(p, s->ip, nop, j, 1, "make_call: nop -> jalr", 1, e))
			return -1;
		return write_literal_w(s, 0, ops, "make_call: ops literal", 1, p, e);
	}
	if (write_literal_w(s, 0, ops, "make_call: ops literal", 1, p, e) ||
	    mutant_auipc(c, p, s, init, a, "make_call: auipc -> auipc (live)", e))
		return -1;
	return write_word_w(p, s->ip, nop, j, 1, "make_call: nop -> jalr", 1, e);
}

/* ftrace_make_nop(): ftrace_rec_set_nop_ops, then JALR -> NOP. */
static int atomic_make_nop(void *ctx, const struct ftrace_site *s,
			   uint64_t old_target, uint64_t ops, struct plan *p,
			   struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t init, a, j;

	if (check_site(c, s, e) || riscv64_init_auipc(c, s, &init, e) ||
	    atomic_words(c, s, old_target, &a, &j, e) ||
	    write_literal_w(s, 0, ops, "make_nop: ops literal = ftrace_nop_ops", 1, p, e) ||
	    write_word_w(p, s->ip, j, rv_gen_nop(), 1, "make_nop: jalr -> nop", 1, e))
		return -1;
	return mutant_auipc(c, p, s, a, init, "make_nop: auipc -> auipc (live)", e);
}

/* ftrace_modify_call(): ftrace_rec_update_ops, then the JALR only if the
 * resolved target changed (same rd and rs1, only the offset differs: both
 * words consume the one AUIPC result). */
static int atomic_modify_call(void *ctx, const struct ftrace_site *s,
			      uint64_t old_target, uint64_t new_target,
			      uint64_t ops, struct plan *p, struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;
	uint32_t oa, oj, na, nj;

	if (check_site(c, s, e) ||
	    atomic_words(c, s, old_target, &oa, &oj, e) ||
	    atomic_words(c, s, new_target, &na, &nj, e) ||
	    write_literal_w(s, 0, ops, "modify_call: ops literal", 1, p, e) ||
	    mutant_auipc(c, p, s, oa, na, "modify_call: auipc -> auipc (live)", e))
		return -1;
	if (oj == nj)
		return 0;
	return write_word_w(p, s->ip, oj, nj, 1, "modify_call: jalr -> jalr", 1, e);
}

/* arch_ftrace_update_code() in 6.16: ftrace_modify_all_code with
 * FTRACE_MAY_SLEEP (no stop_machine) under text_mutex (taken in
 * ftrace_arch_code_modify_prepare since the fix, which
 * ftrace_module_enable calls too), then one flush_icache_all. */
static int atomic_update_prepare(void *ctx, struct plan *p, struct ftv_err *e)
{
	(void)ctx;
	return text_mutex(p, 1, e);
}

static int atomic_update_post(void *ctx, struct plan *p, struct ftv_err *e)
{
	(void)ctx;
	if (flush_icache_all(p, "flush_icache_all (arch_ftrace_update_code)", e))
		return -1;
	return text_mutex(p, 0, e);
}

/* arch_jump_label_transform(): a static branch NOP <-> `j .+4` through
 * patch_text_nosync under text_mutex, then flush_icache_all: the other
 * patcher of kernel text the patch window is shared with. */
static int atomic_static_branch(void *ctx, uint64_t addr, int enable, struct plan *p,
				struct ftv_err *e)
{
	uint32_t nop = rv_gen_nop(), jmp;

	(void)ctx;
	if (rv_gen_jal(addr, addr + 4, RV_REG_ZERO, &jmp, e))
		return -1;
	if (text_mutex(p, 1, e) ||
	    write_word_w(p, addr, enable ? nop : jmp, enable ? jmp : nop, 0,
			 enable ? "static_branch: nop -> j" : "static_branch: j -> nop", 1, e) ||
	    flush_icache_all(p, "flush_icache_all (jump label)", e))
		return -1;
	return text_mutex(p, 0, e);
}

/* patch_text() (arch/riscv/kernel/patch.c), with text_mutex held as it
 * asserts: stop_machine_cpuslocked(patch_text_cb) on every online hart.
 * The last hart to arrive patches (patch_insn_write() through the patch
 * window, then its own local fence.i) and releases the others with
 * atomic_inc_return_release(); each of them, leaving the spin, executes
 * local_flush_icache_all(), its own fence.i (Zifencei: fence.i orders
 * only the executing hart's fetches; edf2d546bfd6, "riscv: patch: Flush
 * the icache right after patching to avoid illegal insns", 2024). The
 * patcher agent is that master; the waiting harts' fence.i is modelled
 * as one step for all of them (PLAN_SYNC_ALL, which on riscv64 is every
 * hart's fence.i), before the release. The mutant leaves it out: a
 * hart resumes with what it fetched before, after patch_text() returned. */
static int patch_text(void *ctx, uint64_t addr, uint32_t old, uint32_t new,
		      struct plan *p, struct ftv_err *e)
{
	const struct riscv64_ftrace_ctx *c = ctx;

	if (text_mutex(p, 1, e) ||
	    plan_simple(p, PLAN_STOP_REQUEST, -1, "stop_machine_cpuslocked()") ||
	    plan_simple(p, PLAN_STOP_MACHINE, -1, "patch_text_cb: the last hart to arrive patches"))
		return oom(e);
	if (write_word_w(p, addr, old, new, 0, "patch_text_cb: patch_insn_write", 1, e))
		return -1;
	/* the master's own fence.i (local_flush_icache_range()), and
	 * atomic_inc_return_release(): the patching store is visible before
	 * any waiting hart is released */
	if (plan_simple(p, PLAN_DSB, -1, "patch_text_cb: fence.i; atomic_inc_return_release"))
		return oom(e);
	if (c->mutant != RISCV64_MUT_PATCH_TEXT_NO_FENCE_I &&
	    plan_simple(p, PLAN_SYNC_ALL, -1, "patch_text_cb: local_flush_icache_all() on every waiting hart"))
		return oom(e);
	if (plan_simple(p, PLAN_RESUME_MACHINE, -1, "cpu_count released (atomic_inc_return_release)"))
		return oom(e);
	return text_mutex(p, 0, e);
}

static int site_usable(void *ctx, const struct ftrace_site *s, struct ftv_err *e)
{
	return riscv64_site_usable(ctx, s, e);
}

const struct ftrace_arch riscv64_ftrace_pair = {
	.name = "riscv64-pair",
	.mutants = riscv64_mutants,
	.site_usable = site_usable,
	.flags = FTRACE_ARCH_CALL_OPS | FTRACE_ARCH_STOP_MACHINE,
	.init_nop = pair_init_nop,
	.make_call = pair_make_call,
	.make_nop = pair_make_nop,
	.modify_call = pair_modify_call,
	.static_branch = atomic_static_branch,
	.patch_text = patch_text,
};

const struct ftrace_arch riscv64_ftrace_atomic = {
	.name = "riscv64-atomic",
	.mutants = riscv64_mutants,
	.site_usable = site_usable,
	.flags = FTRACE_ARCH_CALL_OPS,
	.init_nop = atomic_init_nop,
	.make_call = atomic_make_call,
	.make_nop = atomic_make_nop,
	.modify_call = atomic_modify_call,
	.update_prepare = atomic_update_prepare,
	.update_post = atomic_update_post,
	.static_branch = atomic_static_branch,
	.patch_text = patch_text,
};

const struct ftrace_arch *riscv64_ftrace_scheme(const char *name)
{
	if (!strcmp(name, "pair") || !strcmp(name, riscv64_ftrace_pair.name))
		return &riscv64_ftrace_pair;
	if (!strcmp(name, "atomic") || !strcmp(name, riscv64_ftrace_atomic.name))
		return &riscv64_ftrace_atomic;
	return NULL;
}
