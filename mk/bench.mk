# make bench: executor throughput against a free-running engine (never part
# of check).
BENCH_BIN := $(BUILD)/bench/exec_bench

$(BENCH_BIN): bench/exec_bench.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(LIB_OBJ) $(LDFLAGS) $(LDLIBS)

bench: $(BENCH_BIN)
	$(BENCH_BIN)
