# ftv capture's test inputs: a tiny vmlinux linked three ways (RELA with
# --no-apply-dynamic-relocs as arm64 links vmlinux, RELA applied in place,
# a static ET_EXEC) and a tiny module (.ko, .ko.xz, .ko.zst, .ko.gz, and one
# built for another kernel release), linked with the placeholder PLT
# sections every arm64 module has.
CAP_DIR   := $(BUILD)/capture
CAP_CC    := $(CROSS_AARCH64)gcc
CAP_LD    := $(CROSS_AARCH64)ld
CAP_FLAGS := -O2 -ffreestanding -fno-pic -fno-asynchronous-unwind-tables \
	-fno-stack-protector -fpatchable-function-entry=4,2 -falign-functions=8 \
	-mbranch-protection=standard -Wall -Werror
CAP_LDFLAGS := -T corpus/capture/vmlinux.lds --no-warn-rwx-segments
CAP_VMLINUX := $(addprefix $(CAP_DIR)/,vmlinux-rela vmlinux-applied vmlinux-exec vmlinux-nomcount)
CAP_MODULES := $(addprefix $(CAP_DIR)/,ftvmod.ko ftvmod.ko.xz ftvmod.ko.zst ftvmod.ko.gz ftvmod-other.ko)

.PHONY: capture-fixtures
capture-fixtures: $(CAP_VMLINUX) $(CAP_MODULES)

$(CAP_DIR)/vmlinux.o: corpus/capture/vmlinux.c
	@mkdir -p $(dir $@)
	$(CAP_CC) $(CAP_FLAGS) -c $< -o $@
$(CAP_DIR)/vmlinux-edge.o: corpus/capture/vmlinux-edge.S
	@mkdir -p $(dir $@)
	$(CAP_CC) -c $< -o $@
CAP_VMLINUX_OBJS := $(CAP_DIR)/vmlinux.o $(CAP_DIR)/vmlinux-edge.o
$(CAP_DIR)/vmlinux-rela: $(CAP_VMLINUX_OBJS) corpus/capture/vmlinux.lds
	$(CAP_LD) -shared -Bsymbolic -z notext --no-apply-dynamic-relocs $(CAP_LDFLAGS) $(CAP_VMLINUX_OBJS) -o $@
$(CAP_DIR)/vmlinux-applied: $(CAP_VMLINUX_OBJS) corpus/capture/vmlinux.lds
	$(CAP_LD) -shared -Bsymbolic -z notext $(CAP_LDFLAGS) $(CAP_VMLINUX_OBJS) -o $@
$(CAP_DIR)/vmlinux-exec: $(CAP_VMLINUX_OBJS) corpus/capture/vmlinux.lds
	$(CAP_LD) $(CAP_LDFLAGS) $(CAP_VMLINUX_OBJS) -o $@

# A linked image without the mcount_loc table: not an ftrace kernel.
$(CAP_DIR)/vmlinux-nomcount: $(CAP_DIR)/ftvmod.o
	$(CAP_LD) -shared -z notext --no-warn-rwx-segments $< -o $@

$(CAP_DIR)/ftvmod.o: corpus/capture/module.c
	@mkdir -p $(dir $@)
	$(CAP_CC) $(CAP_FLAGS) -c $< -o $@
$(CAP_DIR)/ftvmod-other.o: corpus/capture/module.c
	@mkdir -p $(dir $@)
	$(CAP_CC) $(CAP_FLAGS) -DFTV_VERMAGIC='"6.2.0-other SMP aarch64"' -c $< -o $@
$(CAP_DIR)/%.ko: $(CAP_DIR)/%.o corpus/capture/module.lds
	$(CAP_LD) -r -T corpus/capture/module.lds $< -o $@
$(CAP_DIR)/ftvmod.ko.xz: $(CAP_DIR)/ftvmod.ko
	xz -9 -c $< > $@
$(CAP_DIR)/ftvmod.ko.zst: $(CAP_DIR)/ftvmod.ko
	zstd -q -c $< > $@
$(CAP_DIR)/ftvmod.ko.gz: $(CAP_DIR)/ftvmod.ko
	gzip -n -c $< > $@

CHECK_DEPS += capture-fixtures
