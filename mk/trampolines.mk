# The aarch64 trampolines and tracers, assembled/compiled with the cross
# toolchain into relocatable objects that the sim loads into kernel text.
# entry-ftrace.S is built twice: with the CALL_OPS literal recovery and
# without it (the WITH_ARGS caller used by per-ops trampolines).
TRAMP_DIR   := $(BUILD)/trampolines
TRAMP_CC    := $(CROSS_AARCH64)gcc
TRAMP_FLAGS := -I. -O2 -ffreestanding -fno-stack-protector -mgeneral-regs-only \
	-fno-asynchronous-unwind-tables -fno-pic -mbranch-protection=none -Wall -Werror
TRAMP_OBJS  := $(addprefix $(TRAMP_DIR)/,entry-callops.o entry-args.o entry-mcount.o \
	graph.o ops-tramp.o direct.o tracers.o tracers-kernel.o workload.o)

.PHONY: trampolines
trampolines: $(TRAMP_OBJS)

$(TRAMP_DIR)/entry-callops.o: trampolines/entry-ftrace.S patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(TRAMP_CC) $(TRAMP_FLAGS) -DFTV_CALL_OPS -c $< -o $@
$(TRAMP_DIR)/entry-args.o: trampolines/entry-ftrace.S patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(TRAMP_CC) $(TRAMP_FLAGS) -c $< -o $@
# the tracers for the kernel's own ftrace_caller (scheme kernel): the
# kernel's struct ftrace_ops and ftrace_regs offsets read at run time
$(TRAMP_DIR)/tracers-kernel.o: trampolines/tracers.c patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(TRAMP_CC) $(TRAMP_FLAGS) -DFTV_KERNEL_LAYOUT -c $< -o $@
$(TRAMP_DIR)/%.o: trampolines/%.S patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(TRAMP_CC) $(TRAMP_FLAGS) -c $< -o $@
$(TRAMP_DIR)/%.o: trampolines/%.c patcher/ftrace_abi.h
	@mkdir -p $(dir $@)
	$(TRAMP_CC) $(TRAMP_FLAGS) -c $< -o $@

CHECK_DEPS += trampolines
DEMO_DEPS  += trampolines
