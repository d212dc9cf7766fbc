/* Replaying a captured arm64 kernel (verify/replay.h): what only arm64
 * knows, as the world's arch table entry for replay (struct
 * world_replaydesc, verify/replay_int.h): the words a CALL_OPS site holds
 * before init and the synthetic body after its patched word, the record of
 * such a site, the kernel's alignment rule for an unknown one, BL's reach
 * and the modules' ftrace PLT. */
#include "verify/replay_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encoders/a64.h"
#include "patcher/arm64.h"

/* One operand-less word of the encoder table (PACIASP, AUTIASP...). */
static uint32_t a64_word(enum a64_id id, uint8_t rn)
{
	struct a64_insn in = { .id = id, .is64 = true, .rn = rn };
	uint32_t w = 0;

	if (a64_encode(&in, &w, NULL))
		abort(); /* table lines with fixed operands always encode */
	return w;
}

static int is_pac(uint32_t w)
{
	return a64_is_paciasp(w) || a64_is_pacibsp(w);
}

/* The word at ip+4: the captured one, or PACIASP for a callops-pac site
 * captured without words. */
static int site_pac(const struct sim_layout_site *s, uint32_t *pac)
{
	uint64_t at = s->ip + 4;

	if (s->has_entry && s->nwords && at >= s->entry &&
	    (at - s->entry) / 4 < s->nwords) {
		*pac = s->words[(at - s->entry) / 4];
		return is_pac(*pac);
	}
	*pac = a64_word(A64_PACIASP, 0);
	return s->kind == SIM_LAYOUT_CALLOPS_PAC;
}

/* After the patched word and its PAC*: [AUT*,] RET. */
static void body_range(const struct sim_layout_site *s, uint64_t *start,
		       uint64_t *end)
{
	uint32_t pac;
	int p = site_pac(s, &pac);

	*start = s->ip + 4 + (p ? 4 : 0);
	*end = *start + (p ? 8 : 4);
}

static void write_body(struct sim_aspace *as, const struct sim_layout_site *s)
{
	uint32_t pac;
	int p = site_pac(s, &pac);
	uint64_t b0, b1;

	body_range(s, &b0, &b1);
	/* Words the capture did not record: as the compiler emits them
	 * before init (literal slot, [BTI C,] NOP, NOP). */
	for (uint64_t a = s->faddr - 8; a <= s->ip; a += 4)
		sim_write32(as, a, a64_gen_nop());
	if (s->kind == SIM_LAYOUT_CALLOPS_BTI)
		sim_write32(as, s->faddr, a64_gen_bti(A64_BTI_C));
	/* Arm ARM C6.2.24/C6.2.254: the AUT* that checks what the function's
	 * PAC* signed, then RET (to X30). */
	if (p) {
		sim_write32(as, s->ip + 4, pac);
		sim_write32(as, b0, a64_word(a64_is_pacibsp(pac) ? A64_AUTIBSP : A64_AUTIASP, 0));
		sim_write32(as, b0 + 4, a64_word(A64_RET, 30));
	} else {
		sim_write32(as, b0, a64_word(A64_RET, 30));
	}
}

/* FTV_SITE_CALL_OPS (sim/image.h): literal at func-8, the NOP init turns
 * into MOV X9, X30 right before the patched one. */
static void record(const struct sim_layout_site *s, struct sim_site *r)
{
	uint32_t pac;

	r->kind = FTV_SITE_CALL_OPS;
	r->addr = s->ip;
	r->mov_addr = s->ip - 4;
	r->func = s->faddr;
	r->literal = s->faddr - 8;
	r->entry = s->has_entry ? s->entry : s->faddr - 8;
	r->bti = s->kind == SIM_LAYOUT_CALLOPS_BTI;
	r->pac = site_pac(s, &pac);
	r->aligned = !(r->literal & 7);
	r->aligned_by_chance = 0;
	r->section_align = 8;
}

/* An unknown site whose literal slot would be func-8: the kernel's own
 * alignment rule decides (ftrace_call_adjust, patcher/arm64.c). */
static int misaligned(const struct sim_layout_site *s)
{
	struct arm64_ftrace a = { 0 };
	struct ftrace_site fs = {
		.kind = FTV_SITE_CALL_OPS,
		.func = s->faddr, .literal = s->faddr - 8,
		.ip = s->faddr + 4, .name = s->func,
	};
	struct ftv_err e;

	return arm64_site_usable(&a, &fs, &e) != 0;
}

/* module_init_ftrace_plt() (arch/arm64/kernel/module.c): the module's one
 * ftrace PLT entry, get_plt_entry(FTRACE_ADDR) (module-plts.c): ADRP X16
 * and ADD X16, X16 to ftrace_caller, BR X16, which leaves LR (the
 * callsite's return address, from which ftrace_caller finds the ops
 * literal) untouched. */
static int plt_words(uint64_t plt, uint64_t caller, uint32_t *words, struct ftv_err *err)
{
	char text[64];

	snprintf(text, sizeof(text), "add x16, x16, #0x%" PRIx64, caller & 0xfff);
	if (a64_gen_adrp(plt, caller, 16, &words[0], err) ||
	    a64_assemble(text, plt + 4, &words[1], err) ||
	    a64_assemble("br x16", plt + 8, &words[2], err))
		return -1;
	return 0;
}

const struct world_replaydesc world_replay_arm64 = {
	.layout = &sim_layout_arm64,
	.body_range = body_range,
	.write_body = write_body,
	.record = record,
	.misaligned = misaligned,
	.call_reaches = arm64_bl_in_range,
	.plt_words = plt_words,
};
