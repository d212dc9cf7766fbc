# arm64 encoder vectors: generated at build time by GNU as (tools/gen_vectors_a64.py),
# read by tests/test_a64_vectors.c from $(FTV_BUILD)/vectors/a64_vectors.txt.
A64_VECTORS := $(BUILD)/vectors/a64_vectors.txt

$(A64_VECTORS): tools/gen_vectors_a64.py
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_vectors_a64.py --cross $(CROSS_AARCH64) \
		--workdir $(BUILD)/vectors --out $@

CHECK_DEPS += $(A64_VECTORS)
