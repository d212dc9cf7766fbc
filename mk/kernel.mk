# make kernel: Linux's own arm64 ftrace objects (docs/kernel.md), built out
# of tree from Debian's linux-source-$(KERNEL_VERSION) package (unpacked once
# under build/) or from the user's tree (KERNEL_SRC=DIR, never written:
# O=), configured with ftv's fragment kernel/ftv.config, into KERNEL_OUT.
#   make kernel [KERNEL_VERSION=6.12|6.1] [KERNEL_SRC=DIR] [KERNEL_OUT=DIR]
# `ftv kernel-diff --kernel $(KERNEL_OUT)` runs them; tools/kernel-layout.py
# leaves the struct offsets they need (DWARF, asm-offsets.h) in
# $(KERNEL_OUT)/ftv-layout.txt. make check depends on
# the 6.12 build (a stamp: a second make check rebuilds nothing).
KERNEL_VERSION ?= 6.12
KERNEL_TARBALL = /usr/src/linux-source-$(KERNEL_VERSION).tar.xz
KERNEL_UNPACKED = build/kernel-src/linux-source-$(KERNEL_VERSION)
KERNEL_SRC ?= $(KERNEL_UNPACKED)
KERNEL_OUT ?= build/kernel/$(KERNEL_VERSION)
KERNEL_FRAGMENT := kernel/ftv.config
KERNEL_OBJS := arch/arm64/kernel/entry-ftrace.o arch/arm64/kernel/ftrace.o \
	arch/arm64/kernel/patching.o arch/arm64/lib/insn.o arch/arm64/mm/cache.o \
	kernel/trace/ftrace.o
KERNEL_BUILD = CROSS_COMPILE=$(CROSS_AARCH64) sh tools/build-kernel.sh

# the source package's tarball, unpacked once (the stamp says it is whole)
build/kernel-src/.unpacked-%:
	@test -f /usr/src/linux-source-$*.tar.xz || $(MAKE) deps
	@mkdir -p build/kernel-src
	rm -rf build/kernel-src/linux-source-$*
	tar -C build/kernel-src -xJf /usr/src/linux-source-$*.tar.xz
	touch $@

.PHONY: kernel
# phony: the kernel's own make decides what is out of date in the tree
kernel: $(if $(filter $(KERNEL_UNPACKED),$(KERNEL_SRC)),build/kernel-src/.unpacked-$(KERNEL_VERSION))
	$(KERNEL_BUILD) $(KERNEL_SRC) $(KERNEL_OUT) $(KERNEL_FRAGMENT) $(KERNEL_OBJS)
	$(PYTHON) tools/kernel-layout.py $(KERNEL_OUT)

# what make check runs on: Debian's 6.12, built once
KERNEL_CHECK_OUT := build/kernel/6.12
$(KERNEL_CHECK_OUT)/.built: build/kernel-src/.unpacked-6.12 $(KERNEL_FRAGMENT) tools/build-kernel.sh tools/kernel-layout.py
	$(KERNEL_BUILD) build/kernel-src/linux-source-6.12 $(KERNEL_CHECK_OUT) $(KERNEL_FRAGMENT) $(KERNEL_OBJS)
	$(PYTHON) tools/kernel-layout.py $(KERNEL_CHECK_OUT)
	touch $@

CHECK_DEPS += $(KERNEL_CHECK_OUT)/.built

# The mutated kernels make check runs kernel-diff and the kernel scheme on
# (tools/kernel-mutate.py: a store dropped, moved or reordered in
# ftrace_make_call, ftrace_init_nop, ftrace_modify_call and
# aarch64_insn_write_literal_u64, a check dropped from ftrace_call_adjust and
# ftrace_find_callable_addr: the twins of the model's arm64 mutants), each
# built with make kernel KERNEL_SRC=<hard-linked copy with one file replaced>
# (tools/kernel-mutants.sh).
KERNEL_DIFF_OBJS := $(filter-out kernel/trace/ftrace.o,$(KERNEL_OBJS))
KERNEL_MUT_DIR := build/kernel-mut
.PHONY: kernel-mutants
kernel-mutants: $(KERNEL_MUT_DIR)/.built
$(KERNEL_MUT_DIR)/.built: $(KERNEL_CHECK_OUT)/.built tools/kernel-mutate.py tools/kernel-mutants.sh
	PYTHON=$(PYTHON) MAKE="$(MAKE)" sh tools/kernel-mutants.sh build/kernel-src/linux-source-6.12 \
		$(KERNEL_MUT_DIR) $(KERNEL_DIFF_OBJS)
	touch $@

CHECK_DEPS += $(KERNEL_MUT_DIR)/.built

# A sanitized build (BUILD=build/san) runs on the same kernel objects: they
# are guest code, cross-compiled, with nothing of ftv's in them.
ifneq ($(BUILD),build)
$(BUILD)/.kernel-links: $(KERNEL_CHECK_OUT)/.built $(KERNEL_MUT_DIR)/.built
	@mkdir -p $(BUILD)
	ln -sfn $(abspath build/kernel) $(BUILD)/kernel
	ln -sfn $(abspath $(KERNEL_MUT_DIR)) $(BUILD)/kernel-mut
	touch $@
CHECK_DEPS += $(BUILD)/.kernel-links
endif
