/* What differs between the architectures and schemes a world can model,
 * in two small tables: the world code asks them instead of testing for an
 * architecture.
 *
 *  - per architecture: where its trampolines are built, the register the
 *    tracers read the per-CPU block from, where C arguments and the return
 *    address live (the breakpoint checks read them), how an instruction
 *    word is printed in reports and what counts as a call instruction;
 *  - per scheme: its architecture, the corpus flag set it patches, the
 *    site layout the loader finds, the trampoline objects and the backend.
 */
#include "verify/world_int.h"

#include <string.h>

#include "encoders/a64.h"
#include "encoders/riscv.h"
#include "patcher/riscv.h"

static int rv_dis(uint32_t word, uint64_t pc, char *buf, size_t n)
{
	rv_disasm(word, pc, buf, n, NULL);
	return (int)strlen(buf);
}

/* ftrace_caller recovers the ops from LR: bic x11, x30, #7; ldur x11,
 * [x11, #-16] (seed 001). */
static uint64_t a64_literal_slot(uint64_t link)
{
	return (link & ~7ULL) - 16;
}

/* The RISC-V ftrace_caller is entered with t0 = func+8 (the JALR's link)
 * and loads the literal at t0-16 = func-8 (Linux 6.16 mcount-dyn.S). */
static uint64_t rv_literal_slot(uint64_t link)
{
	return link - 16;
}

/* A return address follows a BL or BLR (Arm ARM C6.2.35, C6.2.36). */
static int a64_follows_call(struct sim_aspace *as, uint64_t ret)
{
	uint32_t w;

	return !sim_read32(as, ret - 4, &w) && (a64_is_bl(w) || a64_is_blr(w));
}

/* A return address follows JAL/JALR that linked ra (RISC-V unprivileged
 * ISA 2.5: the psABI call is "jal ra" or "jalr ra"), or the 16-bit
 * C.JALR rs1 (funct4 1001, rs2 0, rs1 != 0: links ra; C.JAL is RV32 only). */
static int rv_follows_call(struct sim_aspace *as, uint64_t ret)
{
	uint32_t w;
	struct rv_insn in;

	if (!sim_read32(as, ret - 4, &w) && !rv_decode(w, ret - 4, &in) && in.nbytes == 4 &&
	    (in.op == RV_OP_JAL || in.op == RV_OP_JALR) && in.rd == RV_REG_RA)
		return 1;
	if (!sim_read32(as, ret - 2, &w)) {
		uint16_t h = (uint16_t)w;

		if ((h & 0xf07f) == 0x9002 && ((h >> 7) & 0x1f))
			return 1;
	}
	return 0;
}

static const struct world_archdesc arch_descs[] = {
	[FTV_ARCH_ARM64] = {
		.arch = FTV_ARCH_ARM64,
		.tramp_subdir = "",
		.reg_pcpu = 33,     /* TPIDR_EL1, as the kernel's per-CPU offset */
		.reg_arg0 = 0,      /* x0..x7 (AAPCS64) */
		.reg_ra = 30,       /* LR */
		.reg_link = 30,     /* BL at the site: LR = site + 4 */
		.reg_ops = 11,      /* x11 at ftrace_caller_op_loaded */
		.literal_slot = a64_literal_slot,
		.stop_anywhere = 0, /* arm64 patches live: no stop_machine */
		.call_insn = "BL",
		.disasm = a64_disasm,
		.follows_call = a64_follows_call,
	},
	[FTV_ARCH_RISCV64] = {
		.arch = FTV_ARCH_RISCV64,
		.tramp_subdir = "riscv64",
		.reg_pcpu = 4,      /* tp (the kernel keeps `current` there) */
		.reg_arg0 = 10,     /* a0..a7 (RISC-V psABI) */
		.reg_ra = 1,        /* ra */
		.reg_link = 5,      /* jalr t0: t0 = site + 4 */
		.reg_ops = 6,       /* t1 at ftrace_caller_op_loaded */
		.literal_slot = rv_literal_slot,
		/* stop_machine's stopper preempts a hart wherever it is, in
		 * particular between the AUIPC and the JALR of a call site */
		.stop_anywhere = 1,
		.call_insn = "JALR",
		.disasm = rv_dis,
		.follows_call = rv_follows_call,
	},
};

const struct world_archdesc *world_archdesc(enum ftv_arch a)
{
	return (unsigned)a < sizeof(arch_descs) / sizeof(arch_descs[0]) ? &arch_descs[a]
									: &arch_descs[0];
}

static const struct world_schemedesc scheme_descs[FTV_SCHEME_COUNT] = {
	[FTV_SCHEME_CALLOPS] = {
		.name = "callops", .arch = FTV_ARCH_ARM64, .corpus_set = "callops",
		.layout = SIM_SITE_CALL_OPS, .kind = FTRACE_SITE_CALL_OPS,
		.tramps = { "entry-callops.o", "graph.o", "direct.o", "tracers.o",
			    "workload.o", "ops-tramp.o" },
		.backend = &arm64_ftrace_callops,
	},
	[FTV_SCHEME_TRAMP] = {
		.name = "tramp", .arch = FTV_ARCH_ARM64, .corpus_set = "args",
		.layout = SIM_SITE_ARGS, .kind = FTRACE_SITE_ARGS,
		.tramps = { "entry-args.o", "graph.o", "direct.o", "tracers.o",
			    "workload.o", "ops-tramp.o" },
		.backend = &arm64_ftrace_args,
	},
	[FTV_SCHEME_MCOUNT] = {
		.name = "mcount", .arch = FTV_ARCH_ARM64, .corpus_set = "mcount",
		.layout = SIM_SITE_MCOUNT, .kind = FTRACE_SITE_MCOUNT,
		.tramps = { "entry-mcount.o", "graph.o", "direct.o", "tracers.o",
			    "workload.o", "ops-tramp.o" },
		.backend = &arm64_ftrace_mcount,
	},
	/* RISC-V CALL_OPS (seed 002), the scheme before Linux 6.16: enable and
	 * disable rewrite both words of the AUIPC+JALR pair under
	 * stop_machine, which may have stopped a hart between them. */
	[FTV_SCHEME_PAIR] = {
		.name = "pair", .arch = FTV_ARCH_RISCV64, .corpus_set = "rv64",
		.layout = SIM_SITE_RISCV_CALL_OPS, .kind = FTRACE_SITE_RISCV_CALL_OPS,
		.tramps = { "entry-ftrace.o", "graph.o", "direct.o", "tracers.o",
			    "workload.o", "ops-tramp.o" },
		.backend = &riscv_ftrace_pair,
	},
	/* Linux 6.16: AUIPC written once at init, only the JALR <-> NOP word
	 * changes, a single naturally aligned store. */
	[FTV_SCHEME_ATOMIC] = {
		.name = "atomic", .arch = FTV_ARCH_RISCV64, .corpus_set = "rv64",
		.layout = SIM_SITE_RISCV_CALL_OPS, .kind = FTRACE_SITE_RISCV_CALL_OPS,
		.tramps = { "entry-ftrace.o", "graph.o", "direct.o", "tracers.o",
			    "workload.o", "ops-tramp.o" },
		.backend = &riscv_ftrace_atomic,
	},
};

const struct world_schemedesc *world_schemedesc(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? &scheme_descs[s] : NULL;
}

int ftv_scheme_parse(const char *s, enum ftv_scheme *out)
{
	for (int i = 0; i < FTV_SCHEME_COUNT; i++)
		if (!strcmp(s, scheme_descs[i].name)) {
			*out = i;
			return 0;
		}
	return -1;
}

const char *ftv_scheme_name(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? scheme_descs[s].name : "?";
}

const char *ftv_scheme_corpus_set(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? scheme_descs[s].corpus_set : "?";
}

enum ftv_arch ftv_scheme_arch(enum ftv_scheme s)
{
	return (unsigned)s < FTV_SCHEME_COUNT ? scheme_descs[s].arch : FTV_ARCH_ARM64;
}

enum ftv_scheme ftv_arch_default_scheme(enum ftv_arch a)
{
	return a == FTV_ARCH_RISCV64 ? FTV_SCHEME_ATOMIC : FTV_SCHEME_CALLOPS;
}

const char *ftv_arch_schemes(enum ftv_arch a)
{
	return a == FTV_ARCH_RISCV64 ? "pair, atomic" : "callops, tramp, mcount";
}

int ftv_scheme_check_arch(enum ftv_scheme s, enum ftv_arch a, struct ftv_err *err)
{
	if (ftv_scheme_arch(s) == a)
		return 0;
	return ftv_errf(err, "scheme %s is %s's, not %s's (%s schemes: %s)", ftv_scheme_name(s),
			ftv_arch_name(ftv_scheme_arch(s)), ftv_arch_name(a), ftv_arch_name(a),
			ftv_arch_schemes(a));
}
