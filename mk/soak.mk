# make soak: `ftv fuzz` on every correct scheme (arm64 callops, tramp-tasks,
# mcount, mcount-ops-tasks, and static keys' jump labels and
# aarch64_insn_patch_text() beside callops: jump-label; riscv64 atomic, and
# patch_text() beside it: patch-text; BPF trampoline images beside callops:
# bpf-tramp) for SOAK_S seconds each with every core, and a
# table of iterations, transitions, steps and findings; exit 1 on any
# finding, its shrunk replay kept under $(BUILD)/soak. Never part of check:
# the soak test suite runs a fixed short version of it. SOAK_SCHEMES limits
# it to some schemes (e.g. SOAK_SCHEMES="tramp mcount").
# First, the proof worlds of issue 31 (3 CPUs, two updates; SOAK_PROOFS,
# default corpus/verify/*-3cpus.scn; SOAK_PROOFS= for none) are verified,
# each to its end or SOAK_PROOF_MAX executions, with ftv verify --stateful
# (all five complete so; docs/bench-scale.md).
SOAK_S    ?= 600
SOAK_SEED ?= 1
SOAK_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
SOAK_SCHEMES ?=
SOAK_PROOFS ?= $(wildcard corpus/verify/*-3cpus.scn)
SOAK_PROOF_MAX ?= 1000000

.PHONY: soak
soak: $(FTV) $(CHECK_DEPS)
	$(PYTHON) tools/soak.py --ftv $(FTV) --time $(SOAK_S) --seed $(SOAK_SEED) \
		--jobs $(SOAK_JOBS) --out $(BUILD)/soak $(SOAK_SCHEMES:%=--scheme %) \
		$(if $(SOAK_PROOFS),--proofs $(SOAK_PROOFS) --proof-max $(SOAK_PROOF_MAX))
