# The riscv64 trampolines and tracers (trampolines/riscv/*.S and the shared
# tracers.c/workload.c), built with the riscv64 cross compiler into
# relocatable objects the sim loads into kernel text, with the same symbol
# names as the aarch64 set. -mno-relax: the objects are linked by ftv's
# loader, which applies relocations but does not relax.
RV_TRAMP_DIR   := $(BUILD)/trampolines/riscv64
RV_TRAMP_CC    := $(CROSS_RISCV64)gcc
RV_TRAMP_FLAGS := -I. -march=rv64gc -mabi=lp64d -mcmodel=medany -fno-pic -mno-relax \
	-O2 -ffreestanding -fno-stack-protector -fno-asynchronous-unwind-tables \
	-Wall -Werror
RV_TRAMP_OBJS  := $(addprefix $(RV_TRAMP_DIR)/,entry-ftrace.o direct.o graph.o \
	ops-tramp.o tracers.o workload.o)

$(RV_TRAMP_DIR)/%.o: trampolines/riscv/%.S patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(RV_TRAMP_CC) $(RV_TRAMP_FLAGS) -c $< -o $@
$(RV_TRAMP_DIR)/%.o: trampolines/%.c patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(RV_TRAMP_CC) $(RV_TRAMP_FLAGS) -c $< -o $@

# For tests/test_riscv64_tramp.c: the trampolines linked with a test caller
# and a traced function compiled as the corpus is, at a fixed address, as a
# flat binary plus its symbol table (nm).
RV_TRAMP_TEST     := $(RV_TRAMP_DIR)/test/rvtramp-test
RV_TRAMP_TEST_ORG := 0x80000000

$(RV_TRAMP_DIR)/test/caller.o: tests/data/rv_tramp_caller.S
	@mkdir -p $(dir $@)
	$(RV_TRAMP_CC) $(RV_TRAMP_FLAGS) -c $< -o $@
$(RV_TRAMP_DIR)/test/traced.o: tests/data/rv_traced.c
	@mkdir -p $(dir $@)
	$(RV_TRAMP_CC) $(RV_TRAMP_FLAGS) -fpatchable-function-entry=8,4 \
		-falign-functions=8 -c $< -o $@
$(RV_TRAMP_TEST).elf: $(RV_TRAMP_DIR)/test/caller.o $(RV_TRAMP_DIR)/test/traced.o \
		$(RV_TRAMP_OBJS)
	$(CROSS_RISCV64)ld -N --no-warn-rwx-segments -e ftv_test_caller -Ttext=$(RV_TRAMP_TEST_ORG) -o $@ $^
$(RV_TRAMP_TEST).bin: $(RV_TRAMP_TEST).elf
	$(CROSS_RISCV64)objcopy -O binary $< $@
$(RV_TRAMP_TEST).syms: $(RV_TRAMP_TEST).elf
	$(CROSS_RISCV64)nm $< > $@

.PHONY: trampolines-riscv
trampolines-riscv: $(RV_TRAMP_OBJS) $(RV_TRAMP_TEST).bin $(RV_TRAMP_TEST).syms

CHECK_DEPS += trampolines-riscv
DEMO_DEPS  += $(RV_TRAMP_OBJS)
