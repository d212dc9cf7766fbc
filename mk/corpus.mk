# The corpus: freestanding C files compiled for arm64 at each ftrace flag
# set into $(BUILD)/corpus/<set>/, plus reproducible random translation units.
# Loaded by tests (CHECK_DEPS) and by the demo (DEMO_DEPS).

CORPUS_CC    := $(CROSS_AARCH64)gcc
CORPUS_SRC   := $(filter-out corpus/src/cold.c,$(wildcard corpus/src/*.c))
CORPUS_NAMES := $(notdir $(CORPUS_SRC:.c=))
# -fno-tree-loop-distribute-patterns keeps GCC from turning klib.c's own
# memset/memcpy loops into calls to themselves.
CORPUS_BASE  := -ffreestanding -fno-stack-protector -mgeneral-regs-only \
	-fno-asynchronous-unwind-tables -fno-tree-loop-distribute-patterns \
	-Wall -Werror -Icorpus/src
CALLOPS      := -O2 -fpatchable-function-entry=4,2 -falign-functions=8

CORPUS_FLAGS_callops     := $(CALLOPS)
CORPUS_FLAGS_callops-bti := $(CALLOPS) -mbranch-protection=bti
CORPUS_FLAGS_callops-pac := $(CALLOPS) -mbranch-protection=pac-ret
# GCC 12 ignores -falign-functions at -Os: sections keep sh_addralign 4.
CORPUS_FLAGS_callops-os  := -Os -fpatchable-function-entry=4,2 -falign-functions=8
CORPUS_FLAGS_args        := -O2 -fpatchable-function-entry=2
CORPUS_FLAGS_mcount      := -O2 -pg
CORPUS_FLAGS_cold        := $(CALLOPS)
CORPUS_FLAGS_random      := $(CALLOPS)
# With DWARF: .rela.debug_* sections the loader must count, not apply.
CORPUS_FLAGS_debug       := $(CALLOPS) -g

CORPUS_SETS := callops callops-bti callops-pac callops-os args mcount
CORPUS_DIR  := $(BUILD)/corpus

CORPUS_OBJS := $(foreach s,$(CORPUS_SETS),$(CORPUS_NAMES:%=$(CORPUS_DIR)/$(s)/%.o)) \
	$(CORPUS_DIR)/cold/cold.o $(CORPUS_DIR)/debug/list.o

define corpus_set_rule
$(CORPUS_DIR)/$(1)/%.o: corpus/src/%.c corpus/src/corpus.h
	@mkdir -p $$(dir $$@)
	$(CORPUS_CC) $(CORPUS_BASE) $(CORPUS_FLAGS_$(1)) -c $$< -o $$@
endef
$(foreach s,$(CORPUS_SETS) cold debug,$(eval $(call corpus_set_rule,$(s))))

# Random translation units: the seed is the file name.
CORPUS_RANDOM_SEEDS := 1 2 3
CORPUS_RANDOM_OBJS := $(CORPUS_RANDOM_SEEDS:%=$(CORPUS_DIR)/random/rand%.o)

$(CORPUS_DIR)/random/rand%.c: corpus/gen_random_c.py
	@mkdir -p $(dir $@)
	$(PYTHON) corpus/gen_random_c.py --seed $* --prefix r$*_ > $@.tmp && mv $@.tmp $@

$(CORPUS_DIR)/random/rand%.o: $(CORPUS_DIR)/random/rand%.c
	$(CORPUS_CC) $(CORPUS_BASE) $(CORPUS_FLAGS_random) -c $< -o $@

.PRECIOUS: $(CORPUS_DIR)/random/rand%.c

# The same random units at every scheme's flag set, for the workloads of the
# conformance scenarios: build/corpus/random-<set>/rand<N>.o.
CORPUS_SCHEME_SETS := callops args mcount
CORPUS_SCHEME_RANDOM := $(foreach s,$(CORPUS_SCHEME_SETS),$(CORPUS_RANDOM_SEEDS:%=$(CORPUS_DIR)/random-$(s)/rand%.o))
define corpus_random_rule
$(CORPUS_DIR)/random-$(1)/rand%.o: $(CORPUS_DIR)/random/rand%.c
	@mkdir -p $$(dir $$@)
	$(CORPUS_CC) $(CORPUS_BASE) $(CORPUS_FLAGS_$(1)) -c $$< -o $$@
endef
$(foreach s,$(CORPUS_SCHEME_SETS),$(eval $(call corpus_random_rule,$(s))))
CORPUS_RANDOM_OBJS += $(CORPUS_SCHEME_RANDOM)

corpus: $(CORPUS_OBJS) $(CORPUS_RANDOM_OBJS)
.PHONY: corpus

CHECK_DEPS += $(CORPUS_OBJS) $(CORPUS_RANDOM_OBJS)
DEMO_DEPS += $(CORPUS_OBJS) $(CORPUS_RANDOM_OBJS)

# Hand-written assembly for loader tests (every relocation type, overflow,
# undefined symbols).
CORPUS_ASM_OBJS := $(patsubst tests/data/%.s,$(CORPUS_DIR)/asm/%.o,$(wildcard tests/data/*.s))

$(CORPUS_DIR)/asm/%.o: tests/data/%.s
	@mkdir -p $(dir $@)
	$(CROSS_AARCH64)as $< -o $@

CHECK_DEPS += $(CORPUS_ASM_OBJS)

# A module built like a .ko (ld -r of several objects) from the CALL_OPS
# set, and compressed the three ways kbuild does (scripts/Makefile.modinst,
# CONFIG_MODULE_COMPRESS_XZ/ZSTD/GZIP).
CORPUS_MOD := $(CORPUS_DIR)/mod/corpmod.ko
$(CORPUS_MOD): $(CORPUS_NAMES:%=$(CORPUS_DIR)/callops/%.o)
	@mkdir -p $(dir $@)
	$(CROSS_AARCH64)ld -r -o $@ $^
$(CORPUS_MOD).xz: $(CORPUS_MOD)
	xz --check=crc32 --lzma2=dict=1MiB -c $< > $@.tmp && mv $@.tmp $@
$(CORPUS_MOD).zst: $(CORPUS_MOD)
	zstd -q -T0 -c $< > $@.tmp && mv $@.tmp $@
$(CORPUS_MOD).gz: $(CORPUS_MOD)
	gzip -n -c $< > $@.tmp && mv $@.tmp $@

CHECK_DEPS += $(CORPUS_MOD) $(CORPUS_MOD).xz $(CORPUS_MOD).zst $(CORPUS_MOD).gz
DEMO_DEPS += $(CORPUS_MOD).xz

# The corpus selftest built natively: the expected value for the emulated
# runs of every arm64 build.
# (Not jumplabel.c: its asm goto is arm64's and riscv64's.)
CORPUS_HOST := $(CORPUS_DIR)/host/selftest
CORPUS_HOST_SRC := $(filter-out corpus/src/jumplabel.c corpus/src/bpf.c,$(CORPUS_SRC))
$(CORPUS_HOST): $(CORPUS_HOST_SRC) corpus/src/corpus.h tests/data/host_selftest.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -ffreestanding -fno-builtin -fno-tree-loop-distribute-patterns \
		-Icorpus/src -o $@ $(CORPUS_HOST_SRC) tests/data/host_selftest.c
CHECK_DEPS += $(CORPUS_HOST)
