# make verify-mutants: every mutant's shortest counterexample from ftv verify
# on its world (tools/verify_mutants.py: the table of docs/verify.md). Minutes, not
# part of check; `make verify-mutants MUTANTS="bl-before-literal ..."` runs
# some.
.PHONY: verify-mutants
verify-mutants: $(FTV)
	FTV=$(abspath $(FTV)) FTV_TOP=$(CURDIR) /usr/bin/python3 tools/verify_mutants.py $(MUTANTS)

# make litmus-export: every arm64 mutant's counterexample as a herd7 test
# (ftv verify --litmus/--litmus-fixed, tools/litmus_mutants.py: the table of
# docs/herd-results.md), checked against tests/data/litmus-export/. With
# HERD=path/to/herd7 (HERD_LIBDIR=its libdir) herd7 is run on each test and
# its twin; `make litmus-export HERD=... UPDATE=1` rewrites the golden files
# and herd7's verdicts (verdicts.txt).
.PHONY: litmus-export
litmus-export: $(FTV)
	FTV=$(abspath $(FTV)) FTV_TOP=$(CURDIR) /usr/bin/python3 tools/litmus_mutants.py \
		$(if $(HERD),--herd $(HERD)) $(if $(HERD_LIBDIR),--herd-libdir $(HERD_LIBDIR)) \
		$(if $(UPDATE),--update,--check) tests/data/litmus-export
