# make readme-examples: run every "$ " example of README.md and docs/*.md, rewrite the
# outputs that changed (tools/readme_examples.py; make check runs the same
# script with --check, the readme suite). For a deliberate change of output:
# review the diff, then commit it with the change that caused it.
.PHONY: readme-examples
readme-examples: $(FTV) $(CHECK_DEPS)
	$(PYTHON) tools/readme_examples.py --build $(BUILD) --top . --update
