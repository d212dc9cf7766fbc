# The riscv64 corpus (issue #8, shared contract 1): corpus/src/*.c compiled
# with riscv64-linux-gnu-gcc at the two RISC-V ftrace flag sets, plus the
# random translation units of mk/corpus.mk at the same flags.
#   rv64       -march=rv64gc: 4 C.NOP before and after each entry (=8,4)
#   rv64-norvc -march=rv64g:  2 NOP before and after (=4,2)
# -falign-functions=8 keeps the ops literal at func-8 8-byte aligned (the
# loader reports "Misaligned patch-site" otherwise). GCC's default linker
# relaxation stays on: the objects carry R_RISCV_RELAX/ALIGN as the kernel's
# vmlinux objects do, and the loader handles ALIGN (sim/align_riscv64.c).
# The arm64 freestanding flags minus -mgeneral-regs-only; RISC-V has no
# such switch and the corpus has no floating point to keep out of FPRs.

# Included before mk/corpus.mk (sorted names), so nothing of it is used at
# parse time: same sources (minus cold.c) and random seeds, named here.
RV_CORPUS_CC   := $(CROSS_RISCV64)gcc
RV_CORPUS_DIR  := $(BUILD)/corpus
RV_CORPUS_NAMES := $(notdir $(basename $(filter-out corpus/src/cold.c,$(wildcard corpus/src/*.c))))
RV_CORPUS_SEEDS := 1 2 3
RV_CORPUS_BASE := -ffreestanding -fno-stack-protector \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
	-Wall -Werror -Icorpus/src \
	-mabi=lp64d -mcmodel=medany -fno-pic -O2 -falign-functions=8
RV_CORPUS_FLAGS_rv64       := -march=rv64gc -fpatchable-function-entry=8,4
RV_CORPUS_FLAGS_rv64-norvc := -march=rv64g -fpatchable-function-entry=4,2

RV_CORPUS_SETS := rv64 rv64-norvc
RV_CORPUS_OBJS := $(foreach s,$(RV_CORPUS_SETS),$(RV_CORPUS_NAMES:%=$(RV_CORPUS_DIR)/$(s)/%.o)) \
	$(foreach s,$(RV_CORPUS_SETS),$(RV_CORPUS_SEEDS:%=$(RV_CORPUS_DIR)/random-$(s)/rand%.o))

define rv_corpus_rule
$(RV_CORPUS_DIR)/$(1)/%.o: corpus/src/%.c corpus/src/corpus.h mk/corpus-riscv.mk
	@mkdir -p $$(dir $$@)
	$(RV_CORPUS_CC) $(RV_CORPUS_BASE) $(RV_CORPUS_FLAGS_$(1)) -c $$< -o $$@
$(RV_CORPUS_DIR)/random-$(1)/rand%.o: $(RV_CORPUS_DIR)/random/rand%.c mk/corpus-riscv.mk
	@mkdir -p $$(dir $$@)
	$(RV_CORPUS_CC) $(RV_CORPUS_BASE) $(RV_CORPUS_FLAGS_$(1)) -c $$< -o $$@
endef
$(foreach s,$(RV_CORPUS_SETS),$(eval $(call rv_corpus_rule,$(s))))

# With DWARF: .rela.debug_* full of ADD/SUB/SET pairs, which the loader
# must count, not apply (the sections are not loaded).
RV_CORPUS_DEBUG := $(RV_CORPUS_DIR)/rv64-debug/list.o
$(RV_CORPUS_DEBUG): corpus/src/list.c corpus/src/corpus.h mk/corpus-riscv.mk
	@mkdir -p $(dir $@)
	$(RV_CORPUS_CC) $(RV_CORPUS_BASE) $(RV_CORPUS_FLAGS_rv64) -g -c $< -o $@
RV_CORPUS_OBJS += $(RV_CORPUS_DEBUG)

corpus-riscv: $(RV_CORPUS_OBJS)
.PHONY: corpus-riscv

CHECK_DEPS += corpus-riscv
DEMO_DEPS += corpus-riscv

# Hand-written riscv64 assembly for the loader tests (tests/test_riscv64_loader.c):
# every relocation type, and a branch that cannot reach.
RV_ASM_OBJS := $(patsubst tests/data/riscv/%.s,$(RV_CORPUS_DIR)/asm-riscv/%.o,$(wildcard tests/data/riscv/*.s))

$(RV_CORPUS_DIR)/asm-riscv/%.o: tests/data/riscv/%.s
	@mkdir -p $(dir $@)
	$(CROSS_RISCV64)as -march=rv64gc $< -o $@

CHECK_DEPS += $(RV_ASM_OBJS)
