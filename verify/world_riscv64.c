/* A world on riscv64: its registers, ftrace_caller's literal, what a call
 * instruction is, the backend's context and the pair-hazard explanation,
 * and the two RISC-V CALL_OPS schemes (struct world_archdesc,
 * verify/world_int.h). */
#include "verify/world_int.h"

#include <stdlib.h>
#include <string.h>

#include "encoders/riscv.h"
#include "patcher/riscv64.h"

static int disasm(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	rv_disasm(word, pc, buf, n, NULL);
	return (int)strlen(buf);
}

/* The RISC-V ftrace_caller is entered with t0 = func+8 (the JALR's link)
 * and loads the literal at t0-16 = func-8 (Linux 6.16 mcount-dyn.S). */
static uint64_t literal_slot(uint64_t link)
{
	return link - 16;
}

/* A return address follows a JAL/JALR that linked ra (RISC-V unprivileged
 * ISA 2.5: the psABI call is "jal ra" or "jalr ra"), or a 16-bit C.JALR,
 * which always links ra (C.JAL is RV32 only): RV_CL_LINK in the encoding
 * table. */
static int follows_call(struct sim_aspace *as, uint64_t ret)
{
	uint32_t w;
	struct rv_insn in;

	if (!sim_read32(as, ret - 4, &w) && (w & 3) == 3 && (rv_class(w) & RV_CL_LINK) &&
	    !rv_decode(w, ret - 4, &in) && in.rd == RV_REG_RA)
		return 1;
	if (!sim_read32(as, ret - 2, &w) && (w & 3) != 3 && (rv_class(w) & RV_CL_LINK))
		return 1;
	return 0;
}

/* The return, JALR x0, 0(ra) (`ret`), or its 16-bit C.JR ra: RV_CL_RETURN
 * in the encoding table. A parcel whose low two bits are 11 starts a 32-bit
 * instruction. */
static int is_return(struct sim_aspace *as, uint64_t pc, unsigned *len)
{
	uint32_t w;

	*len = 0;
	if (sim_read32(as, pc, &w))
		return 0;
	*len = (w & 3) == 3 ? 4 : 2;
	return (rv_class(w) & RV_CL_RETURN) != 0;
}

/* struct riscv64_ftrace_ctx: ftrace_caller, and what the compiler left at
 * the entries, for init_nop's reports: C.NOP pairs (-march=rv64gc) or
 * NOPs (rv64g). */
static int backend_ctx(struct world *w, struct ftv_err *err)
{
	struct riscv64_ftrace_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		return ftv_errf(err, "out of memory");
	w->arch_ctx = c;
	c->ftrace_caller = w->caller;
	c->mutant = (enum riscv64_mutant)w->cfg.backend_mutant;
	if (w->nrecs) {
		uint32_t entry = 0;

		sim_read32(w->as, w->recs[0].func, &entry);
		c->rvc = entry == ((uint32_t)rv_gen_c_nop() << 16 | rv_gen_c_nop());
	}
	return 0;
}

/* ftrace_call_adjust() of a table entry: the literal, 8 bytes before the
 * function; AUIPC at the entry, the patched JALR after it. */
static int entry_site(uint64_t entry, struct ftrace_site *s)
{
	s->literal = entry;
	s->func = s->init_addr = entry + 8;
	s->ip = entry + 12;
	return 0;
}

const struct world_archdesc world_riscv64 = {
	.arch = FTV_ARCH_RISCV64,
	.scheme_names = "pair, atomic",
	.default_scheme = FTV_SCHEME_ATOMIC,
	.tramp_subdir = "riscv64",
	/* trampolines/riscv: graph.S, ops-tramp.S */
	.graph_tracer = 1,
	.reg_pcpu = 4,      /* tp (the kernel keeps `current` there) */
	.reg_arg0 = 10,     /* a0..a7 (RISC-V psABI) */
	.reg_ra = 1,        /* ra */
	.reg_sp = 2,        /* sp */
	.reg_link = 5,      /* jalr t0: t0 = site + 4 */
	.reg_ops = 6,       /* t1 at ftrace_caller_op_loaded */
	.literal_slot = literal_slot,
	.literal_slot_what = "t0 - 16, the literal before the function",
	/* stop_machine's stopper preempts a hart wherever it is, in
	 * particular between the AUIPC and the JALR of a call site */
	.stop_anywhere = 1,
	.call_insn = "JALR",
	.disasm = disasm,
	.follows_call = follows_call,
	.is_return = is_return,
	.mutants = riscv64_mutants,
	.backend_ctx = backend_ctx,
	.entry_site = entry_site,
	.explain = riscv64_explain_pairs,
};

/* RISC-V CALL_OPS before Linux 6.16: enable and disable rewrite both words
 * of the AUIPC+JALR pair under stop_machine, which may have stopped a hart
 * between them. */
const struct world_schemedesc world_scheme_pair = {
	.name = "pair", .arch = FTV_ARCH_RISCV64, .corpus_set = "rv64",
	.kind = FTV_SITE_RISCV_CALL_OPS,
	.tramps = { "entry-ftrace.o", "graph.o", "direct.o", "tracers.o",
		    "workload.o", "ops-tramp.o" },
	.backend = &riscv64_ftrace_pair,
	.fuzz = FTV_SCHEME_FUZZ_GRAPH | FTV_SCHEME_FUZZ_DIRECT | FTV_SCHEME_FUZZ_FAR_MODULES,
};

/* Linux 6.16: AUIPC written once at init, only the JALR <-> NOP word
 * changes, a single naturally aligned store. */
const struct world_schemedesc world_scheme_atomic = {
	.name = "atomic", .arch = FTV_ARCH_RISCV64, .corpus_set = "rv64",
	.kind = FTV_SITE_RISCV_CALL_OPS,
	.tramps = { "entry-ftrace.o", "graph.o", "direct.o", "tracers.o",
		    "workload.o", "ops-tramp.o" },
	.backend = &riscv64_ftrace_atomic,
	.fuzz = FTV_SCHEME_FUZZ_GRAPH | FTV_SCHEME_FUZZ_DIRECT | FTV_SCHEME_FUZZ_FAR_MODULES,
};
