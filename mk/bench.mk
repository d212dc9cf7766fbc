# make bench: executor throughput against a free-running engine (never part
# of check).
BENCH_BIN := $(BUILD)/bench/exec_bench

BENCH_TGT_OBJ := $(BUILD)/obj/bench/targets.o $(BUILD)/obj/bench/machine.o

$(BENCH_BIN): bench/exec_bench.c $(BENCH_TGT_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BENCH_TGT_OBJ) $(LIB_OBJ) $(LDFLAGS) $(LDLIBS)

# What Unicorn 2.0.1 itself costs per instruction, hook, load, store, turn
# and retranslation: the floor under the executor's figures (make bench only).
BENCH_UCOST := $(BUILD)/bench/unicorn_costs

$(BENCH_UCOST): bench/unicorn_costs.c $(BUILD)/obj/bench/machine.o
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/obj/bench/machine.o $(LDFLAGS) $(LDLIBS)

# Seed 000's CALL_OPS overhead table: the sample's tracee at each scheme's
# flag set (the corpus's flags), the row builder shared with the Check test
# that pins the table's shape, and the table/CSV/plot program.
BENCH_TRACEE_SETS := callops args mcount
BENCH_TRACEES := $(BENCH_TRACEE_SETS:%=$(BUILD)/bench/%/tracee.o)
BENCH_OBJ := $(BUILD)/obj/bench/overhead.o $(BUILD)/obj/bench/machine.o
BENCH_OVERHEAD := $(BUILD)/bench/callops_overhead
BENCH_SCN := $(BUILD)/bench/scenario_bench
BENCH_WORLD := $(BUILD)/bench/world_bench
BENCH_RESULTS := bench/results

define bench_tracee_rule
$(BUILD)/bench/$(1)/tracee.o: bench/tracee.c
	@mkdir -p $$(dir $$@)
	$$(CORPUS_CC) $$(CORPUS_BASE) $$(CORPUS_FLAGS_$(1)) -c $$< -o $$@
endef
$(foreach s,$(BENCH_TRACEE_SETS),$(eval $(call bench_tracee_rule,$(s))))

$(BENCH_OVERHEAD): $(BUILD)/obj/bench/callops_main.o $(BENCH_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BENCH_SCN): $(BUILD)/obj/bench/scenario_bench.o $(BENCH_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BENCH_WORLD): $(BUILD)/obj/bench/world_bench.o $(BENCH_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# The same table from the kernels themselves (bench/kernel_bench.c): make
# kernel's 6.1 and 6.12 builds, the core's list function run for real.
BENCH_KERNEL := $(BUILD)/bench/kernel_bench
$(BENCH_KERNEL): $(BUILD)/obj/bench/kernel_bench.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)
.PHONY: bench-kernel
bench-kernel: $(BENCH_KERNEL) $(BENCH_TRACEES) build/kernel/6.12/.built
	$(MAKE) kernel KERNEL_VERSION=6.1
	$(BENCH_KERNEL) $(BUILD)

# The test suite links the row builder (tests/test_bench_overhead.c).
$(FTV_TESTS): $(BENCH_OBJ)
CHECK_DEPS += $(BENCH_TRACEES)

# The targets of issue 18 (executor against free-running, fuzz, replay):
# each program appends its verdict lines to $(BENCH_TARGETS), and
# bench_block closes the output with them and the machine's load.
BENCH_FUZZ := $(BUILD)/bench/fuzz_bench
BENCH_BLOCK := $(BUILD)/bench/bench_block
BENCH_TARGETS := $(BUILD)/bench/targets.txt
BENCH_FUZZ_SECONDS ?= 20
# issue 31: the kernel scheme's CPU per transition over callops', from
# campaigns of seeds 1..N with the same iterations on both (fuzz_bench)
BENCH_KRATIO ?= 5 20
BENCH_ENV := FTV_BENCH_TARGETS=$(BENCH_TARGETS)

$(BENCH_FUZZ): $(BUILD)/obj/bench/fuzz_bench.o $(BUILD)/obj/bench/child.o $(BENCH_TGT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Time to find (issue 31): every mutant of the catalogue and each scheme's
# own known race, `ftv fuzz --time $(BENCH_FIND_LIMIT)` on seeds
# $(BENCH_FIND_SEEDS); bench-quick: seed 1 with a shorter limit.
BENCH_FIND := $(BUILD)/bench/find_bench
BENCH_FIND_LIMIT ?= 60
BENCH_FIND_SEEDS ?= 1 5

$(BENCH_FIND): $(BUILD)/obj/bench/find_bench.o $(BUILD)/obj/bench/child.o $(BENCH_TGT_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BENCH_BLOCK): $(BUILD)/obj/bench/bench_block.o $(BUILD)/obj/bench/machine.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# (replay.mk, read after this file, adds $(BENCH_REPLAY) to both.)
BENCH_TARGET_BINS := $(BENCH_BIN) $(BENCH_FUZZ) $(BENCH_FIND) $(BENCH_BLOCK) $(FTV)

bench: $(BENCH_TARGET_BINS) $(BENCH_UCOST) $(BENCH_OVERHEAD) $(BENCH_SCN) $(BENCH_WORLD) $(BENCH_TRACEES) $(CHECK_DEPS)
	@rm -f $(BENCH_TARGETS)
	$(BENCH_ENV) $(BENCH_REPLAY) $(abspath $(FTV)) $(REPLAY_LAYOUT) $(BENCH_REPLAY_RUNS) $(BENCH_REPLAY_ARGS)
	$(BENCH_ENV) $(BENCH_BIN)
	@mkdir -p $(BENCH_RESULTS)
	$(BENCH_OVERHEAD) $(BUILD) $(BENCH_RESULTS)/callops-overhead.csv
	gnuplot -e "csv='$(BENCH_RESULTS)/callops-overhead.csv'; png='$(BENCH_RESULTS)/callops-overhead.png'" bench/plot.gp
	$(BENCH_SCN) $(BUILD)/corpus $(BUILD)/trampolines corpus/scenarios/callops-basic.scn corpus/scenarios/mcount-tracers.scn corpus/scenarios/tramp-ops.scn
	$(BENCH_WORLD) $(BUILD)/corpus $(BUILD)/trampolines corpus/scenarios/callops-basic.scn corpus/scenarios/mcount-tracers.scn corpus/scenarios/tramp-ops.scn
	$(BENCH_UCOST)
	$(MAKE) bench-kernel
	$(BENCH_ENV) $(BENCH_FUZZ) $(abspath $(FTV)) $(abspath $(BUILD)) $(BENCH_FUZZ_SECONDS) $(BENCH_KRATIO)
	$(BENCH_ENV) $(BENCH_FIND) $(abspath $(FTV)) $(abspath $(BUILD)) $(BENCH_FIND_LIMIT) $(BENCH_FIND_SEEDS)
	$(BENCH_ENV) $(PYTHON) bench/verify_bench.py --ftv $(FTV) --build $(BUILD) \
		--scenario corpus/scenarios/verify-callops-make-call.scn \
		--out $(BENCH_RESULTS)/verify.txt
	$(BENCH_ENV) $(PYTHON) bench/verify_bench.py --ftv $(FTV) --build $(BUILD) \
		--proofs $(BENCH_PROOFS) --proof-max 1000000 | tee $(BENCH_RESULTS)/verify-proofs.txt
	$(BENCH_ENV) $(PYTHON) bench/verify_bench.py --ftv $(FTV) --build $(BUILD) --stateful \
		--proofs $(BENCH_PROOFS) --proof-max 1000000 | tee $(BENCH_RESULTS)/verify-proofs-stateful.txt
	$(PYTHON) bench/verify_profile.py --ftv $(FTV) --build $(BUILD) \
		--scenario corpus/scenarios/verify-callops-make-call.scn --targets $(BENCH_TARGETS)
	@$(BENCH_BLOCK) $(BENCH_TARGETS) "targets (issue 18), make bench"

# The same targets on smaller runs, under a minute: a contributor's check
# that a change did not cost speed. The executor's bench with fewer calls
# and rounds, 2 s of fuzzing per scheme, the replay's first 12 batches (the
# whole replay's time projected from them: its setup once, their time
# scaled).
BENCH_QUICK_TARGETS := $(BUILD)/bench/targets-quick.txt
# issue 31's bigger proof worlds (3 CPUs, two updates): one line each, complete
# in under 60 s of CPU; bench-quick walks them statefully (symmetry and the
# prefix restore on, as `ftv verify --stateful` does), each to 20,000 executions
# (short unless done)
BENCH_PROOFS := $(wildcard corpus/verify/*-3cpus.scn)
.PHONY: bench-quick
bench-quick: $(BENCH_TARGET_BINS) $(CHECK_DEPS)
	@rm -f $(BENCH_QUICK_TARGETS)
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(BENCH_REPLAY) $(abspath $(FTV)) $(REPLAY_LAYOUT) 1 $(BENCH_REPLAY_ARGS) --batches 12 >/dev/null
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(BENCH_BIN) --quick
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(BENCH_FUZZ) $(abspath $(FTV)) $(abspath $(BUILD)) 2 2 10
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(BENCH_FIND) $(abspath $(FTV)) $(abspath $(BUILD)) 15 1 1
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(PYTHON) bench/verify_bench.py --quick --ftv $(FTV) --build $(BUILD) \
		--scenario corpus/scenarios/verify-callops-make-call.scn --out $(BUILD)/bench/verify-quick.txt
	FTV_BENCH_TARGETS=$(BENCH_QUICK_TARGETS) $(PYTHON) bench/verify_bench.py --ftv $(FTV) --build $(BUILD) --stateful \
		--proofs $(BENCH_PROOFS) --proof-max 20000
	$(PYTHON) bench/verify_profile.py --ftv $(FTV) --build $(BUILD) \
		--scenario corpus/scenarios/verify-callops-make-call.scn --targets $(BENCH_QUICK_TARGETS)
	@$(BENCH_BLOCK) $(BENCH_QUICK_TARGETS) "targets (issue 18), make bench-quick: small runs, noisy"

-include $(BUILD)/obj/bench/*.d
