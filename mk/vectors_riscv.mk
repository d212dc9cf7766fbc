# RISC-V encoder vectors, checked against GNU as/ld (tools/gen_vectors_riscv.py).
RISCV_VECTORS := $(BUILD)/vectors/riscv.txt

$(RISCV_VECTORS): tools/gen_vectors_riscv.py mk/vectors_riscv.mk
	@mkdir -p $(dir $@)
	$(PYTHON) tools/gen_vectors_riscv.py --as $(CROSS_RISCV64)as \
		--ld $(CROSS_RISCV64)ld --work $(BUILD)/vectors/riscv.work --out $@

CHECK_DEPS += $(RISCV_VECTORS)
