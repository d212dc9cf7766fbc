# Fuzz harnesses of the parsers (tests/fuzz/fuzz_NAME.c, see tests/fuzz/harness.h).
#
#   make check                       replays every harness's seeds
#                                    (tests/fuzz/corpus/NAME) and saved crashes
#                                    (tests/fuzz/regress/NAME) through it, built
#                                    with $(CC) like the tests
#   make fuzz-parsers [FUZZ_S=60] [FUZZ=NAME...]
#                                    libFuzzer (clang) with ASan+UBSan: each
#                                    harness FUZZ_S seconds from its seeds, one
#                                    after another; a table of executions,
#                                    coverage (cov/ft), corpus and crashes;
#                                    the grown corpora and crashes stay in
#                                    build/libfuzzer/NAME/
#   make fuzz-seeds                  regenerates the seeds from the project's
#                                    files (tools/fuzz_seeds.py)

FUZZ_NAMES  := $(sort $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_COMMON := tests/fuzz/harness.c
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(BUILD)/fuzz-replay/%)

$(BUILD)/fuzz-replay/%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/driver.o \
		$(FUZZ_COMMON:%.c=$(BUILD)/obj/%.o) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

CHECK_DEPS += $(FUZZ_REPLAY)
# made by pattern rules, kept (not intermediate files make would delete)
.SECONDARY: $(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard tests/fuzz/*.c))
-include $(patsubst %.c,$(BUILD)/obj/%.d,$(wildcard tests/fuzz/*.c))

# libFuzzer: clang from Debian (clang-14, libclang-rt-14-dev), every object
# instrumented for coverage and built with the sanitizers.
FUZZ_CC     ?= clang-14
FUZZ_S      ?= 60
FUZZ        ?= $(FUZZ_NAMES)
FUZZ_DIR    := build/libfuzzer
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -O1 -g -std=gnu11 -Wall -Wextra -Werror -I. $(PKG_CFLAGS) $(FUZZ_SAN) \
	-fsanitize=fuzzer-no-link -MMD -MP
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_COMMON:%.c=$(FUZZ_DIR)/obj/%.o)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

.SECONDARY: $(FUZZ_LIB_OBJ) $(FUZZ_NAMES:%=$(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o)

$(FUZZ_DIR)/bin/%: $(FUZZ_DIR)/obj/tests/fuzz/fuzz_%.o $(FUZZ_LIB_OBJ)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

-include $(wildcard $(FUZZ_DIR)/obj/*/*.d $(FUZZ_DIR)/obj/tests/fuzz/*.d)

.PHONY: fuzz-parsers fuzz-seeds
fuzz-parsers: deps
	$(MAKE) $(FUZZ:%=$(FUZZ_DIR)/bin/%)
	$(PYTHON) tools/fuzz_parsers.py --bin $(FUZZ_DIR)/bin --work $(FUZZ_DIR) \
		--seconds $(FUZZ_S) $(FUZZ)

fuzz-seeds: $(FTV) $(CHECK_DEPS)
	$(PYTHON) tools/fuzz_seeds.py --top . --build $(BUILD) --out tests/fuzz/corpus
