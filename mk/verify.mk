# make verify-mutants: every mutant's shortest counterexample from ftv verify
# on its world (tools/verify_mutants.py: the table of docs/verify.md). Minutes, not
# part of check; `make verify-mutants MUTANTS="bl-before-literal ..."` runs
# some.
.PHONY: verify-mutants
verify-mutants: $(FTV)
	FTV=$(abspath $(FTV)) FTV_TOP=$(CURDIR) /usr/bin/python3 tools/verify_mutants.py $(MUTANTS)
