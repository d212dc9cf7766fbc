# ftv replay's bench figure (issue 7): wall time and peak RSS of replaying
# the Debian kernel layout (the kernel and its 1,083 modules) on 4 CPUs, median
# of BENCH_REPLAY_RUNS runs.
# Printed by `make bench` (its first figure); `make bench-replay` alone.
BENCH_REPLAY := $(BUILD)/bench/replay_bench
BENCH_REPLAY_RUNS ?= 3
BENCH_REPLAY_ARGS ?= --cpus 4
REPLAY_LAYOUT := corpus/layouts/debian-trixie-arm64-6.12.107-cloud.layout.xz

$(BENCH_REPLAY): $(BUILD)/obj/bench/replay_bench.o $(BUILD)/obj/bench/child.o $(BUILD)/obj/bench/machine.o $(BUILD)/obj/bench/targets.o
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

.PHONY: bench-replay
bench-replay: $(BENCH_REPLAY) $(FTV) trampolines
	$(BENCH_REPLAY) $(abspath $(FTV)) $(REPLAY_LAYOUT) $(BENCH_REPLAY_RUNS) $(BENCH_REPLAY_ARGS)

bench bench-quick: $(BENCH_REPLAY)
