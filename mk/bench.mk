# make bench: executor throughput against a free-running engine (never part
# of check).
BENCH_BIN := $(BUILD)/bench/exec_bench

$(BENCH_BIN): bench/exec_bench.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LDLIBS)

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

# The test suite links the row builder (tests/test_bench_overhead.c).
$(FTV_TESTS): $(BENCH_OBJ)
CHECK_DEPS += $(BENCH_TRACEES)

bench: $(BENCH_BIN) $(BENCH_OVERHEAD) $(BENCH_SCN) $(BENCH_WORLD) $(BENCH_TRACEES) trampolines corpus $(FTV)
	$(BENCH_BIN)
	@mkdir -p $(BENCH_RESULTS)
	$(BENCH_OVERHEAD) $(BUILD) $(BENCH_RESULTS)/callops-overhead.csv
	gnuplot -e "csv='$(BENCH_RESULTS)/callops-overhead.csv'; png='$(BENCH_RESULTS)/callops-overhead.png'" bench/plot.gp
	$(BENCH_SCN) $(BUILD)/corpus $(BUILD)/trampolines corpus/scenarios/callops-basic.scn corpus/scenarios/mcount-tracers.scn corpus/scenarios/tramp-ops.scn
	$(BENCH_WORLD) $(BUILD)/corpus $(BUILD)/trampolines corpus/scenarios/callops-basic.scn corpus/scenarios/mcount-tracers.scn corpus/scenarios/tramp-ops.scn
	$(PYTHON) bench/verify_bench.py --ftv $(FTV) --build $(BUILD) \
		--scenario corpus/scenarios/verify-callops-make-call.scn \
		--out $(BENCH_RESULTS)/verify.txt

-include $(BUILD)/obj/bench/*.d
