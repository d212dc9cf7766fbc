# ftv: a verifier for live code patching.
#   make        build ftv and everything its commands need (corpus, trampolines
#               and tracers for arm64 and riscv64, man page, bash completion)
#   make install [PREFIX=/usr/local] [DESTDIR=]   (make uninstall)
#   make demo   install missing packages, build, run the main job on the bundled corpus
#   make check  install missing packages, build, run the whole test suite
#   make check SANITIZE=1   the same under AddressSanitizer + UndefinedBehaviorSanitizer
#   make bench  throughput and overhead figures (never part of check),
#               ending with the speed targets met or short
#   make bench-quick   the same targets from small runs, under a minute
#   make soak   fuzz every correct scheme for SOAK_S seconds (never part of check)
#   make fuzz-parsers [FUZZ_S=60]   libFuzzer on every parser (mk/fuzz.mk)
#   make readme-examples   rerun the README's examples and rewrite their outputs
#   make kernel [KERNEL_VERSION=6.12|6.1] [KERNEL_SRC=DIR] [KERNEL_OUT=DIR]
#               Linux's own arm64 ftrace objects for ftv kernel-diff
#               (mk/kernel.mk, docs/kernel.md)

PYTHON  ?= /usr/bin/python3
CC      ?= gcc
PREFIX  ?= /usr/local
DESTDIR ?=
CROSS_AARCH64 ?= aarch64-linux-gnu-
CROSS_RISCV64 ?= riscv64-linux-gnu-

BUILD := build
# Check's per-test timeout only guards against hangs; no test depends on
# speed. Sanitized builds run several times slower.
CK_TIMEOUTS := CK_DEFAULT_TIMEOUT=120
ifeq ($(SANITIZE),1)
BUILD := build/san
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
# FTV_SANITIZED: tests that replay a whole kernel replay a few batches.
CK_TIMEOUTS += CK_TIMEOUT_MULTIPLIER=4 FTV_SANITIZED=1
endif

PKGS := unicorn capstone check liblzma libzstd zlib
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
# Unicorn and Capstone linked statically where their archives are
# installed (their -dev packages ship them), into a position-dependent
# executable: loading libunicorn.so cost the dynamic loader some 29,000
# symbol relocations per process, 11% of the CPU time of a 2-CPU ftv
# verify, and the relative relocations of a PIE and of libcapstone.so
# (140,000) another 10% of what was left (issue 31, docs/bench-scale.md).
# STATIC_LIBS=0: the shared libraries and a PIE, as before.
STATIC_LIBS ?= 1
ifeq ($(STATIC_LIBS),1)
LIBDIR_A := $(shell pkg-config --variable=libdir unicorn 2>/dev/null)
STATIC_A := $(wildcard $(LIBDIR_A)/libunicorn.a $(LIBDIR_A)/libcapstone.a)
PKG_LIBS = $(foreach l,$(shell pkg-config --libs $(PKGS) 2>/dev/null),$(or $(filter %/lib$(l:-l%=%).a,$(STATIC_A)),$(l)))
LDFLAGS += -no-pie
endif

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -I. $(PKG_CFLAGS) $(SANFLAGS) -MMD -MP
LDFLAGS += $(SANFLAGS)
LDLIBS  += $(PKG_LIBS) -lm -lpthread

# Library code: everything but the command front end and the tests.
LIB_DIRS := util encoders sim layout executor litmus patcher kernel verify
LIB_SRC  := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CMD_SRC  := $(wildcard tools/*.c)
TEST_SRC := $(wildcard tests/*.c)
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
CMD_OBJ  := $(CMD_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

FTV       := $(BUILD)/ftv
FTV_TESTS := $(BUILD)/ftv-tests

.PHONY: all deps demo check test clean bench bench-quick
.DEFAULT_GOAL := all

all: $(FTV) $(FTV_TESTS)

# Debian packages the project needs, installed only when missing.
DEB_PKGS := libunicorn-dev libcapstone-dev check pkg-config liblzma-dev libzstd-dev zlib1g-dev \
	gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu \
	gcc-riscv64-linux-gnu binutils-riscv64-linux-gnu \
	python3 python3-pyelftools python3-yaml xz-utils zstd gzip gnuplot-nox man-db parallel \
	clang-14 libclang-rt-14-dev linux-perf \
	linux-source-6.12 linux-source-6.1 flex bison libelf-dev bc
deps:
	@$(PYTHON) -c 'import elftools' 2>/dev/null; \
	missing=$$(for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "deps: installing:" $$missing; \
		SUDO=; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "deps: all packages present"; fi

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libftv.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# Objects are linked whole (not through the archive) because commands and
# test suites register themselves from constructors.
$(FTV): $(CMD_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(FTV_TESTS): $(TEST_OBJ) $(LIB_OBJ)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# Fragments add build products (corpus objects, vectors, trampolines) and
# append prerequisites of the test run to CHECK_DEPS.
CHECK_DEPS :=
DEMO_DEPS :=
# what the commands need at run time: plain `make` builds it (recursive:
# expanded at `all:` below, after every fragment added to it)
RUNTIME_DEPS =
-include $(sort $(wildcard mk/*.mk))

all: $(RUNTIME_DEPS) $(MAN) $(MAN5) $(COMPLETION)

test: $(FTV) $(FTV_TESTS) $(CHECK_DEPS)
	$(CK_TIMEOUTS) FTV=$(abspath $(FTV)) FTV_BUILD=$(abspath $(BUILD)) FTV_TOP=$(CURDIR) FTV_PYTHON=$(PYTHON) \
		FTV_KERNEL_BUILD=$(CURDIR)/build $(FTV_TESTS)

check: deps
	$(MAKE) test

demo: deps
	$(MAKE) $(FTV) $(DEMO_DEPS)
	FTV=$(abspath $(FTV)) FTV_BUILD=$(abspath $(BUILD)) sh tools/demo.sh

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# Regenerates the golden outputs (tests/data/golden/golden.txt) after a
# deliberate change of behaviour; say why in the commit.
.PHONY: golden
golden: $(FTV) $(CHECK_DEPS)
	$(PYTHON) tools/golden.py --ftv $(FTV) --top . --update tests/data/golden/golden.txt
